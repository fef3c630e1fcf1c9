"""Why a threshold failed: the cases that pull its metric down most.

A failed threshold names a metric; the next question is which cases to read. For a
per-field metric (`per_field_accuracy.<field>`) they are the cases that score that
field lowest, with its expected and actual values; for a refusal rate, the refused
answers with their class and text; for any other metric a threshold keeps above a
bound, the cases that score lowest. At most `MAX_CASES`, worst first, then by id.
A metric a threshold keeps below a bound (`<=`) other than a refusal rate names no
case: no score says which cases raise it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from pytest_bizbench.details import flat_entries
from pytest_bizbench.maths.figures import is_number
from pytest_bizbench.report.records import ReportDocument, ThresholdCase, ThresholdResult

MAX_CASES = 5
_PER_FIELD = "per_field_"


def explained(
    results: Sequence[ThresholdResult],
    documents: Mapping[tuple[str, str], Sequence[ReportDocument]],
) -> list[ThresholdResult]:
    """`results`, each failed one with the cases that pull its metric down."""
    return [
        r
        if r.passed or r.actual is None
        else replace(r, cases=worst_cases(r, documents.get((r.threshold.benchmark, r.model), ())))
        for r in results
    ]


def worst_cases(
    result: ThresholdResult, documents: Sequence[ReportDocument]
) -> tuple[ThresholdCase, ...]:
    metric = result.threshold.metric
    last = metric.rsplit(".", 1)[-1]
    if "refusal" in last:
        return _refused(documents)
    if result.threshold.op not in (">=", ">"):
        return ()
    head, dot, field = metric.partition(".")
    if dot and head.startswith(_PER_FIELD):
        return _lowest_field(documents, field)
    scored = [
        d for d in documents if is_number(d.payload.score) and float(d.payload.score or 0) < 1
    ]
    scored.sort(key=lambda d: (float(d.payload.score or 0.0), d.id_order()))
    return tuple(
        ThresholdCase(d.payload.case, str(d.payload.id), d.payload.score)
        for d in scored[:MAX_CASES]
    )


def _lowest_field(documents: Sequence[ReportDocument], field: str) -> tuple[ThresholdCase, ...]:
    found = []
    for d in documents:
        entry = dict(flat_entries(d.details)).get(field)
        if entry is not None and is_number(entry.get("score")) and float(entry["score"]) < 1.0:
            found.append((float(entry["score"]), d.id_order(), d, entry))
    found.sort(key=lambda row: (row[0], row[1]))
    return tuple(
        ThresholdCase(
            d.payload.case,
            str(d.payload.id),
            score,
            field=field,
            expected=entry.get("expected"),
            actual=entry.get("actual"),
            rung=str(entry.get("rung")) if entry.get("rung") is not None else None,
        )
        for score, _, d, entry in found[:MAX_CASES]
    )


def _refused(documents: Sequence[ReportDocument]) -> tuple[ThresholdCase, ...]:
    refused = sorted(
        (d for d in documents if d.details.get("refusal") is True), key=ReportDocument.id_order
    )
    cases = []
    for d in refused[:MAX_CASES]:
        details = d.details
        answer = details.get("answer")
        text = answer.get("actual") if isinstance(answer, Mapping) else details.get("refusal_cue")
        kind = details.get("refusal_class")
        cases.append(
            ThresholdCase(
                d.payload.case,
                str(d.payload.id),
                d.payload.score,
                actual=text,
                refusal_class=str(kind) if kind is not None else None,
            )
        )
    return tuple(cases)
