"""Failures of case items, and how they read in pytest's output."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_bizbench.details import FieldEntry, flat_entries
from pytest_bizbench.io.escape import terminal_block, terminal_text
from pytest_bizbench.maths.figures import is_number
from pytest_bizbench.run.payload import DocumentPayload

MAX_VALUE = 60


class CaseFailure(Exception):
    """Raised by a case item; `render()` is what pytest shows instead of a traceback."""

    def render(self) -> str:
        return terminal_block(self.describe())

    def describe(self) -> str:
        return str(self)


class CaseLoadError(CaseFailure):
    """A case file or case that could not be loaded, or that nothing can score."""


class BenchmarkCrash(CaseFailure):
    """The prediction could not be read or the benchmark failed on this case."""


class MissingPrediction(CaseFailure):
    """The system gave no output for this case: a failure, never a skip."""


class ScoreBelowPassMark(CaseFailure):
    def __init__(self, payload: DocumentPayload, pass_mark: float, mark_source: str) -> None:
        self.payload = payload
        self.pass_mark = pass_mark
        self.mark_source = mark_source
        super().__init__(self.headline())

    def headline(self) -> str:
        p = self.payload
        score = p.score or 0.0
        unscored = unscored_fields(p.details)
        if score >= self.pass_mark and unscored:
            why = f"fields not scored: {', '.join(unscored)}"
        else:
            why = f"below the pass mark {self.pass_mark:.2f} ({self.mark_source})"
        return f"{p.id} scored {score:.2f} on {p.benchmark} (model {p.model}): {why}"

    def render(self) -> str:
        # each line is one line: a newline inside an id, a field or a model name is
        # shown as `\x0a`, so data cannot add a line that reads like pytest's own
        return "\n".join(terminal_text(line) for line in self._lines())

    def describe(self) -> str:
        return "\n".join(self._lines())

    def _lines(self) -> list[str]:
        rows = failing_fields(self.payload.details)
        lines = [self.headline()]
        if rows:
            width = max(len(name) for name, _ in rows)
            lines += [f"  {name:<{width}}  {diff}" for name, diff in rows]
        return lines + _check_lines(self.payload.details)


def failing_fields(details: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(field, "expected …, got …  (rung score)") of every field scored below 1: what a
    failed item shows under its headline, and the HTML report beside its message."""
    return [
        (name, _describe(entry))
        for name, entry in flat_entries(details)
        if is_number(entry.get("score")) and float(entry["score"]) < 1.0
    ]


def failed_checks(details: Mapping[str, Any]) -> list[str]:
    """An agent task's run count and failed assertions, one line each, unindented."""
    return [line.strip() for line in _check_lines(details)]


def _check_lines(details: Mapping[str, Any]) -> list[str]:
    """An agent task's failed assertions (`details.assertions`, in task order), after
    how many of its runs passed when there were several; a benchmark's own word on
    why (`details.reason`, a trajectory's)."""
    lines = [f"  {details['reason']}"] if isinstance(details.get("reason"), str) else []
    runs = details.get("runs")
    if isinstance(runs, Mapping) and isinstance(runs.get("n"), int) and runs["n"] > 1:
        lines.append(
            f"  {runs.get('passed')} of {runs['n']} runs passed every assertion; "
            f"shown: {details.get('run')}"
        )
    checks = details.get("assertions")
    for check in checks if isinstance(checks, list) else ():
        if isinstance(check, Mapping) and check.get("passed") is False:
            lines.append(f"  {check.get('kind')} {check.get('path')}: {check.get('reason')}")
    return lines


def unscored_fields(details: Mapping[str, Any]) -> list[str]:
    """Fields no rung could score (a model hook failed): the item cannot pass."""
    if not _has_unscored(details):  # every scored item asks; almost none has one
        return []
    return [name for name, entry in flat_entries(details) if entry.get("unscored")]


def _has_unscored(details: Mapping[str, Any]) -> bool:
    """Whether any entry, at any depth of nested fields, is flagged `unscored`; it
    descends where `flat_entries` does, so details that loop elsewhere cannot recurse."""
    for entry in details.values():
        if (type(entry) is dict or isinstance(entry, Mapping)) and (  # a dict: no ABC check
            entry.get("unscored")
            or (
                entry.get("rung") == "nested"
                and isinstance(inner := entry.get("fields"), Mapping)
                and _has_unscored(inner)
            )
        ):
            return True
    return False


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= MAX_VALUE else text[: MAX_VALUE - 1] + "…"


def _describe(entry: FieldEntry) -> str:
    """One field's line: expected, actual, the rung that decided it, the similarity."""
    score = float(entry["score"])
    rung = entry.get("rung", "?")
    if rung == "set":
        parts = [f"set F1 {score:.2f}"]
        for key in ("missed", "hallucinated"):
            items = entry.get(key) or []
            if items:
                parts.append(f"{key} {_short(items)}")
        return "; ".join(parts)
    text = f"expected {_short(entry.get('expected'))}, got {_short(entry.get('actual'))}"
    how = f"{rung} {score:.2f}"
    if is_number(entry.get("similarity")):
        how += f", similarity {float(entry['similarity']):.2f}"
    if entry.get("reason"):
        how += f", {entry['reason']}"
    return f"{text}  ({how})"
