"""The shared number helpers every module uses (one copy each)."""

from __future__ import annotations

from pytest_bizbench.maths.figures import fmt_number, is_number, mean, plural


def test_is_number_takes_ints_and_floats_but_not_bools_or_strings() -> None:
    assert [is_number(v) for v in (1, 0.5, True, "1", None)] == [True, True, False, False, False]


def test_mean_is_exact_and_zero_for_nothing() -> None:
    # fsum: 0.1 * 10 sums to exactly 1.0, so the mean is exactly 0.1
    assert mean([0.1] * 10) == 0.1
    assert mean(v for v in (1.0, 2.0)) == 1.5
    assert mean([]) == 0.0


def test_plural_adds_s_except_for_one() -> None:
    assert [plural(n, "error") for n in (0, 1, 2)] == ["0 errors", "1 error", "2 errors"]


def test_fmt_number_formats_numbers_and_names_the_missing() -> None:
    assert fmt_number(0.5) == "0.5000"
    assert fmt_number(0.25, "+.2f") == "+0.25"
    assert fmt_number(None) == "—"
    assert fmt_number(True, missing="n/a") == "n/a"
