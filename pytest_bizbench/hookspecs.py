# mypy: disable-error-code="empty-body"
"""Hook specifications the plugin adds to pytest (registered via `pytest_addhooks`).

A conftest or plugin implements any of them by name; an implementation may accept
fewer parameters than the specification lists, as with pytest's own hooks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

import pytest

if TYPE_CHECKING:
    from pytest_bizbench.cases.agent import AgentTaskCase
    from pytest_bizbench.cases.golden import GoldenRequirementCase
    from pytest_bizbench.cases.model import GroundTruthCase
    from pytest_bizbench.cases.qa import QACase
    from pytest_bizbench.sdk import BenchmarkPlugin

    #: A loaded case of any kind the plugin collects.
    AnyCase: TypeAlias = GroundTruthCase | QACase | GoldenRequirementCase | AgentTaskCase

#: What a predict hook may return: fields or answers as a mapping, an answer as a
#: string, several sampled answers as a list of strings, or None for "no answer".
PredictionValue: TypeAlias = "Mapping[str, Any] | str | Sequence[str] | None"


def pytest_bizbench_add_benchmarks(config: pytest.Config) -> Sequence[BenchmarkPlugin | type]:
    """Return benchmarks to register for this run, as instances or classes.

    Called once per process (the controller and each xdist worker) when the session
    starts, so a conftest that implements it registers its benchmarks everywhere.
    Classes are validated and made without arguments; a bad one is a usage error.

    :param config: The pytest config object.
    :return: A list of `BenchmarkPlugin` instances or subclasses (may be empty).
    """


@pytest.hookspec(firstresult=True)
def pytest_bizbench_predict(case: AnyCase, model: str, config: pytest.Config) -> PredictionValue:
    """Return the system's prediction for one case and model, or None for "no answer".

    Called on the process that runs the item, only when no prediction file and no
    inline `extracted_fields` provide one. The first non-None result wins; its wall
    latency is recorded as the document's `latency_ms`. An exception fails that item
    with `details.error` = `"<Type>: <message>"`; the other items go on.

    For a QA row, ask the model `case.prompt` (the question, after the evidence when
    open book, ini `bizbench_open_book`), or build your own from `case.question`,
    `case.evidence`, `case.passage` and `case.tags`; return `{"answer": str}`,
    `{"answers": [str, ...]}` (several samples), a string or a list of strings. For
    any case type, `{"runs": [prediction, ...]}` is several runs of the same case,
    each scored.

    :param case: The loaded case: a `GroundTruthCase`, `QACase`,
        `GoldenRequirementCase` or `AgentTaskCase`, by the file it came from.
    :param model: The model name the item scores (`default` without
        `--bizbench-predictions NAME=...`).
    :param config: The pytest config object.
    :return: The prediction, or None to pass the case to the next implementation.
    """


@pytest.hookspec(firstresult=True)
def pytest_bizbench_embed(texts: list[str], config: pytest.Config) -> list[list[float]] | None:
    """Return one embedding vector per text, for the ladder's `embedding` rung.

    Implementing this hook turns the rung on: two strings whose cosine similarity
    reaches the strictness count as equal. It wins over ini `bizbench_embedding_model`.

    :param texts: The texts to embed, in order.
    :param config: The pytest config object.
    :return: As many vectors as texts, or None to leave the call to the next
        implementation.
    """


@pytest.hookspec(firstresult=True)
def pytest_bizbench_judge(
    field: str, expected: object, actual: object, config: pytest.Config
) -> float | None:
    """Return a 0-100 grade of `actual` against `expected` for one field.

    Implementing this hook turns on the ladder's `judge` rung, used for strings that
    no cheaper rung matched. `pytest_bizbench.Judge.parse_score` reads a judge
    model's raw text into that number; `Judge.qa_prompt` builds the prompt for a QA
    answer. It wins over ini `bizbench_judge_model` (the built-in judge on the
    endpoint).

    :param field: The field's dotted name; for a QA answer (`qa-answer`, a gold
        answer that is text), the question.
    :param expected: The ground truth's value (the gold answer for QA).
    :param actual: The prediction's value (the model's answer for QA).
    :param config: The pytest config object.
    :return: The grade from 0 to 100, or None to abstain (the next implementation,
        else the rung, is asked).
    """
