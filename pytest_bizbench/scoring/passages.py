"""Matching evidence passages by their text: the retrieval categories.

A passage (a golden evidence part, a cited or a retrieved part) is read as
`f"{title}\\n\\n{text}"` on both sides, then normalised like every text comparison
(NFKC, casefold, whitespace collapsed). Two measures decide its category:

- `similarity`: rapidfuzz `ratio` of the whole texts (edit-based, in [0, 1]);
- `containment`: rapidfuzz `partial_ratio` of the shorter text against its
  best-aligned window in the longer one: how well one sits inside the other.

Categories, the first that holds (the thresholds are ini keys, a value exactly at a
threshold counts as reaching it):

- EXACT  similarity >= `exact` (default 0.95): the same passage;
- BROAD  containment >= `contain` (0.90) and the retrieved text is at least as long
  as the golden one: the retrieved passage holds the golden one;
- NARROW containment >= `contain` and the retrieved text is shorter: a piece of it;
- WEAK   containment >= `weak` (0.60): they overlap, neither holds the other;
- MISS   otherwise, or when either text is empty.

EXACT and BROAD are hits: the golden passage was found.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz

from pytest_bizbench.options.types import PassageThresholds

from .text import normalize

EXACT, BROAD, NARROW, WEAK, MISS = "EXACT", "BROAD", "NARROW", "WEAK", "MISS"
CATEGORIES = (EXACT, BROAD, NARROW, WEAK, MISS)  # best first
HITS = frozenset({EXACT, BROAD})
_RANK = {category: rank for rank, category in enumerate(CATEGORIES)}
# Scores are computed in floating point: a value this close to a threshold reaches it.
_TOLERANCE = 1e-9


@dataclass(frozen=True, slots=True)
class PassageMatch:
    category: str
    similarity: float
    containment: float

    @property
    def hit(self) -> bool:
        return self.category in HITS


def passage_text(part: Mapping[str, Any]) -> str:
    """The normalised `f"{title}\\n\\n{text}"` of a part; missing pieces read as empty."""
    title, text = part.get("title"), part.get("text")
    combined = (
        f"{title if isinstance(title, str) else ''}\n\n{text if isinstance(text, str) else ''}"
    )
    return normalize(combined)


def _reaches(value: float, threshold: float) -> bool:
    return value >= threshold - _TOLERANCE


def classify(golden: str, retrieved: str, thresholds: PassageThresholds) -> PassageMatch:
    """The category of a retrieved passage for a golden one (both from `passage_text`)."""
    if not golden or not retrieved:
        return PassageMatch(MISS, 0.0, 0.0)
    similarity = fuzz.ratio(golden, retrieved) / 100.0
    shorter, longer = (golden, retrieved) if len(golden) <= len(retrieved) else (retrieved, golden)
    containment = fuzz.partial_ratio(shorter, longer) / 100.0
    if _reaches(similarity, thresholds.exact):
        category = EXACT
    elif _reaches(containment, thresholds.contain):
        category = BROAD if len(retrieved) >= len(golden) else NARROW
    elif _reaches(containment, thresholds.weak):
        category = WEAK
    else:
        category = MISS
    return PassageMatch(category, similarity, containment)


def better(a: PassageMatch, b: PassageMatch) -> bool:
    """Whether `a` is a better match than `b`: a better category, then more similar."""
    if _RANK[a.category] != _RANK[b.category]:
        return _RANK[a.category] < _RANK[b.category]
    return (a.similarity, a.containment) > (b.similarity, b.containment)
