"""The baseline a user writes without the plugin: one parametrized test per document.

Reads the case files and predictions of a suite made by `benchmarks/generate.py`
(directory in $BIZBENCH_BENCH_ROOT) and scores each document with the plugin's own
field ladder, so the only difference from a plugin run is the pytest plumbing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from pytest_bizbench.scoring import FieldLadder, LadderConfig

_ROOT = os.environ.get("BIZBENCH_BENCH_ROOT")
if _ROOT is None:
    pytest.skip("set BIZBENCH_BENCH_ROOT to a generated suite", allow_module_level=True)


def _load_cases(root: Path) -> list[dict[str, Any]]:
    docs: list[dict[str, Any]] = []
    for path in sorted((root / "cases").glob("*.ground-truth.jsonl")):
        with path.open(encoding="utf-8") as lines:
            docs.extend(json.loads(line) for line in lines if line.strip())
    return docs


def _load_predictions(path: Path) -> dict[str, dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        rows = (json.loads(line) for line in lines if line.strip())
        return {row["id"]: row["extracted_fields"] for row in rows}


DOCS = _load_cases(Path(_ROOT))
PREDICTIONS = _load_predictions(Path(_ROOT, "predictions.jsonl"))
LADDER = FieldLadder(LadderConfig())


@pytest.mark.parametrize("doc", DOCS, ids=[doc["id"] for doc in DOCS])
def test_fields(doc: dict[str, Any], results: dict[str, dict[str, Any]]) -> None:
    prediction = PREDICTIONS.get(doc["id"])
    assert prediction is not None, f"no prediction for {doc['id']}"
    score, details = LADDER.score_document(doc["ground_truth"], prediction)
    results[doc["id"]] = {"score": score, "details": details}
    assert score >= 0.0
