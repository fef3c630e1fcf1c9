"""Markdown of the run for CI step summaries (`$GITHUB_STEP_SUMMARY`)."""

from __future__ import annotations

import os
from pathlib import Path

from pytest_bizbench.escape import markdown_text
from pytest_bizbench.registry import Registry
from pytest_bizbench.report.json_report import RunResult
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
from pytest_bizbench.safeio import append_regular

STEP_SUMMARY_ENV = "GITHUB_STEP_SUMMARY"


def markdown_table(table: Table) -> list[str]:
    header, rows = table
    return [
        "| " + " | ".join(markdown_text(c) for c in header) + " |",
        "|" + "|".join("---" for _ in header) + "|",
        *("| " + " | ".join(markdown_text(c) for c in row) + " |" for row in rows),
    ]


def render_markdown(result: RunResult, registry: Registry) -> str:
    verdict = "passed ✅" if result.passed else "FAILED ❌"
    lines = ["## bizbench", "", f"Gate: **{verdict}**", ""]
    # the verdict and its reasons first, before every table (what a reviewer needs)
    lines += [f"- {markdown_text(reason.strip())}" for reason in result.reasons]
    lines += [""] if result.reasons else []
    lines += markdown_table(summary_table(result, registry))
    side = side_by_side_table(result, registry)
    if side is not None:
        lines += ["", "### Models side by side", "", *markdown_table(side)]
    for title, table in paired_sections(result, registry):
        lines += ["", f"### {markdown_text(title)}", "", *markdown_table(table)]
    compared = comparison_table(result.comparisons, registry)
    if compared is not None:
        lines += ["", "### Compared with the baseline", "", *markdown_table(compared)]
        lines += [f"- {markdown_text(note)}" for note in comparison_notes(result.comparisons)]
    worst = worst_table(result.comparisons)
    if worst is not None:
        lines += ["", "### Worst-regressed cases", "", *markdown_table(worst)]
    flaky = flaky_table(result)
    if flaky is not None:
        lines += ["", "### Flaky cases (samples disagree)", "", *markdown_table(flaky)]
    if result.thresholds:
        lines += ["", "### Thresholds", "", *markdown_table(threshold_table(result))]
    if result.completeness.notes:
        lines += ["", "### Notes", ""]
        lines += [f"- {markdown_text(note)}" for note in result.completeness.notes]
    return "\n".join(lines) + "\n"


def append_step_summary(result: RunResult, registry: Registry) -> None:
    """Append to the step summary file when CI names one; silent otherwise."""
    target = os.environ.get(STEP_SUMMARY_ENV)
    if not target:
        return
    append_regular(Path(target), render_markdown(result, registry))
