"""FieldLadder: every rung, every reason, lists, nesting and the document sub-scores."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from pytest_bizbench.scoring import FieldLadder, LadderConfig

# similarity("abcdefghij", "abcdefghik") = 2 * LCS 9 / 20 chars = 0.9 exactly
AT_STRICTNESS = ("abcdefghij", "abcdefghik")
# similarity("abcdefghi", "abcdefghj") = 2 * LCS 8 / 18 chars = 0.8889, just below 0.9
BELOW_STRICTNESS = ("abcdefghi", "abcdefghj")


def ladder(**config: Any) -> FieldLadder:
    return FieldLadder(LadderConfig(**config))


class FakeEmbedder:
    """Texts mapped to fixed vectors; counts its calls."""

    def __init__(self, vectors: dict[str, list[float]]) -> None:
        self.vectors = vectors
        self.calls: list[list[str]] = []

    def __call__(self, texts: list[str]) -> list[list[float]]:
        self.calls.append(texts)
        return [self.vectors[text] for text in texts]


class FakeJudge:
    """Grades from a table keyed by (expected, actual); counts its calls."""

    def __init__(self, grades: dict[tuple[Any, Any], float | None]) -> None:
        self.grades = grades
        self.calls: list[tuple[str, Any, Any]] = []

    def __call__(self, field: str, expected: Any, actual: Any) -> float | None:
        self.calls.append((field, expected, actual))
        return self.grades.get((expected, actual))


def test_rungs_available() -> None:
    config = LadderConfig()
    assert FieldLadder(config).rungs_available == ["exact", "fuzzy"]
    embed = FakeEmbedder({})
    judge = FakeJudge({})
    assert FieldLadder(config, embed=embed).rungs_available == ["exact", "fuzzy", "embedding"]
    assert FieldLadder(config, judge=judge).rungs_available == ["exact", "fuzzy", "judge"]
    assert FieldLadder(config, embed, judge).rungs_available == [
        "exact",
        "fuzzy",
        "embedding",
        "judge",
    ]
    assert FieldLadder(config).config is config


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"strictness": 1.5}, "strictness 1.5"),
        ({"strictness": -0.1}, "strictness -0.1"),
        ({"rel_tol": -0.01}, "tolerances"),
        ({"abs_tol": float("nan")}, "tolerances"),
        ({"date_order": "YMD"}, "date order 'YMD'"),
    ],
)
def test_config_rejects_bad_values(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        LadderConfig(**changes)


# --- missing -------------------------------------------------------------------


@pytest.mark.parametrize("expected", ["Acme", 12.5, True, "2018-12-25", ["a"], {"x": 1}])
def test_missing_actual_scores_zero_whatever_the_type(expected: Any) -> None:
    entry = ladder().score_field("f", expected, None)
    assert entry["score"] == 0.0
    assert entry["rung"] == "missing"
    assert entry["reason"] == "missing"
    assert entry["actual"] is None


# --- bool --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expected", "actual", "score"),
    [
        (True, True, 1.0),
        (False, False, 1.0),
        (True, "Yes", 1.0),
        (True, " TRUE ", 1.0),
        (False, "no", 1.0),
        (False, "False", 1.0),
        (True, False, 0.0),
        (True, "no", 0.0),
    ],
)
def test_bool_rung(expected: bool, actual: Any, score: float) -> None:
    entry = ladder().score_field("paid", expected, actual)
    assert entry["rung"] == "bool"
    assert entry["score"] == score
    if score == 0.0:
        assert entry["reason"] == "mismatch"


@pytest.mark.parametrize("actual", ["maybe", 1, 0, "1", ["yes"]])
def test_bool_rung_not_a_bool(actual: Any) -> None:
    entry = ladder().score_field("paid", True, actual)
    assert (entry["score"], entry["rung"], entry["reason"]) == (0.0, "bool", "not-a-bool")


# --- number ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expected", "actual"),
    [
        (1577, "$1,577.00"),
        (1577.0, 1577),
        (-300, "(300)"),
        (12.5, "12.5%"),
        (1_200_000, "1.2 million"),
        (3400.5, "EUR 3.400,50"),
        (100, "101"),  # |101 - 100| = 1 = 0.01 * 100: exactly at the relative tolerance
        (100, 99),
        (0, "0.01"),  # |0.01 - 0| = 0.01 = abs_tol: exactly at the absolute tolerance
        (1.10, "1.11"),  # at abs_tol in decimal, a hair over it in binary floats
    ],
)
def test_number_rung_matches_within_tolerance(expected: float, actual: Any) -> None:
    entry = ladder().score_field("total", expected, actual)
    assert (entry["score"], entry["rung"]) == (1.0, "number")
    assert "reason" not in entry


@pytest.mark.parametrize(
    ("expected", "actual"),
    [
        (100, "101.01"),  # 1.01 > max(0.01 * 100, 0.01) = 1.0
        (100, 98.99),
        (0, "0.0101"),  # 0.0101 > max(0, 0.01)
        (1577, "1,600"),
        (-300, "300"),
        (12.5, "0.125"),  # percent as written: 12.5% is 12.5, not 0.125
    ],
)
def test_number_rung_out_of_tolerance(expected: float, actual: Any) -> None:
    entry = ladder().score_field("total", expected, actual)
    assert (entry["score"], entry["rung"], entry["reason"]) == (0.0, "number", "out-of-tolerance")


def test_number_rung_tolerances_are_configurable() -> None:
    strict = ladder(rel_tol=0.0, abs_tol=0.5)
    assert strict.score_field("total", 100, "100.5")["score"] == 1.0
    assert strict.score_field("total", 100, "100.6")["score"] == 0.0
    loose = ladder(rel_tol=0.1, abs_tol=0.0)
    assert loose.score_field("total", 100, "110")["score"] == 1.0  # 10 = 0.1 * 100
    assert loose.score_field("total", 100, "110.5")["score"] == 0.0


@pytest.mark.parametrize("actual", ["n/a", "about a thousand", True, [1577]])
def test_number_rung_not_a_number(actual: Any) -> None:
    entry = ladder().score_field("total", 1577, actual)
    assert (entry["score"], entry["rung"], entry["reason"]) == (0.0, "number", "not-a-number")


@pytest.mark.parametrize("actual", [None, "", "  ", [], {}])
def test_an_empty_actual_is_missing(actual: Any) -> None:
    # empty is "none" on either side: a value expected and nothing given is a miss (fn)
    entry = ladder().score_field("total", 1577, actual)
    assert (entry["score"], entry["rung"], entry["reason"]) == (0.0, "missing", "missing")
    assert (entry["fn"], entry["fd"]) == (1, 0)


def test_numeric_fields_read_string_ground_truth_as_numbers() -> None:
    numeric = ladder(numeric_fields=frozenset({"amount"}))
    entry = numeric.score_field("amount", "1,577.00", "$1577")
    assert (entry["score"], entry["rung"]) == (1.0, "number")
    assert numeric.score_field("amount", "1,577.00", "n/a")["reason"] == "not-a-number"
    # without the field set, a string is compared as text
    assert ladder().score_field("amount", "1,577.00", "$1577")["rung"] == "fuzzy"


def test_numeric_field_with_unreadable_ground_truth_falls_back_to_text() -> None:
    entry = ladder(numeric_fields=frozenset({"amount"})).score_field("amount", "N/A", "n/a")
    assert (entry["score"], entry["rung"]) == (1.0, "exact")


# --- date --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "actual", ["2018-12-25", "25/12/2018", "25 Dec 2018", "Dec 25, 2018", date(2018, 12, 25)]
)
def test_date_rung_compares_dates(actual: Any) -> None:
    entry = ladder().score_field("issued", "2018-12-25", actual)
    assert (entry["score"], entry["rung"]) == (1.0, "date")


def test_date_rung_never_uses_similarity() -> None:
    entry = ladder().score_field("issued", "2018-12-25", "2018-12-26")
    assert (entry["score"], entry["rung"], entry["reason"]) == (0.0, "date", "mismatch")
    assert "similarity" not in entry


def test_date_order_dmy_versus_mdy() -> None:
    dmy, mdy = ladder(date_order="DMY"), ladder(date_order="MDY")
    assert dmy.score_field("d", "2024-03-01", "01/03/2024")["score"] == 1.0
    assert mdy.score_field("d", "2024-03-01", "01/03/2024")["score"] == 0.0
    assert mdy.score_field("d", "2024-01-03", "01/03/2024")["score"] == 1.0
    # 13 can only be the day, whatever the order
    assert mdy.score_field("d", "2024-01-13", "13/01/2024")["score"] == 1.0


@pytest.mark.parametrize("actual", ["soon", "31/02/2020", 20181225])
def test_date_rung_not_a_date(actual: Any) -> None:
    entry = ladder().score_field("issued", "2018-12-25", actual)
    assert (entry["score"], entry["rung"], entry["reason"]) == (0.0, "date", "not-a-date")


def test_date_fields_and_date_objects_as_ground_truth() -> None:
    dated = ladder(date_fields=frozenset({"due"}))
    assert dated.score_field("due", "25 Dec 2018", "2018-12-25")["rung"] == "date"
    assert dated.score_field("due", "25 Dec 2018", "2018-12-25")["score"] == 1.0
    entry = ladder().score_field("due", date(2018, 12, 25), "25/12/2018")
    assert (entry["score"], entry["rung"], entry["expected"]) == (1.0, "date", "2018-12-25")
    # an unreadable ground truth in a date field is compared as text
    assert dated.score_field("due", "on receipt", "On receipt")["rung"] == "exact"


# --- text --------------------------------------------------------------------------


def test_exact_rung_after_normalization() -> None:
    entry = ladder().score_field("vendor", "Acme  Corp", " ＡＣＭＥ corp\n")
    assert entry == {
        "score": 1.0,
        "rung": "exact",
        "expected": "Acme  Corp",
        "actual": " ＡＣＭＥ corp\n",
        "tp": 1,
        "fd": 0,
        "fn": 0,
        "fa": 0,
        "tn": 0,
    }


def test_non_string_actual_is_compared_as_its_text() -> None:
    assert ladder().score_field("code", "12", 12)["rung"] == "exact"
    assert ladder().score_field("code", "A1", ["A1"])["score"] == 0.0


def test_fuzzy_rung_at_strictness_passes() -> None:
    entry = ladder().score_field("name", *AT_STRICTNESS)
    assert entry["score"] == 1.0
    assert entry["rung"] == "fuzzy"
    assert entry["similarity"] == 0.9


def test_fuzzy_rung_just_below_strictness_fails() -> None:
    entry = ladder().score_field("name", *BELOW_STRICTNESS)
    assert entry["score"] == 0.0
    assert entry["rung"] == "fuzzy"
    assert entry["reason"] == "below-strictness"
    assert entry["similarity"] == 0.8889  # 16/18 to 4 decimals


def test_strictness_is_configurable() -> None:
    assert ladder(strictness=0.88).score_field("name", *BELOW_STRICTNESS)["score"] == 1.0
    assert ladder(strictness=0.95).score_field("name", *AT_STRICTNESS)["score"] == 0.0


def test_free_text_fields_get_similarity_as_partial_credit() -> None:
    entry = ladder(free_text_fields=frozenset({"notes"})).score_field("notes", *BELOW_STRICTNESS)
    assert entry["rung"] == "free-text"
    assert entry["score"] == pytest.approx(16 / 18)
    assert entry["reason"] == "below-strictness"


def test_embedding_rung_when_cosine_reaches_strictness() -> None:
    # cosine((1, 0), (0.9, sqrt(1 - 0.81))) = 0.9 >= 0.9
    embed = FakeEmbedder({"Acme": [1.0, 0.0], "Widgets Ltd": [0.9, 0.19**0.5]})
    judge = FakeJudge({})
    entry = FieldLadder(LadderConfig(), embed, judge).score_field("vendor", "Acme", "Widgets Ltd")
    assert (entry["score"], entry["rung"], entry["cosine"]) == (1.0, "embedding", 0.9)
    assert embed.calls == [["Acme", "Widgets Ltd"]]  # the texts as given, not normalised
    assert judge.calls == []  # decided before the judge


def test_embedding_below_strictness_goes_on_down_the_ladder() -> None:
    # cosine((1, 0), (0, 1)) = 0
    embed = FakeEmbedder({"Acme": [1.0, 0.0], "Widgets": [0.0, 1.0]})
    entry = FieldLadder(LadderConfig(), embed=embed).score_field("vendor", "Acme", "Widgets")
    assert (entry["score"], entry["rung"], entry["reason"]) == (0.0, "fuzzy", "below-strictness")
    assert entry["cosine"] == 0.0


def test_embedding_error_leaves_the_field_unscored() -> None:
    def broken(texts: list[str]) -> list[list[float]]:
        raise ConnectionError("no network")

    entry = FieldLadder(LadderConfig(), embed=broken).score_field("vendor", "Acme", "Widgets")
    assert entry["score"] == 0.0
    assert entry["rung"] == "embedding"
    assert entry["reason"] == "embedding-error: ConnectionError: no network"
    assert entry["unscored"] is True


def test_embedder_returning_the_wrong_number_of_vectors_is_an_error() -> None:
    def short(texts: list[str]) -> list[list[float]]:
        return [[1.0]]

    entry = FieldLadder(LadderConfig(), embed=short).score_field("vendor", "Acme", "Widgets")
    assert entry["reason"] == "embedding-error: ValueError: embedder returned 1 vectors for 2 texts"


def test_judge_rung_scales_the_grade() -> None:
    judge = FakeJudge({("Acme", "Widgets"): 75})
    entry = FieldLadder(LadderConfig(), judge=judge).score_field("vendor", "Acme", "Widgets")
    assert (entry["score"], entry["rung"], entry["judge_score"]) == (0.75, "judge", 75.0)
    assert judge.calls == [("vendor", "Acme", "Widgets")]  # values as given


def test_judge_is_not_asked_when_a_cheap_rung_decides() -> None:
    judge = FakeJudge({})
    judged = FieldLadder(LadderConfig(), judge=judge)
    judged.score_field("vendor", "Acme", "ACME")
    judged.score_field("vendor", *AT_STRICTNESS)
    judged.score_field("total", 5, "7")
    assert judge.calls == []


def test_judge_abstaining_falls_through_to_free_text_or_zero() -> None:
    judge = FakeJudge({})  # returns None for everything
    config = LadderConfig(free_text_fields=frozenset({"notes"}))
    judged = FieldLadder(config, judge=judge)
    assert judged.score_field("notes", *BELOW_STRICTNESS)["rung"] == "free-text"
    entry = judged.score_field("vendor", *BELOW_STRICTNESS)
    assert (entry["score"], entry["rung"], entry["reason"]) == (0.0, "fuzzy", "below-strictness")


def test_judge_error_leaves_the_field_unscored() -> None:
    def broken(field: str, expected: Any, actual: Any) -> float | None:
        raise RuntimeError("rate limited")

    entry = FieldLadder(LadderConfig(), judge=broken).score_field("vendor", "Acme", "Widgets")
    assert entry["score"] == 0.0
    assert entry["rung"] == "judge"
    assert entry["reason"] == "judge-error: RuntimeError: rate limited"
    assert entry["unscored"] is True


@pytest.mark.parametrize(
    ("grade", "reason"),
    [
        (150, "judge-error: ValueError: judge returned 150, not a number in 0-100"),
        (-1, "judge-error: ValueError: judge returned -1, not a number in 0-100"),
        ("85", "judge-error: ValueError: judge returned '85', not a number in 0-100"),
        (True, "judge-error: ValueError: judge returned True, not a number in 0-100"),
    ],
)
def test_judge_returning_a_bad_grade_is_an_error(grade: Any, reason: str) -> None:
    judge = FakeJudge({("Acme", "Widgets"): grade})
    entry = FieldLadder(LadderConfig(), judge=judge).score_field("vendor", "Acme", "Widgets")
    assert (entry["score"], entry["reason"], entry["unscored"]) == (0.0, reason, True)


# --- lists -------------------------------------------------------------------------


def test_list_scored_as_set_with_hand_computed_f1() -> None:
    entry = ladder().score_field("tags", ["a", "b", "c"], ["b", "x", "a", "y"])
    # 2 matched of 3 expected and 4 actual: precision 2/4, recall 2/3,
    # F1 = 2 * 0.5 * (2/3) / (0.5 + 2/3) = (2/3) / (7/6) = 4/7
    assert entry["rung"] == "set"
    assert entry["precision"] == 0.5
    assert entry["recall"] == pytest.approx(2 / 3)
    assert entry["score"] == pytest.approx(4 / 7)
    assert entry["matched"] == [["a", "a", 1.0], ["b", "b", 1.0]]
    assert entry["missed"] == ["c"]
    assert entry["hallucinated"] == ["x", "y"]
    assert "truncated" not in entry


def test_list_items_use_the_ladder() -> None:
    entry = ladder().score_field("amounts", [100, 200], ["$200.00", "100.5"])
    # 100.5 is within 1% of 100, "$200.00" is 200
    assert entry["score"] == 1.0
    assert entry["matched"] == [[100, "100.5", 1.0], [200, "$200.00", 1.0]]


@pytest.mark.parametrize(
    ("expected", "actual", "score", "precision", "recall"),
    [
        (["a", "a"], ["a"], 2 / 3, 1.0, 0.5),  # F1 = 2 * 1 * 0.5 / 1.5 = 2/3
        (["a", None], ["a", "b"], 2 / 3, 0.5, 1.0),  # the null item is not asked for
    ],
)
def test_list_edge_cases(
    expected: list[Any], actual: list[Any], score: float, precision: float, recall: float
) -> None:
    entry = ladder().score_field("tags", expected, actual)
    assert entry["score"] == pytest.approx(score)
    assert entry["precision"] == pytest.approx(precision)
    assert entry["recall"] == pytest.approx(recall)


@pytest.mark.parametrize(
    ("expected", "actual", "score", "rung", "counts"),
    [
        ([None], [], 1.0, "empty", (0, 0, 0, 0, 1)),  # only null items: nothing asked
        (["a"], [], 0.0, "missing", (0, 0, 1, 0, 0)),
        (["a", "b"], None, 0.0, "missing", (0, 0, 2, 0, 0)),  # each item missed
        ([], ["x", "y"], 0.0, "empty", (0, 0, 0, 2, 0)),  # each item a false alarm
    ],
)
def test_list_against_nothing(
    expected: list[Any], actual: Any, score: float, rung: str, counts: tuple[int, ...]
) -> None:
    entry = ladder().score_field("tags", expected, actual)
    assert (entry["score"], entry["rung"]) == (score, rung)
    assert tuple(entry[k] for k in ("tp", "fd", "fn", "fa", "tn")) == counts


def test_scalar_actual_counts_as_a_one_item_list() -> None:
    entry = ladder().score_field("tags", ["a", "b"], "a")
    # credit 1 of 2 expected and 1 actual: precision 1, recall 1/2, F1 = 2 * 1 / 3
    assert entry["score"] == pytest.approx(2 / 3)
    assert entry["missed"] == ["b"]
    assert entry["hallucinated"] == []


def test_list_matching_is_optimal_not_greedy() -> None:
    # within 1%: 100 matches 101 and 99.5; 102 matches only 101.
    # Greedy in order would pair 100-101 and leave 102 unmatched (F1 = 2 * 1 / 4 = 0.5);
    # the best assignment pairs 100-99.5 and 102-101.
    entry = ladder().score_field("amounts", [100, 102], [101, 99.5])
    assert entry["score"] == 1.0
    assert entry["matched"] == [[100, 99.5, 1.0], [102, 101, 1.0]]


def test_list_of_objects_gets_partial_credit_per_pair() -> None:
    expected = [{"sku": "A1", "qty": 2}, {"sku": "B2", "qty": 1}]
    actual = [{"sku": "B2", "qty": "1"}, {"sku": "A1", "qty": 3}, {"sku": "Z9", "qty": 7}]
    entry = ladder().score_field("items", expected, actual)
    # B2 pair scores (1 + 1) / 2 = 1, A1 pair (1 + 0) / 2 = 0.5; Z9 scores 0 with both.
    # credit 1.5: precision 1.5/3, recall 1.5/2, F1 = 2 * 1.5 / 5 = 0.6
    assert entry["precision"] == 0.5
    assert entry["recall"] == 0.75
    assert entry["score"] == pytest.approx(0.6)
    # a matched pair of objects carries the per-field details of the pair
    assert [m[:3] for m in entry["matched"]] == [
        [expected[0], actual[1], 0.5],
        [expected[1], actual[0], 1.0],
    ]
    assert entry["matched"][0][3]["qty"]["reason"] == "out-of-tolerance"
    assert entry["hallucinated"] == [actual[2]]


def test_free_text_list_items_get_partial_credit() -> None:
    config = LadderConfig(free_text_fields=frozenset({"notes"}))
    entry = FieldLadder(config).score_field("notes", [BELOW_STRICTNESS[0]], [BELOW_STRICTNESS[1]])
    # one pair of credit 16/18: F1 = 2 * (8/9) / 2 = 8/9
    assert entry["score"] == pytest.approx(8 / 9)


def test_list_details_are_bounded() -> None:
    expected = [f"e{i}" for i in range(60)]
    actual = [f"x{i}" for i in range(70)]
    entry = ladder().score_field("tags", expected, actual)
    assert entry["score"] == 0.0
    assert len(entry["missed"]) == 50
    assert len(entry["hallucinated"]) == 50
    assert entry["truncated"] is True
    assert len(entry["expected"]) == 51  # 50 items and a note of how many more
    assert entry["expected"][-1] == "… 10 more items"


def test_models_only_see_list_items_the_cheap_rungs_left_over() -> None:
    judge = FakeJudge({("b", "x"): 100})
    entry = FieldLadder(LadderConfig(), judge=judge).score_field("tags", ["a", "b"], ["x", "a"])
    assert entry["score"] == 1.0
    assert entry["matched"] == [["a", "a", 1.0], ["b", "x", 1.0]]
    assert judge.calls == [("tags", "b", "x")]  # not a-x nor b-a: "a" was already paired


# --- nested ------------------------------------------------------------------------


def test_nested_object_is_the_mean_of_its_sub_fields() -> None:
    expected = {"city": "Paris", "zip": "75001", "country": "FR", "region": None}
    actual = {"city": "paris", "zip": "75002", "extra": "ignored"}
    entry = ladder().score_field("address", expected, actual)
    # city exact 1; zip "75001" vs "75002" similarity 0.8 -> 0; country missing 0;
    # region is null in the ground truth, skipped: (1 + 0 + 0) / 3
    assert entry["rung"] == "nested"
    assert entry["score"] == pytest.approx(1 / 3)
    assert set(entry["fields"]) == {"city", "zip", "country"}
    assert entry["fields"]["city"]["rung"] == "exact"
    assert entry["fields"]["zip"]["similarity"] == 0.8
    assert entry["fields"]["country"]["reason"] == "missing"


def test_nested_field_sets_apply_to_sub_field_names() -> None:
    config = LadderConfig(numeric_fields=frozenset({"amount"}))
    entry = FieldLadder(config).score_field("tax", {"amount": "300.00"}, {"amount": "(300)"})
    assert entry["fields"]["amount"]["score"] == 0.0  # -300 is not 300
    assert entry["fields"]["amount"]["rung"] == "number"


def test_nested_type_mismatch() -> None:
    entry = ladder().score_field("address", {"city": "Paris"}, "Paris")
    assert (entry["score"], entry["rung"], entry["reason"]) == (0.0, "nested", "type-mismatch")
    assert "fields" not in entry


def test_nested_with_nothing_expected_scores_one() -> None:
    assert ladder().score_field("extra", {}, {})["score"] == 1.0
    assert ladder().score_field("extra", {"a": None}, {"b": 2})["score"] == 1.0


# --- entries are plain, bounded data -------------------------------------------------


def test_long_strings_are_cut_in_entries() -> None:
    entry = ladder().score_field("body", "a" * 300, "b" * 250)
    assert entry["expected"] == "a" * 200 + "…"
    assert entry["actual"] == "b" * 200 + "…"


def test_entries_are_strict_json() -> None:
    config = LadderConfig(free_text_fields=frozenset({"notes"}))
    judge = FakeJudge({("Acme", "Widgets"): 40})
    scorer = FieldLadder(config, judge=judge)
    expected = {
        "vendor": "Acme",
        "total": 5,
        "day": date(2018, 12, 25),
        "odd": float("nan"),
        "items": [{"n": 1}],
        "notes": "x",
    }
    actual = {"vendor": "Widgets", "total": float("inf"), "day": object(), "items": ({"n": 1},)}
    _, details = scorer.score_document(expected, actual)
    text = json.dumps(details, allow_nan=False)
    assert json.loads(text)["total"]["actual"] == "inf"


# --- documents ---------------------------------------------------------------------


def test_score_document_hand_example() -> None:
    expected = {
        "vendor": "Acme Corp",
        "total": 1577.0,
        "issued": "2018-12-25",
        "paid": True,
        "po_number": None,
    }
    actual = {"vendor": "ACME corp", "total": "1,600", "paid": "yes", "unexpected": "x"}
    score, details = ladder().score_document(expected, actual)
    # vendor 1 (exact), total 0 (out of tolerance), issued 0 (missing), paid 1;
    # po_number is null in the ground truth, skipped
    assert set(details) == {
        "vendor",
        "total",
        "issued",
        "paid",
        "extra_fields",
        "field_counts",
        "field_total",
        "completeness",
        "correctness",
        "quality",
    }
    # the summary first: a report's bound on details never cuts it
    assert list(details)[:6] == [
        "quality", "completeness", "correctness", "field_total", "extra_fields", "field_counts"
    ]  # fmt: skip
    # vendor and paid tp, total fd, issued fn, unexpected fa; po_number, null in the
    # ground truth and absent, is neither scored nor counted
    assert details["field_total"] == {"tp": 2, "fd": 1, "fn": 1, "fa": 1, "tn": 0}
    # not in the ground truth: listed, a false alarm, not scored
    assert details["extra_fields"] == ["unexpected"]
    assert score == 0.5  # (1 + 0 + 0 + 1) / 4
    assert details["completeness"] == 0.75  # 3 of 4 fields present
    assert details["correctness"] == pytest.approx(2 / 3)  # (1 + 0 + 1) / 3 present
    assert details["quality"] == score
    assert details["issued"]["reason"] == "missing"


def test_score_document_with_nothing_to_score() -> None:
    score, details = ladder().score_document({"a": None}, {"a": "x"})
    assert score == 0.0  # nothing expected, something given
    assert details["a"]["rung"] == "unexpected"
    assert details["a"]["fa"] == 1
    assert ladder().score_document({"a": None}, {"a": None, "b": ""})[0] == 1.0


def test_score_document_with_nothing_present() -> None:
    score, details = ladder().score_document({"a": "x", "b": 1}, {})
    assert score == 0.0
    assert details["completeness"] == 0.0
    assert details["correctness"] == 0.0
