"""The one shape in which a scored case crosses from the item to the controller.

A payload rides on the test report of the phase that decides the item's outcome,
as the attribute `REPORT_ATTRIBUTE` (set by the plugin's `pytest_runtest_makereport`
wrapper): pytest serialises a report's attributes across xdist, so the same data
reaches `pytest_runtest_logreport` with and without it: a dict serially, its
compact JSON text from a worker (`read_payload` reads both). It holds only plain
JSON data, made so here and nowhere else. The score, benchmark and model also go
to `user_properties`, for JUnit XML.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime as dt
import decimal
import enum
import json
import math
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from pytest_bizbench.io.escape import terminal_text
from pytest_bizbench.io.jsonio import compact_json

REPORT_ATTRIBUTE = "bizbench_payload"
SCORE_KEY = "bizbench_score"
BENCHMARK_KEY = "bizbench_benchmark"
MODEL_KEY = "bizbench_model"
OWN_PROPERTIES = (SCORE_KEY, BENCHMARK_KEY, MODEL_KEY)
MAX_TEXT = 500  # characters of one string kept in report details
MAX_ITEMS = 200  # entries of one list or object kept in report details
# a list of plain numbers is kept whole up to this length: a series (a trajectory's
# cumulative best, one value per iteration) is small per item and useless cut short
MAX_NUMBERS = 100_000
SMALL_JSON = 8000  # characters of plain JSON that pass as they are
MAX_DEPTH = 12

# The group or cluster of a case whose field is missing, null or not a plain value.
UNKNOWN_GROUP = "unknown"

# How an item ended, before pytest's own outcome is known.
SCORED, MISSING, ERROR = "scored", "missing", "error"
# A case the benchmark does not apply to (sdk.NotApplicable): the item is skipped.
SKIPPED = "skipped"


class NotJSON(ValueError):
    """A value JSON cannot hold at all: a self-reference, an int past Python's digit
    limit, an object whose repr raises. The message says which."""


# an int this long in bits may pass Python's limit of digits in a string (4,300)
_LONG_INT_BITS = 14_000


def _checked_int(value: int) -> int:
    if value.bit_length() > _LONG_INT_BITS:
        try:
            str(value)
        except ValueError:
            raise NotJSON(f"an int of {value.bit_length()} bits, past the digit limit") from None
    return value


def jsonable(
    value: Any,
    depth: int = 0,
    *,
    bounded: bool = True,
    notes: list[str] | None = None,
    _inside: frozenset[int] = frozenset(),
) -> Any:
    """Plain JSON data for any value a benchmark may put in its details or metrics.

    Keys become strings; Decimal, dates, sets, bytes, enums, paths and dataclasses
    are converted; NaN and infinities become None (JSON has no spelling for them),
    each one noted in `notes` when given. `bounded` cuts long strings and
    collections so one document's details cannot bloat the report; metrics are
    converted unbounded. Raises NotJSON for what has no JSON form at all.
    """
    inside = _inside

    def inner(item: Any, level: int) -> Any:
        return jsonable(item, level, bounded=bounded, notes=notes, _inside=inside)

    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return _checked_int(value)
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        if notes is not None:
            notes.append(repr(value))
        return None
    if isinstance(value, str):
        return value if not bounded or len(value) <= MAX_TEXT else value[:MAX_TEXT] + "…"
    if bounded and depth >= MAX_DEPTH:
        return "…"
    limit = MAX_ITEMS if bounded else None
    if isinstance(value, decimal.Decimal):
        return inner(float(value) if value.is_finite() else math.nan, depth)
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, enum.Enum):
        return inner(value.value, depth + 1)
    if isinstance(value, (bytes, bytearray)):
        try:
            return inner(bytes(value).decode("utf-8"), depth)
        except UnicodeDecodeError:
            return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, PurePath):
        return value.as_posix()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return inner(dataclasses.asdict(value), depth)
    if isinstance(value, (Mapping, list, tuple, set, frozenset)):
        if id(value) in inside:
            raise NotJSON(f"a {type(value).__name__} that holds itself")
        inside = inside | {id(value)}
    if isinstance(value, Mapping):
        items = list(value.items())
        out = {str(k): inner(v, depth + 1) for k, v in items[:limit]}
        if limit is not None and len(items) > limit:
            out["…"] = f"{len(items) - limit} more entries"
        return out
    if isinstance(value, (set, frozenset)):
        value = sorted(value, key=repr)
    if isinstance(value, (list, tuple)):
        if limit is not None and limit < len(value) <= MAX_NUMBERS and _plain_numbers(value):
            limit = None  # scanned only for a list the bound would cut
        out_list = [inner(v, depth + 1) for v in value[:limit]]
        if limit is not None and len(value) > limit:
            out_list.append(f"… {len(value) - limit} more items")
        return out_list
    try:
        text = repr(value)
    except Exception as exc:
        raise NotJSON(
            f"a {type(value).__name__} whose repr() raised {type(exc).__name__}"
        ) from None
    return inner(text, depth)


JSON_NOTE_KEY = "json_note"


def _plain_numbers(values: list[Any] | tuple[Any, ...]) -> bool:
    return all(type(v) is float or type(v) is int for v in values)


def bounded_json(value: dict[str, Any]) -> str:
    """The one normaliser of a payload's details and metadata, applied where the
    payload is built: whatever a benchmark returns, the result is compact JSON text
    (string keys, no NaN, bounded size) that the report can always write.

    Text, not data: it crosses from an xdist worker as one string and the controller
    keeps it as it came, a fraction of the memory of the parsed object (see
    `report.records.ReportDocument`). Small plain JSON is encoded once by the C encoder;
    anything else is walked by `jsonable`, and values that had no JSON spelling are
    named in `details["json_note"]`.
    """
    if not value:  # most metadata
        return "{}"
    try:
        text = compact_json(value)
        if len(text) <= SMALL_JSON:
            return text
    except (TypeError, ValueError, RecursionError):
        pass
    notes: list[str] = []
    out = jsonable(value, notes=notes)
    if not isinstance(out, dict):
        out = {"value": out}
    if notes:
        shown = ", ".join(sorted(set(notes)))
        out[JSON_NOTE_KEY] = f"{len(notes)} value(s) with no JSON spelling ({shown}) became null"
    return compact_json(out)


@dataclass(frozen=True, slots=True)
class DocumentPayload:
    """What the controller needs of one item: its report document and its slices."""

    status: str  # SCORED, MISSING or ERROR
    benchmark: str | None
    model: str | None
    id: str | None
    case: str
    case_hash: str | None
    score: float | None
    details: dict[str, Any] = field(default_factory=dict)
    labels: tuple[str, ...] = ()
    metadata: dict[str, Any] = field(default_factory=dict)
    filename: str = ""
    rules: tuple[str, ...] = ()
    group: str | None = None
    latency_ms: float | None = None
    line: int | None = None
    message: str = ""
    # the id its prediction is looked up by, when not `id` (a golden bundle's id)
    prediction_key: str | None = None
    cluster: str | None = None  # set only when ini bizbench_cluster_by names a field

    def to_property(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "benchmark": self.benchmark,
            "model": self.model,
            "id": self.id,
            "case": self.case,
            "case_hash": self.case_hash,
            "score": self.score,
            "details": bounded_json(self.details),
            "labels": list(self.labels),
            "metadata": bounded_json(self.metadata),
            "filename": self.filename,
            "rules": list(self.rules),
            "group": self.group,
            "latency_ms": self.latency_ms,
            "line": self.line,
            "message": self.message,
            "prediction_key": self.prediction_key,
            "cluster": self.cluster,
        }

    @classmethod
    def from_property(cls, data: Mapping[str, Any]) -> DocumentPayload:
        """The payload as the controller keeps it: details and metadata stay behind as
        text (`ReportDocument` holds them); the strings every document repeats are
        interned, so 100k documents share one copy of each."""
        return cls(
            status=data["status"],
            benchmark=_interned(data["benchmark"]),
            model=_interned(data["model"]),
            id=data["id"],
            case=sys.intern(data["case"]),
            case_hash=data["case_hash"],
            score=data["score"],
            labels=tuple(sys.intern(label) for label in data["labels"]),
            filename=sys.intern(data["filename"]),
            rules=tuple(sys.intern(rule) for rule in data["rules"]),
            group=_interned(data["group"]),
            latency_ms=data["latency_ms"],
            line=data["line"],
            message=data["message"],
            prediction_key=data.get("prediction_key"),
            cluster=data.get("cluster"),
        )

    def travelling(self, *, as_text: bool = False) -> dict[str, Any] | str:
        """The payload as its report carries it. `as_text`, on an xdist worker: one
        JSON text, which execnet's pure-Python serializer and the controller's reader
        take as one string instead of some fifty objects (`read_payload` reads
        either)."""
        data = self.to_property()
        return compact_json(data) if as_text else data

    def properties(self) -> list[tuple[str, Any]]:
        """The user properties of the item: the JUnit-visible trio (names escaped:
        JUnit XML is an output too)."""
        props: list[tuple[str, Any]] = []
        if self.benchmark is not None:
            props += [
                (BENCHMARK_KEY, terminal_text(self.benchmark)),
                (MODEL_KEY, terminal_text(self.model)),
            ]
        if self.score is not None:
            props.append((SCORE_KEY, self.score))
        return props


def _interned(text: str | None) -> str | None:
    return None if text is None else sys.intern(text)


def read_payload(value: object) -> Mapping[str, Any] | None:
    """The payload as it travels (see `DocumentPayload.travelling`), if `value` is one."""
    data = value
    if isinstance(value, str):  # from a worker: its own compact JSON, an object
        try:
            data = json.loads(value)
        except (ValueError, RecursionError):
            return None  # another plugin's text under our name
    if isinstance(data, Mapping) and data.keys() >= _PROPERTY_KEYS:
        return data
    return None


def payload_of(report: object) -> Mapping[str, Any] | None:
    """The payload a test report carries, if any."""
    return read_payload(getattr(report, REPORT_ATTRIBUTE, None))


# the keys `to_property` writes that its readers take without a default: a mapping
# under our name that lacks one is not ours
_PROPERTY_KEYS = frozenset(f.name for f in dataclasses.fields(DocumentPayload)) - {
    "prediction_key",
    "cluster",
}


def find_note(report: object) -> str:
    """A benchmark's one-line `details["note"]` (say, retrieval categories per part),
    shown after the score in verbose output; "" when there is none."""
    data = payload_of(report)
    if data is None:
        return ""
    details = json.loads(data["details"])
    note = details.get("note") if isinstance(details, dict) else None
    return note if isinstance(note, str) else ""


def find_score(user_properties: list[tuple[str, Any]]) -> float | None:
    for name, value in user_properties:
        if name == SCORE_KEY and isinstance(value, (int, float)):
            return float(value)
    return None
