"""Scoring one case with one benchmark for one model: prediction, score, payload.

Runs on whichever process runs the item. It knows nothing of pytest; the live
prediction hook arrives as a plain callable.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pytest_bizbench.cases.kinds import Case, CaseKind
from pytest_bizbench.cases.model import WRONG_SHAPE, ForeignFieldsError, PredictionShapeError
from pytest_bizbench.predict.cache import PredictionCache
from pytest_bizbench.predict.prediction import RUNS_KEY, PredictHook, predict
from pytest_bizbench.predict.sources import PredictionError, Predictions
from pytest_bizbench.run.failure import unscored_fields
from pytest_bizbench.run.payload import (
    ERROR,
    MISSING,
    SCORED,
    SKIPPED,
    UNKNOWN_GROUP,
    DocumentPayload,
    NotJSON,
)
from pytest_bizbench.run.usercode import UserCodeError, call, defined_at, failure
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


@dataclass(frozen=True, slots=True)
class SampleRule:
    """When one run of a repeated prediction passes (the item's pass mark), and the
    k of pass@k and pass^k."""

    pass_mark: float = 0.0
    ks: tuple[int, ...] = (1,)

    def passes(self, scored: ScoredDocument) -> bool:
        return float(scored.score) >= self.pass_mark and not unscored_fields(scored.details)


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
