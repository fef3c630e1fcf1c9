"""parse_date and looks_like_iso_date: dates compared as dates."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from pytest_bizbench.scoring.dates import looks_like_iso_date, parse_date

XMAS = date(2018, 12, 25)


@pytest.mark.parametrize(
    "text",
    [
        "2018-12-25",
        "2018-12-25T10:00:00",
        "2018-12-25T10:00:00Z",
        "2018-12-25 10:00:00+02:00",
        "2018-12-25T10:00:00.123",
        "2018/12/25",
        "2018.12.25",
        "25/12/2018",
        "25-12-2018",
        "25.12.2018",
        "25 Dec 2018",
        "25 dec 2018",
        "25-Dec-2018",
        "25 December 2018",
        "25th December 2018",
        "25th of December 2018",
        "Tuesday, 25 December 2018",
        "Dec 25, 2018",
        "Dec. 25, 2018",
        "December 25 2018",
        "December 25th, 2018",
        "  25/12/2018  ",
    ],
)
def test_parse_date_forms(text: str) -> None:
    assert parse_date(text) == XMAS


def test_parse_date_order_decides_ambiguous_numeric_dates() -> None:
    assert parse_date("01/03/2024", "DMY") == date(2024, 3, 1)
    assert parse_date("01/03/2024", "MDY") == date(2024, 1, 3)
    assert parse_date("01.03.2024", "MDY") == date(2024, 1, 3)
    assert parse_date("01-03-2024") == date(2024, 3, 1)  # DMY is the default


def test_parse_date_unambiguous_reading_wins_over_order() -> None:
    # 13 can only be a day
    assert parse_date("13/01/2024", "MDY") == date(2024, 1, 13)
    assert parse_date("01/13/2024", "DMY") == date(2024, 1, 13)
    assert parse_date("12/25/2018", "DMY") == XMAS


def test_parse_date_order_does_not_affect_iso_or_named_months() -> None:
    assert parse_date("2024-03-01", "MDY") == date(2024, 3, 1)
    assert parse_date("1 Mar 2024", "MDY") == date(2024, 3, 1)
    assert parse_date("Sept 5, 2020", "MDY") == date(2020, 9, 5)


@pytest.mark.parametrize(
    "value",
    [
        "31/02/2020",  # no such day
        "2020-02-30",
        "2018-13-01",
        "13/13/2020",
        "25/12/18",  # two-digit years are not guessed
        "25/12-2018",  # mixed separators
        "December 2018",
        "25 Decembre 2018",
        "soon",
        "",
        20181225,
        None,
    ],
)
def test_parse_date_rejects(value: object) -> None:
    assert parse_date(value) is None


def test_parse_date_passes_date_objects_through() -> None:
    assert parse_date(XMAS) == XMAS
    assert parse_date(datetime(2018, 12, 25, 23, 59)) == XMAS


def test_parse_date_rejects_unknown_order() -> None:
    with pytest.raises(ValueError, match="YMD"):
        parse_date("2018-12-25", "YMD")


def test_parse_date_accepts_leap_day() -> None:
    assert parse_date("29/02/2024") == date(2024, 2, 29)
    assert parse_date("29/02/2023") is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2018-12-25", True),
        ("2024-02-29", True),
        ("2023-02-29", False),  # shaped like a date, but not one
        ("2018-1-25", False),
        ("2018-12-25T10:00", False),
        ("2018-12-25\n", False),
        ("25/12/2018", False),
        (XMAS, False),
        (20181225, False),
    ],
)
def test_looks_like_iso_date(value: object, expected: bool) -> None:
    assert looks_like_iso_date(value) is expected
