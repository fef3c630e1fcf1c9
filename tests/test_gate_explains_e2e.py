"""The gate explains itself: a failed threshold names the cases that pull its metric
down, a regression the cases that flipped, in the report, -v and the step summary;
rules and groups show beside the metrics."""

from __future__ import annotations

from pathlib import Path

import pytest
from bizhelpers import TOTALS_CONFTEST, Suite, doc, jsonl
from test_qa_refusal_e2e import PREDICTIONS, QUESTIONS

from pytest_bizbench.cli import main

TOTALS = {"a": 10, "b": 20, "c": 30, "d": 40, "e": 50, "f": 60, "g": 70}
WRONG = {"b": 21, "d": 4, "f": "sixty"}


def totals(suite: Suite, wrong: dict[str, object]) -> None:
    suite.cases(
        "inv.ground-truth.jsonl",
        [doc(i, {"total": t, "vendor": "Acme"}) for i, t in TOTALS.items()],
    )
    rows = [
        {"id": i, "total": wrong.get(i, t), "vendor": "Nobody" if i in wrong else "Acme"}
        for i, t in TOTALS.items()
    ]
    suite.write("preds.jsonl", jsonl(rows))


def test_a_per_field_threshold_lists_its_worst_cases(
    suite: Suite, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    totals(suite, WRONG)
    result = suite.pytester.runpytest(
        "--bizbench-predictions", "preds.jsonl", "-v",
        "--bizbench-threshold", "field-accuracy:per_field_accuracy.total >= 0.9",
    )  # fmt: skip
    assert result.ret == 1
    (threshold,) = suite.report()["thresholds"]
    cases = threshold["cases"]
    assert [c["id"] for c in cases] == ["b", "d", "f"]  # lowest first (all 0), then by id
    assert {k: cases[1][k] for k in ("field", "expected", "actual", "score")} == {
        "field": "total",
        "expected": 40,
        "actual": 4,
        "score": 0.0,
    }
    result.stdout.fnmatch_lines(
        [
            "field-accuracy:per_field_accuracy.total (default) failed: the cases that pull it*",
            "id*file*field*expected*actual*rung score",
            "d *inv.ground-truth.jsonl*total*40*4*",
        ]
    )
    markdown = summary.read_text(encoding="utf-8")
    assert "the cases that pull it down most" in markdown
    assert "worst failed documents" in markdown  # each failing field: expected, actual, rung


def test_a_refusal_rate_threshold_lists_the_refused_answers(suite: Suite) -> None:
    suite.write("fin.qa.jsonl", jsonl(QUESTIONS))
    suite.write("preds.jsonl", jsonl(PREDICTIONS))
    result = suite.pytester.runpytest(
        "--bizbench-predictions", "preds.jsonl", "-v",
        "--bizbench-threshold", "qa-answer:refusal_rate <= 0.2",
    )  # fmt: skip
    assert result.ret == 1
    (threshold,) = suite.report()["thresholds"]
    refused = {c["id"]: c for c in threshold["cases"]}
    assert sorted(refused) == ["q-1", "q-2", "q-3"]
    assert refused["q-1"]["actual"] == "The excerpt does not include capital expenditures."
    assert all(c["refusal_class"] for c in refused.values())
    result.stdout.fnmatch_lines(
        ["id*file*class*answer", "q-1*fin.qa.jsonl*The excerpt does not include capital*"]
    )


def test_a_regression_lists_the_cases_that_flipped(suite: Suite) -> None:
    totals(suite, {})
    args = ("--bizbench-predictions", "preds.jsonl", "-p", "no:cacheprovider")
    assert suite.pytester.runpytest(*args, "--bizbench-save-baseline", "base.json").ret == 0
    totals(suite, {"b": 0, "c": 0})
    result = suite.pytester.runpytest(*args, "--bizbench-baseline", "base.json", "-v")
    comparison = suite.report()["benchmarks"]["field-accuracy"]["comparison"]["default"]
    assert comparison["verdict"] == "regressed"
    assert [(f["id"], f["baseline"], f["candidate"]) for f in comparison["flipped"]] == [
        ("b", 1.0, 0.0),
        ("c", 1.0, 0.0),
    ]
    result.stdout.fnmatch_lines(
        [
            "field-accuracy (default): cases that flipped (passed, now failed):",
            "id*file*baseline*candidate",
        ]
    )


def test_rules_and_groups_show_beside_the_metrics(suite: Suite, tmp_path: Path) -> None:
    suite.write("conftest.py", TOTALS_CONFTEST)
    suite.write("pytest.ini", "[pytest]\nbizbench_builtin_benchmarks = false\n")
    suite.cases(
        "inv.ground-truth.jsonl",
        [
            doc("a", {"total": 150, "country": "DE"}, extracted_fields={"total": 150}),
            doc("b", {"total": 50, "country": "US"}, extracted_fields={"total": 5}),
        ],
    )
    result = suite.pytester.runpytest("-v", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(
        ["groups.DE * 1.0000 (n 1)", "groups.US * 0.0000 (n 1)", "rule_big * 1.0000 (n 1)"]
    )
    report = str(suite.path / "bizbench-report.json")
    html = tmp_path / "r.html"
    assert main(["report", report, "--format", "markdown", "-o", str(tmp_path / "r.md")]) == 0
    assert main(["report", report, "--format", "html", "-o", str(html)]) == 0
    markdown = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert "rule_big" in markdown
    assert "groups.US" in markdown
    assert "groups.US" in html.read_text(encoding="utf-8")
