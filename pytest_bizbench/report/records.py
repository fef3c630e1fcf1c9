"""The parts of a report the gate builds and the views read: its documents, its
threshold results and its completeness."""

from __future__ import annotations

import json
import zlib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from pytest_bizbench.io.jsonio import compact_json
from pytest_bizbench.maths.figures import plural
from pytest_bizbench.options.thresholds import Threshold
from pytest_bizbench.run.payload import ERROR, MISSING, SCORED, DocumentPayload
from pytest_bizbench.sdk import ExtendedDocument, ScoredDocument

PASSED, FAILED = "passed", "failed"
# pytest's words for an xfail-marked case (or a flaky one under ini bizbench_flaky =
# xfail): the report's `outcome` keeps its three words (`failed` / `passed`) and
# `pytest_outcome` carries pytest's word beside it
XFAILED, XPASSED = "xfailed", "xpassed"
RERUN = "rerun"  # pytest-rerunfailures: an attempt that is tried again
COMPRESS_FROM = 512  # in a large run, details text at least this long is kept compressed
UNMERGED_SHOWN = 5  # unmerged items named among the gate's reasons; the report lists all


@dataclass(frozen=True, slots=True)
class ReportDocument:
    """One document of the report, plus what compute() needs of it.

    Details and metadata are kept as the compact JSON text the item made of them
    (the payload's own are left empty) and parsed only when the report or compute()
    reads them: parsed, a typical extraction's details took ~10 KB; as text, ~1.9 KB.
    In a large run (`Aggregator.COMPRESS_AFTER`) long details are compressed, to
    ~0.6 KB, at ~20 µs a document that a small run need not pay.
    """

    nodeid: str
    outcome: str
    payload: DocumentPayload
    pytest_outcome: str = ""  # `xfailed` / `xpassed` for an xfail-marked or flaky case
    packed_details: str | bytes = "{}"
    metadata_json: str = "{}"
    # whether the details have sample statistics (`flip`), known without parsing them
    has_samples: bool = False

    @classmethod
    def received(
        cls,
        nodeid: str,
        outcome: str,
        data: Mapping[str, Any],
        pytest_outcome: str = "",
        *,
        compress: bool = False,
    ) -> ReportDocument:
        """From the payload as it travels on a report's user properties."""
        payload = DocumentPayload.from_property(data)
        return cls.kept(
            nodeid,
            outcome,
            payload,
            pytest_outcome=pytest_outcome,
            details=data["details"],
            metadata=data["metadata"],
            compress=compress,
        )

    @classmethod
    def of(
        cls, nodeid: str, outcome: str, payload: DocumentPayload, pytest_outcome: str = ""
    ) -> ReportDocument:
        """From a payload built on the controller (a crashed item's, a saved report's)."""
        details, metadata = compact_json(payload.details), compact_json(payload.metadata)
        kept = replace(payload, details={}, metadata={})
        return cls.kept(
            nodeid, outcome, kept, pytest_outcome=pytest_outcome, details=details, metadata=metadata
        )

    @classmethod
    def kept(
        cls,
        nodeid: str,
        outcome: str,
        payload: DocumentPayload,
        *,
        pytest_outcome: str,
        details: str,
        metadata: str,
        compress: bool = False,
    ) -> ReportDocument:
        packed: str | bytes = details
        if compress and len(details) >= COMPRESS_FROM:
            packed = zlib.compress(details.encode("utf-8"), 1)
        samples = '"flip":' in details  # only the top level's counts; a cheap first filter
        return cls(nodeid, outcome, payload, pytest_outcome, packed, metadata, samples)

    @property
    def details(self) -> dict[str, Any]:
        packed = self.packed_details
        text = packed if isinstance(packed, str) else zlib.decompress(packed).decode("utf-8")
        parsed: dict[str, Any] = json.loads(text)
        return parsed

    @property
    def metadata(self) -> dict[str, Any]:
        if self.metadata_json == "{}":  # most documents: read on every pass over them
            return {}
        parsed: dict[str, Any] = json.loads(self.metadata_json)
        return parsed

    def to_json(self) -> dict[str, Any]:
        return {**self.fields(), "details": self.details, "metadata": self.metadata}

    def fields(self) -> dict[str, Any]:
        """The report document but its details and metadata, which stay text until read."""
        p = self.payload
        out: dict[str, Any] = {
            "id": p.id,
            "case": p.case,
            "nodeid": self.nodeid,
            "case_hash": p.case_hash,
            "score": p.score if self.outcome != ERROR else None,
            "outcome": self.outcome,
            "labels": list(p.labels),
            # what compute() reads besides the score, so a merge can rebuild it
            "filename": p.filename,
            "rules": list(p.rules),
            "group": p.group,
        }
        if p.cluster is not None:
            out["cluster"] = p.cluster
        if p.latency_ms is not None:
            out["latency_ms"] = round(p.latency_ms, 3)
        if p.message and self.outcome != PASSED:
            out["message"] = p.message
        if self.pytest_outcome:
            out["pytest_outcome"] = self.pytest_outcome
        return out

    @classmethod
    def from_json(
        cls, doc: Mapping[str, Any], benchmark: str, model: str, *, missing: bool
    ) -> ReportDocument:
        """The inverse of `to_json`, for documents of a saved report."""
        outcome = str(doc["outcome"])
        status = MISSING if missing else ERROR if outcome == ERROR else SCORED
        latency = doc.get("latency_ms")
        payload = DocumentPayload(
            status=status,
            benchmark=benchmark,
            model=model,
            id=doc["id"],
            case=doc["case"],
            case_hash=doc.get("case_hash"),
            score=doc["score"],
            details=dict(doc.get("details") or {}),
            labels=tuple(doc.get("labels") or ()),
            metadata=dict(doc.get("metadata") or {}),
            filename=str(doc.get("filename") or ""),
            rules=tuple(doc.get("rules") or ()),
            group=doc.get("group"),
            latency_ms=float(latency) if latency is not None else None,
            message=str(doc.get("message") or ""),
            cluster=None if doc.get("cluster") is None else str(doc["cluster"]),
        )
        return cls.of(str(doc["nodeid"]), outcome, payload, str(doc.get("pytest_outcome") or ""))

    def id_order(self) -> tuple[str, str]:
        return self.payload.id or "", self.payload.case

    def scored(self) -> ScoredDocument:
        p = self.payload
        document = ExtendedDocument(
            id=p.id or "",
            filename=p.filename,
            labels=list(p.labels),
            metadata=self.metadata,
            model=p.model or "",
            source=p.case,
        )
        return ScoredDocument(
            document, p.score or 0.0, self.details, p.rules, p.group, latency_ms=p.latency_ms
        )


