"""Agent-loop trajectories end to end: one file is one case, its metrics worked out by
hand below, the gate on metric paths, pairing with a saved baseline on `best`, the
report's views, and the same report serially and under xdist."""

from __future__ import annotations

import json
from typing import Any

import pytest
from bizhelpers import Suite, jsonl

from pytest_bizbench.gate.baseline import compare_reports
from pytest_bizbench.options.settings import BaselineOptions
from pytest_bizbench.report.html import render_html
from pytest_bizbench.report.markdown import render_markdown

BENCH = "trajectory"


def rec(score: Any = None, knobs: Any = None, mode: str | None = None, **extra: Any) -> str:
    """One record of the default layout: `val_bpb`, `config`, `mode`, `status`."""
    row: dict[str, Any] = {"model": "loop", "status": "done", **extra}
    if score is not None:
        row["val_bpb"] = score
    if knobs is not None:
        row["config"] = knobs
    if mode is not None:
        row["mode"] = mode
    return json.dumps(row) + "\n"


# sweep: iterations are lines 1, 2, 5, 7 with val_bpb 1.5, 1.3, 1.4, 1.2 (lower is
# better); line 3 proposed, line 6 failed (null score), line 8 a string score
# (crashed), line 4 malformed.
#   first 1.5, best 1.2, improvement 0.3, steps_to_best 3, cumulative 1.5 1.3 1.3 1.2
#   lr takes 0.1, 0.2 -> 2; depth takes 2, 4 -> 2
#   settings (0.1,2) (0.2,2) (0.2,2)* (0.2,4): one repeat of four -> 0.25
#   explore 2 of 4, exploit 2 of 4 -> 0.5 each; beats its first: passes
SWEEP = (
    rec(1.5, {"lr": 0.1, "depth": 2}, "explore")
    + rec(1.3, {"lr": 0.2, "depth": 2}, "explore")
    + rec(None, {"lr": 0.2, "depth": 4}, "exploit", status="proposed")
    + '{"model": "loop", "val_bpb": \n'
    + rec(1.4, {"depth": 2, "lr": 0.2}, "exploit")  # the same setting, keys reordered
    + rec(None, {"lr": 0.4, "depth": 4}, "exploit", status="failed", val_bpb=None)
    + rec(1.2, {"lr": 0.2, "depth": 4}, "exploit")
    + rec("nan", status="crashed")
)
# stuck: 1.0, 1.0, 1.1 -> first 1.0, best 1.0 (a tie does not beat): fails.
#   improvement 0, steps_to_best 0, lr 0.1, 0.1*, 0.3 -> 2 values, repeat 1/3
STUCK = (
    rec(1.0, {"lr": 0.1}, "explore")
    + rec(1.0, {"lr": 0.1}, "explore")
    + rec(1.1, {"lr": 0.3}, "explore")
)


