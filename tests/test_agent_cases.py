"""Loading agent tasks and agent-run records: every bad row is a located error and
never costs the other rows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_bizbench.cases import CaseError
from pytest_bizbench.cases.agent import (
    AgentTaskCase,
    RunFields,
    RunRecord,
    load_agent_runs,
    load_agent_tasks,
)

CAP = 1_000_000
GOOD = {"task_id": "fix-1", "verifiable_assertions": [{"kind": "file_exists", "path": "a.py"}]}


def tasks(tmp_path: Path, *rows: Any) -> list[AgentTaskCase | CaseError]:
    path = tmp_path / "t.agent-tasks.jsonl"
    lines = [r if isinstance(r, str) else json.dumps(r) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load_agent_tasks(path, CAP)


def test_a_task_loads_with_its_seed_tags_and_assertions(tmp_path: Path) -> None:
    row = {
        "task_id": "fix-parser-1",
        "prompt": "extra keys are kept out of the way",
        "verifiable_assertions": [
            {"kind": "file_contents_contain", "path": "a.py", "must_contain": ["x", "y"]},
            {"kind": "file_contents_match_regex", "path": "a.py", "regex": r"def \w+"},
            {"kind": "some_future_kind"},  # graded as failed, not rejected
        ],
        "workspace_seed": {"files": {"a.py": "x = 1\n"}},
        "tags": ["bugfix"],
    }
    (task,) = tasks(tmp_path, row)
    assert isinstance(task, AgentTaskCase)
    assert (task.id, task.line, task.labels, task.metadata) == ("fix-parser-1", 1, ("bugfix",), {})
    assert task.assertions == tuple(row["verifiable_assertions"])
    assert task.seed == {"a.py": "x = 1\n"}
    assert task.min_score is None
    assert len(task.case_hash) == 16


def test_tags_as_an_object_are_metadata(tmp_path: Path) -> None:
    (task,) = tasks(tmp_path, {**GOOD, "tags": {"difficulty": "hard"}, "min_score": 0.5})
    assert isinstance(task, AgentTaskCase)
    assert (task.labels, task.metadata, task.min_score) == ((), {"difficulty": "hard"}, 0.5)


BAD_ROWS = [
    ("[1, 2]", "a task must be an object, got list"),
    ({"verifiable_assertions": []}, 'missing required key "task_id"'),
    ({**GOOD, "task_id": 7}, '"task_id" must be a non-empty string, got 7'),
    ({**GOOD, "task_id": "../etc"}, "\"task_id\" '../etc' must be a plain name"),
    ({**GOOD, "task_id": ".."}, "\"task_id\" '..' must be a plain name"),
    ({"task_id": "t"}, 'missing required key "verifiable_assertions"'),
    ({"task_id": "t", "verifiable_assertions": []}, '"verifiable_assertions" must be a non-empty'),
    (
        {"task_id": "t", "verifiable_assertions": ["x"]},
        "verifiable_assertions[0]: must be an object",
    ),
    (
        {"task_id": "t", "verifiable_assertions": [{"path": "a"}]},
        'verifiable_assertions[0]: "kind"',
    ),
    (
        {"task_id": "t", "verifiable_assertions": [{"kind": "file_exists"}]},
        'verifiable_assertions[0]: "path" must be a non-empty string, got null',
    ),
    (
        {
            "task_id": "t",
            "verifiable_assertions": [
                {"kind": "file_contents_contain", "path": "a", "must_contain": 3}
            ],
        },
        '"must_contain" must be a string or a list of strings, got 3',
    ),
    (
        {
            "task_id": "t",
            "verifiable_assertions": [
                {"kind": "file_exists", "path": "a"},
                {"kind": "file_contents_match_regex", "path": "a", "regex": "(unclosed"},
            ],
        },
        "verifiable_assertions[1]: invalid regex '(unclosed'",
    ),
    ({**GOOD, "workspace_seed": {"files": {"a": 1}}}, '"workspace_seed" must be {"files"'),
    ({**GOOD, "tags": "bugfix"}, '"tags" must be a list of strings or an object, got string'),
    ({**GOOD, "min_score": 2}, '"min_score" must be a number in [0, 1], got 2'),
    ('{"task_id": "t", "verifiable_assertions": [', "malformed JSON"),
]


@pytest.mark.parametrize(("row", "message"), BAD_ROWS)
def test_a_bad_row_is_an_error_at_its_line_and_the_others_load(
    tmp_path: Path, row: Any, message: str
) -> None:
    first, error, last = tasks(
        tmp_path, {**GOOD, "task_id": "a-1"}, row, {**GOOD, "task_id": "a-3"}
    )
    assert isinstance(first, AgentTaskCase)
    assert isinstance(last, AgentTaskCase)
    assert isinstance(error, CaseError)
    assert error.line == 2
    assert message in error.message


def test_a_duplicate_task_id_names_the_first_line(tmp_path: Path) -> None:
    first, second = tasks(tmp_path, GOOD, GOOD)
    assert isinstance(first, AgentTaskCase)
    assert isinstance(second, CaseError)
    assert second.message == "duplicate task_id 'fix-1' (first at line 1)"
    assert (second.line, second.case_id) == (2, "fix-1")


def test_an_empty_file_is_one_error(tmp_path: Path) -> None:
    (error,) = tasks(tmp_path, "")
    assert isinstance(error, CaseError)
    assert error.message.startswith("empty file")


def runs(
    tmp_path: Path, rows: list[Any], layout: RunFields | None = None
) -> list[RunRecord | CaseError]:
    """Records of `agent-b.agent-runs.jsonl` holding `rows`."""
    path = tmp_path / "agent-b.agent-runs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return load_agent_runs(path, CAP, layout or RunFields())


def test_a_run_record_is_counted_from_its_turns(tmp_path: Path) -> None:
    row = {
        "model": "agent-a",
        "task_id": "fix-1",
        "status": "success",
        "wall_seconds": 12.5,
        "turns": [
            {"action": "tool_call", "tokens": {"input": 100, "output": 20}},
            {"action": "tool_format_error", "tokens": 30},
            {"action": "tool_call"},
            {"action": "message", "tokens": 5},
        ],
    }
    (record,) = runs(tmp_path, [row])
    # turns 4; tool calls 2; format errors 1; tokens 100 + 20 + 30 + 5 = 155
    assert record == RunRecord("agent-a", "fix-1", "success", True, 12.5, 4, 2, 1, 155.0)


def test_a_run_without_model_belongs_to_the_file_and_turns_may_be_a_count(tmp_path: Path) -> None:
    (record,) = runs(tmp_path, [{"status": "timeout", "turns": 7}])
    # no turn list: tool calls, format errors and tokens are unknown, not zero
    assert record == RunRecord("agent-b", None, "timeout", False, None, 7, None, None, None)


def test_run_fields_read_another_layout(tmp_path: Path) -> None:
    layout = RunFields.from_lines(
        [
            "model = meta.agent",
            "status = result.exit",
            "wall_seconds = result.seconds",
            "turns = trajectory",
            "action = kind",
            "tokens = usage.total",
            "success = ok, done",
            "tool_call = call",
            "",
        ]
    )
    row = {
        "meta": {"agent": "swe"},
        "result": {"exit": "done", "seconds": 3},
        "trajectory": [{"kind": "call", "usage": {"total": 9}}, {"kind": "think"}],
    }
    (record,) = runs(tmp_path, [row], layout)
    assert record == RunRecord("swe", None, "done", True, 3.0, 2, 1, 0, 9.0)


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["colour = red"], "unknown field 'colour'"),
        (["status"], "'status' is not 'name = value'"),
    ],
)
def test_run_fields_reject_bad_lines(lines: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RunFields.from_lines(lines)


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ({"turns": []}, "'status' must be a non-empty string, got null"),
        ({"status": "success", "wall_seconds": -1}, "'wall_seconds' must be a non-negative number"),
        ({"status": "success", "turns": "many"}, "'turns' must be a non-negative number"),
        ({"status": "success", "turns": 2.5}, "'turns' must be a list of turns or a whole number"),
        ({"status": "success", "turns": [{"tokens": "lots"}]}, "turn 'tokens' must be"),
        ({"status": "success", "model": 3}, "'model' must be a non-empty string, got 3"),
        ([], "a run record must be an object, got list"),
    ],
)
def test_a_bad_run_record_is_an_error_at_its_line(tmp_path: Path, row: Any, message: str) -> None:
    first, error = runs(tmp_path, [{"status": "success"}, row])
    assert isinstance(first, RunRecord)
    assert isinstance(error, CaseError)
    assert error.line == 2
    assert message in error.message
