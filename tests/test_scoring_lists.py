"""List fields in bulk and the work budgets: same results as one ladder call per pair.

The reference is `LadderConfig(bulk_lists=False)`: every pair scored by the ladder,
then the same pairing, as before the bulk path existed.
"""

from __future__ import annotations

import json
import random
from datetime import date, timedelta
from typing import Any

import pytest
from bizhelpers import Suite, jsonl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_bizbench.scoring import FieldLadder, LadderConfig
from pytest_bizbench.scoring.pairs import PairScorer, copies, numpy_module

WORDS = ["acme", "acme corp", "ACME Corp.", "beta llc", "gamma", "gama", "", " ", "Straße"]
NUMBERS = [1, 2, 2.0, "2", "$2.00", "1,000", "1000", 0.5, "n/a", 1e300, -3, "(3)"]
DATES = ["2024-01-05", "05/01/2024", "5 Jan 2024", "2024-01-06", "Jan 5, 2024", "x"]
BOOLS = [True, False, "yes", "no", "maybe"]
FIELDS = {"notes", "amounts", "dates", "items"}


@pytest.fixture(params=["numpy", "pure-python"])
def numpy_or_not(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test twice: with numpy (the `fast` extra) and as if it were not installed."""
    if request.param == "pure-python":
        monkeypatch.setattr("pytest_bizbench.scoring.pairs.numpy_module", lambda: None)
    elif numpy_module() is None:
        pytest.skip("numpy is not installed")
    return str(request.param)


def item(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.random()
    if pick < 0.3:
        return rng.choice(WORDS)
    if pick < 0.45:
        return rng.choice(NUMBERS)
    if pick < 0.55:
        return rng.choice([*DATES, None])
    if pick < 0.62:
        return rng.choice(BOOLS)
    if pick < 0.8 and depth < 2:
        return {
            "name": item(rng, depth + 1),
            "qty": rng.choice([1, 2, None, "2"]),
            "when": rng.choice(["2024-01-05", "x", None]),
        }
    if pick < 0.85 and depth < 2:
        return [item(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return rng.choice(WORDS)


def both_paths(name: str, expected: Any, actual: Any, **config: Any) -> tuple[str, str]:
    fields = {
        "free_text_fields": frozenset({"notes"}),
        "numeric_fields": frozenset({"amounts"}),
        "date_fields": frozenset({"dates"}),
        **config,
    }
    bulk = FieldLadder(LadderConfig(**fields)).score_field(name, expected, actual)
    reference = FieldLadder(LadderConfig(bulk_lists=False, **fields)).score_field(
        name, expected, actual
    )
    return json.dumps(bulk), json.dumps(reference)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.usefixtures("numpy_or_not")
def test_bulk_path_equals_one_call_per_pair_on_varied_lists(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(150):
        expected = [item(rng) for _ in range(rng.randint(0, 8))]
        actual = [item(rng) for _ in range(rng.randint(0, 8))]
        if rng.random() < 0.4:  # duplicates and ties: items shared, repeated, reordered
            actual += rng.sample(expected, min(len(expected), 3)) * rng.randint(1, 2)
            rng.shuffle(actual)
        strictness = rng.choice([0.9, 0.5, 0.0, 1.0])
        bulk, reference = both_paths(
            rng.choice(sorted(FIELDS)), expected, actual, strictness=strictness
        )
        assert bulk == reference


@pytest.mark.usefixtures("numpy_or_not")
def test_bulk_path_equals_one_call_per_pair_on_long_lists_with_duplicates() -> None:
    rng = random.Random(7)
    quantities = [rng.randint(1, 40) for _ in range(150)]
    shifted = [q + rng.choice([0, 0, 0, 1]) for q in quantities]
    bulk, reference = both_paths("amounts", quantities, shifted)
    assert bulk == reference
    words = [rng.choice(WORDS) + rng.choice(["", "x", " inc"]) for _ in range(120)]
    noisy = [w.upper() if rng.random() < 0.5 else w + "!" for w in words]
    for name in ("items", "notes"):
        bulk, reference = both_paths(name, words, noisy)
        assert bulk == reference


TIES = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


amounts = st.sampled_from([1, 2, 2.0, "2", "$2.00", 99, 100, 101, "101.00", 102, 200, 202, None])
days = st.sampled_from(
    ["2024-01-05", "05/01/2024", "5 Jan 2024", "2024-01-06", "06/01/2024", "x", None]
)
notes = st.sampled_from(["acme", "acme corp", "ACME Corp.", "acme co", "beta", "bet", ""])
lines = st.fixed_dictionaries(
    {"qty": st.sampled_from([1, 2, "2", None]), "name": notes, "when": days}
)
LIST_KINDS = {"amounts": amounts, "dates": days, "notes": notes, "items": lines}


@TIES
@given(st.data())
@pytest.mark.usefixtures("numpy_or_not")
def test_bulk_path_equals_one_call_per_pair_on_heavily_duplicated_lists(
    data: st.DataObject,
) -> None:
    # few distinct values, many copies: numbers (100 and 101 within tolerance of each
    # other, 99 not of 100's... both ways), dates in several spellings, free text with
    # partial credit, objects with partial sub-scores
    name = data.draw(st.sampled_from(sorted(LIST_KINDS)))
    items = LIST_KINDS[name]
    expected = data.draw(st.lists(items, max_size=14))
    actual = data.draw(st.lists(items, max_size=14))
    bulk, reference = both_paths(name, expected, actual)
    assert bulk == reference


def iso_days(start: int, count: int) -> list[str]:
    first = date(2000, 1, 1)
    return [(first + timedelta(days=start + k)).isoformat() for k in range(count)]


def test_list_over_the_item_cap_is_matched_in_order_and_flagged() -> None:
    expected = iso_days(0, 20_000)
    # the first 5,000 in place, the rest rotated by one: in order only 5,000 pairs agree
    # (as a set every item would), so credit 5,000 and F1 = 2 * 5,000 / 40,000
    actual = expected[:5000] + expected[5001:] + [expected[5000]]
    score, details = FieldLadder(LadderConfig()).score_document(
        {"days": expected, "vendor": "Acme"}, {"days": actual, "vendor": "ACME"}
    )
    days = details["days"]
    assert days["budget"] == "list items over bizbench_max_list_items (2000): matched in order"
    assert (days["score"], days["precision"], days["recall"]) == (0.25, 0.25, 0.25)
    assert days["truncated"] is True
    assert details["vendor"] == {
        "score": 1.0,
        "rung": "exact",
        "expected": "Acme",
        "actual": "ACME",
        **{"tp": 1, "fd": 0, "fn": 0, "fa": 0, "tn": 0},
    }
    assert score == (0.25 + 1.0) / 2


def test_raised_item_cap_matches_the_long_list_as_a_set() -> None:
    expected = iso_days(0, 20_000)
    actual = expected[:5000] + expected[5001:] + [expected[5000]]
    entry = FieldLadder(LadderConfig(max_list_items=20_000)).score_field("days", expected, actual)
    assert "budget" not in entry
    assert entry["score"] == 1.0


def test_texts_over_the_char_cap_compare_their_first_chars_and_are_flagged() -> None:
    expected, actual = "ab" * 2_000_000, "b" * 4_000_000  # 4 MB each
    # the first 20,000 characters: "abab…" against "bbbb…", LCS 10,000 of 40,000 chars
    ladder = FieldLadder(LadderConfig(free_text_fields=frozenset({"notes"})))
    score, details = ladder.score_document(
        {"notes": expected, "total": 12.5}, {"notes": actual, "total": "12.50"}
    )
    notes = details["notes"]
    assert notes["budget"] == (
        "text over bizbench_max_text_chars (20000): similarity of the first 20000 characters"
    )
    assert (notes["score"], notes["rung"], notes["similarity"]) == (0.5, "free-text", 0.5)
    assert details["total"]["score"] == 1.0
    assert score == 0.75


def test_long_equal_texts_stay_exact_and_unflagged() -> None:
    text = "word " * 10_000
    entry = FieldLadder(LadderConfig(max_text_chars=100)).score_field("t", text, text.upper())
    assert (entry["score"], entry["rung"]) == (1.0, "exact")
    assert "budget" not in entry


def test_budget_ini_keys_reach_the_report(suite: Suite) -> None:
    suite.cases(
        "cases/a.ground-truth.jsonl",
        [
            {
                "id": "c1",
                "labels": [],
                "ground_truth": {"tags": ["x", "y", "z"], "memo": "abcdefghij"},
                "extracted_fields": {"tags": ["y", "x", "z"], "memo": "abcdefghiK-more"},
            }
        ],
    )
    suite.write(
        "pytest.ini",
        "[pytest]\nbizbench_max_list_items = 2\nbizbench_max_text_chars = 10\n"
        "bizbench_free_text_fields = memo\n",
    )
    result = suite.pytester.runpytest()
    assert result.ret == pytest.ExitCode.OK  # 0.67, above the default pass mark
    details = suite.documents()["c1"]["details"]
    # in order: x/y and y/x fail, z/z matches: credit 1, F1 = 2 / 6
    assert details["tags"]["budget"] == (
        "list items over bizbench_max_list_items (2): matched in order"
    )
    assert details["tags"]["score"] == 2 * 1.0 / 6
    # first 10 characters: "abcdefghij" against "abcdefghik", similarity 0.9 = strictness
    assert (details["memo"]["score"], details["memo"]["rung"]) == (1.0, "fuzzy")
    assert details["memo"]["budget"].startswith("text over bizbench_max_text_chars (10)")


@pytest.mark.parametrize("key", ["bizbench_max_list_items", "bizbench_max_text_chars"])
def test_budget_ini_keys_must_be_positive(suite: Suite, key: str) -> None:
    suite.write("cases/a.ground-truth.jsonl", jsonl([]))
    suite.write("pytest.ini", f"[pytest]\n{key} = 0\n")
    result = suite.pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: *{key} = '0' must be between 1 and inf*"])


def test_an_identical_copy_is_paired_before_a_neighbour_and_copies_pair_in_order() -> None:
    # both actual items match "Acme Corp" (fuzzy 0.9474 and exact): the identical one is taken
    entry = FieldLadder(LadderConfig()).score_field("v", ["Acme Corp"], ["ACME Corp.", "Acme Corp"])
    assert entry["matched"] == [["Acme Corp", "Acme Corp", 1.0]]
    assert entry["hallucinated"] == ["ACME Corp."]
    # equally close copies pair in order of position: first with first
    entry = FieldLadder(LadderConfig()).score_field("n", [2, 2], ["2", 2.0, "$2"])
    assert entry["matched"] == [[2, "2", 1.0], [2, 2.0, 1.0]]
    assert entry["hallucinated"] == ["$2"]


def test_copies_group_items_equal_in_every_way_the_ladder_sees() -> None:
    items = ["a", 1, "a", 1.0, {"k": [1, 2]}, {"k": [1, 2]}, True, 1, None, None]
    assert copies(items) == [[0, 2], [1, 7], [3], [4, 5], [6], [8, 9]]
    # each of these pairs is equal by value or by JSON, yet text compares their spelling
    apart = [
        (-0.0, 0.0),
        ({1: "a"}, {"1": "a"}),
        ({True: "a"}, {"true": "a"}),
        ({"b": 2, "a": 1}, {"a": 1, "b": 2}),
        ((1, 2), [1, 2]),
        ({"a": date(2024, 1, 1)}, {"a": "datetime.date(2024, 1, 1)"}),
    ]
    for one, other in apart:
        assert copies([one, other]) == [[0], [1]], (one, other)


@pytest.mark.parametrize(
    ("expected", "actual"),
    [
        (["-0.0"] * 16, [0.0, -0.0] * 8),
        ([{"1": "a"}] * 16, [{1: "a"}, {"1": "a"}] * 8),
        ([{"true": "a"}] * 16, [{True: "a"}, {"true": "a"}] * 8),
        (["{'b': 2, 'a': 1}"] * 16, [{"a": 1, "b": 2}, {"b": 2, "a": 1}] * 8),
        (["[1, 2]"] * 16, [(1, 2), [1, 2]] * 8),
    ],
)
def test_items_that_score_apart_are_not_copies(expected: list[Any], actual: list[Any]) -> None:
    bulk, reference = both_paths("items", expected, actual)
    assert bulk == reference
    assert json.loads(bulk)["score"] == 0.5  # 8 of the 16 actual items match


@pytest.mark.usefixtures("numpy_or_not")
def test_lists_of_copies_equal_one_call_per_pair() -> None:
    rng = random.Random(3)
    line = {"sku": "A-1", "qty": 2, "price": 9.5}
    other = {"sku": "A-1", "qty": 3, "price": 9.5}  # a candidate of `line`: not apart
    for expected, actual in [
        (["bolt"] * 30 + ["nut"] * 5, ["nut"] * 7 + ["bolt"] * 20),  # two groups apart
        ([5.0] * 12 + [5.01] * 6 + [7] * 3, [5.01] * 4 + [5.0] * 9 + [7] * 5),  # 5s together
        ([line] * 15 + [other] * 4, [other] * 6 + [line] * 10),
        ([line] * 8 + ["bolt"] * 8, ["bolt"] * 3 + [line] * 9 + ["bolt"] * 2),
    ]:
        rng.shuffle(actual)
        for name in ("items", "amounts"):
            bulk, reference = both_paths(name, expected, actual)
            assert bulk == reference


def test_copies_of_one_item_are_rated_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    line = {"sku": "A-1", "qty": 2, "price": 9.5}
    seen: list[tuple[int, int]] = []
    rows = PairScorer.rows

    def counted(self: PairScorer, path: str, wanted: Any, given: Any, floor: float) -> Any:
        seen.append((len(wanted), len(given)))
        return rows(self, path, wanted, given, floor)

    monkeypatch.setattr(PairScorer, "rows", counted)
    entry = FieldLadder(LadderConfig()).score_field("items", [line] * 300, [line] * 250)
    assert seen == [(1, 1)]  # one distinct value each side, not 300 x 250 pairs
    # 250 pairs of credit 1 out of 300 + 250 items; 50 expected copies missed
    assert entry["score"] == pytest.approx(2 * 250 / 550)
    assert (entry["tp"], entry["fn"], entry["fa"]) == (250, 50, 0)  # counted per item


def test_too_many_pairs_of_objects_are_paired_by_credit_and_say_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # both actual objects are within 1% of the expected one (credit 1); compared field
    # by field, the copy is the closer; by credit alone they tie and the lower index wins
    expected, actual = [{"n": 100}], [{"n": 100.5}, {"n": 100}]
    rated = FieldLadder(LadderConfig()).score_field("items", expected, actual)
    assert rated["matched"][0][1] == {"n": 100}
    assert "budget" not in rated
    monkeypatch.setattr("pytest_bizbench.scoring.pairs.MAX_RATED_PAIRS", 1)
    cut = FieldLadder(LadderConfig()).score_field("items", expected, actual)
    assert cut["matched"][0][1] == {"n": 100.5}
    assert cut["budget"] == "more than 100000 pairs of objects: paired by credit"
    assert cut["score"] == rated["score"] == pytest.approx(2 * 1 / 3)


@pytest.mark.parametrize(
    ("expected", "actual"),
    [
        # 0.5 + 2/3 + 1/3 summed in order is 1.4999999999999998: a third of it is under
        # the 0.5 match threshold, where the whole comparison gives 0.5
        (
            [{"p": ["a"], "q": ["a", "b"], "r": ["a"]}],
            [{"p": ["a", "x", "y"], "q": ["a"], "r": ["a", "x", "y", "z", "w"]}],
        ),
        # a list of nulls is empty, and so is a missing one
        ([{"a": "x", "b": [None], "c": "y"}], [{"a": "x"}]),
        ([[None]], [None, "a"]),
    ],
)
def test_the_bulk_path_keeps_pairs_at_the_threshold_and_empty_lists(
    expected: list[Any], actual: list[Any]
) -> None:
    bulk, reference = both_paths("items", expected, actual)
    assert bulk == reference
    assert json.loads(bulk)["score"] > 0.0


def test_objects_paired_by_credit_keep_the_exact_score(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = [{"p": list("abcde"), "q": ["a"], "r": list("abc")}]
    actual = [{"p": list("avwxy"), "q": list("axy"), "r": list("abcz")}]
    whole = FieldLadder(LadderConfig()).score_field("items", expected, actual)
    monkeypatch.setattr("pytest_bizbench.scoring.pairs.MAX_RATED_PAIRS", 0)
    by_credit = FieldLadder(LadderConfig()).score_field("items", expected, actual)
    assert "budget" in by_credit
    assert by_credit["score"] == whole["score"]  # to the last bit: the pair compared whole
