"""Configuration types: what the ini keys and options are read into.

They live here, below every feature module, so `settings` (which reads them) and
the case loaders, scoring and benchmarks (which use them) all import downwards
and nothing here imports a feature. Parsing a value raises ValueError naming its
ini key; `settings` turns that into `pytest.UsageError`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

DEFAULT_GROUP_PATTERN = r"^(.+?)-\d+$"
DEFAULT_MAX_FILE_BYTES = 10_000_000
DEFAULT_RECALL_AT = (1, 5, 10)
DEFAULT_MAX_LIST_ITEMS = 2000
DEFAULT_MAX_TEXT_CHARS = 20_000
ORDERS = (
    "DMY",
    "MDY",
)  # of ambiguous numeric dates; here so reading settings compiles no date regex


DEFAULT_TRAJECTORY_SCORE = "val_bpb"
TRAJECTORY_FIELDS = ("knobs", "mode", "status", "baseline")


@dataclass(frozen=True, slots=True)
class TrajectoryConfig:
    """How trajectory records are read (ini `bizbench_trajectory_*`): the score's
    path, which way is better, and the paths of the knob settings, the mode, the
    status and an optional baseline score. Every path is dotted (`eval.val_bpb`)."""

    score: str = DEFAULT_TRAJECTORY_SCORE
    lower_is_better: bool = True
    knobs: str = "config"
    mode: str = "mode"
    status: str = "status"
    baseline: str | None = None

    @classmethod
    def from_ini(
        cls, score: str, lower_is_better: bool, field_lines: Sequence[str]
    ) -> TrajectoryConfig:
        """ValueError naming the ini key of a bad value."""
        try:
            paths = name_values(field_lines, set(TRAJECTORY_FIELDS))
        except ValueError as exc:
            raise ValueError(f"ini bizbench_trajectory_fields: {exc}") from None
        return cls(score.strip() or DEFAULT_TRAJECTORY_SCORE, lower_is_better, **paths)

    def beats(self, value: float, reference: float) -> bool:
        """Strictly better: a tie does not beat."""
        return value < reference if self.lower_is_better else value > reference


@dataclass(frozen=True, slots=True)
class LoadOptions:
    """What a case loader needs of the settings."""

    max_case_bytes: int
    requirements: frozenset[str] = frozenset()  # review requirement ids kept; empty keeps all
    open_book: bool | None = None  # QA: put the row's evidence in the prompt (None: when given)
    trajectory: TrajectoryConfig = field(default_factory=TrajectoryConfig)


@dataclass(frozen=True, slots=True)
class LadderConfig:
    """How strict the ladder is, and which fields are read as numbers, dates or free text.

    The field sets force a rung by name where the ground-truth value alone does not
    say (`"1,577.00"` in a numeric field is a number); they apply at any depth, to a
    sub-field's own key and to the items of a list field.
    """

    strictness: float = 0.90
    rel_tol: float = 0.01
    abs_tol: float = 0.01
    date_order: str = "DMY"
    numeric_fields: frozenset[str] = frozenset()
    date_fields: frozenset[str] = frozenset()
    free_text_fields: frozenset[str] = frozenset()
    max_list_items: int = DEFAULT_MAX_LIST_ITEMS
    max_text_chars: int = DEFAULT_MAX_TEXT_CHARS
    bulk_lists: bool = True
    """False scores list items one pair at a time and pairs them with the pure-Python
    solver: the reference the bulk path is pinned against, and the benchmarks' "before"."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.strictness <= 1.0:
            raise ValueError(f"strictness {self.strictness!r} must be within 0..1")
        if not all(tol >= 0.0 for tol in (self.rel_tol, self.abs_tol)):
            raise ValueError(f"tolerances must be >= 0, got {self.rel_tol!r}, {self.abs_tol!r}")
        if self.date_order not in ORDERS:
            raise ValueError(f"date order {self.date_order!r} must be one of {', '.join(ORDERS)}")
        if min(self.max_list_items, self.max_text_chars) < 1:
            raise ValueError("max_list_items and max_text_chars must be >= 1")


@dataclass(frozen=True, slots=True)
class PassageThresholds:
    """Where the categories begin; see the module docstring."""

    exact: float = 0.95
    contain: float = 0.90
    weak: float = 0.60

    def as_dict(self) -> dict[str, float]:
        """The thresholds by name, as both review benchmarks report them."""
        return {"exact": self.exact, "contain": self.contain, "weak": self.weak}

    def problem(self) -> str | None:
        """Why these thresholds cannot work together, or None."""
        for name, value in self.as_dict().items():
            if not 0.0 <= value <= 1.0:
                return f"{name} threshold {value} must be between 0 and 1"
        if self.weak > self.contain:
            return f"weak threshold {self.weak} must not exceed the contain threshold"
        return None


