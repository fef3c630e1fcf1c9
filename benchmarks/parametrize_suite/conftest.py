"""Session plumbing of the hand-written baseline: collect scores, write the summary at the end.

This is what a user writes without the plugin to get a report out of a parametrized
suite; it does the same summarising work the plugin's report does, so timings compare.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import pytest

RESULTS = pytest.StashKey[dict[str, dict[str, Any]]]()


def pytest_configure(config: pytest.Config) -> None:
    config.stash[RESULTS] = {}


@pytest.fixture(scope="session")
def results(request: pytest.FixtureRequest) -> dict[str, dict[str, Any]]:
    """Where each test puts its document's score and details, keyed by document id."""
    return request.config.stash[RESULTS]


def _mean(values: list[float]) -> float:
    return math.fsum(values) / len(values) if values else 0.0


def summarize(documents: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Mean accuracy, sub-scores and per-field accuracy, like the plugin's metrics."""
    ordered = [documents[key] for key in sorted(documents)]
    per_field: dict[str, list[float]] = {}
    for doc in ordered:
        for name, entry in doc["details"].items():
            if isinstance(entry, dict) and "score" in entry:  # not the counts' summary
                per_field.setdefault(name, []).append(float(entry["score"]))
    return {
        "accuracy": _mean([doc["score"] for doc in ordered]),
        "completeness": _mean([doc["details"]["completeness"] for doc in ordered]),
        "correctness": _mean([doc["details"]["correctness"] for doc in ordered]),
        "per_field_accuracy": {name: _mean(v) for name, v in sorted(per_field.items())},
        "total_documents": len(ordered),
    }


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    documents = session.config.stash.get(RESULTS, {})
    root = os.environ.get("BIZBENCH_BENCH_ROOT")
    if not documents or root is None:
        return
    target = Path(os.environ.get("BIZBENCH_BENCH_REPORT", Path(root, "parametrize-report.json")))
    report = {
        "metrics": summarize(documents),
        "documents": [{"id": key, **documents[key]} for key in sorted(documents)],
    }
    target.write_text(json.dumps(report, indent=1, sort_keys=True), encoding="utf-8")
