"""`agent-fs`: agent tasks graded by what the agent left on disk.

A task's score is the share of its assertions that hold in the post-state
workspace; with several runs (`run-<n>/`), the mean over runs, plus pass@k over
runs that passed every assertion. Two models are compared task by task, per group
of tasks and per assertion kind, in percentage points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from pytest_bizbench.maths.figures import mean
from pytest_bizbench.options.types import AgentConfig
from pytest_bizbench.scoring.fs_assertions import (
    Limits,
    grade_workspace,
    refused,
    run_workspaces,
)
from pytest_bizbench.scoring.passk import Spread, pass_at_k_metrics, sample_details
from pytest_bizbench.sdk import (
    DEFAULT_REGEX_TIMEOUT,
    BenchmarkPlugin,
    ExtendedDocument,
    ScoredDocument,
    by_id,
)

if TYPE_CHECKING:
    from pytest_bizbench.benchmarks import ModelRungs
    from pytest_bizbench.options.settings import Settings

NO_WORKSPACE = "no workspace"


@dataclass(frozen=True, slots=True)
class _TaskView:
    """One model's result on one task, as the metrics and comparisons read it."""

    score: float
    pass_rate: float  # share of runs that passed every assertion
    kinds: dict[str, tuple[float, float]]  # kind -> (share passed, share of runs all passed)
    counts: dict[str, tuple[int, float]]  # kind -> (assertions, mean passed per run)

    @classmethod
    def of(cls, scored: ScoredDocument) -> _TaskView:
        details = scored.details
        runs = details.get("runs") or {}
        n = runs.get("n") or 0
        kinds = details.get("kinds") or {}
        return cls(
            score=scored.score,
            pass_rate=runs.get("passed", 0) / n if n else 0.0,
            kinds={
                k: (v["passed"] / v["count"] if v["count"] else 0.0, v["all_passed"])
                for k, v in kinds.items()
            },
            counts={k: (v["count"], v["passed"]) for k, v in kinds.items()},
        )


def _entry(pairs: Sequence[tuple[tuple[float, float], tuple[float, float]]]) -> dict[str, Any]:
    """`{n, a, b, delta_pp, pass_rate_a, pass_rate_b, pass_rate_delta_pp}` over
    (A (score, pass rate), B (score, pass rate)) pairs of matched tasks."""
    a = mean(p[0][0] for p in pairs)
    b = mean(p[1][0] for p in pairs)
    pa = mean(p[0][1] for p in pairs)
    pb = mean(p[1][1] for p in pairs)
    return {
        "n": len(pairs),
        "a": a,
        "b": b,
        "delta_pp": (b - a) * 100.0,
        "pass_rate_a": pa,
        "pass_rate_b": pb,
        "pass_rate_delta_pp": (pb - pa) * 100.0,
    }


def _share(results: Sequence[Mapping[str, Any]]) -> float:
    return sum(1 for r in results if r["passed"]) / len(results) if results else 0.0


def _kinds(graded: Sequence[Sequence[Mapping[str, Any]]]) -> dict[str, dict[str, Any]]:
    """Per kind: assertions in the task, mean passed per run, share of runs all passed."""
    out: dict[str, dict[str, Any]] = {}
    for kind in sorted({str(r["kind"]) for r in graded[0]}):
        per_run = [[r["passed"] for r in results if str(r["kind"]) == kind] for results in graded]
        out[kind] = {
            "count": len(per_run[0]),
            "passed": mean(sum(run) for run in per_run),
            "all_passed": mean(float(all(run)) for run in per_run),
        }
    return out


