"""Honest comparisons end to end: the report keys, the terminal columns and
sentence, the inconclusive verdict everywhere it is shown, flaky cases as xfail, and
`bizbench compare` computing the same from two saved reports."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from bizhelpers import Suite, doc, jsonl
from test_baseline_e2e import build, comparison

from pytest_bizbench.cli import main
from pytest_bizbench.gate.baseline import compare_reports
from pytest_bizbench.options.settings import BaselineOptions
from pytest_bizbench.report.reader import read_report

ALL_PASS = {"c1": 1.0, "c2": 1.0, "c3": 1.0, "c4": 1.0}
ONE_DROP = {"c1": 0.0, "c2": 1.0, "c3": 1.0, "c4": 1.0}  # c1 passed -> failed
MARK = ("--bizbench-min-score", "0.5")
# deltas -1, 0, 0, 0: mean -0.25. Countries alternate DE, US, DE, US, so the
# residual sums are DE -0.75 + 0.25 = -0.5 and US 0.25 + 0.25 = +0.5: the CR1 se
# with G = 2 is sqrt(2/1 * (0.25 + 0.25)) / 4 = 0.25, and t with 1 df is
# tan(pi (p - 1/2)): MDE = (t_0.975 + t_0.80) * se = (12.706 + 1.376) * 0.25 = 3.52
SE = 0.25
T_975, T_80 = math.tan(math.pi * 0.475), math.tan(math.pi * 0.3)
MDE = (T_975 + T_80) * SE
SENTENCE = (
    "this suite cannot detect a change of any size: the smallest it could, 3.5, is more "
    "than the whole score range; REGRESSION_THRESHOLD is 2 points"
)
# beside the verdict: one case moved (p 1), and four cases can never show a change
NOT_SIGNIFICANT = "(not significant, p 1; under 6 paired cases (4) can never be significant)"


def baseline_then(suite: Suite, candidate: dict[str, float], *args: str) -> pytest.RunResult:
    build(suite, ALL_PASS)
    assert suite.pytester.runpytest(*MARK, "--bizbench-save-baseline", "base.json").ret == 0
    build(suite, candidate)
    return suite.pytester.runpytest(*MARK, "--bizbench-baseline", "base.json", *args)


def test_comparison_keys_columns_and_the_detectability_sentence(suite: Suite) -> None:
    result = baseline_then(suite, ONE_DROP)
    assert result.ret == 1  # accuracy 1.0 -> 0.75: regressed
    c = comparison(suite)
    assert c["verdict"] == "regressed"
    assert c["mcnemar"] == {"b": 1, "c": 0, "p_value": 1.0}  # 2 * P(X <= 0), n = 1
    assert c["p_holm"] == 1.0  # the only comparison of the run
    assert c["clustered"] == {
        "n_clusters": 2,
        "se": SE,
        "ci95": [pytest.approx(-0.25 - T_975 * SE), pytest.approx(-0.25 + T_975 * SE)],
    }
    assert c["mde"] == pytest.approx(MDE)
    out = result.stdout.str()
    header = next(
        line for line in out.splitlines() if line.startswith("benchmark  model    verdict")
    )
    assert "p (Holm)" in header
    assert "MDE" in header
    assert re.search(
        rf"direct\s+default\s+regressed {re.escape(NOT_SIGNIFICANT)}\s+accuracy.*1\.0000\s+3\.5206",
        out,
    )
    result.stdout.fnmatch_lines([f"direct (default): {SENTENCE}"])


def test_inconclusive_is_reported_not_failing_in_every_view(
    suite: Suite, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = suite.path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    # one case moved: the sign-flip p is 1, so with significance required the drop
    # is inconclusive
    result = baseline_then(suite, ONE_DROP, "--bizbench-require-significance")
    assert result.ret == 1  # c1 itself fails its pass mark; the gate passes
    assert "regression:" not in result.stdout.str()
    assert comparison(suite)["verdict"] == "inconclusive"
    assert re.search(r"direct\s+default\s+accuracy\s+0\.7500.*inconclusive", result.stdout.str())
    result.stdout.fnmatch_lines(["*bizbench gate: passed*"])
    text = summary.read_text(encoding="utf-8")
    assert f"| direct | default | inconclusive {NOT_SIGNIFICANT} | accuracy |" in text
    assert SENTENCE in text
    capsys.readouterr()
    html_path = str(suite.path / "r.html")
    assert (
        main(
            [
                "report",
                str(suite.path / "bizbench-report.json"),
                "--format",
                "html",
                "-o",
                html_path,
            ]
        )
        == 0
    )
    page = Path(html_path).read_text(encoding="utf-8")
    assert f'<span class="badge warn">inconclusive</span> {NOT_SIGNIFICANT}' in page
    assert "McNemar b=1 (passed→failed), c=0 (failed→passed), p=1.0000" in page
    assert SENTENCE in page


def test_compare_cli_computes_the_same_from_two_saved_reports(
    suite: Suite, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline_then(suite, ONE_DROP)
    in_run = comparison(suite)
    capsys.readouterr()
    base, cand = str(suite.path / "base.json"), str(suite.path / "bizbench-report.json")
    assert main(["compare", base, cand]) == 1
    out = capsys.readouterr().out
    assert re.search(
        rf"direct\s+default\s+regressed {re.escape(NOT_SIGNIFICANT)}\s+accuracy.*1\.0000\s+3\.5206",
        out,
    )
    assert f"- direct (default): {SENTENCE}" in out
    assert main(["compare", base, cand, "--require-significance"]) == 0
    out = capsys.readouterr().out
    assert re.search(rf"direct\s+default\s+inconclusive {re.escape(NOT_SIGNIFICANT)}", out)
    # the documents carry outcome and group, so the statistics are the run's own
    saved = compare_reports(
        read_report(Path(base)), read_report(Path(cand)), BaselineOptions()
    ).results["direct", "default"]
    for key in ("mcnemar", "clustered", "mde", "p_holm"):
        assert saved[key] == in_run[key]


def test_cluster_by_names_a_case_field(suite: Suite) -> None:
    build(suite, ALL_PASS, ini="bizbench_cluster_by = k\n")
    assert suite.pytester.runpytest(*MARK, "--bizbench-save-baseline", "base.json").ret == 0
    build(suite, ONE_DROP, ini="bizbench_cluster_by = k\n")
    suite.pytester.runpytest(*MARK, "--bizbench-baseline", "base.json")
    docs = suite.documents("direct")
    assert docs["c1"]["cluster"] == "c1"  # k is the case's own id: one case per cluster
    assert docs["c1"]["group"] == "DE"  # group_by still groups the report
    assert comparison(suite)["clustered"]["n_clusters"] == 4


QUESTIONS = [{"id": f"q{i}", "question": f"Is {i} odd?", "expected": "yes"} for i in (1, 2, 3)]
# q1: 1 of 3 right (mean 0.33, under the 0.6 mark: a failing flaky case)
# q2: 2 of 2 right (steady); q3: 2 of 3 right (mean 0.67: a passing flaky case)
ANSWERS = [
    {"id": "q1", "answers": ["yes", "no", "no"]},
    {"id": "q2", "answers": ["yes", "yes"]},
    {"id": "q3", "answers": ["yes", "yes", "no"]},
]


def flaky_suite(suite: Suite, mode: str, *args: str, xdist: bool = False) -> pytest.RunResult:
    suite.write("qa/a.qa.jsonl", jsonl(QUESTIONS))
    suite.write("preds.jsonl", jsonl(ANSWERS))
    suite.write("pytest.ini", f"[pytest]\nbizbench_pass_at_k = 1,2\nbizbench_flaky = {mode}\n")
    run = suite.pytester.runpytest_subprocess if xdist else suite.pytester.runpytest
    return run("-rx", "--bizbench-min-score", "0.6", "--bizbench-predictions", "preds.jsonl", *args)


def test_flaky_case_is_xfail_and_stays_in_the_aggregates(
    suite: Suite, capsys: pytest.CaptureFixture[str]
) -> None:
    result = flaky_suite(suite, "xfail")
    assert result.ret == 0
    result.stdout.fnmatch_lines(
        ["*XFAIL qa/a.qa.jsonl::q1[[]qa-answer[]] - flaky: 1 of 3 samples passed*"]
    )
    result.stdout.fnmatch_lines(
        [
            "flaky cases (samples disagree):",
            "benchmark*model*case*file*samples passed",
            "*",
            "qa-answer*default*q1*qa/a.qa.jsonl*1 of 3",
            "qa-answer*default*q3*qa/a.qa.jsonl*2 of 3",
        ]
    )
    docs = suite.documents("qa-answer")
    assert (docs["q1"]["outcome"], docs["q1"]["pytest_outcome"]) == ("failed", "xfailed")
    assert [docs[q]["details"]["flip"] for q in ("q1", "q2", "q3")] == [True, False, True]
    assert docs["q3"]["details"]["pass_hat_k"] == {
        "1": pytest.approx(2 / 3),
        "2": pytest.approx(1 / 3),
    }
    metrics = suite.metrics("qa-answer")
    assert metrics["flip_rate"] == pytest.approx(2 / 3)  # q1 and q3 of three with n >= 2
    # pass^1: 1/3, 1, 2/3; pass^2: C(1,2)/C(3,2) = 0, C(2,2)/C(2,2) = 1, C(2,2)/C(3,2) = 1/3
    assert metrics["pass_hat_1"] == pytest.approx(2 / 3)
    assert metrics["pass_hat_2"] == pytest.approx(4 / 9)
    assert metrics["pass_at_2"] == pytest.approx((2 / 3 + 1 + 1) / 3)  # q1 1 - C(2,2)/C(3,2)
    assert metrics["accuracy"] == pytest.approx(2 / 3)  # q1 still counts
    flaky = suite.report()["benchmarks"]["qa-answer"]["models"]["default"]["flaky"]
    assert flaky == [
        {"case": "qa/a.qa.jsonl", "id": "q1", "n": 3, "passed": 1},
        {"case": "qa/a.qa.jsonl", "id": "q3", "n": 3, "passed": 2},
    ]
    capsys.readouterr()
    assert main(["report", str(suite.path / "bizbench-report.json"), "--format", "html"]) == 0
    page = capsys.readouterr().out
    assert "<h3>flaky cases (samples disagree)</h3>" in page
    assert "<td>q3</td><td>qa/a.qa.jsonl</td><td>2 of 3</td>" in page
    assert main(["report", str(suite.path / "bizbench-report.json"), "--format", "markdown"]) == 0
    assert "| qa-answer | default | q1 | qa/a.qa.jsonl | 1 of 3 |" in capsys.readouterr().out


def test_flaky_case_fails_by_default(suite: Suite) -> None:
    result = flaky_suite(suite, "fail")
    assert result.ret == 1
    assert suite.documents("qa-answer")["q1"]["outcome"] == "failed"


def test_bad_flaky_mode_is_a_usage_error(suite: Suite) -> None:
    result = flaky_suite(suite, "maybe")
    assert result.ret == 4
    result.stderr.fnmatch_lines(["*ini bizbench_flaky = 'maybe' must be fail or xfail*"])


def test_flaky_xfail_under_xdist_gives_the_serial_report(suite: Suite) -> None:
    assert flaky_suite(suite, "xfail", "--bizbench-report", "serial.json").ret == 0
    parallel = flaky_suite(suite, "xfail", "-n", "2", "--bizbench-report", "xdist.json", xdist=True)
    assert parallel.ret == 0
    serial, xdist = suite.report("serial.json"), suite.report("xdist.json")
    assert serial["benchmarks"] == xdist["benchmarks"]
    first = xdist["benchmarks"]["qa-answer"]["models"]["default"]["documents"][0]
    assert (first["outcome"], first["pytest_outcome"]) == ("failed", "xfailed")


def test_generic_runs_flip_against_the_items_pass_mark(suite: Suite) -> None:

    suite.cases("cases/a.ground-truth.jsonl", [doc("inv-1", {"vendor": "Acme", "total": 100})])
    # run 1 scores 1.0, run 2 0.5 (total wrong): against the 0.9 mark one of two passes
    runs = {"inv-1": {"runs": [{"vendor": "Acme", "total": 100}, {"vendor": "Acme", "total": 7}]}}
    suite.write("preds.json", json.dumps(runs))
    suite.write("pytest.ini", "[pytest]\nbizbench_flaky = xfail\n")
    result = suite.pytester.runpytest(
        "-rx", "--bizbench-min-score", "0.9", "--bizbench-predictions", "preds.json"
    )
    assert result.ret == 0
    result.stdout.fnmatch_lines(["*XFAIL*inv-1*flaky: 1 of 2 samples passed*"])
    details = suite.documents()["inv-1"]["details"]
    assert details["runs"]["passed"] == 1
    assert details["flip"] is True
    # pass@1 = pass^1 = 1/2; no k = 2 asked for (bizbench_pass_at_k defaults to 1)
    assert details["pass_at_k"] == details["pass_hat_k"] == {"1": 0.5}
    metrics = suite.metrics()
    assert (metrics["flip_rate"], metrics["pass_at_1"], metrics["pass_hat_1"]) == (1.0, 0.5, 0.5)
