"""Text comparison for the ladder: one normalisation, one similarity, one cosine."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence

from rapidfuzz import fuzz


def normalize(text: str) -> str:
    """Fold the differences a reader would not call a different value.

    NFKC unifies compatibility forms (full-width digits, ligatures, no-break
    spaces), casefold handles case beyond ASCII (`Straße` == `STRASSE`).
    """
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def similarity(a: str, b: str) -> float:
    """Edit-based similarity in [0, 1] of the normalised texts (rapidfuzz `ratio`)."""
    return fuzz.ratio(normalize(a), normalize(b)) / 100.0


def cosine(u: Sequence[float], v: Sequence[float]) -> float:
    """Cosine of two vectors; 0.0 when either is all zeros, since it has no direction.

    Vectors of different lengths raise `ValueError`: they come from different models.
    So does a value that is not a finite number (NaN compares false with everything,
    so `min(1.0, nan)` would call any two texts a match).
    """
    if len(u) != len(v):
        raise ValueError(f"vectors of different lengths: {len(u)} and {len(v)}")
    for vector in (u, v):
        if not all(is_finite_number(x) for x in vector):
            raise ValueError("an embedding vector holds a value that is not a finite number")
    norm_u = math.sqrt(math.fsum(x * x for x in u))
    norm_v = math.sqrt(math.fsum(y * y for y in v))
    if norm_u == 0.0 or norm_v == 0.0:
        return 0.0
    value = math.fsum(x * y for x, y in zip(u, v, strict=True)) / (norm_u * norm_v)
    if not math.isfinite(value):  # squares past the float range
        raise ValueError("an embedding vector is too large to compare")
    return max(-1.0, min(1.0, value))


def is_finite_number(value: object) -> bool:
    """A number a float can hold (an int past the float range is not)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False
