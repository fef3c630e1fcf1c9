"""Per-process state of a run, kept in `config.stash` (never in module globals)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytest

from pytest_bizbench.options.settings import Settings, read_settings

if TYPE_CHECKING:  # the option table and `pytest --help` need none of these
    from pytest_bizbench.predict.llm.runtime import LLMRuntime
    from pytest_bizbench.predict.sources import Predictions
    from pytest_bizbench.run.registry import Registry


@dataclass(frozen=True, slots=True)
class RunState:
    settings: Settings
    registry: Registry
    predictions: Predictions
    registrars: frozenset[str] = frozenset()  # conftests whose benchmarks are registered
    llm: LLMRuntime | None = None  # the endpoint, when a judge, embedding or llm: model is set


RUN_STATE = pytest.StashKey[RunState]()
#: set by `bizbench merge`, whose session runs no items and writes its own report
MERGING = pytest.StashKey[bool]()
# the key of a worker's prediction-file summaries in xdist's `workeroutput`
PREDICTIONS_OUTPUT = "bizbench_predictions"


def is_worker(config: pytest.Config) -> bool:
    """An xdist worker: its reports cross to the controller."""
    return hasattr(config, "workerinput")


def start_run(config: pytest.Config) -> RunState:
    """Read settings and build the registry; a bad option or benchmark is a UsageError."""
    from pytest_bizbench.predict.sources import Predictions
    from pytest_bizbench.run.registry import build_registry, registering_conftests

    settings = read_settings(config)
    predictions = Predictions.open(settings.predictions, settings.max_case_bytes)
    llm = None
    if settings.llm.needed:  # the client's code is imported only for a run that uses it
        from pytest_bizbench.predict.llm.runtime import open_runtime

        llm = open_runtime(config, settings.llm, settings.prediction_cache, predictions)
    registry = build_registry(config, settings, llm)
    # a merge names what its shards lack first
    if settings.thresholds and not config.stash.get(MERGING, False):
        from pytest_bizbench.cases.kinds import OWN_MODEL_KINDS
        from pytest_bizbench.options.thresholds import check_threshold_names

        own = [n for n in registry.names if registry.case_type(n) in OWN_MODEL_KINDS]
        try:
            # names only: a built-in's code is not imported to check a threshold
            check_threshold_names(
                settings.thresholds, list(registry.names), settings.models, any_model=own
            )
        except ValueError as exc:
            raise pytest.UsageError(str(exc)) from None
    state = RunState(
        settings=settings,
        registry=registry,
        predictions=predictions,
        registrars=registering_conftests(config),
        llm=llm,
    )
    config.stash[RUN_STATE] = state
    return state


def run_state(config: pytest.Config) -> RunState:
    return config.stash[RUN_STATE]


def runs_items(config: pytest.Config) -> bool:
    """Whether this session runs case items' tests: not under --collect-only,
    --setup-only, --setup-plan (no model called, no report) or `bizbench merge`."""
    option = config.option
    return not (
        option.collectonly
        or getattr(option, "setuponly", False)
        or getattr(option, "setupplan", False)
        or config.stash.get(MERGING, False)
    )
