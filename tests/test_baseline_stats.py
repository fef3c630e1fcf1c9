"""The paired-delta statistics behind baseline verdicts: a deterministic bootstrap CI."""

from __future__ import annotations

import math
import random

import pytest

from pytest_bizbench.maths.stats import (
    BOOTSTRAP_SEED,
    MIN_RESAMPLES,
    RESAMPLES,
    bootstrap_ci,
    histogram,
    paired_deltas,
    resamples_for,
)


def test_ci_of_one_case_in_ten_improving_by_one_is_worked_out_by_hand() -> None:
    # Deltas: nine 0s and one 1, mean 0.1. A resample's mean is K/10 where K, the
    # number of times the 1 is drawn, is Binomial(10, 0.1):
    #   P(K=0) = 0.9^10             = 0.3487  cumulative 0.3487
    #   P(K=1) = 10 * 0.1 * 0.9^9   = 0.3874  cumulative 0.7361
    #   P(K=2) = 45 * 0.01 * 0.9^8  = 0.1937  cumulative 0.9298
    #   P(K=3) = 120 * 1e-3 * 0.9^7 = 0.0574  cumulative 0.9872
    #   P(K=4) = 210 * 1e-4 * 0.9^6 = 0.0112  cumulative 0.9984
    # BCa: the share below the mean, ties (K = 1) counting half, is 0.3487 + 0.1937
    # = 0.5424, so z0 = 0.107; residuals nine -0.1 and one 0.9 give the acceleration
    # a = 0.72 / (6 * 0.9^1.5) = 0.1406. The levels read are
    #   Phi(z0 + (z0 - 1.96) / (1 - a(z0 - 1.96))) = Phi(-1.364) = 0.086  (K = 0)
    #   Phi(z0 + (z0 + 1.96) / (1 - a(z0 + 1.96))) = Phi(3.019)  = 0.9987
    # the upper one on the edge of K = 4 and K = 5: the skew pushes it far out.
    summary = paired_deltas([0.0] * 9 + [1.0])
    assert summary.n == 10
    assert summary.mean_delta == pytest.approx(0.1)
    assert summary.ci95 is not None
    assert summary.ci95[0] == 0.0
    assert 0.4 <= summary.ci95[1] <= 0.5
    assert summary.resamples == RESAMPLES
    assert summary.p_value == 1.0  # one case moved: +1 and -1 are as extreme


def test_ci_of_three_cases_by_hand() -> None:
    # Deltas 0, 0, 1: a resample's mean is K/3 with K ~ Binomial(3, 1/3):
    # P(K=0) = 8/27, P(K=1) = 12/27, P(K=2) = 6/27, P(K=3) = 1/27. The share below
    # 1/3 with ties halved is 14/27, z0 = 0.046; residuals -1/3, -1/3, 2/3 give
    # a = (2/9) / (6 * (2/3)^1.5) = 0.068. Levels Phi(-1.647) = 0.050 (inside K = 0,
    # cumulative 0.296) and Phi(0.046 + 2.007 / (1 - 0.068 * 2.007)) = Phi(2.370)
    # = 0.991 (inside K = 3, above 26/27 = 0.963): [0, 1].
    assert bootstrap_ci([0.0, 1.0, 0.0]) == (0.0, 1.0)


def test_bca_of_a_symmetric_pair_is_the_percentile_interval() -> None:
    # -1 and +1: resampled means -1, 0, 1 with chances 1/4, 1/2, 1/4; half the ties
    # make the share below 0 exactly 1/2, so z0 = 0, and the residuals' cubes cancel,
    # so a = 0: the levels are 2.5% and 97.5%, inside the atoms at -1 and +1
    assert bootstrap_ci([1.0, -1.0]) == (-1.0, 1.0)