@dataclass(frozen=True, slots=True)
class ThresholdCase:
    """A case that pulls a failed threshold's metric down (`gate.explain`): its
    score, or for a per-field metric that field's score, expected and actual value
    and rung, or for a refusal rate the refusal's class and the answer's text."""

    case: str
    id: str
    score: float | None
    field: str | None = None
    expected: Any = None
    actual: Any = None
    rung: str | None = None
    refusal_class: str | None = None

    def to_json(self) -> dict[str, Any]:
        shown = {
            "case": self.case,
            "id": self.id,
            "score": self.score,
            "field": self.field,
            "expected": self.expected,
            "actual": self.actual,
            "rung": self.rung,
            "refusal_class": self.refusal_class,
        }
        keep = ("case", "id", "score")
        return {k: v for k, v in shown.items() if k in keep or v is not None}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ThresholdCase:
        return cls(
            case=data["case"],
            id=data["id"],
            score=data["score"],
            field=data.get("field"),
            expected=data.get("expected"),
            actual=data.get("actual"),
            rung=data.get("rung"),
            refusal_class=data.get("refusal_class"),
        )


@dataclass(frozen=True, slots=True)
class ThresholdResult:
    threshold: Threshold
    model: str
    actual: float | None
    passed: bool
    note: str = ""
    cases: tuple[ThresholdCase, ...] = ()  # a failed one's worst cases, worst first

    def to_json(self) -> dict[str, Any]:
        t = self.threshold
        shown = {
            "benchmark": t.benchmark,
            "model": self.model,
            "metric": t.metric,
            "op": t.op,
            "value": t.value,
            "actual": self.actual,
            "passed": self.passed,
        }
        if self.cases:
            shown["cases"] = [c.to_json() for c in self.cases]
        return shown

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ThresholdResult:
        t = Threshold(
            data["benchmark"],
            data["model"],
            data["metric"],
            data["op"],
            float(data["value"]),
            f"{data['benchmark']}:{data['model']}:{data['metric']} {data['op']} {data['value']:g}",
        )
        cases = tuple(ThresholdCase.from_json(c) for c in data.get("cases") or ())
        return cls(t, data["model"], data["actual"], data["passed"], cases=cases)

    def describe(self) -> str:
        t = self.threshold
        where = f"{t.benchmark}:{self.model}:{t.metric}"
        if self.actual is None:
            return f"{where} {t.op} {t.value:g}: {self.note}"
        return f"{where} = {self.actual:.4f}, needs {t.op} {t.value:g}"


