"""The judging of a run and the end of it: metrics, model pairs, thresholds,
baseline verdicts, the gate, then the baseline, step summary and report written.

Shared by the controller at session end and by `bizbench merge`, so merged shards
are judged and written exactly like one run; it knows no pytest hooks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from pytest_bizbench.gate.agent_runs import AgentRuns, agent_benchmarks
from pytest_bizbench.gate.aggregate import metrics_by_benchmark, paired_by_benchmark
from pytest_bizbench.gate.baseline import (
    Comparisons,
    accepts_verdicts,
    by_identity,
    compare_run,
    save_baseline,
)
from pytest_bizbench.gate.coverage import coverage_reasons, missing_from_run
from pytest_bizbench.gate.explain import explained
from pytest_bizbench.gate.thresholds import Registered, evaluate_thresholds, gate_reasons
from pytest_bizbench.options.settings import BaselineOptions
from pytest_bizbench.options.thresholds import did_you_mean
from pytest_bizbench.report import RunResult, build_report
from pytest_bizbench.report.json_report import write_report_or_say
from pytest_bizbench.report.markdown import append_step_summary
from pytest_bizbench.report.model import ModelEntry, Report, RunInfo
from pytest_bizbench.report.records import Completeness, ReportDocument
from pytest_bizbench.report.stream import Documents
from pytest_bizbench.run.payload import SCORED, UNKNOWN_GROUP
from pytest_bizbench.run.registry import Registry, scoring_config_of
from pytest_bizbench.run.state import RunState


def conclude(
    documents: Mapping[tuple[str, str], list[ReportDocument]],
    completeness: Completeness,
    state: RunState,
    baseline: Report | None,
    run: RunInfo,
    *,
    runs: AgentRuns | None = None,
) -> RunResult:
    """Metrics, model pairs, thresholds, baseline verdicts and the gate of a run.

    Shared by the controller and `bizbench merge`, so merged shards judge exactly
    like one run.
    """
    registry, settings = state.registry, state.settings
    metrics, problems = metrics_by_benchmark(documents, registry)
    paired, pair_problems = paired_by_benchmark(documents, metrics, registry, settings.models)
    runs = runs or AgentRuns()
    agent = agent_benchmarks(registry)
    paired = {name: runs.with_deltas(p) if name in agent else p for name, p in paired.items()}
    registered = Registered(
        {name: registry.target_labels(name) for name in registry.names},
        sorted({label for docs in documents.values() for d in docs for label in d.payload.labels}),
    )
    # a shard judges only its own completeness: the merge judges the rest
    thresholds = (
        []
        if settings.shard
        else explained(evaluate_thresholds(settings.thresholds, metrics, registered), documents)
    )
    compared: Report | None = baseline
    baseline_problems: list[str] = []
    if baseline is not None and completeness.filtered:
        compared, baseline_problems = _selected(baseline, documents, registry, settings.baseline)
    comparisons = (
        compare_run(documents, metrics, registry, compared, settings.baseline)
        if compared is not None
        else Comparisons()
    )
    accept = settings.shard or accepts_verdicts(completeness, settings.baseline)
    verdicts = comparisons.reasons(settings.baseline, accept=accept)
    scored = {(name, settings.baseline.baseline_model(model)) for name, model in documents}
    missing = missing_from_run(baseline, scored) if baseline is not None else {}
    coverage = coverage_reasons(
        missing, judged=not (accept or completeness.filtered or settings.allow_missing)
    )
    benchmarks = [registry.get(name) for name in sorted({name for name, _ in documents})]
    configs = [scoring_config_of(b)[1] for b in benchmarks if b is not None]
    config_problems = [problem for problem in configs if problem is not None]
    problems = [
        *problems,
        *pair_problems,
        *baseline_problems,
        *config_problems,
        *_cluster_problem(documents, settings.cluster_by),
        *(_unpaired_models(documents, settings.baseline) if baseline is not None else ()),
        *verdicts,
        *coverage,
    ]
    return RunResult(
        documents=documents,
        metrics=metrics,
        thresholds=thresholds,
        completeness=completeness,
        reasons=gate_reasons(thresholds, completeness, problems),
        run=run,
        comparisons={**comparisons.results, **missing},
        paired=paired,
        runs={name: runs.summaries() for name in agent if runs.by_model},
    )


def _unpaired_models(
    documents: Mapping[tuple[str, str], list[ReportDocument]], options: BaselineOptions
) -> list[str]:
    """A `NEW=OLD` pairing whose NEW no document of this run has (a typo) compares
    nothing: a gate reason, since a model named by its cases is known only now."""
    models = sorted({model for _, model in documents})
    reasons = []
    for new, old in options.models:
        if new not in models:
            reasons.append(
                f"--bizbench-baseline-model {new}={old}: this run has no model {new!r}"
                + did_you_mean(new, models)
            )
    return reasons


def _selected(
    baseline: Report,
    documents: Mapping[tuple[str, str], list[ReportDocument]],
    registry: Registry,
    options: BaselineOptions,
) -> tuple[Report, list[str]]:
    """The baseline over the cases a filtered run selected, its metrics computed again
    from those cases: `-k one_case` against the whole suite's headline would read as
    a regression (or a gain) where nothing changed. Its cases are found as the
    comparison pairs them (`by_identity`), under the baseline's name of each model.
    Also the problems computing those metrics met (a baseline's details a
    benchmark cannot read), which are the gate's: a comparison with metrics left
    out would judge wrong."""
    recorded = baseline.documents()
    subset: dict[tuple[str, str], list[ReportDocument]] = {}
    for (name, model), docs in documents.items():
        key = (name, options.baseline_model(model))
        kept = recorded.get(key, ())
        before, after = by_identity(
            ({"case": d.payload.case, "id": d.payload.id, "at": i} for i, d in enumerate(kept)),
            ({"case": d.payload.case, "id": d.payload.id} for d in docs),
        )
        chosen = sorted(int(before[k]["at"]) for k in set(before) & set(after))
        subset[key] = [kept[i] for i in chosen]
    metrics, problems = metrics_by_benchmark(subset, registry)
    benchmarks = {
        name: replace(
            entry,
            models={
                model: ModelEntry(metrics.get((name, model), {}), Documents(subset[name, model]))
                for model in entry.models
                if (name, model) in subset
            },
        )
        for name, entry in baseline.benchmarks.items()
    }
    return replace(baseline, benchmarks=benchmarks), [f"baseline: {p}" for p in problems]


def _cluster_problem(
    documents: Mapping[tuple[str, str], list[ReportDocument]], cluster_by: str | None
) -> list[str]:
    """A cluster field no scored case has is most likely misspelt: every case would
    be one cluster, so no comparison could ever be significant, and nothing said why."""
    scored = [d for docs in documents.values() for d in docs if d.payload.status == SCORED]
    if cluster_by is None or not scored:
        return []
    if any(d.payload.cluster not in (None, UNKNOWN_GROUP) for d in scored):
        return []
    return [
        f"ini bizbench_cluster_by = {cluster_by!r}: no scored case has that field, so "
        "every case is one cluster and no comparison can be significant (check the name)"
    ]


@dataclass(frozen=True, slots=True)
class RunEnd:
    """A finished run: its final result (every gate reason, the outputs' own
    failures included), the report as written, and what became of the baseline."""

    result: RunResult
    report: Report
    report_error: str | None
    saved_baseline: tuple[bool, str] | None

    @property
    def passed(self) -> bool:
        return self.result.passed


def finish(
    result: RunResult, registry: Registry, options: BaselineOptions, report_path: Path
) -> RunEnd:
    """Save the baseline, append the step summary, then write the report, in that
    order, so the report's gate holds every reason, a refused or failed save
    included, and always agrees with the exit status (a report that cannot be
    written is no file at all, and its reason still fails the run).
    """
    reasons = list(result.reasons)
    report = build_report(result, registry)
    saved = save_baseline(report, result.completeness, options)
    if saved is not None and not saved[0]:
        reasons.append(saved[1])
    report = report.with_reasons(reasons)
    try:
        append_step_summary(report)
    except OSError as exc:
        reasons.append(f"cannot append step summary: {exc}")
        report = report.with_reasons(reasons)
    report_error = write_report_or_say(report, report_path)
    if report_error is not None:
        reasons.append(report_error)
        report = report.with_reasons(reasons)
    return RunEnd(replace(result, reasons=reasons), report, report_error, saved)
