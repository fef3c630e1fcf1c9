"""pytest hooks of the plugin: wiring only; each concern lives in its own module.

Imported by every pytest session of an environment that has the plugin, so it loads
only the hook specs, the option table and the run state at import: each hook
imports the code it calls, and a session that collects no case file never loads
the rest (start-up).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from pytest_bizbench import hookspecs
from pytest_bizbench.options.table import add_options
from pytest_bizbench.run.interrupt import catch_sigterm, is_case_nodeid, release_sigterm
from pytest_bizbench.run.state import (
    PREDICTIONS_OUTPUT,
    is_worker,
    run_state,
    runs_items,
    start_run,
)


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


class PayloadCarrier:
    """Puts a scored case's payload on its test report, as an attribute pytest
    serialises across xdist: one path with and without workers."""

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        take = getattr(item, "take_payload", None)  # only our items publish one
        if take is not None and call.when != "teardown":
            payload = take()
            if payload is not None:
                from pytest_bizbench.run.payload import REPORT_ATTRIBUTE

                setattr(report, REPORT_ATTRIBUTE, payload)
        return report


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(PayloadCarrier(), "bizbench-payload-carrier")
    if is_worker(config):
        return
    from pytest_bizbench.gate.controller import CONTROLLER, Controller

    controller = Controller(config)
    config.stash[CONTROLLER] = controller
    config.pluginmanager.register(controller, "bizbench-controller")


def pytest_unconfigure(config: pytest.Config) -> None:
    from pytest_bizbench.gate.controller import CONTROLLER

    controller = config.stash.get(CONTROLLER, None)
    if controller is not None:
        config.pluginmanager.unregister(controller)
        del config.stash[CONTROLLER]
    release_sigterm(config)


def pytest_sessionstart(session: pytest.Session) -> None:
    start_run(session.config)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """An xdist worker hands the controller what it read of the prediction files (their
    bad lines and row ids), so the controller does not parse them again at the end."""
    config = session.config
    if is_worker(config):
        summaries = run_state(config).predictions.summaries()
        if summaries:
            from pytest_bizbench.io.jsonio import compact_json

            # one ASCII JSON text: execnet refuses strings that are not UTF-8 (a lone
            # surrogate in a row id), and a refused message would lose the worker's end
            output = config.workeroutput  # type: ignore[attr-defined]
            output[PREDICTIONS_OUTPUT] = compact_json(summaries)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    patterns = run_state(parent.config).settings.case_patterns
    if not any(fnmatch.fnmatch(file_path.name, pattern) for pattern in patterns):
        return None
    from pytest_bizbench.cases.kinds import kind_for
    from pytest_bizbench.collect.items import CaseFile

    kind = kind_for(file_path)
    return None if kind is None else CaseFile.from_parent(parent, path=file_path, kind=kind)


def pytest_collection_finish(session: pytest.Session) -> None:
    config = session.config
    patterns = run_state(config).settings.case_patterns  # by name, as xdist's ids below
    if not is_worker(config) and any(is_case_nodeid(i.nodeid, patterns) for i in session.items):
        catch_sigterm(config)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: Any, ids: list[str]) -> None:
    """Under xdist the controller collects nothing: a worker's ids tell it."""
    config: pytest.Config = node.config
    patterns = run_state(config).settings.case_patterns
    if any(is_case_nodeid(nodeid, patterns) for nodeid in ids):
        catch_sigterm(config)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    from pytest_bizbench.collect.selection import narrow_questions
    from pytest_bizbench.run.registry import check_late_registrations

    narrow_questions(config, items)
    if is_worker(config):  # under xdist the controller checks (controller.py)
        return
    state = run_state(config)
    check_late_registrations(config, state.registrars)
    patterns = state.settings.case_patterns  # a session of plain tests loads no items code
    if runs_items(config) and any(is_case_nodeid(i.nodeid, patterns) for i in items):
        from pytest_bizbench.collect.items import nothing_to_score

        problem = nothing_to_score(config, items)
        if problem is not None:
            raise pytest.UsageError(problem)


def pytest_report_teststatus(
    report: pytest.TestReport, config: pytest.Config
) -> tuple[str, str, tuple[str, dict[str, bool]]] | None:
    """Show each case's score in verbose output: `PASSED 0.83`, and with `-v` the
    benchmark's note on it: `PASSED 0.50 (p1 EXACT, p2 MISS)`."""
    if report.when != "call" or report.outcome not in ("passed", "failed"):
        return None
    if hasattr(report, "wasxfail") or not report.user_properties:  # xpassed: pytest's words
        return None  # and a plain test's report has no score
    from pytest_bizbench.run.payload import find_note, find_score

    score = find_score(report.user_properties)
    if score is None:
        return None
    letter = "." if report.outcome == "passed" else "F"
    markup = {"green": True} if report.outcome == "passed" else {"red": True}
    word = f"{report.outcome.upper()} {score:.2f}"
    note = find_note(report) if config.option.verbose > 0 else ""
    return report.outcome, letter, (f"{word} ({note})" if note else word, markup)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> pytest.TestReport | None:
    """Report our own setup failures (a bad file, case or benchmark) as their message.

    pytest renders a setup failure as a traceback, parsing source for every error
    item, which the message replaces anyway; building the report here skips that.
    Call-phase failures already go through the item's `repr_failure`.
    """
    excinfo = call.excinfo
    if call.when != "setup" or excinfo is None:
        return None
    from pytest_bizbench.run.failure import CaseFailure

    if not isinstance(excinfo.value, CaseFailure):
        return None
    return pytest.TestReport(
        nodeid=item.nodeid,
        location=item.location,
        keywords=dict.fromkeys(item.keywords, 1),
        outcome="failed",
        longrepr=excinfo.value.render(),
        when="setup",
        duration=call.duration,
        start=call.start,
        stop=call.stop,
        user_properties=item.user_properties,
    )
