"""The same suite serially and under pytest-xdist gives the same report."""

from __future__ import annotations

import json
from typing import Any

import pytest
from bizhelpers import TOTALS_CONFTEST, Suite, doc, jsonl


def build(suite: Suite, n: int = 24) -> None:
    suite.write("conftest.py", TOTALS_CONFTEST)
    docs = []
    for i in range(n):
        country = ("DE", "FR", "US")[i % 3]
        docs.append(
            doc(
                f"inv-{i:03d}",
                {"total": i * 10, "vendor": f"Vendor {i}"},
                metadata={"country": country},
            )
        )
    docs.append(doc("crash", {"total": 1, "vendor": "x"}))
    suite.cases("cases/a.ground-truth.jsonl", docs[: n // 2])
    suite.cases("cases/sub/b.ground-truth.jsonl", docs[n // 2 :])
    v1 = {
        f"inv-{i:03d}": {"total": i * 10 if i % 4 else 0, "vendor": f"Vendor {i}"} for i in range(n)
    }
    v1["crash"] = {"total": 1, "vendor": "x"}
    suite.write("v1.json", json.dumps(v1))
    suite.write(
        "v2.jsonl",
        jsonl(
            {"id": f"inv-{i:03d}", "extracted_fields": {"total": i * 10, "vendor": f"vendor {i}"}}
            for i in range(n)
            if i != 5
        )
        + jsonl([{"id": "crash", "extracted_fields": {"total": 1}}]),
    )
    suite.write("bad.ground-truth.jsonl", "{not json}\n")


ARGS = (
    "--bizbench-predictions",
    "v1=v1.json",
    "--bizbench-predictions",
    "v2=v2.jsonl",
    "--bizbench-threshold",
    "totals:accuracy>=0.5",
    "-p",
    "no:cacheprovider",
)


def without_run(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k != "run"}


def test_reports_identical_serial_n0_n2(suite: Suite) -> None:
    build(suite)
    texts = {}
    for mode in (["-p", "no:xdist"], ["-n", "0"], ["-n", "2"]):
        name = f"r{mode[-1].replace(':', '')}.json"
        result = suite.pytester.runpytest_subprocess(*ARGS, *mode, "--bizbench-report", name)
        assert result.ret == 1  # the bad file and the missing v2 prediction fail the gate
        texts[name] = suite.report(name)
    serial, n0, n2 = texts.values()
    assert without_run(serial) == without_run(n0) == without_run(n2)
    # byte-identical outside "run": the canonical text of the rest matches too
    dumps = {json.dumps(without_run(r), sort_keys=True) for r in texts.values()}
    assert len(dumps) == 1
    assert n2["run"]["workers"] == 2
    metrics = serial["benchmarks"]["totals"]["models"]["v1"]["metrics"]
    # v1 gets totals wrong where i % 4 == 0 and i > 0: i = 4, 8, 12, 16, 20 -> 5 of 25 wrong
    assert metrics["accuracy"] == pytest.approx(20 / 25)
    assert metrics["total_documents"] == 25
    # big: total > 100 -> i = 11..23 (13 docs), wrong among them: 12, 16, 20
    assert metrics["rule_big"] == {"count": 13, "accuracy": pytest.approx(10 / 13)}
    assert set(metrics["groups"]) == {"DE", "FR", "US", "unknown"}
    v2 = serial["benchmarks"]["totals"]["models"]["v2"]["metrics"]
    assert v2["accuracy"] == pytest.approx(24 / 25)  # inv-005 missing counts as 0
    completeness = serial["completeness"]
    assert [m["id"] for m in completeness["missing"]] == ["inv-005", "inv-005"]
    assert any("bad.ground-truth.jsonl:1" in e["message"] for e in completeness["errors"])


def test_crashed_worker_item_is_an_error_and_the_rest_is_scored(
    suite: Suite, monkeypatch: pytest.MonkeyPatch
) -> None:
    build(suite, n=6)
    monkeypatch.setenv("BIZBENCH_TEST_KILL", "1")
    result = suite.pytester.runpytest_subprocess(
        "-n",
        "2",
        "-k",
        "totals",
        "--bizbench-predictions",
        "v1=v1.json",
    )
    assert result.ret == 1
    report = suite.report()
    crashed = [e for e in report["completeness"]["errors"] if "crash" in e["nodeid"]]
    assert crashed, report["completeness"]["errors"]
    docs = report["benchmarks"]["totals"]["models"]["v1"]["documents"]
    outcomes = {d["id"]: d["outcome"] for d in docs if d["id"] != "crash"}
    # v1 misses inv-004's total: it scores 0 and fails
    assert outcomes == {f"inv-{i:03d}": "failed" if i == 4 else "passed" for i in range(6)}
    # the crashed item is a document of its benchmark and model, outcome "error"
    (crash,) = [d for d in docs if d["id"] == "crash"]
    assert crash["outcome"] == "error"
    assert crash["score"] is None
    assert crash["nodeid"] == "cases/sub/b.ground-truth.jsonl::crash[totals]"
    assert crash["case"] == "cases/sub/b.ground-truth.jsonl"
    assert report["completeness"]["complete"] is False
    assert report["gate"]["passed"] is False


# Runs on the controller as each worker finishes, before the plugin's session end:
# the prediction file changes under it.
REWRITE_AFTER_WORKERS = """
def pytest_testnodedown(node, error):
    with open("preds.jsonl", "w") as out:
        out.write('{"id": "c9", "k": "v"}\\nnot json either\\n')
"""


def test_the_controller_takes_the_prediction_files_summary_from_the_workers(
    suite: Suite,
) -> None:
    """Under xdist the controller reads a prediction file's bad lines and unmatched rows
    from the workers that parsed it, not by parsing the whole file again at the end:
    the report names what the workers read, though the file changed afterwards."""
    suite.cases("a.ground-truth.jsonl", [doc("c1", {"k": "v"}), doc("c2", {"k": "w"})])
    rows = [{"id": "c1", "k": "v"}, {"id": "c2", "k": "w"}, {"id": "extra", "k": "x"}]
    suite.write("preds.jsonl", jsonl(rows) + "{broken\n")
    suite.write("conftest.py", REWRITE_AFTER_WORKERS)
    result = suite.pytester.runpytest_subprocess(
        "--bizbench-predictions", "preds.jsonl", "-n", "2", "-p", "no:cacheprovider"
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED  # the bad line is an error
    completeness = suite.report()["completeness"]
    assert [e["nodeid"] for e in completeness["errors"]] == ["preds.jsonl:4"]
    assert "1 row matches no case: 'extra'" in " ".join(completeness["notes"])
    assert suite.documents()["c2"]["score"] == 1.0


def test_a_row_id_execnet_cannot_carry_does_not_crash_a_worker(suite: Suite) -> None:
    """A prediction row id with a lone surrogate is valid JSON; a worker's summary of
    the file still reaches the controller (as ASCII JSON text), no worker goes down."""
    suite.cases("a.ground-truth.jsonl", [doc("c1", {"k": "v"})])
    suite.write("preds.jsonl", '{"id": "c1", "k": "v"}\n{"id": "odd\\ud800", "k": "x"}\n')
    result = suite.pytester.runpytest_subprocess(
        "--bizbench-predictions", "preds.jsonl", "-n", "2", "-p", "no:cacheprovider"
    )
    assert result.ret == pytest.ExitCode.OK
    output = result.stdout.str() + result.stderr.str()
    assert "node down" not in output
    assert "crashed worker" not in output
    notes = suite.report()["completeness"]["notes"]
    assert len(notes) == 1
    assert "1 row matches no case: 'odd\\ud800'" in notes[0]


# Strings a Python hook or benchmark can make that no UTF-8 stream carries: a lone
# surrogate, and two surrogates side by side that JSON reads back as one character.
SURROGATES_CONFTEST = """
from pytest_bizbench import BenchmarkPlugin, ScoredDocument

class Odd(BenchmarkPlugin):
    name = "odd"
    version = "1.0.0"
    description = "raises for c1 with surrogates in the message"
    target_labels = ["invoice"]

    def score(self, document):
        if document.id == "c1":
            raise ValueError("pair \\ud83d\\ude00 lone \\udfff")
        return ScoredDocument(document, 1.0, {})

def pytest_bizbench_add_benchmarks(config):
    return [Odd]
"""


def test_surrogates_in_ids_and_messages_give_one_report_serially_and_with_workers(
    suite: Suite,
) -> None:
    """No internal error, no lost case, and the same report: the node id shows a lone
    surrogate as its escape; the report writes it as its JSON escape and joins a pair
    into its character, as a worker's payload does on its way to the controller."""
    suite.write("conftest.py", SURROGATES_CONFTEST)
    suite.write("pytest.ini", "[pytest]\nbizbench_builtin_benchmarks = false\n")
    suite.write(
        "a.ground-truth.jsonl",
        '{"id": "c1", "labels": ["invoice"], "ground_truth": {"k": 1}}\n'
        '{"id": "c2\\ud800", "labels": ["invoice"], "ground_truth": {"k": 1}}\n',
    )
    suite.write("preds.jsonl", '{"id": "c1", "k": 1}\n{"id": "c2\\ud800", "k": 1}\n')
    reports = []
    for mode in (["-p", "no:xdist"], ["-n", "2"]):
        name = f"r{mode[-1].replace(':', '')}.json"
        result = suite.pytester.runpytest_subprocess(
            "--bizbench-predictions", "preds.jsonl", "-p", "no:cacheprovider", *mode,
            "--bizbench-report", name,
        )  # fmt: skip
        assert result.ret == pytest.ExitCode.TESTS_FAILED  # c1's error fails the gate
        output = result.stdout.str() + result.stderr.str()
        assert "INTERNALERROR" not in output
        assert "cannot write report" not in output
        text = (suite.path / name).read_bytes().decode("utf-8")  # UTF-8 throughout
        assert "pair \U0001f600 lone \\udfff" in text  # the same bytes in both modes
        reports.append(suite.report(name))
    serial, workers = reports
    assert without_run(serial) == without_run(workers)
    docs = {d["id"]: d for d in serial["benchmarks"]["odd"]["models"]["default"]["documents"]}
    assert docs["c2\ud800"]["score"] == 1.0
    assert docs["c2\ud800"]["nodeid"] == "a.ground-truth.jsonl::c2\\ud800[odd]"
    assert docs["c1"]["outcome"] == "error"
    assert docs["c1"]["message"] == (
        "benchmark 'odd' raised ValueError: pair \U0001f600 lone \udfff (at conftest.py:12)"
    )
