"""The field ladder (SPEC §5.1): one extracted value against its ground truth.

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
from typing import Any

from rapidfuzz import fuzz

from pytest_bizbench.config import LadderConfig
from pytest_bizbench.scoring.dates import looks_like_iso_date, parse_date
from pytest_bizbench.scoring.numbers import numbers_match, parse_number
from pytest_bizbench.scoring.text import cosine, normalize

Embedder = Callable[[list[str]], list[list[float]]]
"""Texts to one vector each (the `pytest_bizbench_embed` hook)."""
JudgeFn = Callable[[str, Any, Any], float | None]
"""(field, expected, actual) to a 0-100 grade, or None to abstain (`pytest_bizbench_judge`)."""

Entry = dict[str, Any]

MAX_TEXT = 200
MAX_ITEMS = 50
_NORMALIZED_MEMO = 8192
_BOOL_WORDS = {"true": True, "yes": True, "false": False, "no": False}


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
    far fewer than n * n model calls.

    A nested object scores the mean of its sub-fields (null expected sub-fields are
    skipped; with none left the score is 1, nothing being asked).
    """

    __slots__ = ("_config", "_embed", "_judge", "_normalized")

    def __init__(
        self, config: LadderConfig, embed: Embedder | None = None, judge: JudgeFn | None = None
    ) -> None:
        self._config = config
        self._embed = embed
        self._judge = judge
        self._normalized: dict[str, str] = {}

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

    def score_field(self, name: str, expected: Any, actual: Any) -> dict[str, Any]:
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
        score = math.fsum(scores) / len(scores) if scores else 0.0
        details["completeness"] = len(present) / len(scores) if scores else 0.0
        details["correctness"] = math.fsum(present) / len(present) if present else 0.0
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

    def _rate_scalar(self, name: str, expected: Any, actual: Any, *, models: bool) -> Entry:
        config = self._config
        if isinstance(expected, (int, float)) or name in config.numeric_fields:
            target = parse_number(expected)
            if target is not None:
                return _rate_number(target, actual, config)
        if (
            isinstance(expected, date)
            or name in config.date_fields
            or looks_like_iso_date(expected)
        ):
            day = parse_date(expected, config.date_order)
            if day is not None:
                return _rate_date(day, actual, config.date_order)
        return self._rate_text(name, expected, actual, models=models)

    def _rate_text(self, name: str, expected: Any, actual: Any, *, models: bool) -> Entry:
        strictness = self._config.strictness
        expected_text = expected if isinstance(expected, str) else str(expected)
        actual_text = actual if isinstance(actual, str) else str(actual)
        left, right = self._normalize(expected_text), self._normalize(actual_text)
        if left == right:
            return {"score": 1.0, "rung": "exact"}
        similarity = fuzz.ratio(left, right) / 100.0
        entry: Entry = {"similarity": round(similarity, 4)}
        if similarity >= strictness:
            return {"score": 1.0, "rung": "fuzzy", **entry}
        if models and self._embed is not None:
            try:
                closeness = self._cosine(self._embed, expected_text, actual_text)
            except Exception as exc:
                return _unscored("embedding", entry, exc)
            entry["cosine"] = round(closeness, 4)
            if closeness >= strictness:
                return {"score": 1.0, "rung": "embedding", **entry}
        if models and self._judge is not None:
            try:
                grade = _grade(self._judge(name, expected, actual))
            except Exception as exc:
                return _unscored("judge", entry, exc)
            if grade is not None:
                return {"score": grade / 100.0, "rung": "judge", **entry, "judge_score": grade}
        if name in self._config.free_text_fields:
            return {"score": similarity, "rung": "free-text", **entry, "reason": "below-strictness"}
        return {"score": 0.0, "rung": "fuzzy", **entry, "reason": "below-strictness"}

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
        pairs = self._match(name, wanted, given, models=models) if wanted and given else []
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
        rows = {i for i, _, _ in pairs}
        cols = {j for _, j, _ in pairs}
        listed = {
            "matched": [[wanted[i], given[j], score] for i, j, score in pairs],
            "missed": [item for i, item in enumerate(wanted) if i not in rows],
            "hallucinated": [item for j, item in enumerate(given) if j not in cols],
        }
        for key, items in listed.items():
            entry[key] = _jsonable(items[:MAX_ITEMS])
            if len(items) > MAX_ITEMS:
                entry["truncated"] = True
        return entry

    def _match(
        self, name: str, wanted: list[Any], given: list[Any], *, models: bool
    ) -> list[tuple[int, int, float]]:
        """The credited pairs (expected index, actual index, item score), by expected index."""
        cheap = [
            [self._rate(name, w, g, detail=False, models=False)["score"] for g in given]
            for w in wanted
        ]
        pairs = _assign(cheap)
        if not models or (self._embed is None and self._judge is None):
            return pairs
        sure = [pair for pair in pairs if pair[2] >= 1.0]
        rows = sorted(set(range(len(wanted))) - {i for i, _, _ in sure})
        cols = sorted(set(range(len(given))) - {j for _, j, _ in sure})
        if not rows or not cols:
            return sure
        full = [
            [
                cheap[i][j]
                if cheap[i][j] >= 1.0
                else self._rate(name, wanted[i], given[j], detail=False, models=True)["score"]
                for j in cols
            ]
            for i in rows
        ]
        return sorted(sure + [(rows[r], cols[c], score) for r, c, score in _assign(full)])

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


