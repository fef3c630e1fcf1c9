"""A gate CI can trust: visible where CI looks, never silently off, pytest's meanings kept."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from bizhelpers import Suite, doc

# two half-right predictions: field-accuracy 0.5, every item passes (at the pass mark)
CASES = [
    doc(c, {"k": "alpha", "j": "beta"}, extracted_fields={"k": "alpha", "j": "zzzzz"})
    for c in ("a", "b")
]


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # short summary lines shown whole


def junit_cases(path: Path) -> dict[tuple[str, str], ET.Element]:
    root = ET.parse(path).getroot()
    return {(c.get("classname", ""), c.get("name", "")): c for c in root.iter("testcase")}


def test_a_failed_gate_is_a_failed_test_where_ci_looks(suite: Suite) -> None:
    suite.cases("cases/a.ground-truth.jsonl", CASES)
    result = suite.pytester.runpytest(
        "-rf",
        "--junitxml",
        "j.xml",
        "--bizbench-threshold",
        "field-accuracy:accuracy >= 0.9",
        "--bizbench-threshold",
        "field-accuracy:accuracy >= 0.8",
    )
    assert result.ret == 1
    result.assert_outcomes(passed=2, failed=1)
    first = "threshold not met: field-accuracy:default:accuracy = 0.5000, needs >= 0.9"
    second = "threshold not met: field-accuracy:default:accuracy = 0.5000, needs >= 0.8"
    result.stdout.fnmatch_lines([f"FAILED bizbench::gate - {first}"])
    assert "1 failed, 2 passed" in result.stdout.lines[-1]
    cases = junit_cases(suite.path / "j.xml")
    gate = cases["bizbench", "gate"]
    [failure] = gate.findall("failure")
    assert failure.get("message") == first
    assert (failure.text or "").splitlines() == [first, second]
    suite_element = ET.parse(suite.path / "j.xml").getroot().find("testsuite")
    assert suite_element is not None
    assert (suite_element.get("tests"), suite_element.get("failures")) == ("3", "1")


def test_a_passing_gate_is_a_passed_test_without_failure(suite: Suite) -> None:
    suite.cases("cases/a.ground-truth.jsonl", CASES)
    result = suite.pytester.runpytest(
        "--junitxml", "j.xml", "--bizbench-threshold", "field-accuracy:accuracy >= 0.5"
    )
    assert result.ret == 0
    result.assert_outcomes(passed=3)
    gate = junit_cases(suite.path / "j.xml")["bizbench", "gate"]
    assert gate.findall("failure") == []


def test_no_gate_without_case_items(suite: Suite) -> None:
    suite.write("test_plain.py", "def test_one():\n    pass\n")
    result = suite.pytester.runpytest("--junitxml", "j.xml")
    result.assert_outcomes(passed=1)
    assert ("bizbench", "gate") not in junit_cases(suite.path / "j.xml")


def test_one_gate_on_the_controller_under_xdist(suite: Suite) -> None:
    suite.cases("cases/a.ground-truth.jsonl", CASES)
    suite.cases("cases/b.ground-truth.jsonl", [doc("c", {"k": "x"}, extracted_fields={"k": "x"})])
    result = suite.pytester.runpytest_subprocess(
        "-n", "2", "-p", "no:cacheprovider", "--junitxml", "j.xml", "--bizbench-threshold",
        "field-accuracy:accuracy >= 0.9",
    )  # fmt: skip
    assert result.ret == 1
    result.assert_outcomes(passed=3, failed=1)
    root = ET.parse(suite.path / "j.xml").getroot()
    gates = [c for c in root.iter("testcase") if c.get("classname") == "bizbench"]
    assert [g.get("name") for g in gates] == ["gate"]
    assert len(gates[0].findall("failure")) == 1


def test_stopping_early_fails_the_gate_and_says_nothing_of_the_gate_stopping(
    suite: Suite,
) -> None:
    suite.cases(
        "cases/a.ground-truth.jsonl",
        [doc(x, {"k": "alpha"}, extracted_fields={"k": "z"}, min_score=0.5) for x in "abc"],
    )
    result = suite.pytester.runpytest("-x")
    result.assert_outcomes(failed=2)  # a, and the gate
    result.stdout.fnmatch_lines(["*stopping after 1 failures*"])
    result.stdout.no_fnmatch_line("*stopping after 2 failures*")
    assert suite.report()["gate"]["passed"] is False


# --- baseline coverage ------------------------------------------------------------

TWO_MODELS = ("--bizbench-predictions", "v1=v1.json", "--bizbench-predictions", "v2=v2.json")


def write_two_models(suite: Suite) -> None:
    suite.cases("cases/a.ground-truth.jsonl", [doc("a", {"k": "x"}), doc("b", {"k": "y"})])
    preds = json.dumps({"a": {"k": "x"}, "b": {"k": "y"}})
    suite.write("v1.json", preds)
    suite.write("v2.json", preds)
    saved = suite.pytester.runpytest(*TWO_MODELS, "--bizbench-save-baseline", "base.json")
    assert saved.ret == 0


def test_a_model_of_the_baseline_missing_from_the_run_fails_the_gate(suite: Suite) -> None:
    write_two_models(suite)
    args = ("--bizbench-predictions", "v1=v1.json", "--bizbench-baseline", "base.json")
    result = suite.pytester.runpytest(*args)
    assert result.ret == 1
    reason = "missing from this run: field-accuracy/v2 (in the baseline)"
    report = suite.report()
    assert report["gate"]["reasons"] == [reason]
    comparison = report["benchmarks"]["field-accuracy"]["comparison"]
    assert comparison["v2"]["verdict"] == "missing"
    assert comparison["v1"]["verdict"] == "neutral"
    result.stdout.fnmatch_lines([f"FAILED bizbench::gate - {reason}"])
    # reported, not failing, when allowed; and not judged in a filtered run or a shard
    for extra in (["--bizbench-allow-missing"], ["-k", "a"], ["--bizbench-shard"]):
        result = suite.pytester.runpytest(*args, *extra)
        assert result.ret == 0, extra
        assert suite.report()["benchmarks"]["field-accuracy"]["comparison"]["v2"] == {
            "verdict": "missing",
            "message": "in the baseline, not scored by this run: field-accuracy/v2",
        }


def test_a_benchmark_of_the_baseline_missing_from_the_run_fails_the_gate(suite: Suite) -> None:
    suite.cases("cases/a.ground-truth.jsonl", [doc("a", {"k": "x"}, extracted_fields={"k": "x"})])
    suite.write("conftest.py", CONFIGURED)
    assert suite.pytester.runpytest("--bizbench-save-baseline", "base.json").ret == 0
    (suite.path / "conftest.py").unlink()
    result = suite.pytester.runpytest("--bizbench-baseline", "base.json")
    assert result.ret == 1
    assert suite.report()["gate"]["reasons"] == [
        "missing from this run: bonus/default (in the baseline)"
    ]
    assert suite.report()["benchmarks"]["bonus"]["comparison"]["default"]["verdict"] == "missing"


# --- names checked before anything runs -------------------------------------------

CALLS_HOOK = """
import json, pathlib

