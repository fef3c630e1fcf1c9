"""Agent-loop trajectories (`*.trajectory.jsonl`) and their case kind.

An agent loop that tunes a system writes one JSON record a line; the whole file is
one case, its id the file's name without `.trajectory.jsonl`. The records are the
system's output, so a trajectory is its own prediction: prediction sources and the
predict hook are never asked for it.

Never raises on bad input, and never drops a line in silence: a line that is not
JSON, not an object, names another model or holds a baseline that is not a number
is one `CaseError` at its line, and the trajectory is read from the other lines.

Decisions the format leaves open:
- An iteration is a record whose score (ini `bizbench_trajectory_score`, a dotted
  path) is a finite number; a boolean, a string or an absent score is no score.
  Such records (proposed, failed, ...) are counted by their status, `(no status)`
  when the status path holds no string.
- A path that leads nowhere means the field is absent.
- The model is the first record's `model` string, else `default`; a later record
  naming another model is an error at its line (one trajectory is one model's run).
- The baseline is the first value at the `baseline` path; one that is not a finite
  number is an error at its line.
- A mode is a string; any other value is shown as its JSON text.
- The case's content hash covers what it is judged against (its baseline value),
  not its records: they are the system's output, so a new run of the loop pairs
  with the saved baseline's instead of being stale.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_bizbench.options.types import LoadOptions, TrajectoryConfig
from pytest_bizbench.sdk import ExtendedDocument

from .checks import describe, dig, type_name
from .model import CaseError, content_hash
from .reading import jsonl_rows, read_case_file

SUFFIX = ".trajectory.jsonl"
DEFAULT_MODEL = "default"
NO_STATUS = "(no status)"


@dataclass(frozen=True, slots=True)
class Iteration:
    """A record with a score: where it is, and what the analysis reads of it."""

    line: int
    score: float
    knobs: Any  # the value at the knobs path; None when absent
    mode: str | None


@dataclass(frozen=True, slots=True)
class TrajectoryCase:
    """One trajectory: its iterations in file order and what was not an iteration."""

    id: str
    model: str
    iterations: tuple[Iteration, ...]
    skipped: dict[str, int]  # records without a score, by status
    baseline: float | None
    case_hash: str
    line: int | None = None
    labels: tuple[str, ...] = ()
    metadata: dict[str, Any] = field(default_factory=dict)
    filename: str = ""
    min_score: float | None = None


class TrajectoryKind:
    """`*.trajectory.jsonl`: a tuning loop's records, scored on their own."""

    name = "trajectory"
    suffixes = (SUFFIX,)

    def load(self, path: Path, options: LoadOptions) -> Sequence[TrajectoryCase | CaseError]:
        return load_trajectory(path, options.max_case_bytes, options.trajectory)

    def case_model(self, case: TrajectoryCase) -> str:
        """The one model a trajectory is scored for: its own, not the run's."""
        return case.model

    def prediction_key(self, case: TrajectoryCase) -> str:
        return case.id

    def inline_prediction(self, case: TrajectoryCase) -> Any:
        """The iterations: never None, so the predict hook is not asked."""
        return case.iterations

    def fields(self, case: TrajectoryCase, raw: Any) -> dict[str, Any] | None:
        """The trajectory's own iterations, whatever a prediction source holds."""
        return {
            "iterations": [
                {"line": i.line, "score": i.score, "knobs": i.knobs, "mode": i.mode}
                for i in case.iterations
            ]
        }

    def document(
        self, case: TrajectoryCase, model: str, fields: dict[str, Any], source: str
    ) -> ExtendedDocument:
        return ExtendedDocument(
            id=case.id,
            labels=list(case.labels),
            metadata=case.metadata,
            ground_truth={"baseline": case.baseline, "skipped_records": dict(case.skipped)},
            extracted_fields=fields,
            model=model,
            source=source,
        )


def load_trajectory(
    path: Path, max_bytes: int, config: TrajectoryConfig
) -> list[TrajectoryCase | CaseError]:
    """The trajectory (when any line is a record) after the errors of its bad lines."""
    source, text = str(path), read_case_file(path, max_bytes)
    if isinstance(text, CaseError):
        return [text]
    errors: list[TrajectoryCase | CaseError] = []
    records = 0
    iterations: list[Iteration] = []
    skipped: dict[str, int] = {}
    model: str | None = None
    baseline: float | None = None
    for row in jsonl_rows(source, text):
        if isinstance(row, CaseError):
            errors.append(row)
            continue
        line, raw = row
        problem = _problem(raw, model, config)
        if problem is not None:
            errors.append(CaseError(source, line, problem))
            continue
        records += 1
        model = model or dig(raw, "model")
        if baseline is None and config.baseline is not None:
            baseline = dig(raw, config.baseline)
        score = dig(raw, config.score)
        if _is_finite(score):
            iterations.append(
                Iteration(line, float(score), dig(raw, config.knobs), _mode(dig(raw, config.mode)))
            )
        else:
            status = dig(raw, config.status)
            key = status if isinstance(status, str) and status else NO_STATUS
            skipped[key] = skipped.get(key, 0) + 1
    if not records:
        return errors
    case = TrajectoryCase(
        id=path.name.removesuffix(SUFFIX),
        model=model or DEFAULT_MODEL,
        iterations=tuple(iterations),
        skipped=dict(sorted(skipped.items())),
        baseline=None if baseline is None else float(baseline),
        case_hash=content_hash({"baseline": baseline}),
    )
    return [case, *errors]


def _problem(raw: Any, model: str | None, config: TrajectoryConfig) -> str | None:
    """Why a record cannot be part of this trajectory, or None."""
    if not isinstance(raw, dict):
        return f"a trajectory record must be an object, got {type_name(raw)}"
    named = dig(raw, "model")
    if named is not None and (not isinstance(named, str) or not named):
        return f'"model" must be a non-empty string, got {describe(named)}'
    if named is not None and model is not None and named != model:
        return f"model {named!r} differs from the trajectory's model {model!r} (first record's)"
    if config.baseline is not None:
        value = dig(raw, config.baseline)
        if value is not None and not _is_finite(value):
            return f"baseline {config.baseline!r} must be a finite number, got {describe(value)}"
    return None


def _is_finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _mode(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, ensure_ascii=False)
