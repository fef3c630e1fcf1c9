"""The report as people read it: one ordered list of sections that every view renders.

The terminal, the step summary, `bizbench report --format markdown` and `--format
html` all render `report_view(report)` section by section, in the order
given here; none picks its own order or reads the raw report, so a section added
here shows everywhere. Each block says how much detail a view must show to hold
it: the terminal is short by default, `-v` and markdown add the long tables, the
HTML page adds charts, failure explanations and every document.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Literal

from pytest_bizbench.maths.figures import is_number
from pytest_bizbench.report.model import Report
from pytest_bizbench.report.tables import (
    PAIR_ROWS,
    Table,
    comparison_notes,
    comparison_table,
    flaky_table,
    fmt,
    honest_line,
    metrics_table,
    pair_tables,
    pairs_table,
    summary_table,
    threshold_cases_table,
    threshold_table,
    worst_table,
)
from pytest_bizbench.run.failure import failed_checks, failing_fields, unscored_fields

# rows a table keeps in the short terminal section before "… N more (-v)"
SHORT_ROWS = 8


class Detail(IntEnum):
    """How much a view shows."""

    SHORT = 0  # the terminal section by default
    FULL = 1  # the terminal with -v, the step summary, `bizbench report --format markdown`
    PAGE = 2  # the HTML page


@dataclass(frozen=True, slots=True)
class Chart:
    """Data for an HTML chart: per-field bars per model, a paired-delta histogram, or
    each trajectory's cumulative best (`[(id, values)]`)."""

    kind: Literal["field_bars", "histogram", "cumulative_best"]
    data: Any


@dataclass(frozen=True, slots=True)
class Block:
    """A table, lines or a chart under a title, shown in views from `low` to `high` detail.

    Text is raw: each view escapes it for its medium.
    """

    title: str = ""
    header: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    lines: tuple[str, ...] = ()
    low: Detail = Detail.SHORT
    high: Detail = Detail.PAGE
    chart: Chart | None = None
    folded: bool = False  # long lists a page shows collapsed

    def shown(self, detail: Detail) -> bool:
        return self.low <= detail <= self.high


@dataclass(frozen=True, slots=True)
class Section:
    key: str
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True, slots=True)
class ReportView:
    passed: bool
    sections: tuple[Section, ...]

    def at(self, detail: Detail) -> list[tuple[Section, list[Block]]]:
        """The sections a view of this detail shows, each with its shown blocks."""
        shown = [(s, [b for b in s.blocks if b.shown(detail)]) for s in self.sections]
        return [(s, blocks) for s, blocks in shown if blocks or s.key == "gate"]


# The one order of every view.
SECTION_ORDER = ("gate", "headline", "comparison", "thresholds", "cases", "notes", "detail")


def _table(title: str, table: Table, low: Detail = Detail.SHORT, **kw: Any) -> Block:
    header, rows = table
    return Block(title, tuple(header), tuple(tuple(r) for r in rows), low=low, **kw)


def _trimmed(title: str, table: Table | None, low: Detail = Detail.SHORT) -> list[Block]:
    """The whole table from `-v` on; the short view keeps its first rows and says how
    many it left out."""
    if table is None:
        return []
    header, rows = table
    if len(rows) <= SHORT_ROWS or low > Detail.SHORT:
        return [_table(title, table, low)]
    more = f"… {len(rows) - SHORT_ROWS} more (-v shows all)"
    return [
        _table(title, (header, rows[:SHORT_ROWS]), high=Detail.SHORT, lines=(more,)),
        _table(title, table, Detail.FULL),
    ]


def _gate(report: Report) -> Section:
    reasons = tuple(r.strip() for r in report.gate.reasons)
    return Section(
        "gate", "gate", (Block("why the gate failed", lines=reasons),) if reasons else ()
    )


def _verdict_counts(comparisons: Mapping[tuple[str, str], Mapping[str, Any]]) -> str:
    counts: dict[str, int] = {}
    for c in comparisons.values():
        verdict = str(c.get("verdict", "—"))
        counts[verdict] = counts.get(verdict, 0) + 1
    return ", ".join(f"{n} {verdict}" for verdict, n in sorted(counts.items()))


