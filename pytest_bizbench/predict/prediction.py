"""One case's prediction, from a prediction file, the case itself, or the live hook
(whose answers the cache keeps), shaped into the fields of its case kind."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from pytest_bizbench.cases.kinds import Case, CaseKind
from pytest_bizbench.cases.model import PredictionShapeError
from pytest_bizbench.predict.cache import PredictionCache
from pytest_bizbench.predict.sources import Predictions

PredictHook = Callable[[Any, str], Any]
RUNS_KEY = "runs"


@dataclass(frozen=True, slots=True)
class TimedPrediction:
    """A live answer that carries its own latency and token usage: a call made ahead of
    its item (the `llm:` source) is timed where it ran, not where it is collected."""

    prediction: Any
    latency_ms: float
    usage: dict[str, int] | None = None


@dataclass(frozen=True, slots=True)
class Prediction:
    """A case's prediction: the fields of each run (one for a plain prediction)."""

    found: bool
    runs: tuple[dict[str, Any], ...] = ()
    latency_ms: float | None = None
    error: str | None = None
    usage: dict[str, int] | None = None


def _runs(raw: Any) -> list[Any]:
    """The runs of a repeated prediction `{"runs": [p1, p2, ...]}` (an object with
    that one key, a non-empty list); any other prediction is one run."""
    if isinstance(raw, dict) and list(raw) == [RUNS_KEY]:
        runs = raw[RUNS_KEY]
        if isinstance(runs, list) and runs:
            return runs
    return [raw]


def _shaped(kind: CaseKind, case: Case, raw: Any, latency: float | None = None) -> Prediction:
    """The prediction's runs as the kind's fields. A kind whose predictions already
    hold samples (QA answers) has `merge_runs(case, runs)`, which makes the runs one
    prediction with all their samples, so its own sample statistics see them all."""
    shaped = [kind.fields(case, run) for run in _runs(raw)]
    runs = tuple(fields for fields in shaped if fields is not None)
    if len(shaped) > 1 and len(runs) < len(shaped):
        empty = ", ".join(str(i) for i, fields in enumerate(shaped, 1) if fields is None)
        raise PredictionShapeError(
            f"prediction for {case.id!r}: run {empty} of {len(shaped)} holds no prediction"
        )
    merge = getattr(kind, "merge_runs", None)
    if merge is not None and len(runs) > 1:
        runs = (merge(case, list(runs)),)
    return Prediction(bool(runs), runs, latency)


def predict(
    kind: CaseKind,
    case: Case,
    model: str,
    predictions: Predictions,
    hook: PredictHook | None,
    *,
    cache: PredictionCache | None = None,
) -> Prediction:
    """Look up a prediction: files, then inline, then the live hook, whose
    answers `cache` keeps when given.

    Raises PredictionError when a prediction file cannot be read, and
    PredictionShapeError when a prediction has the wrong shape.
    """
    found, raw = predictions.lookup(model, kind.prediction_key(case))
    if found:
        return _shaped(kind, case, raw)
    inline = kind.inline_prediction(case)
    if inline is not None:
        return _shaped(kind, case, inline)
    if hook is None:
        return Prediction(False)
    cached = cache.get(model, case.case_hash) if cache is not None else None
    if cached is not None:
        return _shaped(kind, case, cached.prediction, cached.latency_ms)
    start = time.perf_counter()
    try:
        raw = hook(case, model)
    except Exception as exc:
        latency = (time.perf_counter() - start) * 1000.0
        return Prediction(True, (), latency, f"{type(exc).__name__}: {exc}")
    latency = (time.perf_counter() - start) * 1000.0
    usage = None
    if isinstance(raw, TimedPrediction):
        raw, latency, usage = raw.prediction, raw.latency_ms, raw.usage
    if raw is None:
        return Prediction(False, (), latency)
    try:
        shaped = _shaped(kind, case, raw, latency)
    except PredictionShapeError as exc:
        return Prediction(True, (), latency, f"pytest_bizbench_predict: {exc}")
    if cache is not None:
        cache.put(model, case.id, case.case_hash, raw, latency)
    return replace(shaped, usage=usage) if usage is not None else shaped
