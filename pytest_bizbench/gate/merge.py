"""`bizbench merge`: reports of CI shards -> the report one run of every shard gives.

Saved documents go back through the aggregator and `gate.verdict.conclude`, the
code a live run uses, with the benchmarks, thresholds and baseline of the
pytest configuration in the current directory. Metrics are recomputed by each
benchmark's own `compute()`, never averaged from the shards' metrics, so a
median or a rule slice comes out exactly as in a single run.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pytest_bizbench import __version__
from pytest_bizbench.collect.items import BizbenchItem
from pytest_bizbench.gate.agent_runs import AgentRuns, collect_agent_runs
from pytest_bizbench.gate.aggregate import Aggregator
from pytest_bizbench.gate.baseline import load_baseline
from pytest_bizbench.gate.verdict import conclude, finish
from pytest_bizbench.maths.figures import plural
from pytest_bizbench.options.thresholds import check_threshold_names
from pytest_bizbench.report import RunResult
from pytest_bizbench.report.model import Report, RunInfo
from pytest_bizbench.report.records import FAILED, XFAILED, Completeness
from pytest_bizbench.report.tables import summary_table
from pytest_bizbench.report.terminal import text_table
from pytest_bizbench.run.payload import ERROR
from pytest_bizbench.run.registry import Registry, fingerprint
from pytest_bizbench.run.state import MERGING, RunState, run_state

SHOWN_OVERLAPS = 5
NO_SUITE = (
    "the merge collected no case item, so it cannot tell whether a shard is missing: "
    "give it the shards' pytest arguments after --"
)


class MergeRefused(Exception):
    """Shards that cannot be one run: overlapping cases, cases the suite lacks, or
    different benchmarks."""


@dataclass(frozen=True, slots=True)
class Shard:
    path: Path
    report: Report


def check_benchmarks(shards: Sequence[Shard], registry: Registry) -> None:
    """Every shard scored with the benchmarks, versions and scoring configs of this run."""
    for shard in shards:
        tool = shard.report.tool_version
        if tool != __version__:
            raise MergeRefused(
                f"{shard.path} was written by pytest-bizbench {tool}, this is {__version__}"
            )
        for name, entry in sorted(shard.report.benchmarks.items()):
            benchmark = registry.get(name)
            if benchmark is None:
                raise MergeRefused(
                    f"{shard.path}: benchmark {name!r} is not registered here; run "
                    "`bizbench merge` where the shards ran, with their pytest arguments after --"
                )
            here = (benchmark.version, fingerprint(benchmark))
            there = (entry.version, entry.fingerprint)
            if here != there:
                raise MergeRefused(
                    f"{shard.path}: benchmark {name!r} differs from this configuration "
                    f"(version {there[0]}, fingerprint {there[1]}; here version {here[0]}, "
                    f"fingerprint {here[1]}): shards must be scored the same way"
                )


@dataclass(slots=True)
class _Merged:
    suite: frozenset[str]  # the items the merge collects; empty: not known
    aggregator: Aggregator = field(default_factory=Aggregator)
    owner: dict[str, int] = field(default_factory=dict)
    overlaps: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)

    def claim(self, nodeid: str, shards: Sequence[Shard], index: int) -> bool:
        """Whether this item is new and of the suite; shard `index` brings it."""
        if self.suite and nodeid not in self.suite:
            self.foreign.append(f"{nodeid} (in {shards[index].path})")
            return False
        first = self.owner.setdefault(nodeid, index)
        if first != index:
            self.overlaps.append(f"{nodeid} (in {shards[first].path} and {shards[index].path})")
            return False
        return True


def merge_completeness(
    shards: Sequence[Shard], aggregator: Aggregator, suite: Sequence[str] = ()
) -> Completeness:
    """The shards' completeness as one run's. `suite` is the case items the merge's own
    pytest arguments collect: an item no shard holds means a shard's report is missing,
    which no shard can tell."""
    parts = [shard.report.completeness for shard in shards]
    merged = set(aggregator.documents) | set(aggregator.errors)
    unmerged = tuple(nodeid for nodeid in suite if nodeid not in merged)
    notes = () if suite else (NO_SUITE,)
    return Completeness(
        filtered=any(p.filtered for p in parts),
        collected=len(suite) if suite else sum(p.collected for p in parts),
        not_run=sum(p.not_run for p in parts),
        interrupted=any(p.interrupted for p in parts),
        scored=sum(1 for d in aggregator.documents.values() if d.outcome != ERROR),
        errors=tuple(aggregator.error_list()),
        missing=tuple(aggregator.missing()),
        notes=notes,
        unmerged=unmerged,
    )


def add_shared_error(aggregator: Aggregator, error: Mapping[str, Any]) -> None:
    """An error that is not one item's, counted once however many shards met it."""
    aggregator.errors["shared:" + json.dumps(error, sort_keys=True)] = dict(error)


