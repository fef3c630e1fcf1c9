"""Scoring one case with one benchmark for one model: prediction, score, payload.

Runs on whichever process runs the item. It knows nothing of pytest; the live
prediction hook arrives as a plain callable.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from pytest_bizbench.casekinds import Case, CaseKind
from pytest_bizbench.cases.model import WRONG_SHAPE, ForeignFieldsError, PredictionShapeError
from pytest_bizbench.failure import unscored_fields
from pytest_bizbench.payload import (
    ERROR,
    MISSING,
    SCORED,
    SKIPPED,
    UNKNOWN_GROUP,
    DocumentPayload,
    NotJSON,
)
from pytest_bizbench.predcache import PredictionCache
from pytest_bizbench.predictions import PredictionError, Predictions
from pytest_bizbench.scoring.passk import Spread, sample_details
from pytest_bizbench.sdk import (
    BenchmarkPlugin,
    ExtendedDocument,
    NotApplicable,
    RegexTimeout,
    ScoredDocument,
    check_scored,
    lookup_field,
)
from pytest_bizbench.usercode import UserCodeError, call, defined_at, failure

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


@dataclass(frozen=True, slots=True)
class SampleRule:
    """When one run of a repeated prediction passes (the item's pass mark), and the
    k of pass@k and pass^k."""

    pass_mark: float = 0.0
    ks: tuple[int, ...] = (1,)

    def passes(self, scored: ScoredDocument) -> bool:
        return float(scored.score) >= self.pass_mark and not unscored_fields(scored.details)


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


def _group_key(document: ExtendedDocument, name: str | None) -> str | None:
    """The value of field `name` as a group or cluster key; None without a field."""
    if name is None:
        return None
    value = lookup_field(document, name)
    if value is None or isinstance(value, (dict, list)):
        return UNKNOWN_GROUP
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
    cache: PredictionCache | None = None,
    samples: SampleRule | None = None,
    cluster_by: str | None = None,
) -> DocumentPayload:
    """The payload of one item; never raises for a bad prediction or benchmark."""

    key = kind.prediction_key(case)

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
            prediction_key=None if key == case.id else key,
            **extra,
        )

    try:
        prediction = predict(kind, case, model, predictions, hook, cache=cache)
    except ForeignFieldsError as exc:  # counted per prediction source by the controller
        message = f"{exc} (model {model})"
        return payload(ERROR, None, details={WRONG_SHAPE: True}, message=message)
    except (PredictionError, PredictionShapeError) as exc:
        return payload(ERROR, None, message=f"{exc} (model {model})")
    latency = {"latency_ms": prediction.latency_ms}
    missing: dict[str, Any] = {}
    if prediction.error is not None or not prediction.found:
        try:
            missing = call(benchmark, "missing_details", kind.document(case, model, {}, source))
        except UserCodeError as exc:
            return payload(ERROR, None, message=str(exc), **latency)
    if prediction.error is not None:
        return payload(
            MISSING,
            0.0,
            details={**missing, "error": prediction.error},
            message=f"prediction hook failed for {case.id} (model {model}): {prediction.error}",
            **latency,
        )
    if not prediction.found:
        message = f"no prediction for {case.id} (model {model})"
        return payload(MISSING, 0.0, details=missing, message=message, **latency)
    documents = [kind.document(case, model, fields, source) for fields in prediction.runs]
    try:
        results = [benchmark.score(document) for document in documents]
    except NotApplicable as exc:
        return payload(SKIPPED, None, message=str(exc), **latency)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # SystemExit too: it costs this case only
        message = f"benchmark {benchmark.name!r} raised {failure(benchmark, 'score', exc)}"
        return payload(ERROR, None, message=message, **latency)
    try:
        score, details, shown = _combine(
            [check_scored(benchmark, r) for r in results], samples or SampleRule()
        )
        document = documents[shown]
        rules = tuple(
            rule.name for rule in benchmark.MATCH_RULES if rule.matches(document, regex_timeout)
        )
    except (ValueError, RegexTimeout) as exc:
        return payload(ERROR, None, message=str(exc), **latency)
    if prediction.usage is not None:
        details = {**details, "usage": prediction.usage}
    return payload(
        SCORED,
        score,
        details=details,
        rules=rules,
        group=_group_key(document, benchmark.group_by),
        cluster=_group_key(document, cluster_by),
        **latency,
    )


def unholdable(
    payload: DocumentPayload, benchmark: BenchmarkPlugin, exc: NotJSON
) -> DocumentPayload:
    """The error payload of a case whose details JSON cannot hold (found when the
    payload is encoded): the case errs, the run and its report go on."""
    message = (
        f"benchmark {benchmark.name!r}: score() returned details JSON cannot hold: {exc} "
        f"(at {defined_at(benchmark, 'score')})"
    )
    return replace(payload, status=ERROR, score=None, details={}, message=message)


def _combine(scored: list[ScoredDocument], rule: SampleRule) -> tuple[float, dict[str, Any], int]:
    """(score, details, index of the run shown) of an item.

    One run: its own. Several runs (a repeated prediction): the mean score, and the
    details of the median-by-score run plus `runs` = `{n, passed, mean, min, max,
    shown, scores}` and the sample statistics (`flip`, pass@k, pass^k), so a reader
    sees a typical run, how far the runs spread and whether they disagree.
    """
    if len(scored) == 1:
        return float(scored[0].score), scored[0].details, 0
    scores = [float(s.score) for s in scored]
    spread = Spread.of(scores)
    passed = sum(1 for s in scored if rule.passes(s))
    summary = {
        "n": spread.n,
        "passed": passed,
        "mean": spread.mean,
        "min": spread.min,
        "max": spread.max,
        "shown": spread.shown,
        "scores": scores,
    }
    details = {
        **scored[spread.shown].details,
        RUNS_KEY: summary,
        **sample_details(spread.n, passed, rule.ks),
    }
    return spread.mean, details, spread.shown