class AgentFs(BenchmarkPlugin):
    """Share of a task's file-system assertions its post-state workspace satisfies."""

    name = "agent-fs"
    version = "1.0.0"
    description = "Share of an agent task's file-system assertions that hold after the run."
    target_labels: ClassVar[list[str]] = ["*"]
    metric_unit = "share of assertions passed"
    min_score = 1.0  # a task passes when every assertion holds
    case_type = "agent-tasks"

    @classmethod
    def from_settings(cls, settings: Settings, rungs: ModelRungs) -> AgentFs:
        """The built-in as a run's settings configure it."""
        return cls(settings.agent, settings.regex_timeout, settings.qa.pass_at_k)

    def __init__(
        self,
        config: AgentConfig | None = None,
        regex_timeout: float = DEFAULT_REGEX_TIMEOUT,
        pass_at: Sequence[int] = (1,),
    ) -> None:
        self.config = config or AgentConfig()
        self.limits = Limits(self.config.max_file_bytes, regex_timeout)
        self.pass_at = tuple(sorted(set(pass_at)))

    def scoring_config(self) -> dict[str, Any]:
        return {
            **super().scoring_config(),
            "max_file_bytes": self.config.max_file_bytes,
            "group_pattern": self.config.group_pattern,
            "pass_at_k": list(self.pass_at),
        }

    def score(self, document: ExtendedDocument) -> ScoredDocument:
        task = document.ground_truth
        assertions, seed = task["verifiable_assertions"], task["workspace_seed"]
        runs = run_workspaces(Path(document.extracted_fields["workspace"]))
        graded = [
            refused(assertions, run.refused)
            if run.refused
            else grade_workspace(run.root, assertions, seed, self.limits)
            for run in runs
        ]
        scores = [_share(results) for results in graded]
        spread = Spread.of(scores)  # shows the median run
        n, c = len(graded), sum(1 for results in graded if all(r["passed"] for r in results))
        details: dict[str, Any] = {
            "assertions": graded[spread.shown],
            "kinds": _kinds(graded),
            "runs": {
                "n": n,
                "passed": c,
                "mean": spread.mean,
                "min": spread.min,
                "max": spread.max,
                # as for a repeated prediction of any kind (evaluate._combine)
                "shown": spread.shown,
                "scores": scores,
            },
            **sample_details(n, c, self.pass_at),
        }
        if runs[spread.shown].name is not None:
            details["run"] = runs[spread.shown].name
        return ScoredDocument(document, spread.mean, details)

    def missing_details(self, document: ExtendedDocument) -> dict[str, Any]:
        """Every assertion failed, so per-kind counts include tasks the agent never did."""
        failed = [
            {
                "kind": a.get("kind"),
                "path": a.get("path") if isinstance(a.get("path"), str) else "",
                "passed": False,
                "skipped": False,
                "reason": NO_WORKSPACE,
            }
            for a in document.ground_truth.get("verifiable_assertions", [])
        ]
        return {"assertions": failed, "kinds": _kinds([failed]) if failed else {}}

    def compute(self, scored: list[ScoredDocument]) -> dict[str, Any]:
        metrics = super().compute(scored)
        ordered = by_id(scored)
        views = [(s.document.id, _TaskView.of(s)) for s in ordered]
        metrics["pass_rate"] = mean(v.pass_rate for _, v in views)
        totals: dict[str, list[float]] = {}
        for _, view in views:
            for kind, (count, passed) in view.counts.items():
                entry = totals.setdefault(kind, [0, 0.0])
                entry[0] += count
                entry[1] += passed
        metrics["per_kind"] = {
            kind: {"count": int(count), "pass_rate": passed / count if count else 0.0}
            for kind, (count, passed) in sorted(totals.items())
        }
        groups: dict[str, list[_TaskView]] = {}
        for task_id, view in views:
            groups.setdefault(self.config.group_of(task_id), []).append(view)
        metrics["groups"] = {
            group: {
                "count": len(members),
                "accuracy": mean(v.score for v in members),
                "pass_rate": mean(v.pass_rate for v in members),
            }
            for group, members in sorted(groups.items())
        }
        metrics.update(pass_at_k_metrics((s.details for s in ordered), self.pass_at))
        return metrics

    def compare_models(
        self,
        a_metrics: Mapping[str, Any],
        b_metrics: Mapping[str, Any],
        a_scored: list[ScoredDocument],
        b_scored: list[ScoredDocument],
    ) -> dict[str, Any]:
        """`compare()` plus matched B-A deltas per task, group and assertion kind.

        Every entry is over the tasks both models were evaluated on: `a`/`b` are
        mean task scores, `pass_rate_*` mean shares of runs that passed every
        assertion. For a kind, a task's score is the share of its assertions of
        that kind passed, and it passes when all of them did.
        """
        a = {s.document.id: _TaskView.of(s) for s in a_scored}
        b = {s.document.id: _TaskView.of(s) for s in b_scored}
        matched = sorted(set(a) & set(b))
        tasks = {
            t: _entry([((a[t].score, a[t].pass_rate), (b[t].score, b[t].pass_rate))])
            for t in matched
        }
        groups: dict[str, list[Any]] = {}
        kinds: dict[str, list[Any]] = {}
        for t in matched:
            pair = ((a[t].score, a[t].pass_rate), (b[t].score, b[t].pass_rate))
            groups.setdefault(self.config.group_of(t), []).append(pair)
            for kind in sorted(set(a[t].kinds) | set(b[t].kinds)):
                none = (0.0, 0.0)
                kinds.setdefault(kind, []).append(
                    (a[t].kinds.get(kind, none), b[t].kinds.get(kind, none))
                )
        return {
            **super().compare_models(a_metrics, b_metrics, a_scored, b_scored),
            "models": {
                "a": a_scored[0].document.model if a_scored else "",
                "b": b_scored[0].document.model if b_scored else "",
            },
            "tasks": tasks,
            "groups": {g: _entry(pairs) for g, pairs in sorted(groups.items())},
            "kinds": {k: _entry(pairs) for k, pairs in sorted(kinds.items())},
        }
