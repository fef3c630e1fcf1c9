"""Aggregate thresholds and the gate verdict."""

from __future__ import annotations

import difflib
import math
import operator
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pytest_bizbench.figures import is_number, plural

_OPS: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge,
    ">": operator.gt,
    "<=": operator.le,
    "<": operator.lt,
}
_THRESHOLD = re.compile(r"^\s*(?P<target>[^<>=]+?)\s*(?P<op>>=|<=|>|<)\s*(?P<value>[^<>=\s]+)\s*$")
# a number as written in a config file: ASCII digits, no `_` (which `float` takes)
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)


@dataclass(frozen=True, slots=True)
class Threshold:
    """`BENCH[:MODEL]:METRIC OP VALUE`; `model` None means every model."""

    benchmark: str
    model: str | None
    metric: str
    op: str
    value: float
    text: str


@dataclass(frozen=True, slots=True)
class ThresholdResult:
    threshold: Threshold
    model: str
    actual: float | None
    passed: bool
    note: str = ""

    def as_json(self) -> dict[str, Any]:
        t = self.threshold
        return {
            "benchmark": t.benchmark,
            "model": self.model,
            "metric": t.metric,
            "op": t.op,
            "value": t.value,
            "actual": self.actual,
            "passed": self.passed,
        }

    def describe(self) -> str:
        t = self.threshold
        where = f"{t.benchmark}:{self.model}:{t.metric}"
        if self.actual is None:
            return f"{where} {t.op} {t.value:g}: {self.note}"
        return f"{where} = {self.actual:.4f}, needs {t.op} {t.value:g}"


def parse_threshold(text: str) -> Threshold:
    """Parse one threshold; ValueError says what is wrong and shows the syntax."""
    syntax = "expected BENCH[:MODEL]:METRIC OP VALUE with OP one of >= > <= <"
    match = _THRESHOLD.match(text)
    if not match:
        raise ValueError(f"bad threshold {text!r}: {syntax}")
    parts = [p.strip() for p in match["target"].split(":")]
    if len(parts) not in (2, 3) or not all(parts):
        raise ValueError(f"bad threshold {text!r}: {syntax}")
    if not _NUMBER.fullmatch(match["value"]):
        raise ValueError(f"bad threshold {text!r}: {match['value']!r} is not a number")
    value = float(match["value"])
    if not math.isfinite(value):
        raise ValueError(f"bad threshold {text!r}: the value must be finite")
    benchmark, model, metric = (parts[0], None, parts[1]) if len(parts) == 2 else parts
    return Threshold(benchmark, model, metric, match["op"], value, text.strip())


def _closest(name: str, known: Sequence[str]) -> str:
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else f" (known: {', '.join(known)})"


def check_threshold_names(
    thresholds: Iterable[Threshold],
    benchmarks: Sequence[str],
    models: Sequence[str],
    any_model: Collection[str] = (),
) -> None:
    """Raise ValueError for a threshold naming an unknown benchmark or model, before
    anything runs: a typo must not turn a gate off after an hour of model calls. The
    models of `any_model` benchmarks are named by their cases (trajectories), so are
    known only once they ran: a threshold of theirs that names a model no case had
    fails with "no such model" then."""
    for t in thresholds:
        if t.benchmark not in benchmarks:
            raise ValueError(
                f"threshold {t.text!r}: no benchmark {t.benchmark!r} is registered"
                + _closest(t.benchmark, sorted(benchmarks))
            )
        if t.model is not None and t.model not in models and t.benchmark not in any_model:
            raise ValueError(
                f"threshold {t.text!r}: no model {t.model!r} in this run's predictions"
                + _closest(t.model, list(models))
            )


def resolve_metric(metrics: Mapping[str, Any], path: str) -> Any:
    """Follow a dotted path; keys may themselves hold dots, so the longest key wins."""
    node: Any = metrics
    rest = path
    while rest:
        if not isinstance(node, Mapping):
            return None
        for cut in [len(rest), *reversed([i for i, ch in enumerate(rest) if ch == "."])]:
            key = rest[:cut]
            if key in node:
                node, rest = node[key], rest[cut + 1 :]
                break
        else:
            return None
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


def _unknown_metric(metrics: Mapping[str, Any], path: str) -> str:
    if path.startswith(PER_FIELD):
        # a field that no document scored (every expected value null, every case an
        # error) has no entry: it is empty, not unknown
        return f'{path} has no value: no document scored "{path.removeprefix(PER_FIELD)}"'
    close = difflib.get_close_matches(path, metric_paths(metrics), n=1, cutoff=0.5)
    hint = f"; did you mean {close[0]!r}?" if close else ""
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
            actual = resolve_metric(found, t.metric)
            if isinstance(actual, bool) or not isinstance(actual, (int, float)):
                note = (
                    _unknown_metric(found, t.metric) if actual is None else "metric is not a number"
                )
                results.append(ThresholdResult(t, model, None, False, note))
                continue
            value = float(actual)
            results.append(ThresholdResult(t, model, value, _OPS[t.op](value, t.value)))
    return results


@dataclass(frozen=True, slots=True)
class Completeness:
    """Whether every selected case was scored; an incomplete run never passes."""

    filtered: bool
    collected: int
    not_run: int
    interrupted: bool
    scored: int
    errors: tuple[dict[str, Any], ...]
    missing: tuple[dict[str, Any], ...]
    shard: bool = False  # one CI shard of a run (--bizbench-shard)
    notes: tuple[str, ...] = ()  # said once, never failing (rows that match no case)
    # prediction sources most of whose rows have the wrong shape: one reason each
    wrong_shapes: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return not (self.errors or self.missing or self.not_run or self.interrupted)

    def as_json(self) -> dict[str, Any]:
        return {
            "complete": self.complete,
            "filtered": self.filtered,
            "collected": self.collected,
            "scored": self.scored,
            "not_run": self.not_run,
            "interrupted": self.interrupted,
            "errors": list(self.errors),
            "missing": list(self.missing),
            "shard": self.shard,
            "notes": list(self.notes),
        }

    def reasons(self) -> list[str]:
        found = []
        if self.interrupted:
            found.append("incomplete run: interrupted before every case was scored")
        if self.not_run:
            found.append(
                f"incomplete run: {self.not_run} of {self.collected} selected items never ran "
                "(stopped early)"
            )
        if self.errors:
            found.append(f"incomplete run: {plural(len(self.errors), 'error')}")
            found += self.wrong_shapes
            found += _once("error", [_error_text(e) for e in self.errors])
        if self.missing:
            found.append(f"incomplete run: {plural(len(self.missing), 'missing prediction')}")
            found += _once("missing", [str(m["message"]) for m in self.missing])
        return found


def _once(kind: str, messages: list[str]) -> list[str]:
    """Each distinct message once, in first-seen order, with how often it came."""
    counts = Counter(messages)
    return [f"  {kind}: {text}" + (f" ({n} times)" if n > 1 else "") for text, n in counts.items()]


def _error_text(error: Mapping[str, Any]) -> str:
    return str(error.get("message") or error.get("nodeid"))


def gate_reasons(
    results: Iterable[ThresholdResult], completeness: Completeness, problems: Iterable[str]
) -> list[str]:
    """Every reason the gate fails, in the order a reader should fix them."""
    reasons = [f"threshold not met: {r.describe()}" for r in results if not r.passed]
    reasons += list(problems)
    reasons += completeness.reasons()
    return reasons
