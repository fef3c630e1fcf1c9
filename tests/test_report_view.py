"""One report view: every output people read shows the same sections in one order,
the terminal short by default, the HTML page explaining each failure."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from bizhelpers import Suite, doc

from pytest_bizbench.cli import main
from pytest_bizbench.io.escape import columns
from pytest_bizbench.report.reader import read_report
from pytest_bizbench.report.terminal import cut, text_table
from pytest_bizbench.report.view import SECTION_ORDER, report_view

GOLDEN = Path(__file__).resolve().parent.parent / "golden_cases"

# The first words each output writes for each section that the golden suite has,
# in SECTION_ORDER: gate, headline, comparison, thresholds, cases, notes, detail.
MARKERS = {
    "terminal": [
        "bizbench gate: passed",
        "benchmark          model         headline",
        "compared with the baseline:",
        "thresholds:",
        "flaky cases (samples disagree):",
        "completeness:",
        "agent-fs: models side by side:",
    ],
    "markdown": [
        "Gate: **passed ✅**",
        "| benchmark | model | headline |",
        "### Compared with the baseline",
        "### Thresholds",
        "### Flaky cases (samples disagree)",
        "### Completeness",
        "### agent-fs: models side by side",
    ],
    "html": [
        '<span class="badge good">gate passed</span>',
        '<section id="headline">',
        '<section id="comparison">',
        '<section id="thresholds">',
        '<section id="cases">',
        '<section id="notes">',
        '<section id="detail">',
    ],
}


def bizbench_section(stdout: str) -> list[str]:
    """The lines of the terminal section: from its separator to pytest's last line."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip("= ") == "bizbench")
    return lines[start:-1]


@pytest.fixture
def golden(suite: Suite, monkeypatch: pytest.MonkeyPatch) -> Suite:
    shutil.copytree(GOLDEN, suite.path / "golden_cases")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(suite.path / "summary.md"))
    return suite


def in_order(text: str, markers: list[str]) -> list[int]:
    return [text.index(marker) for marker in markers]


def test_golden_terminal_section_is_short_by_default_and_full_with_v(golden: Suite) -> None:
    short = golden.pytester.runpytest("golden_cases", "-p", "no:cacheprovider")
    assert short.ret == 0
    section = bizbench_section(short.stdout.str())
    assert len(section) <= 40, "\n".join(section)
    # what a CI log must show: the separator, a row per benchmark x model, the report
    assert section[0].strip("= ") == "bizbench"
    assert any(line.startswith("qa-answer          extractor-v2  accuracy") for line in section)
    assert section[-1] == f"bizbench report: {golden.path / 'bizbench-report.json'}"
    assert "thresholds: 16 of 16 passed" in section
    assert "compared with the baseline: 13 neutral" in section
    assert not any("per_field_accuracy" in line for line in section)

    full = golden.pytester.runpytest("golden_cases", "-p", "no:cacheprovider", "-v")
    section = bizbench_section(full.stdout.str())
    assert len(section) > 150
    assert "field-accuracy: models side by side:" in section
    assert any(line.startswith("per_field_accuracy.vendor_name") for line in section)
    models = "(a = extractor-v1, b = extractor-v2)"
    title = f"review-assessment extractor-v2-vs-extractor-v1: by requirements {models}:"
    assert title in section
    # one table style: aligned columns under a dashed rule, never markdown pipes
    assert not any(line.startswith("|") for line in section)


def test_every_output_shows_the_sections_in_one_order(
    golden: Suite, capsys: pytest.CaptureFixture[str]
) -> None:
    result = golden.pytester.runpytest("golden_cases", "-p", "no:cacheprovider", "-v")
    report_path = golden.path / "bizbench-report.json"
    report = read_report(report_path)
    sections = report_view(report).sections
    assert tuple(s.key for s in sections) == SECTION_ORDER
    outputs = {
        "terminal": "\n".join(bizbench_section(result.stdout.str())),
        "step summary": (golden.path / "summary.md").read_text(encoding="utf-8"),
    }
    for form in ("markdown", "html"):
        capsys.readouterr()
        assert main(["report", str(report_path), "--format", form]) == 0
        outputs[form] = capsys.readouterr().out
    assert outputs["markdown"] == outputs["step summary"]  # one renderer, one view
    page = outputs["html"]
    # every golden comparison is neutral: a sentence, not thirteen empty histograms; a
    # per-field chart for each benchmark that scores fields (field-accuracy, invoice-totals)
    assert 'aria-label="paired per-case deltas"' not in page
    assert "all 48 paired cases unchanged" in page
    assert page.count('aria-label="per-field accuracy"') == 2
    assert "max-width" not in page  # the page uses the width of the window
    for name, text in outputs.items():
        positions = in_order(text, MARKERS["markdown" if name == "step summary" else name])
        assert positions == sorted(positions), name


