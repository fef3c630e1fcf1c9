"""Agent tasks (`*.agent-tasks.jsonl`), their case kind, and agent-run records
(`*.agent-runs.jsonl`).

Never raises on bad input: a file that cannot be read gives one `CaseError`, a bad
row gives a `CaseError` at its line, and every other row is still returned.

Choices the format leaves open, and what we chose:
- `task_id` names the task's workspace directory, so it must be a plain name: no
  path separators, not `.` or `..` (a prediction lookup never leaves its directory).
- Assertions of the five known kinds are checked here (a `path`, a `must_contain`
  string or list of strings, a `regex` that compiles); an unknown kind is kept and
  fails when graded, so one typo costs one assertion, not the task.
- `tags` is a list of labels or an object of metadata.
- A run record's model is its `model` field, else the file's name before
  `.agent-runs.jsonl`; field paths are dotted and configurable (`RunFields`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import regex

from pytest_bizbench.cases.kinds import RUNS_SUFFIX as RUNS_SUFFIX  # noqa: PLC0414
from pytest_bizbench.io.jsonio import InputError
from pytest_bizbench.options.types import LoadOptions, RunFields
from pytest_bizbench.scoring.fs_assertions import KNOWN_KINDS
from pytest_bizbench.sdk import ExtendedDocument

from .checks import describe, dig, id_problem, is_case_id, min_score_of, type_name
from .model import CaseError, PredictionShapeError, Workspace, content_hash
from .reading import jsonl_rows, read_case_file

TASKS_SUFFIX = ".agent-tasks.jsonl"


@dataclass(frozen=True, slots=True)
class AgentTaskCase:
    """One agent task: the assertions its post-state workspace must satisfy."""

    id: str
    line: int | None
    labels: tuple[str, ...]
    metadata: dict[str, Any]
    assertions: tuple[dict[str, Any], ...]
    seed: dict[str, str]
    min_score: float | None
    case_hash: str
    filename: str = ""


class AgentTaskKind:
    """`*.agent-tasks.jsonl`: tasks graded on the workspace the agent left."""

    name = "agent-tasks"
    suffixes = (TASKS_SUFFIX,)

    def load(self, path: Path, options: LoadOptions) -> Sequence[AgentTaskCase | CaseError]:
        return load_agent_tasks(path, options.max_case_bytes)

    def prediction_key(self, case: AgentTaskCase) -> str:
        return case.id

    def inline_prediction(self, case: AgentTaskCase) -> Any:
        return None

    def fields(self, case: AgentTaskCase, raw: Any) -> dict[str, Any] | None:
        """The workspace directory: from a directory source, or a path the
        `pytest_bizbench_predict` hook returned."""
        if isinstance(raw, Workspace):
            path = raw.path
        elif isinstance(raw, os.PathLike):
            path = Path(raw)
        else:
            raise PredictionShapeError(
                f"prediction for task {case.id!r} is {type(raw).__name__}, not a workspace: "
                f"give --bizbench-predictions MODEL=DIR with the workspace in DIR/{case.id}/"
            )
        if not path.is_dir():
            raise PredictionShapeError(f"workspace of task {case.id!r} is not a directory: {path}")
        return {"workspace": str(path)}

    def document(
        self, case: AgentTaskCase, model: str, fields: dict[str, Any], source: str
    ) -> ExtendedDocument:
        return ExtendedDocument(
            id=case.id,
            labels=list(case.labels),
            metadata=case.metadata,
            ground_truth={
                "verifiable_assertions": list(case.assertions),
                "workspace_seed": case.seed,
            },
            extracted_fields=fields,
            model=model,
            source=source,
        )


def load_agent_tasks(path: Path, max_bytes: int) -> list[AgentTaskCase | CaseError]:
    source, text = str(path), read_case_file(path, max_bytes)
    if isinstance(text, CaseError):
        return [text]
    seen: dict[str, int] = {}
    return [
        row if isinstance(row, CaseError) else _task(source, *row, seen)
        for row in jsonl_rows(source, text)
    ]


def _task(source: str, line: int, raw: Any, seen: dict[str, int]) -> AgentTaskCase | CaseError:
    if not isinstance(raw, dict):
        return CaseError(source, line, f"a task must be an object, got {type_name(raw)}")
    task_id = raw.get("task_id")
    if not is_case_id(task_id):
        return CaseError(source, line, id_problem(task_id, "task_id"))
    if any(c in task_id for c in "/\\\0") or task_id in (".", ".."):
        return CaseError(
            source,
            line,
            f'"task_id" {task_id!r} must be a plain name: it names the workspace directory',
            task_id,
        )
    if task_id in seen:
        return CaseError(
            source, line, f"duplicate task_id {task_id!r} (first at line {seen[task_id]})", task_id
        )
    seen[task_id] = line
    problems: list[str] = []
    assertions = _assertions(raw.get("verifiable_assertions"), problems)
    seed = _seed(raw.get("workspace_seed"), problems)
    labels, metadata = _tags(raw.get("tags"), problems)
    min_score = min_score_of(raw, problems)
    if problems:
        return CaseError(source, line, "; ".join(problems), task_id)
    return AgentTaskCase(
        id=task_id,
        line=line,
        labels=labels,
        metadata=metadata,
        assertions=tuple(assertions),
        seed=seed,
        min_score=min_score,
        case_hash=content_hash(raw),
    )


def _assertions(raw: Any, problems: list[str]) -> list[dict[str, Any]]:
    if not isinstance(raw, list) or not raw:
        problems.append(
            'missing required key "verifiable_assertions"'
            if raw is None
            else f'"verifiable_assertions" must be a non-empty list, got {describe(raw)}'
        )
        return []
    for index, assertion in enumerate(raw):
        where = f"verifiable_assertions[{index}]"
        problem = _assertion_problem(assertion)
        if problem:
            problems.append(f"{where}: {problem}")
    return list(raw)


def _assertion_problem(assertion: Any) -> str | None:
    if not isinstance(assertion, dict):
        return f"must be an object, got {type_name(assertion)}"
    kind = assertion.get("kind")
    if not isinstance(kind, str) or not kind:
        return f'"kind" must be a non-empty string, got {describe(kind)}'
    if kind not in KNOWN_KINDS:
        return None  # graded as failed: "unknown kind: <k>"
    path = assertion.get("path")
    if not isinstance(path, str) or not path.strip() or "\0" in path:
        return f'"path" must be a non-empty string, got {describe(path)}'
    if kind == "file_contents_contain":
        needle = assertion.get("must_contain")
        if not (
            isinstance(needle, str)
            or (isinstance(needle, list) and needle and all(isinstance(n, str) for n in needle))
        ):
            return f'"must_contain" must be a string or a list of strings, got {describe(needle)}'
    if kind == "file_contents_match_regex":
        pattern = assertion.get("regex")
        if not isinstance(pattern, str):
            return f'"regex" must be a string, got {describe(pattern)}'
        try:
            regex.compile(pattern)
        except regex.error as exc:
            return f"invalid regex {pattern!r}: {exc}"
    return None


def _seed(raw: Any, problems: list[str]) -> dict[str, str]:
    if raw is None:
        return {}
    files = raw.get("files", {}) if isinstance(raw, dict) else None
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        problems.append('"workspace_seed" must be {"files": {path: text}}')
        return {}
    return dict(files)


def _tags(raw: Any, problems: list[str]) -> tuple[tuple[str, ...], dict[str, Any]]:
    if raw is None:
        return (), {}
    if isinstance(raw, dict):
        return (), dict(raw)
    if isinstance(raw, list) and all(isinstance(t, str) for t in raw):
        return tuple(raw), {}
    problems.append(f'"tags" must be a list of strings or an object, got {type_name(raw)}')
    return (), {}


@dataclass(frozen=True, slots=True)
class RunRecord:
    """One agent run, reduced to what the per-model summary counts."""

    model: str
    task_id: str | None
    status: str
    success: bool
    wall_seconds: float | None
    turns: int | None
    tool_calls: int | None
    tool_format_errors: int | None
    tokens: float | None


def load_agent_runs(path: Path, max_bytes: int, layout: RunFields) -> list[RunRecord | CaseError]:
    source, text = str(path), read_case_file(path, max_bytes)
    if isinstance(text, CaseError):
        return [text]
    default_model = path.name.removesuffix(RUNS_SUFFIX)
    results: list[RunRecord | CaseError] = []
    for row in jsonl_rows(source, text):
        if isinstance(row, CaseError):
            results.append(row)
            continue
        line, value = row
        try:
            results.append(_record(value, layout, default_model))
        except InputError as err:
            results.append(CaseError(source, line, err.message))
    return results


def _number(value: Any, what: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise InputError(f"{what} must be a non-negative number, got {describe(value)}")
    return float(value)


def _tokens(value: Any, path: str) -> float | None:
    """A turn's tokens: a number, or an object of numbers (input, output, ...) summed."""
    if isinstance(value, Mapping):
        parts = [_number(v, f"turn {path!r}.{k}") for k, v in value.items()]
        return sum(p for p in parts if p is not None)
    return _number(value, f"turn {path!r}")


