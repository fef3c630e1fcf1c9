"""The honest-comparison keys of a comparison with the baseline: McNemar,
clustered errors, MDE, Holm over the run, the inconclusive verdict and the
detectability sentence, computed from report documents."""

from __future__ import annotations

import math
from typing import Any

import pytest
from test_baseline_compare import Direct, doc, side

from pytest_bizbench.gate.baseline import Comparisons, Judge, compare_reports, compare_sides
from pytest_bizbench.maths.stats import mcnemar_p
from pytest_bizbench.options.settings import BaselineOptions
from pytest_bizbench.report.model import Report
from pytest_bizbench.report.tables import comparison_notes, comparison_table, detectability


def outcome_doc(doc_id: str, score: float, *, mark: float = 0.5, **kwargs: Any) -> dict[str, Any]:
    d = doc(doc_id, score, **kwargs)
    d["outcome"] = "passed" if score >= mark else "failed"
    return d


def test_mcnemar_mde_and_threshold_of_a_comparison() -> None:
    # c0-c3 passed -> failed (b = 4), c4 failed -> passed (c = 1), c5-c7 unchanged
    before = [1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0]
    after = [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0]
    base = side([outcome_doc(f"c{i}", s) for i, s in enumerate(before)])
    cand = side([outcome_doc(f"c{i}", s) for i, s in enumerate(after)])
    result = compare_sides(Judge.of(Direct()), base, cand, BaselineOptions())
    # p = 2 * (C(5,0) + C(5,1)) / 2^5 = 12/32
    assert result["mcnemar"] == {"b": 4, "c": 1, "p_value": 0.375}
    # the sign-flip test of the deltas says the same: 5 moved by 1, |sum| 3, and
    # |2B - 5| >= 3 for B in {0, 1, 4, 5}: (1 + 5 + 5 + 1) / 32
    assert result["paired"]["p_value"] == result["p_holm"] == 0.375
    assert result["significant"] is False
    # deltas: four -1, one +1, three 0: mean -3/8; sum of squares about the mean
    # 4 * 25/64 + 121/64 + 3 * 9/64 = 248/64; sd = sqrt(248/64/7); t with 7 df:
    # t_0.975 = 2.3646, t_0.80 = 0.8960 (the printed table)
    sd = math.sqrt(248 / 64 / 7)
    assert result["mde"] == pytest.approx((2.3646 + 0.8960) * sd / math.sqrt(8), rel=1e-4)
    assert "mde_note" not in result
    assert "clustered" not in result  # no group_by, no cluster key
    assert result["regression_threshold"] == 0.02


def test_xfailed_counts_as_failed_and_errors_are_not_paired() -> None:
    base = side([outcome_doc("a", 1.0), outcome_doc("b", 1.0), doc("c", None)])
    after = [outcome_doc("a", 0.0), outcome_doc("b", 1.0), outcome_doc("c", 1.0)]
    after[0]["outcome"] = "xfailed"
    result = compare_sides(Judge.of(Direct()), base, side(after), BaselineOptions())
    assert result["mcnemar"] == {"b": 1, "c": 0, "p_value": 1.0}  # 2 * 1/2


def test_clustered_error_from_the_group_key() -> None:
    # group DE: deltas -1, -1; group US: 0, 0. mean -0.5; residual sums -1 and +1
    base = side([outcome_doc(f"c{i}", 1.0, group=g) for i, g in enumerate("DDUU")])
    after = [0.0, 0.0, 1.0, 1.0]
    cand = side(
        [
            outcome_doc(f"c{i}", s, group=g)
            for i, (s, g) in enumerate(zip(after, "DDUU", strict=True))
        ]
    )
    result = compare_sides(Judge.of(Direct()), base, cand, BaselineOptions())
    # CR1 with G = 2: se^2 = 2/1 * (1 + 1) / 4^2, se = 0.5; t with one df is
    # tan(pi (p - 1/2)): t_0.975 = 12.706, t_0.80 = 1.376
    half = math.tan(math.pi * 0.475) * 0.5
    assert result["clustered"] == {
        "n_clusters": 2,
        "se": 0.5,
        "ci95": [pytest.approx(-0.5 - half), pytest.approx(-0.5 + half)],
    }
    assert result["mde"] == pytest.approx(
        (math.tan(math.pi * 0.475) + math.tan(math.pi * 0.3)) * 0.5
    )


