"""The `bizbench` section of pytest's terminal summary: the report view, short by
default, every table with `-v`."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from pytest_bizbench.io.escape import terminal_text
from pytest_bizbench.report.model import Block, Detail, report_view
from pytest_bizbench.report.tables import Table
from pytest_bizbench.run.registry import Registry


def text_table(table: Table) -> list[str]:
    """Aligned columns under a dashed rule: the one table style of the terminal."""
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


def block_lines(block: Block) -> list[str]:
    """A block as terminal lines, after a blank line unless it is one line long."""
    title = terminal_text(block.title)
    lines = [terminal_text(line) for line in block.lines]
    if not block.header:
        if title and len(lines) == 1:
            return [f"{title}: {lines[0]}"]
        return ["", f"{title}:", *(f"  {line}" for line in lines)] if title else lines
    table = text_table((list(block.header), [list(r) for r in block.rows]))
    return ["", *([f"{title}:"] if title else []), *table, *lines]


def write_summary(
    reporter: pytest.TerminalReporter,
    report: Mapping[str, Any],
    registry: Registry,
    report_path: Path | None,
    report_error: str | None,
) -> None:
    reporter.write_sep("=", "bizbench")
    detail = Detail.FULL if reporter.verbosity > 0 else Detail.SHORT
    view = report_view(report, registry, detail)
    for section, blocks in view.at(detail):
        if section.key != "gate":
            for line in (line for block in blocks for line in block_lines(block)):
                reporter.write_line(line)
        elif view.passed:
            reporter.write_line("bizbench gate: passed", green=True)
        else:
            reporter.write_line("bizbench gate: FAILED", red=True, bold=True)
            for reason in (reason for block in blocks for reason in block.lines):
                reporter.write_line(f"  {terminal_text(reason)}", red=True)
    if report_error:
        reporter.write_line(f"bizbench: {terminal_text(report_error)}", red=True, bold=True)
    elif report_path is not None:
        reporter.write_line(f"bizbench report: {terminal_text(report_path)}")
