"""Saved reports read back: checked once, then turned into what the views and a merge use.

A report file is the one artifact CI keeps, so baselines, `bizbench compare`,
`bizbench report` and `bizbench merge` all start from it. Anything that is not a
report of our schema is a `ReportError` naming the file and the first problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pytest_bizbench.benchmarks import BUILTINS
from pytest_bizbench.io.files import UnsafeInputError, read_regular
from pytest_bizbench.io.jsonio import InputError, parse_json
from pytest_bizbench.report.json_report import SCHEMA_VERSION
from pytest_bizbench.report.records import Completeness, ReportDocument
from pytest_bizbench.report.shape import key_path, report_problem
from pytest_bizbench.run.registry import Registry
from pytest_bizbench.sdk import BenchmarkPlugin

# Far above any report a suite writes (about 1 KB a document), far below what
# would exhaust a CI runner's memory.
REPORT_MAX_BYTES = 512 * 1024 * 1024


class ReportError(Exception):
    """A report file that cannot be read or is not a bizbench report."""


def _problem(report: object) -> str | None:
    """The first way `report` falls short of what readers rely on."""
    if not isinstance(report, dict):
        return "the top level is not a JSON object"
    if report.get("schema_version") != SCHEMA_VERSION:
        return f"schema_version is {report.get('schema_version')!r}, expected {SCHEMA_VERSION}"
    return report_problem(report) or _pairs_problem(report)


def _pairs_problem(report: Mapping[str, Any]) -> str | None:
    """A model pair's entry its benchmark's own tables cannot read. The shape declares
    the keys every pair has; a built-in's `paired_tables` reads more of its own."""
    for name, entry in report["benchmarks"].items():
        pairs = entry.get("paired") or {}
        if not pairs:
            continue
        benchmark = recorded_benchmark(name, entry)
        for label, pair in pairs.items():
            try:
                benchmark.paired_tables(pair)
            except (AttributeError, IndexError, KeyError, TypeError, ValueError) as exc:
                where = key_path("benchmarks", name, "paired", label)
                return f"{where} is not what the benchmark writes ({type(exc).__name__})"
    return None


def read_report(path: Path, max_bytes: int = REPORT_MAX_BYTES) -> dict[str, Any]:
    """The report at `path`; ReportError when it is unreadable or not a report."""
    try:
        data = read_regular(path, max_bytes, "bizbench reads reports up to this size")
    except UnsafeInputError as exc:
        raise ReportError(f"{exc.message.replace('file', f'report {path}', 1)}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ReportError(f"{path}: not a bizbench report: not UTF-8 text") from None
    try:
        report = parse_json(text)
    except InputError as exc:
        where = f"{path}:{exc.line}" if exc.line else str(path)
        raise ReportError(f"{where}: not a bizbench report: {exc.message}") from None
    problem = _problem(report)
    if problem:
        raise ReportError(f"{path}: not a bizbench report: {problem}")
    result: dict[str, Any] = report
    return result


def recorded_benchmark(name: str, entry: Mapping[str, Any]) -> BenchmarkPlugin:
    """A stand-in for a benchmark known only from its report entry: its identity,
    headline and compare() bounds, with the default `compare()`, and a built-in's
    model-pair tables."""
    attributes = {
        "name": name,
        "version": entry.get("version") or "0.0.0",
        "description": entry.get("description") or name,
        "target_labels": ["*"],
        "headline_metric": entry.get("headline_metric") or BenchmarkPlugin.headline_metric,
        "REGRESSION_THRESHOLD": float(
            entry.get("regression_threshold", BenchmarkPlugin.REGRESSION_THRESHOLD)
        ),
        "IMPROVEMENT_THRESHOLD": float(
            entry.get("improvement_threshold", BenchmarkPlugin.IMPROVEMENT_THRESHOLD)
        ),
    }
    spec = next((spec for spec in BUILTINS if spec.name == name), None)
    if spec is not None:  # its tables read only the report's `paired`; loaded when shown
        attributes["paired_tables"] = lambda self, paired: spec.load().paired_tables(self, paired)
    # one class name for all: a report's benchmark name may hold what a name cannot
    cls = type("RecordedBenchmark", (BenchmarkPlugin,), attributes)
    benchmark: BenchmarkPlugin = cls()
    return benchmark


def recorded_registry(report: Mapping[str, Any]) -> Registry:
    return Registry(
        tuple(recorded_benchmark(name, entry) for name, entry in report["benchmarks"].items())
    )


def missing_nodeids(report: Mapping[str, Any]) -> set[str]:
    completeness = report.get("completeness") or {}
    return {str(m.get("nodeid")) for m in completeness.get("missing") or ()}


def report_documents(report: Mapping[str, Any]) -> dict[tuple[str, str], list[ReportDocument]]:
    """Every document of the report, per (benchmark, model), as the aggregator holds them."""
    missing = missing_nodeids(report)
    return {
        (name, model): [
            ReportDocument.from_json(doc, name, model, missing=doc["nodeid"] in missing)
            for doc in data["documents"]
        ]
        for name, entry in sorted(report["benchmarks"].items())
        for model, data in sorted(entry["models"].items())
    }


def completeness_of(report: Mapping[str, Any]) -> Completeness:
    data = report.get("completeness") or {}
    return Completeness(
        filtered=bool(data.get("filtered")),
        collected=int(data.get("collected") or 0),
        not_run=int(data.get("not_run") or 0),
        interrupted=bool(data.get("interrupted")),
        scored=int(data.get("scored") or 0),
        errors=tuple(data.get("errors") or ()),
        missing=tuple(data.get("missing") or ()),
        notes=tuple(str(note) for note in data.get("notes") or ()),
    )
