"""`field-accuracy`: every ground-truth field scored by the field ladder."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from pytest_bizbench.options.field_rules import FieldRules, RulesError, parse_rules
from pytest_bizbench.scoring import FieldLadder, LadderConfig
from pytest_bizbench.scoring.ladder import COUNT_KEYS
from pytest_bizbench.sdk import BenchmarkPlugin, ExtendedDocument, ScoredDocument

if TYPE_CHECKING:
    from pytest_bizbench.benchmarks import ModelRungs
    from pytest_bizbench.options.settings import Settings

SUB_SCORES = ("completeness", "correctness", "quality")
NO_MODEL_RUNGS_NOTE = "scoring used exact+fuzzy only"


class FieldAccuracy(BenchmarkPlugin):
    """Mean field score of an extraction against its ground truth.

    Subclass and set `NUMERIC_FIELDS`, `DATE_FIELDS` or `FREE_TEXT_FIELDS` to force
    how a field is compared; the ini keys of the same names add to them. `FIELD_RULES`
    (the shape of a rules file, `options/field_rules.py`) sets rules per field path; the
    rules file of ini `bizbench_field_rules` overrides it key by key.

    Metrics add `fields` (per field path over the documents: tp, fd, fn, fa, tn,
    precision = tp / (tp + fd + fa), recall = tp / (tp + fd + fn), f1; null on a zero
    denominator; `total` sums every path) and `field_f1` (the micro F1 of `total`).
    """

    name = "field-accuracy"
    version = "1.0.0"
    description = "Share of ground-truth fields the extraction got right, field by field."
    target_labels: ClassVar[list[str]] = ["*"]
    metric_unit = "mean field score"
    NUMERIC_FIELDS: ClassVar[frozenset[str]] = frozenset()
    DATE_FIELDS: ClassVar[frozenset[str]] = frozenset()
    FREE_TEXT_FIELDS: ClassVar[frozenset[str]] = frozenset()
    FIELD_RULES: ClassVar[dict[str, Any]] = {}
    _detail_means = SUB_SCORES  # their means, in compute()'s one pass over the documents

    @classmethod
    def from_settings(cls, settings: Settings, rungs: ModelRungs) -> FieldAccuracy:
        """The built-in as a run's settings and model hooks configure it."""
        rules = cls.field_rules()
        if settings.field_rules is not None:
            rules = rules.merged(settings.field_rules)
        ladder = FieldLadder(
            cls.ladder_config(settings.ladder), embed=rungs.embed, judge=rungs.judge, rules=rules
        )
        return cls(ladder)

    def __init__(self, ladder: FieldLadder | None = None) -> None:
        self.ladder = ladder or FieldLadder(
            self.ladder_config(LadderConfig()), rules=self.field_rules()
        )

    @classmethod
    def field_rules(cls) -> FieldRules:
        """The class's `FIELD_RULES`; a usage error naming the class when wrong."""
        try:
            return parse_rules(cls.FIELD_RULES, f"{cls.__qualname__}.FIELD_RULES")
        except RulesError as exc:
            import pytest

            raise pytest.UsageError(str(exc)) from None

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
            "field_rules": self.ladder.rules.as_config(),
        }
        if not {"embedding", "judge"} & set(rungs):
            result["scoring_note"] = NO_MODEL_RUNGS_NOTE
        return result

    def compute(self, scored: list[ScoredDocument]) -> dict[str, Any]:
        sums: dict[str, list[int]] = {}
        total = [0] * len(COUNT_KEYS)
        metrics = self._metrics(scored, lambda document: _add_counts(sums, total, document.details))
        fields = {_shown_path(path): _rates(row) for path, row in sorted(sums.items())}
        fields["total"] = _rates(total)
        metrics["fields"] = fields
        metrics["field_f1"] = fields["total"]["f1"]
        return metrics


def _add_counts(sums: dict[str, list[int]], total: list[int], details: Mapping[str, Any]) -> None:
    """One document's `field_counts` added into the sums by path, and its
    `field_total` into the total: the report may keep only a document's first paths,
    never its total."""
    whole = details.get("field_total")
    for k, key in enumerate(COUNT_KEYS):
        value = whole.get(key) if isinstance(whole, dict) else None
        total[k] += value if isinstance(value, int) and not isinstance(value, bool) else 0
    counts = details.get("field_counts")
    for path, row in counts.items() if isinstance(counts, dict) else ():
        if isinstance(row, dict):
            into = sums.setdefault(path, [0] * len(COUNT_KEYS))
            for k, key in enumerate(COUNT_KEYS):
                into[k] += int(row.get(key, 0))


def _shown_path(path: str) -> str:
    """A field path as `fields` names it: a field called `total` becomes `.total`,
    so the sum over every path keeps its name."""
    return "." + path if path == "total" else path


def _rates(row: list[int]) -> dict[str, Any]:
    """Counts with precision, recall and F1 (None where a denominator is zero)."""
    tp, fd, fn, fa, _ = row
    precision = tp / (tp + fd + fa) if tp + fd + fa else None
    recall = tp / (tp + fd + fn) if tp + fd + fn else None
    f1 = None
    if precision is not None and recall is not None:
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        **dict(zip(COUNT_KEYS, row, strict=True)),
        "precision": precision,
        "recall": recall,
        "f1": f1,
    }
