"""Real reports validate against the JSON Schema the package ships (docs/report.md)."""

from __future__ import annotations

import json
import shutil
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from bizhelpers import Suite, doc

jsonschema = pytest.importorskip("jsonschema")

GOLDEN = Path(__file__).resolve().parent.parent / "golden_cases"


def _validator() -> Any:
    schema = json.loads(files("pytest_bizbench.report").joinpath("schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _problems(report: dict[str, Any]) -> list[str]:
    """Each broken rule as `path/keyword`: jsonschema's messages are its own wording
    and change between its releases."""
    return [
        "/".join([*map(str, e.absolute_path), str(e.validator)])
        for e in _validator().iter_errors(report)
    ]


def test_the_schema_rejects_a_report_missing_a_contract_key() -> None:
    report: dict[str, Any] = {
        "schema_version": 1,
        "tool": {"name": "pytest-bizbench", "version": "0.1.0"},
        "benchmarks": {},
        "thresholds": [],
        "gate": {"passed": True, "reasons": []},
        "run": {"started_at": "", "duration_s": 0, "workers": None, "python": "", "pytest": ""},
    }
    assert _problems(report) == ["required"]  # and adding "completeness" below mends it
    report["completeness"] = {
        "complete": True,
        "filtered": False,
        "collected": 0,
        "scored": 0,
        "not_run": 0,
        "interrupted": False,
        "errors": [],
        "missing": [],
        "shard": False,
        "notes": [],
        "an_extension": {"any": "shape"},  # extensions add keys
    }
    assert _problems(report) == []


def test_the_example_suite_reports_validate(suite: Suite) -> None:
    """Ground truth, a custom benchmark, review, QA and agent tasks; two models;
    compared with the committed baseline."""
    shutil.copytree(GOLDEN, suite.path / "golden_cases")
    result = suite.pytester.runpytest("golden_cases", "-p", "no:cacheprovider")
    assert result.ret == 0
    report = suite.report()
    assert {"field-accuracy", "review-assessment", "qa-answer", "agent-fs"} <= set(
        report["benchmarks"]
    )
    assert all(entry.get("comparison") for entry in report["benchmarks"].values())
    assert _problems(report) == []


def test_failed_and_error_documents_validate(suite: Suite) -> None:
    suite.cases(
        "a.ground-truth.jsonl",
        [doc("d1", {"k": "v"}), doc("d2", {"k": "v"}), doc("d3", {"k": "v"})],
    )
    suite.write("preds.json", json.dumps({"d1": {"k": "v"}, "d2": {"k": "x"}}))
    suite.write("b.ground-truth.jsonl", "{not json\n")
    suite.pytester.runpytest(
        "--bizbench-predictions",
        "preds.json",
        "--bizbench-threshold",
        "field-accuracy:accuracy >= 0.9",
        "--bizbench-min-score",
        "0.5",
    )
    report = suite.report()
    outcomes = sorted(
        d["outcome"]
        for d in report["benchmarks"]["field-accuracy"]["models"]["default"]["documents"]
    )
    assert outcomes == ["failed", "failed", "passed"]
    assert report["completeness"]["errors"]
    assert report["thresholds"][0]["passed"] is False
    assert _problems(report) == []
