"""The `bizbench` section of pytest's terminal summary: the report view, short by
default, every table with `-v`."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_bizbench.io.escape import columns, terminal_text
from pytest_bizbench.maths.figures import plural
from pytest_bizbench.report.model import Report
from pytest_bizbench.report.tables import Table
from pytest_bizbench.report.view import Block, Detail, ReportView, report_view

ELLIPSIS = "…"
NOTHING = "—"  # a table cell's word for no value
#: the narrowest a column is cut to, so a cut cell still says something
NARROWEST = 8


def cut(text: str, width: int) -> str:
    """`text` in at most `width` terminal columns: its end replaced by `…` when longer."""
    if columns(text) <= width:
        return text
    kept, used = [], 0
    for ch in text:
        used += columns(ch)
        if used > width - 1:
            break
        kept.append(ch)
    return "".join(kept) + ELLIPSIS


def text_table(table: Table, width: int | None = None) -> list[str]:
    """Aligned columns under a dashed rule: the one table style of the terminal.

    With `width`, a column empty or `—` in every row is left out, and the widest
    columns are narrowed until a row fits (not below
    `NARROWEST`), their long cells cut with `…`; -v, markdown and HTML show them whole.
    """
    header, rows = (
        [terminal_text(c) for c in table[0]],
        [[terminal_text(c) for c in row] for row in table[1]],
    )
    if width is not None and rows:  # a column with nothing to say: -v shows it
        kept = [i for i in range(len(header)) if any(r[i] not in ("", NOTHING) for r in rows)]
        header, rows = [header[i] for i in kept], [[r[i] for i in kept] for r in rows]
    widths = [max(columns(r[i]) for r in [header, *rows]) for i in range(len(header))]
    if width is not None:
        _narrow(widths, width)
        header, rows = (
            [cut(c, w) for c, w in zip(header, widths, strict=True)],
            [[cut(c, w) for c, w in zip(row, widths, strict=True)] for row in rows],
        )
    line = "  ".join("-" * w for w in widths)
    render = [
        "  ".join(c + " " * (w - columns(c)) for c, w in zip(r, widths, strict=True)).rstrip()
        for r in [header, *rows]
    ]
    return [render[0], line, *render[1:]]


def _narrow(widths: list[int], width: int) -> None:
    """Narrow the widest column, a character at a time, until a row fits in `width`
    or no column is wider than `NARROWEST`."""
    over = sum(widths) + 2 * (len(widths) - 1) - width
    while over > 0:
        widest = max(range(len(widths)), key=widths.__getitem__)
        if widths[widest] <= NARROWEST:
            return
        widths[widest] -= 1
        over -= 1


def block_lines(block: Block, width: int | None = None) -> list[str]:
    """A block as terminal lines, after a blank line unless it is one line long; with
    `width`, no line is longer (see `text_table`)."""
    title = terminal_text(block.title)
    lines = [terminal_text(line) for line in block.lines]
    if not block.header:
        if title and len(lines) == 1:
            shown = [f"{title}: {lines[0]}"]
        else:
            shown = ["", f"{title}:", *(f"  {line}" for line in lines)] if title else lines
    else:
        table = text_table((list(block.header), [list(r) for r in block.rows]), width)
        shown = ["", *([f"{title}:"] if title else []), *table, *lines]
    return shown if width is None else [cut(line, width) for line in shown]


def counts_line(report: Report) -> str:
    """The run's counts in a few words: items, scored, errors, missing predictions."""
    c = report.completeness
    return (
        f"{plural(c.collected, 'item')}, {c.scored} scored, "
        f"{plural(len(c.errors), 'error')}, {len(c.missing)} missing"
    )


def write_summary(
    reporter: pytest.TerminalReporter,
    report: Report,
    report_path: Path | None,
    report_error: str | None,
    *,
    reasons_above: bool = False,
) -> None:
    """The section: with -q one line (the verdict and the counts) and the report's
    path; by default every line cut to the terminal's width (but the path, whole to
    be copied); with -v every table whole.

    The gate's reasons are printed once: here, unless `reasons_above` (the failed
    gate's entry among pytest's failures already listed them).
    """
    reporter.write_sep("=", "bizbench")
    width = None if reporter.verbosity > 0 else reporter.config.get_terminal_writer().fullwidth
    view = report_view(report, Detail.FULL if reporter.verbosity > 0 else Detail.SHORT)
    verdict = ("bizbench gate: passed", {"green": True})
    if not view.passed:
        verdict = ("bizbench gate: FAILED", {"red": True, "bold": True})
    if reporter.verbosity < 0:
        text, markup = verdict
        reporter.write_line(cut(f"{text} ({counts_line(report)})", width or len(text)), **markup)
    else:
        # a reason's indented lines (each error, each missing prediction) detail it
        counted = sum(1 for reason in report.gate.reasons if not reason[:1].isspace())
        _write_sections(reporter, view, verdict, width, counted if reasons_above else 0)
    if report_error:
        error = f"bizbench: {terminal_text(report_error)}"
        reporter.write_line(error if width is None else cut(error, width), red=True, bold=True)
    elif report_path is not None:
        reporter.write_line(f"bizbench report: {terminal_text(report_path)}")


def _write_sections(
    reporter: pytest.TerminalReporter,
    view: ReportView,
    verdict: tuple[str, dict[str, bool]],
    width: int | None,
    reasons_above: int,
) -> None:
    """`reasons_above`: how many reasons pytest's failures already listed (0: none)."""
    detail = Detail.FULL if width is None else Detail.SHORT
    for section, blocks in view.at(detail):
        if section.key != "gate":
            for line in (line for block in blocks for line in block_lines(block, width)):
                reporter.write_line(line)
            continue
        text, markup = verdict
        reasons = [reason for block in blocks for reason in block.lines]
        if reasons and reasons_above:
            text += f" ({plural(reasons_above, 'reason')} under 'gate' above)"
            reasons = []
        reporter.write_line(text if width is None else cut(text, width), **markup)
        for reason in reasons:
            line = f"  {terminal_text(reason)}"
            reporter.write_line(line if width is None else cut(line, width), red=True)