def _comparison(report: Report) -> Section:
    comparisons = report.comparisons()
    headlines = {name: e.headline for name, e in report.benchmarks.items()}
    blocks: list[Block] = []
    table = comparison_table(comparisons, headlines)
    if table is not None:
        title = "compared with the baseline"
        counts = (_verdict_counts(comparisons),)
        header, rows = table
        verdicts = [c.get("verdict") for _, c in sorted(comparisons.items())]
        moved = [row for row, v in zip(rows, verdicts, strict=True) if v != "neutral"]
        if moved:  # the short view lists only what a reader must act on
            blocks.append(_table(title, (header, moved), high=Detail.SHORT, lines=counts))
        else:
            blocks.append(Block(title, lines=counts, high=Detail.SHORT))
        blocks.append(_table(title, table, Detail.FULL))
        notes = tuple(comparison_notes(comparisons))
        if notes:
            blocks.append(Block(lines=notes))
        for (name, model), c in sorted(comparisons.items()):
            paired = c.get("paired") or {}
            bins = paired.get("histogram") or ()
            changed = any(
                int(b.get("count") or 0) for b in bins if tuple(b.get("range") or ()) != (0.0, 0.0)
            )
            flipped = [f for f in c.get("flipped") or () if isinstance(f, Mapping)]
            if flipped:
                rows = [
                    [
                        str(f.get("id")),
                        str(f.get("case")),
                        fmt(f.get("baseline")),
                        fmt(f.get("candidate")),
                    ]
                    for f in flipped
                ]
                blocks.append(
                    _table(
                        f"{name} ({model}): cases that flipped (passed, now failed)",
                        (["id", "file", "baseline", "candidate"], rows),
                        Detail.FULL,
                    )
                )
            lines = [honest_line(c)]
            if bins and not changed:
                lines.append(f"all {paired.get('n', 0)} paired cases unchanged")
            chart = Chart("histogram", bins) if changed else None
            blocks.append(
                Block(
                    f"{name} ({model}) against the baseline",
                    lines=tuple(lines),
                    low=Detail.PAGE,
                    chart=chart,
                )
            )
    blocks += _trimmed("models compared (B − A)", pairs_table(report))
    return Section("comparison", "comparison", tuple(blocks))


def _thresholds(report: Report) -> Section:
    thresholds = report.thresholds
    if not thresholds:
        return Section("thresholds", "thresholds", ())
    header, rows = threshold_table(thresholds)
    failed = [row for row, t in zip(rows, thresholds, strict=True) if not t.passed]
    passed = len(thresholds) - len(failed)
    blocks = [
        Block("thresholds", lines=(f"{passed} of {len(thresholds)} passed",), high=Detail.SHORT)
    ]
    if failed:
        blocks.append(_table("thresholds failed", (header, failed), high=Detail.SHORT))
    blocks.append(_table("thresholds", (header, rows), Detail.FULL))
    for t in thresholds:
        cases = None if t.passed else threshold_cases_table(t)
        if cases is not None:
            title = (
                f"{t.threshold.benchmark}:{t.threshold.metric} ({t.model}) failed: "
                "the cases that pull it down most"
            )
            blocks.append(_table(title, cases, Detail.FULL))
    return Section("thresholds", "thresholds", tuple(blocks))


def _cases(report: Report) -> Section:
    blocks = [
        *_trimmed("worst-regressed cases", worst_table(report.comparisons())),
        *_trimmed("flaky cases (samples disagree)", flaky_table(report)),
    ]
    return Section("cases", "flaky and worst cases", tuple(blocks))


def _notes(report: Report) -> Section:
    c = report.completeness
    counts = (
        f"{c.collected} items collected, {c.scored} scored, "
        f"{len(c.errors)} errors, {len(c.missing)} missing predictions"
    )
    started = report.run.started_at or "—"
    meta = f"{report.tool_name} {report.tool_version}, started {started}"
    blocks = [Block("completeness", lines=(counts, meta), low=Detail.FULL)]
    notes = c.notes
    if notes:
        blocks.append(Block("notes", lines=notes))
    return Section("notes", "notes and completeness", tuple(blocks))


def _message(document: Mapping[str, Any], details: Mapping[str, Any]) -> str:
    """The report keeps the message of an error or a missing prediction; a score
    below the pass mark says why as the failed item's headline does."""
    if document.get("message"):
        return str(document["message"])
    unscored = unscored_fields(details)
    why = f"fields not scored: {', '.join(unscored)}" if unscored else "below the pass mark"
    score = document.get("score")
    return f"scored {score:.2f}: {why}" if isinstance(score, (int, float)) else why


def _failures(documents: Sequence[Mapping[str, Any]]) -> Table | None:
    """Each failed document's message, then per failing field expected, actual, rung."""
    rows: list[list[str]] = []
    for d in documents:
        if d.get("outcome") not in ("failed", "error"):
            continue
        details = d.get("details")
        details = details if isinstance(details, Mapping) else {}
        # fields by name: a run's details keep the benchmark's order, a saved report's are sorted
        fields = sorted(failing_fields(details))
        explained = [*fields, *(("", line) for line in failed_checks(details))]
        first = [str(d.get("id")), str(d.get("outcome")), _message(d, details)]
        for i, (field, diff) in enumerate(explained or [("", "")]):
            rows.append([*(first if i == 0 else ["", "", ""]), field, diff])
    header = ["id", "outcome", "message", "field", "expected, actual (rung score)"]
    return (header, rows) if rows else None


