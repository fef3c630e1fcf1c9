"""Cases pair with the baseline by identity (benchmark, model, case id), not by the
path of their file; a renamed model pairs with its old name; a comparison with no
common case says so."""

from __future__ import annotations

import pytest
from bizhelpers import Suite, doc
from test_baseline_e2e import CASES, FOUR, build, comparison, save


def test_a_moved_case_file_still_pairs_its_cases(suite: Suite) -> None:
    save(suite)
    moved = suite.path / "cases/renamed.ground-truth.jsonl"
    (suite.path / CASES).rename(moved)
    result = suite.pytester.runpytest("--bizbench-baseline", "base.json")
    assert result.ret == 0, result.stdout.str()
    c = comparison(suite)
    assert c["paired"]["n"] == 4
    assert (c["new_cases"], c["removed_cases"]) == ([], [])
    assert c["verdict"] == "neutral"


def test_an_id_two_files_give_pairs_by_its_file(suite: Suite) -> None:
    build(suite, FOUR)
    suite.cases("cases/b.ground-truth.jsonl", [doc("c1", {"k": "b", "s": 1.0})])
    assert suite.pytester.runpytest("--bizbench-save-baseline", "base.json").ret == 0
    (suite.path / "cases/b.ground-truth.jsonl").rename(suite.path / "cases/c.ground-truth.jsonl")
    suite.pytester.runpytest("--bizbench-baseline", "base.json")
    c = comparison(suite)
    assert c["paired"]["n"] == 4  # c1 of a.… pairs; c1 of the moved file cannot
    assert c["new_cases"] == [{"case": "cases/c.ground-truth.jsonl", "id": "c1"}]
    assert c["removed_cases"] == [{"case": "cases/b.ground-truth.jsonl", "id": "c1"}]


def renamed(suite: Suite, scores: dict[str, float], model: str) -> None:
    """The suite with its predictions filed under `model`."""
    build(suite, scores)
    ini = (suite.path / "pytest.ini").read_text()
    suite.write("pytest.ini", ini.replace("= preds.json", f"= {model}=preds.json"))


@pytest.mark.parametrize("how", ["option", "ini"])
def test_a_renamed_model_is_compared_with_its_old_name(suite: Suite, how: str) -> None:
    renamed(suite, FOUR, "v1")
    assert suite.pytester.runpytest("--bizbench-save-baseline", "base.json").ret == 0
    renamed(suite, {**FOUR, "c1": 0.0}, "v2")  # accuracy 0.75 -> 0.5
    if how == "ini":
        ini = (suite.path / "pytest.ini").read_text()
        suite.write("pytest.ini", ini + "bizbench_baseline_models =\n    v2=v1\n")
        args = ["--bizbench-baseline", "base.json"]
    else:
        args = ["--bizbench-baseline", "base.json", "--bizbench-baseline-model", "v2=v1"]
    result = suite.pytester.runpytest(*args)
    assert result.ret == 1
    c = suite.report()["benchmarks"]["direct"]["comparison"]["v2"]
    assert c["verdict"] == "regressed"
    assert c["paired"]["n"] == 4
    assert [w["id"] for w in c["worst"]] == ["c1"]
    assert "missing from this run" not in result.stdout.str()  # v1 is covered by v2


def test_a_baseline_model_option_needs_both_names(suite: Suite) -> None:
    build(suite, FOUR)
    result = suite.pytester.runpytest("--bizbench-baseline-model", "v2")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--bizbench-baseline-model 'v2': expected NEW=OLD*"])


def test_no_common_case_is_not_compared(suite: Suite) -> None:
    save(suite)
    build(suite, {"d1": 0.0, "d2": 0.0, "d3": 0.0, "d4": 0.0})
    result = suite.pytester.runpytest("--bizbench-baseline", "base.json", "-v")
    c = comparison(suite)
    assert c["verdict"] == "neutral"  # accuracy 0.75 -> 0 over other cases: no regression
    assert c["message"] == "not compared: no case of this run is in the baseline"
    assert c["paired"]["n"] == 0
    # no delta at all: the headlines 0.75 and 0 score different cases
    assert (c["delta"], c["paired"]["mean_delta"]) == (None, None)
    result.stdout.fnmatch_lines(
        ["direct (default): not compared: no case of this run is in the baseline"]
    )
    assert "over 0 cases" not in result.stdout.str()
    assert "+0.0000" not in result.stdout.str()
    assert "-0.7500" not in result.stdout.str()


def test_a_pairing_with_a_model_the_baseline_lacks_is_a_usage_error(suite: Suite) -> None:
    renamed(suite, FOUR, "v1")
    assert suite.pytester.runpytest("--bizbench-save-baseline", "base.json").ret == 0
    renamed(suite, FOUR, "v2")
    result = suite.pytester.runpytest(
        "--bizbench-baseline", "base.json", "--bizbench-baseline-model", "v2=vl"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "*--bizbench-baseline-model v2=vl: the baseline has no model 'vl'; "
            "did you mean 'v1'? (its models: v1)*"
        ]
    )


def test_a_pairing_with_a_model_this_run_lacks_fails_the_gate(suite: Suite) -> None:
    renamed(suite, FOUR, "v1")
    assert suite.pytester.runpytest("--bizbench-save-baseline", "base.json").ret == 0
    renamed(suite, FOUR, "v2")
    result = suite.pytester.runpytest(
        "--bizbench-baseline",
        "base.json",
        "--bizbench-baseline-model",
        "v3=v1",
        "--bizbench-allow-missing",
    )
    assert result.ret == 1
    reasons = suite.report()["gate"]["reasons"]
    assert (
        "--bizbench-baseline-model v3=v1: this run has no model 'v3'; did you mean 'v2'?" in reasons
    )