def pytest_bizbench_predict(case, model, config):
    with open(pathlib.Path(__file__).parent / "calls.jsonl", "a") as f:
        f.write(json.dumps(case.id) + "\\n")
    return {"k": "x"}
"""


@pytest.mark.parametrize(
    ("threshold", "message"),
    [
        (
            "field-acuracy:accuracy >= 0.9",
            "ERROR: threshold 'field-acuracy:accuracy >= 0.9': no benchmark 'field-acuracy' "
            "is registered; did you mean 'field-accuracy'?",
        ),
        (
            "field-accuracy:defualt:accuracy >= 0.9",
            "ERROR: threshold 'field-accuracy:defualt:accuracy >= 0.9': no model 'defualt' in "
            "this run's predictions; did you mean 'default'?",
        ),
    ],
)
def test_unknown_threshold_names_stop_the_run_before_any_model_call(
    suite: Suite, threshold: str, message: str
) -> None:
    suite.cases("cases/a.ground-truth.jsonl", [doc("a", {"k": "x"})])
    suite.write("conftest.py", CALLS_HOOK)
    result = suite.pytester.runpytest("--bizbench-threshold", threshold)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert result.stderr.lines[0] == message
    assert not (suite.path / "calls.jsonl").exists()


def test_an_unknown_metric_names_the_closest_path(suite: Suite) -> None:
    suite.cases("cases/a.ground-truth.jsonl", CASES)
    suite.pytester.runpytest("--bizbench-threshold", "field-accuracy:acuracy >= 0.9")
    [reason] = suite.report()["gate"]["reasons"]
    top = sorted(suite.metrics())
    assert reason == (
        "threshold not met: field-accuracy:default:acuracy >= 0.9: no such metric; did you "
        f"mean 'accuracy'? (top-level metrics: {', '.join(top)})"
    )


def test_a_benchmark_that_scored_no_case_says_why(suite: Suite) -> None:
    suite.cases("cases/a.ground-truth.jsonl", CASES)
    suite.write("conftest.py", CONFIGURED.replace('["invoice"]', '["receipt"]'))
    suite.pytester.runpytest("--bizbench-threshold", "bonus:accuracy >= 0.9")
    assert suite.report()["gate"]["reasons"] == [
        "threshold not met: bonus:*:accuracy >= 0.9: benchmark 'bonus' scored no case: its "
        "target_labels ['receipt'] matched none of the labels seen (['invoice'])"
    ]


# --- registration -----------------------------------------------------------------

CONFIGURED = """
from pytest_bizbench import BenchmarkPlugin, ScoredDocument

