"""The judging of a run: metrics, model pairs, thresholds, baseline verdicts, the gate.

Shared by the controller at session end and by `bizbench merge`, so merged shards
are judged exactly like one run; it knows no pytest hooks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_bizbench.agent_runs import AgentRuns, agent_benchmarks
from pytest_bizbench.aggregate import ReportDocument, metrics_by_benchmark, paired_by_benchmark
from pytest_bizbench.baseline import Comparisons, accepts_verdicts, compare_run
from pytest_bizbench.baseline_coverage import coverage_reasons, missing_from_run
from pytest_bizbench.gate import Completeness, Registered, evaluate_thresholds, gate_reasons
from pytest_bizbench.registry import scoring_config_of
from pytest_bizbench.report import RunResult
from pytest_bizbench.runstate import RunState


def conclude(
    documents: Mapping[tuple[str, str], list[ReportDocument]],
    completeness: Completeness,
    state: RunState,
    baseline: Mapping[str, Any] | None,
    run: dict[str, Any],
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
        [] if settings.shard else evaluate_thresholds(settings.thresholds, metrics, registered)
    )
    comparisons = (
        compare_run(documents, metrics, registry, baseline, settings.baseline)
        if baseline is not None
        else Comparisons()
    )
    accept = settings.shard or accepts_verdicts(completeness, settings.baseline)
    verdicts = comparisons.reasons(settings.baseline, accept=accept)
    missing = missing_from_run(baseline, documents.keys()) if baseline is not None else {}
    coverage = coverage_reasons(
        missing, judged=not (accept or completeness.filtered or settings.allow_missing)
    )
    benchmarks = [registry.get(name) for name in sorted({name for name, _ in documents})]
    configs = [scoring_config_of(b)[1] for b in benchmarks if b is not None]
    config_problems = [problem for problem in configs if problem is not None]
    problems = [*problems, *pair_problems, *config_problems, *verdicts, *coverage]
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