@dataclass(frozen=True, slots=True)
class Completeness:
    """Whether every selected case was scored; an incomplete run never passes."""

    filtered: bool
    collected: int
    not_run: int
    interrupted: bool
    scored: int
    errors: tuple[dict[str, Any], ...]
    missing: tuple[dict[str, Any], ...]
    shard: bool = False  # one CI shard of a run (--bizbench-shard)
    notes: tuple[str, ...] = ()  # said once, never failing (rows that match no case)
    # prediction sources most of whose rows have the wrong shape: one reason each
    wrong_shapes: tuple[str, ...] = ()
    # `bizbench merge`: items of the suite that no shard's report holds
    unmerged: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return not (
            self.errors or self.missing or self.not_run or self.interrupted or self.unmerged
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "complete": self.complete,
            "filtered": self.filtered,
            "collected": self.collected,
            "scored": self.scored,
            "not_run": self.not_run,
            "interrupted": self.interrupted,
            "errors": list(self.errors),
            "missing": list(self.missing),
            "shard": self.shard,
            "notes": list(self.notes),
            **({"unmerged": list(self.unmerged)} if self.unmerged else {}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Completeness:
        """A saved report's; keys an earlier version did not write read as empty."""
        return cls(
            filtered=bool(data.get("filtered")),
            collected=int(data.get("collected") or 0),
            not_run=int(data.get("not_run") or 0),
            interrupted=bool(data.get("interrupted")),
            scored=int(data.get("scored") or 0),
            errors=tuple(data.get("errors") or ()),
            missing=tuple(data.get("missing") or ()),
            shard=bool(data.get("shard")),
            notes=tuple(str(note) for note in data.get("notes") or ()),
            unmerged=tuple(str(item) for item in data.get("unmerged") or ()),
        )

    def reasons(self) -> list[str]:
        found = []
        if self.interrupted:
            found.append("incomplete run: interrupted before every case was scored")
        if self.not_run:
            found.append(
                f"incomplete run: {self.not_run} of {self.collected} selected items never ran "
                "(stopped early)"
            )
        if self.unmerged:
            found.append(
                f"incomplete merge: {plural(len(self.unmerged), 'item')} of the suite in no "
                "shard's report (a shard missing?)"
            )
            found += _once("unmerged", list(self.unmerged[:UNMERGED_SHOWN]))
        if self.errors:
            found.append(f"incomplete run: {plural(len(self.errors), 'error')}")
            found += self.wrong_shapes
            found += _once("error", [_error_text(e) for e in self.errors])
        if self.missing:
            found.append(f"incomplete run: {plural(len(self.missing), 'missing prediction')}")
            found += _once("missing", [str(m["message"]) for m in self.missing])
        return found


def _once(kind: str, messages: list[str]) -> list[str]:
    """Each distinct message once, in first-seen order, with how often it came."""
    counts = Counter(messages)
    return [f"  {kind}: {text}" + (f" ({n} times)" if n > 1 else "") for text, n in counts.items()]


def _error_text(error: Mapping[str, Any]) -> str:
    return str(error.get("message") or error.get("nodeid"))
