"""Threshold syntax, metric paths and gate reasons."""

from __future__ import annotations

import pytest

from pytest_bizbench.gate.thresholds import evaluate_thresholds, gate_reasons, resolve_metric
from pytest_bizbench.options.thresholds import Threshold, parse_threshold
from pytest_bizbench.report.records import Completeness
from pytest_bizbench.report.tables import threshold_table


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("field-accuracy:accuracy>=0.9", ("field-accuracy", None, "accuracy", ">=", 0.9)),
        (
            "field-accuracy:model_b:per_field_accuracy.total >= 0.95",
            ("field-accuracy", "model_b", "per_field_accuracy.total", ">=", 0.95),
        ),
        ("b:rule_high-value.accuracy < 1", ("b", None, "rule_high-value.accuracy", "<", 1.0)),
        ("  b : m : x  >  0.5 ", ("b", "m", "x", ">", 0.5)),
        ("b:x<=1e-2", ("b", None, "x", "<=", 0.01)),
        ("b:x>=.5", ("b", None, "x", ">=", 0.5)),
        ("b:x>-2.", ("b", None, "x", ">", -2.0)),
        ("b:x<+1E1", ("b", None, "x", "<", 10.0)),
        # a model's name may hold ':' (an Ollama tag); a benchmark's and a metric's may not
        ("qa-answer:llama3:8b:accuracy>=0.5", ("qa-answer", "llama3:8b", "accuracy", ">=", 0.5)),
        ("b:a:b:c:x>=1", ("b", "a:b:c", "x", ">=", 1.0)),
    ],
)
def test_parse_threshold(text: str, expected: tuple[object, ...]) -> None:
    t = parse_threshold(text)
    assert (t.benchmark, t.model, t.metric, t.op, t.value) == expected


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("accuracy>=0.9", "expected BENCH[:MODEL]:METRIC OP VALUE"),
        ("a:b=1", "expected BENCH[:MODEL]:METRIC OP VALUE"),
        ("a:b>=high", "'high' is not a number"),
        ("a:b>=nan", "'nan' is not a number"),
        ("a:b>=inf", "'inf' is not a number"),
        ("a:b>=1e999", "must be finite"),
        # what `float` takes but a config file should not: `0_5` read as 5.0, other digits
        ("a:b>=0_5", "'0_5' is not a number"),
        ("a:b>=\u0660.\u0669", "is not a number"),
        ("a:b>=0x1", "'0x1' is not a number"),
        ("a::b>=1", "expected BENCH[:MODEL]:METRIC OP VALUE"),
        ("a:b:>=1", "expected BENCH[:MODEL]:METRIC OP VALUE"),
        (":m:b>=1", "expected BENCH[:MODEL]:METRIC OP VALUE"),
    ],
)
def test_bad_thresholds(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match="bad threshold") as info:
        parse_threshold(text)
    assert problem in str(info.value)


def test_resolve_metric_dotted_paths_and_dotted_keys() -> None:
    metrics = {
        "accuracy": 0.5,
        "per_field_accuracy": {"total": 0.25, "buyer.name": 0.75},
        "rule_high-value": {"accuracy": 1.0},
    }
    assert resolve_metric(metrics, "accuracy") == 0.5
    assert resolve_metric(metrics, "per_field_accuracy.total") == 0.25
    assert resolve_metric(metrics, "per_field_accuracy.buyer.name") == 0.75
    assert resolve_metric(metrics, "rule_high-value.accuracy") == 1.0
    assert resolve_metric(metrics, "per_field_accuracy.nope") is None
    assert resolve_metric(metrics, "accuracy.deeper") is None


def test_evaluate_thresholds_every_model_when_none_named() -> None:
    metrics = {("fa", "v1"): {"accuracy": 0.8}, ("fa", "v2"): {"accuracy": 0.95}}
    results = evaluate_thresholds([parse_threshold("fa:accuracy>=0.9")], metrics)
    assert [(r.model, r.actual, r.passed) for r in results] == [
        ("v1", 0.8, False),
        ("v2", 0.95, True),
    ]
    assert results[0].describe() == "fa:v1:accuracy = 0.8000, needs >= 0.9"


