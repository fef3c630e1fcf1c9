"""Agent tasks end to end: workspaces as predictions, item outcomes, the report, the
matched B-A comparison and run summaries, serially and under xdist."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from bizhelpers import Suite, jsonl

BENCH = "agent-fs"


def task(task_id: str, *assertions: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"task_id": task_id, "verifiable_assertions": list(assertions), **extra}


def exists(path: str) -> dict[str, Any]:
    return {"kind": "file_exists", "path": path}


def contains(path: str, text: str) -> dict[str, Any]:
    return {"kind": "file_contents_contain", "path": path, "must_contain": text}


def unchanged(path: str) -> dict[str, Any]:
    return {"kind": "file_unchanged", "path": path}


def test_tasks_are_scored_on_their_workspaces(suite: Suite) -> None:
    suite.write(
        "cases/a.agent-tasks.jsonl",
        jsonl(
            [
                task(
                    "fix-2",
                    exists("src/app.py"),
                    contains("src/app.py", "return 1"),
                    {
                        "kind": "file_contents_match_regex",
                        "path": "src/app.py",
                        "regex": r"def \w+",
                    },
                    unchanged("README.md"),
                    workspace_seed={"files": {"README.md": "# app\n"}},
                ),
                task("fix-1", exists("src/app.py"), unchanged("setup.cfg"), {"kind": "lint_clean"}),
            ]
        ),
    )
    suite.write("ws/fix-2/src/app.py", "def main():\n    return 2\n")
    suite.write("ws/fix-2/README.md", "# app, edited\n")
    suite.write("ws/fix-1/src/app.py", "x = 1\n")
    result = suite.pytester.runpytest("-v", "--bizbench-predictions", "ws")
    # fix-1: exists, unchanged skipped (no seed) passes, unknown kind fails -> 2/3
    # fix-2: exists, contain fails, regex passes, README changed -> 2/4
    result.stdout.fnmatch_lines(
        [
            "cases/a.agent-tasks.jsonl::fix-1[[]agent-fs[]] FAILED 0.67*",
            "cases/a.agent-tasks.jsonl::fix-2[[]agent-fs[]] FAILED 0.50*",
            "fix-2 scored 0.50 on agent-fs (model default): below the pass mark 1.00 "
            "(agent-fs min_score)",
            "  file_contents_contain src/app.py: does not contain: 'return 1'",
            "  file_unchanged README.md: contents differ",
        ]
    )
    assert result.ret == 1
    docs = suite.documents(BENCH)
    assert docs["fix-1"]["details"]["assertions"] == [
        {
            "kind": "file_exists",
            "path": "src/app.py",
            "passed": True,
            "skipped": False,
            "reason": None,
        },
        {
            "kind": "file_unchanged",
            "path": "setup.cfg",
            "passed": True,
            "skipped": True,
            "reason": "skipped (no seed content)",
        },
        {
            "kind": "lint_clean",
            "path": "",
            "passed": False,
            "skipped": False,
            "reason": "unknown kind: lint_clean",
        },
    ]
    assert [a["passed"] for a in docs["fix-2"]["details"]["assertions"]] == [
        True,
        False,
        True,
        False,
    ]
    assert docs["fix-2"]["outcome"] == "failed"
    metrics = suite.metrics(BENCH)
    assert metrics["accuracy"] == pytest.approx((2 / 3 + 2 / 4) / 2)
    assert metrics["pass_rate"] == 0.0
    assert metrics["per_kind"]["file_exists"] == {"count": 2, "pass_rate": 1.0}
    assert metrics["per_kind"]["lint_clean"] == {"count": 1, "pass_rate": 0.0}
    assert metrics["groups"] == {
        "fix": {"count": 2, "accuracy": pytest.approx(7 / 12), "pass_rate": 0.0}
    }


def test_a_task_passes_only_when_every_assertion_holds_unless_relaxed(suite: Suite) -> None:
    suite.write(
        "cases/a.agent-tasks.jsonl",
        jsonl(
            [
                task("t-1", exists("a"), exists("b")),
                task("t-2", exists("a"), exists("b"), min_score=0.5),
                task("t-3", exists("a")),
            ]
        ),
    )
    for name in ("t-1", "t-2", "t-3"):
        suite.write(f"ws/{name}/a", "")
    result = suite.pytester.runpytest("--bizbench-predictions", "ws")
    # t-1 at 0.5 < 1.0; t-2's own mark is 0.5; the gate (no threshold) passes
    result.assert_outcomes(passed=3, failed=1)
    result = suite.pytester.runpytest("--bizbench-predictions", "ws", "--bizbench-min-score", "0.5")
    result.assert_outcomes(passed=4)


def test_a_task_without_workspace_fails_and_counts_every_assertion(suite: Suite) -> None:
    suite.write("cases/a.agent-tasks.jsonl", jsonl([task("t-1", exists("a"), exists("b"))]))
    suite.write("ws/other/a", "")
    result = suite.pytester.runpytest("--bizbench-predictions", "ws")
    result.stdout.fnmatch_lines(["*no prediction for t-1 (model default)*"])
    assert result.ret == 1
    doc = suite.documents(BENCH)["t-1"]
    assert (doc["outcome"], doc["score"]) == ("failed", 0.0)
    assert [a["reason"] for a in doc["details"]["assertions"]] == ["no workspace", "no workspace"]
    assert suite.metrics(BENCH)["per_kind"] == {"file_exists": {"count": 2, "pass_rate": 0.0}}
    assert [m["id"] for m in suite.report()["completeness"]["missing"]] == ["t-1"]


def test_a_prediction_file_in_place_of_a_workspace_is_an_error(suite: Suite) -> None:
    suite.write(
        "cases/a.agent-tasks.jsonl", jsonl([task("t-1", exists("a")), task("t-2", exists("a"))])
    )
    suite.write("ws/t-1.json", '{"answer": "done"}')
    suite.write("ws/t-2/a", "")
    result = suite.pytester.runpytest("--bizbench-predictions", "ws")
    result.assert_outcomes(passed=1, failed=2)  # t-1 (an error in the report), the gate
    result.stdout.fnmatch_lines(
        [
            "*prediction for task 't-1' is dict, not a workspace: give --bizbench-predictions "
            "MODEL=DIR with the workspace in DIR/t-1/ (model default)*"
        ]
    )


def test_a_symlink_out_of_the_workspace_is_refused(suite: Suite) -> None:
    suite.write("cases/a.agent-tasks.jsonl", jsonl([task("t-1", contains("notes.txt", "TOKEN"))]))
    secret = suite.write("secret.txt", "TOKEN=1\n")
    (suite.path / "ws" / "t-1").mkdir(parents=True)
    os.symlink(secret, suite.path / "ws" / "t-1" / "notes.txt")
    result = suite.pytester.runpytest("--bizbench-predictions", "ws")
    result.stdout.fnmatch_lines(
        ["  file_contents_contain notes.txt: path escapes the workspace: notes.txt"]
    )
    (check,) = suite.documents(BENCH)["t-1"]["details"]["assertions"]
    assert check["reason"] == "path escapes the workspace: notes.txt"


def test_the_predict_hook_may_return_a_workspace_path(suite: Suite) -> None:
    suite.write(
        "conftest.py",
        "import pathlib\n"
        "def pytest_bizbench_predict(case, model, config):\n"
        "    return pathlib.Path(str(config.rootpath)) / 'out' / case.id\n",
    )
    suite.write("cases/a.agent-tasks.jsonl", jsonl([task("t-1", exists("a"))]))
    suite.write("out/t-1/a", "")
    result = suite.pytester.runpytest()
    result.assert_outcomes(passed=2)  # t-1 and the gate


# Two models on five tasks in three groups, with hand-worked tables:
#
#   task      assertions           v1                       v2
#   build-1   exists out, no tmp   out          -> 2/2      out tmp      -> 1/2
#   build-2   exists out, no tmp   -            -> 1/2      out          -> 2/2
#   docs-1    contains README "x"  "x"          -> 1/1      "y"          -> 0/1
#   test-1    exists t, exists u   t            -> 1/2      runs: (t u) 2/2, (t) 1/2, (t u) 2/2
#   test-2    exists t             -            -> 0/1      t            -> 1/1
TASKS = [
    task("build-1", exists("out"), {"kind": "file_not_exists", "path": "tmp"}),
    task("build-2", exists("out"), {"kind": "file_not_exists", "path": "tmp"}),
    task("docs-1", contains("README", "x")),
    task("test-1", exists("t"), exists("u")),
    task("test-2", exists("t")),
]
WORKSPACES = {
    "v1/build-1/out": "",
    "v1/build-2/keep": "",
    "v1/docs-1/README": "x",
    "v1/test-1/t": "",
    "v1/test-2/keep": "",
    "v2/build-1/out": "",
    "v2/build-1/tmp": "",
    "v2/build-2/out": "",
    "v2/docs-1/README": "y",
    "v2/test-1/run-1/t": "",
    "v2/test-1/run-1/u": "",
    "v2/test-1/run-2/t": "",
    "v2/test-1/run-3/t": "",
    "v2/test-1/run-3/u": "",
    "v2/test-2/t": "",
}
RUNS = [
    {
        "model": "v1",
        "task_id": "build-1",
        "status": "success",
        "wall_seconds": 30,
        "turns": [{"action": "tool_call", "tokens": 10}] * 6,
    },
    {
        "model": "v1",
        "task_id": "docs-1",
        "status": "error",
        "wall_seconds": 50,
        "turns": [{"action": "tool_format_error"}] * 2,
    },
    {
        "model": "v2",
        "task_id": "build-1",
        "status": "success",
        "wall_seconds": 10,
        "turns": [{"action": "tool_call", "tokens": 5}] * 4,
    },
    {
        "model": "v2",
        "task_id": "docs-1",
        "status": "success",
        "wall_seconds": 20,
        "turns": [{"action": "message"}] * 2,
    },
    {"model": "v2", "task_id": "test-2", "status": "success", "wall_seconds": 5, "turns": 1},
]


def build_pair(suite: Suite) -> None:
    suite.write("cases/a.agent-tasks.jsonl", jsonl(TASKS))
    for path, text in WORKSPACES.items():
        suite.write(path, text)
    suite.write("cases/eval.agent-runs.jsonl", jsonl(RUNS))
    suite.write("pytest.ini", "[pytest]\nbizbench_pass_at_k = 1,2\n")


PAIR_ARGS = (
    "--bizbench-predictions",
    "v1=v1",
    "--bizbench-predictions",
    "v2=v2",
    "-p",
    "no:cacheprovider",
)


def pp(a: float, b: float, n: int, pa: float, pb: float) -> dict[str, Any]:
    return {
        "n": n,
        "a": pytest.approx(a),
        "b": pytest.approx(b),
        "delta_pp": pytest.approx((b - a) * 100),
        "pass_rate_a": pytest.approx(pa),
        "pass_rate_b": pytest.approx(pb),
        "pass_rate_delta_pp": pytest.approx((pb - pa) * 100),
    }


def test_two_models_compared_task_by_task_identically_under_xdist(
    suite: Suite, monkeypatch: pytest.MonkeyPatch
) -> None:
    build_pair(suite)
    summary = suite.path / "step-summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    serial = suite.pytester.runpytest_subprocess(
        *PAIR_ARGS, "-v", "--bizbench-report", "serial.json"
    )
    parallel = suite.pytester.runpytest_subprocess(
        *PAIR_ARGS, "-n", "2", "--bizbench-report", "n2.json"
    )
    assert serial.ret == parallel.ret == 1  # tasks fail: not every assertion holds
    report, report_n2 = suite.report("serial.json"), suite.report("n2.json")
    assert {k: v for k, v in report.items() if k != "run"} == {
        k: v for k, v in report_n2.items() if k != "run"
    }
    bench = report["benchmarks"][BENCH]
    # v1: 1, 1/2, 1, 1/2, 0 -> 3/5; v2: 1/2, 1, 0, (1 + 1/2 + 1)/3 = 5/6, 1 -> 10/3 / 5 = 2/3
    assert bench["models"]["v1"]["metrics"]["accuracy"] == pytest.approx(3 / 5)
    assert bench["models"]["v2"]["metrics"]["accuracy"] == pytest.approx(2 / 3)
    # pass rates: v1 build-1, docs-1 -> 2/5; v2 build-2, test-1 (2 of 3 runs), test-2 -> (2 + 2/3)/5
    assert bench["models"]["v2"]["metrics"]["pass_rate"] == pytest.approx(8 / 15)
    # pass@2 only where n >= 2: test-1, n=3, c=2 -> 1 - C(1,2)/C(3,2) = 1
    assert bench["models"]["v2"]["metrics"]["pass_at_2"] == 1.0
    test_1 = {d["id"]: d for d in bench["models"]["v2"]["documents"]}["test-1"]["details"]
    assert test_1["pass_at_k"] == {"1": pytest.approx(2 / 3), "2": 1.0}
    paired = bench["paired"]["v2-vs-v1"]
    assert paired["tasks"]["test-1"] == pp(1 / 2, 5 / 6, 1, 0.0, 2 / 3)
    assert paired["tasks"]["build-1"] == pp(1.0, 1 / 2, 1, 1.0, 0.0)
    # build: A (1 + 1/2)/2, B (1/2 + 1)/2 -> 0 pp; pass 1/2 each
    # docs: 1 -> 0; test: A (1/2 + 0)/2 = 1/4, B (5/6 + 1)/2 = 11/12; pass A 0, B (2/3 + 1)/2
    assert paired["groups"] == {
        "build": pp(3 / 4, 3 / 4, 2, 1 / 2, 1 / 2),
        "docs": pp(1.0, 0.0, 1, 1.0, 0.0),
        "test": pp(1 / 4, 11 / 12, 2, 0.0, 5 / 6),
    }
    # file_exists over build-1, build-2, test-1, test-2 (share, all passed):
    #   A: (1,1) (0,0) (1/2,0) (0,0) -> 3/8, 1/4
    #   B: (1,1) (1,1) (5/6, 2/3) (1,1) -> 23/24, 11/12
    # file_not_exists over build-1, build-2: A 1, 1; B 0, 1
    assert paired["kinds"] == {
        "file_contents_contain": pp(1.0, 0.0, 1, 1.0, 0.0),
        "file_exists": pp(3 / 8, 23 / 24, 4, 1 / 4, 11 / 12),
        "file_not_exists": pp(1.0, 1 / 2, 2, 1.0, 1 / 2),
    }
    # runs matched on build-1 and docs-1: turns v1 (6 + 2)/2 = 4, v2 (4 + 2)/2 = 3;
    # wall v1 (30 + 50)/2 = 40, v2 (10 + 20)/2 = 15
    assert paired["runs"] == {
        "turns": {"n": 2, "a": 4.0, "b": 3.0, "delta": -1.0},
        "wall_seconds": {"n": 2, "a": 40.0, "b": 15.0, "delta": -25.0},
    }
    runs = bench["runs"]
    assert runs["v1"]["status_counts"] == {"error": 1, "success": 1}
    assert runs["v1"]["success_rate"] == 0.5
    assert runs["v1"]["tool_format_errors"]["mean"] == 1.0  # 0 and 2
    # tokens: 6 turns x 10 on build-1; docs-1's turns carry none, so it is left out
    assert runs["v1"]["tokens"] == {"n": 1, "mean": 60.0, "p50": 60.0, "p95": 60.0}
    assert runs["v2"]["turns"]["mean"] == pytest.approx(7 / 3)  # 4, 2, 1
    assert runs["v2"]["tool_calls"] == {"n": 2, "mean": 2.0, "p50": 2.0, "p95": pytest.approx(3.8)}
    # each object of rows in the pair is a table, rows worst first by their delta
    table = [
        "| groups | a | b | delta_pp | n | pass_rate_a | pass_rate_b | pass_rate_delta_pp |",
        "|---|---|---|---|---|---|---|---|",
        "| docs | 1.0000 | 0.0000 | -100.0000 | 1 | 1.0000 | 0.0000 | -100.0000 |",
        "| build | 0.7500 | 0.7500 | 0.0000 | 2 | 0.5000 | 0.5000 | 0.0000 |",
        "| test | 0.2500 | 0.9167 | 66.6667 | 2 | 0.0000 | 0.8333 | 83.3333 |",
    ]
    serial.stdout.fnmatch_lines(
        [
            "test-1 scored 0.83 on agent-fs (model v2): below the pass mark 1.00 "
            "(agent-fs min_score)",
            # scores 1, 1/2, 1: the median run is run-1, which passed
            "  2 of 3 runs passed every assertion; shown: run-1",
            # with -v, in the terminal's one table style: aligned columns, no pipes
            "agent-fs v2-vs-v1: by groups (a = v1, b = v2):",
            "groups  a       b       delta_pp   n  pass_rate_a  pass_rate_b  pass_rate_delta_pp",
            "------  ------  ------  ---------  -  -----------  -----------  ------------------",
            "docs    1.0000  0.0000  -100.0000  1  1.0000       0.0000       -100.0000",
            "build   0.7500  0.7500  0.0000     2  0.5000       0.5000       0.0000",
            "test    0.2500  0.9167  66.6667    2  0.0000       0.8333       83.3333",
        ]
    )
    markdown = summary.read_text(encoding="utf-8")
    assert "### agent-fs v2-vs-v1: by groups (a = v1, b = v2)" in markdown
    assert "\n".join(table) in markdown
    assert "| wall_seconds | 40.0000 | 15.0000 | -25.0000 | 2 |" in markdown


def test_a_bad_run_record_makes_the_run_incomplete_and_the_rest_counts(suite: Suite) -> None:
    suite.write("cases/a.agent-tasks.jsonl", jsonl([task("t-1", exists("a"))]))
    suite.write("ws/t-1/a", "")
    suite.write(
        "cases/bot.agent-runs.jsonl",
        jsonl([{"status": "success", "wall_seconds": 3}]) + '{"status": "success", "turns": "x"}\n',
    )
    result = suite.pytester.runpytest("--bizbench-predictions", "ws")
    assert result.ret == 1
    result.stdout.fnmatch_lines(["*error: cases/bot.agent-runs.jsonl:2: 'turns' must be*"])
    report = suite.report()
    (error,) = report["completeness"]["errors"]
    assert (error["nodeid"], error["line"]) == ("cases/bot.agent-runs.jsonl", 2)
    assert report["gate"]["passed"] is False
    # the good record counts, under the model named by the file
    assert report["benchmarks"][BENCH]["runs"]["bot"]["runs"] == 1


def test_runs_files_follow_the_collection_rules(suite: Suite) -> None:
    suite.write("cases/a.agent-tasks.jsonl", jsonl([task("t-1", exists("a"))]))
    suite.write("ws/t-1/a", "")
    suite.write("cases/a.agent-runs.jsonl", jsonl([{"model": "m", "status": "success"}]))
    suite.write("old/b.agent-runs.jsonl", jsonl([{"model": "m", "status": "error"}]))
    suite.write("node_modules/c.agent-runs.jsonl", jsonl([{"model": "m", "status": "error"}]))
    suite.pytester.runpytest("--bizbench-predictions", "ws", "--ignore=old")
    runs = suite.report()["benchmarks"][BENCH]["runs"]
    assert runs["m"]["status_counts"] == {"success": 1}  # old/ ignored, node_modules not recursed
    suite.pytester.runpytest("--bizbench-predictions", "ws", "cases")
    assert suite.report()["benchmarks"][BENCH]["runs"]["m"]["runs"] == 1


def test_run_fields_and_group_pattern_come_from_ini(suite: Suite) -> None:
    suite.write(
        "pytest.ini",
        "[pytest]\n"
        "bizbench_agent_group_pattern = ^([a-z]+)_\n"
        "bizbench_agent_run_fields =\n"
        "    status = result.state\n"
        "    success = resolved\n",
    )
    suite.write("cases/a.agent-tasks.jsonl", jsonl([task("api_fix", exists("a"))]))
    suite.write("ws/api_fix/a", "")
    suite.write("cases/m.agent-runs.jsonl", jsonl([{"result": {"state": "resolved"}}]))
    result = suite.pytester.runpytest("--bizbench-predictions", "ws")
    assert result.ret == 0
    bench = suite.report()["benchmarks"][BENCH]
    assert list(bench["models"]["default"]["metrics"]["groups"]) == ["api"]
    assert bench["runs"]["m"]["success_rate"] == 1.0
    assert bench["config"]["group_pattern"] == "^([a-z]+)_"


def test_bad_agent_ini_is_a_usage_error(suite: Suite) -> None:
    suite.write("pytest.ini", "[pytest]\nbizbench_agent_run_fields = colour = red\n")
    result = suite.pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*ini bizbench_agent_run_fields: unknown field 'colour'*"])


def test_a_model_with_several_sources_tries_them_in_order(suite: Suite) -> None:
    suite.write("cases/a.agent-tasks.jsonl", jsonl([task("t-1", exists("a"))]))
    suite.write(
        "cases/b.ground-truth.jsonl",
        jsonl([{"id": "inv-1", "ground_truth": {"total": 5}}]),
    )
    suite.write("v2.jsonl", jsonl([{"id": "inv-1", "extracted_fields": {"total": 5}}]))
    suite.write("v2/t-1/a", "")
    suite.write("v2/inv-1.json", json.dumps({"total": 999}))  # shadowed by v2.jsonl
    result = suite.pytester.runpytest(
        "--bizbench-predictions", "v2=v2.jsonl", "--bizbench-predictions", "v2=v2"
    )
    assert result.ret == 0
    assert suite.documents("field-accuracy", "v2")["inv-1"]["score"] == 1.0
    assert suite.documents(BENCH, "v2")["t-1"]["score"] == 1.0
    assert list(suite.report()["benchmarks"][BENCH]["models"]) == ["v2"]


def test_two_sources_without_model_names_are_refused(suite: Suite) -> None:
    suite.write("a.json", "{}")
    suite.write("b.json", "{}")
    result = suite.pytester.runpytest(
        "--bizbench-predictions", "a.json", "--bizbench-predictions", "b.json"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*two sources without a model name; name each source MODEL=PATH*"])
