"""A list field's item scores in bulk: every expected item against every actual item.

The scores are the ladder's cheap rungs, value for value, but each actual item is
read once per way of looking at it (normalised text, number, date, bool, sub-field)
rather than once per pair, and the pairs are found without a Python call each:
text by rapidfuzz over all items at once (`process.cdist` on all cores when numpy
is installed, else `process.extract` per expected item), numbers by a sorted search
within the tolerance, dates and bools by lookup. Only the positive scores are kept,
so a list whose items mostly differ costs what its matches cost.
"""

from __future__ import annotations

import bisect
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from rapidfuzz import fuzz, process

from pytest_bizbench.scoring.assign import NUMPY_CELLS, Row, numpy_module
from pytest_bizbench.scoring.dates import looks_like_iso_date, parse_date
from pytest_bizbench.scoring.numbers import numbers_match, parse_number

if TYPE_CHECKING:
    from pytest_bizbench.options.types import LadderConfig

BOOL_WORDS = {"true": True, "yes": True, "false": False, "no": False}

PARALLEL_PAIRS = 250_000  # pairs from which `cdist` runs on all cores

PairRate = Callable[[str, Any, Any], float]
"""(name, expected, actual) to the cheap ladder's score: items compared one pair at a time."""


def stated_bool(actual: Any) -> bool | None:
    """The bool an actual value states (`"yes"`, `"False"`, `True`), None when none."""
    stated = BOOL_WORDS.get(actual.strip().casefold()) if isinstance(actual, str) else actual
    return stated if isinstance(stated, bool) else None


def scalar_kind(name: str, expected: Any, config: LadderConfig) -> tuple[str, Any]:
    """How the ladder reads a scalar ground truth: ("number", float), ("date", date) or
    ("text", str), by its type, the config's field sets and whether it parses."""
    if isinstance(expected, (int, float)) or name in config.numeric_fields:
        target = parse_number(expected)
        if target is not None:
            return "number", target
    if isinstance(expected, date) or name in config.date_fields or looks_like_iso_date(expected):
        day = parse_date(expected, config.date_order)
        if day is not None:
            return "date", day
    return "text", expected if isinstance(expected, str) else str(expected)


def text_score(similarity: float, strictness: float, free_text: bool) -> float:
    """The cheap text rungs' score for a similarity: fuzzy match, partial credit or 0."""
    if similarity >= strictness:
        return 1.0
    return similarity if free_text else 0.0


class _Columns:
    """The actual items of one list, each read once per way a row looks at it."""

    __slots__ = ("_bools", "_dates", "_numbers", "_subs", "_texts", "items", "mappings")

    def __init__(self, items: Sequence[Any]) -> None:
        self.items = items
        self.mappings = [j for j, item in enumerate(items) if isinstance(item, Mapping)]
        self._texts: tuple[list[int], list[str], dict[str, list[int]]] | None = None
        self._numbers: tuple[list[float], list[int]] | None = None
        self._dates: dict[date, list[int]] | None = None
        self._bools: list[bool | None] | None = None
        self._subs: dict[Any, _Columns] = {}

    def texts(
        self, normalize: Callable[[str], str], cap: int
    ) -> tuple[list[int], list[str], dict[str, list[int]]]:
        """(indices, normalised texts cut at `cap`, indices by text) of the present items."""
        if self._texts is None:
            index: list[int] = []
            texts: list[str] = []
            by_text: dict[str, list[int]] = {}
            for j, item in enumerate(self.items):
                if item is not None:
                    text = normalize(item if isinstance(item, str) else str(item))[:cap]
                    index.append(j)
                    texts.append(text)
                    by_text.setdefault(text, []).append(j)
            self._texts = (index, texts, by_text)
        return self._texts

    def numbers(self) -> tuple[list[float], list[int]]:
        """The items that state a number, sorted by value: (values, indices)."""
        if self._numbers is None:
            read = sorted(
                (value, j)
                for j, item in enumerate(self.items)
                if item is not None and (value := parse_number(item)) is not None
            )
            self._numbers = ([value for value, _ in read], [j for _, j in read])
        return self._numbers

    def dates(self, order: str) -> dict[date, list[int]]:
        if self._dates is None:
            self._dates = {}
            for j, item in enumerate(self.items):
                if item is not None and (day := parse_date(item, order)) is not None:
                    self._dates.setdefault(day, []).append(j)
        return self._dates

    def bools(self) -> list[bool | None]:
        if self._bools is None:
            self._bools = [stated_bool(item) for item in self.items]
        return self._bools

    def sub(self, key: Any) -> _Columns:
        """The items' `key` sub-field (None where an item is not an object)."""
        found = self._subs.get(key)
        if found is None:
            found = self._subs[key] = _Columns(
                [item.get(key) if isinstance(item, Mapping) else None for item in self.items]
            )
        return found


