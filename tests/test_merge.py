"""`bizbench merge`: CI shard reports make the report of one full run."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from bizhelpers import TOTALS_CONFTEST, Suite, doc, jsonl

from pytest_bizbench.report.json_report import canonical as canonical_text

INI = """[pytest]
bizbench_predictions =
    v1=v1.json
    v2=v2.jsonl
bizbench_thresholds =
    totals:accuracy >= 0.5
    field-accuracy:v2:accuracy >= 0.99
"""


def build(suite: Suite, n: int = 12) -> None:
    suite.write("conftest.py", TOTALS_CONFTEST)
    suite.write("pytest.ini", INI)
    docs = [
        doc(
            f"inv-{i:03d}",
            {"total": i * 10, "vendor": f"Vendor {i}"},
            metadata={"country": ("DE", "FR", "US")[i % 3]},
        )
        for i in range(n)
    ]
    suite.cases("cases/a.ground-truth.jsonl", docs[: n // 2])
    suite.cases("cases/sub/b.ground-truth.jsonl", docs[n // 2 :])
    suite.write("cases/sub/bad.ground-truth.jsonl", "{not json}\n")
    v1 = {
        f"inv-{i:03d}": {"total": i * 10 if i % 4 else 0, "vendor": f"Vendor {i}"} for i in range(n)
    }
    suite.write("v1.json", json.dumps(v1))
    suite.write(
        "v2.jsonl",
        jsonl(
            {"id": f"inv-{i:03d}", "extracted_fields": {"total": i * 10, "vendor": f"vendor {i}"}}
            for i in range(n)
            if i != 7  # a missing prediction, in shard B
        ),
    )


def canonical(suite: Suite, name: str) -> str:
    report = suite.report(name)
    report.pop("run")
    return "".join(canonical_text(report))


def merge(suite: Suite, *argv: str) -> pytest.RunResult:
    return suite.pytester.run(sys.executable, "-m", "pytest_bizbench.cli", "merge", *argv)


def test_merged_shards_equal_the_full_run_outside_run(suite: Suite) -> None:
    build(suite)
    # a baseline with other v1 predictions, so the reports carry comparisons too
    suite.write("v1.json", json.dumps({f"inv-{i:03d}": {"total": i * 10} for i in range(12)}))
    suite.pytester.runpytest(
        "--bizbench-save-baseline", "base.json", "--bizbench-force-baseline", "-p", "no:xdist"
    )
    build(suite)
    common = ["--bizbench-baseline", "base.json", "-p", "no:cacheprovider"]
    full = suite.pytester.runpytest_subprocess(*common, "--bizbench-report", "full.json")
    assert full.ret == 1  # the bad file, the missing prediction and the v2 threshold
    shard_a = suite.pytester.runpytest_subprocess(
        *common, "cases/a.ground-truth.jsonl", "-n", "2", "--bizbench-report", "a.json"
    )
    shard_b = suite.pytester.runpytest_subprocess(
        *common, "cases/sub", "--bizbench-report", "b.json"
    )
    assert (shard_a.ret, shard_b.ret) == (1, 1)
    result = merge(suite, "b.json", "a.json", "-o", "merged.json", "--", *common)
    assert result.ret == 1  # the merged gate fails like the full run's
    result.stdout.fnmatch_lines(
        ["merged 2 shards into merged.json", "benchmark*", "*", "field-accuracy*v1*", "*"]
    )
    result.stdout.fnmatch_lines(["bizbench gate: FAILED"])
    assert canonical(suite, "merged.json") == canonical(suite, "full.json")
    merged = suite.report("merged.json")
    assert merged["run"]["merged_from"] == ["b.json", "a.json"]
    totals = merged["benchmarks"]["totals"]
    assert totals["models"]["v1"]["metrics"]["first_ids"] == ["inv-000", "inv-001", "inv-002"]
    assert totals["comparison"]["v1"]["verdict"] in ("improved", "neutral", "regressed")
    assert (
        merged["completeness"]["collected"]
        == suite.report("full.json")["completeness"]["collected"]
    )


def test_merging_overlapping_shards_is_refused(suite: Suite) -> None:
    build(suite, n=4)
    suite.pytester.runpytest("cases/a.ground-truth.jsonl", "--bizbench-report", "a.json")
    result = merge(suite, "a.json", "a.json", "-o", "m.json")
    assert result.ret == 2
    result.stderr.fnmatch_lines(
        [
            "bizbench merge: shards overlap in 8 items: "
            "cases/a.ground-truth.jsonl::inv-000[[]field-accuracy-v1[]] (in a.json and a.json)*"
            "give each shard its own case files"
        ]
    )
    assert not (suite.path / "m.json").exists()


def test_merging_shards_scored_another_way_is_refused(suite: Suite) -> None:
    build(suite, n=4)
    suite.pytester.runpytest("cases/a.ground-truth.jsonl", "--bizbench-report", "a.json")
    suite.pytester.runpytest(
        "cases/sub", "--bizbench-report", "b.json", "-o", "bizbench_strictness=0.5"
    )
    result = merge(suite, "a.json", "b.json", "-o", "m.json")
    assert result.ret == 2
    result.stderr.fnmatch_lines(
        [
            "bizbench merge: b.json: benchmark 'field-accuracy' differs from this "
            "configuration (version 1.0.0, fingerprint *; here version 1.0.0, fingerprint *): "
            "shards must be scored the same way"
        ]
    )


def test_merge_needs_the_benchmarks_of_the_shards(suite: Suite) -> None:
    build(suite, n=4)
    suite.pytester.runpytest("cases/a.ground-truth.jsonl", "--bizbench-report", "a.json")
    (suite.path / "conftest.py").unlink()
    result = merge(suite, "a.json", "-o", "m.json")
    assert result.ret == 2
    result.stderr.fnmatch_lines(
        ["bizbench merge: a.json: benchmark 'totals' is not registered here; run*"]
    )


@pytest.mark.parametrize("argv", [["nope.json", "-o", "m.json"], ["a.json"]])
def test_merge_usage_errors_exit_2(suite: Suite, argv: list[str]) -> None:
    build(suite, n=4)
    suite.write("a.json", json.dumps({"schema_version": 1, "benchmarks": {}}))
    result = merge(suite, *argv)
    assert result.ret == 2
    assert "nope.json" in result.stderr.str() or "-o" in result.stderr.str()


def test_merged_complete_shards_pass_and_can_become_the_baseline(suite: Suite) -> None:
    suite.write("conftest.py", TOTALS_CONFTEST)
    suite.write("pytest.ini", "[pytest]\nbizbench_predictions = preds.json\n")
    docs = [doc(f"c{i}", {"total": i}, extracted_fields={"total": i}) for i in range(4)]
    suite.cases("cases/a.ground-truth.jsonl", docs[:2])
    suite.cases("cases/sub/b.ground-truth.jsonl", docs[2:])
    suite.write("preds.json", json.dumps({f"c{i}": {"total": i} for i in range(4)}))
    assert (
        suite.pytester.runpytest("cases/a.ground-truth.jsonl", "--bizbench-report", "a.json").ret
        == 0
    )
    assert suite.pytester.runpytest("cases/sub", "--bizbench-report", "b.json").ret == 0
    result = merge(
        suite, "a.json", "b.json", "-o", "m.json", "--", "--bizbench-save-baseline", "base.json"
    )
    assert result.ret == 0, result.stderr.str()
    result.stdout.fnmatch_lines(
        ["bizbench gate: passed", "bizbench: baseline saved to *base.json*"]
    )
    report: dict[str, Any] = suite.report("base.json")
    assert report["completeness"]["complete"] is True
    assert report["completeness"]["scored"] == 8  # 4 cases x (field-accuracy, totals)


def test_a_merge_whose_save_is_refused_writes_a_failed_gate(suite: Suite) -> None:
    """The merge ends a run as the controller does: the refusal is a reason of the
    merged report, and the exit status says the same."""
    suite.write("conftest.py", TOTALS_CONFTEST)
    suite.write("pytest.ini", "[pytest]\nbizbench_predictions = preds.json\n")
    suite.cases("a.ground-truth.jsonl", [doc(f"c{i}", {"total": i}) for i in range(2)])
    suite.write("preds.json", json.dumps({f"c{i}": {"total": i} for i in range(2)}))
    assert suite.pytester.runpytest("-k", "c0", "--bizbench-report", "a.json").ret == 0
    result = merge(suite, "a.json", "-o", "m.json", "--", "--bizbench-save-baseline", "b.json")
    assert result.ret == 1
    result.stdout.fnmatch_lines(["bizbench gate: FAILED", "  refusing to save the baseline *"])
    gate = suite.report("m.json")["gate"]
    assert gate["passed"] is False
    assert gate["reasons"][-1].startswith("refusing to save the baseline ")
    assert not (suite.path / "b.json").exists()


def test_a_merge_missing_a_shard_fails_and_names_what_no_shard_ran(suite: Suite) -> None:
    """Shard B's report never arrived: its 6 cases x 2 benchmarks x 2 models = 24
    items and the bad file's error item are in no shard, so the merge is incomplete."""
    build(suite)
    suite.pytester.runpytest("cases/a.ground-truth.jsonl", "--bizbench-report", "a.json")
    result = merge(suite, "a.json", "-o", "m.json", "--", "cases")
    assert result.ret == 1
    completeness = suite.report("m.json")["completeness"]
    unmerged = completeness["unmerged"]
    assert len(unmerged) == 25
    assert "cases/sub/b.ground-truth.jsonl::inv-011[totals-v2]" in unmerged
    assert "cases/sub/bad.ground-truth.jsonl::line-1[invalid]" in unmerged
    assert not any(nodeid.startswith("cases/a.") for nodeid in unmerged)
    assert (completeness["complete"], completeness["collected"]) == (False, 49)
    result.stdout.fnmatch_lines(
        [
            "bizbench gate: FAILED",
            "*incomplete merge: 25 items of the suite in no shard's report (a shard missing?)",
            "*unmerged: cases/sub/b.ground-truth.jsonl::inv-006[[]field-accuracy-v1[]]",
        ]
    )


