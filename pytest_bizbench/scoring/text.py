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
    """
    if len(u) != len(v):
        raise ValueError(f"vectors of different lengths: {len(u)} and {len(v)}")
    norm_u = math.sqrt(math.fsum(x * x for x in u))
    norm_v = math.sqrt(math.fsum(y * y for y in v))
    if norm_u == 0.0 or norm_v == 0.0:
        return 0.0
    dot = math.fsum(x * y for x, y in zip(u, v, strict=True))
    return max(-1.0, min(1.0, dot / (norm_u * norm_v)))