class PairScorer:
    """Bulk item scores for lists, equal to `rate` called on every pair.

    `rate` still scores what has no bulk form (an item that is itself a list).
    """

    __slots__ = ("_config", "_normalize", "_rate")

    def __init__(
        self, config: LadderConfig, normalize: Callable[[str], str], rate: PairRate
    ) -> None:
        self._config = config
        self._normalize = normalize
        self._rate = rate

    def rows(self, name: str, wanted: Sequence[Any], given: Sequence[Any]) -> list[Row]:
        """One row per expected item: its positive scores by actual item index."""
        return self._rows(name, wanted, _Columns(given))

    def _rows(self, name: str, wanted: Sequence[Any], columns: _Columns) -> list[Row]:
        """Rows of one kind are computed together: texts in one rapidfuzz call, objects
        one sub-field at a time over all of them."""
        rows: list[Row] = [{} for _ in wanted]
        texts: list[tuple[int, str]] = []
        objects: list[tuple[int, Mapping[Any, Any]]] = []
        for i, item in enumerate(wanted):
            if isinstance(item, Mapping):
                objects.append((i, item))
            elif not _is_scalar(item):
                rows[i] = self._row(name, item, columns)
            elif (kind := scalar_kind(name, item, self._config))[0] == "text":
                texts.append((i, kind[1]))
            else:
                rows[i] = self._scalar_row(name, kind, columns)
        found = self._text_rows(name, [text for _, text in texts], columns) if texts else []
        for (i, _), row in zip(texts, found, strict=True):
            rows[i] = row
        found = self._nested_rows([item for _, item in objects], columns) if objects else []
        for (i, _), row in zip(objects, found, strict=True):
            rows[i] = row
        return rows

    def _row(self, name: str, expected: Any, columns: _Columns) -> Row:
        """A bool's row by lookup; a list's (a set inside a set) one pair at a time."""
        if isinstance(expected, bool):
            return {j: 1.0 for j, stated in enumerate(columns.bools()) if stated is expected}
        return {
            j: score
            for j, item in enumerate(columns.items)
            if item is not None and (score := self._rate(name, expected, item)) > 0.0
        }

    def _scalar_row(self, name: str, kind: tuple[str, Any], columns: _Columns) -> Row:
        config = self._config
        rung, value = kind
        if rung == "number":
            return self._number_row(value, columns)
        if rung == "date":
            return dict.fromkeys(columns.dates(config.date_order).get(value, ()), 1.0)
        return self._text_rows(name, [value], columns)[0]

    def _nested_rows(self, wanted: list[Mapping[Any, Any]], columns: _Columns) -> list[Row]:
        """Means of the sub-field rows, over the actual items that are objects."""
        holders: dict[Any, list[int]] = {}  # sub-field key -> the objects giving it
        for p, item in enumerate(wanted):
            for key, sub in item.items():
                if sub is not None:
                    holders.setdefault(key, []).append(p)
        subs: list[list[Row]] = [[] for _ in wanted]
        for key, owners in holders.items():
            found = self._rows(str(key), [wanted[p][key] for p in owners], columns.sub(key))
            for p, row in zip(owners, found, strict=True):
                subs[p].append(row)
        return [_mean(rows, columns.mappings) for rows in subs]

    def _number_row(self, target: float, columns: _Columns) -> Row:
        """Items within tolerance, found by bisection. Inside the tolerance less a margin
        of a few ulps every item matches; the two edge bands are checked exactly."""
        config = self._config
        values, index = columns.numbers()
        bound = max(config.rel_tol * abs(target), config.abs_tol)
        ulps = 4.0 * math.ulp(2.0 * (abs(target) + bound) + 1.0)
        low = bisect.bisect_left(values, target - (bound + ulps))
        high = bisect.bisect_right(values, target + (bound + ulps))
        inner_low = inner_high = low
        if bound > ulps:
            inner_low = bisect.bisect_left(values, target - (bound - ulps), low, high)
            inner_high = bisect.bisect_right(values, target + (bound - ulps), inner_low, high)
        row = dict.fromkeys(index[inner_low:inner_high], 1.0)
        for k in (*range(low, inner_low), *range(inner_high, high)):
            if numbers_match(target, values[k], config.rel_tol, config.abs_tol):
                row[index[k]] = 1.0
        return row

    def _text_rows(self, name: str, queries: list[str], columns: _Columns) -> list[Row]:
        config = self._config
        cap = config.max_text_chars
        index, texts, by_text = columns.texts(self._normalize, cap)
        free = name in config.free_text_fields
        strictness = config.strictness
        # a cut-off a little under the mark: the exact test is `text_score`'s, below
        cutoff = 0.0 if free else max(0.0, strictness * 100.0 - 1e-6)
        if strictness <= 0.0:  # every similarity is a match, zero included
            return [dict.fromkeys(index, 1.0) for _ in queries]
        normal = [self._normalize(query)[:cap] for query in queries]
        rows: list[Row] = []
        np = numpy_module()
        if np is not None and len(normal) * len(texts) >= NUMPY_CELLS and len(normal) > 1:
            matrix = process.cdist(
                normal,
                texts,
                scorer=fuzz.ratio,
                processor=None,
                score_cutoff=cutoff,
                dtype=np.float64,
                # threads cost ~0.3 ms to start: worth it only for a large matrix
                workers=-1 if len(normal) * len(texts) >= PARALLEL_PAIRS else 1,
            )
            for ratios in matrix:
                hits = np.flatnonzero(ratios)
                rows.append(self._text_row(hits.tolist(), ratios[hits].tolist(), index, free))
        else:
            for query in normal:
                found = process.extract(
                    query, texts, scorer=fuzz.ratio, processor=None,
                    score_cutoff=cutoff, limit=None,
                )  # fmt: skip
                hits = [k for _, _, k in found]
                rows.append(self._text_row(hits, [r for _, r, _ in found], index, free))
        for query, row in zip(normal, rows, strict=True):
            row.update(dict.fromkeys(by_text.get(query, ()), 1.0))
        return rows

    def _text_row(self, hits: list[int], ratios: list[float], index: list[int], free: bool) -> Row:
        strictness = self._config.strictness
        row: Row = {}
        for k, ratio in zip(hits, ratios, strict=True):
            score = text_score(ratio / 100.0, strictness, free)
            if score > 0.0:
                row[index[k]] = score
        return row


def _mean(rows: list[Row], objects: list[int]) -> Row:
    """An object's row from its sub-field rows; with no sub-field asked, 1 per object.

    Sub-scores of 0 and 1 only are counted (a count of ones is their exact sum)."""
    if not rows:
        return dict.fromkeys(objects, 1.0)
    if all(set(row.values()) <= {1.0} for row in rows):
        counts = Counter(j for row in rows for j in row)
        return {j: counts[j] / len(rows) for j in sorted(counts)}
    hit = sorted({j for row in rows for j in row})
    return {j: math.fsum(row.get(j, 0.0) for row in rows) / len(rows) for j in hit}


def _is_scalar(item: Any) -> bool:
    return not isinstance(item, (list, tuple, Mapping, bool))
