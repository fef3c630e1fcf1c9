"""`review-assessment`: a requirement's verdict and its cited evidence against the
golden record.

compliance  yes/partial/no is an ordinal scale: equal 1.0, one step off 0.5, two
            steps off 0.0; `not_applicable` is off the scale: equal 1.0, else 0.0.
            A predicted verdict is read case-insensitively, with `-` or a space for
            `_` (`Not applicable`); anything else (missing, `maybe`, a boolean)
            scores 0.0.
evidence    each golden part weighs 2.0 (primary) or 1.0 (supporting) and earns
            a multiplier by the role the prediction cited it in: the same role 1.0,
            primary cited as supporting 0.5, supporting cited as primary 0.75, not
            cited 0.0. Score = weighted credit / total weight; null when the
            requirement has no golden parts. A cited part is a golden part when its
            id is the golden id or, for an id the golden record does not know, when
            its text holds the golden part (EXACT or BROAD, `scoring.passages`). A
            cited part may so stand for several golden parts; a golden part cited
            in both roles takes the better multiplier.
combined    0.5 x compliance + 0.5 x evidence; compliance alone without evidence.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from pytest_bizbench.cases.golden import PRIMARY, SUPPORTING, evidence_parts
from pytest_bizbench.maths.figures import mean
from pytest_bizbench.options.types import PassageThresholds
from pytest_bizbench.scoring.passages import classify, passage_text
from pytest_bizbench.sdk import BenchmarkPlugin, ExtendedDocument, ScoredDocument, by_id

if TYPE_CHECKING:
    from pytest_bizbench.benchmarks import ModelRungs
    from pytest_bizbench.options.settings import Settings

ORDINAL = {"yes": 2, "partial": 1, "no": 0}
NOT_APPLICABLE = "not_applicable"
ROLE = {PRIMARY: "primary", SUPPORTING: "supporting"}
WEIGHTS = {PRIMARY: 2.0, SUPPORTING: 1.0}
# (golden block, block the prediction cited the part in) -> share of the part's weight
MULTIPLIERS = {
    (PRIMARY, PRIMARY): 1.0,
    (SUPPORTING, SUPPORTING): 1.0,
    (PRIMARY, SUPPORTING): 0.5,
    (SUPPORTING, PRIMARY): 0.75,
}
COMPLIANCE_WEIGHT = 0.5
COMPONENT_METRICS = ("mean_compliance_score", "mean_evidence_score", "accuracy")


def read_verdict(value: Any) -> str | None:
    """A predicted verdict as one of the four values, or None when it is none of them."""
    if not isinstance(value, str):
        return None
    verdict = "_".join(value.strip().casefold().replace("-", " ").split())
    return verdict if verdict in ORDINAL or verdict == NOT_APPLICABLE else None


def compliance_score(expected: str, actual: Any) -> tuple[float, str | None]:
    """(score, reason when the prediction is no verdict at all)."""
    verdict = read_verdict(actual)
    if verdict is None:
        return 0.0, "missing" if actual is None else "not-a-verdict"
    if NOT_APPLICABLE in (expected, verdict):
        return (1.0 if verdict == expected else 0.0), None
    return 1.0 - abs(ORDINAL[expected] - ORDINAL[verdict]) / 2.0, None


def evidence_score(
    golden: Mapping[str, Any], predicted: Mapping[str, Any], thresholds: PassageThresholds
) -> tuple[float | None, dict[str, dict[str, Any]], list[str]]:
    """(score or None, per golden part breakdown, cited ids that matched no golden part)."""
    parts, cited = evidence_parts(golden), evidence_parts(predicted)
    if not parts:
        return None, {}, sorted({part_id for part_id, _, _ in cited})
    golden_ids = {part_id for part_id, _, _ in parts}
    texts = [(i, block, passage_text(part)) for i, block, part in cited if i not in golden_ids]
    by_text = [(i, block, text) for i, block, text in texts if text]
    used: set[str] = set()
    breakdown: dict[str, dict[str, Any]] = {}
    for part_id, block, part in parts:
        # (multiplier, cited block, how it was matched, cited id)
        candidates = [
            (MULTIPLIERS[block, cited_block], cited_block, "id", part_id)
            for cited_id, cited_block, _ in cited
            if cited_id == part_id
        ]
        text = passage_text(part)
        for cited_id, cited_block, cited_text in by_text:
            match = classify(text, cited_text, thresholds)
            if match.hit:
                candidates.append(
                    (MULTIPLIERS[block, cited_block], cited_block, match.category, cited_id)
                )
        entry: dict[str, Any] = {
            "score": 0.0,
            "expected": ROLE[block],
            "actual": None,
            "rung": "evidence",
            "weight": WEIGHTS[block],
        }
        if candidates:
            credit, cited_block, how, cited_id = max(candidates, key=lambda c: c[0])
            used.update(c[3] for c in candidates)
            entry.update(score=credit, actual=ROLE[cited_block], matched_by=how)
            if cited_id != part_id:
                entry["cited_as"] = cited_id
        else:
            entry["reason"] = "not cited"
        breakdown[part_id] = entry
    total = math.fsum(WEIGHTS[block] for _, block, _ in parts)
    earned = math.fsum(e["weight"] * e["score"] for e in breakdown.values())
    extra = sorted({part_id for part_id, _, _ in cited} - used)
    return earned / total, breakdown, extra


def _verdict(scored: ScoredDocument | None) -> str | None:
    """The verdict a model gave, as read for scoring (its raw value if unreadable)."""
    if scored is None:
        return None
    actual = (scored.details.get("verdict") or {}).get("actual")
    return read_verdict(actual) or (None if actual is None else str(actual))


class ReviewAssessment(BenchmarkPlugin):
    """Verdict and evidence of each requirement; see the module docstring."""

    name = "review-assessment"
    version = "1.0.0"
    description = "Verdict (compliance) and cited evidence of each reviewed requirement."
    target_labels: ClassVar[list[str]] = ["*"]
    metric_unit = "combined score (0.5 compliance + 0.5 evidence)"
    headline_metric = "mean_combined_score"
    case_type = "golden-assessment"

    @classmethod
    def from_settings(cls, settings: Settings, rungs: ModelRungs) -> ReviewAssessment:
        """The built-in as a run's settings configure it."""
        return cls(settings.review.thresholds)

    def __init__(self, thresholds: PassageThresholds | None = None) -> None:
        self.thresholds = thresholds or PassageThresholds()

    def score(self, document: ExtendedDocument) -> ScoredDocument:
        golden, predicted = document.ground_truth, document.extracted_fields
        expected = golden["assessment"]
        actual = predicted.get("assessment")
        compliance, reason = compliance_score(expected, actual)
        evidence, parts, extra = evidence_score(golden, predicted, self.thresholds)
        combined = (
            compliance
            if evidence is None
            else COMPLIANCE_WEIGHT * compliance + (1 - COMPLIANCE_WEIGHT) * evidence
        )
        verdict: dict[str, Any] = {
            "score": compliance,
            "expected": expected,
            "actual": actual,
            "rung": "compliance",
        }
        if reason:
            verdict["reason"] = reason
        details: dict[str, Any] = {
            "compliance": compliance,
            "evidence": evidence,
            "combined": combined,
            "verdict": verdict,
        }
        if evidence is not None:
            details["evidence_parts"] = {"score": evidence, "rung": "nested", "fields": parts}
        if extra:
            details["extra_parts"] = extra
        shown = read_verdict(actual) or ("no verdict" if actual is None else repr(actual))
        note = f"verdict {shown}, expected {expected}"
        details["note"] = note if evidence is None else f"{note}, evidence {evidence:.2f}"
        return ScoredDocument(document, combined, details)

    def missing_details(self, document: ExtendedDocument) -> dict[str, Any]:
        """Scored as a prediction that says nothing: compliance 0, every part missed."""
        return self.score(document).details

    def scoring_config(self) -> dict[str, Any]:
        return {
            **super().scoring_config(),
            "compliance_weight": COMPLIANCE_WEIGHT,
            "part_weights": {ROLE[b]: w for b, w in WEIGHTS.items()},
            "role_multipliers": {f"{ROLE[g]}->{ROLE[c]}": m for (g, c), m in MULTIPLIERS.items()},
            "passage_thresholds": self.thresholds.as_dict(),
        }

    def compute(self, scored: list[ScoredDocument]) -> dict[str, Any]:
        metrics = super().compute(scored)
        metrics.pop("per_field_accuracy", None)
        ordered = list(by_id(scored))  # read in several passes: each parsed once
        compliance = [float(s.details.get("compliance") or 0.0) for s in ordered]
        evidence = [
            float(s.details["evidence"]) for s in ordered if s.details.get("evidence") is not None
        ]
        per_requirement = {}
        for s in ordered:
            verdict = s.details.get("verdict") or {}
            per_requirement[s.document.id] = {
                "expected": verdict.get("expected"),
                "actual": verdict.get("actual"),
                "compliance": s.details.get("compliance"),
                "evidence": s.details.get("evidence"),
                "combined": s.score,
                "parts": {
                    part_id: part.get("score")
                    for part_id, part in (
                        (s.details.get("evidence_parts") or {}).get("fields") or {}
                    ).items()
                },
            }
        metrics.update(
            mean_combined_score=mean([s.score for s in ordered]),
            mean_compliance_score=mean(compliance),
            mean_evidence_score=mean(evidence) if evidence else None,
            # compliance is 1.0 exactly when the verdicts are equal
            accuracy=mean([1.0 if c == 1.0 else 0.0 for c in compliance]),
            total_requirements=len(ordered),
            per_requirement=per_requirement,
        )
        return metrics

    def compare_models(
        self,
        a_metrics: Mapping[str, Any],
        b_metrics: Mapping[str, Any],
        a_scored: list[ScoredDocument],
        b_scored: list[ScoredDocument],
    ) -> dict[str, Any]:
        """The generic pair comparison plus each requirement's verdict and score under
        both models (`requirements`), shown as a table side by side."""
        result = super().compare_models(a_metrics, b_metrics, a_scored, b_scored)
        a_by_id = {s.document.id: s for s in a_scored}
        b_by_id = {s.document.id: s for s in b_scored}
        rows: dict[str, dict[str, Any]] = {}
        for doc_id in sorted(a_by_id.keys() | b_by_id.keys()):
            a, b = a_by_id.get(doc_id), b_by_id.get(doc_id)
            expected = next(
                (s.details.get("verdict", {}).get("expected") for s in (a, b) if s), None
            )
            rows[doc_id] = {
                "expected": expected,
                "a": _verdict(a),
                "b": _verdict(b),
                "a_score": a.score if a else None,
                "b_score": b.score if b else None,
                "delta": b.score - a.score if a and b else None,
            }
        result["models"] = {
            key: scored[0].document.model if scored else None
            for key, scored in (("a", a_scored), ("b", b_scored))
        }
        result["requirements"] = rows
        return result

    def compare(
        self, baseline_metrics: Mapping[str, Any], candidate_metrics: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The headline comparison plus `component_deltas` of compliance, evidence
        and verdict accuracy."""
        result = super().compare(baseline_metrics, candidate_metrics)
        deltas = {}
        for key in COMPONENT_METRICS:
            base, cand = baseline_metrics.get(key), candidate_metrics.get(key)
            if isinstance(base, (int, float)) and isinstance(cand, (int, float)):
                deltas[key] = {"baseline": base, "candidate": cand, "delta": cand - base}
        result["component_deltas"] = deltas
        return result
