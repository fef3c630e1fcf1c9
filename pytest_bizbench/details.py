"""The shape of a document's `details`: the one protocol between the scorers that
write it (the field ladder, the benchmarks) and the readers that explain it (the
failure text, `compute()`, the baseline comparison, the renderers).

Typing only: these are the JSON objects the report has always carried, named so a
reader finds every key in one place instead of knowing it by convention. Details
read back from a report or a worker are untrusted, so the readers below keep only
the entries that have the shape they claim.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TypedDict, cast

from pytest_bizbench.maths.figures import is_number

# A document's summary beside its fields (the field ladder's `score_document`).
SUMMARY_KEYS = ("completeness", "correctness", "quality")


class _Decided(TypedDict):
    score: float
    rung: str  # exact fuzzy embedding judge free-text number date bool set nested missing


class FieldEntry(_Decided, total=False):
    """One field's verdict: the rung that decided it and its score, then what the
    rung saw. `expected`/`actual` are there when the details are kept for a reader."""

    expected: Any
    actual: Any
    reason: str  # why it is not 1.0 (below-strictness, mismatch, ...) or why unscored
    unscored: bool  # a model hook failed: the field cannot pass
    # the text rungs: what they measured on the way, whichever rung decided
    similarity: float  # fuzzy ratio of the normalised texts, 0-1
    budget: str  # why only part of a text or list was compared
    cosine: float  # embedding closeness, when an embedder ran
    judge_score: float  # the judge's 0-100 grade
    # rung "set": F1 over the matched items, and the items on each side
    precision: float
    recall: float
    matched: list[list[Any]]  # [expected item, actual item, item score]
    missed: list[Any]  # expected items no actual item matched
    hallucinated: list[Any]  # actual items that match no expected item
    truncated: bool  # a list above was cut at its cap
    # rung "nested": one entry per sub-field
    fields: dict[str, FieldEntry]
    # the field's counts: true positive, false discovery, false negative, false alarm,
    # true negative (an object's and a list's: of their values and items)
    tp: int
    fd: int
    fn: int
    fa: int
    tn: int
    # the ladder's working keys, never in a report: a list pair's closeness, and the
    # counts of an object or list before they are spread into the keys above
    closeness: float
    counts: dict[str, int]


class _Moved(TypedDict):
    baseline: float | None  # None: the field was not scored on that side
    candidate: float | None
    delta: float


class FieldChange(_Moved, total=False):
    """A field whose score moved between a baseline and a candidate document
    (a comparison's `worst[].fields`): read from the two documents' entries."""

    baseline_actual: Any
    candidate_actual: Any
    expected: Any


def field_entries(details: Mapping[str, Any]) -> dict[str, FieldEntry]:
    """The top-level fields of a document's details that carry a numeric score (not an
    `unexpected` value, which is a false alarm outside the score)."""
    return {
        name: cast(FieldEntry, entry)
        for name, entry in details.items()
        if isinstance(entry, Mapping)
        and is_number(entry.get("score"))
        and entry.get("rung") != "unexpected"
    }


def flat_entries(details: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, FieldEntry]]:
    """(dotted name, entry) of every scored field, nested fields flattened."""
    for name, entry in details.items():
        if not isinstance(entry, Mapping) or "score" not in entry:
            continue
        dotted = f"{prefix}{name}"
        inner = entry.get("fields")
        if entry.get("rung") == "nested" and isinstance(inner, Mapping):
            yield from flat_entries(inner, dotted + ".")
        else:
            yield dotted, cast(FieldEntry, entry)
