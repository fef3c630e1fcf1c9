"""A list field's candidate pairs in bulk: every expected item against every actual item.

Each candidate carries (credit, closeness), equal to what the ladder gives the pair
one call at a time, but each actual item is read once per way of looking at it
(normalised text, digits, identifier, number, date, bool, sub-field) rather than
once per pair, and the pairs are found without a Python call each: text by
rapidfuzz over all items at once (`process.cdist` on all cores when numpy is
installed, else `process.extract` per expected item; when digits must match, only
the items of the same digits), identifiers and exact text
by lookup, numbers and dates by a sorted search within the tolerance, bools by
lookup. Only pairs with credit are kept, so a list whose items mostly differ costs
what its matches cost. Objects add their sub-fields' credits by weight, the most
selective field first, dropping the pairs the weight left cannot lift to the list's
match threshold; the few objects that reach it are then compared pair by pair, for
their closeness. What has no bulk form (a user comparator, a model comparator, a
list inside a list) is compared pair by pair.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date
from functools import cache
from itertools import pairwise
from types import ModuleType
from typing import TYPE_CHECKING, Any

from rapidfuzz import fuzz, process

from pytest_bizbench.scoring.compare import (
    SCORERS,
    date_closeness,
    digit_runs,
    id_key,
    is_empty,
    number_closeness,
    verdict,
)
from pytest_bizbench.scoring.dates import looks_like_iso_date, parse_date
from pytest_bizbench.scoring.numbers import numbers_match, parse_number
from pytest_bizbench.scoring.pairing import Candidates

if TYPE_CHECKING:
    from pytest_bizbench.options.field_rules import Resolved
    from pytest_bizbench.options.types import LadderConfig

BOOL_WORDS = {"true": True, "yes": True, "false": False, "no": False}

MAX_RATED_PAIRS = 100_000  # pairs of objects rated whole, one by one, for their closeness
COPIES_PAIRS = 256  # pairs from which a list's equal items are grouped first
NUMPY_CELLS = 64  # the matrix size (rows x columns) from which cdist pays for itself
PARALLEL_PAIRS = 250_000  # pairs from which `cdist` runs on all cores

_SLACK = 1e-9
"""Room for the float sums' rounding: a pair is dropped only when it surely cannot reach."""

PairRate = Callable[[str, Any, Any], tuple[float, float]]
"""(path, expected, actual) to the cheap ladder's (credit, closeness), one pair at a time."""


def copies(items: Sequence[Any]) -> list[list[int]]:
    """The indices of equal items, grouped, in order of each group's first item.

    Equal means the same in every way the ladder can see: the same types all the way
    down (`1`, `1.0` and `True` apart, a tuple apart from a list), floats by their
    spelling (`-0.0` apart from `0.0`), objects with the same keys in the same order
    (text compares an object's spelling, which keeps its order). An item too deep to
    walk stands alone."""
    groups: dict[Any, list[int]] = {}
    for index, item in enumerate(items):
        try:
            key = _identity(item)
            groups.setdefault(key, []).append(index)
        except (RecursionError, TypeError):  # TypeError: a value that cannot be hashed
            groups[("alone", index)] = [index]
    return list(groups.values())