class Bonus(BenchmarkPlugin):
    name = "bonus"
    version = "1.0.0"
    description = "a configured benchmark"
    target_labels = ["invoice"]
    min_score = 0.0  # its fixed score passes: these tests are about its configuration

    def __init__(self, score=1.0):
        self.fixed = score

    def scoring_config(self):
        return {"score": self.fixed}

    def score(self, document):
        return ScoredDocument(document, self.fixed, {})

def pytest_bizbench_add_benchmarks(config):
    return [Bonus(0.25)]
"""


def test_a_returned_instance_is_used_as_returned(suite: Suite) -> None:
    suite.cases("cases/a.ground-truth.jsonl", [doc("a", {"k": "x"}, extracted_fields={"k": "x"})])
    suite.write("conftest.py", CONFIGURED)
    suite.pytester.runpytest()
    assert suite.report()["benchmarks"]["bonus"]["config"] == {"score": 0.25}
    assert suite.documents("bonus")["a"]["score"] == 0.25


def test_two_definitions_under_one_name_are_a_usage_error(suite: Suite) -> None:
    suite.cases("cases/a.ground-truth.jsonl", [doc("a", {"k": "x"})])
    suite.write("conftest.py", CONFIGURED.replace("[Bonus(0.25)]", "[Bonus(0.25), Bonus(0.5)]"))
    result = suite.pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "*benchmark name 'bonus' has two definitions: conftest.Bonus (from "
            "pytest_bizbench_add_benchmarks, fingerprint *) and conftest.Bonus (from "
            "pytest_bizbench_add_benchmarks, fingerprint *)"
        ]
    )


@pytest.mark.parametrize("workers", [[], ["-n", "2"]])
def test_a_conftest_registering_below_the_rootdir_stops_the_run(
    suite: Suite, workers: list[str]
) -> None:
    suite.write("pytest.ini", "[pytest]\n")
    suite.write("evals/conftest.py", CONFIGURED)
    suite.cases("evals/a.ground-truth.jsonl", [doc("a", {"k": "x"}, extracted_fields={"k": "x"})])
    result = suite.pytester.runpytest_subprocess("-p", "no:cacheprovider", *workers)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    conftest = suite.path / "evals" / "conftest.py"
    assert f"{conftest} implements pytest_bizbench_add_benchmarks but is loaded only" in (
        result.stdout.str() + result.stderr.str()
    )
    assert not (suite.path / "bizbench-report.json").exists()


# --- pytest's meanings --------------------------------------------------------------


def test_each_conftest_predicts_for_its_own_directory(suite: Suite) -> None:
    for name in ("left", "right"):
        suite.write(
            f"{name}/conftest.py",
            f"def pytest_bizbench_predict(case, model, config):\n    return {{'k': {name!r}}}\n",
        )
        suite.cases(f"{name}/{name}.ground-truth.jsonl", [doc(name, {"k": name})])
    result = suite.pytester.runpytest()
    assert result.ret == 0
    assert {i: d["score"] for i, d in suite.documents().items()} == {"left": 1.0, "right": 1.0}


@pytest.mark.parametrize("option", ["--collect-only", "--setup-plan", "--setup-only"])
def test_planning_runs_call_no_model_and_write_no_report(suite: Suite, option: str) -> None:
    suite.cases("cases/a.ground-truth.jsonl", [doc("a", {"k": "x"})])
    suite.write("conftest.py", CALLS_HOOK)
    result = suite.pytester.runpytest(option)
    assert result.ret == 0
    assert not (suite.path / "calls.jsonl").exists()
    assert not (suite.path / "bizbench-report.json").exists()


XFAIL = """
import pytest

