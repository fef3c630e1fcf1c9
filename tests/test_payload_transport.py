"""What pytest keeps per report is small: the payload, an attribute of the report,
leaves it once every plugin has seen it; the score, benchmark and model stay in the
user properties for JUnit XML. From an xdist worker the payload crosses as one JSON
text."""

from __future__ import annotations

import json

import pytest
from bizhelpers import Suite, doc, jsonl

# Records, at the very end, the user property names of every report the terminal
# reporter kept of the case items and whether each still holds the payload, and what
# a late logreport hook saw while the report was fresh.
RECORDER = """
import json
import pytest

SEEN = []
PAYLOADS = []

def pytest_runtest_logreport(report):
    if report.when == "call" and report.nodeid.startswith("a."):
        SEEN.append([name for name, _ in report.user_properties])
        payload = report.bizbench_payload
        text = payload if isinstance(payload, str) else json.dumps(payload)
        PAYLOADS.append([type(payload).__name__, text])

@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter):
    kept = sorted(
        {(r.when, tuple(n for n, _ in r.user_properties), hasattr(r, "bizbench_payload"))
         for reports in terminalreporter.stats.values() for r in reports
         if getattr(r, "when", None) and r.nodeid.startswith("a.")}
    )
    with open("kept.json", "w") as out:
        json.dump({"kept": kept, "seen": SEEN, "payloads": PAYLOADS}, out)
"""

TRIO = ["bizbench_benchmark", "bizbench_model", "bizbench_score"]


@pytest.mark.parametrize("workers", [None, "2"])
def test_kept_reports_lose_the_payload(suite: Suite, workers: str | None) -> None:
    suite.cases("a.ground-truth.jsonl", [doc("c1", {"k": "v"}), doc("c2", {"k": "w"})])
    suite.write("preds.jsonl", jsonl([{"id": "c1", "k": "v"}, {"id": "c2", "k": "w"}]))
    suite.write("conftest.py", RECORDER)
    args = ["--bizbench-predictions", "preds.jsonl", *(["-n", workers] if workers else [])]
    result = suite.pytester.runpytest_subprocess(*args)
    assert result.ret == pytest.ExitCode.OK
    recorded = json.loads((suite.path / "kept.json").read_text(encoding="utf-8"))
    # a plugin's hook still sees the payload; the trio is in the user properties
    assert recorded["seen"] == [TRIO] * 2
    assert recorded["kept"] == [
        ["call", TRIO, False],
        ["setup", [], False],
        ["teardown", TRIO, False],
    ]
    assert suite.documents()["c2"]["score"] == 1.0
    # serially the payload stays a dict; from a worker it is one JSON text
    types, texts = zip(*sorted(recorded["payloads"], key=lambda pair: pair[1]), strict=True)
    assert types == ("str" if workers else "dict",) * 2
    first = json.loads(texts[0])
    assert (first["id"], first["score"], first["status"]) == ("c1", 1.0, "scored")
