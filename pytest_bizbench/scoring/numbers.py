"""Reading numbers the way business documents write them, and matching them with tolerance.

What `parse_number` understands, in one string:
- a sign (`-300`, `+300`, also the minus sign U+2212) or accounting parentheses
  (`(300)` = -300);
- a currency: a symbol (`$ € £ ¥ ₹ …`, also `US$`, `HK$`) or an ISO code in capitals
  (`USD 1,200`, `1,200 EUR`), before or after the number;
- thousands separators `,` `.` space `'` (groups of three digits, one kind per number);
- a decimal point, or a decimal comma when that is the only reading:
  `3.400,50` (dots group, so the comma is decimal), `1 577,00`, `12,50`, `1,5`.
  A lone comma before exactly three digits is a thousands separator (`1,200` = 1200),
  a lone dot is always a decimal point (`1.234` = 1.234);
- an exponent (`1.5e6`);
- a scale word: `k`/`thousand`, `m`/`mn`/`mm`/`mio`/`million`, `b`/`bn`/`bln`/`billion`,
  `tn`/`trillion` (`1.2 million`, `3.4bn`, `2.5k`);
- a percent sign or word, dropped: `12.5%` reads as 12.5, never 0.125, so a percent
  field is compared in the unit it is written in.
Not understood, so `None`: Indian lakh grouping (`12,34,567`), words (`twelve`),
ranges, several numbers, NaN and infinities.
"""

from __future__ import annotations

import math
import re

_SCALES = {
    "k": 3,
    "thousand": 3,
    "m": 6,
    "mn": 6,
    "mm": 6,
    "mio": 6,
    "mln": 6,
    "million": 6,
    "b": 9,
    "bn": 9,
    "bln": 9,
    "billion": 9,
    "tn": 12,
    "trillion": 12,
}
_SYMBOLS = "$€£¥₹₩₽₺₪₫฿₦₱¢"
_CURRENCY = rf"(?-i:[A-Z]{{1,2}})?[{_SYMBOLS}]|(?-i:[A-Z]{{3}})"
_SCALE_WORDS = "|".join(sorted(_SCALES, key=len, reverse=True))
_NUMBER_RE = re.compile(
    rf"""
    (?P<open>\()?\s*
    (?P<sign1>[-+−])?\s*
    (?:(?P<pre>{_CURRENCY})\s*)?
    (?P<sign2>[-+−])?\s*
    (?P<body>\d(?:[\d.,'’\s]*\d)?|[.,]\d+)
    (?:e(?P<exp>[-+]?\d{{1,4}}))?
    \s*(?:(?P<scale>{_SCALE_WORDS})\b\.?)?
    \s*(?P<percent>%|percent\b|pct\b)?
    \s*(?P<post>{_CURRENCY})?
    \s*(?P<close>\))?
    """,
    re.IGNORECASE | re.VERBOSE,
)
_SEPARATOR_RE = re.compile(r"[.,'’\s]")


def parse_number(value: object) -> float | None:
    """The number a value states, or None when it states none (see the module docstring)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        try:
            return float(value)
        except OverflowError:
            return None
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if not isinstance(value, str):
        return None
    match = _NUMBER_RE.fullmatch(value.strip())
    if match is None:
        return None
    parts = match.groupdict()
    if bool(parts["open"]) != bool(parts["close"]):
        return None
    signs = [s for s in (parts["sign1"], parts["sign2"]) if s]
    if len(signs) > 1 or (parts["open"] and signs) or (parts["pre"] and parts["post"]):
        return None
    digits = _plain_digits(parts["body"])
    if digits is None:
        return None
    exponent = int(parts["exp"] or 0)
    if parts["scale"]:
        exponent += _SCALES[parts["scale"].lower()]
    number = float(f"{digits}e{exponent}")
    if not math.isfinite(number):
        return None
    negative = bool(parts["open"]) or signs in (["-"], ["−"])
    return -number if negative else number


def _plain_digits(body: str) -> str | None:
    """`body` as `digits.digits`, deciding which separator is the decimal one."""
    seps = [(i, c) for i, c in enumerate(body) if not c.isdigit()]
    if not seps:
        return body
    last_index, last = seps[-1]
    tail = body[last_index + 1 :]
    decimal_index = -1
    if last in ".,":
        kinds = {c for _, c in seps}
        alone = sum(1 for _, c in seps if c == last) == 1
        if alone and (len(kinds) > 1 or last == "." or len(tail) != 3 or body[0] == "0"):
            decimal_index = last_index
    head = body if decimal_index < 0 else body[:decimal_index]
    fraction = "" if decimal_index < 0 else tail
    whole = _ungroup(head)
    if whole is None:
        return None
    return f"{whole or '0'}.{fraction or '0'}"


def _ungroup(head: str) -> str | None:
    """The integer part without thousands separators, None if its grouping is wrong."""
    groups = _SEPARATOR_RE.split(head)
    if len(groups) == 1:
        return head
    if len({" " if c.isspace() else c for c in head if not c.isdigit()}) > 1:
        return None
    first, rest = groups[0], groups[1:]
    if not 1 <= len(first) <= 3 or first.startswith("0") or any(len(g) != 3 for g in rest):
        return None
    return "".join(groups)


def numbers_match(expected: float, actual: float, rel_tol: float, abs_tol: float) -> bool:
    """`|actual - expected| <= max(rel_tol * |expected|, abs_tol)`, inclusive.

    The bound is widened by the rounding of the two inputs (a couple of ulps), so a
    difference exactly at the tolerance as written in decimal passes: 1.11 vs 1.10
    with abs_tol 0.01 is a match although 1.11 - 1.10 > 0.01 in binary floats.
    """
    slack = 2.0 * math.ulp(max(abs(expected), abs(actual)))
    return abs(actual - expected) <= max(rel_tol * abs(expected), abs_tol) + slack
