"""Reading calendar dates in the forms documents and models write them.

Dates are compared as dates, never as text: `25/12/2018` and `2018-12-25` are equal,
`2018-12-25` and `2018-12-26` are not, however similar the strings.

Understood: ISO `2018-12-25` (also with a time, `2018-12-25T10:00:00Z`, and `/` or `.`
as separators), numeric `25/12/2018` or `12/25/2018` read by `order` (`DMY` or `MDY`,
with `-` or `.` as separators too; a part above 12 can only be the day, so that reading
wins), and English month names, full or abbreviated: `25 Dec 2018`, `25th December
2018`, `Dec 25, 2018`, `December 25 2018`, optionally after a weekday. Two-digit
years are not understood: guessing the century would turn a wrong answer into a
silently right one.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from pytest_bizbench.options.types import ORDERS

_MONTH_NAMES = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTHS = {
    **{name: i for i, name in enumerate(_MONTH_NAMES, 1)},
    **{name[:3]: i for i, name in enumerate(_MONTH_NAMES, 1)},
    "sept": 9,
}
_TIME = r"(?:[T\s]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?\s*(?:Z|[+-]\d{2}(?::?\d{2})?)?)?"
_WEEKDAY = r"(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?"
_ORDINAL = r"(?:st|nd|rd|th)?"
_ISO_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
_YEAR_FIRST_RE = re.compile(rf"(\d{{4}})([-/.])(\d{{1,2}})\2(\d{{1,2}}){_TIME}", re.IGNORECASE)
_NUMERIC_RE = re.compile(r"(\d{1,2})([-/.])(\d{1,2})\2(\d{4})")
_DAY_NAME_RE = re.compile(
    rf"{_WEEKDAY}(\d{{1,2}}){_ORDINAL}(?:\s+of)?[\s./-]+([a-z]+)\.?,?[\s./-]+(\d{{4}})",
    re.IGNORECASE,
)
_NAME_DAY_RE = re.compile(
    rf"{_WEEKDAY}([a-z]+)\.?[\s./-]+(\d{{1,2}}){_ORDINAL},?\s+(\d{{4}})", re.IGNORECASE
)


def parse_date(value: object, order: str = "DMY") -> date | None:
    """The calendar date a value states, or None when it states none or an impossible one."""
    if order not in ORDERS:
        raise ValueError(f"date order {order!r} must be one of {', '.join(ORDERS)}")
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if not isinstance(value, str):
        return None
    text = value.strip()
    if match := _YEAR_FIRST_RE.fullmatch(text):
        return _make(match[1], match[3], match[4])
    if match := _NUMERIC_RE.fullmatch(text):
        first, second = int(match[1]), int(match[3])
        day, month = (first, second) if order == "DMY" else (second, first)
        if month > 12 >= day:
            day, month = month, day
        return _make(match[4], month, day)
    if match := _DAY_NAME_RE.fullmatch(text):
        return _named(match[3], match[2], match[1])
    if match := _NAME_DAY_RE.fullmatch(text):
        return _named(match[3], match[1], match[2])
    return None


def looks_like_iso_date(value: object) -> bool:
    """Whether a ground-truth value is an ISO date (`YYYY-MM-DD`), so it is compared as one."""
    if not isinstance(value, str) or _ISO_RE.fullmatch(value) is None:
        return False
    return _make(value[:4], value[5:7], value[8:]) is not None


def _named(year: str, month_name: str, day: str) -> date | None:
    month = _MONTHS.get(month_name.lower())
    return None if month is None else _make(year, month, day)


def _make(year: str | int, month: str | int, day: str | int) -> date | None:
    try:
        return date(int(year), int(month), int(day))
    except ValueError:
        return None