@dataclass(frozen=True, slots=True)
class RunFields:
    """Where a run record keeps what the summary needs (ini `bizbench_agent_run_fields`).

    Record paths are dotted (`result.status`); `action` and `tokens` are paths inside
    one turn. The last three are values: statuses that count as success and the
    actions that count as tool calls and as tool-format errors.
    """

    model: str = "model"
    task_id: str = "task_id"
    status: str = "status"
    wall_seconds: str = "wall_seconds"
    turns: str = "turns"
    action: str = "action"
    tokens: str = "tokens"
    success: tuple[str, ...] = ("success",)
    tool_call: tuple[str, ...] = ("tool_call",)
    tool_format_error: tuple[str, ...] = ("tool_format_error",)

    @classmethod
    def from_lines(cls, lines: Sequence[str]) -> RunFields:
        """`name = value` lines; ValueError naming a bad line or an unknown name."""
        values: dict[str, Any] = name_values(lines, {f.name for f in fields(cls)})
        for name in ("success", "tool_call", "tool_format_error"):
            if name in values:
                values[name] = tuple(v.strip() for v in values[name].split(",") if v.strip())
        return cls(**values)


def name_values(lines: Sequence[str], names: set[str]) -> dict[str, str]:
    """The `name = value` lines of a linelist ini key; ValueError naming a bad line
    or a name not in `names`."""
    values: dict[str, str] = {}
    for line in lines:
        if not line.strip():
            continue
        name, sep, value = (part.strip() for part in line.partition("="))
        if not sep or not value:
            raise ValueError(f"{line.strip()!r} is not 'name = value'")
        if name not in names:
            raise ValueError(f"unknown field {name!r} (use one of {', '.join(sorted(names))})")
        values[name] = value
    return values


@dataclass(frozen=True, slots=True)
class AgentConfig:
    """The agent suite's ini keys, read once with the other settings."""

    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    group_pattern: str = DEFAULT_GROUP_PATTERN
    run_fields: RunFields = field(default_factory=RunFields)

    @classmethod
    def from_ini(
        cls, max_file_bytes: str, group_pattern: str, run_fields: Sequence[str]
    ) -> AgentConfig:
        """ValueError naming the ini key of a bad value."""
        try:
            cap = int(max_file_bytes.strip())
        except ValueError:
            cap = 0
        if cap < 1:
            raise ValueError(
                f"ini bizbench_agent_max_file_bytes = {max_file_bytes!r} is not a positive integer"
            )
        pattern = group_pattern.strip() or DEFAULT_GROUP_PATTERN
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ValueError(f"ini bizbench_agent_group_pattern = {pattern!r}: {exc}") from None
        try:
            layout = RunFields.from_lines(run_fields)
        except ValueError as exc:
            raise ValueError(f"ini bizbench_agent_run_fields: {exc}") from None
        return cls(cap, pattern, layout)

    def group_of(self, task_id: str) -> str:
        """The task's group: the pattern's first group (or whole match), else the id."""
        match = re.match(self.group_pattern, task_id)
        if match is None:
            return task_id
        return match[1] if match.re.groups and match[1] is not None else match[0]


# ini key -> (help, default); read by settings into a ReviewConfig
REVIEW_KEYS = (
    "bizbench_retrieval_exact",
    "bizbench_retrieval_contain",
    "bizbench_retrieval_weak",
    "bizbench_recall_at",
)


@dataclass(frozen=True, slots=True)
class ReviewConfig:
    """Passage thresholds (both review benchmarks) and the k of recall@k."""

    thresholds: PassageThresholds = field(default_factory=PassageThresholds)
    recall_at: tuple[int, ...] = DEFAULT_RECALL_AT

    @classmethod
    def from_ini(cls, values: Mapping[str, str]) -> ReviewConfig:
        """Read the `REVIEW_KEYS` ini keys; ValueError naming the key for a bad value."""
        numbers = {}
        for name in ("exact", "contain", "weak"):
            key = f"bizbench_retrieval_{name}"
            try:
                numbers[name] = float(values[key])
            except ValueError:
                raise ValueError(f"ini {key} = {values[key]!r} is not a number") from None
        thresholds = PassageThresholds(**numbers)
        problem = thresholds.problem()
        if problem:
            raise ValueError(f"ini bizbench_retrieval_*: {problem}")
        raw = values["bizbench_recall_at"]
        try:
            ks = sorted({int(k) for k in raw.replace(",", " ").split()})
        except ValueError:
            ks = []
        if not ks or ks[0] < 1:
            raise ValueError(f"ini bizbench_recall_at = {raw!r} must list positive integers")
        return cls(thresholds, tuple(ks))