@pytest.mark.parametrize(
    ("text", "note"),
    [
        ("other:accuracy>=0.1", "no such benchmark"),
        ("fa:v9:accuracy>=0.1", "no such model"),
        ("fa:recall>=0.1", "no such metric (top-level metrics: accuracy, fields, groups)"),
        ("fa:groups>=0.1", "metric is not a number"),
        (
            "fa:fields.total.precision>=0.1",
            "fields.total.precision has no value: nothing was counted for it in this run",
        ),
    ],
)
def test_unknown_targets_fail_with_a_note(text: str, note: str) -> None:
    metrics = {
        ("fa", "v1"): {"accuracy": 0.8, "groups": {}, "fields": {"total": {"precision": None}}}
    }
    (result,) = evaluate_thresholds([parse_threshold(text)], metrics)
    assert not result.passed
    assert result.actual is None
    assert result.note == note


@pytest.mark.parametrize(
    ("op", "value", "passed"),
    [
        (">=", 0.5, True),
        (">", 0.5, False),
        ("<=", 0.5, True),
        ("<", 0.5, False),
        (">", 0.4999, True),
        ("<", 0.5001, True),
    ],
)
def test_operators_at_the_boundary(op: str, value: float, passed: bool) -> None:
    t = Threshold("fa", None, "accuracy", op, value, "")
    (result,) = evaluate_thresholds([t], {("fa", "m"): {"accuracy": 0.5}})
    assert result.passed is passed


def test_gate_reasons_list_thresholds_then_incompleteness() -> None:
    completeness = Completeness(
        filtered=False,
        collected=10,
        not_run=2,
        interrupted=False,
        scored=7,
        errors=({"nodeid": "a::x", "message": "a.json:3: duplicate id"},),
        missing=({"message": "no prediction for x (model m)"},),
    )
    results = evaluate_thresholds(
        [parse_threshold("fa:accuracy>=0.9")], {("fa", "m"): {"accuracy": 0.5}}
    )
    assert not completeness.complete
    assert gate_reasons(results, completeness, ["compute() broke"]) == [
        "threshold not met: fa:m:accuracy = 0.5000, needs >= 0.9",
        "compute() broke",
        "incomplete run: 2 of 10 selected items never ran (stopped early)",
        "incomplete run: 1 error",
        "  error: a.json:3: duplicate id",
        "incomplete run: 1 missing prediction",
        "  missing: no prediction for x (model m)",
    ]


def test_identical_completeness_messages_are_listed_once_with_a_count() -> None:
    same = {"nodeid": "a.jsonl::x", "message": "prediction file p.jsonl:2: malformed JSON"}
    other = {"nodeid": "a.jsonl::y", "message": "benchmark 'b' raised KeyError: 'k'"}
    completeness = Completeness(
        filtered=False,
        collected=4,
        not_run=0,
        interrupted=False,
        scored=1,
        errors=(same, other, {**same, "nodeid": "a.jsonl::z"}),
        missing=(),
    )
    assert completeness.reasons() == [
        "incomplete run: 3 errors",
        "  error: prediction file p.jsonl:2: malformed JSON (2 times)",
        "  error: benchmark 'b' raised KeyError: 'k'",
    ]


def test_the_threshold_table_says_a_threshold_without_a_value_has_none() -> None:
    metrics = {("fa", "v1"): {"accuracy": 0.8, "fields": {"total": {"f1": None}}}}
    results = evaluate_thresholds(
        [parse_threshold("fa:accuracy>=0.9"), parse_threshold("fa:fields.total.f1>=0.5")], metrics
    )
    _, rows = threshold_table(results)
    assert [row[2:] for row in rows] == [["0.8000", "FAIL"], ["—", "FAIL, no value"]]
