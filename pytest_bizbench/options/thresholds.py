"""A gate threshold as written on the command line or in the ini file."""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

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


def parse_threshold(text: str) -> Threshold:
    """Parse one threshold; ValueError says what is wrong and shows the syntax."""
    syntax = "expected BENCH[:MODEL]:METRIC OP VALUE with OP one of >= > <= <"
    match = _THRESHOLD.match(text)
    if not match:
        raise ValueError(f"bad threshold {text!r}: {syntax}")
    # a benchmark's name holds no ':' and a metric path's neither, but a model's may
    # (`llama3:8b`): the first ':' ends the benchmark, the last starts the metric
    benchmark, has_metric, rest = match["target"].partition(":")
    model, has_model, metric = rest.rpartition(":")
    parts = [benchmark.strip(), model.strip(), metric.strip()]
    if not has_metric or not parts[0] or not parts[2] or (has_model and not parts[1]):
        raise ValueError(f"bad threshold {text!r}: {syntax}")
    if not _NUMBER.fullmatch(match["value"]):
        raise ValueError(f"bad threshold {text!r}: {match['value']!r} is not a number")
    value = float(match["value"])
    if not math.isfinite(value):
        raise ValueError(f"bad threshold {text!r}: the value must be finite")
    return Threshold(
        parts[0], parts[1] if has_model else None, parts[2], match["op"], value, text.strip()
    )


def did_you_mean(name: str, known: Iterable[str], cutoff: float = 0.5) -> str:
    """`; did you mean 'x'?` for the known name closest to a mistyped one, or ''."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=cutoff)
    return f"; did you mean {close[0]!r}?" if close else ""


def _closest(name: str, known: Sequence[str]) -> str:
    return did_you_mean(name, known, cutoff=0.6) or f" (known: {', '.join(known)})"


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
