"""The benchmark SDK: documents, rules, default compute/compare, validation."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import pytest

from pytest_bizbench import (
    BenchmarkPlugin,
    ExtendedDocument,
    MatchCondition,
    MatchRule,
    ScoredDocument,
)
from pytest_bizbench.sdk import (
    BenchmarkDefinitionError,
    RegexTimeout,
    check_scored,
    validate_benchmark_class,
)


def doc(doc_id: str = "d1", **kwargs: Any) -> ExtendedDocument:
    return ExtendedDocument(doc_id, **kwargs)


class Simple(BenchmarkPlugin):
    name = "simple"
    version = "1.0.0"
    description = "test benchmark"
    target_labels: ClassVar[list[str]] = ["invoice"]

    def score(self, document: ExtendedDocument) -> ScoredDocument:
        return ScoredDocument(document, 1.0, {})


def test_positional_and_keyword_constructors() -> None:
    d = ExtendedDocument("a", "a.pdf", ["x"], {"k": 1}, "text", {"f": 1}, {"f": 2}, "m", "s")
    assert (d.filename, d.labels, d.model, d.source) == ("a.pdf", ["x"], "m", "s")
    s = ScoredDocument(d, 0.5, {})
    assert s.score == 0.5
    c = MatchCondition("total", "gt", 100)
    assert MatchRule("high-value", [c], "mean") == MatchRule(
        name="high-value", conditions=[c], aggregation="mean"
    )
    with pytest.raises(AttributeError):
        d.id = "b"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("field", "op", "value", "expected"),
    [
        ("vendor", "eq", "ACME corp", True),  # strings compare case-insensitively
        ("vendor", "neq", "acme corp", False),
        ("vendor", "contains", "ACME", True),
        ("vendor", "not_contains", "globex", True),
        ("total", "gt", 100, True),
        ("total", "gte", 150, True),
        ("total", "lt", 150, False),
        ("total", "lte", "150", True),  # strings parsed as numbers
        ("amount_text", "gt", 1000, True),  # "1,500.50" parses
        ("vendor", "gt", 5, False),  # not a number never matches
        ("vendor", "regex", r"^acme\s", False),  # regex is case-sensitive
        ("vendor", "regex", r"^ACME\s", True),
        ("absent", "neq", "x", False),  # a missing field never matches
        ("absent", "not_contains", "x", False),
        ("tags", "contains", "URGENT", True),
        ("country", "eq", "de", True),  # metadata lookup
        ("model", "eq", "v2", True),  # document attribute
        ("extra", "eq", "yes", True),  # extracted fields come last
        ("total", "eq", "150", True),
    ],
)
def test_condition_operators(field: str, op: str, value: Any, expected: bool) -> None:
    d = doc(
        ground_truth={
            "vendor": "ACME Corp",
            "total": 150,
            "amount_text": "1,500.50",
            "tags": ["urgent", "q1"],
        },
        metadata={"country": "DE"},
        extracted_fields={"extra": "YES", "vendor": "ignored: ground truth wins"},
        model="v2",
    )
    assert MatchCondition(field, op, value).holds(d) is expected


def test_lookup_order_prefers_ground_truth_then_metadata() -> None:
    d = doc(
        ground_truth={"k": "gt"},
        metadata={"k": "meta", "m": "meta"},
        extracted_fields={"k": "x", "m": "x"},
    )
    assert MatchCondition("k", "eq", "gt").holds(d)
    assert MatchCondition("m", "eq", "meta").holds(d)


def test_rule_needs_all_conditions() -> None:
    rule = MatchRule(
        "big-de", [MatchCondition("total", "gt", 100), MatchCondition("country", "eq", "DE")]
    )
    assert rule.matches(doc(ground_truth={"total": 101, "country": "de"}))
    assert not rule.matches(doc(ground_truth={"total": 99, "country": "de"}))


def test_hostile_regex_times_out_naming_rule_and_field() -> None:
    rule = MatchRule("evil", [MatchCondition("text", "regex", r"(a|aa)+$")])
    d = doc(ground_truth={"text": "a" * 40 + "!"})
    with pytest.raises(RegexTimeout) as info:
        rule.matches(d, timeout=0.05)
    assert "'evil'" in str(info.value)
    assert "'text'" in str(info.value)
    assert "0.05s" in str(info.value)


@pytest.mark.parametrize(
    ("rule", "problem"),
    [
        (MatchRule("r", [MatchCondition("f", "like", 1)]), "unknown operator 'like'"),
        (MatchRule("r", [MatchCondition("f", "regex", "([a-")]), "invalid regex"),
        (MatchRule("r", [MatchCondition("f", "gt", "many")]), "needs a number"),
        (MatchRule("r", []), "at least one condition"),
        (MatchRule("r", [MatchCondition("f", "eq", 1)], "mode"), "aggregation"),  # type: ignore[arg-type]
    ],
)
def test_rule_validation(rule: MatchRule, problem: str) -> None:
    assert any(problem in p for p in rule.validate())


def scored(
    doc_id: str,
    score: float,
    details: dict[str, Any] | None = None,
    rules: tuple[str, ...] = (),
    group: str | None = None,
) -> ScoredDocument:
    return ScoredDocument(doc(doc_id), score, details or {}, rules, group)


class Grouped(Simple):
    group_by = "country"
    MATCH_RULES: ClassVar[list[MatchRule]] = [
        MatchRule("high", [MatchCondition("total", "gt", 1)], "mean"),
        MatchRule("mid", [MatchCondition("total", "gt", 1)], "median"),
    ]


def test_default_compute_by_hand() -> None:
    docs = [
        scored("c", 1.0, {"a": {"score": 1.0}, "b": {"score": 1.0}}, ("high", "mid"), "DE"),
        scored("a", 0.0, {"a": {"score": 0.0}}, ("high", "mid"), "DE"),
        scored("b", 0.5, {"a": {"score": 0.5}, "b": {"score": 0.0}}, ("mid",), None),
        scored("d", 0.25, {}, ("mid",), "FR"),
    ]
    metrics = Grouped().compute(docs)
    assert metrics["accuracy"] == pytest.approx((1.0 + 0.0 + 0.5 + 0.25) / 4)
    assert metrics["median_score"] == pytest.approx((0.25 + 0.5) / 2)  # true median
    assert (metrics["min_score"], metrics["max_score"]) == (0.0, 1.0)
    assert metrics["total_documents"] == 4
    assert (metrics["perfect_scores"], metrics["zero_scores"]) == (1, 1)
    assert metrics["per_field_accuracy"] == {"a": pytest.approx(0.5), "b": pytest.approx(0.5)}
    assert metrics["groups"] == {
        "DE": {"count": 2, "accuracy": 0.5},
        "FR": {"count": 1, "accuracy": 0.25},
        "unknown": {"count": 1, "accuracy": 0.5},
    }
    assert metrics["rule_high"] == {"count": 2, "accuracy": 0.5}
    # median of 1.0, 0.0, 0.5, 0.25 = (0.25 + 0.5) / 2
    assert metrics["rule_mid"] == {"count": 4, "accuracy": pytest.approx(0.375)}


def test_compute_empty_and_order_independent() -> None:
    assert Simple().compute([]) == {"accuracy": 0.0, "total_documents": 0}
    values = [0.1] * 7 + [0.7, 1e-17, 0.3]
    docs = [scored(f"d{i}", v) for i, v in enumerate(values)]
    forward = Simple().compute(docs)
    backward = Simple().compute(list(reversed(docs)))
    assert forward == backward
    assert forward["accuracy"] == math.fsum(values) / len(values)


@pytest.mark.parametrize(
    ("base", "cand", "verdict", "regression"),
    [
        (0.80, 0.82, "improved", False),  # +0.02 > 0.01
        (0.80, 0.805, "neutral", False),
        (0.80, 0.785, "neutral", False),  # -0.015 is within 0.02
        (0.80, 0.77, "regressed", True),  # -0.03 < -0.02
    ],
)
def test_default_compare(base: float, cand: float, verdict: str, regression: bool) -> None:
    result = Simple().compare(
        {"accuracy": base, "per_field_accuracy": {"a": 0.5}},
        {"accuracy": cand, "per_field_accuracy": {"a": 0.75, "b": 1.0}},
    )
    assert result["verdict"] == verdict
    assert result["regression"] is regression
    assert result["delta"] == pytest.approx(cand - base)
    assert result["improved"] is (cand > base)
    assert result["baseline_accuracy"] == base
    assert result["candidate_accuracy"] == cand
    assert result["per_field_deltas"]["a"] == {
        "baseline": 0.5,
        "candidate": 0.75,
        "delta": 0.25,
        "improved": True,
    }
    assert result["per_field_deltas"]["b"]["delta"] == 1.0


@pytest.mark.parametrize(
    ("result", "problem"),
    [
        ({"score": 1}, "returned dict, not a ScoredDocument"),
        (ScoredDocument(doc(), 1.5, {}), "not a finite float in [0, 1]"),
        (ScoredDocument(doc(), -0.1, {}), "not a finite float in [0, 1]"),
        (ScoredDocument(doc(), math.nan, {}), "not a finite float in [0, 1]"),
        (ScoredDocument(doc(), True, {}), "not a finite float in [0, 1]"),
        (ScoredDocument(doc(), 0.5, []), "details of type list"),  # type: ignore[arg-type]
    ],
)
def test_check_scored_rejects_garbage(result: object, problem: str) -> None:
    with pytest.raises(ValueError, match="benchmark 'simple'") as info:
        check_scored(Simple(), result)
    assert problem in str(info.value)


@pytest.mark.parametrize(
    ("attrs", "problem"),
    [
        ({"name": "Not Kebab"}, "name must be a kebab-case string"),
        ({"version": "1.0"}, "version must be a semver string"),
        ({"description": " "}, "description must be a non-empty string"),
        ({"target_labels": []}, "target_labels must be a non-empty list of strings"),
        ({"target_labels": "invoice"}, "target_labels must be a non-empty list of strings"),
        ({"min_score": 2}, "min_score must be a number in [0, 1]"),
        ({"group_by": 3}, "group_by must be a string or None"),
        ({"MATCH_RULES": [MatchRule("r", [MatchCondition("f", "regex", "(")])]}, "invalid regex"),
        ({"MATCH_RULES": "nope"}, "MATCH_RULES must be a list"),
    ],
)
def test_registration_validation_names_class_and_field(attrs: dict[str, Any], problem: str) -> None:
    bad = type("BadBench", (Simple,), attrs)
    with pytest.raises(BenchmarkDefinitionError) as info:
        validate_benchmark_class(bad)
    assert "BadBench" in str(info.value)
    assert problem in str(info.value)


def test_registration_requires_score_and_base_class() -> None:
    no_score = type(
        "NoScore",
        (BenchmarkPlugin,),
        {"name": "x", "version": "1.0.0", "description": "d", "target_labels": ["*"]},
    )
    with pytest.raises(BenchmarkDefinitionError, match="NoScore: score must be implemented"):
        validate_benchmark_class(no_score)
    with pytest.raises(BenchmarkDefinitionError, match="not a subclass of BenchmarkPlugin"):
        validate_benchmark_class(dict)
    validate_benchmark_class(Simple)  # a good one passes quietly