def merge_documents(shards: Sequence[Shard], suite: Sequence[str] = ()) -> Aggregator:
    """All shards' documents and errors in one aggregator. MergeRefused when two
    shards hold one item, or a shard holds an item the merge does not collect (a
    report edited by hand, or made from other case files): counting it would score
    cases the suite does not have."""
    merged = _Merged(frozenset(suite))
    for index, shard in enumerate(shards):
        for docs in shard.report.documents().values():
            for doc in docs:
                if merged.claim(doc.nodeid, shards, index):
                    merged.aggregator.add_document(doc)
        for error in shard.report.completeness.errors:
            nodeid = str(error.get("nodeid"))
            if "::" in nodeid:  # an item's error: it belongs to exactly one shard
                if merged.claim(nodeid, shards, index):
                    merged.aggregator.errors[nodeid] = dict(error)
            else:  # a collection error (a conftest, a module) may hit every shard
                add_shared_error(merged.aggregator, error)
    if merged.overlaps:
        raise MergeRefused(
            f"shards overlap in {_listed(merged.overlaps)}; give each shard its own case files"
        )
    if merged.foreign:
        raise MergeRefused(
            f"shards hold {_listed(merged.foreign)} that the merge's pytest arguments do not "
            "collect; merge with the shards' arguments after --, over the same case files"
        )
    return merged.aggregator


def _listed(items: Sequence[str]) -> str:
    shown = "; ".join(items[:SHOWN_OVERLAPS])
    more = len(items) - SHOWN_OVERLAPS
    return f"{plural(len(items), 'item')}: {shown}" + (f" and {more} more" if more > 0 else "")


def _run_info(shards: Sequence[Shard]) -> RunInfo:
    runs = [shard.report.run for shard in shards]
    starts = sorted(r.started_at for r in runs if r.started_at)
    return RunInfo(
        started_at=starts[0] if starts else None,
        duration_s=sum(r.duration_s for r in runs),
        merged_from=tuple(str(shard.path) for shard in shards),
    )


def merge(
    shards: Sequence[Shard], state: RunState, runs: AgentRuns, suite: Sequence[str] = ()
) -> RunResult:
    """The result one run over every shard's cases would have given.

    Agent-run files make no items, so no shard document carries them: `runs` are
    read again from the paths the merge was given, as a run over them would; and
    `suite`, the node ids of the case items those paths collect, shows a shard whose
    report is missing.
    """
    check_benchmarks(shards, state.registry)
    models = sorted({m for s in shards for m in s.report.model_names()})
    try:
        check_threshold_names(state.settings.thresholds, list(state.registry.names), models)
    except ValueError as exc:
        raise MergeRefused(str(exc)) from None
    aggregator = merge_documents(shards, suite)
    for error in runs.errors.values():
        add_shared_error(aggregator, error)
    completeness = merge_completeness(shards, aggregator, suite)
    baseline = load_baseline(state.settings.baseline)
    return conclude(
        aggregator.by_benchmark(), completeness, state, baseline, _run_info(shards), runs=runs
    )


def failed_items(result: RunResult) -> int:
    """The merged case items pytest would count as failed in one run (an expected
    failure is not one)."""
    return sum(
        doc.outcome == FAILED and doc.pytest_outcome != XFAILED
        for docs in result.documents.values()
        for doc in docs
    )


class MergeCommand:
    """A pytest plugin that does the merge in place of running tests.

    The session goes through configure, sessionstart, sessionfinish and unconfigure
    like a run, so plugins and conftests see a whole session; pytest parses the
    arguments, reads the ini file and loads the start-up conftests, so the merge sees
    the benchmarks and options a run would. It collects what the shards' arguments
    collect, to find items no shard ran, but runs nothing; the controller stands
    down (`MERGING`): this command writes the report.
    """

    def __init__(self, shards: Sequence[Shard], output: Path) -> None:
        self.shards = shards
        self.output = output
        self.lines: list[str] = []
        self.code: int | None = None  # None until the merge ran: pytest's status stands

    def pytest_configure(self, config: pytest.Config) -> None:
        config.stash[MERGING] = True
        # a broken test module beside the cases is the shards' business, not the merge's
        config.option.continue_on_collection_errors = True

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool:
        suite = [item.nodeid for item in session.items if isinstance(item, BizbenchItem)]
        self.code = self.run(session.config, suite)
        return True

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.code is not None:  # an internal error keeps its own status
            session.exitstatus = self.code

    def run(self, config: pytest.Config, suite: Sequence[str]) -> int:
        state = run_state(config)
        try:
            result = merge(self.shards, state, collect_agent_runs(config, state), suite)
        except (MergeRefused, pytest.UsageError) as exc:
            self.lines.append(f"bizbench merge: {exc}")
            return 2
        end = finish(result, state.registry, state.settings.baseline, self.output)
        if end.report_error is None:
            self.lines.append(f"merged {plural(len(self.shards), 'shard')} into {self.output}")
        self.lines += [
            *text_table(summary_table(end.report)),
            "bizbench gate: passed" if end.passed else "bizbench gate: FAILED",
            *(f"  {reason}" for reason in end.result.reasons),
        ]
        if end.saved_baseline is not None:
            self.lines.append(f"bizbench: {end.saved_baseline[1]}")
        failed = failed_items(result)
        if failed:  # one run over every shard would exit 1 for them, gate or not
            self.lines.append(f"bizbench merge: {plural(failed, 'case item')} failed in the shards")
        return 0 if end.passed and not failed else 1
