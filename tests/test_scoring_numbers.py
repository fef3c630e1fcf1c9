"""parse_number and numbers_match: the number rung's reading and tolerance."""

from __future__ import annotations

import pytest

from pytest_bizbench.scoring.numbers import numbers_match, parse_number


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$1,577.00", 1577.0),
        ("1,577.00", 1577.0),
        ("1577", 1577.0),
        ("  42 ", 42.0),
        ("12.5%", 12.5),  # the percent sign is dropped, never divided by 100
        ("12.5 %", 12.5),
        ("12.5 percent", 12.5),
        ("(300)", -300.0),
        ("($1,200.00)", -1200.0),
        ("-300", -300.0),
        ("\u2212300", -300.0),  # Unicode minus sign
        ("+300", 300.0),
        ("-$300", -300.0),
        ("$-300", -300.0),
        ("1.2 million", 1_200_000.0),
        ("1.2 Mio.", 1_200_000.0),
        ("3.4bn", 3_400_000_000.0),
        ("$3.4B", 3_400_000_000.0),
        ("2.5k", 2_500.0),
        ("2.5 K", 2_500.0),
        ("1 trillion", 1e12),
        ("USD 1,200", 1200.0),
        ("1,200 USD", 1200.0),
        ("US$ 5", 5.0),
        ("€300", 300.0),
        ("EUR 3.400,50", 3400.5),  # dots group, so the comma is the decimal
        ("1.234.567,89", 1_234_567.89),
        ("1 577,00 €", 1577.0),
        ("1\u00a0577,00", 1577.0),  # no-break space as the thousands separator
        ("1'234.50", 1234.5),
        ("12,50", 12.5),  # a comma before two digits cannot be a thousands separator
        ("1,5", 1.5),
        ("0,125", 0.125),  # "0," cannot start a thousands group
        ("1,234", 1234.0),  # a lone comma before three digits groups thousands
        ("1.234", 1.234),  # a lone dot is a decimal point
        ("1,234,567", 1_234_567.0),
        (",5", 0.5),
        ("1e5", 100_000.0),
        ("1.5E-3", 0.0015),
        ("5 MMK", 5.0),  # a currency code is not read as the scale word "m"
    ],
)
def test_parse_number_reads_business_notation(text: str, expected: float) -> None:
    assert parse_number(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "abc",
        "nan",
        "NaN",
        "inf",
        "-Infinity",
        "1e999",  # overflows to infinity
        "(-300)",  # parentheses and a sign: which one is meant?
        "(300",
        "12,34,567",  # Indian grouping is not supported
        "1,2,3",
        "1.2.3",
        "2 3",
        "USD 5 EUR",
        "5 lbs",
        "usd 5",  # currency codes are read in capitals only
        "one hundred",
        "1-2",
    ],
)
def test_parse_number_rejects_what_is_not_one_number(text: str) -> None:
    assert parse_number(text) is None


def test_parse_number_takes_numbers_and_rejects_other_types() -> None:
    assert parse_number(5) == 5.0
    assert parse_number(-2.5) == -2.5
    assert parse_number(True) is None
    assert parse_number(False) is None
    assert parse_number(float("nan")) is None
    assert parse_number(float("inf")) is None
    assert parse_number(10**400) is None
    assert parse_number(None) is None
    assert parse_number([1]) is None


def test_numbers_match_relative_tolerance_boundary() -> None:
    # max(0.01 * 100, 0.01) = 1.0
    assert numbers_match(100.0, 101.0, 0.01, 0.01)
    assert numbers_match(100.0, 99.0, 0.01, 0.01)
    assert not numbers_match(100.0, 101.01, 0.01, 0.01)
    assert not numbers_match(100.0, 98.99, 0.01, 0.01)


def test_numbers_match_absolute_tolerance_boundary() -> None:
    # max(0.01 * 0, 0.01) = 0.01
    assert numbers_match(0.0, 0.01, 0.01, 0.01)
    assert not numbers_match(0.0, 0.0101, 0.01, 0.01)
    # max(0.01 * 0.5, 0.01) = 0.01: the absolute floor wins for small values
    assert numbers_match(0.5, 0.51, 0.01, 0.01)
    assert not numbers_match(0.5, 0.5101, 0.01, 0.01)


def test_numbers_match_decimal_boundary_survives_float_rounding() -> None:
    # 1.11 - 1.10 is 0.010000000000000009 in binary floats; written in decimal it is at the bound
    assert 1.11 - 1.10 > 0.01
    assert numbers_match(1.10, 1.11, 0.0, 0.01)
    assert not numbers_match(1.10, 1.1101, 0.0, 0.01)


def test_numbers_match_relative_tolerance_uses_the_expected_value() -> None:
    # tolerance is 0.01 * |expected| = 1.0, not 0.01 * |actual| = 1.01
    assert not numbers_match(100.0, 101.005, 0.01, 0.0)
    assert numbers_match(-100.0, -101.0, 0.01, 0.0)
    assert numbers_match(5.0, 5.0, 0.0, 0.0)
    assert not numbers_match(5.0, 5.000001, 0.0, 0.0)
