"""Per-process state of a run, kept in `config.stash` (never in module globals)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytest

from pytest_bizbench.predictions import Predictions
from pytest_bizbench.registry import Registry, build_registry
from pytest_bizbench.settings import Settings, read_settings

if TYPE_CHECKING:
    from pytest_bizbench.llm.runtime import LLMRuntime


@dataclass(frozen=True, slots=True)
class RunState:
    settings: Settings
    registry: Registry
    predictions: Predictions
    llm: LLMRuntime | None = None  # the endpoint, when a judge, embedding or llm: model is set


RUN_STATE = pytest.StashKey[RunState]()


def start_run(config: pytest.Config) -> RunState:
    """Read settings and build the registry; a bad option or benchmark is a UsageError."""
    settings = read_settings(config)
    llm = None
    if settings.llm.needed:  # the client's code is imported only for a run that uses it
        from pytest_bizbench.llm.runtime import open_runtime

        llm = open_runtime(config, settings.llm, settings.prediction_cache)
    state = RunState(
        settings=settings,
        registry=build_registry(config, settings, llm),
        predictions=Predictions.open(settings.predictions, settings.max_case_bytes),
        llm=llm,
    )
    config.stash[RUN_STATE] = state
    return state


def run_state(config: pytest.Config) -> RunState:
    return config.stash[RUN_STATE]
