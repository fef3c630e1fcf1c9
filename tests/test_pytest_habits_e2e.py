"""pytest's own habits on case items: --lf, --ff and --sw find the items a run
stored in pytest's cache, and narrowing a run that way makes it a filtered one."""

from __future__ import annotations

import json
import re

import pytest
from bizhelpers import Suite, doc

CASES = [doc(f"c{i}", {"k": 1}, extracted_fields={"k": 2 if i <= 2 else 1}) for i in range(1, 6)]


@pytest.fixture
def two_fail(suite: Suite) -> Suite:
    """Five cases, c1 and c2 failing; one run made, so the cache knows them."""
    suite.cases("a.ground-truth.jsonl", CASES)
    suite.pytester.runpytest().assert_outcomes(passed=4, failed=2)  # the gate passes
    return suite


def test_last_failed_reruns_the_failed_cases_only(two_fail: Suite) -> None:
    result = two_fail.pytester.runpytest("--lf", "--bizbench-save-baseline", "base.json")
    result.stdout.fnmatch_lines(["run-last-failure: rerun previous 2 failures"])
    assert sorted(two_fail.documents()) == ["c1", "c2"]
    assert two_fail.report()["completeness"]["filtered"] is True
    # a filtered run does not become the baseline
    result.stdout.fnmatch_lines(["refusing to save the baseline*filtered selection*"])
    said = [line for line in result.outlines if "refusing to save" in line]
    assert len([line for line in said if not line.startswith("FAILED")]) == 1  # a reason: once
    assert not (two_fail.path / "base.json").exists()


def test_failed_first_runs_the_failed_cases_first_and_every_case(two_fail: Suite) -> None:
    result = two_fail.pytester.runpytest("--ff", "-v")
    result.stdout.fnmatch_lines(
        [
            "*::c1[[]field-accuracy[]] FAILED*",
            "*::c2[[]field-accuracy[]] FAILED*",
            "*::c3[[]field-accuracy[]] PASSED*",
        ]
    )
    assert sorted(two_fail.documents()) == ["c1", "c2", "c3", "c4", "c5"]
    assert two_fail.report()["completeness"]["filtered"] is True  # a run while fixing


def test_failed_first_is_a_filtered_run_that_is_not_saved_as_the_baseline(
    two_fail: Suite,
) -> None:
    result = two_fail.pytester.runpytest("--ff", "--bizbench-save-baseline", "base.json")
    result.stdout.fnmatch_lines(["refusing to save the baseline*filtered selection*"])
    assert not (two_fail.path / "base.json").exists()


def test_stepwise_goes_on_from_the_case_that_failed(suite: Suite) -> None:
    fourth_fails = [
        doc(f"c{i}", {"k": 1}, extracted_fields={"k": 2 if i == 4 else 1}) for i in range(1, 6)
    ]
    suite.cases("a.ground-truth.jsonl", fourth_fails)
    first = suite.pytester.runpytest("--sw", "-v")
    first.stdout.fnmatch_lines(["*::c4[[]field-accuracy[]] FAILED*"])
    assert "::c5[field-accuracy]" not in first.stdout.str()  # stopped at c4
    # the next run starts at c4 (not at the gate, which failed after it) and skips
    # the cases that passed before it
    second = suite.pytester.runpytest("--sw", "-v")
    second.stdout.fnmatch_lines(
        [
            "stepwise: skipping 3 already passed items*",
            "*::c4[[]field-accuracy[]] FAILED*",
        ]
    )
    assert suite.report()["completeness"]["filtered"] is True


def test_the_gate_is_not_remembered_as_a_failed_test(two_fail: Suite) -> None:
    two_fail.cases("a.ground-truth.jsonl", [*CASES, doc("bad", {"k": 1}), {"id": 3}])
    two_fail.pytester.runpytest().assert_outcomes(passed=3, failed=4, errors=1)  # and the gate
    stored = json.loads((two_fail.path / ".pytest_cache/v/cache/lastfailed").read_text())
    assert "bizbench::gate" not in stored
    assert sorted(stored) == [
        "a.ground-truth.jsonl::bad[field-accuracy]",
        "a.ground-truth.jsonl::c1[field-accuracy]",
        "a.ground-truth.jsonl::c2[field-accuracy]",
        "a.ground-truth.jsonl::line-7[invalid]",
    ]
    result = two_fail.pytester.runpytest("--lf")
    result.stdout.fnmatch_lines(["run-last-failure: rerun previous 4 failures"])


PERCENT = re.compile(r"\[ *(\d+)%\]")


@pytest.mark.parametrize("option", ["-rN", "-q", "-v"])
def test_the_gate_never_pushes_the_progress_past_100_percent(suite: Suite, option: str) -> None:
    suite.cases("a.ground-truth.jsonl", CASES)
    result = suite.pytester.runpytest(option)
    shown = [int(n) for n in PERCENT.findall(result.stdout.str())]
    assert shown.count(100) == 1
    assert max(shown) == 100
    if option == "-v":
        result.stdout.re_match_lines([r"^bizbench::gate PASSED$"])
        assert result.stdout.str().count("bizbench::gate PASSED") == 1
    else:  # the gate's letter on a line of its own, after the progress
        result.stdout.re_match_lines([r".*\[100%\]$", r"^(bizbench )?\.$"])
    result.assert_outcomes(passed=4, failed=2)  # the gate still counts, and JUnit has it


@pytest.mark.parametrize("option", ["-q", "-v"])
def test_the_progress_stops_at_100_percent_with_workers(suite: Suite, option: str) -> None:
    suite.cases("a.ground-truth.jsonl", CASES)
    result = suite.pytester.runpytest_subprocess(option, "-n", "2", "-p", "no:cacheprovider")
    shown = [int(n) for n in PERCENT.findall(result.stdout.str())]
    assert max(shown) == 100
    assert shown.count(100) == 1
    if option == "-v":
        result.stdout.re_match_lines([r"^bizbench::gate PASSED$"])
