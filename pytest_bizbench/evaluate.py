"""Scoring one case with one benchmark for one model: prediction, score, payload.

Runs on whichever process runs the item. It knows nothing of pytest; the live
prediction hook arrives as a plain callable.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pytest_bizbench.cases import GroundTruthCase
from pytest_bizbench.payload import ERROR, MISSING, SCORED, DocumentPayload
from pytest_bizbench.predictions import PredictionError, Predictions, fields_of
from pytest_bizbench.sdk import (
    BenchmarkPlugin,
    ExtendedDocument,
    RegexTimeout,
    check_scored,
    lookup_field,
)

PredictHook = Callable[[GroundTruthCase, str], Any]


@dataclass(frozen=True, slots=True)
class Prediction:
    found: bool
    fields: dict[str, Any]
    latency_ms: float | None = None
    error: str | None = None


def predict(
    case: GroundTruthCase, model: str, predictions: Predictions, hook: PredictHook | None
) -> Prediction:
    """Look up a prediction: files, then inline fields, then the live hook (SPEC §3).

    Raises PredictionError when a prediction file cannot be read.
    """
    found, raw = predictions.lookup(model, case.id)
    if found:
        fields = fields_of(raw)
        if fields is None:
            raise PredictionError(
                f"prediction for {case.id!r} (model {model}) is {type(raw).__name__}, "
                "not an object of fields"
            )
        return Prediction(True, fields)
    if case.extracted_fields is not None:
        return Prediction(True, case.extracted_fields)
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
    fields = fields_of(raw)
    if fields is None:
        return Prediction(
            True, {}, latency, f"pytest_bizbench_predict returned {type(raw).__name__}"
        )
    return Prediction(True, fields, latency)


def document_for(
    case: GroundTruthCase, model: str, fields: dict[str, Any], source: str
) -> ExtendedDocument:
    return ExtendedDocument(
        id=case.id,
        filename=case.filename,
        labels=list(case.labels),
        metadata=case.metadata,
        content=case.content,
        ground_truth=case.ground_truth,
        extracted_fields=fields,
        model=model,
        source=source,
    )


def _group_key(benchmark: BenchmarkPlugin, document: ExtendedDocument) -> str | None:
    if benchmark.group_by is None:
        return None
    value = lookup_field(document, benchmark.group_by)
    if value is None or isinstance(value, (dict, list)):
        return "unknown"
    return str(value)


def evaluate(
    case: GroundTruthCase,
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
        prediction = predict(case, model, predictions, hook)
    except PredictionError as exc:
        return payload(ERROR, None, message=str(exc))
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
    document = document_for(case, model, prediction.fields, source)
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
