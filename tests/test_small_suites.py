"""Small suites are not overclaimed: with significance required, changes too few to
tell from chance are not significant regressions; thresholds hold exactly at every
suite size; and every view says when a verdict is not significant and what the
suite could have seen."""

from __future__ import annotations

import math
from typing import Any

import pytest
from bizhelpers import Suite
from test_baseline_compare import Direct, scores_side
from test_baseline_e2e import build, comparison

from pytest_bizbench.cli import main
from pytest_bizbench.gate.aggregate import _holm_over_pairs
from pytest_bizbench.gate.baseline import Judge, Side, compare_sides
from pytest_bizbench.options.settings import BaselineOptions
from pytest_bizbench.report.tables import verdict_text

STRICT = BaselineOptions(require_significance=True)


def judged(before: list[float], after: list[float]) -> dict[str, Any]:
    return compare_sides(Judge.of(Direct()), scores_side(before), scores_side(after), STRICT)


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
    result = compare_sides(Judge.of(Direct()), before, after, STRICT)
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
    assert "but not a significant drop: one cluster: no clustered error" in result["message"]


def test_a_headline_drop_whose_cases_rose_is_not_a_significant_drop() -> None:
    # the headline (from the metrics) fell 0.4 while all 8 paired cases gained 1:
    # significant (p 2/256), but upward, so not a significant drop
    before, after = scores_side([0.0] * 8), scores_side([1.0] * 8)
    result = compare_sides(
        Judge.of(Direct()),
        Side(before.version, before.fingerprint, {"accuracy": 0.9}, before.documents),
        Side(after.version, after.fingerprint, {"accuracy": 0.5}, after.documents),
        STRICT,
    )
    assert (result["significant"], result["verdict"]) == (True, "inconclusive")
    assert result["message"] == (
        "regressed on the headline, but not a significant drop: the paired cases moved the "
        "other way (mean delta +1.0000), so the change may be noise: inconclusive "
        "(--bizbench-require-significance)"
    )


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
            {
                "mde": 0.0,
                "verdict": "neutral",
                "p_holm": 1.0,
                "paired": {"n": 40, "mean_delta": 0.0},
            },
            "neutral (not significant, p 1; no paired case changed)",
        ),
        (
            {"mde": 0.0, "paired": {"n": 40, "mean_delta": -0.1}},
            "regressed (not significant, p 0.25; the deltas show no spread)",
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


# End to end: the gate with --bizbench-require-significance, and what each view says.


def run_pair(suite: Suite, broke: set[int], n: int, *args: str, xdist: bool = False) -> Any:
    """Save a baseline of n passing cases, then compare a run where `broke` score 0.
    Cases alternate between the countries DE and US, the benchmark's clusters."""
    build(suite, {f"c{i}": 1.0 for i in range(n)})
    assert suite.pytester.runpytest("--bizbench-save-baseline", "base.json").ret == 0
    build(suite, {f"c{i}": 0.0 if i in broke else 1.0 for i in range(n)})
    run = suite.pytester.runpytest_subprocess if xdist else suite.pytester.runpytest
    return run("--bizbench-baseline", "base.json", "--bizbench-require-significance", *args)


@pytest.mark.parametrize(
    ("broke", "n", "text"),
    [
        ({0}, 1, "p 1; under 6 paired cases (1) can never be significant"),
        ({0, 1}, 2, "p 0.5; under 6 paired cases (2) can never be significant"),
        # DE c0, c2, c4 and US c1 broke: mean -0.4; DE's five sum to -3, a residual
        # sum of -3 + 5 * 0.4 = -1, US's to -1, a residual sum of +1. CR1 se =
        # sqrt(2/1 * 2) / 10 = 0.2, MDE with t(1) = (12.706 + 1.376) * 0.2 = 2.8;
        # four moved, all down: p 2/16 = 0.125
        ({0, 1, 2, 4}, 10, "p 0.12; this suite detects drops of 2.8 or more"),
    ],
)
def test_too_few_changes_do_not_fail_the_gate(
    suite: Suite, broke: set[int], n: int, text: str
) -> None:
    result = run_pair(suite, broke, n)
    assert result.ret == 0
    c = comparison(suite)
    assert (c["verdict"], c["significant"]) == ("inconclusive", False)
    result.stdout.fnmatch_lines(
        ["bizbench gate: passed", "*", "*", f"direct*inconclusive (not significant, {text})*"]
    )


def test_too_few_changes_do_not_fail_the_gate_under_xdist(suite: Suite) -> None:
    result = run_pair(suite, {0, 1, 2, 4}, 10, "-n", "2", xdist=True)
    assert result.ret == 0
    c = comparison(suite)
    assert (c["verdict"], c["paired"]["p_value"], c["mde"]) == (
        "inconclusive",
        0.125,
        pytest.approx((math.tan(math.pi * 0.475) + math.tan(math.pi * 0.3)) * 0.2),
    )
    result.stdout.fnmatch_lines(["*inconclusive (not significant, p 0.12; this suite detects*"])


def test_six_broken_cases_fail_the_gate_serially_and_under_xdist(suite: Suite) -> None:
    # 6 of 12 broke, three per country: p = 2/64, and the two clusters moved alike
    # (residual sums 0), so the CR1 interval is the point -0.5: significant
    broke = {0, 1, 2, 3, 4, 5}
    serial = run_pair(suite, broke, 12)
    assert serial.ret == 1
    first = comparison(suite)
    assert (first["verdict"], first["p_holm"], first["significant"]) == ("regressed", 2 / 64, True)
    serial.stdout.fnmatch_lines(["*regression: direct (model default)*p (Holm) 0.03125*"])
    parallel = suite.pytester.runpytest_subprocess(
        "--bizbench-baseline", "base.json", "--bizbench-require-significance", "-n", "2"
    )
    assert parallel.ret == 1
    assert comparison(suite) == first


def test_every_view_says_not_significant_and_what_the_suite_detects(
    suite: Suite, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = suite.path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    result = run_pair(suite, {0, 1, 2, 4}, 10)
    said = "inconclusive (not significant, p 0.12; this suite detects drops of 2.8 or more)"
    assert said in result.stdout.str()  # the terminal
    assert f"| direct | default | {said} | accuracy |" in summary.read_text(encoding="utf-8")
    capsys.readouterr()
    report = str(suite.path / "bizbench-report.json")
    assert main(["report", report, "--format", "html"]) == 0
    page = capsys.readouterr().out
    assert (
        '<td><span class="badge warn">inconclusive</span> (not significant, p 0.12; this '
        "suite detects drops of 2.8 or more)</td>"
    ) in page
    assert (
        main(["compare", str(suite.path / "base.json"), report]) == 1
    )  # significance not required
    assert "regressed (not significant, p 0.12; this suite detects drops of 2.8" in (
        capsys.readouterr().out
    )


def test_model_pairs_are_holm_adjusted_over_the_run() -> None:
    # p 0.01 and 0.04 over two pairs: 0.02 and max(0.02, 0.04); a pair without a
    # sign-flip p (a benchmark's own compare_models) is left alone
    paired: dict[str, dict[str, Any]] = {
        "a": {"v2-vs-v1": {"cases": {"p_value": 0.04}}, "v3-vs-v1": {"cases": {"p_value": 0.01}}},
        "b": {"v2-vs-v1": {"cases": {"n": 3}}},
    }
    _holm_over_pairs(paired)
    assert paired["a"]["v2-vs-v1"]["cases"] == {
        "p_value": 0.04,
        "p_holm": 0.04,
        "significant": True,
    }
    assert paired["a"]["v3-vs-v1"]["cases"]["p_holm"] == 0.02
    assert paired["b"]["v2-vs-v1"]["cases"] == {"n": 3}
