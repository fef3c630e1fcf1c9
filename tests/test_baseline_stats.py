"""The paired-delta statistics behind baseline verdicts: a deterministic bootstrap CI."""

from __future__ import annotations

import random

import pytest

from pytest_bizbench.stats import (
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
    #   P(K=0) = 0.9^10            = 0.3487  cumulative 0.3487
    #   P(K=1) = 10 * 0.1 * 0.9^9  = 0.3874  cumulative 0.7361
    #   P(K=2) = 45 * 0.01 * 0.9^8 = 0.1937  cumulative 0.9298
    #   P(K=3) = 120 * 1e-3 * 0.9^7 = 0.0574 cumulative 0.9872
    # The 2.5% quantile falls in K=0 and the 97.5% quantile in K=3 (0.9298 < 0.975
    # <= 0.9872), far from either edge for 2000 resamples: CI = [0.0, 0.3].
    summary = paired_deltas([0.0] * 9 + [1.0])
    assert summary.n == 10
    assert summary.mean_delta == pytest.approx(0.1)
    assert summary.ci95 == (0.0, pytest.approx(0.3))
    assert summary.resamples == RESAMPLES
    assert summary.significant is False  # the interval touches 0


def test_ci_of_three_cases_by_hand() -> None:
    # Deltas 0, 0, 1: a resample's mean is K/3 with K ~ Binomial(3, 1/3);
    # P(K=3) = 1/27 = 3.7% > 2.5%, so the upper end is 1.0, and P(K=0) = 8/27
    # puts the lower end at 0.0.
    assert bootstrap_ci([0.0, 1.0, 0.0]) == (0.0, 1.0)


def test_constant_deltas_have_a_point_interval_and_no_deltas_none() -> None:
    assert bootstrap_ci([-0.25] * 7) == (-0.25, -0.25)
    assert bootstrap_ci([]) is None
    empty = paired_deltas([])
    assert (empty.n, empty.mean_delta, empty.ci95, empty.significant) == (0, 0.0, None, False)
    assert paired_deltas([-0.25] * 7).significant is True


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
    assert summary.significant is False


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
