"""Helpers for the end-to-end tests: write a case suite, run pytest, read the report."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

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