def pytest_collection_modifyitems(items):
    for item in items:
        if item.name.startswith(("b[", "a[")):
            item.add_marker(pytest.mark.xfail(reason="known"))
"""


def test_xfail_and_xpass_are_reported_as_pytest_reports_them(suite: Suite) -> None:
    suite.cases(
        "cases/a.ground-truth.jsonl",
        [
            doc("a", {"k": "alpha"}, extracted_fields={"k": "alpha"}),
            doc("b", {"k": "alpha"}, extracted_fields={"k": "zzzzz"}, min_score=0.5),
        ],
    )
    suite.write("conftest.py", XFAIL)
    result = suite.pytester.runpytest("-v")
    result.assert_outcomes(xfailed=1, xpassed=1, passed=1)  # passed: the gate
    result.stdout.fnmatch_lines(
        ["*::a[[]field-accuracy[]] XPASS*", "*::b[[]field-accuracy[]] XFAIL*"]
    )
    docs = suite.documents()
    assert (docs["a"]["outcome"], docs["a"]["pytest_outcome"]) == ("passed", "xpassed")
    assert (docs["b"]["outcome"], docs["b"]["pytest_outcome"]) == ("failed", "xfailed")
    assert suite.metrics()["accuracy"] == 0.5


FLAKY = """
import pathlib

def pytest_bizbench_predict(case, model, config):
    seen = pathlib.Path(__file__).parent / "seen"
    first = not seen.exists()
    seen.write_text("1")
    return {"k": "wrong" if first else "alpha"}
"""


def test_the_last_report_of_a_rerun_item_wins(suite: Suite) -> None:
    suite.cases("cases/a.ground-truth.jsonl", [doc("a", {"k": "alpha"}, min_score=1.0)])
    suite.write("conftest.py", FLAKY)
    result = suite.pytester.runpytest("-p", "rerunfailures", "--reruns", "1")
    outcomes = result.parseoutcomes()
    # passed: a on its rerun, and the gate
    assert (outcomes.get("passed"), outcomes.get("rerun"), outcomes.get("failed")) == (2, 1, None)
    assert result.ret == 0
    report = suite.report()
    assert report["gate"] == {"passed": True, "reasons": []}
    assert report["completeness"]["errors"] == []
    assert suite.documents()["a"]["outcome"] == "passed"
    assert suite.documents()["a"]["score"] == 1.0


def test_two_bad_documents_with_one_id_are_two_items(suite: Suite) -> None:
    bad = {"id": "d", "labels": ["invoice"], "ground_truth": "not an object"}
    suite.write("a.ground-truth.json", json.dumps({"documents": [bad, bad]}))
    result = suite.pytester.runpytest("--collect-only", "-q")
    ids = [line for line in result.stdout.lines if "::" in line]
    assert len(ids) == len(set(ids)) == 2, ids
    result = suite.pytester.runpytest()
    assert len(suite.report()["completeness"]["errors"]) == 2


LIFECYCLE = """
import pathlib

