"""The field ladder: one extracted value against its ground truth.

Rungs run cheapest and most certain first, and the first that can decide does:
a value the parsers can read (bool, number, date) is decided by them and never by
text similarity; text goes exact, fuzzy, then the optional model rungs (embedding,
judge), then partial credit for free-text fields. A field rule
(`options/field_rules.py`) picks the comparator instead; `compare.py` holds the
comparators and their two rules (digits are never fuzzy; a match is a similarity
at or above the threshold).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from itertools import islice
from typing import Any, cast

from rapidfuzz import fuzz

from pytest_bizbench.details import FieldEntry
from pytest_bizbench.options.field_rules import FieldRules, Resolved
from pytest_bizbench.options.types import LadderConfig
from pytest_bizbench.scoring.compare import (
    date_closeness,
    digit_runs,
    id_key,
    is_empty,
    number_closeness,
    similarity,
    verdict,
)
from pytest_bizbench.scoring.dates import parse_date
from pytest_bizbench.scoring.judge import checked_grade
from pytest_bizbench.scoring.numbers import numbers_match, parse_number
from pytest_bizbench.scoring.pairing import Candidates, OverBudget, pair_greedily, pair_items
from pytest_bizbench.scoring.pairs import (
    MAX_RATED_PAIRS,
    PairScorer,
    scalar_kind,
    stated_bool,
    text_kind,
)
from pytest_bizbench.scoring.text import cosine, normalize

Embedder = Callable[[list[str]], list[list[float]]]
"""Texts to one vector each (the `pytest_bizbench_embed` hook)."""
JudgeFn = Callable[[str, Any, Any], float | None]
"""(field, expected, actual) to a 0-100 grade, or None to abstain (`pytest_bizbench_judge`)."""

Entry = FieldEntry

MAX_TEXT = 200
MAX_ITEMS = 50
MAX_SLOW_PAIRS = 10_000
"""Pairs of one list a user or model comparator may be called on; past it, in order."""
MAX_PAIRING_STEPS = 20_000_000
"""Offers a list's pairing may read and walk (a second or two); past it, greedily."""
_NORMALIZED_MEMO = 8192
COUNT_KEYS = ("tp", "fd", "fn", "fa", "tn")
# a document's summary entries, ahead of its fields in the details
SUMMARY_KEYS = (
    "quality",
    "completeness",
    "correctness",
    "field_total",
    "extra_fields",
    "field_counts",
)
TP, FD, FN, FA, TN = range(5)


@dataclass(slots=True)
class _Tally:
    """One document's counts by field path and its extra fields, filled while it is
    scored (a builder that never leaves the ladder)."""

    extra_mode: str
    counts: dict[str, list[int]] = field(default_factory=dict)
    extras: list[str] = field(default_factory=list)

    def add(self, path: str, slot: int) -> None:
        self.counts.setdefault(path, [0] * 5)[slot] += 1


def _join(path: str, key: object) -> str:
    return f"{path}.{key}" if path else str(key)


def _leaf_slot(expected: Any, actual: Any, score: float) -> int:
    """Which count one compared value adds to: tp, fd, fn, fa or tn."""
    if is_empty(expected):
        return TN if is_empty(actual) else FA
    if is_empty(actual):
        return FN
    return TP if score >= 1.0 else FD


