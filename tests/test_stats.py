"""The statistics of an honest comparison, against values worked out by hand or by an
independent formula: the sign-flip test, McNemar, Holm, Student's t, clustered
errors, MDE, pass^k, flips."""

from __future__ import annotations

import itertools
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_bizbench.maths.stats import (
    Clustered,
    Detectable,
    clustered,
    holm,
    mcnemar,
    mcnemar_p,
    mde,
    sample_sd,
    sign_flip_p,
    t_cdf,
    t_quantile,
)
from pytest_bizbench.scoring.passk import (
    flaky_cases,
    flaky_message,
    pass_at_k,
    pass_hat_k,
    sample_details,
    sample_metrics,
)


def binomial_tail(n: int, x: int) -> float:
    """P(X <= x) for X ~ Binomial(n, 1/2), as a float sum of the probabilities."""
    return sum(math.comb(n, i) * 0.5**n for i in range(x + 1))


@pytest.mark.parametrize(
    ("b", "c", "p"),
    [
        (0, 0, 1.0),  # no discordant case: nothing to test
        (0, 5, 0.0625),  # 2 * C(5,0) / 2^5 = 2/32
        (5, 0, 0.0625),  # symmetric
        (1, 4, 0.375),  # 2 * (1 + 5) / 32 = 12/32
        (2, 2, 1.0),  # 2 * (1 + 4 + 6) / 16 = 22/16, capped at 1
        (3, 10, 756 / 8192),  # 2 * (1 + 13 + 78 + 286) / 2^13
    ],
)
def test_mcnemar_by_hand(b: int, c: int, p: float) -> None:
    assert mcnemar_p(b, c) == p


@pytest.mark.parametrize(("b", "c"), [(1, 9), (7, 3), (12, 30), (40, 41), (0, 17)])
def test_mcnemar_equals_a_direct_binomial_sum(b: int, c: int) -> None:
    assert mcnemar_p(b, c) == pytest.approx(min(1.0, 2 * binomial_tail(b + c, min(b, c))))


def test_mcnemar_stays_exact_for_large_counts() -> None:
    # 1,000 discordant cases: C(1000, i) overflows a float, the integer sum does not
    assert mcnemar_p(400, 600) == pytest.approx(2 * binomial_tail(1000, 400), rel=1e-9)
    assert 0.0 < mcnemar_p(400, 600) < 1e-9


def test_mcnemar_counts_discordant_pairs_only() -> None:
    # (baseline passed, candidate passed): two passed->failed, one failed->passed,
    # three concordant pairs that carry no information
    pairs = [(True, False), (True, False), (False, True), (True, True), (False, False)]
    test = mcnemar([*pairs, (True, True)])
    assert (test.b, test.c) == (2, 1)
    assert test.p_value == 1.0  # 2 * (1 + 3) / 8 = 1
    assert test.as_json() == {"b": 2, "c": 1, "p_value": 1.0}


def test_mcnemar_refuses_negative_counts() -> None:
    with pytest.raises(ValueError, match="must be >= 0"):
        mcnemar_p(-1, 3)


def test_holm_textbook_example() -> None:
    # m = 4; sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04;
    # the running maximum lifts the last to 0.06. Back in input order:
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_holm_caps_at_one_and_keeps_an_empty_family() -> None:
    assert holm([0.5, 0.6]) == [1.0, 1.0]  # 2 * 0.5 = 1.0; max(1.0, 0.6)
    assert holm([]) == []
    assert holm([0.2]) == [0.2]  # one comparison: nothing to adjust


def test_holm_leaves_a_nan_out_of_the_family() -> None:
    # a NaN is no test: m counts the two numbers, 0.01 * 2 and max(0.02, 0.04 * 1)
    adjusted = holm([math.nan, 0.01, 0.04])
    assert math.isnan(adjusted[0])
    assert adjusted[1:] == pytest.approx([0.02, 0.04])
    assert holm([math.nan, 0.01])[1] == 0.01  # one real test: nothing to adjust


# Student's t: one and two degrees of freedom have closed forms (Cauchy, and
# t = (2p - 1) / sqrt(2p(1 - p))); the rest are the printed table's values.
@pytest.mark.parametrize("p", [0.6, 0.8, 0.9, 0.975, 0.995])
def test_t_quantile_matches_the_closed_forms(p: float) -> None:
    assert t_quantile(p, 1) == pytest.approx(math.tan(math.pi * (p - 0.5)), rel=1e-12)
    assert t_quantile(p, 2) == pytest.approx((2 * p - 1) / math.sqrt(2 * p * (1 - p)), rel=1e-12)
    assert t_quantile(1 - p, 3) == -t_quantile(p, 3)


