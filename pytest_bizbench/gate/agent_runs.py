"""Agent-run records (`*.agent-runs.jsonl`) summarised per model, on the controller.

Run files make no items, and under pytest-xdist the controller collects
nothing, so no test report could carry them. Instead the controller finds them
itself, the same way with and without xdist: every file under the session's
paths (`config.args`, so `testpaths` too) whose name matches
`bizbench_case_patterns` and ends in `.agent-runs.jsonl`, skipping what pytest's
`pytest_ignore_collect` skips (`--ignore`, `--ignore-glob`, `norecursedirs`,
`collect_ignore` of conftests loaded at start-up).
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_bizbench.cases.kinds import AGENT_TASK, RUNS_SUFFIX
from pytest_bizbench.maths.figures import mean

if TYPE_CHECKING:  # every session looks for run files: the rest loads when one is found
    from pytest_bizbench.cases.agent import RunRecord
    from pytest_bizbench.options.types import RunFields
    from pytest_bizbench.run.registry import Registry
    from pytest_bizbench.run.state import RunState

STAT_FIELDS = ("wall_seconds", "turns", "tool_calls", "tool_format_errors", "tokens")
DELTA_FIELDS = ("turns", "wall_seconds")


def runs_files(config: pytest.Config, patterns: Sequence[str]) -> list[Path]:
    """The run files of the session, sorted, each once."""
    if config.option.pyargs:
        return []
    ignored = config.hook.pytest_ignore_collect

    def wanted(path: Path) -> bool:
        name = path.name
        return (
            name.endswith(RUNS_SUFFIX)
            and any(fnmatch.fnmatch(name, p) for p in patterns)
            and not ignored(collection_path=path, config=config)
        )

    found: set[Path] = set()
    for arg in config.args:
        start = Path(os.path.abspath(config.invocation_params.dir / str(arg).split("::", 1)[0]))
        if start.is_file():
            found.update([start] if wanted(start) else [])
            continue
        for root, dirs, files in os.walk(start):
            here = Path(root)
            dirs[:] = [d for d in dirs if not ignored(collection_path=here / d, config=config)]
            found.update(here / f for f in files if wanted(here / f))
    return sorted(found)


def _stats(values: Iterable[float | int | None]) -> dict[str, Any]:
    from pytest_bizbench.maths.stats import percentile

    ordered = sorted(float(v) for v in values if v is not None)
    if not ordered:
        return {"n": 0, "mean": None, "p50": None, "p95": None}
    return {
        "n": len(ordered),
        "mean": mean(ordered),
        "p50": percentile(ordered, 0.50),
        "p95": percentile(ordered, 0.95),
    }


def summarise(records: Sequence[RunRecord]) -> dict[str, Any]:
    """One model's runs: status counts, success rate, mean/p50/p95 of each measure."""
    statuses: dict[str, int] = {}
    for record in records:
        statuses[record.status] = statuses.get(record.status, 0) + 1
    summary: dict[str, Any] = {
        "runs": len(records),
        "status_counts": dict(sorted(statuses.items())),
        "success_rate": sum(r.success for r in records) / len(records) if records else 0.0,
    }
    for name in STAT_FIELDS:
        summary[name] = _stats(getattr(r, name) for r in records)
    return summary


def _per_task(records: Iterable[RunRecord], name: str) -> dict[str, float]:
    """Mean of one measure per task id, over that task's runs that have it."""
    values: dict[str, list[float]] = {}
    for record in records:
        value = getattr(record, name)
        if record.task_id is not None and value is not None:
            values.setdefault(record.task_id, []).append(float(value))
    return {task: mean(v) for task, v in values.items()}


@dataclass(slots=True)
class AgentRuns:
    """Every run record of the session, by model, and the problems met reading them;
    filled in place as the run files are read, so not frozen."""

    by_model: dict[str, list[RunRecord]] = field(default_factory=dict)
    errors: dict[str, dict[str, Any]] = field(default_factory=dict)

    def summaries(self) -> dict[str, dict[str, Any]]:
        return {model: summarise(records) for model, records in sorted(self.by_model.items())}

    def deltas(self, a: str, b: str) -> dict[str, dict[str, Any]] | None:
        """Mean turns and wall seconds of B minus A over the tasks both have runs for;
        None when either model has no runs."""
        if a not in self.by_model or b not in self.by_model:
            return None
        out: dict[str, dict[str, Any]] = {}
        for name in DELTA_FIELDS:
            per_a, per_b = _per_task(self.by_model[a], name), _per_task(self.by_model[b], name)
            tasks = sorted(set(per_a) & set(per_b))
            if not tasks:
                out[name] = {"n": 0, "a": None, "b": None, "delta": None}
                continue
            mean_a = mean(per_a[t] for t in tasks)
            mean_b = mean(per_b[t] for t in tasks)
            out[name] = {"n": len(tasks), "a": mean_a, "b": mean_b, "delta": mean_b - mean_a}
        return out

    def with_deltas(self, paired: Mapping[str, Any]) -> dict[str, Any]:
        """`paired["<B>-vs-<A>"]` entries of an agent benchmark, each with `runs` deltas
        added when both models have runs."""
        out: dict[str, Any] = {}
        for label, entry in paired.items():
            models = entry.get("models") or {}
            deltas = self.deltas(str(models.get("a")), str(models.get("b")))
            out[label] = entry if deltas is None else {**entry, "runs": deltas}
        return out


def read_agent_runs(
    files: Sequence[Path], rootpath: Path, max_bytes: int, layout: RunFields
) -> AgentRuns:
    """Load every run file; a bad file or record becomes an error entry (the run is
    then incomplete, as with a bad case file) and the other records still count."""
    runs = AgentRuns()
    if not files:
        return runs  # the loader is imported only when there is a file to read
    from pytest_bizbench.cases.agent import load_agent_runs
    from pytest_bizbench.cases.model import CaseError

    for path in files:
        shown = Path(os.path.relpath(path, rootpath)).as_posix()
        for entry in load_agent_runs(path, max_bytes, layout):
            if isinstance(entry, CaseError):
                error: dict[str, Any] = {
                    "nodeid": shown,
                    "case": shown,
                    "message": replace(entry, path=shown).describe(),
                }
                if entry.line is not None:
                    error["line"] = entry.line
                runs.errors[f"runs:{shown}:{entry.line or 0}"] = error
            else:
                runs.by_model.setdefault(entry.model, []).append(entry)
    return runs


def agent_benchmarks(registry: Registry) -> list[str]:
    """Names of the benchmarks that score agent tasks: they report the run summaries."""
    return [name for name in registry.names if registry.case_type(name) == AGENT_TASK]


def collect_agent_runs(config: pytest.Config, state: RunState) -> AgentRuns:
    """The session's run records; nothing is searched when no benchmark reports them."""
    if not agent_benchmarks(state.registry):
        return AgentRuns()
    settings = state.settings
    files = runs_files(config, settings.case_patterns)
    return read_agent_runs(
        files, config.rootpath, settings.max_case_bytes, settings.agent.run_fields
    )
