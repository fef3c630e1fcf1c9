"""`field-accuracy`: every ground-truth field scored by the field ladder."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from pytest_bizbench.scoring import FieldLadder, LadderConfig
from pytest_bizbench.sdk import BenchmarkPlugin, ExtendedDocument, ScoredDocument

if TYPE_CHECKING:
    from pytest_bizbench.benchmarks import ModelRungs
    from pytest_bizbench.options.settings import Settings

SUB_SCORES = ("completeness", "correctness", "quality")
NO_MODEL_RUNGS_NOTE = "scoring used exact+fuzzy only"


class FieldAccuracy(BenchmarkPlugin):
    """Mean field score of an extraction against its ground truth.

    Subclass and set `NUMERIC_FIELDS`, `DATE_FIELDS` or `FREE_TEXT_FIELDS` to force
    how a field is compared; the ini keys of the same names add to them.
    """

    name = "field-accuracy"
    version = "1.0.0"
    description = "Share of ground-truth fields the extraction got right, field by field."
    target_labels: ClassVar[list[str]] = ["*"]
    metric_unit = "mean field score"
    NUMERIC_FIELDS: ClassVar[frozenset[str]] = frozenset()
    DATE_FIELDS: ClassVar[frozenset[str]] = frozenset()
    FREE_TEXT_FIELDS: ClassVar[frozenset[str]] = frozenset()
    _detail_means = SUB_SCORES  # their means, in compute()'s one pass over the documents

    @classmethod
    def from_settings(cls, settings: Settings, rungs: ModelRungs) -> FieldAccuracy:
        """The built-in as a run's settings and model hooks configure it."""
        return cls(
            FieldLadder(cls.ladder_config(settings.ladder), embed=rungs.embed, judge=rungs.judge)
        )

    def __init__(self, ladder: FieldLadder | None = None) -> None:
        self.ladder = ladder or FieldLadder(self.ladder_config(LadderConfig()))

    @classmethod
    def ladder_config(cls, base: LadderConfig) -> LadderConfig:
        return replace(
            base,
            numeric_fields=base.numeric_fields | cls.NUMERIC_FIELDS,
            date_fields=base.date_fields | cls.DATE_FIELDS,
            free_text_fields=base.free_text_fields | cls.FREE_TEXT_FIELDS,
        )

    def score(self, document: ExtendedDocument) -> ScoredDocument:
        score, details = self.ladder.score_document(
            document.ground_truth, document.extracted_fields
        )
        return ScoredDocument(document, score, details)

    def scoring_config(self) -> dict[str, Any]:
        config = self.ladder.config
        rungs = self.ladder.rungs_available
        result = {
            **super().scoring_config(),
            "strictness": config.strictness,
            "rel_tol": config.rel_tol,
            "abs_tol": config.abs_tol,
            "date_order": config.date_order,
            "numeric_fields": sorted(config.numeric_fields),
            "date_fields": sorted(config.date_fields),
            "free_text_fields": sorted(config.free_text_fields),
            "rungs_available": rungs,
        }
        if not {"embedding", "judge"} & set(rungs):
            result["scoring_note"] = NO_MODEL_RUNGS_NOTE
        return result
