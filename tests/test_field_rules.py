"""Field rules, the defaults that fix wrong verdicts, list pairing and the counts."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bizhelpers import Suite, jsonl
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_bizbench.benchmarks.field_accuracy import FieldAccuracy
from pytest_bizbench.options.field_rules import RulesError, parse_rules
from pytest_bizbench.scoring import FieldLadder, LadderConfig
from pytest_bizbench.scoring.pairing import Candidates, OverBudget, pair_greedily, pair_items
from pytest_bizbench.scoring.text import normalize


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


def test_a_number_or_date_rule_on_text_is_exact() -> None:
    # "abc" is no number: compared as exact, not by the similarity of the text rung
    for compare in ("number", "date"):
        assert rated({"f": {"compare": compare}}, "abc", "ABC")["rung"] == "exact"
        assert rated({"f": {"compare": compare}}, "abcd", "abce")["score"] == 0.0


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


def test_a_credit_under_half_a_millionth_still_counts_one_millionth() -> None:
    # both pairs are worth one millionth of credit: closeness decides
    assert pair_items([{0: (4e-07, 0.8)}, {0: (6e-07, 0.0)}], 1) == [(0, 0)]
    assert _by_the_rule([{0: (4e-07, 0.8)}, {0: (6e-07, 0.0)}], 1) == {0: 0}


def test_pair_items_ties_go_to_the_lowest_indices() -> None:
    one = {0: (1.0, 1.0), 1: (1.0, 1.0)}
    assert pair_items([one, one], 2) == [(0, 0), (1, 1)]
    assert pair_items([{0: (1.0, 1.0)}, {0: (1.0, 1.0)}], 1) == [(0, 0)]


def test_ties_give_the_first_expected_item_the_lowest_index_it_can_have() -> None:
    # 281 with 283, 282 with its copy, 283 with 284 is as close in total as 281 with 282,
    # 282 with 284, 283 with its copy (284 is out of 281's tolerance): 281 comes first
    entry = FieldLadder(LadderConfig()).score_field("n", [281, 282, 283], [282, 283, 284])
    assert entry["matched"] == [[281, 282, 1.0], [282, 284, 1.0], [283, 283, 1.0]]


Pairing = dict[int, int]  # expected index -> actual index


def _every_pairing(rows: list[Candidates], r: int = 0) -> Iterator[Pairing]:
    """Every one-to-one pairing of the rows from `r` on with their candidates (brute force)."""
    if r == len(rows):
        yield {}
        return
    for rest in _every_pairing(rows, r + 1):
        yield rest
        for j in rows[r]:
            if j not in rest.values():
                yield {r: j, **rest}


def _by_the_rule(rows: list[Candidates], n_actual: int) -> Pairing:
    """The pairing of the rule in `pairing`'s docstring, by brute force: the most credit
    (each pair at least one millionth), then the most closeness (six decimals), then the
    partners of expected items 0, 1, ... lowest, an unpaired item counting after every
    actual index."""

    def rank(pairing: Pairing) -> tuple[int, int, list[int]]:
        pairs = [rows[r][j] for r, j in pairing.items()]
        credit = sum(max(1, round(credit * 1e6)) for credit, _ in pairs)
        closeness = sum(round(closeness * 1e6) for _, closeness in pairs)
        return -credit, -closeness, [pairing.get(r, n_actual) for r in range(len(rows))]

    return min(_every_pairing(rows), key=rank)


_CANDIDATES = st.dictionaries(
    st.integers(0, 4),
    st.tuples(st.sampled_from([1.0, 0.75, 0.5]), st.sampled_from([1.0, 0.9, 0.8])),
)
# rows drawn from a few kinds, so that items repeat, as copies in a list do
_ROWS = st.lists(_CANDIDATES, min_size=1, max_size=3).flatmap(
    lambda kinds: st.lists(st.sampled_from(kinds), max_size=6)
)


# Credits and closeness from three values each and repeated rows: equal totals are the
# rule, so the ties decide most of the pairs.
@settings(max_examples=300, deadline=None)
@given(_ROWS, st.integers(0, 5))
def test_property_pair_items_is_the_pairing_of_the_rule(
    given_rows: list[Candidates], n_actual: int
) -> None:
    rows = [{j: pair for j, pair in row.items() if j < n_actual} for row in given_rows]
    assert dict(pair_items(rows, n_actual)) == _by_the_rule(rows, n_actual)


def test_a_pairing_searched_from_the_actual_side_follows_the_rule() -> None:
    # fewer actual items than expected ones have a candidate, so the search runs from
    # the actual side: 1 and 2 are closer to actual 0 than 0 is, and tie, so 1 gets it
    assert pair_items([{0: (1.0, 0.8)}, {0: (1.0, 0.9)}, {0: (1.0, 0.9)}], 1) == [(1, 0)]
    # credit first: 0 with actual 0 (0.5) and 1 with actual 1 (1.0) make 1.5, where 0
    # with actual 1 makes 1.0
    rows = [{0: (0.5, 1.0), 1: (1.0, 0.8)}, {1: (1.0, 0.9)}, {1: (1.0, 0.9)}]
    assert pair_items(rows, 2) == [(0, 0), (1, 1)]


def test_pairings_searched_from_either_side_are_the_pairing_of_the_rule() -> None:
    rnd = random.Random(7)
    for _ in range(3000):
        n_actual = rnd.randint(1, 3)
        kinds = [
            {
                j: (rnd.choice([1.0, 0.75, 0.5]), rnd.choice([1.0, 0.9, 0.8]))
                for j in range(n_actual)
                if rnd.random() < 0.6
            }
            for _ in range(rnd.randint(1, 3))
        ]
        rows = [dict(rnd.choice(kinds)) for _ in range(rnd.randint(2, 6))]
        assert dict(pair_items(rows, n_actual)) == _by_the_rule(rows, n_actual), rows


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


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ("vendor: {compar: exact}\n", ["rules.yml", "'vendor'", "'compar'", "'compare'"]),
        ("vendor: {compare: levenstein}\n", ["rules.yml", "'levenstein'", "'levenshtein'"]),
        ("items[*].sku: {compare: id}\n", ["rules.yml", "'items[*].sku'", "'items[].sku'"]),
        # a weight so large the weighted mean overflows
        ("v: {weight: 1e308}\n", ["rules.yml", "'v'", "above 0 and at most 1e+06"]),
    ],
)
def test_a_bad_rules_file_is_a_usage_error(suite: Suite, rules: str, words: list[str]) -> None:
    suite.write("rules.yml", rules)
    suite.write("pytest.ini", "[pytest]\nbizbench_field_rules = rules.yml\n")
    suite.write("c.ground-truth.jsonl", jsonl([{"id": "c", "labels": [], "ground_truth": {}}]))
    result = suite.pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    error = result.stderr.str()
    for word in words:
        assert word in error


def test_embedding_and_judge_comparators_use_the_hooks(suite: Suite) -> None:
    suite.write(
        "conftest.py",
        """