def _identity(value: Any) -> Any:
    kind = type(value)
    if kind is float:
        return kind, repr(value)
    if kind in (str, int, bool) or value is None:
        return kind, value
    if isinstance(value, Mapping):
        return kind, tuple((_identity(k), _identity(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return kind, tuple(_identity(v) for v in value)
    return kind, repr(value)


@cache
def numpy_module() -> ModuleType | None:
    """numpy when installed, imported on first use so start-up does not pay for it."""
    try:
        import numpy
    except ImportError:  # pragma: no cover - exercised where the extra is missing
        return None
    return numpy


def stated_bool(actual: Any) -> bool | None:
    """The bool an actual value states (`"yes"`, `"False"`, `True`), None when none."""
    stated = BOOL_WORDS.get(actual.strip().casefold()) if isinstance(actual, str) else actual
    return stated if isinstance(stated, bool) else None


def scalar_kind(name: str, expected: Any, config: LadderConfig, rule: Resolved) -> tuple[str, Any]:
    """How a scalar ground truth is read: ("number", float), ("date", date) or ("text",
    str), by its rule, else its type, the config's field sets and whether it parses.
    A `number` or `date` rule on a value that is not one compares it as `exact`."""
    forced = rule.compare
    if forced in ("number", None) and (
        forced == "number" or isinstance(expected, (int, float)) or name in config.numeric_fields
    ):
        target = parse_number(expected)
        if target is not None:
            return "number", target
    if forced in ("date", None) and (
        forced == "date"
        or isinstance(expected, date)
        or name in config.date_fields
        or looks_like_iso_date(expected)
    ):
        day = parse_date(expected, rule.date_order)
        if day is not None:
            return "date", day
    text = expected if isinstance(expected, str) else str(expected)
    return ("exact" if forced in ("number", "date") else "text"), text


def text_kind(rule: Resolved) -> str:
    """The text comparator of a rule: `exact` for a `number` or `date` rule on a value
    that is not one (see `scalar_kind`), `fuzzy` for the ladder's own text rung."""
    compare = rule.compare
    if compare in ("number", "date"):
        return "exact"
    return compare if compare in SCORERS or compare in ("exact", "id") else "fuzzy"


class _Columns:
    """The actual items of one list, each read once per way a row looks at it."""

    __slots__ = ("_cache", "_subs", "items", "mappings")

    def __init__(self, items: Sequence[Any]) -> None:
        self.items = items
        self.mappings = [j for j, item in enumerate(items) if isinstance(item, Mapping)]
        self._cache: dict[Any, Any] = {}
        self._subs: dict[Any, _Columns] = {}

    def texts(self, normalize: Callable[[str], str], cap: int) -> tuple[list[int], list[str]]:
        """(indices, normalised texts cut at `cap`) of the items that are not empty."""
        if (found := self._cache.get("texts")) is None:
            index = [j for j, item in enumerate(self.items) if not is_empty(item)]
            texts = [normalize(_as_text(self.items[j]))[:cap] for j in index]
            found = self._cache["texts"] = (index, texts)
        return found

    def keyed(self, how: str, key: Callable[[str], str]) -> dict[str, list[int]]:
        """Indices of the non-empty items by a key of their text (normalised, identifier)."""
        if (found := self._cache.get(how)) is None:
            found = self._cache[how] = {}
            for j, item in enumerate(self.items):
                if not is_empty(item):
                    found.setdefault(key(_as_text(item)), []).append(j)
        return found

    def digits(self, normalize: Callable[[str], str]) -> list[tuple[str, ...]]:
        if (found := self._cache.get("digits")) is None:
            found = self._cache["digits"] = [
                () if is_empty(item) else digit_runs(normalize(_as_text(item)))
                for item in self.items
            ]
        return found

    def by_digits(
        self, normalize: Callable[[str], str], cap: int
    ) -> dict[tuple[str, ...], list[int]]:
        """Positions in `texts` by the runs of digits of their items."""
        if (found := self._cache.get("by_digits")) is None:
            index, _ = self.texts(normalize, cap)
            digits = self.digits(normalize)
            found = self._cache["by_digits"] = {}
            for k, j in enumerate(index):
                found.setdefault(digits[j], []).append(k)
        return found

    def numbers(self) -> tuple[list[float], list[int]]:
        """The items that state a number, sorted by value: (values, indices)."""
        if (found := self._cache.get("numbers")) is None:
            read = sorted(
                (value, j)
                for j, item in enumerate(self.items)
                if item is not None and (value := parse_number(item)) is not None
            )
            found = self._cache["numbers"] = ([v for v, _ in read], [j for _, j in read])
        return found

    def number_at(self) -> list[float | None]:
        """Each item's number by index, None where it states none."""
        if (found := self._cache.get("number_at")) is None:
            values, index = self.numbers()
            found = self._cache["number_at"] = [None] * len(self.items)
            for value, j in zip(values, index, strict=True):
                found[j] = value
        return found

    def dates(self, order: str) -> tuple[list[int], list[tuple[date, int]]]:
        """The items that state a date, sorted: (day ordinals, (day, index))."""
        if (found := self._cache.get(("dates", order))) is None:
            read = sorted(
                (day, j)
                for j, item in enumerate(self.items)
                if item is not None and (day := parse_date(item, order)) is not None
            )
            found = self._cache[("dates", order)] = ([d.toordinal() for d, _ in read], read)
        return found

    def bools(self) -> list[bool | None]:
        if (found := self._cache.get("bools")) is None:
            found = self._cache["bools"] = [stated_bool(item) for item in self.items]
        return found

    def sub(self, key: Any) -> _Columns:
        """The items' `key` sub-field (None where an item is not an object)."""
        found = self._subs.get(key)
        if found is None:
            found = self._subs[key] = _Columns(
                [item.get(key) if isinstance(item, Mapping) else None for item in self.items]
            )
        return found


class PairScorer:
    """Bulk candidates for lists, equal to `rate` called on every pair.

    `resolve` gives a path's rule; `rate` still scores what has no bulk form.
    """

    __slots__ = ("_config", "_normalize", "_rate", "_resolve")

    def __init__(
        self,
        config: LadderConfig,
        normalize: Callable[[str], str],
        rate: PairRate,
        resolve: Callable[[str], Resolved],
    ) -> None:
        self._config = config
        self._normalize = normalize
        self._rate = rate
        self._resolve = resolve

    def rows(
        self, path: str, wanted: Sequence[Any], given: Sequence[Any], floor: float
    ) -> tuple[list[Candidates], bool]:
        """One row per expected item: the actual items whose credit is at least `floor`
        (and above 0). Objects reaching it are rated pair by pair for their closeness,
        unless there are more than `MAX_RATED_PAIRS` such pairs: then a pair's closeness
        is its credit, and the second value, False, says so (the credits are the same)."""
        objects = [i for i, item in enumerate(wanted) if isinstance(item, Mapping)]
        # an object's credit here is a float sum: within _SLACK under the floor it may
        # reach it whole, so the whole comparison decides
        lows = [floor - _SLACK if isinstance(item, Mapping) else floor for item in wanted]
        rows = [
            {j: pair for j, pair in row.items() if pair[0] >= low}
            for row, low in zip(self._rows(path, wanted, _Columns(given), floor), lows, strict=True)
        ]
        if sum(len(rows[i]) for i in objects) > MAX_RATED_PAIRS:
            return rows, False
        for i in objects:
            rated = ((j, self._rate(path, wanted[i], given[j])) for j in rows[i])
            rows[i] = {j: pair for j, pair in rated if pair[0] >= floor and pair[0] > 0.0}
        return rows, True

    def rows_of_copies(
        self, path: str, wanted: Sequence[Any], given: Sequence[Any], floor: float
    ) -> tuple[list[Candidates], list[tuple[int, int, float]], bool]:
        """`rows`, with equal items rated once, the pairs settled on the way, and
        whether the objects' pairs were rated (`rows`' second value).

        Each distinct expected value is rated against each distinct actual value. Where
        a distinct expected value has exactly one distinct actual value for candidate,
        and that one no other, the two groups of copies pair with each other in index
        order: their pairs are all alike, so that is the most pairs, and the lowest
        indices first. Those pairs come back apart, their items with no candidates, so
        a list of many copies of an item costs its length, not its square."""
        short = len(wanted) * len(given) < COPIES_PAIRS  # grouping would cost more
        wanted_groups = [] if short else copies(wanted)
        given_groups = [] if short else copies(given)
        if short or (len(wanted_groups) == len(wanted) and len(given_groups) == len(given)):
            plain, rated = self.rows(path, wanted, given, floor)
            return plain, [], rated
        distinct, rated = self.rows(
            path, [wanted[g[0]] for g in wanted_groups], [given[g[0]] for g in given_groups], floor
        )
        takers: dict[int, int] = {}  # each distinct actual value's rows, counted
        for row in distinct:
            for q in row:
                takers[q] = takers.get(q, 0) + 1
        rows: list[Candidates] = [{} for _ in wanted]
        settled: list[tuple[int, int, float]] = []
        for group, row in zip(wanted_groups, distinct, strict=True):
            if len(row) == 1 and takers[q := next(iter(row))] == 1:
                credit = row[q][0]
                settled += [(i, j, credit) for i, j in zip(group, given_groups[q], strict=False)]
                continue
            expanded = {j: pair for q, pair in row.items() for j in given_groups[q]}
            for i in group:  # one dict for the group: no reader changes it
                rows[i] = expanded
        return rows, settled, rated

    def _rows(
        self, path: str, wanted: Sequence[Any], columns: _Columns, floor: float
    ) -> list[Candidates]:
        """Rows of one kind are computed together: texts in one rapidfuzz call, objects
        one sub-field at a time over all of them; objects' pairs below `floor` may be
        left out (an object inside an object has no floor of its own: 0)."""
        rule = self._resolve(path)
        name = _name(path)
        rows: list[Candidates] = [{} for _ in wanted]
        texts: list[tuple[int, str]] = []
        objects: list[tuple[int, Mapping[Any, Any]]] = []
        slow = rule.user is not None or rule.compare in ("embedding", "judge")
        for i, item in enumerate(wanted):
            if is_empty(item):
                rows[i] = {
                    j: (1.0, 1.0) for j, given in enumerate(columns.items) if is_empty(given)
                }
            elif isinstance(item, Mapping):
                objects.append((i, item))
            elif slow or isinstance(item, (list, tuple)):
                rows[i] = self._row(path, item, columns)
            elif isinstance(item, bool) and rule.compare in ("bool", None):
                rows[i] = {j: (1.0, 1.0) for j, b in enumerate(columns.bools()) if b is item}
            elif (kind := scalar_kind(name, item, self._config, rule))[0] == "number":
                rows[i] = self._number_row(kind[1], columns, rule)
            elif kind[0] == "date":
                rows[i] = self._date_row(kind[1], columns, rule)
            else:
                texts.append((i, kind[1]))
        if texts:
            found = self._text_rows([text for _, text in texts], columns, rule)
            for (i, _), row in zip(texts, found, strict=True):
                rows[i] = row
        if objects:
            found = self._nested_rows(path, [item for _, item in objects], columns, floor)
            for (i, _), row in zip(objects, found, strict=True):
                rows[i] = row
        return rows

    def _row(self, path: str, expected: Any, columns: _Columns) -> Candidates:
        """One pair at a time: what has no bulk form."""
        return {
            j: pair
            for j, item in enumerate(columns.items)
            if (pair := self._rate(path, expected, item))[0] > 0.0
        }

    def _nested_rows(
        self, path: str, wanted: list[Mapping[Any, Any]], columns: _Columns, floor: float
    ) -> list[Candidates]:
        """Weighted means of the sub-field credits, over the actual items that are objects;
        the closeness is the credit until the pair is rated whole.

        Summing every sub-field over every pair is what made a list of objects slow (a
        field like a quantity matches a tenth of the list), so the fields go most
        selective first (most distinct expected values) and a pair is dropped once the
        weight left cannot lift it to `floor`. When the fields left cannot lift a pair
        with no credit yet, they are rated pair by pair on the pairs still standing."""
        holders: dict[Any, list[int]] = {}  # sub-field key -> the objects giving it
        weights: list[float] = [0.0] * len(wanted)
        for p, item in enumerate(wanted):
            for key, sub in item.items():
                rule = self._resolve(f"{path}.{key}")
                if sub is not None and rule.compare != "ignore":
                    holders.setdefault(key, []).append(p)
                    weights[p] += rule.weight
        needed = [floor * total - _SLACK * (total + 1.0) for total in weights]
        left = weights[:]  # weight not yet summed, per object
        sums: list[dict[int, float]] = [{} for _ in wanted]
        order = sorted(holders, key=lambda key: -_distinct(wanted[p][key] for p in holders[key]))
        for key in order:
            sub_path = f"{path}.{key}"
            weight = self._resolve(sub_path).weight
            sub = columns.sub(key)
            bulk = [p for p in holders[key] if left[p] >= needed[p]]
            found = self._rows(sub_path, [wanted[p][key] for p in bulk], sub, 0.0)
            for p, row in zip(bulk, found, strict=True):
                total = sums[p]
                for j, (credit, _) in row.items():
                    total[j] = total.get(j, 0.0) + weight * credit
            for p in holders[key]:
                total = sums[p]
                if left[p] < needed[p]:  # only the pairs standing can still reach it
                    rated = self._pair_credit(sub_path, wanted[p][key], sub)
                    for j in total:
                        total[j] += weight * rated(j)
                left[p] -= weight
                if needed[p] > 0.0:
                    sums[p] = {j: s for j, s in total.items() if s + left[p] >= needed[p]}
        objects = set(columns.mappings)
        rows: list[Candidates] = []
        for p, total in enumerate(sums):
            if not weights[p]:
                rows.append(dict.fromkeys(columns.mappings, (1.0, 1.0)))
                continue
            means = {j: s / weights[p] for j, s in sorted(total.items()) if j in objects}
            rows.append({j: (c, c) for j, c in means.items() if c > 0.0})
        return rows

    def _pair_credit(self, path: str, expected: Any, columns: _Columns) -> Callable[[int], float]:
        """Credit of one expected value against actual item j, for a few pairs: a number
        by the item's value read once, anything else by the ladder."""
        rule = self._resolve(path)
        plain = rule.user is None and rule.compare not in ("embedding", "judge")
        if (
            plain
            and not isinstance(expected, (bool, list, tuple, Mapping))
            and not is_empty(expected)
        ):
            kind, target = scalar_kind(_name(path), expected, self._config, rule)
            if kind == "number":
                values = columns.number_at()
                rel_tol, abs_tol = rule.rel_tol, rule.abs_tol

                def number(j: int) -> float:
                    value = values[j]
                    return float(
                        value is not None and numbers_match(target, value, rel_tol, abs_tol)
                    )

                return number
        return lambda j: self._rate(path, expected, columns.items[j])[0]

    def _number_row(self, target: float, columns: _Columns, rule: Resolved) -> Candidates:
        """Items within tolerance, found by bisection, checked exactly at the edges."""
        values, index = columns.numbers()
        bound = max(rule.rel_tol * abs(target), rule.abs_tol)
        ulps = 4.0 * math.ulp(2.0 * (abs(target) + bound) + 1.0)
        low = bisect.bisect_left(values, target - (bound + ulps))
        high = bisect.bisect_right(values, target + (bound + ulps))
        return {
            index[k]: (1.0, number_closeness(target, values[k]))
            for k in range(low, high)
            if numbers_match(target, values[k], rule.rel_tol, rule.abs_tol)
        }

    def _date_row(self, target: date, columns: _Columns, rule: Resolved) -> Candidates:
        ordinals, days = columns.dates(rule.date_order)
        at, span = target.toordinal(), rule.tolerance_days
        low = bisect.bisect_left(ordinals, at - span)
        high = bisect.bisect_right(ordinals, at + span)
        return {days[k][1]: (1.0, date_closeness(target, days[k][0])) for k in range(low, high)}

    def _text_rows(self, queries: list[str], columns: _Columns, rule: Resolved) -> list[Candidates]:
        kind = text_kind(rule)
        normalize = self._normalize
        if kind in ("exact", "id"):
            key = normalize if kind == "exact" else id_key
            by_key = columns.keyed(kind, key)
            rows = []
            for query in queries:
                hits = by_key.get(key(query), ())
                if kind == "exact":
                    rows.append(dict.fromkeys(hits, (1.0, 1.0)))
                else:
                    left = normalize(query)
                    rows.append(
                        {
                            j: (1.0, _closeness(left, normalize(_as_text(columns.items[j]))))
                            for j in hits
                        }
                    )
            return rows
        cap = self._config.max_text_chars
        index, texts = columns.texts(normalize, cap)
        digits = columns.digits(normalize)
        scorer, scale = SCORERS[kind]
        threshold, partial = rule.threshold, rule.partial
        # a cut-off a little under the mark: the exact test is `verdict`'s, below
        cutoff = 0.0 if partial else max(0.0, threshold * scale - 1e-6 * scale)
        normal = [normalize(query) for query in queries]
        cut = [text[:cap] for text in normal]
        if not rule.digits_exact or partial:
            found = _similar(cut, texts, scorer, cutoff)
        else:
            # a pair whose digits differ has no credit, so each text is compared only with
            # those of its runs of digits: numbered items meet a few of the others each
            found = [([], []) for _ in queries]
            asked: dict[tuple[str, ...], list[int]] = {}
            for i, text in enumerate(normal):
                asked.setdefault(digit_runs(text), []).append(i)
            given = columns.by_digits(normalize, cap)
            for runs, ask in asked.items():
                if (give := given.get(runs)) is not None:
                    similar = _similar(
                        [cut[i] for i in ask], [texts[k] for k in give], scorer, cutoff
                    )
                    for i, (hits, ratios) in zip(ask, similar, strict=True):
                        found[i] = ([give[h] for h in hits], ratios)
        rows = []
        for query, (hits, ratios) in zip(normal, found, strict=True):
            runs = digit_runs(query)
            row: Candidates = {}
            for k, ratio in zip(hits, ratios, strict=True):
                j = index[k]
                close = 1.0 if texts[k] == query else ratio / scale
                ok = not rule.digits_exact or digits[j] == runs
                credit = verdict(close, threshold, partial, ok)
                if credit > 0.0:
                    row[j] = (credit, close)
            rows.append(row)
        return rows


def _similar(
    queries: list[str], texts: list[str], scorer: Any, cutoff: float
) -> list[tuple[list[int], list[float]]]:
    """For each query, the positions of the texts scoring at least `cutoff` (ascending
    with numpy, best first without) and their scores: one rapidfuzz call for them all."""
    np = numpy_module()
    if np is None or len(queries) * len(texts) < NUMPY_CELLS or len(queries) < 2:
        found = []
        for query in queries:
            result = process.extract(
                query, texts, scorer=scorer, processor=None, score_cutoff=cutoff, limit=None
            )
            found.append(([k for _, _, k in result], [r for _, r, _ in result]))
        return found
    matrix = process.cdist(
        queries, texts, scorer=scorer, processor=None, score_cutoff=cutoff, dtype=np.float64,
        # threads cost ~0.3 ms to start: worth it only for a large matrix
        workers=-1 if len(queries) * len(texts) >= PARALLEL_PAIRS else 1,
    )  # fmt: skip
    if cutoff <= 0.0:
        every = list(range(len(texts)))
        return [(every, ratios) for ratios in matrix.tolist()]
    at, hits = np.nonzero(matrix)  # row by row, as one array
    bounds = np.searchsorted(at, np.arange(len(queries) + 1)).tolist()
    columns, ratios = hits.tolist(), matrix[at, hits].tolist()
    return [(columns[a:b], ratios[a:b]) for a, b in pairwise(bounds)]


def _distinct(values: Iterable[Any]) -> int:
    """How many different values: the more, the fewer pairs a field credits."""
    return len({value if isinstance(value, (str, int, float)) else repr(value) for value in values})


def _closeness(left: str, right: str) -> float:
    return 1.0 if left == right else fuzz.ratio(left, right) / 100.0


def _as_text(item: Any) -> str:
    return item if isinstance(item, str) else str(item)


def _name(path: str) -> str:
    """A path's field name: its last key, without the list brackets."""
    return path.rsplit(".", 1)[-1].replace("[]", "")
