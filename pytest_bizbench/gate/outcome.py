"""The gate as one pytest test outcome, `bizbench::gate`, where CI looks.

A run's verdict lives in the session, not in an item, so the controller reports it
as a synthetic test through the ordinary report hooks: the terminal counts it in
the last line and lists it in the short test summary, JUnit XML writes it as a
testcase (`classname="bizbench"`, `name="gate"`) with a `<failure>` holding every
reason. Nothing runs: only the logging hooks are called, on the controller.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
from _pytest._io import TerminalWriter

from pytest_bizbench.io.escape import terminal_text

GATE_NODEID = "bizbench::gate"
_LOCATION = ("bizbench", None, "gate")


@dataclass(frozen=True, slots=True)
class _Crash:
    """What pytest's short summary and JUnit read of a failure: its first line."""

    message: str


@dataclass(frozen=True, slots=True)
class GateFailure:
    """The failed gate's text: the first reason as the crash line, every reason below.

    Shaped like pytest's own failure representations (`reprcrash`, `toterminal`), so
    the short test summary shows `FAILED bizbench::gate - <first reason>`.
    """

    reasons: tuple[str, ...]

    @property
    def reprcrash(self) -> _Crash:
        return _Crash(terminal_text(self.reasons[0]))

    def toterminal(self, out: TerminalWriter) -> None:
        for reason in self.reasons:  # a baseline's names and versions are untrusted
            out.line(terminal_text(reason))

    def __str__(self) -> str:  # JUnit XML's failure text: shown escaped as in the terminal
        return "\n".join(terminal_text(reason) for reason in self.reasons)


#: pytest's plugins that remember test outcomes for the next run (--lf, --ff, --sw):
#: the gate is no test they could select, so it is never theirs to remember
_REMEMBERING = ("lfplugin", "stepwiseplugin")


def report_gate(session: pytest.Session, reasons: Sequence[str]) -> None:
    """Log the gate as a test: setup, call (failed with every reason, or passed), teardown.

    The session's own failure count is left as it was, so `-x` does not say it
    stopped at the gate; the exit status is set by the controller (one failed gate
    turns an exit 0 into 1, as before). The gate is outside pytest's progress (no
    `[120%]`: it was never collected) and outside the cache of --lf and --sw.
    """
    config = session.config
    manager = config.pluginmanager
    remembering = [p for p in map(manager.getplugin, _REMEMBERING) if p is not None]
    logstart, logreport, logfinish = (
        manager.subset_hook_caller(name, remembering)
        for name in (
            "pytest_runtest_logstart",
            "pytest_runtest_logreport",
            "pytest_runtest_logfinish",
        )
    )
    failed = bool(reasons)
    shouldfail, testsfailed = session.shouldfail, session.testsfailed
    with _no_progress(config):
        logstart(nodeid=GATE_NODEID, location=_LOCATION)
        for when, outcome in (
            ("setup", "passed"),
            ("call", "failed" if failed else "passed"),
            ("teardown", "passed"),
        ):
            longrepr = GateFailure(tuple(reasons)) if when == "call" and failed else None
            report = pytest.TestReport(
                nodeid=GATE_NODEID,
                location=_LOCATION,
                keywords={"gate": 1, "bizbench": 1},
                outcome=outcome,  # type: ignore[arg-type]
                longrepr=longrepr,  # type: ignore[arg-type]
                when=when,  # type: ignore[arg-type]
            )
            logreport(report=report)
        logfinish(nodeid=GATE_NODEID, location=_LOCATION)
    session.shouldfail, session.testsfailed = shouldfail, testsfailed


@contextmanager
def _no_progress(config: pytest.Config) -> Iterator[None]:
    """The terminal shows no progress for the gate: its items reached `[100%]`, and
    the gate, never collected, would push it past (`[120%]`, a second `[100%]`).
    Where no file name starts a line (-q, xdist), its letter starts one of its own."""
    terminal = config.pluginmanager.getplugin("terminalreporter")
    shown = getattr(terminal, "_show_progress_info", None)
    if terminal is None or shown is None:  # no terminal, or one that counts no progress
        yield
        return
    writer = config.get_terminal_writer()
    if not terminal.showfspath and writer.width_of_current_line:  # -q, xdist: letters only
        writer.line()
    terminal._show_progress_info = False
    try:
        yield
    finally:
        terminal._show_progress_info = shown
