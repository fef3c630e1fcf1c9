"""List fields in bulk and the work budgets: same results as one ladder call per pair.

The reference is `LadderConfig(bulk_lists=False)`: every pair scored by the ladder
and paired by the pure-Python Kuhn-Munkres, as before the bulk path existed.
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
from rapidfuzz import process

import pytest_bizbench.scoring.assign as assign_module
from pytest_bizbench.scoring import FieldLadder, LadderConfig
from pytest_bizbench.scoring.assign import (
    MARGIN,
    NUMPY_CELLS,
    assign,
    kuhn_munkres,
    kuhn_munkres_numpy,
    kuhn_munkres_unit,
    numpy_module,
)
from pytest_bizbench.scoring.assign import _only_optimum as only_optimum

WORDS = ["acme", "acme corp", "ACME Corp.", "beta llc", "gamma", "gama", "", " ", "Straße"]
NUMBERS = [1, 2, 2.0, "2", "$2.00", "1,000", "1000", 0.5, "n/a", 1e300, -3, "(3)"]
DATES = ["2024-01-05", "05/01/2024", "5 Jan 2024", "2024-01-06", "Jan 5, 2024", "x"]
BOOLS = [True, False, "yes", "no", "maybe"]
FIELDS = {"notes", "amounts", "dates", "items"}


@pytest.fixture(params=["numpy", "pure-python"])
def numpy_or_not(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test twice: with numpy (the `fast` extra) and as if it were not installed."""
    if request.param == "pure-python":
        for module in ("assign", "pairs"):
            monkeypatch.setattr(f"pytest_bizbench.scoring.{module}.numpy_module", lambda: None)
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


def test_tie_goes_to_the_first_actual_item_as_before() -> None:
    # both actual items match "Acme Corp" (fuzzy 1.0 and exact 1.0): the first is taken
    entry = FieldLadder(LadderConfig()).score_field("v", ["Acme Corp"], ["ACME Corp.", "Acme Corp"])
    assert entry["matched"] == [["Acme Corp", "ACME Corp.", 1.0]]
    assert entry["hallucinated"] == ["Acme Corp"]
    # duplicates pair in order of position: first with first
    entry = FieldLadder(LadderConfig()).score_field("n", [2, 2], ["2", 2.0, "$2"])
    assert entry["matched"] == [[2, "2", 1.0], [2, 2.0, 1.0]]
    assert entry["hallucinated"] == ["$2"]


def random_matrix(rng: random.Random, values: list[float]) -> list[list[float]]:
    rows = rng.randint(1, 9)
    cols = rng.randint(rows, 11)
    density = rng.random()
    if rng.random() < 0.3:  # blocks of identical rows and columns: all ties
        period = rng.randint(1, 3)
        return [
            [1.0 if j % period == i % period else 0.0 for j in range(cols)] for i in range(rows)
        ]
    return [
        [rng.choice(values) if rng.random() < density else 0.0 for _ in range(cols)]
        for _ in range(rows)
    ]


def test_unit_solver_takes_the_same_pairs_as_kuhn_munkres() -> None:
    rng = random.Random(3)
    for _ in range(1500):
        scores = random_matrix(rng, [1.0])
        ones = [[j for j, score in enumerate(row) if score] for row in scores]
        assert kuhn_munkres_unit(ones, len(scores[0])) == kuhn_munkres(scores)


def test_numpy_solver_takes_the_same_pairs_as_kuhn_munkres() -> None:
    np = pytest.importorskip("numpy")
    rng = random.Random(4)
    for _ in range(800):
        scores = random_matrix(rng, [1.0, 0.5, 0.25, 1 / 3, 0.9])
        assert kuhn_munkres_numpy(np, scores) == kuhn_munkres(scores)


