"""The case types the plugin collects, and how each meets its prediction.

A case kind says which files it reads, how it loads them into cases, under which
key a case's prediction is filed, and how a case and its prediction become the
`ExtendedDocument` every benchmark scores. Adding a case type means adding a kind
here; collection, evaluation and aggregation stay as they are.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pytest_bizbench.options.types import LoadOptions

if TYPE_CHECKING:
    from pytest_bizbench.cases.model import CaseError
    from pytest_bizbench.sdk import ExtendedDocument


class Case(Protocol):
    """What collection, evaluation and the report need of any case."""

    @property
    def id(self) -> str: ...
    @property
    def line(self) -> int | None: ...
    @property
    def labels(self) -> tuple[str, ...]: ...
    @property
    def metadata(self) -> dict[str, Any]: ...
    @property
    def filename(self) -> str: ...
    @property
    def min_score(self) -> float | None: ...
    @property
    def case_hash(self) -> str: ...


class CaseKind(Protocol):
    """One case type: its files, its loader, and its side of the prediction lookup."""

    @property
    def name(self) -> str:
        """The `case_type` of the benchmarks that score these cases."""
        ...

    @property
    def suffixes(self) -> tuple[str, ...]:
        """File name endings of this kind (`.ground-truth.jsonl`)."""
        ...

    def load(self, path: Path, options: LoadOptions) -> Sequence[Case | CaseError]: ...

    def prediction_key(self, case: Any) -> str:
        """The id the case's prediction is filed under in prediction sources."""
        ...

    def inline_prediction(self, case: Any) -> Any:
        """A prediction carried in the case file itself, or None."""
        ...

    def fields(self, case: Any, raw: Any) -> dict[str, Any] | None:
        """The case's prediction from a raw one: None when it holds nothing for this
        case; PredictionShapeError when its shape is wrong."""
        ...

    def document(
        self, case: Any, model: str, fields: dict[str, Any], source: str
    ) -> ExtendedDocument: ...


def case_models(kind: CaseKind, case: Any, models: tuple[str, ...]) -> tuple[str, ...]:
    """The models a case is scored for: the run's, or the one a kind whose cases name
    their own model (`case_model(case)`, a trajectory's) gives."""
    own = getattr(kind, "case_model", None)
    return models if own is None else (own(case),)


@dataclass(frozen=True, slots=True)
class KindSpec:
    """A case kind as collection first needs it: its name and file endings, and
    where its code lives (`module:Class`), imported when a file of it is collected."""

    name: str
    suffixes: tuple[str, ...]
    path: str
    own_model: bool = False  # each case names the model it is scored for (`case_model`)


AGENT_TASK = "agent-tasks"
RUNS_SUFFIX = ".agent-runs.jsonl"

KIND_SPECS: tuple[KindSpec, ...] = (
    KindSpec(
        "ground-truth",
        (".ground-truth.json", ".ground-truth.jsonl"),
        "pytest_bizbench.cases.ground_truth:GroundTruthKind",
    ),
    KindSpec(AGENT_TASK, (".agent-tasks.jsonl",), "pytest_bizbench.cases.agent:AgentTaskKind"),
    KindSpec(
        "golden-assessment",
        (".golden-assessment.yml", ".golden-assessment.yaml"),
        "pytest_bizbench.cases.golden:GoldenAssessmentKind",
    ),
    KindSpec("qa", (".qa.jsonl",), "pytest_bizbench.cases.qa:QAKind"),
    KindSpec(
        "trajectory",
        (".trajectory.jsonl",),
        "pytest_bizbench.cases.trajectory:TrajectoryKind",
        own_model=True,
    ),
)


OWN_MODEL_KINDS = frozenset(k.name for k in KIND_SPECS if k.own_model)


@cache
def load_kind(spec: KindSpec) -> CaseKind:
    """The kind's code, imported once per process."""
    module_name, _, attr = spec.path.partition(":")
    kind: CaseKind = getattr(importlib.import_module(module_name), attr)()
    return kind


def spec_for(path: Path) -> KindSpec | None:
    """The kind that reads this file, by its name's ending, without importing it."""
    name = path.name
    return next((k for k in KIND_SPECS if name.endswith(k.suffixes)), None)


def kind_for(path: Path) -> CaseKind | None:
    """The kind that reads this file, its loader imported on first use."""
    spec = spec_for(path)
    return None if spec is None else load_kind(spec)
