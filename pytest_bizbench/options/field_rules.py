"""Field rules: how each field path is compared, read from a rules file or a class.

A rules mapping has field paths as keys: `vendor`, `address.city`, `line_items[]`
(the list: its `match_threshold`, and how plain items are compared),
`line_items[].amount` (a key in each item), `.` (the document: `extra`). A key with
no `.` and no `[]` also applies at any depth, to every field of that name; on a
list field it also covers the list's items when `name[]` has no rule. The most
specific key wins, whole: a rule is never merged with a less specific one.

Parsing raises `RulesError` naming the source, the key and the closest valid
word; the caller turns it into a usage error (no pytest here). A `module:callable`
comparator is imported as the benchmark classes of ini `bizbench_benchmarks` are,
with `importlib` from the paths the session already searches (the rootdir's).
"""

from __future__ import annotations

import difflib
import importlib
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

COMPARATORS = (
    "exact",
    "id",
    "fuzzy",
    "levenshtein",
    "token_set",
    "number",
    "date",
    "bool",
    "embedding",
    "judge",
    "ignore",
)
TEXT_SIMILARITIES = ("fuzzy", "levenshtein", "token_set")
"""The comparators that score by similarity, and so obey the digits rule."""
EXTRA_MODES = ("report", "penalize", "ignore")
DIGIT_MODES = ("exact", "fuzzy")
DATE_ORDERS = ("DMY", "MDY")
ROOT = "."
DEFAULT_MATCH_THRESHOLD = 0.5
_SEGMENT = r"[^.\[\]\s][^.\[\]]*(?:\[\])*"
_PATH_RE = re.compile(rf"{_SEGMENT}(?:\.{_SEGMENT})*")

Comparator = Callable[[Any, Any], float]
"""A user comparator: (expected, actual) to a similarity in 0..1."""

# a weight is relative: past this, sums of weights lose the small ones (and overflow)
MAX_WEIGHT = 1e6


class RulesError(ValueError):
    """A rules file or `FIELD_RULES` that cannot be read: the message says where and why."""


@dataclass(frozen=True, slots=True)
class FieldRule:
    """One key's rule as written; None is "not said" (the defaults apply)."""

    compare: str | None = None
    threshold: float | None = None
    partial: bool | None = None
    rel_tol: float | None = None
    abs_tol: float | None = None
    tolerance_days: int | None = None
    date_order: str | None = None
    weight: float | None = None
    match_threshold: float | None = None
    digits: str | None = None
    extra: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """The keys that were set, for the report's `config`."""
        return {f.name: v for f in fields(self) if (v := getattr(self, f.name)) is not None}


RULE_KEYS = tuple(f.name for f in fields(FieldRule))


@dataclass(frozen=True, slots=True)
class Resolved:
    """What one value is compared by: its rule over the run's defaults.

    `compare` None is the field ladder (the value's type decides the rung).
    """

    compare: str | None
    threshold: float
    partial: bool
    rel_tol: float
    abs_tol: float
    tolerance_days: int
    date_order: str
    weight: float
    match_threshold: float
    digits_exact: bool
    user: Comparator | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class FieldRules:
    """The rules in force: by key, with their user comparators imported."""

    by_key: Mapping[str, FieldRule] = field(default_factory=dict)
    comparators: Mapping[str, Comparator] = field(default_factory=dict)

    def merged(self, over: FieldRules) -> FieldRules:
        """These rules with `over`'s keys replacing the same keys."""
        return FieldRules({**self.by_key, **over.by_key}, {**self.comparators, **over.comparators})

    def rule_for(self, path: str) -> FieldRule | None:
        """The most specific rule of a value's path (see the module docstring)."""
        by_key = self.by_key
        if not by_key:
            return None
        found = by_key.get(path)
        if found is not None:
            return found
        base = path
        while base.endswith("[]"):  # a list's rule covers its items
            base = base[:-2]
            if (found := by_key.get(base)) is not None:
                return found
        name = base.rsplit(".", 1)[-1]
        return by_key.get(name) if name != base else None

    def extra_mode(self) -> str:
        root = self.by_key.get(ROOT)
        return root.extra if root is not None and root.extra is not None else "report"

    def resolve(self, path: str, defaults: Resolved) -> Resolved:
        rule = self.rule_for(path)
        if rule is None:
            return defaults
        compare = rule.compare
        return replace(
            defaults,
            compare=compare,
            threshold=_pick(rule.threshold, defaults.threshold),
            partial=_pick(rule.partial, defaults.partial if compare is None else False),
            rel_tol=_pick(rule.rel_tol, defaults.rel_tol),
            abs_tol=_pick(rule.abs_tol, defaults.abs_tol),
            tolerance_days=_pick(rule.tolerance_days, 0),
            date_order=_pick(rule.date_order, defaults.date_order),
            weight=_pick(rule.weight, 1.0),
            match_threshold=_pick(rule.match_threshold, DEFAULT_MATCH_THRESHOLD),
            digits_exact=rule.digits != "fuzzy",
            user=self.comparators.get(compare) if compare else None,
        )

    def as_config(self) -> dict[str, dict[str, Any]]:
        return {key: self.by_key[key].as_dict() for key in sorted(self.by_key)}


