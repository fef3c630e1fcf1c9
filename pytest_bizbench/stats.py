"""Paired per-case deltas and their bootstrap confidence interval (SPEC §7).

Plain numbers in, plain numbers out, and deterministic: the resampling uses a
fixed seed over the deltas in sorted order, so one set of deltas always gives
the same interval, in any process and whatever order the cases ran in.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

BOOTSTRAP_SEED = 20240917
RESAMPLES = 2000
MIN_RESAMPLES = 500
# Above this many draws (resamples x cases) fewer resamples are taken, so a
# 20,000-case comparison costs about half a second instead of several.
DRAW_BUDGET = 10_000_000
CONFIDENCE = 0.95
# Delta histogram: ten bins of 0.1 either side of an exact-zero bin, because
# most cases of a stable system do not move at all.
HISTOGRAM_EDGES = tuple(round(-1.0 + 0.1 * i, 1) for i in range(21))


@dataclass(frozen=True, slots=True)
class PairedDeltas:
    """Summary of candidate-minus-baseline deltas over the cases both scored."""

    n: int
    mean_delta: float
    ci95: tuple[float, float] | None
    resamples: int

    @property
    def significant(self) -> bool:
        """The interval excludes 0, so the direction of the change is not chance."""
        return self.ci95 is not None and (self.ci95[0] > 0.0 or self.ci95[1] < 0.0)

    def as_json(self) -> dict[str, object]:
        return {
            "n": self.n,
            "mean_delta": self.mean_delta,
            "ci95": list(self.ci95) if self.ci95 is not None else None,
            "seed": BOOTSTRAP_SEED,
            "resamples": self.resamples,
            "significant": self.significant,
        }


def resamples_for(n: int) -> int:
    return max(MIN_RESAMPLES, min(RESAMPLES, DRAW_BUDGET // max(n, 1)))


def percentile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default method)."""
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    fraction = position - low
    if fraction == 0.0 or ordered[low] == ordered[high]:
        return ordered[low]
    return ordered[low] + (ordered[high] - ordered[low]) * fraction


def bootstrap_ci(
    deltas: Iterable[float], *, resamples: int | None = None, seed: int = BOOTSTRAP_SEED
) -> tuple[float, float] | None:
    """95% percentile bootstrap interval of the mean; None without any delta."""
    values = sorted(deltas)
    n = len(values)
    if n == 0:
        return None
    if values[0] == values[-1]:
        return values[0], values[0]
    rng = random.Random(seed)
    count = resamples or resamples_for(n)
    means = sorted(math.fsum(rng.choices(values, k=n)) / n for _ in range(count))
    tail = (1.0 - CONFIDENCE) / 2
    return percentile(means, tail), percentile(means, 1.0 - tail)


def paired_deltas(deltas: Iterable[float]) -> PairedDeltas:
    values = sorted(deltas)
    n = len(values)
    mean = math.fsum(values) / n if n else 0.0
    return PairedDeltas(n, mean, bootstrap_ci(values), resamples_for(n) if n else 0)


def histogram(deltas: Iterable[float]) -> list[dict[str, Any]]:
    """Counts per delta bin: `[lo, hi)` below zero, exactly zero, `(lo, hi]` above."""
    edges = HISTOGRAM_EDGES
    negative = [0] * 10
    positive = [0] * 10
    zero = 0
    for value in deltas:
        if value == 0.0:
            zero += 1
        elif value < 0.0:
            negative[min(9, max(0, math.floor((value + 1.0) * 10 + 1e-9)))] += 1
        else:
            positive[min(9, max(0, math.ceil(value * 10 - 1e-9) - 1))] += 1
    bins: list[dict[str, Any]] = [
        {"range": [edges[i], edges[i + 1]], "count": negative[i]} for i in range(10)
    ]
    bins.append({"range": [0.0, 0.0], "count": zero})
    bins += [{"range": [edges[10 + i], edges[11 + i]], "count": positive[i]} for i in range(10)]
    return bins