class FieldLadder:
    """Scores extracted fields against ground truth, one plain JSON-able entry per field.

    An entry has `score` (0..1), `rung` (what decided it), `expected` and `actual`
    (as given; strings cut at 200 characters, containers at 50 items), its counts
    `tp`, `fd`, `fn`, `fa`, `tn`, and where it applies `similarity` (4 decimals),
    `cosine`, `judge_score`, `unscored` (a model hook or user comparator failed) and
    `reason`: `missing`, `not-empty`, `not-a-bool`, `not-a-number`, `not-a-date`,
    `mismatch`, `out-of-tolerance`, `below-strictness`, `digits-differ`,
    `type-mismatch`, `judge-abstained`, `<rung>-error: <Type>: <msg>` (a user
    comparator's rung is its `module:callable`, so the reason names it).

    Empty is a value: an expected `""`, `[]` or `{}` scores 1 (rung `empty`) against a
    missing, null or empty actual and 0 against anything else; an empty actual for a
    value expected is `missing`, as null is (counted fn, not fd). An expected null is
    not scored; an actual given for it is an entry of rung `unexpected` (a false
    alarm, not in the score).

    Lists are scored as sets. Expected and actual items are paired one to one by
    `pairing.pair_items` (most credit, then most closeness, then order), a pair being
    a candidate only when its item score reaches the list's `match_threshold`
    (default 0.5); below it, the expected item is missed and the actual one
    hallucinated. precision = credit / len(actual), recall = credit / len(expected),
    score = F1 = 2 * credit / (len(expected) + len(actual)); both lists empty gives 1.
    Null items of an expected list are ignored like null fields, and an actual that
    is not a list counts as a list of that one value. With model hooks, pairs are
    first made on the cheap rungs alone; those scoring 1 are kept, and only the items
    left over are compared by the models. The cheap candidates come in bulk (`pairs`).

    Work budgets keep one case from holding up the run. A list with more items on
    either side than `max_list_items`, or whose pairs a user or model comparator
    would be called on more than `MAX_SLOW_PAIRS` times, pairs its items in order
    (item k with item k); a list whose objects have more than `MAX_RATED_PAIRS`
    candidate pairs pairs them by their credit alone (each pair's closeness is its
    credit, not compared field by field; the pairs kept are then compared whole, so the
    score is the same to six decimals, but which of equally credited pairs is kept,
    and so the counts, may differ); text longer than `max_text_chars` after
    normalisation, when not an exact match, gets the similarity of its first
    `max_text_chars` characters; a list whose best pairing would take more than
    `MAX_PAIRING_STEPS` (thousands of distinct values all within one another's
    tolerance) is paired in expected order, each item taking its best candidate left.
    Each says so in the entry's `budget`.

    A nested object, and the document, score the weighted mean of their fields
    (`weight`, default 1; null expected fields and `ignore` fields are skipped; with
    none left an object scores 1, nothing being asked).
    """

    __slots__ = ("_config", "_embed", "_judge", "_normalized", "_pairs", "_resolved", "_rules")

    def __init__(
        self,
        config: LadderConfig,
        embed: Embedder | None = None,
        judge: JudgeFn | None = None,
        rules: FieldRules | None = None,
    ) -> None:
        self._config = config
        self._embed = embed
        self._judge = judge
        self._rules = rules or FieldRules()
        self._normalized: dict[str, str] = {}
        self._resolved: dict[str, Resolved] = {}
        self._pairs = PairScorer(config, self._normalize, self._cheap_pair, self._resolve)

    @property
    def config(self) -> LadderConfig:
        return self._config

    @property
    def rules(self) -> FieldRules:
        return self._rules

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
        return self._rate(name, expected, actual, _Tally(self._rules.extra_mode()), models=True)

    def score_document(
        self, expected: Mapping[str, Any], actual: Mapping[str, Any]
    ) -> tuple[float, dict[str, Any]]:
        """(weighted mean field score, details) over the fields of `expected`.

        Details map each field to its entry, plus `extra_fields` (paths of predicted
        keys the ground truth lacks, at any depth), `field_counts` (path -> counts,
        list items counted one by one), `field_total` (those counts summed) and the
        floats `completeness` (share of fields with a non-null actual), `correctness`
        (mean score over those) and `quality` (the score). They sit before the fields,
        so a ground-truth field with one of those names is shadowed in the details
        (never in the score). A document that
        expects nothing scores 1 against an empty prediction, else 0. Root rule
        `extra: penalize` scores each extra field as a field scored 0.
        """
        tally = _Tally(self._rules.extra_mode())
        details, weighted, _ = self._fields("", expected, actual, tally, models=True)
        scores = [entry["score"] for entry in details.values() if entry["rung"] != "unexpected"]
        present = [
            entry["score"]
            for name, entry in details.items()
            if entry["rung"] != "unexpected" and actual.get(name) is not None
        ]
        if tally.extra_mode == "penalize":
            weighted += [(0.0, 1.0)] * len(tally.extras)
        if scores:
            score = _weighted_mean(weighted)
        else:
            score = 1.0 if all(is_empty(value) for value in actual.values()) else 0.0
        # the summary first: a report bounds a document's details to its first entries,
        # and the sums a run's metrics add up must survive any number of fields
        result: dict[str, Any] = dict.fromkeys(SUMMARY_KEYS)
        result.update(details)
        rows = [tally.counts[path] for path in sorted(tally.counts)]
        sums = [sum(column) for column in zip(*rows, strict=True)] if rows else [0] * 5
        result["field_total"] = dict(zip(COUNT_KEYS, sums, strict=True))
        result["extra_fields"] = sorted(set(tally.extras))[:MAX_ITEMS]
        result["field_counts"] = {
            path: dict(zip(COUNT_KEYS, tally.counts[path], strict=True))
            for path in sorted(tally.counts)
        }
        result["completeness"] = len(present) / len(scores) if scores else 0.0
        result["correctness"] = math.fsum(present) / len(present) if present else 0.0
        result["quality"] = score
        return score, result

    def _resolve(self, path: str) -> Resolved:
        """A path's rule over the run's defaults, remembered: list items ask per pair."""
        found = self._resolved.get(path)
        if found is None:
            config = self._config
            name = path.rsplit(".", 1)[-1].replace("[]", "")
            defaults = Resolved(
                compare=None,
                threshold=config.strictness,
                partial=name in config.free_text_fields,
                rel_tol=config.rel_tol,
                abs_tol=config.abs_tol,
                tolerance_days=0,
                date_order=config.date_order,
                weight=1.0,
                match_threshold=0.5,
                digits_exact=True,
            )
            found = self._resolved[path] = self._rules.resolve(path, defaults)
        return found

    def _fields(
        self,
        path: str,
        expected: Mapping[Any, Any],
        actual: Mapping[Any, Any],
        tally: _Tally | None,
        *,
        models: bool,
    ) -> tuple[dict[str, Entry], list[tuple[float, float]], float]:
        """An object's entries, (score, weight) pairs and closeness; extras tallied."""
        entries: dict[str, Entry] = {}
        weighted: list[tuple[float, float]] = []
        close: list[tuple[float, float]] = []
        for key, sub in expected.items():
            sub_path = _join(path, key)
            rule = self._resolve(sub_path)
            if rule.compare == "ignore":
                continue
            given = actual.get(key)
            if sub is None:
                if tally is not None and not is_empty(given):
                    tally.add(sub_path, FA)
                    unexpected: Entry = {"score": 0.0, "rung": "unexpected", "expected": None}
                    unexpected["actual"] = _jsonable(given)
                    entries[str(key)] = _with_counts(unexpected, FA)
                continue
            entry = self._rate(sub_path, sub, given, tally, models=models)
            weighted.append((entry["score"], rule.weight))
            close.append((_closeness_of(entry), rule.weight))
            if tally is not None:
                entries[str(key)] = entry
        if tally is not None and tally.extra_mode != "ignore":
            for key, value in actual.items():
                if key not in expected and not is_empty(value):
                    tally.extras.append(_join(path, key))
                    tally.add(_join(path, key), FA)
        return entries, weighted, _weighted_mean(close) if close else 1.0

    def _rate(
        self, path: str, expected: Any, actual: Any, tally: _Tally | None, *, models: bool
    ) -> Entry:
        """The ladder. With a `tally` the entry is for a reader and the counts are kept;
        `models` off skips the model hooks."""
        rule = self._resolve(path)
        if isinstance(expected, (list, tuple)):  # null items are not asked for
            expected = [item for item in expected if item is not None]
        if is_empty(expected):
            ok = is_empty(actual)
            entry: Entry = {"score": float(ok), "rung": "empty"}
            if not ok:
                entry["reason"] = "not-empty"
                if tally is not None and isinstance(actual, (list, tuple, Mapping)):
                    entry["counts"] = self._counted(path, actual, FA, tally)
        elif is_empty(actual):  # null or empty: nothing was given for a value expected
            entry = {"score": 0.0, "rung": "missing", "reason": "missing"}
            if tally is not None and isinstance(expected, (list, tuple, Mapping)):
                entry["counts"] = self._counted(path, expected, FN, tally)
        elif isinstance(expected, (list, tuple)):
            entry = self._rate_set(path, expected, actual, tally, models=models)
        elif isinstance(expected, Mapping):
            entry = self._rate_nested(path, expected, actual, tally, models=models)
        else:
            entry = self._rate_scalar(path, rule, expected, actual, models=models)
        if tally is None:
            return entry
        slot: int | None = None
        if "counts" not in entry and (
            not isinstance(expected, (list, tuple, Mapping)) or entry["rung"] == "empty"
        ):
            slot = _leaf_slot(expected, actual, entry["score"])
            tally.add(path, slot)
        shown: Entry = {
            "score": entry["score"],
            "rung": entry["rung"],
            "expected": _jsonable(expected),
            "actual": _jsonable(actual),
        }
        shown.update(entry)
        shown.pop("closeness", None)
        counts = shown.pop("counts", None)
        if counts is None:
            return _with_counts(shown, slot)
        return _spread(shown, counts)

    def _counted(self, path: str, value: Any, slot: int, tally: _Tally) -> dict[str, int]:
        """Counts `value`'s leaves at `slot` (see `_count_leaves`), and returns them; a
        value with no non-empty leaf (`[""]`) still counts once, at `path`."""
        before = sum(row[slot] for row in tally.counts.values())
        self._count_leaves(path, value, slot, tally)
        added = sum(row[slot] for row in tally.counts.values()) - before
        if not added:
            tally.add(path, slot)
            added = 1
        return {key: added if k == slot else 0 for k, key in enumerate(COUNT_KEYS)}

    def _count_leaves(self, path: str, value: Any, slot: int, tally: _Tally) -> None:
        """Counts for a value compared with nothing (a missed or hallucinated item, a
        missing object): each non-empty leaf adds one at its path."""
        if isinstance(value, Mapping):
            for key, sub in value.items():
                sub_path = _join(path, key)
                if sub is not None and self._resolve(sub_path).compare != "ignore":
                    self._count_leaves(sub_path, sub, slot, tally)
        elif isinstance(value, (list, tuple)):
            for item in value:
                self._count_leaves(path + "[]", item, slot, tally)
        elif not is_empty(value) and self._resolve(path).compare != "ignore":
            tally.add(path, slot)

    def _cheap_pair(self, path: str, expected: Any, actual: Any) -> tuple[float, float]:
        return self._pair(path, expected, actual, models=False)

    def _pair(self, path: str, expected: Any, actual: Any, *, models: bool) -> tuple[float, float]:
        """(credit, closeness) of one pair of list items."""
        entry = self._rate(path, expected, actual, None, models=models)
        return entry["score"], _closeness_of(entry)

    def _rate_scalar(
        self, path: str, rule: Resolved, expected: Any, actual: Any, *, models: bool
    ) -> Entry:
        compare = rule.compare
        if rule.user is not None:
            return self._rate_user(rule, expected, actual)
        if compare in ("embedding", "judge"):
            return self._rate_model(path, rule, expected, actual, models=models)
        if compare in ("bool", None) and isinstance(expected, bool):
            return _rate_bool(expected, actual)
        if compare == "bool" and (stated := stated_bool(expected)) is not None:
            return _rate_bool(stated, actual)
        name = path.rsplit(".", 1)[-1].replace("[]", "")
        kind, value = scalar_kind(name, expected, self._config, rule)
        if kind == "number":
            return _rate_number(value, actual, rule)
        if kind == "date":
            return _rate_date(value, actual, rule)
        if compare is None:
            return self._rate_text(path, rule, expected, actual, models=models)
        return self._rate_rule_text(rule, value, actual)

    def _texts(self, expected: Any, actual: Any) -> tuple[str, str]:
        return self._normalize(_as_text(expected)), self._normalize(_as_text(actual))

    def _similar(self, kind: str, left: str, right: str, entry: Entry) -> float:
        """Similarity of two normalised texts, cut at the budget (which `entry` notes)."""
        if left == right:
            return 1.0
        cap = self._config.max_text_chars
        if max(len(left), len(right)) > cap:
            entry["budget"] = (
                f"text over bizbench_max_text_chars ({cap}): "
                f"similarity of the first {cap} characters"
            )
        return similarity(kind, left[:cap], right[:cap])

    def _rate_rule_text(self, rule: Resolved, expected: str, actual: Any) -> Entry:
        """A rule's text comparator: `exact`, `id`, `fuzzy`, `levenshtein`, `token_set`."""
        kind = text_kind(rule)
        left, right = self._texts(expected, actual)
        if kind in ("exact", "id"):
            equal = left == right if kind == "exact" else id_key(left) == id_key(right)
            close = 1.0 if left == right else fuzz.ratio(left, right) / 100.0
            entry: Entry = {"score": float(equal), "rung": kind, "closeness": close}
            if not equal:
                entry["reason"] = "mismatch"
            return entry
        entry = {"score": 0.0, "rung": kind}
        close = self._similar(kind, left, right, entry)
        ok = not rule.digits_exact or digit_runs(left) == digit_runs(right)
        entry["similarity"] = round(close, 4)
        entry["score"] = verdict(close, rule.threshold, rule.partial, ok)
        entry["closeness"] = close
        if close < rule.threshold:
            entry["reason"] = "below-strictness"
        elif not ok:
            entry["reason"] = "digits-differ"
        return entry

    def _rate_text(
        self, path: str, rule: Resolved, expected: Any, actual: Any, *, models: bool
    ) -> Entry:
        """The ladder's own text rungs: exact, fuzzy, embedding, judge, free text."""
        strictness = rule.threshold
        left, right = self._texts(expected, actual)
        if left == right:
            return {"score": 1.0, "rung": "exact"}
        entry: Entry = {"score": 0.0, "rung": "fuzzy"}
        close = self._similar("fuzzy", left, right, entry)
        entry["similarity"] = round(close, 4)
        entry["closeness"] = close
        digits_ok = not rule.digits_exact or digit_runs(left) == digit_runs(right)
        if close >= strictness and digits_ok:
            return _decided(entry, 1.0, "fuzzy")
        if models and self._embed is not None:
            try:
                closeness = self._cosine(self._embed, _as_text(expected), _as_text(actual))
            except Exception as exc:
                return _unscored("embedding", entry, exc)
            entry["cosine"] = round(closeness, 4)
            if closeness >= strictness and digits_ok:
                return _decided(entry, 1.0, "embedding")
        if models and self._judge is not None:
            try:
                grade = checked_grade(self._judge(_name(path), expected, actual))
            except Exception as exc:
                return _unscored("judge", entry, exc)
            if grade is not None:
                return _decided(entry, grade / 100.0, "judge", judge_score=grade)
        reason = "below-strictness" if close < strictness else "digits-differ"
        if rule.partial:
            return _decided(entry, close, "free-text", reason=reason)
        return _decided(entry, 0.0, "fuzzy", reason=reason)

    def _rate_model(
        self, path: str, rule: Resolved, expected: Any, actual: Any, *, models: bool
    ) -> Entry:
        """`compare: embedding` or `judge`: the model's closeness against the threshold."""
        kind = cast(str, rule.compare)
        entry: Entry = {"score": 0.0, "rung": kind}
        if not models:  # the cheap pass of a list: the models come after
            return entry
        try:
            if kind == "embedding":
                if self._embed is None:
                    raise LookupError("no embedding hook or endpoint is configured")
                close = self._cosine(self._embed, _as_text(expected), _as_text(actual))
                left, right = self._texts(expected, actual)
                ok = not rule.digits_exact or digit_runs(left) == digit_runs(right)
                entry["cosine"] = round(close, 4)
            else:
                if self._judge is None:
                    raise LookupError("no judge hook or endpoint is configured")
                grade = checked_grade(self._judge(_name(path), expected, actual))
                if grade is None:
                    return _decided(entry, 0.0, kind, reason="judge-abstained")
                close, ok = grade / 100.0, True
                entry["judge_score"] = grade
        except Exception as exc:
            return _unscored(kind, entry, exc)
        entry["closeness"] = close
        entry["score"] = verdict(close, rule.threshold, rule.partial, ok)
        if entry["score"] < 1.0:
            entry["reason"] = "below-strictness" if close < rule.threshold else "digits-differ"
        return entry

    @staticmethod
    def _rate_user(rule: Resolved, expected: Any, actual: Any) -> Entry:
        """`compare: module:callable`: the user's similarity against the threshold."""
        entry: Entry = {"score": 0.0, "rung": cast(str, rule.compare)}
        try:
            raw = cast(Callable[[Any, Any], object], rule.user)(expected, actual)
            if isinstance(raw, bool) or not isinstance(raw, (int, float)):
                raise TypeError(f"returned {type(raw).__name__}, not a number")
            if not 0.0 <= raw <= 1.0:
                raise ValueError(f"returned {raw!r}, not a number in 0..1")
        except Exception as exc:  # the user's bug fails this field, not the run
            return _unscored(entry["rung"], entry, exc)
        close = float(raw)
        entry["similarity"] = round(close, 4)
        entry["closeness"] = close
        entry["score"] = verdict(close, rule.threshold, rule.partial, True)
        if entry["score"] < 1.0:
            entry["reason"] = "below-strictness"
        return entry

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
        self,
        path: str,
        expected: Sequence[Any],
        actual: Any,
        tally: _Tally | None,
        *,
        models: bool,
    ) -> Entry:
        wanted = list(expected)
        given = list(actual) if isinstance(actual, (list, tuple)) else [actual]
        item_path = path + "[]"
        rule = self._resolve(item_path)
        floor = rule.match_threshold
        cap = self._config.max_list_items
        slow = rule.user is not None or rule.compare in ("embedding", "judge")
        over = max(len(wanted), len(given)) > cap
        over_slow = slow and len(wanted) * len(given) > MAX_SLOW_PAIRS
        pairs: list[tuple[int, int, float]] = []
        budget = None
        if over or over_slow:
            scored = (
                (k, k, self._pair(item_path, w, g, models=models)[0])
                for k, (w, g) in enumerate(zip(wanted, given, strict=False))
            )
            pairs = [pair for pair in scored if pair[2] >= floor and pair[2] > 0.0]
        elif wanted and given:
            pairs, budget = self._match(item_path, wanted, given, floor, models=models)
        credit = math.fsum(score for _, _, score in pairs)
        total = len(wanted) + len(given)
        entry: Entry = {
            "score": 2.0 * credit / total if total else 1.0,
            "rung": "set",
            "precision": credit / len(given) if given else float(not wanted),
            "recall": credit / len(wanted) if wanted else float(not given),
        }
        if tally is None:
            return entry
        if over:
            entry["budget"] = f"list items over bizbench_max_list_items ({cap}): matched in order"
        elif over_slow:
            entry["budget"] = (
                f"more than {MAX_SLOW_PAIRS} pairs for a user or model comparator: matched in order"
            )
        elif budget:
            entry["budget"] = budget
        rows = {i for i, _, _ in pairs}
        cols = {j for _, j, _ in pairs}
        counts = [0] * 5
        matched: list[list[Any]] = []
        for i, j, score in pairs:
            counts[TP if score >= 1.0 else FD] += 1
            shown = [wanted[i], given[j], score]
            if isinstance(wanted[i], Mapping):  # its fields are counted and shown
                item = self._rate(item_path, wanted[i], given[j], tally, models=models)
                shown.append(item.get("fields", {}))
            else:  # the pair's score says it all: no second model call
                tally.add(item_path, _leaf_slot(wanted[i], given[j], score))
            if len(matched) < MAX_ITEMS:
                matched.append(shown)
        missed = [item for i, item in enumerate(wanted) if i not in rows]
        hallucinated = [item for j, item in enumerate(given) if j not in cols]
        for slot, items in ((FN, missed), (FA, hallucinated)):
            counts[slot] = len(items)
            for value in items:
                self._count_leaves(item_path, value, slot, tally)
        listed = {"matched": matched, "missed": missed, "hallucinated": hallucinated}
        for key, items in listed.items():
            cast(dict[str, Any], entry)[key] = _jsonable(items[:MAX_ITEMS])
            if len(items) > MAX_ITEMS or (key == "matched" and len(pairs) > MAX_ITEMS):
                entry["truncated"] = True
        entry["counts"] = dict(zip(COUNT_KEYS, counts, strict=True))
        return entry

    def _match(
        self, item_path: str, wanted: list[Any], given: list[Any], floor: float, *, models: bool
    ) -> tuple[list[tuple[int, int, float]], str | None]:
        """The credited pairs (expected index, actual index, item score), by expected
        index, and the work budget that cut the comparison short, if one did."""
        settled: list[tuple[int, int, float]] = []
        rated = True
        if self._config.bulk_lists:
            cheap, settled, rated = self._pairs.rows_of_copies(item_path, wanted, given, floor)
        else:
            cheap = [self._row(item_path, w, given, floor, models=False) for w in wanted]
        budget = None
        try:
            paired = pair_items(cheap, len(given), MAX_PAIRING_STEPS)
        except OverBudget:
            paired = pair_greedily(cheap, len(given))
            budget = (
                f"the best pairing would take over {MAX_PAIRING_STEPS} steps: "
                "paired in expected order, each item its best candidate left"
            )
        found = [(i, j, cheap[i][j][0]) for i, j in paired]
        pairs = sorted(settled + found) if settled else found
        if not rated:  # the pairs kept are compared whole: their credits, exactly
            note = f"more than {MAX_RATED_PAIRS} pairs of objects: paired by credit"
            budget = f"{budget}; {note}" if budget else note
            whole = [
                (i, j, self._cheap_pair(item_path, wanted[i], given[j])[0]) for i, j, _ in pairs
            ]
            pairs = [pair for pair in whole if pair[2] >= floor and pair[2] > 0.0]
        if not models or (self._embed is None and self._judge is None):
            return pairs, budget
        sure = [pair for pair in pairs if pair[2] >= 1.0]
        rows = sorted(set(range(len(wanted))) - {i for i, _, _ in sure})
        cols = sorted(set(range(len(given))) - {j for _, j, _ in sure})
        if not rows or not cols:
            return sure, budget
        left = [given[j] for j in cols]
        full = [
            {
                c: cheap[i][j] if cheap[i].get(j, (0.0, 0.0))[0] >= 1.0 else pair
                for c, pair in self._row(item_path, wanted[i], left, floor, models=True).items()
                for j in (cols[c],)
            }
            for i in rows
        ]
        found = [(rows[r], cols[c], full[r][c][0]) for r, c in pair_items(full, len(cols))]
        return sorted(sure + found), budget

    def _row(
        self, item_path: str, expected: Any, given: list[Any], floor: float, *, models: bool
    ) -> Candidates:
        """One expected item against every actual one, pair by pair."""
        rated = (
            (j, self._pair(item_path, expected, g, models=models)) for j, g in enumerate(given)
        )
        return {j: pair for j, pair in rated if pair[0] >= floor and pair[0] > 0.0}

    def _rate_nested(
        self,
        path: str,
        expected: Mapping[Any, Any],
        actual: Any,
        tally: _Tally | None,
        *,
        models: bool,
    ) -> Entry:
        if not isinstance(actual, Mapping):
            entry: Entry = {"score": 0.0, "rung": "nested", "reason": "type-mismatch"}
            if tally is not None:
                entry["counts"] = self._counted(path, expected, FD, tally)
            return entry
        fields, weighted, close = self._fields(path, expected, actual, tally, models=models)
        result: Entry = {
            "score": _weighted_mean(weighted) if weighted else 1.0,
            "rung": "nested",
            "closeness": close,
        }
        if tally is not None:
            result["fields"] = fields
            result["counts"] = {
                key: sum(int(cast(dict[str, Any], entry).get(key, 0)) for entry in fields.values())
                for key in COUNT_KEYS
            }
        return result


