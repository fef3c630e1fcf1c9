"""The `bizbench` section of pytest's terminal summary."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_bizbench.escape import terminal_text
from pytest_bizbench.registry import Registry
from pytest_bizbench.report.json_report import RunResult
from pytest_bizbench.report.markdown import markdown_table
from pytest_bizbench.report.tables import (
    Table,
    comparison_notes,
    comparison_table,
    flaky_table,
    paired_sections,
    side_by_side_table,
    summary_table,
    threshold_table,
    worst_table,
)


def text_table(table: Table) -> list[str]:
    header, rows = (
        [terminal_text(c) for c in table[0]],
        [[terminal_text(c) for c in row] for row in table[1]],
    )
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    line = "  ".join("-" * w for w in widths)
    render = [
        "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
        for r in [header, *rows]
    ]
    return [render[0], line, *render[1:]]


def write_summary(
    reporter: pytest.TerminalReporter,
    result: RunResult,
    registry: Registry,
    report_path: Path | None,
    report_error: str | None,
) -> None:
    reporter.write_sep("=", "bizbench")
    for line in text_table(summary_table(result, registry)):
        reporter.write_line(line)
    side = side_by_side_table(result, registry)
    if side is not None:
        reporter.write_line("")
        reporter.write_line("models side by side:")
        for line in text_table(side):
            reporter.write_line(line)
    for title, table in paired_sections(result, registry):
        reporter.write_line("")
        reporter.write_line(f"{terminal_text(title)}:")
        for line in markdown_table(table):  # markdown, as in the step summary (SPEC §5.5)
            reporter.write_line(line)
    compared = comparison_table(result.comparisons, registry)
    if compared is not None:
        reporter.write_line("")
        reporter.write_line("compared with the baseline:")
        notes = [terminal_text(note) for note in comparison_notes(result.comparisons)]
        for line in [*text_table(compared), *notes]:
            reporter.write_line(line)
    worst = worst_table(result.comparisons)
    if worst is not None:
        reporter.write_line("")
        reporter.write_line("worst-regressed cases:")
        for line in text_table(worst):
            reporter.write_line(line)
    flaky = flaky_table(result)
    if flaky is not None:
        reporter.write_line("")
        reporter.write_line("flaky cases (samples disagree):")
        for line in text_table(flaky):
            reporter.write_line(line)
    if result.thresholds:
        reporter.write_line("")
        for line in text_table(threshold_table(result)):
            reporter.write_line(line)
    reporter.write_line("")
    if result.passed:
        reporter.write_line("bizbench gate: passed", green=True)
    else:
        reporter.write_line("bizbench gate: FAILED", red=True, bold=True)
        for reason in result.reasons:
            reporter.write_line(f"  {terminal_text(reason)}", red=True)
    for note in result.completeness.notes:
        reporter.write_line(f"bizbench note: {terminal_text(note)}", yellow=True)
    if report_error:
        reporter.write_line(f"bizbench: {terminal_text(report_error)}", red=True, bold=True)
    elif report_path is not None:
        reporter.write_line(f"bizbench report: {terminal_text(report_path)}")