def test_constant_deltas_have_a_point_interval_and_no_deltas_none() -> None:
    assert bootstrap_ci([-0.25] * 7) == (-0.25, -0.25)
    assert bootstrap_ci([-1.0]) == (-1.0, -1.0)  # one case: the interval is the point
    assert bootstrap_ci([]) is None
    empty = paired_deltas([])
    assert (empty.n, empty.mean_delta, empty.ci95, empty.p_value) == (0, 0.0, None, 1.0)
    # seven equal drops: the exact sign-flip p is 2 / 2^7
    assert paired_deltas([-0.25] * 7).p_value == 2 / 128


@pytest.mark.parametrize("resamples", [1, 2, 3, 5])
def test_bca_survives_an_infinite_bias_correction(resamples: int) -> None:
    # with a handful of resamples every resampled mean can sit on one side of the
    # mean (z0 = -inf or +inf): the share is held half a resample inside (0, 1)
    low, high = bootstrap_ci([0.0, 1.0], resamples=resamples) or (math.nan, math.nan)
    assert 0.0 <= low <= high <= 1.0


def test_bca_survives_an_acceleration_past_the_pole() -> None:
    # one 1 among 2,000 deltas: a = 1998 / (6 * sqrt(1999)) = 7.45, so 1 - a(z0 + 1.96)
    # is negative: the upper level runs to 1 (the largest resampled mean), the lower
    # one stays in K = 0 (P(K=0) = 0.37)
    low, high = bootstrap_ci([0.0] * 1999 + [1.0], resamples=200) or (math.nan, math.nan)
    assert low == 0.0
    assert 0.0005 < high <= 0.01
    assert math.isfinite(high)


def test_the_interval_is_reproducible_and_independent_of_case_order() -> None:
    rng = random.Random(1)
    deltas = [rng.uniform(-1, 1) for _ in range(300)]
    first = bootstrap_ci(deltas)
    shuffled = list(deltas)
    rng.shuffle(shuffled)
    assert bootstrap_ci(shuffled) == first
    assert bootstrap_ci(deltas, seed=BOOTSTRAP_SEED + 1) != first


def test_large_sample_interval_matches_the_normal_approximation() -> None:
    # 200 deltas of +0.5 (94 cases) and -0.5 (106 cases): mean -0.03,
    # sd = 0.5 * sqrt(1 - 0.06^2) = 0.4991, standard error 0.4991 / sqrt(200) = 0.0353,
    # so the CI is close to -0.03 -/+ 1.96 * 0.0353 = [-0.0992, +0.0392].
    summary = paired_deltas([0.5] * 94 + [-0.5] * 106)
    assert summary.mean_delta == pytest.approx(-0.03)
    assert summary.ci95 is not None
    low, high = summary.ci95
    assert low == pytest.approx(-0.0992, abs=0.01)
    assert high == pytest.approx(0.0392, abs=0.01)
    assert summary.p_value > 0.05  # 94 up, 106 down is no change


def test_resamples_shrink_only_for_very_large_comparisons() -> None:
    assert resamples_for(200) == RESAMPLES
    assert resamples_for(5_000) == RESAMPLES
    assert resamples_for(10_000) == 1_000
    assert resamples_for(1_000_000) == MIN_RESAMPLES


def test_histogram_bins_below_at_and_above_zero() -> None:
    bins = histogram([-1.0, -0.95, -0.05, 0.0, 0.0, 0.1, 0.3, 1.0])
    counts = {tuple(b["range"]): b["count"] for b in bins}
    assert len(bins) == 21
    assert counts[(-1.0, -0.9)] == 2  # -1.0 and -0.95: [lo, hi) below zero
    assert counts[(-0.1, 0.0)] == 1
    assert counts[(0.0, 0.0)] == 2  # exactly unchanged
    assert counts[(0.0, 0.1)] == 1  # 0.1: (lo, hi] above zero
    assert counts[(0.2, 0.3)] == 1
    assert counts[(0.9, 1.0)] == 1
    assert sum(b["count"] for b in bins) == 8