def _note(word):
    with open(pathlib.Path(__file__).parent / "lifecycle.txt", "a") as f:
        f.write(word + "\\n")

def pytest_configure(config):
    _note("configure")

def pytest_sessionstart(session):
    _note("sessionstart")

def pytest_unconfigure(config):
    _note("unconfigure")
"""


def test_merge_runs_configure_sessionstart_and_unconfigure(suite: Suite) -> None:
    suite.cases("cases/a.ground-truth.jsonl", [doc("a", {"k": "x"}, extracted_fields={"k": "x"})])
    assert suite.pytester.runpytest("--bizbench-report", "shard.json").ret == 0
    suite.write("conftest.py", LIFECYCLE)
    result = suite.pytester.run(
        sys.executable, "-m", "pytest_bizbench.cli", "merge", "shard.json", "-o", "out.json"
    )
    assert result.ret == 0, result.stderr.str()
    lines = (suite.path / "lifecycle.txt").read_text().splitlines()
    assert lines == ["configure", "sessionstart", "unconfigure"]
    assert suite.report("out.json")["gate"]["passed"] is True


# --- every payload is JSON ----------------------------------------------------------

HOSTILE = """
import datetime, decimal
from pytest_bizbench import BenchmarkPlugin, ScoredDocument

class Hostile(BenchmarkPlugin):
    name = "hostile"
    version = "1.0.0"
    description = "details JSON cannot spell"
    target_labels = ["invoice"]

    def score(self, document):
        details = {
            1: {"score": 1.0},
            "nan": float("nan"),
            "inf": float("inf"),
            "dec": decimal.Decimal("1.5"),
            "when": datetime.date(2024, 2, 29),
            "tags": {"b", "a"},
            "raw": b"bytes",
        }
        return ScoredDocument(document, 1.0, details)

def pytest_bizbench_add_benchmarks(config):
    return [Hostile]