@pytest.mark.parametrize(
    ("p", "df", "table"),
    [
        (0.975, 1, 12.7062),
        (0.975, 4, 2.7764),
        (0.80, 9, 0.8834),
        (0.975, 29, 2.0452),
        (0.975, 120, 1.9799),
        (0.80, 1000, 0.8420),
    ],
)
def test_t_quantile_matches_the_table(p: float, df: int, table: float) -> None:
    assert round(t_quantile(p, df), 4) == table


def test_t_cdf_by_hand_and_for_huge_df() -> None:
    assert t_cdf(1.0, 1) == pytest.approx(0.75)  # 1/2 + atan(1)/pi
    assert t_cdf(0.0, 7) == 0.5
    assert t_cdf(-2.0, 5) == pytest.approx(1 - t_cdf(2.0, 5))
    # a million degrees of freedom: the normal quantile 1.959964
    assert t_quantile(0.975, 1_000_000) == pytest.approx(1.959964, abs=1e-5)
    with pytest.raises(ValueError, match="need 0 < p < 1"):
        t_quantile(1.0, 3)


def test_clustered_se_by_hand() -> None:
    # deltas 1, 0 in cluster a and -1, 0.5 in b; mean 0.125. Residual sums per
    # cluster: a 0.875 - 0.125 = 0.75, b -1.125 + 0.375 = -0.75. CR1 with G = 2:
    # se^2 = 2/1 * (0.5625 + 0.5625) / 4^2, se = 1.5 / 4 = 0.375; t with 1 df.
    result = clustered([1.0, 0.0, -1.0, 0.5], ["a", "a", "b", "b"])
    assert result is not None
    half = math.tan(math.pi * 0.475) * 0.375  # t_0.975,1 = 12.706
    assert (result.n_clusters, result.se, result.note) == (2, 0.375, None)
    assert result.ci95 == pytest.approx((0.125 - half, 0.125 + half))
    assert result.as_json() == {
        "n_clusters": 2,
        "se": 0.375,
        "ci95": [pytest.approx(0.125 - half), pytest.approx(0.125 + half)],
    }
    assert clustered([], []) is None


def test_one_cluster_has_no_error_and_says_so() -> None:
    result = clustered([-1.0, 0.0, -0.5], ["acme"] * 3)
    assert result == Clustered(1, None, None, "one cluster: no clustered error")
    assert result.as_json() == {
        "n_clusters": 1,
        "se": None,
        "ci95": None,
        "note": "one cluster: no clustered error",
    }
    assert mde([-1.0, 0.0, -0.5], result) == Detectable(None, "one cluster: no clustered error")


def test_clustered_sees_moves_that_independent_errors_miss() -> None:
    # two companies, five questions each; each company's questions all move together
    deltas = [1.0] * 5 + [-1.0] * 5
    naive = sample_sd(deltas) / math.sqrt(10)  # sd = sqrt(10/9): 0.333
    robust = clustered(deltas, ["acme"] * 5 + ["initech"] * 5)
    assert robust is not None
    # residual sums 5 and -5: se^2 = 2/1 * 50 / 10^2 = 1, three times the naive one
    assert robust.se == pytest.approx(1.0)
    assert robust.ci95 == pytest.approx((-math.tan(math.pi * 0.475), math.tan(math.pi * 0.475)))
    assert robust.se > 2 * naive


def test_mde_by_hand() -> None:
    # deltas 0.1, -0.1, 0.3: mean 0.1, residuals 0, -0.2, 0.2, sd = sqrt(0.08 / 2) = 0.2,
    # se = 0.2 / sqrt(3), df = 2: t_0.975 = 0.95 / sqrt(0.04875), t_0.8 = 0.6 / sqrt(0.32)
    t_sum = 0.95 / math.sqrt(0.04875) + 0.6 / math.sqrt(0.32)  # 4.3027 + 1.0607
    assert mde([0.1, -0.1, 0.3]).mde == pytest.approx(t_sum * 0.2 / math.sqrt(3))  # 0.619
    # two cases, one of which broke: sd = sqrt(0.5), se = 0.5, df = 1: the suite
    # detects only drops of 7, far beyond any score's range
    two = mde([0.0, -1.0]).mde
    assert two == pytest.approx((math.tan(math.pi * 0.475) + math.tan(math.pi * 0.3)) * 0.5)
    assert mde([0.5]) == Detectable(None, "fewer than 2 paired cases: no spread to measure")
    assert mde([0.0] * 10) == Detectable(0.0)


def test_clustered_mde_uses_the_cr1_error_and_g_minus_1_df() -> None:
    robust = clustered([1.0, 0.0, -1.0, 0.5], ["a", "a", "b", "b"])  # se 0.375, G = 2
    assert mde([1.0, 0.0, -1.0, 0.5], robust).mde == pytest.approx(
        (math.tan(math.pi * 0.475) + math.tan(math.pi * 0.3)) * 0.375
    )


