"""The statistics keep their promises, by simulation (seeded, not timed).

Two equal systems are called significantly different at most 5% of the time, and a
true change the size of the reported minimum detectable effect (MDE) is called a
significant change 78-82% of the time, at 20, 100 and 500 paired cases, with
independent cases and with cases in clusters that move together.

The decision is the plugin's: the sign-flip p below 0.05 (one comparison, so Holm
changes nothing) and, with clusters, 0 outside the CR1 interval with t(G - 1); the
MDE is (t_0.975 + t_0.80) * se. They run vectorised here over thousands of
replicates; `test_the_vectorised_rule_is_the_plugins` checks them against the
plugin's own functions on replicates of every design.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pytest

from pytest_bizbench.maths.stats import GRID_BITS, clustered, mde, sign_flip_p, t_quantile

np = pytest.importorskip("numpy")

REPLICATES = 4000
PATTERNS = 2000  # random sign patterns beyond 20 cases (the plugin takes 20,000)
ALPHA = 0.05
# A rate measured over 4,000 replicates has a standard error of
# sqrt(0.05 * 0.95 / 4000) = 0.0034 at 5% and sqrt(0.8 * 0.2 / 4000) = 0.0063 at 80%:
# a true false-alarm rate of 5% exceeds 0.05 + 2.33 * 0.0034 = 0.058 one time in a
# hundred, and a true detection rate of 80% leaves 78-82% (3.2 standard errors)
# one time in a thousand.
FALSE_ALARM_BOUND = ALPHA + 2.33 * math.sqrt(ALPHA * (1 - ALPHA) / REPLICATES)


@dataclass(frozen=True, slots=True)
class Design:
    n: int
    clusters: int  # 0: independent cases
    seed: int

    @property
    def size(self) -> int:
        return self.n // self.clusters if self.clusters else 1

    def noise(self, rng: Any, replicates: int) -> Any:
        """Deltas of two equal systems: N(0, 1) per case; with clusters, half of the
        variance is shared by the cluster (intra-cluster correlation 0.5)."""
        own = rng.standard_normal((replicates, self.n))
        if not self.clusters:
            return own
        shared = rng.standard_normal((replicates, self.clusters))
        return (np.repeat(shared, self.size, axis=1) + own) / math.sqrt(2)

    def labels(self) -> list[str]:
        return [str(i // self.size) for i in range(self.n)]


DESIGNS = [
    Design(20, 0, 1),
    Design(100, 0, 2),
    Design(500, 0, 3),
    Design(20, 10, 4),  # 10 clusters of 2
    Design(100, 20, 5),  # 20 clusters of 5
    Design(500, 50, 6),  # 50 clusters of 10
]


def _sign_patterns(k: int) -> Any:
    """Every sign pattern of k values, one per row."""
    return 1 - 2 * ((np.arange(2**k)[:, None] >> np.arange(k)) & 1)


def exact_ps(deltas: Any) -> Any:
    """The exact two-sided sign-flip p of each row, meeting in the middle like the
    plugin on the plugin's integer grid, every row in one sorted search (row r's
    sums are shifted by r * 2^50, beyond any sum of 20 weights below 2^41). The
    patterns come in mirrored pairs, so |sum| >= observed is twice sum >= observed."""
    rows, n = deltas.shape
    top = np.abs(deltas).max(axis=1, keepdims=True)
    signed = np.rint(deltas / top * 2**GRID_BITS).astype(np.int64)
    grid, observed = np.abs(signed), np.abs(signed.sum(axis=1))
    half = n // 2
    left = grid[:, :half] @ _sign_patterns(half).T
    right = np.sort(grid[:, half:] @ _sign_patterns(n - half).T, axis=1)
    offset = (np.arange(rows, dtype=np.int64) << 50)[:, None]
    ends = (np.arange(rows)[:, None] + 1) * right.shape[1]
    found = np.searchsorted((right + offset).ravel(), observed[:, None] - left + offset)
    return 2 * (ends - found).sum(axis=1) / 2**n


def sign_flip_ps(deltas: Any, rng: Any) -> Any:
    """The sign-flip p of each row: exact up to 20 cases, else random patterns."""
    if deltas.shape[1] <= 20:
        return exact_ps(deltas)
    signs = rng.choice([-1.0, 1.0], size=(PATTERNS, deltas.shape[1]))
    flipped = np.abs(np.abs(deltas) @ signs.T)
    observed = np.abs(deltas.sum(axis=1, keepdims=True)) * (1 - 1e-12)
    return (1 + (flipped >= observed).sum(axis=1)) / (PATTERNS + 1)


def cr1(design: Design, deltas: Any) -> tuple[Any, Any]:
    """The CR1 standard error of each row's mean, and t_0.975,G-1 times it."""
    g = design.clusters
    residuals = deltas - deltas.mean(axis=1, keepdims=True)
    sums = residuals.reshape(len(deltas), g, design.size).sum(axis=2)
    se = np.sqrt(g / (g - 1) * (sums**2).sum(axis=1)) / design.n
    return se, t_quantile(0.975, g - 1) * se