"""


@pytest.mark.parametrize("workers", [[], ["-n", "2"]])
def test_details_json_cannot_spell_are_converted_and_noted(
    suite: Suite, workers: list[str]
) -> None:
    suite.cases("cases/a.ground-truth.jsonl", [doc("a", {"k": "x"}, extracted_fields={"k": "x"})])
    suite.write("conftest.py", HOSTILE)
    result = suite.pytester.runpytest_subprocess("-p", "no:cacheprovider", *workers)
    assert result.ret == 0, result.stdout.str()
    assert suite.documents("hostile")["a"]["details"] == {
        "1": {"score": 1.0},
        "nan": None,
        "inf": None,
        "dec": 1.5,
        "when": "2024-02-29",
        "tags": ["a", "b"],
        "raw": "bytes",
        "json_note": "2 value(s) with no JSON spelling (inf, nan) became null",
    }


def test_an_unwritable_report_fails_the_gate_in_one_line(suite: Suite) -> None:
    suite.cases("cases/a.ground-truth.jsonl", CASES)
    suite.write("blocker", "a file where a directory should be")
    result = suite.pytester.runpytest("--bizbench-report", "blocker/r.json")
    assert result.ret == 1
    result.stdout.fnmatch_lines(["FAILED bizbench::gate - cannot write report *"])
    result.stdout.fnmatch_lines(
        ["cannot write report */blocker/r.json: *", "bizbench gate: FAILED (1 reason under *)"]
    )
    assert "Traceback" not in result.stdout.str()


# --- shards -------------------------------------------------------------------------


def test_a_shard_judges_only_its_own_completeness_and_the_merge_judges_the_rest(
    suite: Suite,
) -> None:
    suite.cases("one/a.ground-truth.jsonl", CASES)
    suite.cases("two/b.ground-truth.jsonl", [doc("c", {"k": "x"}, extracted_fields={"k": "x"})])
    threshold = ("--bizbench-threshold", "field-accuracy:accuracy >= 0.9")
    for part in ("one", "two"):
        result = suite.pytester.runpytest(
            part, "--bizbench-shard", *threshold, "--bizbench-report", f"{part}.json"
        )
        assert result.ret == 0  # one holds accuracy 0.5: not this shard's to judge
        report = suite.report(f"{part}.json")
        assert (report["completeness"]["shard"], report["thresholds"]) == (True, [])
    result = suite.pytester.run(
        sys.executable, "-m", "pytest_bizbench.cli", "merge", "one.json", "two.json",
        "-o", "all.json", "--", *threshold,
    )  # fmt: skip
    assert result.ret == 1
    merged = suite.report("all.json")
    assert merged["completeness"]["shard"] is False
    assert merged["gate"]["reasons"] == [
        "threshold not met: field-accuracy:default:accuracy = 0.6667, needs >= 0.9"
    ]


def test_a_shard_still_fails_on_its_own_missing_predictions(suite: Suite) -> None:
    suite.cases(
        "cases/a.ground-truth.jsonl",
        [doc("a", {"k": "x"}), doc("b", {"k": "x"}, extracted_fields={"k": "x"})],
    )
    result = suite.pytester.runpytest("--bizbench-shard")
    assert result.ret == 1
    assert suite.report()["gate"]["reasons"][0] == "incomplete run: 1 missing prediction"


# --- said once ----------------------------------------------------------------------


def test_no_case_file_found_names_the_patterns(suite: Suite) -> None:
    suite.write("empty/readme.txt", "nothing here")
    result = suite.pytester.runpytest("empty")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    result.stdout.fnmatch_lines(
        ["bizbench: no case file found; looked for *.ground-truth.json *.ground-truth.jsonl *"]
    )


def test_our_own_failures_skip_pytest_traceback_rendering(suite: Suite) -> None:
    suite.write("a.ground-truth.jsonl", '{"id": "x", "labels": ["invoice"]}\n{"id": \n')
    # m has no prediction: fails; n's inline one passes
    suite.cases(
        "b.ground-truth.jsonl",
        [doc("m", {"k": "x"}), doc("n", {"k": "x"}, extracted_fields={"k": "x"})],
    )
    reprec = suite.pytester.inline_run()
    reports = reprec.getreports("pytest_runtest_logreport")
    failed = [r for r in reports if r.failed and r.nodeid != "bizbench::gate"]
    shown = {(r.nodeid, r.when): r.longrepr for r in failed}
    # plain text, not a traceback representation built by parsing source
    assert all(isinstance(text, str) for text in shown.values()), shown
    assert set(shown) == {
        ("a.ground-truth.jsonl::line-1[invalid]", "setup"),
        ("a.ground-truth.jsonl::line-2[invalid]", "setup"),
        ("b.ground-truth.jsonl::m[field-accuracy]", "call"),
    }


def test_the_step_summary_puts_the_gate_first(
    suite: Suite, monkeypatch: pytest.MonkeyPatch
) -> None:
    suite.cases("cases/a.ground-truth.jsonl", CASES)
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(suite.path / "summary.md"))
    suite.pytester.runpytest("--bizbench-threshold", "field-accuracy:accuracy >= 0.9")
    lines = (suite.path / "summary.md").read_text().splitlines()
    assert lines[:6] == [
        "## bizbench",
        "",
        "Gate: **FAILED ❌**",
        "",
        "- threshold not met: field-accuracy:default:accuracy = 0.5000, needs >= 0.9",
        "",
    ]
    assert lines[6].startswith("| benchmark |")
