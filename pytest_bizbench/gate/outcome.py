"""The gate as one pytest test outcome, `bizbench::gate`, where CI looks.

A run's verdict lives in the session, not in an item, so the controller reports it
as a synthetic test through the ordinary report hooks: the terminal counts it in
the last line and lists it in the short test summary, JUnit XML writes it as a
testcase (`classname="bizbench"`, `name="gate"`) with a `<failure>` holding every
reason. Nothing runs: only the logging hooks are called, on the controller.
"""

from __future__ import annotations

from collections.abc import Sequence
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


def report_gate(session: pytest.Session, reasons: Sequence[str]) -> None:
    """Log the gate as a test: setup, call (failed with every reason, or passed), teardown.

    The session's own failure count is left as it was, so `-x` does not say it
    stopped at the gate; the exit status is set by the controller (one failed gate
    turns an exit 0 into 1, as before).
    """
    hook = session.config.hook
    failed = bool(reasons)
    shouldfail, testsfailed = session.shouldfail, session.testsfailed
    hook.pytest_runtest_logstart(nodeid=GATE_NODEID, location=_LOCATION)
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
        hook.pytest_runtest_logreport(report=report)
    hook.pytest_runtest_logfinish(nodeid=GATE_NODEID, location=_LOCATION)
    session.shouldfail, session.testsfailed = shouldfail, testsfailed