def test_cluster_key_wins_over_the_group() -> None:
    # ini bizbench_cluster_by puts `cluster` on the documents; it replaces `group`
    docs = [outcome_doc(f"c{i}", 1.0, group="g") for i in range(4)]
    cand_docs = [outcome_doc(f"c{i}", float(i % 2), group="g") for i in range(4)]
    for i, d in enumerate(cand_docs):
        d["cluster"] = f"company-{i // 2}"
    result = compare_sides(Judge.of(Direct()), side(docs), side(cand_docs), BaselineOptions())
    assert result["clustered"]["n_clusters"] == 2


def test_regression_significant_naively_but_not_clustered_is_inconclusive() -> None:
    # 20 cases in 2 companies; one company's ten all drop by 1, the other's none do.
    # Mean -0.5; ten cases all down alone give the sign-flip p 2 / 2^10, but the CR1
    # se = sqrt(2/1 * (5^2 + 5^2)) / 20 = 0.5 with t_0.975,1 = 12.706 gives the
    # interval [-6.85, +5.85], which holds 0: two companies are two observations.
    groups = ["acme"] * 10 + ["initech"] * 10
    base = side([outcome_doc(f"c{i:02d}", 1.0, group=g) for i, g in enumerate(groups)])
    after = [0.0] * 10 + [1.0] * 10
    cand = side(
        [
            outcome_doc(f"c{i:02d}", s, group=g)
            for i, (s, g) in enumerate(zip(after, groups, strict=True))
        ]
    )
    plain = compare_sides(Judge.of(Direct()), base, cand, BaselineOptions())
    assert plain["verdict"] == "regressed"
    low, high = plain["clustered"]["ci95"]
    assert low < 0 < high
    strict = BaselineOptions(require_significance=True)
    result = compare_sides(Judge.of(Direct()), base, cand, strict)
    assert result["verdict"] == "inconclusive"
    assert result["paired"]["p_value"] == 2 / 1024
    assert result["significant"] is False
    assert "its clustered 95% CI [-6.8531, +5.8531] does not exclude 0" in result["message"]
    assert Comparisons({("direct", "m"): result}).reasons(strict) == []  # not failing


def test_holm_runs_over_every_comparison_of_the_run() -> None:
    def report(scores: dict[str, list[float]]) -> Report:
        benchmarks = {}
        for name, values in scores.items():
            docs = [outcome_doc(f"c{i}", s) for i, s in enumerate(values)]
            benchmarks[name] = {
                "version": "1.0.0",
                "fingerprint": "fp",
                "headline_metric": "accuracy",
                "models": {"m": {"metrics": {"accuracy": sum(values) / 6}, "documents": docs}},
            }
        return Report.from_json({"schema_version": 1, "benchmarks": benchmarks})

    base = report({"one": [1.0] * 6, "two": [1.0] * 6})
    # one: 6 passed -> failed, p = 2/64; two: 1 passed -> failed, p = 1
    cand = report({"one": [0.0] * 6, "two": [0.0] + [1.0] * 5})
    results = compare_reports(base, cand, BaselineOptions()).results
    assert results["one", "m"]["mcnemar"]["p_value"] == mcnemar_p(6, 0) == 2 / 64
    assert results["one", "m"]["paired"]["p_value"] == 2 / 64  # the sign-flip p is Holm's input
    assert results["one", "m"]["p_holm"] == 4 / 64  # smallest of m = 2: times 2
    assert results["two", "m"]["p_holm"] == 1.0  # times 1, and at least 4/64


def test_detectability_sentence_and_table_columns() -> None:
    c = {"verdict": "neutral", "mde": 0.0612, "regression_threshold": 0.02, "p_holm": 0.5}
    assert detectability(c) == (
        "this suite can detect changes of 6.1 points or more; REGRESSION_THRESHOLD is 2 points"
    )
    assert detectability({**c, "mde": 0.015}) is None  # the suite can see a 2-point drop
    assert detectability({**c, "mde": 1.5}) == (
        "this suite cannot detect a change of any size: the smallest it could, 1.5, is more "
        "than the whole score range; REGRESSION_THRESHOLD is 2 points"
    )
    assert comparison_notes({("direct", "m"): c}) == [f"direct (m): {detectability(c)}"]
    table = comparison_table({("direct", "m"): c}, {"direct": "accuracy"})
    assert table is not None
    header, rows = table
    assert rows[0][header.index("p (Holm)")] == "0.5000"
    assert rows[0][header.index("MDE")] == "0.0612"