# The sign-flip test, enumerated by hand.


@pytest.mark.parametrize(
    ("deltas", "p"),
    [
        ([-1.0], 1.0),  # one case that broke: +1 and -1 are both as extreme
        ([-1.0, -1.0], 0.5),  # sums -2, 0, 0, +2: two of four reach 2
        ([-1.0] * 4 + [0.0] * 6, 0.125),  # 4 of 10 broke: 2 of 16 patterns
        ([-1.0] * 4 + [0.0] * 196, 0.125),  # the unmoved cases change nothing
        ([-1.0] * 5, 0.0625),  # 2/32: five cases can never reach 0.05
        ([-1.0] * 6, 0.03125),  # 2/64: six can
        # |sum| 1.5 of magnitudes 1, 0.5, 0.25, 0.25: with +1 first, 1 + 0.5 + (-0.5,
        # 0, 0, 0.5) gives 1.0, 1.5, 1.5, 2.0 (three reach 1.5), 1 - 0.5 + ... none;
        # mirrored for -1: 6 of 16, the two ties with the observed sum included
        ([-0.5, -0.25, 0.25, -1.0], 0.375),
        ([-0.1, -0.2, 0.3], 1.0),  # 0.1 + 0.2 - 0.3 is a tie, not a float's 5.6e-17
        # |d| 0.25, 0.25, 0.5, 0.75, 0.75 sum to 2.5; a pattern flipping |d| worth S sums
        # to 2.5 - 2S, as extreme as the observed 1.5 when S <= 0.5 or S >= 2: {},
        # {.25a}, {.25b}, {.5}, {.25a, .25b} and their five complements: 10 of 32.
        # {.25, .25} ties {.5} only in exact arithmetic: on a grid set by 0.75, 0.25 is
        # not a whole number of units
        ([0.5, 0.75, -0.25, -0.25, 0.75], 0.3125),
        # the same in thirds, as documents of three fields score: 10 of 32
        ([1 / 3, 2 / 3, -1 / 6, -1 / 6, 2 / 3], 0.3125),
        ([0.0, 0.0], 1.0),
        ([], 1.0),
    ],
)
def test_sign_flip_p_by_hand(deltas: list[float], p: float) -> None:
    assert sign_flip_p(deltas) == p


@given(st.integers(0, 12), st.integers(0, 8), st.integers(0, 5))
def test_sign_flip_on_0_1_scores_is_the_exact_mcnemar(b: int, c: int, same: int) -> None:
    assert sign_flip_p([-1.0] * b + [1.0] * c + [0.0] * same) == mcnemar_p(b, c)


def test_sign_flip_beyond_20_moved_cases_samples_20000_patterns() -> None:
    # 30 broke and 15 were fixed: the exact (McNemar) p is 0.0357; 20,000 random
    # patterns estimate it within 4 standard errors, sqrt(p(1 - p) / 20000) = 0.0013
    p = sign_flip_p([-1.0] * 30 + [1.0] * 15)
    assert p * 20_001 == pytest.approx(round(p * 20_001))  # (1 + k) / 20001
    assert abs(p - mcnemar_p(30, 15)) < 4 * 0.0013
    assert sign_flip_p([1.0] * 15 + [-1.0] * 30) == p  # the case order does not matter
    assert sign_flip_p([-1.0] * 30) == 1 / 20_001  # no pattern beats all 30 down


@pytest.mark.parametrize(
    ("n", "c", "k", "hat", "at"),
    [
        (5, 3, 2, 3 / 10, 1 - 1 / 10),  # C(3,2)/C(5,2); 1 - C(2,2)/C(5,2)
        (4, 4, 3, 1.0, 1.0),
        (4, 0, 1, 0.0, 0.0),
        (10, 7, 1, 0.7, 0.7),  # k = 1: both are the share passed
        (3, 2, 3, 0.0, 1.0),  # all three can't pass; one of three always does
    ],
)
def test_pass_hat_k_by_hand(n: int, c: int, k: int, hat: float, at: float) -> None:
    assert pass_hat_k(n, c, k) == pytest.approx(hat)
    assert pass_at_k(n, c, k) == pytest.approx(at)


def test_pass_hat_k_shares_the_domain_of_pass_at_k() -> None:
    with pytest.raises(ValueError, match="pass_hat_k: k=4 > n=3"):
        pass_hat_k(3, 1, 4)
    with pytest.raises(ValueError, match=r"c=5 must be within 0\.\.n=3"):
        pass_hat_k(3, 5, 1)