def _pick(value: Any, default: Any) -> Any:
    return default if value is None else value


def parse_rules(data: object, source: str) -> FieldRules:
    """Rules from a mapping of path -> rule; `RulesError` naming `source` when wrong."""
    if not isinstance(data, Mapping):
        raise RulesError(f"{source}: field rules must be a mapping of field path to rule")
    by_key: dict[str, FieldRule] = {}
    comparators: dict[str, Comparator] = {}
    for path, raw in data.items():
        where = f"{source}: field {path!r}"
        if not isinstance(path, str) or not (path == ROOT or _PATH_RE.fullmatch(path)):
            raise RulesError(
                f"{where}: not a field path (did you mean {_path_hint(str(path))!r}? "
                "write a.b for a key, a[] for a list's items)"
            )
        if not isinstance(raw, Mapping):
            raise RulesError(f"{where}: a rule must be a mapping such as {{compare: fuzzy}}")
        rule = _rule(raw, where, path == ROOT)
        if rule.compare is not None and ":" in rule.compare:
            comparators[rule.compare] = _import_comparator(rule.compare, where)
        by_key[path] = rule
    return FieldRules(by_key, comparators)


def _rule(raw: Mapping[Any, Any], where: str, root: bool) -> FieldRule:
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in RULE_KEYS:
            raise RulesError(
                f"{where}: unknown key {key!r} (did you mean {_closest(key, RULE_KEYS)!r}?)"
            )
        values[key] = _value(key, value, f"{where}: {key}")
    if "extra" in values and not root:
        raise RulesError(f"{where}: extra: is a rule of the document, key '.'")
    return FieldRule(**values)


def _value(key: str, value: Any, where: str) -> Any:
    """One rule value, checked; the checks by key keep the error next to the key."""
    if key == "compare":
        if not isinstance(value, str) or not value.strip():
            raise RulesError(f"{where}: must be a comparator name")
        if value in COMPARATORS or re.fullmatch(r"[\w.]+:[\w.]+", value):
            return value
        raise RulesError(
            f"{where}: unknown comparator {value!r} (did you mean "
            f"{_closest(value, COMPARATORS)!r}? or module:callable)"
        )
    if key == "partial":
        if not isinstance(value, bool):
            raise RulesError(f"{where}: must be true or false")
        return value
    choices = {"digits": DIGIT_MODES, "extra": EXTRA_MODES, "date_order": DATE_ORDERS}.get(key)
    if choices is not None:
        if value not in choices:
            raise RulesError(
                f"{where}: {value!r} is not one of {', '.join(choices)} "
                f"(did you mean {_closest(str(value), choices)!r}?)"
            )
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise RulesError(f"{where}: must be a number, got {value!r}")
    if key == "tolerance_days":
        if value != int(value) or value < 0:
            raise RulesError(f"{where}: must be a whole number of days >= 0, got {value!r}")
        return int(value)
    if key in ("threshold", "match_threshold") and not 0.0 <= value <= 1.0:
        raise RulesError(f"{where}: must be within 0..1, got {value!r}")
    if key == "weight" and not 0 < value <= MAX_WEIGHT:
        raise RulesError(f"{where}: must be above 0 and at most {MAX_WEIGHT:g}, got {value!r}")
    if value < 0:
        raise RulesError(f"{where}: must be >= 0, got {value!r}")
    return float(value)


def _closest(word: object, choices: tuple[str, ...]) -> str:
    found = difflib.get_close_matches(str(word), choices, n=1, cutoff=0.0)
    return found[0] if found else choices[0]


def _path_hint(path: str) -> str:
    """A path as it was probably meant: `items[0].x`/`items[*].x`/`items.[].x` -> `items[].x`."""
    hint = re.sub(r"\[[^\]]*\]", "[]", path.strip())
    hint = re.sub(r"\.+(?=\[\])", "", hint)
    hint = re.sub(r"\.{2,}", ".", hint).strip(".")
    return hint or ROOT


def _import_comparator(spec: str, where: str) -> Comparator:
    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        raise RulesError(
            f"{where}: compare: cannot import {module_name!r}: {type(exc).__name__}: {exc}"
        ) from None
    found = getattr(module, attr, None)
    if not callable(found):
        raise RulesError(f"{where}: compare: {spec!r} is not a callable")
    comparator: Comparator = found
    return comparator


def read_rules_file(path: Any, shown: str, max_bytes: int) -> FieldRules:
    """Rules from a YAML or JSON file (by its ending), read as case files are: safely."""
    from pytest_bizbench.io.jsonio import InputError, parse_json, read_text
    from pytest_bizbench.io.yamlio import load_yaml

    try:
        text = read_text(path, max_bytes)
        data = parse_json(text) if str(path).endswith(".json") else load_yaml(text)
    except InputError as exc:
        line = f" (line {exc.line})" if exc.line else ""
        raise RulesError(f"{shown}{line}: {exc.message}") from None
    return parse_rules(data, shown)