def _with_counts(entry: Entry, slot: int | None) -> Entry:
    """The entry with the counts of one compared value (all 0 when `slot` is None)."""
    return _spread(entry, {key: int(k == slot) for k, key in enumerate(COUNT_KEYS)})


def _spread(entry: Entry, counts: Mapping[str, int]) -> Entry:
    """The entry with its counts as the keys `tp`, `fd`, `fn`, `fa`, `tn`."""
    entry["tp"], entry["fd"], entry["fn"] = counts["tp"], counts["fd"], counts["fn"]
    entry["fa"], entry["tn"] = counts["fa"], counts["tn"]
    return entry


def _closeness_of(entry: Mapping[str, Any]) -> float:
    """How close a compared pair is, for ordering equally credited pairs."""
    return float(entry.get("closeness", entry["score"]))


def _weighted_mean(pairs: list[tuple[float, float]]) -> float:
    total = math.fsum(weight for _, weight in pairs)
    return math.fsum(score * weight for score, weight in pairs) / total if total else 0.0


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else str(value)


def _name(path: str) -> str:
    """The field name a judge is told: the path's last key."""
    return path.rsplit(".", 1)[-1].replace("[]", "")


def _rate_bool(expected: bool, actual: Any) -> Entry:
    stated = stated_bool(actual)
    if stated is None:
        return {"score": 0.0, "rung": "bool", "reason": "not-a-bool"}
    if stated is expected:
        return {"score": 1.0, "rung": "bool"}
    return {"score": 0.0, "rung": "bool", "reason": "mismatch"}


def _rate_number(target: float, actual: Any, rule: Resolved) -> Entry:
    value = parse_number(actual)
    if value is None:
        return {"score": 0.0, "rung": "number", "reason": "not-a-number"}
    close = number_closeness(target, value)
    if not numbers_match(target, value, rule.rel_tol, rule.abs_tol):
        return {"score": 0.0, "rung": "number", "reason": "out-of-tolerance", "closeness": close}
    return {"score": 1.0, "rung": "number", "closeness": close}


def _rate_date(target: date, actual: Any, rule: Resolved) -> Entry:
    day = parse_date(actual, rule.date_order)
    if day is None:
        return {"score": 0.0, "rung": "date", "reason": "not-a-date"}
    close = date_closeness(target, day)
    if abs((day - target).days) > rule.tolerance_days:
        return {"score": 0.0, "rung": "date", "reason": "mismatch", "closeness": close}
    return {"score": 1.0, "rung": "date", "closeness": close}


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
