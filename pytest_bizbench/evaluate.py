"""Scoring one case with one benchmark for one model: prediction, score, payload.

Runs on whichever process runs the item. It knows nothing of pytest; the live
prediction hook arrives as a plain callable.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pytest_bizbench.casekinds import Case, CaseKind, PredictionShapeError
from pytest_bizbench.payload import ERROR, MISSING, SCORED, DocumentPayload
from pytest_bizbench.predictions import PredictionError, Predictions
from pytest_bizbench.sdk import (
    BenchmarkPlugin,
    ExtendedDocument,
    RegexTimeout,
    check_scored,
    lookup_field,
)

PredictHook = Callable[[Any, str], Any]


@dataclass(frozen=True, slots=True)
class Prediction:
    found: bool
    fields: dict[str, Any]
    latency_ms: float | None = None
    error: str | None = None


def _shaped(kind: CaseKind, case: Case, raw: Any, latency: float | None = None) -> Prediction:
    fields = kind.fields(case, raw)
    return Prediction(fields is not None, fields or {}, latency)


def predict(
    kind: CaseKind, case: Case, model: str, predictions: Predictions, hook: PredictHook | None
) -> Prediction:
    """Look up a prediction: files, then inline, then the live hook (SPEC §3).

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
        return Prediction(False, {})
    start = time.perf_counter()
    try:
        raw = hook(case, model)
    except Exception as exc:
        latency = (time.perf_counter() - start) * 1000.0
        return Prediction(True, {}, latency, f"{type(exc).__name__}: {exc}")
    latency = (time.perf_counter() - start) * 1000.0
    if raw is None:
        return Prediction(False, {}, latency)
    try:
        return _shaped(kind, case, raw, latency)
    except PredictionShapeError as exc:
        return Prediction(True, {}, latency, f"pytest_bizbench_predict: {exc}")


def _group_key(benchmark: BenchmarkPlugin, document: ExtendedDocument) -> str | None:
    if benchmark.group_by is None:
        return None
    value = lookup_field(document, benchmark.group_by)
    if value is None or isinstance(value, (dict, list)):
        return "unknown"
    return str(value)


def evaluate(
    kind: CaseKind,
    case: Case,
    benchmark: BenchmarkPlugin,
    model: str,
    *,
    source: str,
    predictions: Predictions,
    hook: PredictHook | None,
    regex_timeout: float,
) -> DocumentPayload:
    """The payload of one item; never raises for a bad prediction or benchmark."""

    def payload(status: str, score: float | None, **extra: Any) -> DocumentPayload:
        return DocumentPayload(
            status=status,
            benchmark=benchmark.name,
            model=model,
            id=case.id,
            case=source,
            case_hash=case.case_hash,
            score=score,
            labels=case.labels,
            metadata=case.metadata,
            filename=case.filename,
            line=case.line,
            **extra,
        )

    try:
        prediction = predict(kind, case, model, predictions, hook)
    except (PredictionError, PredictionShapeError) as exc:
        return payload(ERROR, None, message=f"{exc} (model {model})")
    latency = {"latency_ms": prediction.latency_ms}
    if prediction.error is not None:
        return payload(
            MISSING,
            0.0,
            details={"error": prediction.error},
            message=f"prediction hook failed for {case.id} (model {model}): {prediction.error}",
            **latency,
        )
    if not prediction.found:
        return payload(
            MISSING, 0.0, message=f"no prediction for {case.id} (model {model})", **latency
        )
    document = kind.document(case, model, prediction.fields, source)
    try:
        result = benchmark.score(document)
    except Exception as exc:
        message = f"benchmark {benchmark.name!r} raised {type(exc).__name__}: {exc}"
        return payload(ERROR, None, message=message, **latency)
    try:
        scored = check_scored(benchmark, result)
        rules = tuple(
            rule.name for rule in benchmark.MATCH_RULES if rule.matches(document, regex_timeout)
        )
    except (ValueError, RegexTimeout) as exc:
        return payload(ERROR, None, message=str(exc), **latency)
    return payload(
        SCORED,
        float(scored.score),
        details=scored.details,
        rules=rules,
        group=_group_key(benchmark, document),
        **latency,
    )
