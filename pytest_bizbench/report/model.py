"""The report as one typed value: what a run builds, what is written, what is read back.

A run's report and a report loaded from a file are the same `Report`, built by one
constructor each way (`RunResult` -> `build_report`, file -> `Report.from_json`), so
every reader (the views, the baseline comparison, `bizbench compare`, `report` and
`merge`) sees one type and needs nothing else: each benchmark entry carries its
headline, its compare() bounds, its metrics by name and its model pairs.

What a benchmark defines stays an open mapping here: its metrics, a document's
details, the keys its `compare()` and `compare_models()` add. The file's keys and
types are declared in `contract.py`; `to_json` writes exactly those.
"""

from __future__ import annotations

import platform
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from pytest_bizbench import __version__
from pytest_bizbench.report.contract import (
    DEFAULT_HEADLINE,
    SCHEMA_VERSION,
    TOOL_NAME,
    ReportJson,
)
from pytest_bizbench.report.records import Completeness, ReportDocument, ThresholdResult
from pytest_bizbench.report.stream import Documents


@dataclass(frozen=True, slots=True)
class RunInfo:
    """How the run went: the one part of a report two runs of one suite differ in."""

    started_at: str | None
    duration_s: float
    workers: int | None = None  # xdist's -n
    python: str = field(default_factory=platform.python_version)
    pytest: str = pytest.__version__
    merged_from: tuple[str, ...] = ()  # `bizbench merge`: the shard reports

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "started_at": self.started_at,
            "duration_s": round(self.duration_s, 3),
            "workers": self.workers,
            "python": self.python,
            "pytest": self.pytest,
        }
        if self.merged_from:
            out["merged_from"] = list(self.merged_from)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RunInfo:
        workers = data.get("workers")
        return cls(
            started_at=data.get("started_at"),
            duration_s=float(data.get("duration_s") or 0.0),
            workers=workers if isinstance(workers, int) else None,
            python=str(data.get("python") or ""),
            pytest=str(data.get("pytest") or ""),
            merged_from=tuple(str(p) for p in data.get("merged_from") or ()),
        )


@dataclass(frozen=True, slots=True)
class Gate:
    passed: bool
    reasons: tuple[str, ...]

    @classmethod
    def of(cls, reasons: Sequence[str]) -> Gate:
        """A gate passes exactly when it has no reason to fail."""
        return cls(not reasons, tuple(reasons))


@dataclass(frozen=True, slots=True)
class ModelEntry:
    """One model's metrics and documents under one benchmark."""

    metrics: Mapping[str, Any]
    documents: Documents
    flaky: tuple[Mapping[str, Any], ...] = ()  # cases whose repeated samples disagree

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"metrics": self.metrics, "documents": self.documents}
        if self.flaky:
            out["flaky"] = list(self.flaky)
        return out


@dataclass(frozen=True, slots=True)
class BenchmarkEntry:
    """One benchmark: identity, compare() bounds, models, comparisons and model pairs.

    The bounds are None for a benchmark this run knew only from the baseline."""

    version: str
    description: str
    metric_unit: str
    headline_metric: str
    fingerprint: str
    config: Mapping[str, Any]
    models: Mapping[str, ModelEntry]
    regression_threshold: float | None = None
    improvement_threshold: float | None = None
    comparison: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    paired: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    runs: Mapping[str, Any] | None = None  # per model, a summary of agent-runs records

    @property
    def headline(self) -> str:
        return self.headline_metric or DEFAULT_HEADLINE

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "version": self.version,
            "description": self.description,
            "metric_unit": self.metric_unit,
            "headline_metric": self.headline_metric,
            "fingerprint": self.fingerprint,
            "config": self.config,
            "models": {model: entry.to_json() for model, entry in self.models.items()},
        }
        if self.regression_threshold is not None:
            out["regression_threshold"] = self.regression_threshold
        if self.improvement_threshold is not None:
            out["improvement_threshold"] = self.improvement_threshold
        if self.comparison:
            out["comparison"] = dict(self.comparison)
        if self.paired:
            out["paired"] = dict(self.paired)
        if self.runs is not None:
            out["runs"] = self.runs
        return out

    @classmethod
    def from_json(
        cls, name: str, data: Mapping[str, Any], missing: frozenset[str]
    ) -> BenchmarkEntry:
        """A saved entry; `missing` holds the node ids whose prediction was missing."""
        models = {
            model: ModelEntry(
                entry["metrics"],
                Documents(
                    [
                        ReportDocument.from_json(doc, name, model, missing=doc["nodeid"] in missing)
                        for doc in entry["documents"]
                    ]
                ),
                tuple(entry.get("flaky") or ()),
            )
            for model, entry in data["models"].items()
        }
        return cls(
            version=data["version"],
            description=str(data.get("description") or ""),
            metric_unit=str(data.get("metric_unit") or ""),
            headline_metric=str(data.get("headline_metric") or ""),
            fingerprint=data["fingerprint"],
            config=data.get("config") or {},
            models=models,
            regression_threshold=data.get("regression_threshold"),
            improvement_threshold=data.get("improvement_threshold"),
            comparison=data.get("comparison") or {},
            paired=data.get("paired") or {},
            runs=data.get("runs"),
        )