def test_trajectories_are_scored_with_their_metrics(suite: Suite) -> None:
    suite.write("runs/sweep.trajectory.jsonl", SWEEP)
    suite.write("runs/stuck.trajectory.jsonl", STUCK)
    result = suite.pytester.runpytest("-v", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(
        [
            "runs/stuck.trajectory.jsonl::stuck[[]trajectory[]] FAILED 0.00*",
            "runs/sweep.trajectory.jsonl::line-4[[]invalid[]] ERROR*",
            "runs/sweep.trajectory.jsonl::sweep[[]trajectory[]] PASSED 1.00*",
        ]
    )
    result.stdout.fnmatch_lines(
        [
            "stuck scored 0.00 on trajectory (model loop): below the pass mark 1.00 "
            "(trajectory min_score)",
            "  best 1 does not beat 1, its first iteration (lower is better)",
        ]
    )
    result.stdout.fnmatch_lines(["*runs/sweep.trajectory.jsonl:4: *malformed JSON*"])
    assert result.ret == 1
    docs = suite.documents(BENCH, "loop")
    sweep = docs["sweep"]["details"]
    assert sweep == {
        "iterations": 4,
        "first": 1.5,
        "best": 1.2,
        "improvement": pytest.approx(0.3),
        "steps_to_best": 3,
        "knob_coverage": {"depth": 2, "lr": 2},
        "repeat_rate": 0.25,
        "mode_dominance": {"exploit": 0.5, "explore": 0.5},
        "cumulative_best": [1.5, 1.3, 1.3, 1.2],
        "skipped_records": {"crashed": 1, "failed": 1, "proposed": 1},
        "baseline": 1.5,
        "baseline_source": "first iteration",
        "reason": "best 1.2 beats 1.5, its first iteration (lower is better)",
    }
    assert docs["sweep"]["score"] == 1.0
    assert docs["sweep"]["outcome"] == "passed"
    stuck = docs["stuck"]["details"]
    assert (stuck["first"], stuck["best"], stuck["improvement"]) == (1.0, 1.0, 0.0)
    assert (stuck["steps_to_best"], stuck["repeat_rate"]) == (0, pytest.approx(1 / 3))
    assert stuck["cumulative_best"] == [1.0, 1.0, 1.0]
    assert stuck["skipped_records"] == {}
    assert docs["stuck"]["score"] == 0.0
    metrics = suite.metrics(BENCH, "loop")
    assert metrics["accuracy"] == 0.5
    assert metrics["iterations"] == 3.5
    assert metrics["first"] == 1.25
    assert metrics["best"] == pytest.approx(1.1)
    assert metrics["improvement"] == pytest.approx(0.15)
    assert metrics["steps_to_best"] == 1.5
    assert metrics["repeat_rate"] == pytest.approx((0.25 + 1 / 3) / 2)
    # depth is set by sweep alone: its mean is over that one trajectory
    assert metrics["knob_coverage"] == {"depth": 2.0, "lr": 2.0}
    assert metrics["mode_dominance"] == {"exploit": 0.25, "explore": 0.75}
    assert metrics["skipped_records"] == {"crashed": 1, "failed": 1, "proposed": 1}
    errors = suite.report()["completeness"]["errors"]
    assert [(e["case"], e["line"]) for e in errors] == [("runs/sweep.trajectory.jsonl", 4)]


# higher is better, everything moved by the ini keys; the baseline is a field.
#   acc: 0.6, 0.75, 0.72 -> best 0.75 beats its baseline field 0.70: passes
#   first 0.6, improvement 0.15, steps_to_best 1, k 1, 2, 2* -> 2 values, repeat 1/3
#   grid 2 of 3, random 1 of 3; line 4 has no score (state timeout)
#   low: 0.75, 0.78 -> best 0.78 beats its first but not its baseline field 0.80:
#   fails; line 3's baseline is not a number: an error at its line, not used
HIGHER_INI = """[pytest]
bizbench_trajectory_score = eval.acc
bizbench_trajectory_lower_is_better = false
bizbench_trajectory_fields =
    knobs = params
    mode = strategy.kind
    status = state
    baseline = reference.acc
"""


def test_higher_is_better_with_a_custom_score_field_and_fields(suite: Suite) -> None:
    suite.write("pytest.ini", HIGHER_INI)
    suite.write(
        "runs/acc.trajectory.jsonl",
        jsonl(
            [
                {
                    "reference": {"acc": 0.70},
                    "params": {"k": 1},
                    "strategy": {"kind": "grid"},
                    "state": "ok",
                    "eval": {"acc": 0.6},
                },
                {"params": {"k": 2}, "strategy": {"kind": "grid"}, "eval": {"acc": 0.75}},
                {"params": {"k": 2}, "strategy": {"kind": "random"}, "eval": {"acc": 0.72}},
                {"params": {"k": 3}, "state": "timeout", "val_bpb": 0.1},
            ]
        ),
    )
    suite.write(
        "runs/low.trajectory.jsonl",
        jsonl(
            [
                {"reference": {"acc": 0.80}, "params": {"k": 1}, "eval": {"acc": 0.75}},
                {"params": {"k": 1}, "eval": {"acc": 0.78}},
                {"reference": {"acc": "high"}, "eval": {"acc": 0.99}},
            ]
        ),
    )
    result = suite.pytester.runpytest("-v", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(
        ["*runs/low.trajectory.jsonl:3: baseline 'reference.acc' must be a finite number*"]
    )
    result.stdout.fnmatch_lines(
        ["  best 0.78 does not beat 0.8, its baseline field (higher is better)"]
    )
    assert result.ret == 1
    docs = suite.documents(BENCH)
    acc = docs["acc"]["details"]
    assert (acc["iterations"], acc["first"], acc["best"]) == (3, 0.6, 0.75)
    assert acc["improvement"] == pytest.approx(0.15)
    assert acc["steps_to_best"] == 1
    assert acc["cumulative_best"] == [0.6, 0.75, 0.75]
    assert acc["knob_coverage"] == {"k": 2}
    assert acc["repeat_rate"] == pytest.approx(1 / 3)
    assert acc["mode_dominance"] == {"grid": pytest.approx(2 / 3), "random": pytest.approx(1 / 3)}
    assert acc["skipped_records"] == {"timeout": 1}
    assert (acc["baseline"], acc["baseline_source"]) == (0.7, "baseline field")
    assert docs["acc"]["outcome"] == "passed"
    low = docs["low"]["details"]
    assert (low["iterations"], low["best"], low["baseline"]) == (2, 0.78, 0.8)
    assert docs["low"]["score"] == 0.0


def test_a_trajectory_without_an_iteration_scores_zero(suite: Suite) -> None:
    suite.write(
        "empty.trajectory.jsonl",
        rec(status="proposed") + rec(status="proposed") + rec(status="failed"),
    )
    result = suite.pytester.runpytest("-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(["*no iteration: no record has a finite 'val_bpb'*"])
    assert result.ret == 1
    doc = suite.documents(BENCH, "loop")["empty"]
    assert doc["score"] == 0.0
    assert doc["details"]["iterations"] == 0
    assert doc["details"]["skipped_records"] == {"failed": 1, "proposed": 2}
    metrics = suite.metrics(BENCH, "loop")
    assert (metrics["iterations"], metrics["best"], metrics["repeat_rate"]) == (0.0, None, None)


def test_every_metric_path_is_a_gate(suite: Suite) -> None:
    suite.write("runs/sweep.trajectory.jsonl", SWEEP.replace('{"model": "loop", "val_bpb": \n', ""))
    suite.write("runs/stuck.trajectory.jsonl", STUCK.replace("1.1", "0.9"))  # now it passes
    # repeat_rate (0.25 + 1/3) / 2 = 0.2917; lr takes 2 values in each; explore 0.75
    passing = ("trajectory:loop:mode_dominance.explore >= 0.75", "trajectory:best<1.2")
    args = [a for t in passing for a in ("--bizbench-threshold", t)]
    assert suite.pytester.runpytest("-p", "no:cacheprovider", *args).ret == 0
    result = suite.pytester.runpytest(
        "-p",
        "no:cacheprovider",
        *args,
        "--bizbench-threshold",
        "trajectory:repeat_rate<=0.2",
        "--bizbench-threshold",
        "trajectory:knob_coverage.lr>=3",
    )
    result.stdout.fnmatch_lines(
        [
            "*threshold not met: trajectory:loop:repeat_rate = 0.2917, needs <= 0.2*",
            "*threshold not met: trajectory:loop:knob_coverage.lr = 2.0000, needs >= 3*",
        ]
    )
    assert result.ret == 1
    nameless = suite.pytester.runpytest(
        "-p", "no:cacheprovider", "--bizbench-threshold", "trajectory:nope:best<1"
    )
    nameless.stdout.fnmatch_lines(["*trajectory:nope:best < 1: no such model*"])
    assert nameless.ret == 1


def test_a_saved_baseline_pairs_trajectories_on_their_best(suite: Suite) -> None:
    clean = SWEEP.replace('{"model": "loop", "val_bpb": \n', "")
    suite.write("runs/sweep.trajectory.jsonl", clean)
    suite.write("runs/stuck.trajectory.jsonl", STUCK)
    saved = suite.pytester.runpytest("-p", "no:cacheprovider", "--bizbench-save-baseline", "b.json")
    saved.stdout.fnmatch_lines(["*baseline saved to*"])  # stuck fails, as a case may
    # a new run of each loop: sweep's best 1.2 -> 1.1 (a gain of 0.1), stuck's first
    # and best 1.0 -> 1.05 (a loss of 0.05)
    suite.write("runs/sweep.trajectory.jsonl", clean.replace("1.2", "1.1"))
    suite.write("runs/stuck.trajectory.jsonl", rec(1.05, {"lr": 0.1}) + rec(1.1, {"lr": 0.2}))
    suite.pytester.runpytest("-p", "no:cacheprovider", "--bizbench-baseline", "b.json")
    comparison = suite.report()["benchmarks"][BENCH]["comparison"]["loop"]
    assert comparison["stale_cases"] == []
    assert comparison["paired"]["n"] == 2
    assert comparison["paired"]["mean_delta"] == pytest.approx((0.1 - 0.05) / 2)
    [worst] = comparison["worst"]
    assert (worst["id"], worst["baseline"], worst["candidate"]) == ("stuck", 1.0, 1.05)
    assert worst["delta"] == pytest.approx(-0.05)
    assert comparison["verdict"] == "neutral"  # one of two beat its baseline, both times
    # two saved reports (`bizbench compare`) pair the same way, from the recorded config
    saved_pair = compare_reports(suite.read("b.json"), suite.read(), BaselineOptions())
    assert saved_pair.results[BENCH, "loop"]["paired"] == comparison["paired"]


def test_views_show_the_metrics_table_and_the_chart(suite: Suite) -> None:
    clean = SWEEP.replace('{"model": "loop", "val_bpb": \n', "")
    suite.write("runs/sweep.trajectory.jsonl", clean)
    suite.write("runs/<b>&x.trajectory.jsonl", STUCK)
    result = suite.pytester.runpytest("-v", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(
        [
            "trajectory: metrics:",
            "metric * loop",
            "accuracy * 0.5000",
            "best * 1.1000",
            "first * 1.2500",
            "improvement * 0.1500",
            "iterations * 3.5000",
            "knob_coverage.depth * 2.0000",
            "knob_coverage.lr * 2.0000",
            "*",
            "mode_dominance.exploit * 0.2500",
            "mode_dominance.explore * 0.7500",
            "*",
            "repeat_rate * 0.2917",
            "skipped_records.crashed * 1",
            "steps_to_best * 1.5000",
        ]
    )
    report = suite.read()
    markdown = render_markdown(report)
    assert "| repeat_rate | 0.2917 |" in markdown
    assert "| knob_coverage.lr | 2.0000 |" in markdown
    page = render_html(report)
    start = page.index('aria-label="cumulative best per trajectory"')
    svg = page[start : page.index("</svg>", start)]
    assert svg.count("<polyline") == 2
    assert "<title>&lt;b&gt;&amp;x: best 1</title>" in svg
    assert "<title>sweep: best 1.2</title>" in svg
    assert "<b>&x" not in page


def test_a_long_trajectory_keeps_every_value_and_its_chart(suite: Suite) -> None:
    """A series of plain numbers is not cut at the details' list bound: 1,000
    iterations, 1,000 cumulative-best values and a chart of them. Scores 1000, 999,
    ..., 1: each iteration beats the last, so the cumulative best is the score."""
    suite.write("runs/long.trajectory.jsonl", "".join(rec(1000 - i) for i in range(1000)))
    suite.pytester.runpytest("-p", "no:cacheprovider")
    details = suite.documents(BENCH, "loop")["long"]["details"]
    assert details["cumulative_best"] == [float(1000 - i) for i in range(1000)]
    page = render_html(suite.read())
    start = page.index('aria-label="cumulative best per trajectory"')
    assert page[start : page.index("</svg>", start)].count("<polyline") == 1


def test_the_report_is_the_same_serially_and_under_xdist(suite: Suite) -> None:
    suite.write("a/sweep.trajectory.jsonl", SWEEP)
    suite.write("a/stuck.trajectory.jsonl", STUCK)
    suite.write("b/other.trajectory.jsonl", STUCK.replace('"loop"', '"loop-2"'))
    serial = suite.pytester.runpytest_subprocess("--bizbench-report", "serial.json")
    parallel = suite.pytester.runpytest_subprocess("-n", "2", "--bizbench-report", "n2.json")
    assert serial.ret == parallel.ret == 1
    one, two = suite.report("serial.json"), suite.report("n2.json")
    assert {k: v for k, v in one.items() if k != "run"} == {
        k: v for k, v in two.items() if k != "run"
    }
    assert sorted(one["benchmarks"][BENCH]["models"]) == ["loop", "loop-2"]


CRASH_CONFTEST = """
import os
from pytest_bizbench import BenchmarkPlugin, ScoredDocument

class Crash(BenchmarkPlugin):
    name = "traj-crash"
    version = "1.0.0"
    description = "kills its worker on the trajectory 'crash'"
    target_labels = ["*"]
    case_type = "trajectory"

    def score(self, document):
        if document.id == "crash":
            os._exit(1)
        return ScoredDocument(document, 1.0, {})

def pytest_bizbench_add_benchmarks(config):
    return [Crash]
"""


def test_a_crashed_worker_never_files_a_trajectory_under_a_guessed_model(suite: Suite) -> None:
    suite.write("conftest.py", CRASH_CONFTEST)
    suite.write("crash.trajectory.jsonl", STUCK)
    suite.write("ok.trajectory.jsonl", STUCK)
    result = suite.pytester.runpytest_subprocess("-n", "2", "-k", "traj-crash")
    assert result.ret == 1
    report = suite.report()
    nodeids = [e["nodeid"] for e in report["completeness"]["errors"]]
    assert nodeids == ["crash.trajectory.jsonl::crash[traj-crash]"]
    # its model is in the file the worker read: no document under the run's "default"
    assert list(report["benchmarks"]["traj-crash"]["models"]) == ["loop"]
    assert [d["id"] for d in suite.documents("traj-crash", "loop").values()] == ["ok"]
    assert report["gate"]["passed"] is False