VECTORS = {"car": [1, 0], "automobile": [1, 0], "truck": [0, 1]}

def pytest_bizbench_embed(texts):
    return [VECTORS.get(t.lower(), [0, 0]) for t in texts]

def pytest_bizbench_judge(field, expected, actual):
    return 80 if actual == "close enough" else 10
""",
    )
    suite.write(
        "rules.yml",
        "vehicle: {compare: embedding, threshold: 0.9}\n"
        "fleet[]: {compare: embedding}\n"
        "summary: {compare: judge, threshold: 0.7}\n"
        "remark: {compare: judge, threshold: 0.7, partial: true}\n",
    )
    suite.write("pytest.ini", "[pytest]\nbizbench_field_rules = rules.yml\n")
    truth = {"vehicle": "car", "fleet": ["car", "truck"], "summary": "s", "remark": "r"}
    given = {"vehicle": "automobile", "fleet": ["automobile"], "summary": "close enough",
             "remark": "off"}  # fmt: skip
    suite.cases("a.ground-truth.jsonl", [{"id": "e", "labels": [], "ground_truth": truth,
                                           "extracted_fields": given}])  # fmt: skip
    suite.pytester.runpytest()
    details = suite.documents()["e"]["details"]
    assert (details["vehicle"]["rung"], details["vehicle"]["score"]) == ("embedding", 1.0)
    assert details["vehicle"]["cosine"] == 1.0
    # car ~ automobile (cosine 1); truck has no partner: F1 = 2 * 1 / 3
    assert details["fleet"]["matched"] == [["car", "automobile", 1.0]]
    assert details["fleet"]["score"] == pytest.approx(2 / 3)
    assert (details["summary"]["rung"], details["summary"]["score"]) == ("judge", 1.0)
    assert details["summary"]["judge_score"] == 80
    assert details["remark"]["score"] == pytest.approx(0.1)  # partial: the grade 10 / 100


def test_a_user_comparator_that_raises_fails_its_field_not_the_run(suite: Suite) -> None:
    suite.write("raising_cmp.py", "def boom(expected, actual):\n    raise ValueError('no')\n")
    suite.write("rules.yml", "sku: {compare: 'raising_cmp:boom'}\n")
    suite.write("pytest.ini", "[pytest]\nbizbench_field_rules = rules.yml\npythonpath = .\n")
    suite.cases("a.ground-truth.jsonl", [
        {"id": "bad", "labels": [], "ground_truth": {"sku": "A", "n": 1},
         "extracted_fields": {"sku": "A", "n": 1}},
        {"id": "fine", "labels": [], "ground_truth": {"n": 1}, "extracted_fields": {"n": 1}},
    ])  # fmt: skip
    result = suite.pytester.runpytest()
    result.assert_outcomes(passed=2, failed=1)  # "fine", the gate; "bad" fails
    entry = suite.documents()["bad"]["details"]["sku"]
    assert (entry["score"], entry["unscored"]) == (0.0, True)
    assert entry["reason"] == "raising_cmp:boom-error: ValueError: no"


def test_tolerance_days_in_a_list() -> None:
    rules = {"d[]": {"compare": "date", "tolerance_days": 2}}
    # 01-05 vs 01-08 is 3 days (a miss); 03-01 vs 03-02 is 1 day: one pair of 2 + 2
    entry = rated(rules, ["2024-01-05", "2024-03-01"], ["2024-03-02", "2024-01-08"], "d")
    assert entry["matched"] == [["2024-03-01", "2024-03-02", 1.0]]
    assert entry["score"] == pytest.approx(0.5)
    wider = {"d[]": {"compare": "date", "tolerance_days": 3}}
    assert rated(wider, ["2024-01-05", "2024-03-01"], ["2024-03-02", "2024-01-08"], "d")[
        "score"
    ] == pytest.approx(1.0)
    # both within a day: the identical date (closeness 1) before the neighbour (1/2)
    entry = rated(rules, ["2024-01-05"], ["2024-01-06", "05/01/2024"], "d")
    assert entry["matched"] == [["2024-01-05", "05/01/2024", 1.0]]


def _pairs(entry: dict[str, Any]) -> list[tuple[str, str, float]]:
    """The matched pairs as a multiset of values (texts equal once normalised are one)."""
    return sorted((normalize(e), normalize(a), score) for e, a, score in entry.get("matched", []))


# No two distinct actual texts are equally close to one expected text, so the best
# pairing is one multiset of values: equal closeness would leave it to the order
# (the lowest index wins), which shuffling changes by design.
@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["ab 1", "ab 2", "abc 1", "xyz", "xy"]), max_size=8),
       st.lists(st.sampled_from(["ab 1", "AB 1", "abcd 1", "xyz", "xy z", ""]), max_size=8),
       st.randoms())  # fmt: skip
def test_property_pairing_is_invariant_under_shuffling_both_lists(
    expected: list[str], actual: list[str], rnd: random.Random
) -> None:
    ladder = FieldLadder(LadderConfig(strictness=0.8))
    entry = ladder.score_field("t", expected, actual)
    shuffled_e, shuffled_a = expected[:], actual[:]
    rnd.shuffle(shuffled_e)
    rnd.shuffle(shuffled_a)
    again = ladder.score_field("t", shuffled_e, shuffled_a)
    assert _pairs(again) == _pairs(entry)
    keys = ("score", "tp", "fd", "fn", "fa", "tn")
    assert [again[k] for k in keys] == pytest.approx([entry[k] for k in keys])


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 3),
                     st.sampled_from(["", "a", "A b", "2024-01-05", "1,5", "x 1"]))  # fmt: skip
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("ab"), inner),
    max_leaves=8,
)
_DOCS = st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), _VALUES, max_size=4)


@settings(max_examples=150, deadline=None)
@given(_DOCS, _DOCS, st.sampled_from(["report", "penalize", "ignore"]))
def test_property_a_document_score_is_never_above_1(
    expected: dict[str, Any], actual: dict[str, Any], extra: str
) -> None:
    rules = parse_rules({".": {"extra": extra}, "c[]": {"match_threshold": 0.2}}, "r")
    score, details = FieldLadder(LadderConfig(), rules=rules).score_document(expected, actual)
    assert 0.0 <= score <= 1.0
    for name in expected:
        if isinstance(entry := details.get(name), dict):
            assert 0.0 <= entry["score"] <= 1.0


def test_the_run_counts_every_field_however_many_a_document_has(suite: Suite) -> None:
    """300 expected fields, the last 100 wrong, and 10,000 extra keys: the report keeps
    a document's first 200 detail entries, but `fields.total` counts them all:
    tp 200, fd 100, fa 10,000; precision 200 / 10,300, recall 200 / 300."""
    expected = {f"k{i:03d}": f"v{i}" for i in range(300)}
    actual = {key: (value if int(key[1:]) < 200 else "wrong") for key, value in expected.items()}
    actual.update({f"x{i}": 1 for i in range(10_000)})
    suite.write(
        "a.ground-truth.jsonl",
        jsonl([{"id": "d", "ground_truth": expected, "extracted_fields": actual}]),
    )
    result = suite.pytester.runpytest(
        "--bizbench-threshold", "field-accuracy:fields.total.precision >= 0.3"
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    total = suite.metrics()["fields"]["total"]
    precision, recall = 200 / 10_300, 200 / 300
    assert {k: total[k] for k in ("tp", "fd", "fn", "fa", "tn")} == {
        "tp": 200, "fd": 100, "fn": 0, "fa": 10_000, "tn": 0
    }  # fmt: skip
    assert total["precision"] == pytest.approx(precision)
    assert total["recall"] == pytest.approx(recall)
    assert suite.metrics()["field_f1"] == pytest.approx(
        2 * precision * recall / (precision + recall)
    )
    assert "fields.total.precision" in suite.report()["gate"]["reasons"][0]


def test_a_pairing_over_its_budget_says_so_and_the_greedy_one_is_fair() -> None:
    rows = [{0: (1.0, 0.9), 1: (1.0, 1.0)}, {1: (1.0, 1.0)}]
    assert pair_items(rows, 2, max_steps=100) == [(0, 0), (1, 1)]
    with pytest.raises(OverBudget):
        pair_items(rows, 2, max_steps=1)
    # in expected order, each its best left: 0 takes 1 (closer), 1 finds nothing left
    assert pair_greedily(rows, 2) == [(0, 1)]


def test_a_list_whose_pairing_is_over_budget_is_paired_greedily(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("pytest_bizbench.scoring.ladder.MAX_PAIRING_STEPS", 1)
    entry = FieldLadder(LadderConfig()).score_field("n", [100, 100.4], [100.4, 100.9])
    # 100 takes its closest, 100.4, so 100.4 takes 100.9: all within 1%; the best
    # pairing (100.4 with its copy) needs a search, which is over the budget
    assert entry["matched"] == [[100, 100.4, 1.0], [100.4, 100.9, 1.0]]
    assert entry["budget"] == (
        "the best pairing would take over 1 steps: "
        "paired in expected order, each item its best candidate left"
    )
