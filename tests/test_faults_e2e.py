"""Faults during a run under pytest-xdist: a killed worker, a signal to the controller,
an unwritable report. Each keeps what was scored and says what went wrong."""

from __future__ import annotations

from bizhelpers import Suite, doc

# The scorer of "crash" kills its worker process outright (no exception, no report);
# the predict hook of "term" sends SIGTERM to the controller (the worker's parent).
CONFTEST = """
import os, signal
from pytest_bizbench import BenchmarkPlugin, ScoredDocument

class Exact(BenchmarkPlugin):
    name = "exact"
    version = "1.0.0"
    description = "is k right"
    target_labels = ["invoice"]

    def score(self, document):
        if document.id == "crash":
            os._exit(1)
        ok = document.extracted_fields.get("k") == document.ground_truth["k"]
        return ScoredDocument(document, float(ok), {"k": {"score": float(ok)}})

def pytest_bizbench_add_benchmarks(config):
    return [Exact]

def pytest_bizbench_predict(case, model, config):
    if case.id == "term":
        os.kill(os.getppid(), signal.SIGTERM)
    return {"k": "v"}
"""
GOOD = [f"ok-{i}" for i in range(6)]


def write(suite: Suite, *extra: str) -> None:
    suite.write("conftest.py", CONFTEST)
    suite.write("pytest.ini", "[pytest]\nbizbench_builtin_benchmarks = false\n")
    suite.cases("a.ground-truth.jsonl", [doc(i, {"k": "v"}) for i in [*GOOD, *extra]])


def test_a_killed_worker_leaves_an_error_and_no_baseline(suite: Suite) -> None:
    write(suite, "crash")
    result = suite.pytester.runpytest_subprocess("-n", "2", "--bizbench-save-baseline", "base.json")
    assert result.ret == 1
    report = suite.report()
    docs = {d["id"]: d for d in report["benchmarks"]["exact"]["models"]["default"]["documents"]}
    assert {i for i, d in docs.items() if d["outcome"] == "passed"} == set(GOOD)
    assert all(docs[i]["score"] == 1.0 for i in GOOD)
    errors = report["completeness"]["errors"]
    assert [e["nodeid"] for e in errors] == ["a.ground-truth.jsonl::crash[exact]"]
    assert report["completeness"]["complete"] is False
    assert report["gate"]["passed"] is False
    result.stdout.fnmatch_lines(
        ["refusing to save the baseline *base.json: it is incomplete (1 error)*"]
    )
    assert not (suite.path / "base.json").exists()


def test_sigterm_to_the_controller_under_xdist_keeps_a_report(suite: Suite) -> None:
    write(suite, "term")
    result = suite.pytester.runpytest_subprocess("-n", "2")
    assert result.ret != 0
    report = suite.report()
    assert report["completeness"]["complete"] is False
    assert report["completeness"]["interrupted"] is True
    assert report["gate"]["passed"] is False
    docs = report["benchmarks"]["exact"]["models"]["default"]["documents"]
    assert all(d["score"] == 1.0 for d in docs if d["id"] != "term")
    assert not [p for p in suite.path.iterdir() if p.name.endswith(".tmp")]


def test_an_unwritable_report_under_xdist_is_one_clear_line(suite: Suite) -> None:
    write(suite)
    suite.write("blocker", "a file where a directory should be")
    result = suite.pytester.runpytest_subprocess("-n", "2", "--bizbench-report", "blocker/r.json")
    assert result.ret == 1
    out = result.stdout.str()
    # the summary still shows the results, then one line naming the path
    result.stdout.fnmatch_lines(
        ["exact*default*accuracy*1.0000*", "bizbench: cannot write report *blocker/r.json*"]
    )
    assert "INTERNALERROR" not in out
    assert "Traceback" not in out + result.stderr.str()