@dataclass(frozen=True, slots=True)
class Report:
    """The whole report. `run` (timings, versions) is the one part two runs of one
    suite may differ in."""

    benchmarks: Mapping[str, BenchmarkEntry]
    thresholds: tuple[ThresholdResult, ...]
    gate: Gate
    completeness: Completeness
    run: RunInfo
    tool_name: str = TOOL_NAME
    tool_version: str = __version__
    schema_version: int = SCHEMA_VERSION

    def with_reasons(self, reasons: Sequence[str]) -> Report:
        return replace(self, gate=Gate.of(reasons))

    def entries(self) -> Iterator[tuple[str, str, BenchmarkEntry, ModelEntry]]:
        """(benchmark, model, its entry, the model's entry), sorted by both names."""
        for name, entry in sorted(self.benchmarks.items()):
            for model, data in sorted(entry.models.items()):
                yield name, model, entry, data

    def comparisons(self) -> dict[tuple[str, str], Mapping[str, Any]]:
        """Every benchmark x model compared with the baseline."""
        return {
            (name, model): comparison
            for name, entry in self.benchmarks.items()
            for model, comparison in entry.comparison.items()
        }

    def model_names(self) -> list[str]:
        return sorted({model for entry in self.benchmarks.values() for model in entry.models})

    def documents(self) -> dict[tuple[str, str], list[ReportDocument]]:
        """Every document per (benchmark, model), as the aggregator holds them."""
        return {
            (name, model): list(data.documents.sources) for name, model, _, data in self.entries()
        }

    def to_json(self) -> dict[str, Any]:
        """The file's content; documents stay `Documents`, which the writer streams."""
        return {
            "schema_version": self.schema_version,
            "tool": {"name": self.tool_name, "version": self.tool_version},
            "benchmarks": {name: entry.to_json() for name, entry in self.benchmarks.items()},
            "thresholds": [t.to_json() for t in self.thresholds],
            "gate": {"passed": self.gate.passed, "reasons": list(self.gate.reasons)},
            "completeness": self.completeness.to_json(),
            "run": self.run.to_json(),
        }

    @classmethod
    def from_json(cls, data: ReportJson) -> Report:
        """A report checked against the contract (`contract.problem`) first; keys an
        earlier version did not write read as empty."""
        completeness = Completeness.from_json(data.get("completeness") or {})
        missing = frozenset(str(m.get("nodeid")) for m in completeness.missing)
        tool = data.get("tool") or {"name": TOOL_NAME, "version": ""}
        gate = data.get("gate") or {"passed": False, "reasons": []}
        return cls(
            benchmarks={
                name: BenchmarkEntry.from_json(name, entry, missing)
                for name, entry in data["benchmarks"].items()
            },
            thresholds=tuple(ThresholdResult.from_json(t) for t in data.get("thresholds") or ()),
            gate=Gate(gate["passed"], tuple(gate["reasons"])),
            completeness=completeness,
            run=RunInfo.from_json(data.get("run") or {}),
            tool_name=tool["name"],
            tool_version=tool["version"],
        )
