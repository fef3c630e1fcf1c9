"""The shape of a saved report, checked before any reader touches it.

A report file is untrusted input to `bizbench report`, `compare`, `merge` and to
`--bizbench-baseline`: every key a reader uses is declared here with its type, so
a report of the wrong shape is one line naming the key (`benchmarks.x.models
must be an object`), never a `KeyError` or a `TypeError` deep in a renderer.
Keys not declared here are free (a newer writer may add them).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Leaf:
    """A JSON scalar of one of `types` (a number is never a bool)."""

    name: str
    types: tuple[type, ...]
    nullable: bool = False

    def problem(self, value: Any, at: str) -> str | None:
        if value is None and self.nullable:
            return None
        if isinstance(value, bool) and not {bool, object} & set(self.types):
            return f"{at} must be {self.name}"
        return None if isinstance(value, self.types) else f"{at} must be {self.name}"


@dataclass(frozen=True, slots=True)
class Obj:
    """An object with some declared keys (`required` ones must be present)."""

    keys: Mapping[str, Spec] = field(default_factory=dict)
    required: frozenset[str] = frozenset()
    nullable: bool = False

    def problem(self, value: Any, at: str) -> str | None:
        if value is None and self.nullable:
            return None
        if not isinstance(value, dict):
            return f"{at} must be an object"
        for key, spec in self.keys.items():
            if key not in value:
                if key in self.required:
                    return f"{_join(at, key)} is missing"
                continue
            found = spec.problem(value[key], _join(at, key))
            if found:
                return found
        return None


@dataclass(frozen=True, slots=True)
class Map:
    """An object with any keys, every value of one shape."""

    values: Spec

    def problem(self, value: Any, at: str) -> str | None:
        if not isinstance(value, dict):
            return f"{at} must be an object"
        return next(
            (p for k, v in value.items() if (p := self.values.problem(v, _join(at, k)))), None
        )


@dataclass(frozen=True, slots=True)
class Seq:
    """A list, every item of one shape; `size` fixes its length (a pair)."""

    items: Spec
    size: int | None = None
    nullable: bool = False

    def problem(self, value: Any, at: str) -> str | None:
        if value is None and self.nullable:
            return None
        if not isinstance(value, list):
            return f"{at} must be a list"
        if self.size is not None and len(value) != self.size:
            return f"{at} must hold {self.size} items"
        return next(
            (p for i, v in enumerate(value) if (p := self.items.problem(v, f"{at}[{i}]"))), None
        )


Spec = Leaf | Obj | Map | Seq

_PLAIN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def key_path(*keys: str) -> str:
    """`benchmarks.x.paired["odd key"]`: where a value sits, shown as the problems are."""
    at = ""
    for key in keys:
        at = _join(at, key)
    return at


def _join(at: str, key: str) -> str:
    """`a.b` for a plain key, `a["odd key"]` otherwise (shown escaped, cut)."""
    part = f".{key}" if _PLAIN.fullmatch(key) else f"[{_quoted(key)}]"
    return part.lstrip(".") if not at else f"{at}{part}"


def _quoted(key: str) -> str:
    text = repr(key)
    return text if len(text) <= 60 else f"{text[:59]}…"


STR = Leaf("a string", (str,))
OPT_STR = Leaf("a string or null", (str,), nullable=True)
INT = Leaf("an integer", (int,))
NUM = Leaf("a number", (int, float))
OPT_NUM = Leaf("a number or null", (int, float), nullable=True)
BOOL = Leaf("true or false", (bool,))
ANY = Leaf("any value", (object,), nullable=True)
ANY_OBJ = Map(ANY)
STRINGS = Seq(STR)
OBJECTS = Seq(ANY_OBJ)

DOCUMENT = Obj(
    {
        "id": STR,
        "case": STR,
        "nodeid": STR,
        "outcome": STR,
        "score": OPT_NUM,
        "case_hash": OPT_STR,
        "details": ANY_OBJ,
        "labels": STRINGS,
        "metadata": ANY_OBJ,
        "filename": OPT_STR,
        "rules": STRINGS,
        "group": OPT_STR,
        "latency_ms": OPT_NUM,
        "message": OPT_STR,
        "line": Leaf("an integer or null", (int,), nullable=True),
    },
    frozenset({"id", "case", "nodeid", "outcome", "score"}),
)
PAIRED = Obj(
    {
        "n": INT,
        "mean_delta": OPT_NUM,
        "ci95": Seq(NUM, 2, nullable=True),
        "p_value": OPT_NUM,
        "histogram": Seq(Obj({"count": INT, "range": Seq(NUM, 2)})),
    }
)
COMPARISON = Obj(
    {
        "verdict": STR,
        "delta": OPT_NUM,
        "message": OPT_STR,
        "paired": PAIRED,
        "new_cases": Seq(ANY),
        "removed_cases": Seq(ANY),
        "stale_cases": Seq(ANY),
        "mcnemar": Obj({"b": INT, "c": INT, "p_value": OPT_NUM}, nullable=True),
        "p_holm": OPT_NUM,
        "mde": OPT_NUM,
        "mde_note": OPT_STR,
        "significant": BOOL,
        "regression_threshold": OPT_NUM,
        "clustered": Obj(
            {
                "ci95": Seq(NUM, 2, nullable=True),
                "se": OPT_NUM,
                "n_clusters": INT,
                "note": OPT_STR,
            },
            nullable=True,
        ),
        "worst": Seq(
            Obj(
                {
                    "id": STR,
                    "case": STR,
                    "baseline": OPT_NUM,
                    "candidate": OPT_NUM,
                    "delta": OPT_NUM,
                    "fields": Map(Obj({"baseline": OPT_NUM, "candidate": OPT_NUM})),
                },
                frozenset({"id", "case", "baseline", "candidate", "delta"}),
            )
        ),
    },
    frozenset({"verdict"}),
)
# one model pair's `compare_models()` result: what the models-compared table reads;
# a benchmark's own keys are checked by its `paired_tables` (report/reader.py)
MODEL_PAIR = Obj(
    {
        "delta": ANY,
        "verdict": ANY,
        "cases": Obj({"n": ANY, "ci95": Seq(NUM, 2, nullable=True)}, nullable=True),
    }
)
MODEL = Obj(
    {
        "metrics": Obj({"per_field_accuracy": Map(OPT_NUM)}),
        "documents": Seq(DOCUMENT),
        "flaky": Seq(
            Obj(
                {"id": STR, "case": STR, "n": INT, "passed": INT},
                frozenset({"id", "case", "n", "passed"}),
            )
        ),
    },
    frozenset({"metrics", "documents"}),
)
BENCHMARK = Obj(
    {
        "version": STR,
        "fingerprint": STR,
        "description": OPT_STR,
        "headline_metric": OPT_STR,
        "metric_unit": OPT_STR,
        "regression_threshold": NUM,
        "improvement_threshold": NUM,
        "config": ANY_OBJ,
        "models": Map(MODEL),
        "comparison": Map(COMPARISON),
        "paired": Map(MODEL_PAIR),
        "runs": ANY_OBJ,
    },
    frozenset({"version", "fingerprint", "models"}),
)
REPORT = Obj(
    {
        "tool": Obj({"name": OPT_STR, "version": OPT_STR}),
        "benchmarks": Map(BENCHMARK),
        "thresholds": Seq(
            Obj(
                {
                    "benchmark": STR,
                    "model": STR,
                    "metric": STR,
                    "op": STR,
                    "value": NUM,
                    "actual": OPT_NUM,
                    "passed": BOOL,
                }
            )
        ),
        "gate": Obj({"passed": BOOL, "reasons": STRINGS}),
        "completeness": Obj(
            {
                "complete": BOOL,
                "filtered": BOOL,
                "interrupted": BOOL,
                "collected": INT,
                "scored": INT,
                "not_run": INT,
                "errors": Seq(Obj({"nodeid": STR, "message": OPT_STR})),
                "missing": Seq(Obj({"nodeid": STR, "message": OPT_STR})),
                "notes": STRINGS,
            }
        ),
        "run": Obj({"started_at": OPT_STR, "duration_s": OPT_NUM}),
    },
    frozenset({"benchmarks"}),
)


def report_problem(report: Any) -> str | None:
    """The first key of `report` that is not the shape readers rely on, or None."""
    return REPORT.problem(report, "")
