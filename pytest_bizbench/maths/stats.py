"""Statistics of a comparison: paired deltas, the sign-flip test, bootstrap and
clustered intervals, McNemar's test, Holm's adjustment and the minimum detectable
effect, each meant to hold at every suite size (docs/statistics.md).

Plain numbers in, plain numbers out, and deterministic: the resampling and the
random sign patterns use fixed seeds over the deltas in sorted order, so one set
of deltas always gives the same figures, in any process and whatever order the
cases ran in.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist
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
    p_value: float

    def as_json(self) -> dict[str, object]:
        return {
            "n": self.n,
            "mean_delta": self.mean_delta,
            "ci95": list(self.ci95) if self.ci95 is not None else None,
            "seed": BOOTSTRAP_SEED,
            "resamples": self.resamples,
            "p_value": self.p_value,
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


def _bca_level(z0: float, accel: float, z: float) -> float:
    """The percentile BCa reads instead of Phi(z). Where 1 - a(z0 + z) reaches 0
    the level has run off to its end of the scale."""
    shifted = z0 + z
    denominator = 1.0 - accel * shifted
    if denominator <= 0.0:
        return 1.0 if shifted > 0.0 else 0.0
    return NORMAL.cdf(z0 + shifted / denominator)


def bootstrap_ci(
    deltas: Iterable[float], *, resamples: int | None = None, seed: int = BOOTSTRAP_SEED
) -> tuple[float, float] | None:
    """95% BCa bootstrap interval of the mean; None without any delta.

    The percentile interval is too narrow on small or skewed samples (it covers
    about half the time at n = 5); BCa shifts the percentiles by the bias z0 (the
    normal quantile of the share of resampled means below the mean, ties counting
    half) and the
    skew-driven acceleration a (from the jackknife; for a mean it is
    sum(r^3) / (6 * sum(r^2)^1.5) over the residuals r).
    """
    values = sorted(deltas)
    n = len(values)
    if n == 0:
        return None
    if values[0] == values[-1]:
        return values[0], values[0]
    rng = random.Random(seed)
    count = resamples or resamples_for(n)
    means = sorted(math.fsum(rng.choices(values, k=n)) / n for _ in range(count))
    estimate = math.fsum(values) / n
    # resampled means equal to the estimate count half: on a grid of scores many are
    below = (bisect_left(means, estimate) + bisect_right(means, estimate)) / (2 * count)
    # all resamples on one side make z0 infinite: hold it half a resample inside
    z0 = NORMAL.inv_cdf(min(max(below, 0.5 / count), 1.0 - 0.5 / count))
    residuals = [v - estimate for v in values]
    spread = math.fsum(r * r for r in residuals)
    accel = math.fsum(r**3 for r in residuals) / (6.0 * spread**1.5)
    tail = (1.0 - CONFIDENCE) / 2
    low, high = (
        percentile(means, _bca_level(z0, accel, NORMAL.inv_cdf(q))) for q in (tail, 1.0 - tail)
    )
    return low, high


def paired_deltas(deltas: Iterable[float]) -> PairedDeltas:
    values = sorted(deltas)
    n = len(values)
    mean = math.fsum(values) / n if n else 0.0
    return PairedDeltas(
        n, mean, bootstrap_ci(values), resamples_for(n) if n else 0, sign_flip_p(values)
    )


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

ALPHA = 0.05  # two-sided: "significant" is a Holm-adjusted p below this
POWER = 0.80  # the minimum detectable effect is detected this often
# Below 6 cases the smallest two-sided sign-flip p is 2 / 2^5 = 0.0625, above ALPHA.
MIN_SIGNIFICANT_CASES = 6
EXACT_CASES = 20  # up to this many moved cases every sign pattern is enumerated
SIGN_FLIPS = 20_000  # random sign patterns beyond that
SIGN_FLIP_SEED = 20240917
# Deltas are compared on a grid of 2^-40 (about 1e-12) of the largest |delta|.
GRID_BITS = 40
ONE_CLUSTER = "one cluster: no clustered error"
TOO_FEW_CASES = "fewer than 2 paired cases: no spread to measure"
NORMAL = NormalDist()


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300

    def guard(value: float) -> float:
        return value if abs(value) > tiny else tiny

    c, d = 1.0, 1.0 / guard(1.0 - (a + b) * x / (a + 1.0))
    result = d
    for m in range(1, 100_000):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 / guard(1.0 + numerator * d)
            c = guard(1.0 + numerator / c)
            result *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return result


def regularized_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), by the continued fraction on the side where it converges fast."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with `df` degrees of freedom."""
    tail = 0.5 * regularized_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0.0 else tail


