"""The field ladder: one extracted value against its ground truth.

Rungs run cheapest and most certain first, and the first that can decide does:
a value the parsers can read (bool, number, date) is decided by them and never by
text similarity; text goes exact, fuzzy, then the optional model rungs (embedding,
judge), then partial credit for free-text fields.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from itertools import islice
from typing import Any, cast

from rapidfuzz import fuzz

from pytest_bizbench.details import FieldEntry
from pytest_bizbench.maths.figures import mean
from pytest_bizbench.options.types import LadderConfig
from pytest_bizbench.scoring.assign import Row, assign, kuhn_munkres
from pytest_bizbench.scoring.dates import parse_date
from pytest_bizbench.scoring.judge import checked_grade
from pytest_bizbench.scoring.numbers import numbers_match, parse_number
from pytest_bizbench.scoring.pairs import PairScorer, scalar_kind, stated_bool
from pytest_bizbench.scoring.text import cosine, normalize

Embedder = Callable[[list[str]], list[list[float]]]
"""Texts to one vector each (the `pytest_bizbench_embed` hook)."""
JudgeFn = Callable[[str, Any, Any], float | None]
"""(field, expected, actual) to a 0-100 grade, or None to abstain (`pytest_bizbench_judge`)."""

Entry = FieldEntry

MAX_TEXT = 200
MAX_ITEMS = 50
_NORMALIZED_MEMO = 8192


class FieldLadder:
    """Scores extracted fields against ground truth, one plain JSON-able entry per field.

    An entry has `score` (0..1), `rung` (what decided it), `expected` and `actual`
    (as given; strings cut at 200 characters, containers at 50 items), and where it
    applies `similarity` (4 decimals), `cosine`, `judge_score`, `unscored` (a model
    hook failed) and `reason`: `missing`, `not-a-bool`, `not-a-number`, `not-a-date`,
    `mismatch` (bool or date), `out-of-tolerance`, `below-strictness`,
    `type-mismatch`, `embedding-error: <Type>: <msg>`, `judge-error: <Type>: <msg>`.

    Lists are scored as sets. Expected and actual items are paired one to one by the
    assignment that maximises the summed item score (Kuhn-Munkres), item scores
    coming from this same ladder; a pair counts as matched when its item score is
    above 0, and adds that score as credit (partial for free-text or nested items).
    precision = credit / len(actual), recall = credit / len(expected), score = F1,
    which equals 2 * credit / (len(expected) + len(actual)); both lists empty gives 1,
    one empty gives 0. Null items of an expected list are ignored like null fields,
    and an actual that is not a list counts as a list of that one value. With model
    hooks, pairs are first made on the cheap rungs alone; those scoring 1 are kept, and
    only the items left over are compared by the models, so a list of n items costs
    far fewer than n * n model calls. The cheap item scores come in bulk (`pairs`),
    the pairing from `assign`.

    Work budgets keep one case from holding up the run. A list with more items on
    either side than `max_list_items` pairs its items in order (item k with item k,
    cheap rungs only); text longer than `max_text_chars` after normalisation, when not
    an exact match, gets the similarity of its first `max_text_chars` characters. Both
    say so in the entry's `budget`.

    A nested object scores the mean of its sub-fields (null expected sub-fields are
    skipped; with none left the score is 1, nothing being asked).
    """

    __slots__ = ("_config", "_embed", "_judge", "_normalized", "_pairs")

    def __init__(
        self, config: LadderConfig, embed: Embedder | None = None, judge: JudgeFn | None = None
    ) -> None:
        self._config = config
        self._embed = embed
        self._judge = judge
        self._normalized: dict[str, str] = {}
        self._pairs = PairScorer(config, self._normalize, self._cheap_score)

    @property
    def config(self) -> LadderConfig:
        return self._config

    @property
    def rungs_available(self) -> list[str]:
        rungs = ["exact", "fuzzy"]
        if self._embed is not None:
            rungs.append("embedding")
        if self._judge is not None:
            rungs.append("judge")
        return rungs

    def score_field(self, name: str, expected: Any, actual: Any) -> Entry:
        """The entry of one field (see the class docstring)."""
        return self._rate(name, expected, actual, detail=True, models=True)

    def score_document(
        self, expected: Mapping[str, Any], actual: Mapping[str, Any]
    ) -> tuple[float, dict[str, Any]]:
        """(mean field score, details) over the fields of `expected` that are not null.

        Details map each field to its entry, plus the floats `completeness` (share of
        fields with a non-null actual), `correctness` (mean score over those) and
        `quality` (the score); they sit beside the fields, so a ground-truth field
        with one of those names is shadowed in the details (never in the score).
        A document with no fields scores 0.0: nothing was shown to be right.
        """
        details: dict[str, Any] = {}
        scores: list[float] = []
        present: list[float] = []
        for name, wanted in expected.items():
            if wanted is None:
                continue
            given = actual.get(name)
            entry = self.score_field(name, wanted, given)
            details[name] = entry
            scores.append(entry["score"])
            if given is not None:
                present.append(entry["score"])
        score = mean(scores)
        details["completeness"] = len(present) / len(scores) if scores else 0.0
        details["correctness"] = mean(present)
        details["quality"] = score
        return score, details

    def _rate(self, name: str, expected: Any, actual: Any, *, detail: bool, models: bool) -> Entry:
        """The ladder. `detail` off skips what only a reader needs; `models` off skips hooks."""
        if actual is None:
            entry: Entry = {"score": 0.0, "rung": "missing", "reason": "missing"}
        elif isinstance(expected, (list, tuple)):
            entry = self._rate_set(name, expected, actual, detail=detail, models=models)
        elif isinstance(expected, Mapping):
            entry = self._rate_nested(expected, actual, detail=detail, models=models)
        elif isinstance(expected, bool):
            entry = _rate_bool(expected, actual)
        else:
            entry = self._rate_scalar(name, expected, actual, models=models)
        if not detail:
            return entry
        shown: Entry = {
            "score": entry["score"],
            "rung": entry["rung"],
            "expected": _jsonable(expected),
            "actual": _jsonable(actual),
        }
        shown.update(entry)
        return shown

    def _cheap_score(self, name: str, expected: Any, actual: Any) -> float:
        score: float = self._rate(name, expected, actual, detail=False, models=False)["score"]
        return score

    def _rate_scalar(self, name: str, expected: Any, actual: Any, *, models: bool) -> Entry:
        config = self._config
        rung, value = scalar_kind(name, expected, config)
        if rung == "number":
            return _rate_number(value, actual, config)
        if rung == "date":
            return _rate_date(value, actual, config.date_order)
        return self._rate_text(name, expected, actual, models=models)

    def _rate_text(self, name: str, expected: Any, actual: Any, *, models: bool) -> Entry:
        strictness = self._config.strictness
        expected_text = expected if isinstance(expected, str) else str(expected)
        actual_text = actual if isinstance(actual, str) else str(actual)
        left, right = self._normalize(expected_text), self._normalize(actual_text)
        if left == right:
            return {"score": 1.0, "rung": "exact"}
        cap = self._config.max_text_chars
        over = max(len(left), len(right)) > cap
        similarity = fuzz.ratio(left[:cap], right[:cap]) / 100.0
        entry: Entry = {"score": 0.0, "rung": "fuzzy", "similarity": round(similarity, 4)}
        if over:
            entry["budget"] = (
                f"text over bizbench_max_text_chars ({cap}): "
                f"similarity of the first {cap} characters"
            )
        if similarity >= strictness:
            return _decided(entry, 1.0, "fuzzy")
        if models and self._embed is not None:
            try:
                closeness = self._cosine(self._embed, expected_text, actual_text)
            except Exception as exc:
                return _unscored("embedding", entry, exc)
            entry["cosine"] = round(closeness, 4)
            if closeness >= strictness:
                return _decided(entry, 1.0, "embedding")
        if models and self._judge is not None:
            try:
                grade = checked_grade(self._judge(name, expected, actual))
            except Exception as exc:
                return _unscored("judge", entry, exc)
            if grade is not None:
                return _decided(entry, grade / 100.0, "judge", judge_score=grade)
        if name in self._config.free_text_fields:
            return _decided(entry, similarity, "free-text", reason="below-strictness")
        return _decided(entry, 0.0, "fuzzy", reason="below-strictness")

    @staticmethod
    def _cosine(embed: Embedder, expected: str, actual: str) -> float:
        vectors = embed([expected, actual])
        if len(vectors) != 2:
            raise ValueError(f"embedder returned {len(vectors)} vectors for 2 texts")
        return cosine(vectors[0], vectors[1])

    def _normalize(self, text: str) -> str:
        """`normalize`, remembered: list matching normalises each item once per pair."""
        known = self._normalized.get(text)
        if known is None:
            if len(self._normalized) >= _NORMALIZED_MEMO:
                self._normalized.clear()
            known = self._normalized[text] = normalize(text)
        return known

    def _rate_set(
        self, name: str, expected: Sequence[Any], actual: Any, *, detail: bool, models: bool
    ) -> Entry:
        wanted = [item for item in expected if item is not None]
        given = list(actual) if isinstance(actual, (list, tuple)) else [actual]
        cap = self._config.max_list_items
        over = max(len(wanted), len(given)) > cap
        pairs: list[tuple[int, int, float]] = []
        if over:
            scored = (
                (k, k, self._cheap_score(name, w, g))
                for k, (w, g) in enumerate(zip(wanted, given, strict=False))
            )
            pairs = [pair for pair in scored if pair[2] > 0.0]
        elif wanted and given:
            pairs = self._match(name, wanted, given, models=models)
        credit = math.fsum(score for _, _, score in pairs)
        total = len(wanted) + len(given)
        entry: Entry = {
            "score": 2.0 * credit / total if total else 1.0,
            "rung": "set",
            "precision": credit / len(given) if given else float(not wanted),
            "recall": credit / len(wanted) if wanted else float(not given),
        }
        if not detail:
            return entry
        if over:
            entry["budget"] = f"list items over bizbench_max_list_items ({cap}): matched in order"
        rows = {i for i, _, _ in pairs}
        cols = {j for _, j, _ in pairs}
        listed = {
            "matched": [[wanted[i], given[j], score] for i, j, score in pairs],
            "missed": [item for i, item in enumerate(wanted) if i not in rows],
            "hallucinated": [item for j, item in enumerate(given) if j not in cols],
        }
        for key, items in listed.items():
            cast(dict[str, Any], entry)[key] = _jsonable(items[:MAX_ITEMS])
            if len(items) > MAX_ITEMS:
                entry["truncated"] = True
        return entry

    def _match(
        self, name: str, wanted: list[Any], given: list[Any], *, models: bool
    ) -> list[tuple[int, int, float]]:
        """The credited pairs (expected index, actual index, item score), by expected index."""
        if self._config.bulk_lists:
            cheap = self._pairs.rows(name, wanted, given)
            pairs = assign(cheap, len(given))
        else:
            cheap = _sparse([[self._cheap_score(name, w, g) for g in given] for w in wanted])
            pairs = assign(cheap, len(given), solver=kuhn_munkres)
        if not models or (self._embed is None and self._judge is None):
            return pairs
        sure = [pair for pair in pairs if pair[2] >= 1.0]
        rows = sorted(set(range(len(wanted))) - {i for i, _, _ in sure})
        cols = sorted(set(range(len(given))) - {j for _, j, _ in sure})
        if not rows or not cols:
            return sure
        full = [
            [
                cheap[i].get(j, 0.0)
                if cheap[i].get(j, 0.0) >= 1.0
                else self._rate(name, wanted[i], given[j], detail=False, models=True)["score"]
                for j in cols
            ]
            for i in rows
        ]
        found = assign(_sparse(full), len(cols))
        return sorted(sure + [(rows[r], cols[c], score) for r, c, score in found])

    def _rate_nested(
        self, expected: Mapping[Any, Any], actual: Any, *, detail: bool, models: bool
    ) -> Entry:
        if not isinstance(actual, Mapping):
            return {"score": 0.0, "rung": "nested", "reason": "type-mismatch"}
        fields: dict[str, Entry] = {}
        scores: list[float] = []
        for key, sub in expected.items():
            if sub is None:
                continue
            entry = self._rate(str(key), sub, actual.get(key), detail=detail, models=models)
            scores.append(entry["score"])
            if detail:
                fields[str(key)] = entry
        result: Entry = {
            "score": math.fsum(scores) / len(scores) if scores else 1.0,
            "rung": "nested",
        }
        if detail:
            result["fields"] = fields
        return result


def _sparse(scores: list[list[float]]) -> list[Row]:
    return [{j: score for j, score in enumerate(row) if score > 0.0} for row in scores]


def _rate_bool(expected: bool, actual: Any) -> Entry:
    stated = stated_bool(actual)
    if stated is None:
        return {"score": 0.0, "rung": "bool", "reason": "not-a-bool"}
    if stated is expected:
        return {"score": 1.0, "rung": "bool"}
    return {"score": 0.0, "rung": "bool", "reason": "mismatch"}


def _rate_number(target: float, actual: Any, config: LadderConfig) -> Entry:
    value = parse_number(actual)
    if value is None:
        return {"score": 0.0, "rung": "number", "reason": "not-a-number"}
    if numbers_match(target, value, config.rel_tol, config.abs_tol):
        return {"score": 1.0, "rung": "number"}
    return {"score": 0.0, "rung": "number", "reason": "out-of-tolerance"}


def _rate_date(target: date, actual: Any, order: str) -> Entry:
    day = parse_date(actual, order)
    if day is None:
        return {"score": 0.0, "rung": "date", "reason": "not-a-date"}
    if day == target:
        return {"score": 1.0, "rung": "date"}
    return {"score": 0.0, "rung": "date", "reason": "mismatch"}


def _unscored(rung: str, entry: Entry, exc: Exception) -> Entry:
    """A model hook failed: 0, flagged, because a crash is not evidence of a wrong value."""
    reason = _jsonable(f"{rung}-error: {type(exc).__name__}: {exc}")
    return _decided(entry, 0.0, rung, reason=reason, unscored=True)


def _decided(
    entry: Entry,
    score: float,
    rung: str,
    *,
    judge_score: float | None = None,
    reason: str | None = None,
    unscored: bool = False,
) -> Entry:
    """The text evidence in `entry` decided by `rung`, keys in the report's order."""
    out = entry.copy()
    out["score"], out["rung"] = score, rung
    if judge_score is not None:
        out["judge_score"] = judge_score
    if reason is not None:
        out["reason"] = reason
    if unscored:
        out["unscored"] = True
    return out


def _jsonable(value: Any) -> Any:
    """A bounded JSON-able copy, for the report: details stay small whatever the input."""
    # the common types first, a dict before the ABC check: every list item comes here
    if isinstance(value, str):
        return value if len(value) <= MAX_TEXT else value[:MAX_TEXT] + "…"
    if type(value) is dict:
        return _bounded_mapping(value)
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Mapping):
        return _bounded_mapping(value)
    if isinstance(value, (list, tuple)):
        items = [_jsonable(v) for v in islice(value, MAX_ITEMS)]
        if len(value) > MAX_ITEMS:
            items.append(f"… {len(value) - MAX_ITEMS} more items")
        return items
    return _jsonable(str(value))


def _bounded_mapping(value: Mapping[Any, Any]) -> dict[str, Any]:
    shown = {str(k): _jsonable(v) for k, v in islice(value.items(), MAX_ITEMS)}
    if len(value) > MAX_ITEMS:
        shown["…"] = f"{len(value) - MAX_ITEMS} more keys"
    return shown
