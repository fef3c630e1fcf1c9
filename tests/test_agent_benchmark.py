"""`agent-fs` scoring, metrics and the matched B-A comparison, computed by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_bizbench.benchmarks.agent_fs import AgentFs
from pytest_bizbench.cases.agent import RunRecord
from pytest_bizbench.gate.agent_runs import AgentRuns, summarise
from pytest_bizbench.options.types import AgentConfig
from pytest_bizbench.report.model import BenchmarkEntry
from pytest_bizbench.report.tables import pair_tables
from pytest_bizbench.sdk import ExtendedDocument, ScoredDocument

EXISTS_A = {"kind": "file_exists", "path": "a.txt"}
EXISTS_B = {"kind": "file_exists", "path": "b.txt"}
ABSENT_C = {"kind": "file_not_exists", "path": "c.txt"}


def document(
    task_id: str, assertions: list[dict[str, Any]], workspace: Path | None, model: str = "A"
) -> ExtendedDocument:
    return ExtendedDocument(
        id=task_id,
        ground_truth={"verifiable_assertions": assertions, "workspace_seed": {}},
        extracted_fields={} if workspace is None else {"workspace": str(workspace)},
        model=model,
    )


def workspace(root: Path, *files: str) -> Path:
    root.mkdir(parents=True)
    for name in files:
        (root / name).write_text("x", encoding="utf-8")
    return root


def test_several_runs_give_mean_spread_and_pass_at_k(tmp_path: Path) -> None:
    task = tmp_path / "t-1"
    workspace(task / "run-1", "a.txt", "b.txt")  # 3/3
    workspace(task / "run-2", "a.txt")  # 2/3: b.txt missing
    workspace(task / "run-3", "a.txt", "b.txt", "c.txt")  # 2/3: c.txt exists
    bench = AgentFs(pass_at=(1, 2, 5))
    scored = bench.score(document("t-1", [EXISTS_A, EXISTS_B, ABSENT_C], task))
    # mean of 1, 2/3, 2/3 = 7/9
    assert scored.score == pytest.approx(7 / 9)
    details = scored.details
    assert details["runs"] == {
        "n": 3,
        "passed": 1,
        "mean": pytest.approx(7 / 9),
        "min": pytest.approx(2 / 3),
        "max": 1.0,
        "shown": 2,
        "scores": [1.0, pytest.approx(2 / 3), pytest.approx(2 / 3)],
    }
    # n=3, c=1: pass@1 = 1 - C(2,1)/C(3,1) = 1/3; pass@2 = 1 - C(2,2)/C(3,2) = 2/3
    assert details["pass_at_k"] == {"1": pytest.approx(1 / 3), "2": pytest.approx(2 / 3), "5": None}
    assert details["pass_at_k_note"] == "k=5 > n=3"
    # pass^1 = C(1,1)/C(3,1) = 1/3; pass^2 = C(1,2)/C(3,2) = 0; one run passed, two
    # failed: the runs flip
    assert details["pass_hat_k"] == {"1": pytest.approx(1 / 3), "2": 0.0, "5": None}
    assert details["flip"] is True
    # ordered by score, ties by run: run-2 (2/3), run-3 (2/3), run-1 (1); the median is run-3
    assert details["run"] == "run-3"
    assert [a["reason"] for a in details["assertions"]] == [None, None, "exists: c.txt"]
    # per kind: file_exists 2 per run, passed 2, 1, 2 -> mean 5/3; all passed in 2 of 3 runs
    assert details["kinds"] == {
        "file_exists": {
            "count": 2,
            "passed": pytest.approx(5 / 3),
            "all_passed": pytest.approx(2 / 3),
        },
        "file_not_exists": {
            "count": 1,
            "passed": pytest.approx(2 / 3),
            "all_passed": pytest.approx(2 / 3),
        },
    }


def test_missing_details_fail_every_assertion() -> None:
    details = AgentFs().missing_details(document("t-9", [EXISTS_A, ABSENT_C], None))
    assert [(a["kind"], a["passed"], a["reason"]) for a in details["assertions"]] == [
        ("file_exists", False, "no workspace"),
        ("file_not_exists", False, "no workspace"),
    ]
    assert details["kinds"]["file_exists"] == {"count": 1, "passed": 0.0, "all_passed": 0.0}


def scored_task(
    bench: AgentFs, tmp_path: Path, model: str, task_id: str, *files: str
) -> ScoredDocument:
    """One task with assertions a.txt exists, b.txt exists, c.txt absent."""
    root = workspace(tmp_path / model / task_id, *files)
    return bench.score(document(task_id, [EXISTS_A, EXISTS_B, ABSENT_C], root, model))


def missing_task(bench: AgentFs, model: str, task_id: str) -> ScoredDocument:
    doc = document(task_id, [EXISTS_A, EXISTS_B, ABSENT_C], None, model)
    return ScoredDocument(doc, 0.0, bench.missing_details(doc))


@pytest.fixture
def two_models(tmp_path: Path) -> tuple[AgentFs, list[ScoredDocument], list[ScoredDocument]]:
    """Four tasks, two groups (fix, docs), per model:

    task    A                      B
    fix-1   a b     -> 3/3 pass    a       -> 2/3
    fix-2   a       -> 2/3         a b     -> 3/3 pass
    docs-1  a b c   -> 2/3         missing -> 0/3
    docs-2  -       -> 1/3         (B did not run it: unmatched)
    """
    bench = AgentFs()
    a = [
        scored_task(bench, tmp_path, "A", "fix-1", "a.txt", "b.txt"),
        scored_task(bench, tmp_path, "A", "fix-2", "a.txt"),
        scored_task(bench, tmp_path, "A", "docs-1", "a.txt", "b.txt", "c.txt"),
        scored_task(bench, tmp_path, "A", "docs-2"),
    ]
    b = [
        scored_task(bench, tmp_path, "B", "fix-1", "a.txt"),
        scored_task(bench, tmp_path, "B", "fix-2", "a.txt", "b.txt"),
        missing_task(bench, "B", "docs-1"),
    ]
    return bench, a, b


def test_compute_metrics(
    two_models: tuple[AgentFs, list[ScoredDocument], list[ScoredDocument]],
) -> None:
    bench, a, _ = two_models
    metrics = bench.compute(a)
    # scores 1, 2/3, 2/3, 1/3 -> 8/3 / 4 = 2/3; only fix-1 passed every assertion
    assert metrics["accuracy"] == pytest.approx(2 / 3)
    assert metrics["pass_rate"] == 0.25
    assert metrics["pass_at_1"] == 0.25
    assert metrics["total_documents"] == 4
    # file_exists: 8 assertions, passed 2 + 1 + 2 + 0 = 5; file_not_exists: 4, passed 1+1+0+1 = 3
    assert metrics["per_kind"] == {
        "file_exists": {"count": 8, "pass_rate": 5 / 8},
        "file_not_exists": {"count": 4, "pass_rate": 3 / 4},
    }
    # groups by id without the trailing -<n>: docs (2/3, 1/3), fix (1, 2/3)
    assert metrics["groups"] == {
        "docs": {"count": 2, "accuracy": pytest.approx(1 / 2), "pass_rate": 0.0},
        "fix": {"count": 2, "accuracy": pytest.approx(5 / 6), "pass_rate": 0.5},
    }


def test_compute_counts_a_missing_task_as_failed(
    two_models: tuple[AgentFs, list[ScoredDocument], list[ScoredDocument]],
) -> None:
    bench, _, b = two_models
    metrics = bench.compute(b)
    # scores 2/3, 1, 0 -> 5/9; file_exists 6 assertions, passed 1 + 2 + 0 = 3
    assert metrics["accuracy"] == pytest.approx(5 / 9)
    assert metrics["per_kind"]["file_exists"] == {"count": 6, "pass_rate": 0.5}
    assert metrics["pass_at_1"] == 0.5  # over the two tasks with a workspace


def test_compute_of_nothing() -> None:
    metrics = AgentFs().compute([])
    assert metrics == {
        "accuracy": 0.0,
        "total_documents": 0,
        "pass_rate": 0.0,
        "per_kind": {},
        "groups": {},
        "pass_at_1": None,
    }


def entry(n: int, a: float, b: float, pa: float, pb: float) -> dict[str, Any]:
    return {
        "n": n,
        "a": pytest.approx(a),
        "b": pytest.approx(b),
        "delta_pp": pytest.approx((b - a) * 100),
        "pass_rate_a": pytest.approx(pa),
        "pass_rate_b": pytest.approx(pb),
        "pass_rate_delta_pp": pytest.approx((pb - pa) * 100),
    }


def test_matched_comparison_by_task_group_and_kind(
    two_models: tuple[AgentFs, list[ScoredDocument], list[ScoredDocument]],
) -> None:
    bench, a, b = two_models
    paired = bench.compare_models(bench.compute(a), bench.compute(b), a, b)
    assert paired["models"] == {"a": "A", "b": "B"}
    # docs-2 is A's only: matched are docs-1, fix-1, fix-2
    assert paired["tasks"] == {
        "docs-1": entry(1, 2 / 3, 0.0, 0.0, 0.0),
        "fix-1": entry(1, 1.0, 2 / 3, 1.0, 0.0),
        "fix-2": entry(1, 2 / 3, 1.0, 0.0, 1.0),
    }
    assert paired["tasks"]["fix-1"]["delta_pp"] == pytest.approx(-100 / 3)
    # fix: A (1 + 2/3)/2 = 5/6, B (2/3 + 1)/2 = 5/6 -> 0 pp; pass rates 1/2 and 1/2
    # docs: docs-1 only, A 2/3 vs B 0 -> -66.7 pp
    assert paired["groups"] == {
        "docs": entry(1, 2 / 3, 0.0, 0.0, 0.0),
        "fix": entry(2, 5 / 6, 5 / 6, 0.5, 0.5),
    }
    # file_exists per task (share passed, all passed): A fix-1 (1, 1), fix-2 (1/2, 0),
    #   docs-1 (1, 1); B fix-1 (1/2, 0), fix-2 (1, 1), docs-1 (0, 0)
    #   -> A 5/6, B 1/2, pass A 2/3, B 1/3
    # file_not_exists: A 1, 1, 0 -> 2/3; B 1, 1, 0 -> 2/3
    assert paired["kinds"] == {
        "file_exists": entry(3, 5 / 6, 1 / 2, 2 / 3, 1 / 3),
        "file_not_exists": entry(3, 2 / 3, 2 / 3, 2 / 3, 2 / 3),
    }
    # and the generic keys of compare_models are kept
    assert paired["baseline_accuracy"] == pytest.approx(2 / 3)
    assert paired["cases"]["n"] == 3


def test_model_pair_tables_are_read_from_the_report(
    two_models: tuple[AgentFs, list[ScoredDocument], list[ScoredDocument]],
) -> None:
    """Each object of rows in the pair (groups, kinds, tasks, runs) is a table, its
    columns by name, rows with a delta worst first."""
    bench, a, b = two_models
    paired = bench.compare_models(bench.compute(a), bench.compute(b), a, b)
    paired["runs"] = {"turns": {"n": 2, "a": 10.0, "b": 7.5, "delta": -2.5}}
    entry = BenchmarkEntry("1", "", "", "accuracy", "fp", {}, {}, paired={"B-vs-A": paired})
    tables = dict(pair_tables("agent-fs", entry, None))
    title = "agent-fs B-vs-A: by {} (a = A, b = B)"
    assert list(tables) == [title.format(key) for key in ("groups", "kinds", "runs", "tasks")]
    header, rows = tables[title.format("groups")]
    assert header == [
        "groups",
        "a",
        "b",
        "delta_pp",
        "n",
        "pass_rate_a",
        "pass_rate_b",
        "pass_rate_delta_pp",
    ]
    # docs: 2 of 3 assertions held under A, none under B, neither task passed
    assert rows == [
        ["docs", "0.6667", "0.0000", "-66.6667", "1", "0.0000", "0.0000", "0.0000"],
        ["fix", "0.8333", "0.8333", "0.0000", "2", "0.5000", "0.5000", "0.0000"],
    ]
    _, rows = tables[title.format("tasks")]
    assert [row[0] for row in rows] == ["docs-1", "fix-1", "fix-2"]  # -66.7, -33.3, +33.3
    _, rows = tables[title.format("runs")]
    assert rows == [["turns", "10.0000", "7.5000", "-2.5000", "2"]]
    kept = dict(pair_tables("agent-fs", entry, 2))[title.format("tasks")][1]
    assert kept[-1] == ["… 1 more", "", "", "", "", "", "", ""]


@pytest.mark.parametrize(
    ("pattern", "task_id", "group"),
    [
        (r"^(.+?)-\d+$", "fix-parser-12", "fix-parser"),
        (r"^(.+?)-\d+$", "smoke", "smoke"),  # no trailing number: its own group
        (r"^[a-z]+", "fix-parser-12", "fix"),  # no group in the pattern: the whole match
    ],
)
def test_group_of(pattern: str, task_id: str, group: str) -> None:
    assert AgentConfig(group_pattern=pattern).group_of(task_id) == group


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (("0", "", []), "bizbench_agent_max_file_bytes = '0' is not a positive integer"),
        (("10", "(", []), "bizbench_agent_group_pattern = '('"),
        (("10", "", ["colour = red"]), "bizbench_agent_run_fields: unknown field 'colour'"),
    ],
)
def test_agent_config_names_the_bad_ini_key(
    values: tuple[str, str, list[str]], message: str
) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        AgentConfig.from_ini(*values)


def record(
    model: str, task: str | None, status: str, wall: float | None, turns: int | None, **counts: Any
) -> RunRecord:
    return RunRecord(
        model,
        task,
        status,
        status == "success",
        wall,
        turns,
        counts.get("tool_calls"),
        counts.get("errors"),
        counts.get("tokens"),
    )


def test_run_summary_per_model() -> None:
    records = [
        record("A", "t-1", "success", 10.0, 4, tool_calls=3, errors=0, tokens=100.0),
        record("A", "t-2", "success", 20.0, 6, tool_calls=4, errors=1, tokens=300.0),
        record("A", "t-3", "timeout", 40.0, 10, tool_calls=9, errors=2),
        record("A", "t-4", "error", None, None),
    ]
    summary = summarise(records)
    assert summary["runs"] == 4
    assert summary["status_counts"] == {"error": 1, "success": 2, "timeout": 1}
    assert summary["success_rate"] == 0.5
    # wall 10, 20, 40: mean 70/3; p50 20; p95 at position 0.95 * 2 = 1.9 -> 20 + 0.9 * 20 = 38
    assert summary["wall_seconds"] == {
        "n": 3,
        "mean": pytest.approx(70 / 3),
        "p50": 20.0,
        "p95": pytest.approx(38.0),
    }
    # tool-format errors 0, 1, 2: mean 1, p95 = 1 + 0.9 * 1 = 1.9
    assert summary["tool_format_errors"] == {
        "n": 3,
        "mean": 1.0,
        "p50": 1.0,
        "p95": pytest.approx(1.9),
    }
    # tokens only where known: 100, 300 -> p95 = 100 + 0.95 * 200 = 290
    assert summary["tokens"] == {"n": 2, "mean": 200.0, "p50": 200.0, "p95": pytest.approx(290.0)}
    assert summarise([])["wall_seconds"] == {"n": 0, "mean": None, "p50": None, "p95": None}


def test_run_deltas_are_matched_by_task() -> None:
    runs = AgentRuns(
        by_model={
            # A: t-1 two runs (turns 4 and 8 -> 6), t-2 turns 10; t-3 has no B run
            "A": [
                record("A", "t-1", "success", 10.0, 4),
                record("A", "t-1", "success", 30.0, 8),
                record("A", "t-2", "success", 40.0, 10),
                record("A", "t-3", "success", 99.0, 50),
            ],
            "B": [record("B", "t-1", "success", 5.0, 3), record("B", "t-2", "failure", 15.0, 5)],
        }
    )
    # turns over t-1, t-2: A (6 + 10)/2 = 8, B (3 + 5)/2 = 4; wall A (20 + 40)/2 = 30, B 10
    assert runs.deltas("A", "B") == {
        "turns": {"n": 2, "a": 8.0, "b": 4.0, "delta": -4.0},
        "wall_seconds": {"n": 2, "a": 30.0, "b": 10.0, "delta": -20.0},
    }
    assert runs.deltas("A", "C") is None
    paired = runs.with_deltas({"B-vs-A": {"models": {"a": "A", "b": "B"}, "tasks": {}}})
    assert paired["B-vs-A"]["runs"]["turns"]["delta"] == -4.0
