"""Helpers for the end-to-end tests: write a case suite, run pytest, read the report."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from pytest_bizbench.report.model import Report
from pytest_bizbench.report.reader import read_report

REPORT = "bizbench-report.json"


def glob_escape(text: str) -> str:
    """Text as a literal inside an `fnmatch_lines` pattern."""
    return "".join({"[": "[[]", "]": "[]]", "*": "[*]", "?": "[?]"}.get(c, c) for c in text)


def jsonl(rows: Iterable[dict[str, Any]]) -> str:
    return "".join(json.dumps(row) + "\n" for row in rows)


class Suite:
    """A scratch project in `pytester.path` with case files and predictions."""

    def __init__(self, pytester: pytest.Pytester) -> None:
        self.pytester = pytester
        self.path = pytester.path

    def write(self, relpath: str, content: str | bytes) -> Path:
        target = self.path / relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
        return target

    def cases(self, relpath: str, documents: list[dict[str, Any]]) -> Path:
        return self.write(relpath, jsonl(documents))

    def report(self, name: str = REPORT) -> dict[str, Any]:
        data: dict[str, Any] = json.loads((self.path / name).read_text(encoding="utf-8"))
        return data

    def read(self, name: str = REPORT) -> Report:
        """The report as the plugin reads a saved one."""
        return read_report(self.path / name)

    def documents(
        self, benchmark: str = "field-accuracy", model: str = "default", name: str = REPORT
    ) -> dict[str, dict[str, Any]]:
        docs = self.report(name)["benchmarks"][benchmark]["models"][model]["documents"]
        return {d["id"]: d for d in docs}

    def metrics(
        self, benchmark: str = "field-accuracy", model: str = "default", name: str = REPORT
    ) -> dict[str, Any]:
        metrics: dict[str, Any] = self.report(name)["benchmarks"][benchmark]["models"][model][
            "metrics"
        ]
        return metrics


def doc(doc_id: str, ground_truth: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "id": doc_id,
        "labels": extra.pop("labels", ["invoice"]),
        "ground_truth": ground_truth,
        **extra,
    }


# A custom benchmark with rules and groups, for runs compared across processes. Its
# `first_ids` metric needs every document, so no average of shard metrics gives it;
# with BIZBENCH_TEST_KILL set, scoring the case "crash" kills the worker outright.
TOTALS_CONFTEST = """
import os
from pytest_bizbench import BenchmarkPlugin, MatchCondition, MatchRule, ScoredDocument

class Totals(BenchmarkPlugin):
    name = "totals"
    version = "1.2.0"
    description = "is the total right"
    target_labels = ["invoice"]
    group_by = "country"
    MATCH_RULES = [
        MatchRule("big", [MatchCondition("total", "gt", 100)]),
        MatchRule("de", [MatchCondition("country", "regex", "^DE$")], "median"),
    ]

    def score(self, document):
        if document.id == "crash" and os.environ.get("BIZBENCH_TEST_KILL"):
            os._exit(1)
        ok = document.extracted_fields.get("total") == document.ground_truth["total"]
        return ScoredDocument(document, 1.0 if ok else 0.0, {"total": {"score": float(ok)}})

    def compute(self, scored):
        metrics = super().compute(scored)
        metrics["first_ids"] = sorted(s.document.id for s in scored)[:3]
        return metrics

def pytest_bizbench_add_benchmarks(config):
    return [Totals]
"""