def test_sample_details_flip_only_when_samples_disagree() -> None:
    assert sample_details(3, 1, (1, 4)) == {
        "pass_at_k": {"1": pytest.approx(1 / 3), "4": None},
        "pass_at_k_note": "k=4 > n=3",
        "pass_hat_k": {"1": pytest.approx(1 / 3), "4": None},
        "flip": True,
    }
    assert sample_details(3, 3, (1,))["flip"] is False
    assert sample_details(3, 0, (1,))["flip"] is False
    assert sample_details(1, 1, (1,))["flip"] is False


def qa_details(n: int, c: int, ks: tuple[int, ...] = (1, 3)) -> dict[str, Any]:
    return {"samples": {"n": n, "correct": c}, **sample_details(n, c, ks)}


def test_sample_metrics_by_hand() -> None:
    # A: 1 of 3 (flips), B: 3 of 3, C: a single sample (left out of flip_rate)
    rows = [qa_details(3, 1), qa_details(3, 3), qa_details(1, 1)]
    metrics = sample_metrics(rows)
    assert metrics["flip_rate"] == 0.5  # one of the two cases with n >= 2
    assert metrics["pass_hat_1"] == pytest.approx((1 / 3 + 1 + 1) / 3)
    assert metrics["pass_hat_3"] == 0.5  # A 0, B 1; C has n < 3
    assert metrics["pass_at_3"] == 1.0  # A 1 - C(2,3)/C(3,3) = 1, B 1
    assert sample_metrics([{"score": 1.0}]) == {}  # no document has samples


def test_flaky_cases_and_message_read_qa_samples_and_agent_runs() -> None:
    qa = {"case": "q.qa.jsonl", "id": "q1", "details": qa_details(5, 2)}
    runs = {"n": 4, "passed": 1}
    agent = {"case": "t.jsonl", "id": "t1", "details": {"runs": runs, **sample_details(4, 1, (1,))}}
    steady = {"case": "q.qa.jsonl", "id": "q2", "details": qa_details(5, 5)}
    assert flaky_cases([qa, steady, agent]) == [
        {"case": "q.qa.jsonl", "id": "q1", "n": 5, "passed": 2},
        {"case": "t.jsonl", "id": "t1", "n": 4, "passed": 1},
    ]
    assert flaky_message(qa["details"]) == "flaky: 2 of 5 samples passed"
    assert flaky_message(steady["details"]) is None


# Invariants


counts = st.tuples(st.integers(0, 60), st.integers(0, 60))


@given(counts)
def test_mcnemar_p_is_a_probability_and_symmetric(bc: tuple[int, int]) -> None:
    b, c = bc
    p = mcnemar_p(b, c)
    assert 0.0 <= p <= 1.0
    assert p == mcnemar_p(c, b)


@given(st.lists(st.floats(0.0, 1.0), max_size=12))
def test_holm_is_monotone_capped_and_never_below_the_raw_p(ps: list[float]) -> None:
    adjusted = holm(ps)
    assert all(raw <= adj <= 1.0 for raw, adj in zip(ps, adjusted, strict=True))
    ranked = sorted(zip(ps, adjusted, strict=True))
    assert all(a[1] <= b[1] for a, b in itertools.pairwise(ranked))


samples = st.integers(1, 12).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n)))


@given(samples, st.integers(1, 12))
def test_pass_hat_k_never_exceeds_pass_at_k(nc: tuple[int, int], k: int) -> None:
    n, c = nc
    if k > n:
        return
    assert 0.0 <= pass_hat_k(n, c, k) <= pass_at_k(n, c, k) <= 1.0


@given(st.lists(samples, min_size=1, max_size=10), st.booleans())
def test_flip_rate_is_zero_when_all_samples_agree(cases: list[tuple[int, int]], up: bool) -> None:
    rows = [qa_details(n, n if up else 0) for n, _ in cases]
    rate = sample_metrics(rows)["flip_rate"]
    assert rate == (0.0 if any(n >= 2 for n, _ in cases) else None)


@given(st.lists(st.floats(-1.0, 1.0), min_size=2, max_size=30))
def test_singleton_clusters_give_the_plain_error(deltas: list[float]) -> None:
    # one case per cluster: se^2 = n/(n - 1) * sum (d - mean)^2 / n^2 = sd^2 / n
    n = len(deltas)
    result = clustered(deltas, [str(i) for i in range(n)])
    assert result is not None
    assert result.se == pytest.approx(sample_sd(deltas) / math.sqrt(n), abs=1e-12)
    assert result.ci95 is not None
    assert result.ci95[0] <= math.fsum(deltas) / n <= result.ci95[1] + 1e-12
    # the clustered se is rounded to 12 decimals, then multiplied by t sums up to 14
    assert mde(deltas, result).mde == pytest.approx(mde(deltas).mde, abs=1e-10)
