"""The learned half of the non-answer detector: a small logistic regression over cues.

The catalog (`refusal_catalog.py`) finds where an answer declines; what it cannot tell
is whether the text after a disclaimer or a refusal answers or lectures. "As an AI
language model, I don't have personal opinions. However, <an answer>" is an answer;
"I cannot provide instructions on that. It is a heinous crime ..." is not, though both
open with a cue and go on with plain sentences. This module reads the shape of a chat
answer as a few dozen features (what the opening declines, whether it pivots to help,
how much of the rest moralises, lists and verse, the catalog's own verdict) and
weighs them with weights fitted offline (`benchmarks/train_nonanswer.py`, data sources
named there) and shipped as `nonanswer_weights.json`. `refusal.detect` consults it only
where the rules are split (see `docs/qa-grading.md`); it needs no network, no numpy,
and reads a bounded head of the answer.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources

import regex

from pytest_bizbench.scoring.refusal_catalog import (
    AI_DISCLAIMER,
    DECLINED_OPINION,
    DEFLECTION,
    HELP_PIVOT,
    MORALISING,
    NO_PERSONAL,
    POLICY,
    SAFETY_REFUSAL,
)

OPENING_CHARS = 400  # the opening: where a chat refusal states itself
READ_CHARS = 1200  # how much of an answer the model reads
TIMEOUT = 0.05  # seconds per pattern; a pattern that times out counts as no match
_SENTENCE = regex.compile(r"(?<=[.!?])\s+|\n+")
_LIST_ITEM = regex.compile(r"(?m)^\s*(?:\d{1,2}[.)]|[-*•]|#+)\s+\S")
_OPENS_YES_NO = regex.compile(r"^\W*(?:yes|no)\b")
_PREMISE = regex.compile(
    r"\b(?:the question (?:itself )?(?:may|might|seems|is|does|contains|assumes|implies)"
    r"|(?:is|are) (?:a )?fictional|does not exist|do not exist|there is no (?:such|evidence"
    r"|scientific)|not (?:capable|able) of)\b"
)
_HELPLINE = regex.compile(
    r"\b(?:hotline|helpline|lifeline|crisis|emergency services|seek (?:\w+ )?help|therapist"
    r"|counsel(?:or|ling|ing)|mental health professional)\b"
)
_WORD = regex.compile(r"[a-z']+")
# the information-gap classes of document questions: kept without a gold answer too
GAP_CLASSES = frozenset(
    {"source-absence", "passive-unavailability", "insufficient-info", "partial-work"}
)


@dataclass(frozen=True, slots=True)
class Reading:
    """The model's view of one answer: the chance it is a non-answer, and the opening
    sentence and class of its strongest chat cue (none when the opening declines
    nothing)."""

    probability: float
    cue: str | None  # the opening sentence that declines
    refusal_class: str | None
    # a list, verse, or a long text: the shape of an attempt, whatever a cue says
    answer_shaped: bool
    # "I don't have personal opinions": a disclaimer of the self, not of the data
    disclaims_self: bool
    cue_first: bool  # the cue is in the first sentence
    catalog_class: str | None = None

    def consulted(self, refused: bool, has_gold: bool) -> bool:
        """Whether the rules are split, so that the model decides. A catalog refusal is
        reweighed when it disclaims only the self, or when there is no gold answer (a
        chat question, where the catalog's question kinds say little) and it is shaped
        like an attempt or its cue is not an information gap; an answer the catalog
        lets through, when its first sentence declines."""
        if refused:
            return self.disclaims_self or (
                not has_gold and (self.answer_shaped or self.catalog_class not in GAP_CLASSES)
            )
        return self.cue is not None and (self.cue_first or not has_gold)


def _search(pattern: regex.Pattern[str], text: str) -> regex.Match[str] | None:
    try:
        return pattern.search(text, timeout=TIMEOUT)
    except TimeoutError:
        return None


def features(
    norm: str, raw: str, catalog_class: str | None, catalog_refused: bool
) -> dict[str, float]:
    """The features of an answer (`norm`: normalised, `raw`: as given; both bounded by the
    caller), named as in the weights file."""
    opening = norm[:OPENING_CHARS]
    first = _SENTENCE.split(opening, maxsplit=1)[0]
    rest = norm[len(first) :]
    words = _WORD.findall(rest)
    moral = sum(1 for _ in MORALISING.finditer(rest)) if words else 0
    refusal = _search(SAFETY_REFUSAL, opening)
    declined_opinion = bool(
        refusal and _search(DECLINED_OPINION, opening[refusal.end() : refusal.end() + 60].strip())
    )
    lines = [line for line in raw[:READ_CHARS].splitlines() if line.strip()]
    short_lines = sum(1 for line in lines if len(line) < 70)
    items = len(_LIST_ITEM.findall(raw[:READ_CHARS]))
    values = {
        "bias": 1.0,
        "refusal_first": float(bool(_search(SAFETY_REFUSAL, first))),
        "refusal_opening": float(refusal is not None),
        "declined_opinion": float(declined_opinion),
        "ai_disclaimer": float(bool(_search(AI_DISCLAIMER, opening))),
        "no_personal": float(bool(_search(NO_PERSONAL, opening))),
        "help_pivot": float(bool(_search(HELP_PIVOT, norm[:600]))),
        "deflection_first": float(bool(_search(DEFLECTION, first))),
        "deflection_opening": float(bool(_search(DEFLECTION, opening))),
        "policy": float(bool(_search(POLICY, opening))),
        "premise": float(bool(_search(_PREMISE, opening))),
        "helpline": float(bool(_search(_HELPLINE, norm[:READ_CHARS]))),
        "opens_yes_no": float(bool(_OPENS_YES_NO.match(opening))),
        "moral_density": min(1.0, 10.0 * moral / len(words)) if words else 0.0,
        "moral_first": float(bool(_search(MORALISING, first))),
        "list": float(items >= 3),
        "verse": float(short_lines >= 6 and short_lines >= 0.7 * len(lines)),
        "short": float(len(norm) < 200),
        "long": float(len(norm) > 800),
        "catalog_refused": float(catalog_refused),
    }
    for group, classes in _CLASS_GROUPS.items():
        values[f"catalog_{group}"] = float(catalog_class in classes)
    return values


_CLASS_GROUPS = {
    "declines": frozenset({"inability", "advice-refusal", "capability", "cutoff"}),
    "gap": GAP_CLASSES,
    "points": frozenset({"redirect", "asks-input"}),
    "hedges": frozenset({"vague-estimate", "generic-substitute", "rejects-premise"}),
}


@cache
def weights() -> dict[str, float]:
    """The fitted weights, read once from the package."""
    text = resources.files(__package__).joinpath("nonanswer_weights.json").read_text("utf-8")
    loaded: dict[str, float] = json.loads(text)["weights"]
    return loaded


def probability(values: dict[str, float]) -> float:
    """The logistic of the weighted features, by the shipped weights."""
    return probability_with(weights(), values)


def probability_with(table: dict[str, float], values: dict[str, float]) -> float:
    """The logistic of the weighted features (a feature the weights lack weighs 0)."""
    z = sum(table.get(name, 0.0) * value for name, value in values.items())
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def read(norm: str, raw: str, catalog_class: str | None, catalog_refused: bool) -> Reading:
    """Read one answer; `norm` and `raw` are cut to what the model reads here."""
    norm, raw = norm[:READ_CHARS], raw[:READ_CHARS]
    values = features(norm, raw, catalog_class, catalog_refused)
    sentences = _SENTENCE.split(norm[:OPENING_CHARS], maxsplit=2)[:2]
    cue: str | None = None
    cls: str | None = None
    for sentence in sentences:
        for pattern, slug in (
            (SAFETY_REFUSAL, "inability"),
            (DEFLECTION, "advice-refusal"),
            (POLICY, "advice-refusal"),
        ):
            if cue is None and _search(pattern, sentence) is not None:
                cue, cls = sentence, slug
    shaped = bool(values["list"] or values["verse"] or values["long"])
    disclaims = bool(values["no_personal"] or values["declined_opinion"])
    first = cue is not None and cue == sentences[0]
    return Reading(probability(values), cue, cls, shaped, disclaims, first, catalog_class)