def _record(raw: Any, layout: RunFields, default_model: str) -> RunRecord:
    if not isinstance(raw, dict):
        raise InputError(f"a run record must be an object, got {type_name(raw)}")
    status = dig(raw, layout.status)
    if not isinstance(status, str) or not status:
        raise InputError(f"{layout.status!r} must be a non-empty string, got {describe(status)}")
    model = dig(raw, layout.model)
    if model is not None and (not isinstance(model, str) or not model):
        raise InputError(f"{layout.model!r} must be a non-empty string, got {describe(model)}")
    task_id = dig(raw, layout.task_id)
    if task_id is not None and not isinstance(task_id, str):
        raise InputError(f"{layout.task_id!r} must be a string, got {describe(task_id)}")
    turns_raw = dig(raw, layout.turns)
    turns: int | None = None
    tool_calls = format_errors = None
    tokens: float | None = None
    if isinstance(turns_raw, list):
        turns, tool_calls, format_errors = len(turns_raw), 0, 0
        for turn in turns_raw:
            action = dig(turn, layout.action)
            tool_calls += action in layout.tool_call
            format_errors += action in layout.tool_format_error
            count = _tokens(dig(turn, layout.tokens), layout.tokens)
            if count is not None:
                tokens = (tokens or 0.0) + count
    elif turns_raw is not None:
        count = _number(turns_raw, f"{layout.turns!r}")
        if count is None or count != int(count):
            raise InputError(f"{layout.turns!r} must be a list of turns or a whole number")
        turns = int(count)
    return RunRecord(
        model=model or default_model,
        task_id=task_id,
        status=status,
        success=status in layout.success,
        wall_seconds=_number(dig(raw, layout.wall_seconds), f"{layout.wall_seconds!r}"),
        turns=turns,
        tool_calls=tool_calls,
        tool_format_errors=format_errors,
        tokens=tokens,
    )
