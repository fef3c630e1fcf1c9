"""`review-retrieval`: did the system's retrieval find the golden evidence?

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

from typing import TYPE_CHECKING, Any, ClassVar

from pytest_bizbench.cases.golden import evidence_parts
from pytest_bizbench.maths.figures import mean
from pytest_bizbench.options.types import ReviewConfig
from pytest_bizbench.scoring.passages import (
    CATEGORIES,
    HITS,
    MISS,
    PassageMatch,
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

if TYPE_CHECKING:
    from pytest_bizbench.benchmarks import ModelRungs
    from pytest_bizbench.options.settings import Settings


class ReviewRetrieval(BenchmarkPlugin):
    """Recall of golden evidence among the retrieved parts; see the module docstring."""

    name = "review-retrieval"
    version = "1.0.0"
    description = "Share of golden evidence parts the system's retrieval found (EXACT or BROAD)."
    target_labels: ClassVar[list[str]] = ["*"]
    metric_unit = "share of golden parts retrieved"
    headline_metric = "recall"
    case_type = "golden-assessment"

    @classmethod
    def from_settings(cls, settings: Settings, rungs: ModelRungs) -> ReviewRetrieval:
        """The built-in as a run's settings configure it."""
        return cls(settings.review)

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
        ordered = list(by_id(scored))  # read in several passes: each parsed once
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
