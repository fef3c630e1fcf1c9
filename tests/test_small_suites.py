"""Small suites are not overclaimed: with significance required, changes too few to
tell from chance are not significant regressions; thresholds hold exactly at every
suite size; and every view says when a verdict is not significant and what the
suite could have seen."""

from __future__ import annotations

from typing import Any

import pytest
from test_baseline_compare import Direct, scores_side

from pytest_bizbench.baseline import compare_sides
from pytest_bizbench.report.tables import verdict_text
from pytest_bizbench.settings import BaselineOptions

STRICT = BaselineOptions(require_significance=True)


def judged(before: list[float], after: list[float]) -> dict[str, Any]:
    return compare_sides(Direct(), scores_side(before), scores_side(after), STRICT)


@pytest.mark.parametrize(
    ("before", "after", "p"),
    [
        ([1.0], [0.0], 1.0),  # one case broke: p 1
        ([1.0, 1.0], [0.0, 0.0], 0.5),  # 2 of 2 broke: 2 of 4 sign patterns
        ([1.0] * 10, [0.0] * 4 + [1.0] * 6, 0.125),  # 4 of 10 broke: 2 / 16
        ([1.0] * 200, [0.0] * 4 + [1.0] * 196, 0.125),  # 4 of 200: still 2 / 16
        ([1.0] * 5, [0.0] * 5, 0.0625),  # 5 of 5: fewer than 6 cases never are
    ],
)
def test_too_few_changes_are_inconclusive_not_significant_regressions(
    before: list[float], after: list[float], p: float
) -> None:
    result = judged(before, after)
    assert result["regression"] is True  # the headline did drop past the threshold
    assert result["verdict"] == "inconclusive"
    assert result["paired"]["p_value"] == result["p_holm"] == p
    assert result["significant"] is result["paired"]["significant"] is False
    assert f"its p (Holm) {p:.4g} is not below 0.05" in result["message"]


def test_six_of_six_broke_is_a_significant_regression() -> None:
    result = judged([1.0] * 6, [0.0] * 6)
    assert result["paired"]["p_value"] == 2 / 64  # 0.031
    assert (result["verdict"], result["significant"]) == ("regressed", True)


def test_a_suite_under_six_cases_says_it_can_never_be_significant() -> None:
    result = judged([1.0, 1.0], [0.0, 0.0])
    assert "(under 6 paired cases it never is)" in result["message"]
    assert verdict_text(result) == (
        "inconclusive (not significant, p 0.5; under 6 paired cases (2) can never be significant)"
    )


def test_one_cluster_is_never_significant() -> None:
    before = scores_side([1.0] * 8)
    after = scores_side([0.0] * 8)
    for d in (*before.documents, *after.documents):
        d["group"] = "acme"
    result = compare_sides(Direct(), before, after, STRICT)
    assert result["paired"]["p_value"] == 2 / 256
    assert result["clustered"] == {
        "n_clusters": 1,
        "se": None,
        "ci95": None,
        "note": "one cluster: no clustered error",
    }
    assert result["mde"] is None
    assert result["mde_note"] == "one cluster: no clustered error"
    assert result["significant"] is False
    assert result["verdict"] == "inconclusive"
    assert "but not significant: one cluster: no clustered error" in result["message"]


# Boundaries: a move of exactly a threshold counts, whatever float rounding does.


@pytest.mark.parametrize(
    ("base", "cand", "verdict"),
    [
        (4 / 50, 3 / 50, "regressed"),  # -0.020000000000000004
        (2 / 50, 1 / 50, "regressed"),  # -0.02 exactly
        (0.30, 0.28, "regressed"),  # -0.019999999999999962
        (0.28, 0.29, "improved"),  # +0.009999999999999953, exactly the 0.01 gain
        (0.50, 0.481, "neutral"),  # -0.019: inside
        (0.50, 0.509, "neutral"),  # +0.009: inside
    ],
)
def test_a_move_of_exactly_a_threshold_counts(base: float, cand: float, verdict: str) -> None:
    result = Direct().compare({"accuracy": base}, {"accuracy": cand})
    assert result["verdict"] == verdict
    assert result["regression"] is (verdict == "regressed")


def test_a_zero_threshold_does_not_call_no_change_a_move() -> None:
    class Strict(Direct):
        REGRESSION_THRESHOLD = 0.0
        IMPROVEMENT_THRESHOLD = 0.0

    assert Strict().compare({"accuracy": 0.5}, {"accuracy": 0.5})["verdict"] == "neutral"
    assert Strict().compare({"accuracy": 0.5}, {"accuracy": 0.49})["verdict"] == "regressed"


@pytest.mark.parametrize("passed", [1, 2, 3, 4, 10, 25, 49, 50])
def test_one_more_failure_in_50_is_the_same_verdict_at_every_level(passed: int) -> None:
    result = Direct().compare({"accuracy": passed / 50}, {"accuracy": (passed - 1) / 50})
    assert result["verdict"] == "regressed"


# What the views say beside a verdict.

BASE = {"verdict": "regressed", "significant": False, "p_holm": 0.25, "paired": {"n": 40}}


@pytest.mark.parametrize(
    ("changes", "text"),
    [
        (
            {"mde": 0.15},
            "regressed (not significant, p 0.25; this suite detects drops of 0.15 or more)",
        ),
        (
            {"mde": 0.1523, "verdict": "neutral"},
            "neutral (not significant, p 0.25; this suite detects drops of 0.15 or more)",
        ),
        (
            {"mde": 0.061, "verdict": "improved"},
            "improved (not significant, p 0.25; this suite detects gains of 0.061 or more)",
        ),
        (
            {"mde": None, "mde_note": "one cluster: no clustered error"},
            "regressed (not significant, p 0.25; one cluster: no clustered error)",
        ),
        (
            {"mde": 0.0, "verdict": "neutral", "p_holm": 1.0},
            "neutral (not significant, p 1; the deltas show no spread: detectable change unknown)",
        ),
        (
            {"mde": 0.9, "p_holm": 1.0, "paired": {"n": 1}},
            "regressed (not significant, p 1; under 6 paired cases (1) can never be significant)",
        ),
        ({"mde": 0.15, "significant": True, "p_holm": 0.001}, "regressed"),
        ({"verdict": "stale"}, "stale"),
        ({"significant": None}, "regressed"),  # a report from before significance
    ],
)
def test_verdict_text(changes: dict[str, Any], text: str) -> None:
    assert verdict_text({**BASE, **changes}) == text
