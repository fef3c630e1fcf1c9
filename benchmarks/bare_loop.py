"""The floor: the same loading, scoring and summary as the pytest runs, in a plain loop.

What any runner must pay at least; `plugin - bare loop` is the plugin's own overhead.
Usage: python benchmarks/bare_loop.py ROOT REPORT.json
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

from pytest_bizbench.scoring import FieldLadder, LadderConfig


def _mean(values: list[float]) -> float:
    return math.fsum(values) / len(values) if values else 0.0


def run(root: Path, report: Path) -> float:
    """Score every document of the suite at `root`, write the summary, return the accuracy."""
    with (root / "predictions.jsonl").open(encoding="utf-8") as lines:
        rows = (json.loads(line) for line in lines if line.strip())
        predictions = {row["id"]: row["extracted_fields"] for row in rows}
    ladder = FieldLadder(LadderConfig())
    documents: list[dict[str, Any]] = []
    per_field: dict[str, list[float]] = {}
    for path in sorted((root / "cases").glob("*.ground-truth.jsonl")):
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                if not line.strip():
                    continue
                doc = json.loads(line)
                score, details = ladder.score_document(
                    doc["ground_truth"], predictions.get(doc["id"], {})
                )
                documents.append({"id": doc["id"], "score": score, "details": details})
                for name, entry in details.items():
                    if isinstance(entry, dict) and "score" in entry:  # not the counts' summary
                        per_field.setdefault(name, []).append(float(entry["score"]))
    documents.sort(key=lambda doc: doc["id"])
    metrics = {
        "accuracy": _mean([doc["score"] for doc in documents]),
        "completeness": _mean([doc["details"]["completeness"] for doc in documents]),
        "correctness": _mean([doc["details"]["correctness"] for doc in documents]),
        "per_field_accuracy": {name: _mean(v) for name, v in sorted(per_field.items())},
        "total_documents": len(documents),
    }
    text = json.dumps({"metrics": metrics, "documents": documents}, indent=1, sort_keys=True)
    report.write_text(text, encoding="utf-8")
    return float(metrics["accuracy"])


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    run(Path(sys.argv[1]), Path(sys.argv[2]))
