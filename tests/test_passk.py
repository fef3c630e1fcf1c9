"""pass@k and the spread of several samples, against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from pytest_bizbench import pass_at_k
from pytest_bizbench.scoring.passk import Spread


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        # 1 - C(n-c, k) / C(n, k)
        (1, 1, 1, 1.0),  # 1 - C(0,1)/C(1,1) = 1 - 0/1
        (1, 0, 1, 0.0),  # 1 - C(1,1)/C(1,1) = 1 - 1
        (5, 2, 1, 0.4),  # 1 - C(3,1)/C(5,1) = 1 - 3/5
        (5, 2, 3, 0.9),  # 1 - C(3,3)/C(5,3) = 1 - 1/10
        (5, 2, 4, 1.0),  # C(3,4) = 0: four draws from five always hit one of two
        (10, 3, 2, 1 - 21 / 45),  # 1 - C(7,2)/C(10,2) = 1 - 21/45 = 8/15
        (4, 0, 4, 0.0),  # nothing correct: never passes
        (4, 4, 2, 1.0),  # 1 - C(0,2)/C(4,2) = 1 - 0/6
        (3, 1, 3, 1.0),  # drawing all three includes the correct one
    ],
)
def test_pass_at_k_by_hand(n: int, c: int, k: int, expected: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(expected, abs=1e-15)


def test_pass_at_k_is_exact_for_large_n() -> None:
    # 1 - C(150, 10)/C(200, 10) as a fraction of integers; floats of the
    # products would lose digits long before these sizes.
    exact = 1 - math.comb(150, 10) / math.comb(200, 10)
    assert pass_at_k(200, 50, 10) == pytest.approx(exact, rel=1e-15)
    assert pass_at_k(2000, 1, 1) == 1 / 2000


def test_pass_at_1_is_the_share_correct() -> None:
    # 1 - C(n-c, 1)/C(n, 1) = 1 - (n-c)/n = c/n
    for n in range(1, 8):
        for c in range(n + 1):
            assert pass_at_k(n, c, 1) == pytest.approx(c / n)


def test_k_above_n_is_an_error() -> None:
    with pytest.raises(ValueError, match=r"k=3 > n=2"):
        pass_at_k(2, 1, 3)


@pytest.mark.parametrize(
    ("n", "c", "k", "message"),
    [
        (3, 1, 0, "k must be at least 1"),
        (3, 4, 1, "c=4 must be within 0..n=3"),
        (3, -1, 1, "c=-1 must be within"),
        (3.0, 1, 1, "n must be an integer"),
        (3, True, 1, "c must be an integer"),
    ],
)
def test_bad_arguments(n: object, c: object, k: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pass_at_k(n, c, k)  # type: ignore[arg-type]


def test_spread_shows_the_lower_median_sample() -> None:
    # scores 1, 0, 1: ordered (0 @1), (1 @0), (1 @2); lower median is position 1 -> sample 0
    spread = Spread.of([1.0, 0.0, 1.0])
    assert (spread.n, spread.min, spread.max, spread.shown) == (3, 0.0, 1.0, 0)
    assert spread.mean == pytest.approx(2 / 3)
    # an even count shows the worse of the two middle ones: ordered 0.2 @1, 0.5 @3,
    # 0.9 @0, 1.0 @2; position (4-1)//2 = 1 is 0.5, sample 3
    assert Spread.of([0.9, 0.2, 1.0, 0.5]).shown == 3
    assert Spread.of([0.5]).shown == 0
    with pytest.raises(ValueError, match="at least one score"):
        Spread.of([])
