"""The comparators of field rules, and the closeness that orders list pairs.

Every text comparison reads the normalised text (`text.normalize`). Two rules hold
for all of them:

- Digits are never fuzzy: in `fuzzy`, `levenshtein`, `token_set` and `embedding`,
  the runs of digits of both texts must be equal and in the same order (`Phase 1`
  and `Phase 2`, `A-100` and `A-101` differ; `12 Main St` and `12 Main Street` do
  not), else the pair is no match, whatever its similarity. An invoice number one
  digit off is a different invoice, and similarity cannot see that.
- A match is a similarity at or above the threshold; below it the score is 0, or
  the similarity itself when the rule is `partial`.

Closeness is what the pairing of list items prefers among equally credited pairs:
a string's similarity, a number's 1 - |a - e| / max(|a|, |e|), a date's
1 / (1 + days apart).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from datetime import date
from typing import Any

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

_DIGITS = re.compile(r"\d+")

Similarity = Callable[..., float]

SCORERS: dict[str, tuple[Similarity, float]] = {
    "fuzzy": (fuzz.ratio, 100.0),
    "levenshtein": (Levenshtein.normalized_similarity, 1.0),
    "token_set": (fuzz.token_set_ratio, 100.0),
}
"""A similarity comparator's rapidfuzz scorer and the scale it answers in."""


def similarity(kind: str, left: str, right: str) -> float:
    """The similarity in 0..1 of two normalised texts by one of `SCORERS`."""
    scorer, scale = SCORERS[kind]
    return float(scorer(left, right)) / scale


def digit_runs(text: str) -> tuple[str, ...]:
    """The runs of digits of a text, in order: what the digits rule compares."""
    return tuple(_DIGITS.findall(text))


def id_key(text: str) -> str:
    """An identifier as compared: only its letters and digits, casefolded
    (`INV-2023-001` = `inv 2023 001`)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if ch.isalnum())


def verdict(closeness: float, threshold: float, partial: bool, digits_ok: bool) -> float:
    """The score of a similarity: 1 at or above the threshold with the digits equal,
    else the similarity when partial, else 0."""
    if closeness >= threshold and digits_ok:
        return 1.0
    return closeness if partial else 0.0


def number_closeness(expected: float, actual: float) -> float:
    """1 - |a - e| / max(|a|, |e|), 1 when both are 0, never below 0."""
    scale = max(abs(expected), abs(actual))
    if scale == 0.0:
        return 1.0
    return max(0.0, 1.0 - abs(actual - expected) / scale)


def date_closeness(expected: date, actual: date) -> float:
    return 1.0 / (1 + abs((actual - expected).days))


def is_empty(value: Any) -> bool:
    """Null, or a string, list or object with nothing in it: an answer of "none"."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, (list, tuple, dict)):
        return not value
    return False