def _rate_bool(expected: bool, actual: Any) -> Entry:
    stated = actual
    if isinstance(actual, str):
        stated = _BOOL_WORDS.get(actual.strip().casefold())
    if not isinstance(stated, bool):
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


def _grade(value: object) -> float | None:
    """A judge's answer checked: None abstains, anything but a 0-100 number is an error."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"judge returned {value!r}, not a number")
    if not 0.0 <= value <= 100.0:
        raise ValueError(f"judge returned {value!r}, outside 0-100")
    return float(value)


def _unscored(rung: str, entry: Entry, exc: Exception) -> Entry:
    """A model hook failed: 0, flagged, because a crash is not evidence of a wrong value."""
    reason = _jsonable(f"{rung}-error: {type(exc).__name__}: {exc}")
    return {"score": 0.0, "rung": rung, **entry, "reason": reason, "unscored": True}


def _assign(scores: list[list[float]]) -> list[tuple[int, int, float]]:
    """Row-column pairs maximising the summed score, each row and column used once.

    Kuhn-Munkres with potentials on cost 1 - score, O(rows^2 * cols). Rows and
    columns that score 0 everywhere are left out first: they cannot add credit and
    would only lengthen the search. Pairs scoring 0 are dropped from the result.
    Deterministic: the same matrix always gives the same pairs.
    """
    live_rows = [i for i, row in enumerate(scores) if any(s > 0.0 for s in row)]
    live_cols = [j for j in range(len(scores[0])) if any(scores[i][j] > 0.0 for i in live_rows)]
    if not live_cols:
        return []
    if len(live_rows) > len(live_cols):
        flipped = [[scores[i][j] for i in live_rows] for j in live_cols]
        pairs = [(live_rows[r], live_cols[c]) for c, r in _kuhn_munkres(flipped)]
    else:
        square = [[scores[i][j] for j in live_cols] for i in live_rows]
        pairs = [(live_rows[r], live_cols[c]) for r, c in _kuhn_munkres(square)]
    return sorted((i, j, scores[i][j]) for i, j in pairs if scores[i][j] > 0.0)


def _kuhn_munkres(scores: list[list[float]]) -> list[tuple[int, int]]:
    """Best assignment of every row (rows <= columns) to a distinct column."""
    rows, cols = len(scores), len(scores[0])
    u = [0.0] * (rows + 1)
    v = [0.0] * (cols + 1)
    owner = [0] * (cols + 1)  # owner[j]: 1-based row holding column j; column 0 is scratch
    way = [0] * (cols + 1)
    for i in range(1, rows + 1):
        owner[0] = i
        j0 = 0
        slack = [math.inf] * (cols + 1)
        used = [False] * (cols + 1)
        while True:
            used[j0] = True
            i0 = owner[j0]
            row, u_i0 = scores[i0 - 1], u[i0]
            delta, j1 = math.inf, 0
            for j in range(1, cols + 1):
                if not used[j]:
                    reduced = (1.0 - row[j - 1]) - u_i0 - v[j]
                    if reduced < slack[j]:
                        slack[j], way[j] = reduced, j0
                    if slack[j] < delta:
                        delta, j1 = slack[j], j
            for j in range(cols + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    slack[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    return [(owner[j] - 1, j - 1) for j in range(1, cols + 1) if owner[j]]


def _jsonable(value: Any) -> Any:
    """A bounded JSON-able copy, for the report: details stay small whatever the input."""
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, str):
        return value if len(value) <= MAX_TEXT else value[:MAX_TEXT] + "…"
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Mapping):
        shown = {str(k): _jsonable(v) for k, v in islice(value.items(), MAX_ITEMS)}
        if len(value) > MAX_ITEMS:
            shown["…"] = f"{len(value) - MAX_ITEMS} more keys"
        return shown
    if isinstance(value, (list, tuple)):
        items = [_jsonable(v) for v in islice(value, MAX_ITEMS)]
        if len(value) > MAX_ITEMS:
            items.append(f"… {len(value) - MAX_ITEMS} more items")
        return items
    return _jsonable(str(value))