def test_a_merge_that_collects_no_case_says_it_cannot_check_for_missing_shards(
    suite: Suite,
) -> None:
    build(suite, n=4)
    suite.pytester.runpytest("--bizbench-report", "all.json")
    suite.write("elsewhere/test_plain.py", "def test_x():\n    pass\n")
    result = merge(suite, "all.json", "-o", "m.json", "--", "elsewhere")
    completeness = suite.report("m.json")["completeness"]
    assert "unmerged" not in completeness
    assert any("cannot tell whether a shard is missing" in n for n in completeness["notes"])
    assert result.ret == 1  # the suite's bad file and missing prediction, as in its run


def test_a_shard_holding_items_the_suite_lacks_is_refused(suite: Suite) -> None:
    """A shard report edited to add passing documents of cases that do not exist."""
    build(suite, n=4)
    suite.pytester.runpytest("cases/a.ground-truth.jsonl", "--bizbench-report", "a.json")
    suite.pytester.runpytest("cases/sub", "--bizbench-report", "b.json")
    shard = suite.report("b.json")
    documents = shard["benchmarks"]["totals"]["models"]["v1"]["documents"]
    ghost = dict(documents[0], nodeid="ghost.ground-truth.jsonl::g1[totals-v1]")
    documents.append(ghost)
    suite.write("b.json", json.dumps(shard))
    result = merge(suite, "a.json", "b.json", "-o", "m.json", "--", "cases")
    assert result.ret == 2
    result.stderr.fnmatch_lines(
        [
            "bizbench merge: shards hold 1 item: ghost.ground-truth.jsonl::g1[[]totals-v1[]] "
            "(in b.json) that the merge's pytest arguments do not collect*"
        ]
    )
    assert not (suite.path / "m.json").exists()


def test_a_merge_exits_1_when_a_case_failed_as_one_run_does(suite: Suite) -> None:
    """No threshold, so the gate passes; c1 scores 0 under its pass mark in shard A."""
    suite.write("pytest.ini", "[pytest]\nbizbench_predictions = preds.json\n")
    suite.cases("cases/a.ground-truth.jsonl", [doc("c1", {"k": "v"})])
    suite.cases("cases/sub/b.ground-truth.jsonl", [doc("c2", {"k": "v"})])
    suite.write("preds.json", json.dumps({"c1": {"k": "x"}, "c2": {"k": "v"}}))
    assert suite.pytester.runpytest("--bizbench-report", "full.json").ret == 1
    suite.pytester.runpytest("cases/a.ground-truth.jsonl", "--bizbench-report", "a.json")
    suite.pytester.runpytest("cases/sub", "--bizbench-report", "b.json")
    result = merge(suite, "a.json", "b.json", "-o", "m.json", "--", "cases")
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        ["bizbench gate: passed", "bizbench merge: 1 case item failed in the shards"]
    )
