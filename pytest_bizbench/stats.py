"""Statistics of a comparison: paired deltas, bootstrap and clustered intervals,
McNemar's test, Holm's adjustment and the minimum detectable effect.

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


# Honest comparisons: paired tests, clustered errors, detectable effects.

Z_95 = 1.96  # two-sided 95% normal interval, as the clustered CI is defined
Z_ALPHA = 1.959964  # two-sided alpha = 0.05
Z_POWER = 0.841621  # 80% power


@dataclass(frozen=True, slots=True)
class McNemar:
    """Exact McNemar test on paired pass/fail outcomes.

    Only the discordant cases carry information about a change: `b` passed in the
    baseline and fail now, `c` failed and pass now. Under "no change" each
    discordant case is a fair coin, so the p-value is an exact binomial tail.
    """

    b: int
    c: int
    p_value: float

    @classmethod
    def of(cls, b: int, c: int) -> McNemar:
        return cls(b, c, mcnemar_p(b, c))

    def as_json(self) -> dict[str, object]:
        return {"b": self.b, "c": self.c, "p_value": self.p_value}


def mcnemar_p(b: int, c: int) -> float:
    """min(1, 2 * P(X <= min(b, c))) for X ~ Binomial(b + c, 1/2), exactly.

    The tail is a sum of binomial coefficients, each got from the previous one by
    an exact integer step (C(n, i+1) = C(n, i) * (n - i) / (i + 1)), over 2^(b+c);
    Python's division of two integers rounds once, correctly.
    """
    if b < 0 or c < 0:
        raise ValueError(f"mcnemar: counts must be >= 0, got b={b}, c={c}")
    n = b + c
    if n == 0:
        return 1.0
    term = tail = 1  # C(n, 0)
    for i in range(min(b, c)):
        term = term * (n - i) // (i + 1)
        tail += term
    return 1.0 if 2 * tail >= 2**n else (2 * tail) / 2**n


def mcnemar(pairs: Iterable[tuple[bool, bool]]) -> McNemar:
    """The test over (baseline passed, candidate passed) pairs."""
    b = c = 0
    for before, after in pairs:
        b += before and not after
        c += after and not before
    return McNemar.of(b, c)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment, in the input's order.

    Sorted ascending, the i-th smallest (0-based) of m is multiplied by m - i; a
    running maximum keeps the adjusted values in the same order as the raw ones,
    and nothing exceeds 1.
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: (p_values[i], i))
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def sample_sd(values: Sequence[float]) -> float:
    """Standard deviation with n - 1 in the denominator; 0.0 below two values."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = math.fsum(values) / n
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))


@dataclass(frozen=True, slots=True)
class Clustered:
    """Cluster-robust standard error of a mean delta.

    Cases that share a cluster (questions about one company, fields of one
    document) tend to move together; summing residuals per cluster before squaring
    counts such a block once, so the error does not shrink as if they were
    independent.
    """

    n_clusters: int
    se: float
    ci95: tuple[float, float]

    def as_json(self) -> dict[str, object]:
        return {"n_clusters": self.n_clusters, "se": self.se, "ci95": list(self.ci95)}


def clustered(deltas: Sequence[float], clusters: Sequence[str]) -> Clustered | None:
    """se = sqrt(sum_g (sum_{i in g} (d_i - mean))^2) / n; ci95 = mean -/+ 1.96 se.
    None without any delta."""
    n = len(deltas)
    if n == 0:
        return None
    if len(clusters) != n:
        raise ValueError("clustered: one cluster per delta")
    mean = math.fsum(deltas) / n
    sums: dict[str, list[float]] = {}
    for delta, cluster in zip(deltas, clusters, strict=True):
        sums.setdefault(cluster, []).append(delta - mean)
    se = math.sqrt(math.fsum(math.fsum(r) ** 2 for r in sums.values())) / n
    return Clustered(len(sums), se, (mean - Z_95 * se, mean + Z_95 * se))


def mde(deltas: Sequence[float], clustered_se: float | None = None) -> float | None:
    """The smallest mean delta detectable at alpha = 0.05 with 80% power:
    (z_0.975 + z_0.8) * se, se = sd / sqrt(n), or the clustered se when given.
    None below two deltas (no spread can be estimated)."""
    n = len(deltas)
    if clustered_se is not None:
        return (Z_ALPHA + Z_POWER) * clustered_se if n else None
    if n < 2:
        return None
    return (Z_ALPHA + Z_POWER) * sample_sd(deltas) / math.sqrt(n)