def _worst_failed(documents: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The failed and errored documents with the lowest scores (errors first), at most
    `SHORT_ROWS`, in id order within a score: one pass, never a row per document."""
    failed = (d for d in documents if d.get("outcome") in ("failed", "error"))
    return heapq.nsmallest(SHORT_ROWS, failed, key=_lowest_first)


def _lowest_first(document: Mapping[str, Any]) -> tuple[float, str, str]:
    """Lowest score first (an error, with none, before all), then id, then file: one
    order whichever order the documents come in (a run's, a saved report's)."""
    score = document.get("score")
    return (
        float(score) if is_number(score) else -1.0,
        str(document.get("id")),
        str(document.get("case")),
    )


def _cumulative_best(documents: Sequence[Mapping[str, Any]]) -> list[tuple[str, list[float]]]:
    """(id, cumulative best per iteration) of each document that has them."""
    curves = []
    for d in documents:
        details = d.get("details")
        values = details.get("cumulative_best") if isinstance(details, Mapping) else None
        if isinstance(values, list) and values and all(is_number(v) for v in values):
            curves.append((str(d.get("id")), [float(v) for v in values]))
    return curves


def _documents(documents: Sequence[Mapping[str, Any]]) -> Table:
    rows = [
        [
            str(d.get("id")),
            str(d.get("case")),
            fmt(d.get("score")),
            str(d.get("outcome")),
            str(d.get("message") or ""),
        ]
        for d in documents
    ]
    return ["id", "case", "score", "outcome", "message"], rows


def _detail(report: Report, detail: Detail) -> Section:
    hint = "-v shows the per-benchmark tables: metrics per model, per field, model pairs"
    blocks = [Block(lines=(hint,), high=Detail.SHORT)]
    for name, entry in sorted(report.benchmarks.items()):
        models = dict(sorted(entry.models.items()))
        if not models:
            continue
        about = (f"version {entry.version}", entry.description)
        blocks.append(Block(name, lines=about, low=Detail.PAGE))
        title = f"{name}: models side by side" if len(models) > 1 else f"{name}: metrics"
        blocks.append(_table(title, metrics_table(entry), Detail.FULL))
        per_field = {m: data.metrics.get("per_field_accuracy") or {} for m, data in models.items()}
        if any(per_field.values()):
            chart = Chart("field_bars", per_field)
            blocks.append(Block(f"{name}: per-field accuracy", low=Detail.PAGE, chart=chart))
        kept = None if detail == Detail.PAGE else PAIR_ROWS
        blocks += [_table(t, table, Detail.FULL) for t, table in pair_tables(name, entry, kept)]
        for model, data in models.items():
            if detail == Detail.FULL:  # -v and markdown: the worst failures explained
                worst = _failures(_worst_failed(data.documents))
                if worst is not None:
                    title = f"{name} ({model}): worst failed documents"
                    blocks.append(_table(title, worst, Detail.FULL, high=Detail.FULL))
            if detail < Detail.PAGE:  # a row per document: built only for the page
                continue
            curves = _cumulative_best(data.documents)
            if curves:
                title = f"{name} ({model}): cumulative best per trajectory"
                chart = Chart("cumulative_best", curves)
                blocks.append(Block(title, low=Detail.PAGE, chart=chart))
            failures = _failures(data.documents)
            if failures is not None:
                title = f"{name} ({model}): failed documents"
                blocks.append(_table(title, failures, Detail.PAGE))
            documents = _documents(data.documents)
            title = f"{name} ({model}): {len(documents[1])} documents"
            blocks.append(_table(title, documents, Detail.PAGE, folded=True))
    return Section("detail", "per-benchmark detail", tuple(blocks))


def report_view(report: Report, detail: Detail = Detail.PAGE) -> ReportView:
    """The sections of `report`, in `SECTION_ORDER`.

    The tables of every document are built only up to `detail`, the most a view
    will show: the terminal of a 100k-document run never holds a row per document.
    """
    sections = (
        _gate(report),
        Section("headline", "headline", (_table("", summary_table(report)),)),
        _comparison(report),
        _thresholds(report),
        _cases(report),
        _notes(report),
        _detail(report, detail),
    )
    assert tuple(s.key for s in sections) == SECTION_ORDER
    return ReportView(passed=report.gate.passed, sections=sections)