def reported_mde(design: Design, deltas: Any) -> Any:
    if design.clusters:
        se, df = cr1(design, deltas)[0], design.clusters - 1
    else:
        se, df = deltas.std(axis=1, ddof=1) / math.sqrt(design.n), design.n - 1
    return (t_quantile(0.975, df) + t_quantile(0.80, df)) * se


def significant(design: Design, deltas: Any, rng: Any) -> Any:
    """Each row's decision: p < 0.05 and, with clusters, 0 outside the CR1 interval."""
    decided = sign_flip_ps(deltas, rng) < ALPHA
    if design.clusters:
        decided &= np.abs(deltas.mean(axis=1)) > cr1(design, deltas)[1]
    return decided


def rates(design: Design) -> tuple[float, float]:
    """(false-alarm rate of equal systems, detection rate of the reported MDE).

    The MDE a suite reports is an estimate of its design's MDE: se^2 estimates the
    variance of the mean without bias, so the root mean square of the MDEs the
    equal runs reported is the design's. An independent run with that true change
    is then counted as detected when it is called a significant gain.
    """
    rng = np.random.default_rng(design.seed)
    equal = design.noise(rng, REPLICATES)
    false_alarms = float(np.mean(significant(design, equal, rng)))
    shift = float(np.sqrt(np.mean(reported_mde(design, equal) ** 2)))
    changed = design.noise(rng, REPLICATES) + shift
    detected = significant(design, changed, rng) & (changed.mean(axis=1) > 0)
    return false_alarms, float(np.mean(detected))


@pytest.mark.parametrize("design", DESIGNS, ids=lambda d: f"n{d.n}-clusters{d.clusters}")
def test_false_alarms_at_most_5_percent_and_the_mde_detected_80_percent(design: Design) -> None:
    false_alarms, detected = rates(design)
    assert false_alarms <= FALSE_ALARM_BOUND
    assert 0.78 <= detected <= 0.82


@pytest.mark.parametrize("design", DESIGNS, ids=lambda d: f"n{d.n}-clusters{d.clusters}")
def test_the_vectorised_rule_is_the_plugins(design: Design) -> None:
    rng = np.random.default_rng(design.seed + 100)
    deltas = design.noise(rng, 3) + np.array([[0.0], [0.3], [0.6]])
    ps = sign_flip_ps(deltas, rng)
    for row, p, expected in zip(deltas, ps, reported_mde(design, deltas), strict=True):
        values = [float(v) for v in row]
        robust = clustered(values, design.labels()) if design.clusters else None
        assert mde(values, robust).mde == pytest.approx(float(expected), rel=1e-9)
        # exact up to 20 cases; beyond, both estimate one p from random patterns
        tolerance = 0.0 if design.n <= 20 else 4 * math.sqrt(p * (1 - p) / PATTERNS) + 1e-3
        assert sign_flip_p(values) == pytest.approx(float(p), abs=tolerance)
        if robust is not None:
            assert robust.ci95 is not None
            half = cr1(design, row[None, :])[1][0]
            assert robust.ci95[1] - robust.ci95[0] == pytest.approx(2 * float(half))


@pytest.mark.parametrize("clusters", [2, 5, 10])
def test_the_clustered_interval_covers_95_percent_even_with_two_clusters(clusters: int) -> None:
    # 1.96 with the CR0 error covered 60% of the time with 2 clusters; CR1 with
    # t(G - 1) is the t interval of the cluster means when clusters are equal: 95%
    design = Design(4 * clusters, clusters, clusters)
    deltas = design.noise(np.random.default_rng(design.seed), REPLICATES)
    covered = np.abs(deltas.mean(axis=1)) <= cr1(design, deltas)[1]
    assert abs(float(np.mean(covered)) - 0.95) <= 3.2 * math.sqrt(0.95 * 0.05 / REPLICATES)
