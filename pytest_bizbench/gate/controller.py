"""The controller's view of a run: aggregate reports, judge the gate, write the report.

Registered only on the controlling process (never on an xdist worker), like
pytest's junitxml: it learns everything from test reports, so `-n 0`, `-n 2` and
`-p no:xdist` go down one path. Registered in every session, it imports the
aggregation, report and baseline code only once a case reports or the run's
options ask for it, so a session without cases starts as fast as bare pytest.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import json
import time
from collections.abc import Generator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_bizbench.run.state import PREDICTIONS_OUTPUT, RUN_STATE, runs_items

if TYPE_CHECKING:
    from pytest_bizbench.gate.aggregate import Aggregator
    from pytest_bizbench.report import RunResult
    from pytest_bizbench.report.model import Report, RunInfo
    from pytest_bizbench.report.records import Completeness
    from pytest_bizbench.run.payload import DocumentPayload

CONTROLLER = pytest.StashKey["Controller"]()


def is_filtered(config: pytest.Config) -> bool:
    """A selection made on purpose: -k, -m, --deselect, --lf, --ff, --sw, `::` node ids,
    --bizbench-requirement, --bizbench-subset or --bizbench-limit. `--ff` runs every
    item, but in an order chosen by the last failures: a run made while fixing them,
    not a reference one, so it cannot become the baseline either."""
    option = config.option
    return bool(
        getattr(option, "keyword", "")
        or getattr(option, "markexpr", "")
        or getattr(option, "deselect", None)
        or getattr(option, "lf", False)
        or getattr(option, "failedfirst", False)
        or getattr(option, "stepwise", False)  # --sw skips what passed before
        or getattr(option, "bizbench_requirement", None)
        or getattr(option, "bizbench_subset", None)
        or getattr(option, "bizbench_limit", None) is not None
        or any("::" in str(arg) for arg in config.args)
    )


class Controller:
    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self._aggregator: Aggregator | None = None
        self._case_files: dict[str, bool] = {}
        self.selected: list[str] | None = None
        self.started_at = dt.datetime.now(dt.timezone.utc)
        self.started = time.perf_counter()
        self.result: RunResult | None = None
        self.report: Report | None = None  # what the terminal section renders
        self.report_path: Path | None = None
        self.report_error: str | None = None
        self.baseline: Report | None = None
        self.saved_baseline: tuple[bool, str] | None = None
        self.gate_logged = False  # as the test bizbench::gate, its reasons its failure

    @property
    def aggregator(self) -> Aggregator:
        """Made at the first report of ours, so a session without cases never loads it."""
        if self._aggregator is None:
            from pytest_bizbench.gate.aggregate import Aggregator

            self._aggregator = Aggregator(identify=self._identify)
        return self._aggregator

    @pytest.hookimpl(trylast=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """Read the baseline before anything runs, so a bad path fails at once."""
        options = self.config.stash[RUN_STATE].settings.baseline
        if options.path is not None:
            from pytest_bizbench.gate.baseline import load_baseline

            self.baseline = load_baseline(options)

    def _is_case(self, nodeid: str) -> bool:
        file = nodeid.split("::", 1)[0]
        known = self._case_files.get(file)
        if known is None:  # asked for every report: match each file's name once
            patterns = self.config.stash[RUN_STATE].settings.case_patterns
            name = file.rsplit("/", 1)[-1]
            known = self._case_files[file] = any(fnmatch.fnmatch(name, p) for p in patterns)
        return known

    def _identify(self, nodeid: str, message: str) -> DocumentPayload | None:
        """An error document for a case item that never reported (its worker died)."""
        from pytest_bizbench.cases.kinds import spec_for
        from pytest_bizbench.collect.items import parse_item_name
        from pytest_bizbench.run.payload import ERROR, DocumentPayload

        state = self.config.stash[RUN_STATE]
        case, _, name = nodeid.rpartition("::")
        kind = spec_for(Path(case))
        if kind is not None and kind.own_model:
            return None  # its model is in its file: the error is counted without a document
        names = list(state.registry.names)
        found = parse_item_name(name, names, state.settings.models)
        if found is None:
            return None
        case_id, benchmark, model = found
        return DocumentPayload(
            status=ERROR,
            benchmark=benchmark,
            model=model,
            id=case_id,
            case=case,
            case_hash="",
            score=None,
            message=message,
        )

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.selected = [item.nodeid for item in session.items]

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        if self.selected is None:
            from pytest_bizbench.run.registry import late_registration, unloaded_registrar

            late = unloaded_registrar(self.config, ids)
            if late is not None:  # the usage error a serial run raises while collecting
                pytest.exit(late_registration(late), returncode=pytest.ExitCode.USAGE_ERROR)
            from pytest_bizbench.run.interrupt import is_case_nodeid

            patterns = self.config.stash[RUN_STATE].settings.case_patterns
            if runs_items(self.config) and any(is_case_nodeid(i, patterns) for i in ids):
                from pytest_bizbench.collect.items import nothing_to_score_ids

                problem = nothing_to_score_ids(self.config, ids)
                if problem is not None:
                    pytest.exit(problem, returncode=pytest.ExitCode.USAGE_ERROR)
            self.selected = list(ids)

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: object) -> None:
        """A finished worker's summary of the prediction files (plugin.py)."""
        summaries = getattr(node, "workeroutput", {}).get(PREDICTIONS_OUTPUT)
        if isinstance(summaries, str):
            self.config.stash[RUN_STATE].predictions.take(json.loads(summaries))

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.aggregator.add_collect_error(report.nodeid, str(report.longrepr))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> Generator[None]:
        """Aggregate; then, once every plugin has seen the report, drop the payload
        from it: the terminal keeps every report until the session ends, and the
        aggregator holds what the report needs."""
        if not self._is_case(report.nodeid):  # a plain test next to the cases
            return (yield)
        from pytest_bizbench.run.payload import REPORT_ATTRIBUTE, payload_of

        longrepr = str(report.longrepr) if report.failed else ""
        self.aggregator.add_report(
            report.nodeid,
            report.when,
            report.outcome,
            payload_of(report),
            longrepr,
            wasxfail=hasattr(report, "wasxfail"),
        )
        yield
        if hasattr(report, REPORT_ATTRIBUTE):  # pytest keeps every report
            delattr(report, REPORT_ATTRIBUTE)

    def _completeness(self, exitstatus: int, cases: list[str]) -> Completeness:
        """`cases`: the selected node ids that are cases of ours."""
        from pytest_bizbench.report.records import Completeness

        return Completeness(
            filtered=is_filtered(self.config),
            collected=len(cases),
            not_run=sum(1 for n in cases if n not in self.aggregator.reported),
            interrupted=exitstatus == pytest.ExitCode.INTERRUPTED,
            scored=sum(1 for d in self.aggregator.documents.values() if d.outcome != "error"),
            errors=tuple(self.aggregator.error_list()),
            missing=tuple(self.aggregator.missing()),
            shard=self.config.stash[RUN_STATE].settings.shard,
            notes=tuple(self._prediction_notes()),
            wrong_shapes=tuple(self._wrong_shapes()),
        )

    def _keys(self, wrong_shape: bool = False) -> dict[str, set[str]]:
        """Per model, the prediction keys of the run's documents (only those refused as
        holding none of their case's fields, with `wrong_shape`)."""
        from pytest_bizbench.cases.model import WRONG_SHAPE

        ids: dict[str, set[str]] = {}
        for doc in self.aggregator.documents.values():
            key = doc.payload.prediction_key or doc.payload.id
            if doc.payload.model is None or key is None:
                continue
            if not wrong_shape or (doc.outcome == "error" and doc.details.get(WRONG_SHAPE)):
                ids.setdefault(doc.payload.model, set()).add(key)
        return ids

    def _prediction_notes(self) -> list[str]:
        """Rows of the prediction files that match no case; a selection leaves rows
        out on purpose, so a filtered run says nothing."""
        if is_filtered(self.config):
            return []
        predictions = self.config.stash[RUN_STATE].predictions
        return predictions.unmatched_notes(self._keys(), self.config.rootpath)

    def _wrong_shapes(self) -> list[str]:
        wrong = self._keys(wrong_shape=True)
        if not wrong:
            return []
        predictions = self.config.stash[RUN_STATE].predictions
        return predictions.wrong_shape_reasons(wrong, self._keys(), self.config.rootpath)

    def _run_info(self) -> RunInfo:
        from pytest_bizbench.report.model import RunInfo

        workers = getattr(self.config.option, "numprocesses", None)
        return RunInfo(
            started_at=self.started_at.isoformat(timespec="seconds"),
            duration_s=time.perf_counter() - self.started,
            workers=workers if isinstance(workers, int) else None,
        )

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        """Judge and report; first, so JUnit XML and the terminal see the gate outcome.

        Every report has arrived by now, also under xdist (its workers report
        during the test loop).
        """
        if not runs_items(self.config) or exitstatus == pytest.ExitCode.USAGE_ERROR:
            return  # nothing was meant to run: no report, no gate
        from pytest_bizbench.gate.agent_runs import collect_agent_runs

        state = self.config.stash[RUN_STATE]
        runs = collect_agent_runs(self.config, state)  # no items: read here (gate/agent_runs.py)
        documents = self._aggregator is not None and self._aggregator.documents
        cases = [n for n in self.selected or () if self._is_case(n)]
        if not (cases or documents or runs.by_model):
            if state.settings.baseline.save_path is not None:
                from pytest_bizbench.gate.baseline import nothing_to_save

                self.saved_baseline = nothing_to_save(state.settings.baseline)
            if self.saved_baseline and session.exitstatus == pytest.ExitCode.OK:
                session.exitstatus = pytest.ExitCode.TESTS_FAILED
            return  # nothing of ours ran: no report, no section, no gate
        from pytest_bizbench.gate.outcome import report_gate
        from pytest_bizbench.gate.verdict import conclude, finish

        self.aggregator.errors.update(runs.errors)
        self.aggregator.errors.update(
            state.predictions.line_errors(self.config.rootpath)
        )  # parsed once here
        completeness = self._completeness(exitstatus, cases)
        result = conclude(
            self.aggregator.by_benchmark(),
            completeness,
            state,
            self.baseline,
            self._run_info(),
            runs=runs,
        )
        path = state.settings.report_path
        end = finish(result, state.registry, state.settings.baseline, path)
        self.result, self.report, self.saved_baseline = end.result, end.report, end.saved_baseline
        self.report_error = end.report_error
        if end.report_error is None:
            self.report_path = path
        if completeness.collected:
            report_gate(session, end.result.reasons)
            self.gate_logged = True
        if not end.passed and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(
        self, terminalreporter: pytest.TerminalReporter, exitstatus: int
    ) -> None:
        if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED and runs_items(self.config):
            patterns = self.config.stash[RUN_STATE].settings.case_patterns
            terminalreporter.write_line(
                f"bizbench: no case file found; looked for {' '.join(patterns)} "
                "(ini bizbench_case_patterns)",
                yellow=True,
            )
        # pytest lists the failed gate's reasons among its failures, unless --tb shows
        # none of them (no) or only a first line (line); else the section lists them,
        # but under -q
        above = self.gate_logged and self.config.option.tbstyle not in ("no", "line")
        said = self.report is not None and (above or terminalreporter.verbosity >= 0)
        if self.report is not None:
            from pytest_bizbench.report.terminal import write_summary

            write_summary(
                terminalreporter,
                self.report,
                self.report_path,
                self.report_error,
                reasons_above=above,
            )
        if self.saved_baseline is not None:
            saved, message = self.saved_baseline
            if saved or not said:  # a refusal is a gate reason: printed once
                terminalreporter.write_line(f"bizbench: {message}", green=saved, red=not saved)
