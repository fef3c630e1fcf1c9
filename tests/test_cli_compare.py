"""`bizbench compare` and `bizbench report`: saved reports judged and rendered."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from bizhelpers import Suite, doc

from pytest_bizbench import __version__
from pytest_bizbench.cli import main
from pytest_bizbench.report.html import render_html
from pytest_bizbench.report.model import Report

# Four documents with two fields each, so a document scores 1, 0.5 or 0.
CASES = [doc(f"d{i}", {"a": "alpha", "b": "beta"}) for i in range(4)]
RIGHT = {"a": "alpha", "b": "beta"}
HALF = {"a": "alpha", "b": "wrong"}


def make_report(suite: Suite, name: str, preds: list[dict[str, str]], *args: str) -> str:
    suite.cases("cases/a.ground-truth.jsonl", CASES)
    suite.write("preds.json", json.dumps({f"d{i}": p for i, p in enumerate(preds)}))
    result = suite.pytester.runpytest(
        "--bizbench-predictions", "preds.json", "--bizbench-report", name, *args
    )
    assert (suite.path / name).exists(), result.stdout.str()
    return name


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()  # drop what the pytest runs before printed
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_compare_same_report_is_neutral(suite: Suite, capsys: pytest.CaptureFixture[str]) -> None:
    report = make_report(suite, "r.json", [RIGHT, RIGHT, HALF, HALF])
    code, out, _ = run_cli(capsys, "compare", report, report)
    assert code == 0
    # nothing moved: p 1, and four cases could never have shown a significant change
    assert re.search(
        r"field-accuracy\s+default\s+neutral \(not significant, p 1; under 6 paired cases \(4\) "
        r"can never be significant\)\s+accuracy\s+0\.7500\s+0\.7500",
        out,
    )
    assert out.rstrip().endswith("verdict: passed")


def test_compare_regression_exits_1_and_lists_worst_cases(
    suite: Suite, capsys: pytest.CaptureFixture[str]
) -> None:
    base = make_report(suite, "base.json", [RIGHT, RIGHT, RIGHT, RIGHT])
    cand = make_report(suite, "cand.json", [RIGHT, RIGHT, RIGHT, HALF])
    # accuracy 1.0 -> 0.875: delta -0.125, past the -0.02 bound
    code, out, _ = run_cli(capsys, "compare", base, cand)
    assert code == 1
    assert "regressed" in out
    assert re.search(
        r"field-accuracy\s+default\s+d3\s+1\.0000\s+0\.5000\s+-0\.5000\s+b 1\.00→0\.00", out
    )
    assert "- regression: field-accuracy (model default): accuracy 1.0000 -> 0.8750" in out
    # the hint names this command's flag, not the pytest option
    assert out.count("accept it with --allow-regression or re-baseline") == 1
    assert "--bizbench-allow-regression" not in out
    code, out, _ = run_cli(capsys, "compare", base, cand, "--format", "markdown")
    assert code == 1
    assert "### Compared with the baseline" in out
    assert (
        "| field-accuracy | default | regressed (not significant, p 1; under 6 paired cases (4) "
        "can never be significant) | accuracy | 1.0000 | 0.8750 | -0.1250 |"
    ) in out
    assert "| field-accuracy | default | d3 | 1.0000 | 0.5000 | -0.5000 | b 1.00→0.00 |" in out
    assert run_cli(capsys, "compare", base, cand, "--allow-regression")[0] == 0
    # deltas 0, 0, 0, -0.5: one case moved, sign-flip p 1, so with significance
    # required the drop is inconclusive: reported, not failing
    code, out, _ = run_cli(capsys, "compare", base, cand, "--require-significance")
    assert code == 0
    assert "its p (Holm) 1 is not below 0.05 (under 6 paired cases it never is)" in out
    assert re.search(r"field-accuracy\s+default\s+inconclusive \(not significant, p 1;", out)


def test_compare_improvement_exits_0(suite: Suite, capsys: pytest.CaptureFixture[str]) -> None:
    base = make_report(suite, "base.json", [HALF, HALF, HALF, HALF])
    cand = make_report(suite, "cand.json", [RIGHT, HALF, HALF, HALF])
    code, out, _ = run_cli(capsys, "compare", base, cand)
    assert code == 0
    assert "improved" in out


def test_compare_stale_exits_1_unless_allowed(
    suite: Suite, capsys: pytest.CaptureFixture[str]
) -> None:
    base = make_report(suite, "base.json", [RIGHT] * 4)
    # another strictness changes field-accuracy's scoring config, so its fingerprint
    cand = make_report(suite, "cand.json", [RIGHT] * 4, "-o", "bizbench_strictness=0.8")
    code, out, _ = run_cli(capsys, "compare", base, cand)
    assert code == 1
    assert "stale" in out
    assert "scoring config fingerprint" in out
    assert "--bizbench-save-baseline" in out
    assert run_cli(capsys, "compare", base, cand, "--allow-stale")[0] == 0


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read report missing.json"),
        ('{"a": 1,\n "b": }', "missing.json:2: not a bizbench report: malformed JSON"),
        ('{"schema_version": 2}', "not a bizbench report: schema_version is 2, expected 1"),
        (
            '{"schema_version": 1, "benchmarks": {"x": {"version": "1", "fingerprint": "f", '
            '"models": {"m": {"metrics": {}, "documents": [{"id": 3}]}}}}}',
            "benchmarks.x.models.m.documents[0].id must be a string",
        ),
    ],
)
def test_unreadable_reports_exit_2(
    suite: Suite, capsys: pytest.CaptureFixture[str], content: str | None, message: str
) -> None:
    good = make_report(suite, "good.json", [RIGHT] * 4)
    if content is not None:
        suite.write("missing.json", content)
    for argv in (["compare", good, "missing.json"], ["report", "missing.json"]):
        code, out, err = run_cli(capsys, *argv)
        assert code == 2
        assert message in err
        assert out == ""


def test_compare_reports_without_common_benchmarks_is_a_usage_error(
    suite: Suite, capsys: pytest.CaptureFixture[str]
) -> None:
    good = make_report(suite, "good.json", [RIGHT] * 4)
    suite.write("empty.json", json.dumps({"schema_version": 1, "benchmarks": {}}))
    code, _, err = run_cli(capsys, "compare", "empty.json", good)
    assert code == 2
    assert "share no benchmark and model" in err


def test_report_markdown_is_the_step_summary(
    suite: Suite, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    base = make_report(suite, "base.json", [RIGHT] * 4)
    summary = suite.path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    cand = make_report(
        suite,
        "cand.json",
        [RIGHT, RIGHT, HALF, HALF],
        "--bizbench-baseline",
        base,
        "--bizbench-threshold",
        "field-accuracy:accuracy >= 0.9",
    )
    code, out, _ = run_cli(capsys, "report", cand)
    assert code == 0
    assert out == summary.read_text()
    assert "### Worst-regressed cases" in out
    assert run_cli(capsys, "report", cand, "--format", "markdown", "-o", "out.md")[:2] == (0, "")
    assert (suite.path / "out.md").read_text() == out


def test_report_html_is_one_self_contained_page(
    suite: Suite, capsys: pytest.CaptureFixture[str]
) -> None:
    base = make_report(suite, "base.json", [RIGHT] * 4)
    cand = make_report(suite, "cand.json", [RIGHT, RIGHT, HALF, HALF], "--bizbench-baseline", base)
    code, out, _ = run_cli(capsys, "report", cand, "--format", "html", "-o", "r.html")
    assert (code, out) == (0, "")
    page = (suite.path / "r.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert '<meta charset="utf-8">' in page
    # nothing is fetched: no scripts, no external sources, no links to follow
    assert not re.search(r"<script|<link|src=|href=|@import|url\(", page)
    assert '<h3>field-accuracy</h3><p class="meta">version 1.0.0</p>' in page
    assert 'aria-label="per-field accuracy"' in page
    assert 'aria-label="paired per-case deltas"' in page
    assert '<span class="badge bad">regressed</span>' in page
    assert "95% CI" in page
    assert "d3" in page  # a worst-regressed case


def test_report_html_stays_small_for_a_thousand_documents_and_two_models(
    suite: Suite,
) -> None:
    name = make_report(suite, "r.json", [RIGHT, HALF, HALF, RIGHT])
    report: dict[str, Any] = json.loads((suite.path / name).read_text())
    entry = report["benchmarks"]["field-accuracy"]
    template = entry["models"]["default"]["documents"][1]
    documents = []
    for i in range(1000):
        document = copy.deepcopy(template)
        document.update(
            id=f"invoice-{i:05d}", nodeid=f"cases/a.ground-truth.jsonl::invoice-{i:05d}"
        )
        documents.append(document)
    entry["models"] = {
        model: {"metrics": entry["models"]["default"]["metrics"], "documents": documents}
        for model in ("model-a", "model-b")
    }
    page = render_html(Report.from_json(report))
    assert len(page.encode("utf-8")) < 5_000_000
    assert page.count("invoice-00999") == 2


def test_report_to_an_unwritable_path_exits_2(
    suite: Suite, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_report(suite, "r.json", [RIGHT] * 4)
    suite.write("blocker", "")
    code, _, err = run_cli(capsys, "report", name, "-o", str(Path("blocker") / "r.md"))
    assert code == 2
    assert "cannot write blocker/r.md" in err


def test_version_prints_the_packages_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == f"bizbench (pytest-bizbench) {__version__}\n"


@pytest.mark.parametrize("command", ["compare", "report"])
def test_a_closed_pipe_ends_quietly(suite: Suite, command: str) -> None:
    """`bizbench compare A B | head -1`: the reader is gone before the first line, so
    every write meets a closed pipe; the command ends as if killed by SIGPIPE,
    without a traceback."""
    name = make_report(suite, "a.json", [RIGHT] * 4)
    reports = [name, name] if command == "compare" else [name]
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pytest_bizbench.cli", command, *reports],
            cwd=suite.path,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (128 + 13, "")


def test_compare_fails_on_a_model_of_the_baseline_the_candidate_lacks(
    suite: Suite, capsys: pytest.CaptureFixture[str]
) -> None:
    """As a run compared with the baseline does: `missing`, a reason, unless allowed."""
    make_report(suite, "two.json", [RIGHT] * 4, "--bizbench-predictions", "m2=preds.json")
    make_report(suite, "one.json", [RIGHT] * 4)
    code, out, _ = run_cli(capsys, "compare", "two.json", "one.json")
    assert code == 1
    assert "- missing from this run: field-accuracy/m2 (in the baseline)" in out
    assert "missing" in out.split("verdict:")[0]  # the table shows the verdict too
    code, out, _ = run_cli(capsys, "compare", "two.json", "one.json", "--allow-missing")
    assert code == 0
    assert "verdict: passed" in out
