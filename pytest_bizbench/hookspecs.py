"""Hook specifications the plugin adds to pytest (registered via `pytest_addhooks`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from pytest_bizbench.sdk import BenchmarkPlugin


def pytest_bizbench_add_benchmarks(config: pytest.Config) -> list[BenchmarkPlugin | type]:
    """Return benchmarks (instances or classes) to register for this run.

    Called once per process (controller and each xdist worker) when the session
    starts, so a conftest that implements it registers its benchmarks everywhere.
    Classes are validated and instantiated without arguments.
    """
    raise NotImplementedError


@pytest.hookspec(firstresult=True)
def pytest_bizbench_predict(case: Any, model: str, config: pytest.Config) -> Any:
    """Return the system's prediction for one case and model, or None for "no answer".

    Called on the process that runs the item, only when no prediction file and no
    inline `extracted_fields` provide one. `case` is the loaded case (for ground
    truth a `GroundTruthCase`). The first non-None result wins; its wall latency is
    recorded as the document's `latency_ms`. An exception fails that item with
    `details.error` = `"<Type>: <message>"`; the other items go on.

    For a QA row `case` is a `QACase`: ask the model `case.prompt` (the question,
    after the evidence when open book, ini `bizbench_open_book`), or build your own
    from `case.question`, `case.evidence`, `case.passage` and `case.tags`. Return
    `{"answer": str}`, `{"answers": [str, ...]}` (several samples), a string or a
    list of strings. For any case type, `{"runs": [prediction, ...]}` is several
    runs of the same case, each scored.
    """
    raise NotImplementedError


@pytest.hookspec(firstresult=True)
def pytest_bizbench_embed(texts: list[str]) -> list[list[float]] | None:
    """Return one embedding vector per text, for the ladder's `embedding` rung.

    Implementing this hook turns the rung on: two strings whose cosine similarity
    reaches the strictness count as equal. It wins over ini `bizbench_embedding_model`.
    """
    raise NotImplementedError


@pytest.hookspec(firstresult=True)
def pytest_bizbench_judge(field: str, expected: Any, actual: Any) -> float | None:
    """Return a 0-100 grade of `actual` against `expected` for one field.

    Implementing this hook turns on the ladder's `judge` rung, used for strings
    that no cheaper rung matched. `pytest_bizbench.Judge.parse_score` reads a
    judge model's raw text into that number. For a QA answer (`qa-answer`, a gold
    answer that is text), `field` is the question, `expected` the gold answer and
    `actual` the model's answer; `Judge.qa_prompt` builds the prompt for that.
    It wins over ini `bizbench_judge_model` (the built-in judge on the endpoint).
    """
    raise NotImplementedError
