"""Field rules, the defaults that fix wrong verdicts, list pairing and the counts."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from bizhelpers import Suite, jsonl
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_bizbench.benchmarks.field_accuracy import FieldAccuracy
from pytest_bizbench.options.field_rules import RulesError, parse_rules
from pytest_bizbench.scoring import FieldLadder, LadderConfig
from pytest_bizbench.scoring.pairing import pair_items


def rated(rules: dict[str, Any], expected: Any, actual: Any, name: str = "f") -> dict[str, Any]:
    ladder = FieldLadder(LadderConfig(), rules=parse_rules(rules, "rules.yml"))
    return dict(ladder.score_field(name, expected, actual))


@pytest.mark.parametrize(
    ("rule", "expected", "actual", "score"),
    [
        ({"compare": "exact"}, "Acme  Corp", "ACME corp", 1.0),
        ({"compare": "exact"}, "Acme Corp.", "Acme Corp", 0.0),
        ({"compare": "id"}, "INV-2023-001", "inv 2023 001", 1.0),
        ({"compare": "id"}, "INV-2023-001", "INV-2023-002", 0.0),
        ({"compare": "fuzzy", "threshold": 0.8}, "acme corp", "acme crop", 1.0),  # 7/9=0.78? no
        ({"compare": "levenshtein", "threshold": 0.75}, "abcd", "abce", 1.0),  # 1 - 1/4
        ({"compare": "levenshtein", "threshold": 0.8}, "abcd", "abce", 0.0),
        ({"compare": "levenshtein", "threshold": 0.8, "partial": True}, "abcd", "abce", 0.75),
        ({"compare": "token_set"}, "corp acme", "acme corp", 1.0),
        ({"compare": "number", "abs_tol": 0.5, "rel_tol": 0}, "10", "10.4", 1.0),
        ({"compare": "number", "abs_tol": 0.5, "rel_tol": 0}, "10", "10.6", 0.0),
        ({"compare": "number"}, "n/a", "N/A", 1.0),  # not a number: compared as exact
        ({"compare": "date", "tolerance_days": 1}, "2024-01-05", "06/01/2024", 1.0),
        ({"compare": "date"}, "2024-01-05", "06/01/2024", 0.0),
        ({"compare": "bool"}, "yes", "true", 1.0),
    ],
)
def test_each_comparator(rule: dict[str, Any], expected: Any, actual: Any, score: float) -> None:
    assert rated({"f": rule}, expected, actual)["score"] == pytest.approx(score)


def test_fuzzy_ratio_by_hand() -> None:
    # "acme corp" vs "acme crop": indel distance 2 over 18 characters -> 16/18 = 0.8889
    assert (
        rated({"f": {"compare": "fuzzy", "threshold": 0.88}}, "acme corp", "acme crop")["score"]
        == 1.0
    )
    assert (
        rated({"f": {"compare": "fuzzy", "threshold": 0.9}}, "acme corp", "acme crop")["score"]
        == 0.0
    )


def test_digits_are_never_fuzzy_by_default() -> None:
    ladder = FieldLadder(LadderConfig())
    assert ladder.score_field("n", "INV-2023-001", "INV-2023-002")["reason"] == "digits-differ"
    assert ladder.score_field("n", "Consulting - Phase 1", "Consulting - Phase 2")["score"] == 0
    assert ladder.score_field("n", "A-100", "A-101")["score"] == 0.0
    # "12 main st" vs "12 main street": indel distance 4 over 24 characters -> 20/24 = 0.833,
    # below the default 0.9 and above 0.8; the digits (12) agree, so a threshold decides
    assert ladder.score_field("n", "12 Main St", "12 Main Street")["score"] == 0.0
    lenient = {"n": {"compare": "fuzzy", "threshold": 0.8}}
    assert rated(lenient, "12 Main St", "12 Main Street", name="n")["score"] == 1.0
    # "12 main st" vs "13 main street": 1 - 6/24 = 0.75, over 0.7, yet 12 is not 13
    looser = {"n": {"compare": "fuzzy", "threshold": 0.7}}
    assert rated(looser, "12 Main St", "13 Main Street", name="n")["reason"] == "digits-differ"


def test_a_user_comparator_and_ignore(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "my_cmp.py").write_text("def half(e, a):\n    return 0.5\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    rules = {"f": {"compare": "my_cmp:half", "threshold": 0.4}, "g": {"compare": "ignore"}}
    assert rated(rules, "x", "y")["score"] == 1.0
    ladder = FieldLadder(LadderConfig(), rules=parse_rules(rules, "rules.yml"))
    score, details = ladder.score_document({"f": "x", "g": "a"}, {"f": "y", "g": "b"})
    assert score == 1.0
    assert "g" not in details


def test_empty_is_a_value() -> None:
    ladder = FieldLadder(LadderConfig())
    for expected in ("", [], {}):
        entry = ladder.score_field("f", expected, None)
        assert (entry["score"], entry["rung"], entry["tn"]) == (1.0, "empty", 1)
        assert ladder.score_field("f", expected, "x")["fa"] == 1
    assert ladder.score_document({}, {})[0] == 1.0
    assert ladder.score_document({}, {"a": 1})[0] == 0.0
    assert ladder.score_document({"a": ""}, {})[0] == 1.0


def test_weights_and_extra_fields() -> None:
    rules = {"a": {"weight": 3}, ".": {"extra": "penalize"}}
    ladder = FieldLadder(LadderConfig(), rules=parse_rules(rules, "r"))
    score, details = ladder.score_document({"a": 1, "b": 1}, {"a": 1, "b": 2, "c": 5})
    # (3 * 1 + 1 * 0 + 1 * 0 for the extra c) / 5
    assert score == pytest.approx(3 / 5)
    assert details["extra_fields"] == ["c"]
    assert details["field_counts"]["c"] == {"tp": 0, "fd": 0, "fn": 0, "fa": 1, "tn": 0}


def test_pairing_prefers_the_identical_copy() -> None:
    ladder = FieldLadder(LadderConfig())
    entry = ladder.score_field(
        "d", ["Consulting - Phase 1", "Consulting - Phase 2"], ["Consulting - Phase 2"]
    )
    assert entry["matched"] == [["Consulting - Phase 2", "Consulting - Phase 2", 1.0]]
    assert entry["missed"] == ["Consulting - Phase 1"]
    # 100.5 is within 1% of 100 and of 101; the identical 101 goes to 101
    entry = ladder.score_field("a", [100, 101], [101, 100.5])
    assert entry["matched"] == [[100, 100.5, 1.0], [101, 101, 1.0]]
    rng = random.Random(3)
    amounts = [rng.randint(100, 999) for _ in range(200)] + [500] * 800
    entry = ladder.score_field("a", amounts, list(reversed(amounts)))
    assert all(e == a for e, a, _ in entry["matched"])


def test_object_match_threshold_splits_a_weak_pair() -> None:
    # quantity alone agrees: 1/3 < 0.5, so a miss and a false alarm, not 1/3 credit
    entry = FieldLadder(LadderConfig()).score_field(
        "items", [{"sku": "A", "qty": 2, "p": 5}], [{"sku": "B", "qty": 2, "p": 9}]
    )
    assert (entry["score"], entry["fn"], entry["fa"]) == (0.0, 1, 1)
    entry = rated({"items[]": {"match_threshold": 0.3}}, [{"s": "A", "q": 2, "p": 5}],
                  [{"s": "B", "q": 2, "p": 9}], "items")  # fmt: skip
    assert entry["score"] == pytest.approx(1 / 3)


def test_counts_by_hand() -> None:
    expected = {"a": "x", "b": "y", "c": None, "d": "", "items": [{"q": 1}, {"q": 2}]}
    actual = {"a": "x", "b": "z", "c": "w", "items": [{"q": 1}, {"q": 7}, {"q": 3}]}
    _, details = FieldLadder(LadderConfig()).score_document(expected, actual)
    counts = details["field_counts"]
    assert counts["a"]["tp"] == 1
    assert counts["b"]["fd"] == 1
    assert counts["c"]["fa"] == 1
    assert counts["d"]["tn"] == 1
    # q=1 paired; {q:2} missed (fn), {q:7} and {q:3} hallucinated (fa 2)
    assert counts["items[].q"] == {"tp": 1, "fd": 0, "fn": 1, "fa": 2, "tn": 0}
    metrics = FieldAccuracy().compute([])
    assert metrics["fields"]["total"]["f1"] is None


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ({"f": {"compar": "exact"}}, ["rules.yml", "'f'", "'compar'", "'compare'"]),
        ({"f": {"compare": "fuzy"}}, ["rules.yml", "'fuzy'", "'fuzzy'"]),
        ({"items[0].x": {"compare": "exact"}}, ["rules.yml", "'items[0].x'", "'items[].x'"]),
    ],
)
def test_rules_errors_name_the_file_the_key_and_the_closest_word(
    rules: dict[str, Any], words: list[str]
) -> None:
    with pytest.raises(RulesError) as info:
        parse_rules(rules, "rules.yml")
    for word in words:
        assert word in str(info.value)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 6), max_size=10), st.lists(st.integers(0, 6), max_size=10),
       st.randoms())  # fmt: skip
def test_properties_pairing_shuffle_score_and_counts(
    expected: list[int], actual: list[int], rnd: random.Random
) -> None:
    ladder = FieldLadder(LadderConfig(abs_tol=1.0, rel_tol=0.0))
    entry = ladder.score_field("n", expected, actual)
    assert 0.0 <= entry["score"] <= 1.0
    assert entry["tp"] + entry["fd"] + entry["fn"] == len(expected)
    assert entry["tp"] + entry["fd"] + entry["fa"] == len(actual)
    shuffled_e, shuffled_a = expected[:], actual[:]
    rnd.shuffle(shuffled_e)
    rnd.shuffle(shuffled_a)
    again = ladder.score_field("n", shuffled_e, shuffled_a)
    keys = ("score", "tp", "fd", "fn", "fa")
    assert [again[k] for k in keys] == pytest.approx([entry[k] for k in keys])


def test_pair_items_ties_go_to_the_lowest_indices() -> None:
    one = {0: (1.0, 1.0), 1: (1.0, 1.0)}
    assert pair_items([one, one], 2) == [(0, 0), (1, 1)]
    assert pair_items([{0: (1.0, 1.0)}, {0: (1.0, 1.0)}], 1) == [(0, 0)]


@pytest.mark.parametrize("workers", [None, "2"])
def test_end_to_end_with_a_rules_file(suite: Suite, workers: str | None) -> None:
    suite.write(
        "rules.yml",
        "invoice_number: {compare: id}\nitems[]: {match_threshold: 0.5}\n",
    )
    suite.write(
        "pytest.ini",
        "[pytest]\nbizbench_field_rules = rules.yml\nbizbench_thresholds =\n"
        "    field-accuracy:fields.total.f1 >= 0.5\n",
    )
    suite.write(
        "c.ground-truth.jsonl",
        jsonl(
            [
                {
                    "id": "c1",
                    "labels": [],
                    "ground_truth": {"invoice_number": "INV-1", "items": [{"q": 1, "s": "A"}]},
                    "extracted_fields": {
                        "invoice_number": "inv 1",
                        "items": [{"q": 1, "s": "A"}],
                        "note": "x",
                    },
                }
            ]
        ),
    )
    args = ["-n", workers] if workers else []
    result = suite.pytester.runpytest_subprocess(*args)
    assert result.ret == pytest.ExitCode.OK
    report = json.loads((suite.path / "bizbench-report.json").read_text())
    bench = report["benchmarks"]["field-accuracy"]
    assert bench["config"]["field_rules"]["invoice_number"] == {"compare": "id"}
    details = bench["models"]["default"]["documents"][0]["details"]
    assert details["extra_fields"] == ["note"]
    assert details["invoice_number"]["tp"] == 1
    assert details["items"]["matched"][0][3]["s"]["rung"] == "exact"
    metrics = bench["models"]["default"]["metrics"]
    # tp 3 (invoice_number, items[].q, items[].s), fa 1 (note): P 3/4, R 1, F1 6/7
    assert metrics["fields"]["total"]["f1"] == pytest.approx(6 / 7)
    assert metrics["field_f1"] == pytest.approx(6 / 7)