TIES = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@st.composite
def duplicated_ones(draw: st.DrawFn) -> tuple[list[list[int]], int]:
    """A 0/1 matrix of few distinct values repeated: rows and columns of equal values are
    identical; a row scores 1 on columns within `reach` of its value (0: equal only), so
    equal values form blocks and `reach` > 0 chains them, as numbers with a tolerance do."""
    pool = draw(st.integers(1, 5))
    reach = draw(st.integers(0, 1))
    rows = draw(st.lists(st.integers(0, pool), min_size=1, max_size=12))
    cols = draw(st.lists(st.integers(0, pool), min_size=len(rows), max_size=16))
    ones = [[j for j, c in enumerate(cols) if abs(c - r) <= reach] for r in rows]
    return ones, len(cols)


@TIES
@given(duplicated_ones())
def test_unit_solver_takes_the_same_pairs_on_duplicated_values(
    matrix: tuple[list[list[int]], int],
) -> None:
    ones, cols = matrix
    dense = [[1.0 if j in row else 0.0 for j in range(cols)] for row in ones]
    assert kuhn_munkres_unit(ones, cols) == kuhn_munkres(dense)


def test_unit_solver_pairs_equal_values_first_with_first_and_moves_a_row_off_its_block() -> None:
    # rows valued 7, 7, 7, 9 against columns valued 9, 7, 7 and one no row scores: the
    # first two 7s take the 7 columns in order (at distance 0); the third 7 has none
    # left, so its search goes to distance 1 and gives it column 0, a zero pair; the 9
    # row then takes column 0 back and the third 7 moves to column 3 (pairs by column)
    ones = [[1, 2], [1, 2], [1, 2], [0]]
    assert kuhn_munkres_unit(ones, 4) == [(3, 0), (0, 1), (1, 2), (2, 3)]
    dense = [[1.0 if j in row else 0.0 for j in range(4)] for row in ones]
    assert kuhn_munkres(dense) == [(3, 0), (0, 1), (1, 2), (2, 3)]


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


def test_assign_skips_search_when_each_item_has_one_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rows: list[dict[int, float]] = [{2: 1.0}, {}, {0: 0.5}, {1: 1.0}]

    def no_search(*args: Any) -> list[tuple[int, int]]:
        raise AssertionError("searched")

    monkeypatch.setattr("pytest_bizbench.scoring.assign._solve", no_search)
    assert assign(rows, 3) == [(0, 2, 1.0), (2, 0, 0.5), (3, 1, 1.0)]


def best_first_rows(rng: random.Random, n_rows: int, n_cols: int) -> list[dict[int, float]]:
    """Rows with many partial scores, most of them with one clear best column (as
    line items that each match their own counterpart), and now and then a shared
    best, a tie or a best ahead by no more than the shortcut's margin."""
    own = rng.sample(range(n_cols), min(n_rows, n_cols))
    rows: list[dict[int, float]] = []
    for i in range(n_rows):
        row = {j: rng.choice([0.25, 1 / 3, 0.5, rng.random() * 0.6]) for j in
               rng.sample(range(n_cols), rng.randint(0, n_cols))}  # fmt: skip
        if i < len(own) and rng.random() < 0.9:
            row[own[i]] = rng.choice([1.0, 2 / 3, 0.9, 0.61])
        roll = rng.random()
        if row and roll < 0.05:  # a tie for the best
            best = max(row, key=row.__getitem__)
            row[rng.randrange(n_cols)] = row[best]
        elif row and roll < 0.1:  # ahead by the margin or less
            best = max(row, key=row.__getitem__)
            others = [j for j in range(n_cols) if j != best]
            if others:
                row[rng.choice(others)] = row[best] - rng.choice([MARGIN, MARGIN / 2, 1e-12])
        elif roll < 0.15 and own:  # another row's best
            row[rng.choice(own)] = 1.0
        rows.append(row)
    return rows


def test_the_pairing_without_a_search_is_the_searched_one_whenever_it_applies() -> None:
    """The shortcut's pairing equals the full search's (no shortcut), on matrices
    where it applies and where a tie, a near tie or a shared best stops it."""
    rng = random.Random(11)
    shortcut_taken = 0
    for _ in range(3000):
        n_rows, n_cols = rng.randint(1, 7), rng.randint(1, 7)
        rows = best_first_rows(rng, n_rows, n_cols)
        live = [i for i, row in enumerate(rows) if row]
        shortcut_taken += only_optimum(rows, live) is not None
        assert assign(rows, n_cols) == assign(rows, n_cols, solver=kuhn_munkres), rows
    assert shortcut_taken > 500  # the generator reaches both sides