def test_markdown_report_holds_the_agent_and_review_model_pair_tables(
    golden: Suite, capsys: pytest.CaptureFixture[str]
) -> None:
    golden.pytester.runpytest("golden_cases", "-p", "no:cacheprovider")
    capsys.readouterr()
    assert main(["report", str(golden.path / "bizbench-report.json")]) == 0
    out = capsys.readouterr().out
    pair = "extractor-v2-vs-extractor-v1"
    models = "(a = extractor-v1, b = extractor-v2)"
    # each object of rows the pair holds is a table, its columns by name
    assert f"### agent-fs {pair}: by groups {models}" in out
    header = "| groups | a | b | delta_pp | n | pass_rate_a | pass_rate_b | pass_rate_delta_pp |"
    assert header in out
    assert f"### agent-fs {pair}: by runs {models}" in out
    assert f"### review-assessment {pair}: by requirements {models}" in out
    # rows with a delta come worst first: COM-08 fell from 1.0 to 0.375 (v1 said
    # not_applicable as expected, v2 no)
    requirements = out.split(f"by requirements {models}", 1)[1].split("###", 1)[0]
    rows = [line for line in requirements.splitlines() if line.startswith("| ")][1:]
    expected = "not_applicable"
    assert (
        rows[0]
        == f"| harbor-msa/COM-08 | {expected} | 1.0000 | no | 0.3750 | -0.6250 | {expected} |"
    )


def test_html_explains_each_failed_document_field_by_field(
    suite: Suite, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = [
        doc("good", {"total": 10, "name": "<i>beta</i>"}, min_score=1.0),
        doc("bad", {"total": 10, "name": "<i>beta</i>"}, min_score=1.0),
    ]
    suite.cases("cases/a.ground-truth.jsonl", cases)
    predictions = {"good": {"total": 10, "name": "<i>beta</i>"}, "bad": {"total": 99}}
    suite.write("preds.json", json.dumps(predictions))
    result = suite.pytester.runpytest("--bizbench-predictions", "preds.json")
    assert result.ret == 1
    capsys.readouterr()
    assert main(["report", str(suite.path / "bizbench-report.json"), "--format", "html"]) == 0
    page = capsys.readouterr().out
    assert "<h3>field-accuracy (default): failed documents</h3>" in page
    table = page.split("<h3>field-accuracy (default): failed documents</h3>", 1)[1]
    table = table.split("</table>", 1)[0]
    # bad scored 0 of 2 fields: the document's row, then one row per failing field
    # (expected, actual, the rung and its score), values escaped, never run as tags
    assert "<td>bad</td><td>failed</td><td>scored 0.00: below the pass mark</td>" in table
    assert (
        "<td>name</td><td>expected &#x27;&lt;i&gt;beta&lt;/i&gt;&#x27;, got None  "
        "(missing 0.00, missing)</td>" in table
    )
    assert "<td>total</td><td>expected 10, got 99  (number 0.00, out-of-tolerance)</td>" in table
    assert "<td>good</td>" not in table
    assert "<i>beta" not in page


def test_terminal_columns_count_wide_characters_twice_and_marks_not_at_all() -> None:
    assert columns("東京都") == 6  # three wide characters
    assert columns("e\u0301te") == 3  # the accent combines with the e
    lines = text_table((["name", "n"], [["東京都", "1"], ["ab", "2"], ["e\u0301t\u00e9", "3"]]))
    # the second column starts at the same terminal column on every row
    assert lines == ["name    n", "------  -", "東京都  1", "ab      2", "e\u0301t\u00e9     3"]
    assert cut("東京都の会社", 7) == "東京都…"  # 6 columns and the ellipsis
    narrow = text_table((["name", "n"], [["東京都の会社です株式会社", "1"]]), 14)
    assert narrow[2] == "東京都の会…  1"
    assert all(columns(line) <= 14 for line in narrow)
