"""The typed report: declared once (report/contract.py), built by a run and read
back from its file as the same `Report`, which every view and comparison takes."""

from __future__ import annotations

import json
import shutil
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any, get_args, get_origin, get_type_hints, is_typeddict

import pytest
from bizhelpers import Suite

from pytest_bizbench.report.contract import ReportJson, problem, schema_text
from pytest_bizbench.report.json_report import dumps
from pytest_bizbench.report.model import Report
from pytest_bizbench.report.reader import ReportError, read_report
from pytest_bizbench.report.terminal import block_lines
from pytest_bizbench.report.view import Detail, report_view

GOLDEN = Path(__file__).resolve().parent.parent / "golden_cases"


def test_the_shipped_schema_is_generated_from_the_contract() -> None:
    shipped = files("pytest_bizbench.report").joinpath("schema.json").read_text("utf-8")
    assert shipped == schema_text()


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example suite's own committed baseline: a real report of every built-in,
    two models, comparisons, thresholds, model pairs, agent runs and flaky cases."""
    path = tmp_path_factory.mktemp("example") / "report.json"
    shutil.copy(GOLDEN / "baseline" / "bizbench-baseline.json", path)
    return path


def test_a_saved_report_reads_back_as_the_report_that_wrote_it(example: Path) -> None:
    """The same type a run builds, and written again it is the same bytes."""
    report = read_report(example)
    assert isinstance(report, Report)
    assert dumps(report) == example.read_text(encoding="utf-8")
    entry = report.benchmarks["review-assessment"]
    assert entry.headline == "mean_combined_score"
    assert entry.regression_threshold is not None
    assert set(entry.models) == {"extractor-v1", "extractor-v2"}
    assert "extractor-v2-vs-extractor-v1" in entry.paired


def _undeclared(value: Any, hint: Any, at: str) -> list[str]:
    """Keys of `value` that the contract does not declare, outside open objects."""
    origin = get_origin(hint)
    if origin is Annotated:
        return _undeclared(value, get_args(hint)[0], at)
    options = [a for a in get_args(hint) if a is not type(None)]
    if origin is not None and len(options) == 1 and origin not in (list, dict):
        return _undeclared(value, options[0], at)  # X | None
    if is_typeddict(hint) and isinstance(value, dict):
        hints = get_type_hints(hint, include_extras=True)
        found = [f"{at}.{k}" for k in value if k not in hints]
        for key, sub in hints.items():
            if key in value:
                found += _undeclared(value[key], sub, f"{at}.{key}")
        return found
    if origin is dict and isinstance(value, dict):
        item = get_args(hint)[1]
        return [p for k, v in value.items() for p in _undeclared(v, item, f"{at}[{k}]")]
    if origin is list and isinstance(value, list):
        item = get_args(hint)[0]
        return [p for i, v in enumerate(value) for p in _undeclared(v, item, f"{at}[{i}]")]
    return []


def test_every_key_a_run_writes_is_declared(example: Path) -> None:
    """Keys of the plugin's own objects are all in the contract (a benchmark's
    metrics, details and compare() keys are its own, and open)."""
    data = json.loads(example.read_text(encoding="utf-8"))
    assert problem(data) is None
    undeclared = _undeclared(data, ReportJson, "")
    # only the metrics, a comparison and a model pair take keys of the benchmark's
    # own (`flip_rate`, `baseline_accuracy`, an agent pair's `tasks`)
    open_parts = (".metrics.", ".comparison[", ".paired[")
    assert undeclared
    assert [p for p in undeclared if not any(part in p for part in open_parts)] == []


def test_a_report_of_an_earlier_version_without_newer_keys_still_reads(
    example: Path, tmp_path: Path
) -> None:
    """Keys this version always writes but an earlier one did not (`shard`, `notes`,
    `tool`, the compare() bounds) read as empty: an old baseline stays a baseline."""
    data = json.loads(example.read_text(encoding="utf-8"))
    for key in ("shard", "notes", "not_run", "interrupted"):
        del data["completeness"][key]
    del data["tool"]
    for entry in data["benchmarks"].values():
        for key in ("regression_threshold", "improvement_threshold", "description", "config"):
            entry.pop(key, None)
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data), encoding="utf-8")
    report = read_report(old)
    assert report.completeness.shard is False
    assert report.completeness.notes == ()
    assert report.benchmarks["field-accuracy"].regression_threshold is None
    # a key every version wrote is still required
    del data["benchmarks"]["field-accuracy"]["fingerprint"]
    old.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ReportError, match=r"benchmarks\.field-accuracy\.fingerprint is missing"):
        read_report(old)


def test_integers_spelled_as_floats_read_as_integers(example: Path, tmp_path: Path) -> None:
    """`1.0` is an integer to JSON Schema, and to the reader: written back, `1`."""
    data = json.loads(example.read_text(encoding="utf-8"))
    data["schema_version"] = 1.0
    data["completeness"]["collected"] = float(data["completeness"]["collected"])
    spelled = tmp_path / "floats.json"
    spelled.write_text(json.dumps(data), encoding="utf-8")
    assert dumps(read_report(spelled)) == example.read_text(encoding="utf-8")
    data["completeness"]["collected"] += 0.5
    spelled.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ReportError, match=r"completeness\.collected must be an integer"):
        read_report(spelled)


def test_a_run_and_its_saved_report_render_the_same_view(suite: Suite) -> None:
    """The terminal renders the live report; `bizbench report` the saved one: the
    detail view of both is the same text."""
    shutil.copytree(GOLDEN, suite.path / "golden_cases")
    result = suite.pytester.runpytest("golden_cases", "-p", "no:cacheprovider", "-v")
    assert result.ret == 0
    saved = report_view(suite.read(), Detail.FULL)
    blocks = [block for _, shown in saved.at(Detail.FULL) for block in shown]
    lines = [line for block in blocks for line in block_lines(block) if line.strip()]
    out = result.stdout.str()
    assert len(lines) > 300
    assert [line for line in lines if line not in out] == []
