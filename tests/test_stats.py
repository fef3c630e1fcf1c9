"""The statistics of an honest comparison, against values worked out by hand or by an
independent formula: McNemar, Holm, clustered errors, MDE, pass^k, flips."""

from __future__ import annotations

import itertools
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_bizbench.scoring.passk import (
    flaky_cases,
    flaky_message,
    pass_at_k,
    pass_hat_k,
    sample_details,
    sample_metrics,
)
from pytest_bizbench.stats import clustered, holm, mcnemar, mcnemar_p, mde, sample_sd


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


def test_clustered_se_by_hand() -> None:
    # deltas 1, 0 in cluster a and -1, 0.5 in b; mean 0.125. Residual sums per
    # cluster: a 0.875 - 0.125 = 0.75, b -1.125 + 0.375 = -0.75. se = sqrt(0.5625 * 2) / 4
    result = clustered([1.0, 0.0, -1.0, 0.5], ["a", "a", "b", "b"])
    assert result is not None
    se = math.sqrt(1.125) / 4
    assert result.n_clusters == 2
    assert result.se == pytest.approx(se)
    assert result.ci95 == pytest.approx((0.125 - 1.96 * se, 0.125 + 1.96 * se))
    assert clustered([], []) is None


def test_clustered_sees_moves_that_independent_errors_miss() -> None:
    # two companies, five questions each; each company's questions all move together
    deltas = [1.0] * 5 + [-1.0] * 5
    naive = sample_sd(deltas) / math.sqrt(10)  # sd = sqrt(10/9): 0.333
    robust = clustered(deltas, ["acme"] * 5 + ["initech"] * 5)
    assert robust is not None
    # residual sums 5 and -5: se = sqrt(50) / 10 = 0.707, over twice the naive one
    assert robust.se == pytest.approx(math.sqrt(50) / 10)
    assert robust.se > 2 * naive


def test_mde_by_hand() -> None:
    # deltas 0.1, -0.1, 0.3, -0.3: mean 0, sd = sqrt(0.2 / 3), se = sd / 2
    assert mde([0.1, -0.1, 0.3, -0.3]) == pytest.approx(
        (1.959964 + 0.841621) * math.sqrt(0.2 / 3) / 2
    )
    assert mde([0.5]) is None  # one delta has no spread
    assert mde([0.5], clustered_se=0.1) == pytest.approx(2.801585 * 0.1)
    assert mde([0.0] * 10) == 0.0


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
def test_singleton_clusters_give_the_plain_error_scaled(deltas: list[float]) -> None:
    # with one case per cluster, se^2 = sum (d - mean)^2 / n^2 = (n - 1)/n * sd^2 / n
    n = len(deltas)
    result = clustered(deltas, [str(i) for i in range(n)])
    assert result is not None
    expected = math.sqrt((n - 1) / n) * sample_sd(deltas) / math.sqrt(n)
    assert result.se == pytest.approx(expected, abs=1e-12)
    assert result.ci95[0] <= math.fsum(deltas) / n <= result.ci95[1] + 1e-12
