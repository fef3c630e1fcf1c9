"""The report file's keys and types, declared once: what the writer writes, what every
reader checks before touching a saved report, and the JSON Schema the package ships.

Each object of the file is a TypedDict below. Its type hints are read at run time
twice: `problem()` walks a parsed report against them, so a report of the wrong
shape is one line naming the key (`benchmarks.x.models must be an object`), never
a `KeyError` deep in a renderer; `json_schema()` turns them into the shipped
`schema.json` (a test keeps the file equal to it).

Three kinds of key:
- marked `MUST` (`Annotated[..., MUST]`): every report has it, whatever version wrote it;
- marked `ALWAYS`: this version always writes it, so the schema requires it, but a
  report of an earlier version may lack it and still be read (a baseline saved
  months ago stays a baseline);
- neither: written only when it applies.
Keys not declared are free everywhere: a newer writer adds keys, never renames them.
What a benchmark defines (its metrics, a document's details, `compare()`'s own keys)
is an open object here; its benchmark owns its shape.
"""

from __future__ import annotations

import json
import re
import types
from dataclasses import dataclass
from functools import cache
from typing import (
    Annotated,
    Any,
    Literal,
    TypedDict,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

SCHEMA_VERSION = 1
TOOL_NAME = "pytest-bizbench"
DEFAULT_HEADLINE = "accuracy"  # a benchmark's headline metric when it names none


@dataclass(frozen=True, slots=True)
class Presence:
    """How sure a reader is to find a key: in every report (`MUST`), or in every
    report of this version while earlier ones may lack it (`ALWAYS`)."""

    every_version: bool


@dataclass(frozen=True, slots=True)
class Bounds:
    """A number's range (`minimum`/`maximum` in the schema)."""

    minimum: float | None = None
    maximum: float | None = None


@dataclass(frozen=True, slots=True)
class Size:
    """A list of exactly `items` values (an interval's two ends)."""

    items: int


MUST = Presence(every_version=True)
ALWAYS = Presence(every_version=False)
Object = dict[str, Any]  # an object whose keys its benchmark defines
Interval = Annotated[list[float], Size(2)]
Count = Annotated[int, Bounds(minimum=0)]


class ToolJson(TypedDict, total=False):
    name: Annotated[str, MUST]
    version: Annotated[str, MUST]


class GateJson(TypedDict, total=False):
    passed: Annotated[bool, MUST]
    reasons: Annotated[list[str], MUST]


class RunJson(TypedDict, total=False):
    """How the run went: the one part of a report two runs of one suite differ in."""

    started_at: Annotated[str | None, ALWAYS]
    duration_s: Annotated[float, ALWAYS, Bounds(minimum=0, maximum=1e9)]
    workers: Annotated[int | None, ALWAYS]
    python: Annotated[str, ALWAYS]
    pytest: Annotated[str, ALWAYS]
    merged_from: list[str]  # `bizbench merge`: the shard reports


class ProblemJson(TypedDict, total=False):
    """An item that errored, or a case without a prediction."""

    nodeid: Annotated[str, MUST]
    message: str | None
    line: int | None


class CompletenessJson(TypedDict, total=False):
    complete: Annotated[bool, ALWAYS]
    filtered: Annotated[bool, ALWAYS]
    collected: Annotated[Count, ALWAYS]
    scored: Annotated[Count, ALWAYS]
    not_run: Annotated[Count, ALWAYS]
    interrupted: Annotated[bool, ALWAYS]
    errors: Annotated[list[ProblemJson], ALWAYS]
    missing: Annotated[list[ProblemJson], ALWAYS]
    shard: Annotated[bool, ALWAYS]
    notes: Annotated[list[str], ALWAYS]
    unmerged: list[str]  # `bizbench merge`: items of the suite in no shard's report


class ThresholdCaseJson(TypedDict, total=False):
    case: Annotated[str, MUST]
    id: Annotated[str, MUST]
    score: Annotated[float | None, MUST]
    field: str
    expected: Any
    actual: Any
    rung: str
    refusal_class: str


class ThresholdJson(TypedDict, total=False):
    benchmark: Annotated[str, MUST]
    model: Annotated[str, MUST]
    metric: Annotated[str, MUST]
    op: Annotated[Literal[">=", ">", "<=", "<"], MUST]
    value: Annotated[float, MUST]
    actual: Annotated[float | None, MUST]
    passed: Annotated[bool, MUST]
    cases: list[ThresholdCaseJson]  # a failed threshold's worst cases, worst first


class DocumentJson(TypedDict, total=False):
    id: Annotated[str | None, MUST]
    case: Annotated[str, MUST]
    nodeid: Annotated[str, MUST]
    score: Annotated[Annotated[float, Bounds(0, 1)] | None, MUST]
    outcome: Annotated[str, MUST]
    case_hash: Annotated[str | None, ALWAYS]
    details: Annotated[Object, ALWAYS]
    labels: Annotated[list[str], ALWAYS]
    metadata: Annotated[Object, ALWAYS]
    filename: Annotated[str | None, ALWAYS]
    rules: Annotated[list[str], ALWAYS]
    group: Annotated[str | None, ALWAYS]
    cluster: str | None
    latency_ms: float | None
    message: str | None
    pytest_outcome: str  # pytest's word for an xfail-marked case: xfailed, xpassed


class FlakyJson(TypedDict, total=False):
    id: Annotated[str, MUST]
    case: Annotated[str, MUST]
    n: Annotated[Count, MUST]
    passed: Annotated[Count, MUST]


class MetricsJson(TypedDict, total=False):
    """A benchmark's metrics: the keys below where it reports them, any others it names."""

    accuracy: Annotated[float, Bounds(0, 1)] | None
    total_documents: Count
    per_field_accuracy: dict[str, float | None]
    groups: Object


class ModelJson(TypedDict, total=False):
    metrics: Annotated[MetricsJson, MUST]
    documents: Annotated[list[DocumentJson], MUST]
    flaky: list[FlakyJson]  # cases whose repeated samples disagree


class PairedJson(TypedDict, total=False):
    """Per-case deltas of the cases both sides hold, and their statistics."""

    n: Count
    mean_delta: float | None
    ci95: Interval | None
    p_value: float | None
    histogram: list[HistogramBinJson]


class HistogramBinJson(TypedDict, total=False):
    count: Annotated[Count, MUST]
    range: Annotated[Interval, MUST]


class McNemarJson(TypedDict, total=False):
    b: Annotated[Count, MUST]
    c: Annotated[Count, MUST]
    p_value: Annotated[float | None, MUST]


class ClusteredJson(TypedDict, total=False):
    ci95: Interval | None
    se: float | None
    n_clusters: Count
    note: str | None


class FieldMoveJson(TypedDict, total=False):
    baseline: float | None
    candidate: float | None


class WorstCaseJson(TypedDict, total=False):
    id: Annotated[str, MUST]
    case: Annotated[str, MUST]
    baseline: Annotated[float | None, MUST]
    candidate: Annotated[float | None, MUST]
    delta: Annotated[float | None, MUST]
    fields: dict[str, FieldMoveJson]


class ComparisonJson(TypedDict, total=False):
    """One benchmark x model against the baseline; `compare()` adds its own keys."""

    verdict: Annotated[str, MUST]
    delta: float | None
    message: str | None
    paired: PairedJson
    new_cases: list[Any]
    removed_cases: list[Any]
    stale_cases: list[Any]
    mcnemar: McNemarJson | None
    p_holm: float | None
    mde: float | None
    mde_note: str | None
    significant: bool
    regression_threshold: float | None
    clustered: ClusteredJson | None
    worst: list[WorstCaseJson]
    flipped: list[Object]


class ModelPairJson(TypedDict, total=False):
    """Two models of one run compared (`compare_models()`, which adds its own keys)."""

    delta: float | None
    verdict: str
    cases: PairedJson | None


class BenchmarkJson(TypedDict, total=False):
    version: Annotated[str, MUST]
    fingerprint: Annotated[str, MUST]
    models: Annotated[dict[str, ModelJson], MUST]
    description: Annotated[str, ALWAYS]
    metric_unit: Annotated[str, ALWAYS]
    headline_metric: Annotated[str, ALWAYS]
    config: Annotated[Object, ALWAYS]
    regression_threshold: float  # a registered benchmark's compare() bounds
    improvement_threshold: float
    comparison: dict[str, ComparisonJson]
    paired: dict[str, ModelPairJson]
    runs: dict[str, Object]  # per model, a summary of its agent-runs records


class ReportJson(TypedDict, total=False):
    schema_version: Annotated[Literal[1], MUST]
    benchmarks: Annotated[dict[str, BenchmarkJson], MUST]
    tool: Annotated[ToolJson, ALWAYS]
    thresholds: Annotated[list[ThresholdJson], ALWAYS]
    gate: Annotated[GateJson, ALWAYS]
    completeness: Annotated[CompletenessJson, ALWAYS]
    run: Annotated[RunJson, ALWAYS]


# --- reading the hints -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Hint:
    """One hint taken apart: the bare type, its markers, whether null is allowed."""

    base: Any
    nullable: bool
    read: bool  # every report has the key
    written: bool  # this version always writes it
    bounds: Bounds | None
    size: int | None


@cache  # a report checks the same few hints once per document
def _hint(hint: Any) -> _Hint:
    nullable = read = written = False
    bounds: Bounds | None = None
    size: int | None = None
    while True:
        origin = get_origin(hint)
        if origin is Annotated:
            hint, *marks = get_args(hint)
            read = read or MUST in marks
            written = written or read or ALWAYS in marks
            bounds = next((m for m in marks if isinstance(m, Bounds)), bounds)
            size = next((m.items for m in marks if isinstance(m, Size)), size)
        elif origin in (Union, types.UnionType):
            options = [a for a in get_args(hint) if a is not type(None)]
            nullable = nullable or len(options) < len(get_args(hint))
            if len(options) != 1:
                raise TypeError(f"a report key holds one type or null, not {hint!r}")
            hint = options[0]
        else:
            return _Hint(hint, nullable, read, written, bounds, size)


@cache
def _keys(cls: type) -> tuple[tuple[str, _Hint], ...]:
    """(key, hint) of a TypedDict, in declared order."""
    hints = get_type_hints(cls, include_extras=True)
    return tuple((key, _hint(hint)) for key, hint in hints.items())


_NAMES = {str: "a string", int: "an integer", float: "a number", bool: "true or false"}
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


def _name(hint: _Hint) -> str:
    base = hint.base
    if is_typeddict(base) or get_origin(base) is dict:
        name = "an object"
    elif get_origin(base) is list:
        name = "a list"
    elif get_origin(base) is Literal:
        name = " or ".join(json.dumps(v) for v in get_args(base))
    else:
        name = _NAMES.get(base, "any value")
    return f"{name} or null" if hint.nullable else name


def _problem(value: Any, hint: _Hint, at: str) -> str | None:
    base = hint.base
    if base is Any or (value is None and hint.nullable):
        return None
    origin = get_origin(base)
    if origin is Literal:
        same = any(_same_kind(value, type(v)) and value == v for v in get_args(base))
        return None if same else f"{at} must be {_name(hint)}"
    if is_typeddict(base) or origin is dict:
        if not isinstance(value, dict):
            return f"{at} must be {_name(hint)}"
        if origin is dict:
            item = _hint(get_args(base)[1])
            return next(
                (p for k, v in value.items() if (p := _problem(v, item, _join(at, k)))), None
            )
        return _object_problem(value, base, at)
    if origin is list:
        if not isinstance(value, list):
            return f"{at} must be {_name(hint)}"
        if hint.size is not None and len(value) != hint.size:
            return f"{at} must hold {hint.size} items"
        item = _hint(get_args(base)[0])
        return next(
            (p for i, v in enumerate(value) if (p := _problem(v, item, f"{at}[{i}]"))), None
        )
    accepted = (int, float) if base is float else (base,)
    if isinstance(value, bool) is not (base is bool) or not (
        isinstance(value, accepted) or _same_kind(value, base)
    ):
        return f"{at} must be {_name(hint)}"
    low, high = (hint.bounds.minimum, hint.bounds.maximum) if hint.bounds else (None, None)
    if (low is not None and value < low) or (high is not None and value > high):
        return f"{at} must be {'at least' if high is None else 'from'} {low:g}" + (
            f" to {high:g}" if high is not None else ""
        )
    return None


def _same_kind(value: Any, kind: type) -> bool:
    """`1.0` is an integer too, as JSON Schema has it (a writer in another language
    may spell one so); never `true`."""
    if type(value) is float and kind is int:
        return value.is_integer()
    return type(value) is kind


def _object_problem(value: dict[str, Any], cls: type, at: str) -> str | None:
    """The first key of `value` that is not as `cls` declares it; an integer spelled
    `1.0` is made `1` on the way, so the report reads back as it would be written."""
    for key, hint in _keys(cls):
        if key not in value:
            if hint.read:
                return f"{_join(at, key)} is missing"
            continue
        found = _problem(value[key], hint, _join(at, key))
        if found:
            return found
        if type(value[key]) is float and (hint.base is int or get_origin(hint.base) is Literal):
            value[key] = int(value[key])
    return None


def problem(report: Any) -> str | None:
    """The first key of a parsed report that is not what readers rely on, or None.
    An integer spelled `1.0` passes, and is made `1` in place."""
    if not isinstance(report, dict):
        return "the top level is not a JSON object"
    if report.get("schema_version") != SCHEMA_VERSION:
        return f"schema_version is {report.get('schema_version')!r}, expected {SCHEMA_VERSION}"
    return _object_problem(report, ReportJson, "") or _headline_problem(report)


def _headline_problem(report: dict[str, Any]) -> str | None:
    """A headline that is not a number: the one metric every comparison reads,
    whatever the benchmark (a text "nan" would read as a number and never regress)."""
    number = _hint(float | None)
    for name, entry in report["benchmarks"].items():
        headline = entry.get("headline_metric") or DEFAULT_HEADLINE
        for model, data in entry["models"].items():
            if headline in data["metrics"]:
                at = key_path("benchmarks", name, "models", model, "metrics", headline)
                found = _problem(data["metrics"][headline], number, at)
                if found:
                    return found
    return None


# --- the JSON Schema -------------------------------------------------------------


def _schema(hint: _Hint, defs: dict[str, Any]) -> dict[str, Any]:
    base = hint.base
    origin = get_origin(base)
    out: dict[str, Any]
    if base is Any:
        return {}
    if origin is Literal:
        allowed = list(get_args(base))
        out = {"const": allowed[0]} if len(allowed) == 1 else {"enum": allowed}
    elif is_typeddict(base):
        name = base.__name__.removesuffix("Json")
        if name not in defs:
            defs[name] = {}  # claimed first: a type that holds itself ends
            defs[name] = _object_schema(base, defs)
        out = {"$ref": f"#/$defs/{name}"}
    elif origin is dict:
        values = _schema(_hint(get_args(base)[1]), defs)
        out = {"type": "object", **({"additionalProperties": values} if values else {})}
    elif origin is list:
        out = {"type": "array", "items": _schema(_hint(get_args(base)[0]), defs)}
        if hint.size is not None:
            out |= {"minItems": hint.size, "maxItems": hint.size}
    else:
        out = {"type": {str: "string", int: "integer", float: "number", bool: "boolean"}[base]}
        if hint.bounds is not None:
            for key in ("minimum", "maximum"):
                if getattr(hint.bounds, key) is not None:
                    out[key] = getattr(hint.bounds, key)
    if hint.nullable:
        out = {"anyOf": [out, {"type": "null"}]}
    return out


def _object_schema(cls: type, defs: dict[str, Any]) -> dict[str, Any]:
    keys = _keys(cls)
    out: dict[str, Any] = {"type": "object"}
    if cls.__doc__:
        out["description"] = " ".join(cls.__doc__.split())
    required = [key for key, hint in keys if hint.written]
    if required:
        out["required"] = required
    out["properties"] = {key: _schema(hint, defs) for key, hint in keys}
    return out


def json_schema() -> dict[str, Any]:
    """The report's JSON Schema (draft 2020-12), as the package ships it."""
    defs: dict[str, Any] = {}
    top = _object_schema(ReportJson, defs)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "pytest-bizbench/report/schema.json",
        "title": "pytest-bizbench report",
        "description": (
            "The JSON report of a pytest-bizbench run. Keys listed here are the "
            "contract; extensions add keys and never rename them, so every object "
            "allows additional properties. Generated from pytest_bizbench.report.contract."
        ),
        **top,
        "$defs": dict(sorted(defs.items())),
    }


def schema_text() -> str:
    """`schema.json` as shipped; regenerate it with
    `python -c "import pytest_bizbench.report.contract as c; print(c.schema_text(), end='')"
    > pytest_bizbench/report/schema.json`."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"
