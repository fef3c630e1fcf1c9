"""The typed protocol of a document's details: every key the ladder writes is
declared in `FieldEntry`, and the readers keep only entries of that shape."""

from __future__ import annotations

from typing import Any

from pytest_bizbench.details import FieldEntry, field_entries, flat_entries
from pytest_bizbench.run.failure import unscored_fields
from pytest_bizbench.scoring.ladder import FieldLadder, LadderConfig

DECLARED = FieldEntry.__required_keys__ | FieldEntry.__optional_keys__


def _keys(entry: Any) -> set[str]:
    """Every key of an entry and of its nested sub-field entries."""
    keys = set(entry)
    for inner in (entry.get("fields") or {}).values():
        keys |= _keys(inner)
    return keys


def _failing_judge(field: str, expected: Any, actual: Any) -> float | None:
    raise RuntimeError("judge down")


def test_every_key_the_ladder_writes_is_declared() -> None:
    ladder = FieldLadder(LadderConfig(max_list_items=1, max_text_chars=5), judge=_failing_judge)
    cases: list[tuple[Any, Any]] = [
        ("Acme Corp", "Acme Corp"),  # exact
        ("Acme Corporation", "Acme Corporatoin"),  # fuzzy over the text cap, budget
        ("alpha", "omega"),  # judge fails: unscored with a reason
        (["a", "b"], ["a", "c"]),  # set over the list cap: matched/missed/..., budget
        ({"net": 10.0, "date": "2024-01-31"}, {"net": "ten", "date": "31.01.2024"}),
        (True, "yes"),  # bool, not a bool
        ("x", None),  # missing
    ]
    written: set[str] = set()
    for expected, actual in cases:
        written |= _keys(ladder.score_field("f", expected, actual))
    assert written <= DECLARED, written - DECLARED
    assert {"score", "rung", "expected", "actual", "fields", "unscored", "budget"} <= written
    assert {"matched", "missed", "hallucinated", "similarity", "reason"} <= written


def test_field_entries_keeps_only_objects_with_a_numeric_score() -> None:
    details = {
        "total": {"score": 0.5, "rung": "number"},
        "flag": {"score": True, "rung": "bool"},  # a bool is no score
        "note": {"rung": "fuzzy"},
        "completeness": 1.0,
    }
    assert list(field_entries(details)) == ["total"]


def test_flat_entries_names_nested_fields_with_dots() -> None:
    details = {
        "party": {
            "score": 0.5,
            "rung": "nested",
            "fields": {
                "name": {"score": 1.0, "rung": "exact"},
                "vat": {"score": 0.0, "rung": "fuzzy"},
            },
        },
        "total": {"score": 1.0, "rung": "number"},
        "quality": 0.5,
    }
    assert [name for name, _ in flat_entries(details)] == ["party.name", "party.vat", "total"]


def test_unscored_fields_are_found_at_any_depth_and_only_where_flagged() -> None:
    # the judge fails on a nested object's sub-field and on a top-level field
    def judge(field: str, expected: Any, actual: Any) -> float | None:
        if field in {"name", "note"}:
            raise RuntimeError("judge down")
        return None

    expected = {"buyer": {"name": "Acme Corp", "city": "Oslo"}, "note": "paid", "total": 5}
    actual = {"buyer": {"name": "Zeta Holdings", "city": "Oslo"}, "note": "settled", "total": 5}
    _, details = FieldLadder(LadderConfig(), judge=judge).score_document(expected, actual)
    assert unscored_fields(details) == ["buyer.name", "note"]
    _, clean = FieldLadder(LadderConfig()).score_document(expected, actual)
    assert unscored_fields(clean) == []


def test_unscored_fields_follow_only_nested_entries_so_a_loop_elsewhere_ends() -> None:
    looped: dict[str, Any] = {}
    looped["f"] = {"score": 1.0, "rung": "exact", "fields": looped}
    assert unscored_fields(looped) == []
