"""`review-retrieval`: did the system's retrieval find the golden evidence? (SPEC §5.3)

Scores a requirement whose prediction carries `retrieved`, a ranked list of parts.
Each golden part takes the best category over the retrieved parts (EXACT, BROAD,
NARROW, WEAK, MISS; `scoring.passages`); recall = (EXACT + BROAD) / golden parts
is the document's score. A golden part's hit rank is the rank of the first
retrieved part that is a hit for it: recall@k counts golden parts hit within the
top k, and the reciprocal rank is 1 / the rank of the first retrieved part that is
a hit for any golden part (0 without one).

Not applicable, so the item is skipped: a prediction without `retrieved` (the
system did not report its retrieval; an empty list is scored, as nothing found)
and a requirement without golden parts (nothing to find). A missing prediction
still fails, with every golden part a MISS.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pytest_bizbench.cases.golden import evidence_parts
from pytest_bizbench.figures import mean
from pytest_bizbench.scoring.passages import (
    CATEGORIES,
    HITS,
    MISS,
    PassageMatch,
    PassageThresholds,
    better,
    classify,
    passage_text,
)
from pytest_bizbench.sdk import (
    BenchmarkPlugin,
    ExtendedDocument,
    NotApplicable,
    ScoredDocument,
    by_id,
)

DEFAULT_RECALL_AT = (1, 5, 10)
# ini key -> (help, default); read by settings into a ReviewConfig
REVIEW_INI = {
    "bizbench_retrieval_exact": (
        "similarity from which two evidence passages are the same (EXACT).",
        "0.95",
    ),
    "bizbench_retrieval_contain": (
        "containment from which one passage holds another (BROAD/NARROW).",
        "0.90",
    ),
    "bizbench_retrieval_weak": ("containment from which passages overlap (WEAK).", "0.60"),
    "bizbench_recall_at": ("ranks k of the recall@k metrics, e.g. 1,5,10.", "1,5,10"),
}


@dataclass(frozen=True, slots=True)
class ReviewConfig:
    """Passage thresholds (both review benchmarks) and the k of recall@k."""

    thresholds: PassageThresholds = field(default_factory=PassageThresholds)
    recall_at: tuple[int, ...] = DEFAULT_RECALL_AT

    @classmethod
    def from_ini(cls, values: Mapping[str, str]) -> ReviewConfig:
        """Read the `REVIEW_INI` keys; ValueError naming the key for a bad value."""
        numbers = {}
        for name in ("exact", "contain", "weak"):
            key = f"bizbench_retrieval_{name}"
            try:
                numbers[name] = float(values[key])
            except ValueError:
                raise ValueError(f"ini {key} = {values[key]!r} is not a number") from None
        thresholds = PassageThresholds(**numbers)
        problem = thresholds.problem()
        if problem:
            raise ValueError(f"ini bizbench_retrieval_*: {problem}")
        raw = values["bizbench_recall_at"]
        try:
            ks = sorted({int(k) for k in raw.replace(",", " ").split()})
        except ValueError:
            ks = []
        if not ks or ks[0] < 1:
            raise ValueError(f"ini bizbench_recall_at = {raw!r} must list positive integers")
        return cls(thresholds, tuple(ks))


class ReviewRetrieval(BenchmarkPlugin):
    """Recall of golden evidence among the retrieved parts; see the module docstring."""

    name = "review-retrieval"
    version = "1.0.0"
    description = "Share of golden evidence parts the system's retrieval found (EXACT or BROAD)."
    target_labels: ClassVar[list[str]] = ["*"]
    metric_unit = "share of golden parts retrieved"
    headline_metric = "recall"
    case_type = "golden-assessment"

    def __init__(self, config: ReviewConfig | None = None) -> None:
        self.config = config or ReviewConfig()

    def score(self, document: ExtendedDocument) -> ScoredDocument:
        retrieved = document.extracted_fields.get("retrieved")
        if retrieved is None:
            raise NotApplicable(
                f"{document.id}: the prediction of model {document.model} has no "
                "'retrieved' parts to score"
            )
        golden = evidence_parts(document.ground_truth)
        if not golden:
            raise NotApplicable(f"{document.id}: no golden evidence parts to retrieve")
        texts = [passage_text(part) for part in retrieved]
        parts: dict[str, dict[str, Any]] = {}
        for part_id, _, part in golden:
            text = passage_text(part)
            best, best_rank, hit_rank = PassageMatch(MISS, 0.0, 0.0), None, None
            for rank, candidate in enumerate(texts, start=1):
                match = classify(text, candidate, self.config.thresholds)
                if better(match, best):
                    best, best_rank = match, rank
                if match.hit and hit_rank is None:
                    hit_rank = rank
            parts[part_id] = {
                "category": best.category,
                "rank": best_rank,
                "hit_rank": hit_rank,
                "similarity": round(best.similarity, 4),
                "containment": round(best.containment, 4),
            }
        return ScoredDocument(document, *self._summary(parts, len(retrieved)))

    def _summary(
        self, parts: dict[str, dict[str, Any]], retrieved: int
    ) -> tuple[float, dict[str, Any]]:
        n = len(parts)
        hit_ranks = [p["hit_rank"] for p in parts.values() if p["hit_rank"] is not None]
        recall = sum(1 for p in parts.values() if p["category"] in HITS) / n
        first = min(hit_ranks, default=None)
        details = {
            "recall": recall,
            "categories": {part_id: p["category"] for part_id, p in parts.items()},
            "recall_at": {
                str(k): sum(1 for r in hit_ranks if r <= k) / n for k in self.config.recall_at
            },
            "first_hit_rank": first,
            "reciprocal_rank": 1.0 / first if first else 0.0,
            "retrieved": retrieved,
            "parts": parts,
            "note": ", ".join(f"{part_id} {p['category']}" for part_id, p in parts.items()),
        }
        return recall, details

    def missing_details(self, document: ExtendedDocument) -> dict[str, Any]:
        """Every golden part a MISS; `recall` null when there is nothing to find."""
        golden = evidence_parts(document.ground_truth)
        if not golden:
            return {"recall": None, "categories": {}}
        miss = {"category": MISS, "rank": None, "hit_rank": None}
        return self._summary({part_id: dict(miss) for part_id, _, _ in golden}, 0)[1]

    def scoring_config(self) -> dict[str, Any]:
        return {
            **super().scoring_config(),
            "passage_thresholds": self.config.thresholds.as_dict(),
            "recall_at": list(self.config.recall_at),
        }

    def compute(self, scored: list[ScoredDocument]) -> dict[str, Any]:
        ordered = by_id(scored)
        defined = [s for s in ordered if s.details.get("recall") is not None]
        counts = dict.fromkeys(CATEGORIES, 0)
        for s in ordered:
            for category in (s.details.get("categories") or {}).values():
                counts[category] = counts.get(category, 0) + 1
        golden_parts = sum(counts.values())
        metrics: dict[str, Any] = {
            "recall": mean([float(s.details["recall"]) for s in defined]),
            "micro_recall": (sum(counts[c] for c in HITS) / golden_parts if golden_parts else 0.0),
            "category_counts": counts,
            "mrr": mean([float(s.details.get("reciprocal_rank") or 0.0) for s in defined]),
            "total_requirements": len(ordered),
            "total_golden_parts": golden_parts,
            "total_documents": len(ordered),
        }
        for k in self.config.recall_at:
            metrics[f"recall_at_{k}"] = mean(
                [float((s.details.get("recall_at") or {}).get(str(k), 0.0)) for s in defined]
            )
        return metrics
