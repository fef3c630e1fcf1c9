"""Aggregate thresholds and the gate verdict."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pytest_bizbench.maths.figures import is_number
from pytest_bizbench.options.thresholds import Threshold, did_you_mean
from pytest_bizbench.report.records import Completeness, ThresholdResult

_OPS: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge,
    ">": operator.gt,
    "<=": operator.le,
    "<": operator.lt,
}


def resolve_metric(metrics: Mapping[str, Any], path: str, missing: Any = None) -> Any:
    """Follow a dotted path; keys may themselves hold dots, so the longest key wins.
    `missing` when the path leads nowhere, so a caller can tell it from a null value."""
    node: Any = metrics
    rest = path
    while rest:
        if not isinstance(node, Mapping):
            return missing
        for cut in [len(rest), *reversed([i for i, ch in enumerate(rest) if ch == "."])]:
            key = rest[:cut]
            if key in node:
                node, rest = node[key], rest[cut + 1 :]
                break
        else:
            return missing
    return node


def metric_paths(metrics: Mapping[str, Any], prefix: str = "") -> list[str]:
    """Every dotted path to a number in the metrics, for suggesting the closest one."""
    paths = []
    for key, value in metrics.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping):
            paths += metric_paths(value, path + ".")
        elif is_number(value):
            paths.append(path)
    return paths


PER_FIELD = "per_field_accuracy."
_MISSING = object()


def _unknown_metric(metrics: Mapping[str, Any], path: str) -> str:
    if path.startswith(PER_FIELD):
        # a field that no document scored (every expected value null, every case an
        # error) has no entry: it is empty, not unknown
        return f'{path} has no value: no document scored "{path.removeprefix(PER_FIELD)}"'
    hint = did_you_mean(path, metric_paths(metrics))
    return f"no such metric{hint} (top-level metrics: {', '.join(sorted(metrics)) or 'none'})"


@dataclass(frozen=True, slots=True)
class Registered:
    """What the thresholds need to know of the registered benchmarks and the cases
    seen, to say why a benchmark has no metrics."""

    target_labels: Mapping[str, Sequence[str]] = field(default_factory=dict)
    labels_seen: Sequence[str] = ()

    def no_metrics(self, benchmark: str) -> str:
        targets = self.target_labels.get(benchmark)
        if targets is None:
            return "no such benchmark"
        return (
            f"benchmark {benchmark!r} scored no case: its target_labels {list(targets)} "
            f"matched none of the labels seen ({sorted(set(self.labels_seen))})"
        )


def evaluate_thresholds(
    thresholds: Iterable[Threshold],
    metrics: Mapping[tuple[str, str], Mapping[str, Any]],
    registered: Registered | None = None,
) -> list[ThresholdResult]:
    """Check each threshold against every model it names (all models when none)."""
    registered = registered or Registered()
    results = []
    for t in thresholds:
        models = sorted(m for b, m in metrics if b == t.benchmark)
        if not models:
            note = registered.no_metrics(t.benchmark)
            results.append(ThresholdResult(t, t.model or "*", None, False, note))
            continue
        if t.model is not None:
            models = [t.model]
        for model in models:
            found = metrics.get((t.benchmark, model))
            if found is None:
                results.append(ThresholdResult(t, model, None, False, "no such model"))
                continue
            actual = resolve_metric(found, t.metric, _MISSING)
            if isinstance(actual, bool) or not isinstance(actual, (int, float)):
                if actual is _MISSING:
                    note = _unknown_metric(found, t.metric)
                elif actual is None:  # a rate over nothing: precision with no pair, say
                    note = f"{t.metric} has no value: nothing was counted for it in this run"
                else:
                    note = "metric is not a number"
                results.append(ThresholdResult(t, model, None, False, note))
                continue
            value = float(actual)
            results.append(ThresholdResult(t, model, value, _OPS[t.op](value, t.value)))
    return results


def gate_reasons(
    results: Iterable[ThresholdResult], completeness: Completeness, problems: Iterable[str]
) -> list[str]:
    """Every reason the gate fails, in the order a reader should fix them."""
    reasons = [f"threshold not met: {r.describe()}" for r in results if not r.passed]
    reasons += list(problems)
    reasons += completeness.reasons()
    return reasons