def test_the_only_optimum_is_taken_without_a_search_and_anything_else_is_searched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Worked by hand. `clear`: each row's best is its own. `tied`: row 2 scores
    columns 2 and 0 alike, but column 0 is row 0's only best, which leads by 0.4:
    row 2 taking it costs row 0 more than row 2 gains, so the pairing is still the
    only optimum. `open_tie`: row 2's other best, column 3, is nobody's, so two
    pairings reach the same total and the search's tie rule decides."""
    clear = [{0: 0.9, 1: 0.5, 2: 1 / 3}, {1: 1.0, 0: 0.5}, {2: 0.61, 0: 0.25}]
    tied = [*clear[:2], {2: 0.61, 0: 0.61 - MARGIN / 2}]
    open_tie = [*clear[:2], {2: 0.61, 3: 0.61}]
    pairs = [(0, 0, 0.9), (1, 1, 1.0), (2, 2, 0.61)]
    assert only_optimum(clear, [0, 1, 2]) == pairs
    assert only_optimum(tied, [0, 1, 2]) == pairs
    assert only_optimum(open_tie, [0, 1, 2]) is None
    assert only_optimum([{0: 1.0}, {0: 0.9, 1: 0.1}], [0, 1]) is None  # one only best twice
    # row 0 ties into column 0, row 1's only best, which leads row 1's next score by
    # no more than twice the margin: no price proves the tie away closely enough
    assert only_optimum([{0: 0.5, 1: 0.5}, {0: 0.7, 2: 0.7 - 1.5 * MARGIN}], [0, 1]) is None
    assert only_optimum([{0: 0.5, 1: 0.5}, {0: 0.7, 2: 0.6}], [0, 1]) == [(0, 1, 0.5), (1, 0, 0.7)]

    def no_search(*args: Any) -> list[tuple[int, int]]:
        raise AssertionError("searched")

    monkeypatch.setattr("pytest_bizbench.scoring.assign._solve", no_search)
    assert assign(clear, 3) == assign(tied, 3) == pairs
    with pytest.raises(AssertionError, match="searched"):
        assign(open_tie, 4)


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


def test_small_lists_skip_numpy_and_score_as_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    """numpy's per-call overhead outweighs a small list (issue 17): below NUMPY_CELLS the
    solver and the text scores stay in Python; larger lists still use it."""
    pytest.importorskip("numpy")
    calls: list[str] = []

    def record(name: str, real: Any) -> Any:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            return real(*args, **kwargs)

        return wrapped

    monkeypatch.setattr(
        "pytest_bizbench.scoring.assign.kuhn_munkres_numpy",
        record("solver", assign_module.kuhn_munkres_numpy),
    )
    monkeypatch.setattr(
        "pytest_bizbench.scoring.pairs.process.cdist", record("cdist", process.cdist)
    )
    expected = [{"d": "Cloud hosting", "a": 10.5}, {"d": "Office chairs", "a": 7.0}]
    actual = [{"d": "OFFICE CHAIRS", "a": "7.00"}, {"d": "Cloud hostin", "a": 10.5}]
    bulk, reference = both_paths("items", expected, actual, strictness=0.5)
    assert bulk == reference
    assert calls == []
    # "acme corp" and "ACME Corp." share their best match: the search runs
    words = [*(f"{w} {n}" for n, w in enumerate(WORDS[:7])), "acme corp", "ACME Corp."]
    bulk, reference = both_paths("notes", words, [w.upper() + "!" for w in reversed(words)])
    assert bulk == reference
    assert sorted(set(calls)) == ["cdist", "solver"]  # 9 x 9 = 81 cells >= NUMPY_CELLS
    assert 9 * 9 >= NUMPY_CELLS > 2 * 2