@lru_cache(maxsize=256)
def t_quantile(p: float, df: float) -> float:
    """The t with P(T <= t) = p, by bisection to float resolution: small suites
    need t, not normal, quantiles (t_0.975 is 12.71 with 1 degree of freedom)."""
    if not 0.0 < p < 1.0 or df <= 0:
        raise ValueError(f"t_quantile: need 0 < p < 1 and df > 0, got p={p}, df={df}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        low, high = high, 2.0 * high
    while low < (middle := (low + high) / 2.0) < high:
        low, high = (middle, high) if t_cdf(middle, df) < p else (low, middle)
    return high


def _on_grid(deltas: Iterable[float]) -> list[int]:
    """The nonzero deltas as integers on a grid of 2^-GRID_BITS of the largest
    |delta|: sums of integers are exact, so float noise cannot split a tie."""
    values = [d for d in deltas if d != 0.0]
    if not values:
        return []
    unit = max(abs(d) for d in values) / 2**GRID_BITS
    return [v for v in (round(d / unit) for d in values) if v]


def _signed_sums(weights: Sequence[int]) -> list[int]:
    """sum(s_i * w_i) for every sign pattern s of `weights`."""
    sums = [0]
    for weight in weights:
        sums = [s + weight for s in sums] + [s - weight for s in sums]
    return sums


def _weighted_masks(weights: Sequence[int]) -> list[tuple[int, int]]:
    """(w, mask) pairs with sum(w * popcount(bits & mask)) the weight of the cases
    whose bit is set: one pair per distinct weight when there are few (0/1 scores
    have one), else one per bit plane of the weights (2^j, the cases with bit j)."""
    distinct = sorted(set(weights))
    planes = [1 << j for j in range(max(weights).bit_length())]
    if len(distinct) <= len(planes):
        chosen = [(value, [w == value for w in weights]) for value in distinct]
    else:
        chosen = [(plane, [(w & plane) != 0 for w in weights]) for plane in planes]
    return [
        (value, int("".join("1" if c else "0" for c in reversed(flags)), 2))
        for value, flags in chosen
        if any(flags)
    ]


def sign_flip_p(deltas: Iterable[float]) -> float:
    """Two-sided p of the paired mean delta: the share of sign patterns s whose
    |sum(s_i * |d_i|)| is at least the observed |sum(d_i)|.

    Under "no change" each delta was as likely to have the other sign. A zero delta
    flips to itself, so only the m cases that moved count: all 2^m patterns when
    m <= EXACT_CASES (the same p as all 2^n patterns of the n cases; for 0/1 scores
    the exact McNemar p), else SIGN_FLIPS random patterns from a fixed seed, with
    p = (1 + k) / (SIGN_FLIPS + 1).

    The exact count meets in the middle: the sums of one half of the cases are
    looked up in the sorted sums of the other. A random pattern is m random bits,
    and the weight of the cases whose bit is set is a few big-integer popcounts
    (`_weighted_masks`).
    """
    signed = _on_grid(deltas)
    # Each delta is within half a grid unit of its value, so two sums of m of them
    # that are equal in exact arithmetic (0.25 + 0.5 and 0.75; 1/3 + 1/3 and 2/3)
    # may differ by up to m units: a pattern that close to the observed sum ties it.
    m = len(signed)
    observed = abs(sum(signed)) - m
    if observed <= 0:
        return 1.0  # nothing moved, or the moves cancel: every pattern is as extreme
    weights = sorted(abs(v) for v in signed)  # sorted: the case order does not matter
    if m <= EXACT_CASES:
        left = _signed_sums(weights[: m // 2])
        right = sorted(_signed_sums(weights[m // 2 :]))
        count = sum(
            len(right) - bisect_left(right, observed - x) + bisect_right(right, -observed - x)
            for x in left
        )
        return count / (1 << m)
    total = sum(weights)
    parts = _weighted_masks(weights)
    rng = random.Random(SIGN_FLIP_SEED)
    extreme = 0
    for _ in range(SIGN_FLIPS):
        bits = rng.getrandbits(m)
        plus = sum(weight * (bits & mask).bit_count() for weight, mask in parts)
        extreme += abs(2 * plus - total) >= observed
    return (1 + extreme) / (SIGN_FLIPS + 1)


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
    and nothing exceeds 1. A NaN is no test: it stays NaN and is not counted in m
    (sorting it among numbers would scramble the order).
    """
    tested = [i for i, p in enumerate(p_values) if not math.isnan(p)]
    m = len(tested)
    adjusted = [math.nan] * len(p_values)
    running = 0.0
    for rank, index in enumerate(sorted(tested, key=lambda i: (p_values[i], i))):
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
    """Cluster-robust (CR1) standard error of a mean delta and its t interval.

    Cases that share a cluster (questions about one company, fields of one
    document) tend to move together; summing residuals per cluster before squaring
    counts such a block once, so the error does not shrink as if they were
    independent. With G clusters there are only G observations, hence G/(G-1) and
    t with G - 1 degrees of freedom; one cluster gives no error at all (`note`).
    """

    n_clusters: int
    se: float | None
    ci95: tuple[float, float] | None
    note: str | None = None

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "n_clusters": self.n_clusters,
            "se": self.se,
            "ci95": list(self.ci95) if self.ci95 is not None else None,
        }
        if self.note is not None:
            out["note"] = self.note
        return out


def clustered(deltas: Sequence[float], clusters: Sequence[str]) -> Clustered | None:
    """se^2 = G/(G-1) * sum_g (sum_{i in g} (d_i - mean))^2 / n^2;
    ci95 = mean -/+ t_{0.975, G-1} * se. None without any delta."""
    n = len(deltas)
    if n == 0:
        return None
    if len(clusters) != n:
        raise ValueError("clustered: one cluster per delta")
    mean = math.fsum(deltas) / n
    sums: dict[str, list[float]] = {}
    for delta, cluster in zip(deltas, clusters, strict=True):
        sums.setdefault(cluster, []).append(delta - mean)
    g = len(sums)
    if g < 2:
        return Clustered(g, None, None, ONE_CLUSTER)
    squares = math.fsum(math.fsum(r) ** 2 for r in sums.values())
    se = round(math.sqrt(g / (g - 1) * squares) / n, 12)  # balanced clusters: 0, not 1e-17
    half = t_quantile(1.0 - ALPHA / 2, g - 1) * se
    return Clustered(g, se, (mean - half, mean + half))


@dataclass(frozen=True, slots=True)
class Detectable:
    """The minimum detectable effect, or None with the reason."""

    mde: float | None
    note: str | None = None


def mde(deltas: Sequence[float], robust: Clustered | None = None) -> Detectable:
    """The smallest mean delta detected with 80% power at alpha = 0.05 (two-sided):
    (t_{0.975, df} + t_{0.80, df}) * se, se = sd / sqrt(n) with df = n - 1, or the
    clustered se with df = G - 1. None where df < 1 (nothing to measure spread by)."""
    if robust is not None:
        if robust.se is None:
            return Detectable(None, robust.note)
        se, df = robust.se, robust.n_clusters - 1
    else:
        if len(deltas) < 2:
            return Detectable(None, TOO_FEW_CASES)
        se, df = sample_sd(deltas) / math.sqrt(len(deltas)), len(deltas) - 1
    # rounded like the verdicts: deltas that do not vary give 0, not float noise
    return Detectable(round((t_quantile(1.0 - ALPHA / 2, df) + t_quantile(POWER, df)) * se, 12))
