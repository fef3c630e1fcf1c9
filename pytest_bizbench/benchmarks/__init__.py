"""Built-in benchmarks, and their identities known without importing their code.

The registry reads `BUILTINS` at start-up; a built-in's module (and the scoring
code it needs: `rapidfuzz`, `regex`, a refusal catalog) is imported only when a
case it targets is collected, or when its results are reported.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_bizbench.scoring.ladder import Embedder, JudgeFn
    from pytest_bizbench.scoring.refusal import NonAnswerJudge
    from pytest_bizbench.sdk import BenchmarkPlugin


@dataclass(frozen=True, slots=True)
class BuiltinSpec:
    """What the registry needs of a built-in before importing it; `path` is
    `module:Class`, a class with a `from_settings(settings, rungs)` constructor."""

    name: str
    case_type: str
    path: str
    target_labels: tuple[str, ...] = ("*",)
    asks_models: bool = False  # scores with the model rungs (`ModelRungs`)

    def load(self) -> type[BenchmarkPlugin]:
        """The built-in's class, its module imported now."""
        module_name, _, attr = self.path.partition(":")
        cls: type[BenchmarkPlugin] = getattr(importlib.import_module(module_name), attr)
        return cls


@dataclass(frozen=True, slots=True)
class ModelRungs:
    """The model-backed rungs of a run, for the built-ins that use them: the conftest
    hooks, else the endpoint's models (each judge with its own rubric)."""

    embed: Embedder | None = None
    judge: JudgeFn | None = None  # field values
    qa_judge: JudgeFn | None = None  # QA answers
    nonanswer_judge: NonAnswerJudge | None = None  # QA's undetermined path; None: from the judge


BUILTINS: tuple[BuiltinSpec, ...] = (
    BuiltinSpec(
        "field-accuracy",
        "ground-truth",
        "pytest_bizbench.benchmarks.field_accuracy:FieldAccuracy",
        asks_models=True,
    ),
    BuiltinSpec("agent-fs", "agent-tasks", "pytest_bizbench.benchmarks.agent_fs:AgentFs"),
    BuiltinSpec(
        "qa-answer", "qa", "pytest_bizbench.benchmarks.qa_answer:QAAnswer", asks_models=True
    ),
    BuiltinSpec(
        "review-assessment",
        "golden-assessment",
        "pytest_bizbench.benchmarks.review_assessment:ReviewAssessment",
    ),
    BuiltinSpec(
        "review-retrieval",
        "golden-assessment",
        "pytest_bizbench.benchmarks.review_retrieval:ReviewRetrieval",
    ),
    BuiltinSpec("trajectory", "trajectory", "pytest_bizbench.benchmarks.trajectory:Trajectory"),
)
