"""Property-based tests (hypothesis) of the scoring ladder, aggregation and the report.

Kept fast on purpose: modest example counts, no deadline (CI machines vary).
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Mapping
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_bizbench.benchmarks.field_accuracy import FieldAccuracy
from pytest_bizbench.gate.aggregate import Aggregator, metrics_by_benchmark
from pytest_bizbench.report.contract import problem
from pytest_bizbench.report.json_report import RunResult, build_report, canonical, dumps
from pytest_bizbench.report.model import Report, RunInfo
from pytest_bizbench.report.records import Completeness
from pytest_bizbench.run.payload import SCORED, DocumentPayload, jsonable
from pytest_bizbench.run.registry import Registry
from pytest_bizbench.sdk import ExtendedDocument

FAST = settings(max_examples=60, deadline=None)
BENCH = FieldAccuracy()

scalars = st.one_of(
    st.booleans(),
    st.integers(-(10**9), 10**9),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(max_size=20),
    st.dates().map(dt.date.isoformat),
    st.sampled_from(["$1,577.00", "12.5%", "(300)", "1.2 million", "yes", "no", "25 Dec 2018"]),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=8,
)
field_names = st.text(alphabet="abcdefgh_", min_size=1, max_size=6)
ground_truths = st.dictionaries(field_names, values, min_size=1, max_size=5)
# a prediction: any value per field, often the expected one, sometimes absent
predictions = st.dictionaries(field_names, st.one_of(st.none(), values), max_size=5)


def score(expected: dict[str, Any], actual: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    scored = BENCH.score(ExtendedDocument("d", ground_truth=expected, extracted_fields=actual))
    return scored.score, scored.details


@FAST
@given(ground_truths, predictions)
def test_scores_are_always_in_0_1(expected: dict[str, Any], actual: dict[str, Any]) -> None:
    value, details = score(expected, actual)
    assert math.isfinite(value)
    assert 0.0 <= value <= 1.0
    for name in expected:
        if name in details and isinstance(details[name], dict):
            assert 0.0 <= details[name]["score"] <= 1.0


@FAST
@given(ground_truths)
def test_identical_input_scores_1(expected: dict[str, Any]) -> None:
    if all(v is None for v in expected.values()):
        return  # no field to score: 0.0 by definition
    assert score(expected, expected)[0] == 1.0


def payload(doc_id: str, value: float, group: str) -> DocumentPayload:
    return DocumentPayload(
        status=SCORED,
        benchmark=BENCH.name,
        model="default",
        id=doc_id,
        case="cases/a.ground-truth.jsonl",
        case_hash="h",
        score=value,
        details={"completeness": 1.0, "correctness": value, "quality": value},
        labels=("invoice",),
        metadata={"country": group},
        group=group,
    )


# documents: unique ids with a score and a group each
documents = st.dictionaries(
    st.text(alphabet="abcdefghij0123456789-", min_size=1, max_size=8),
    st.tuples(st.floats(0.0, 1.0), st.sampled_from(["DE", "FR", "US"])),
    min_size=1,
    max_size=30,
).map(lambda d: [payload(k, s, g) for k, (s, g) in d.items()])


def aggregate(schedule: list[DocumentPayload]) -> tuple[Aggregator, dict[tuple[str, str], Any]]:
    """Feed the payloads to a controller's aggregator in the order reports arrive."""
    aggregator = Aggregator()
    for p in schedule:
        nodeid = f"{p.case}::{p.id}[{p.benchmark}]"
        aggregator.add_report(nodeid, "setup", "passed", None, "")
        aggregator.add_report(nodeid, "call", "passed", p.to_property(), "")
        aggregator.add_report(nodeid, "teardown", "passed", None, "")
    metrics, problems = metrics_by_benchmark(aggregator.by_benchmark(), Registry((BENCH,)))
    assert problems == []
    return aggregator, metrics


def as_json(aggregator: Aggregator) -> dict[tuple[str, str], list[dict[str, Any]]]:
    return {k: [d.to_json() for d in v] for k, v in aggregator.by_benchmark().items()}


def interleave(chunks: list[list[DocumentPayload]], picks: list[int]) -> list[DocumentPayload]:
    """Reports of several workers arriving interleaved, as `picks` says."""
    queues = [list(c) for c in chunks if c]
    out: list[DocumentPayload] = []
    for pick in picks + [0] * sum(map(len, queues)):
        queues = [q for q in queues if q]
        if not queues:
            break
        out.append(queues[pick % len(queues)].pop(0))
    return out


@FAST
@given(documents, st.randoms(use_true_random=False), st.integers(1, 4), st.lists(st.integers(0, 3)))
def test_aggregation_ignores_document_order_and_worker_count(
    docs: list[DocumentPayload], rnd: Any, workers: int, picks: list[int]
) -> None:
    serial_aggregator, serial = aggregate(docs)
    shuffled = list(docs)
    rnd.shuffle(shuffled)
    # round-robin distribution over `workers`, as xdist's load scheduling may do
    chunks = [shuffled[i::workers] for i in range(workers)]
    aggregator, parallel = aggregate(interleave(chunks, picks))
    assert parallel == serial  # exactly equal: fsum over documents sorted by id
    assert as_json(aggregator) == as_json(serial_aggregator)
    metrics = serial[BENCH.name, "default"]
    assert metrics["total_documents"] == len(docs)
    assert 0.0 <= metrics["accuracy"] <= 1.0
    assert metrics["min_score"] <= metrics["median_score"] <= metrics["max_score"]


@FAST
@given(documents)
def test_report_json_is_valid_and_round_trips(docs: list[DocumentPayload]) -> None:
    aggregator, metrics = aggregate(docs)
    completeness = Completeness(False, len(docs), 0, False, len(docs), (), ())
    run = RunInfo("2026-01-01T00:00:00+00:00", 1.0)
    result = RunResult(aggregator.by_benchmark(), metrics, [], completeness, [], run)
    report = build_report(result, Registry((BENCH,)))
    text = dumps(report)
    loaded = json.loads(text)
    # the documents are a lazy sequence of mappings: plain lists and dicts to json
    plain = json.dumps(
        report.to_json(), default=lambda o: dict(o) if isinstance(o, Mapping) else list(o)
    )
    assert loaded == json.loads(plain)
    assert problem(loaded) is None
    assert dumps(Report.from_json(loaded)) == text  # read back: the same text again
    documents_out = loaded["benchmarks"][BENCH.name]["models"]["default"]["documents"]
    assert [d["id"] for d in documents_out] == sorted(p.id or "" for p in docs)


odd_values = st.recursive(
    st.one_of(
        st.none(),
        st.floats(),  # NaN and infinities included
        st.decimals(),
        st.dates(),
        st.binary(max_size=8),
        st.text(max_size=10),
        st.integers(),
    ),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.frozensets(st.integers(), max_size=3)
        | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=10,
)


@FAST
@given(odd_values)
def test_any_details_become_json_that_round_trips(value: Any) -> None:
    plain = jsonable({"x": value})
    text = "".join(canonical(plain))  # allow_nan=False: raises on anything JSON cannot spell
    assert json.loads(text) == plain
