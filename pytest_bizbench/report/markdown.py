"""Markdown of the report view, for CI step summaries (`$GITHUB_STEP_SUMMARY`) and
`bizbench report --format markdown`."""

from __future__ import annotations

import os
from pathlib import Path

from pytest_bizbench.io.escape import markdown_text
from pytest_bizbench.io.files import append_regular
from pytest_bizbench.report.model import Report
from pytest_bizbench.report.tables import Table
from pytest_bizbench.report.view import Block, Detail, report_view

STEP_SUMMARY_ENV = "GITHUB_STEP_SUMMARY"


def markdown_table(table: Table) -> list[str]:
    header, rows = table
    return [
        "| " + " | ".join(markdown_text(c) for c in header) + " |",
        "|" + "|".join("---" for _ in header) + "|",
        *("| " + " | ".join(markdown_text(c) for c in row) + " |" for row in rows),
    ]


def _block(block: Block, capital: bool) -> list[str]:
    """A heading, a table, a list; `capital` for headings that open with a word, not
    a benchmark name."""
    title = block.title[:1].upper() + block.title[1:] if capital else block.title
    lines = ["", f"### {markdown_text(title)}", ""] if title else [""]
    if block.header:
        lines += markdown_table((list(block.header), [list(r) for r in block.rows]))
    return lines + [f"- {markdown_text(line)}" for line in block.lines]


def render_markdown(report: Report) -> str:
    view = report_view(report, Detail.FULL)
    lines = ["## bizbench"]
    for section, blocks in view.at(Detail.FULL):
        if section.key == "gate":
            verdict = "passed ✅" if view.passed else "FAILED ❌"
            lines += ["", f"Gate: **{verdict}**"]
            lines += [""] if blocks else []
            lines += [f"- {markdown_text(r)}" for block in blocks for r in block.lines]
            continue
        lines += [line for block in blocks for line in _block(block, section.key != "detail")]
    return "\n".join(lines) + "\n"


def append_step_summary(report: Report) -> None:
    """Append to the step summary file when CI names one; silent otherwise."""
    target = os.environ.get(STEP_SUMMARY_ENV)
    if not target:
        return
    append_regular(Path(target), render_markdown(report))
