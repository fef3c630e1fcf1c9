"""Scoring of review cases, worked out by hand: passages, compliance, evidence, retrieval."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_bizbench.benchmarks.review_assessment import (
    ReviewAssessment,
    compliance_score,
    read_verdict,
)
from pytest_bizbench.benchmarks.review_retrieval import ReviewRetrieval
from pytest_bizbench.options.types import ReviewConfig
from pytest_bizbench.report.model import BenchmarkEntry
from pytest_bizbench.report.tables import pair_tables
from pytest_bizbench.scoring.passages import (
    BROAD,
    EXACT,
    MISS,
    NARROW,
    WEAK,
    PassageThresholds,
    classify,
    passage_text,
)
from pytest_bizbench.sdk import ExtendedDocument, NotApplicable, ScoredDocument

DEFAULTS = PassageThresholds()  # exact 0.95, contain 0.90, weak 0.60

# --- passages: each category at and just past its threshold -----------------------

G20 = "abcdefghijklmnopqrst"
NEAR20 = "abcdefghijklmnopqrsx"  # t -> x: indel distance 2 over 40 characters
G10 = "abcdefghij"
HOLDS_90 = "zzzz abcdefghiy zzzz"  # best window "abcdefghiy": 2 edits over 20 -> 0.90
HOLDS_60 = "zzzz abcdefxyzw zzzz"  # best window "abcdefxyzw": 8 edits over 20 -> 0.60


def test_passage_text_is_title_and_text_normalised() -> None:
    part = {"document": "d.pdf", "title": "7.1  Encryption", "text": "Data IS\nencrypted."}
    # f"{title}\n\n{text}", NFKC + casefold + whitespace collapsed
    assert passage_text(part) == "7.1 encryption data is encrypted."
    assert passage_text({"text": "Only text"}) == "only text"
    assert passage_text({}) == ""


def test_exact_at_its_threshold_and_broad_just_past() -> None:
    # similarity 1 - 2/40 = 0.95 = exact; containment: the 19 shared leading characters
    # against G20 give 2*19/39 = 0.974
    match = classify(G20, NEAR20, DEFAULTS)
    assert (match.category, match.similarity) == (EXACT, pytest.approx(0.95))
    assert match.containment == pytest.approx(38 / 39)
    just_past = PassageThresholds(exact=0.951)
    assert classify(G20, NEAR20, just_past).category == BROAD  # equal length: holds it


def test_broad_at_its_threshold_and_weak_just_past() -> None:
    match = classify(G10, HOLDS_90, DEFAULTS)
    # similarity 2*9/30 = 0.60 (9 letters shared of 10 + 20); containment 0.90
    assert (match.category, match.similarity, match.containment) == (
        BROAD,
        pytest.approx(0.6),
        pytest.approx(0.9),
    )
    assert classify(G10, HOLDS_90, PassageThresholds(contain=0.901)).category == WEAK


def test_narrow_is_broad_the_other_way_round() -> None:
    assert classify(HOLDS_90, G10, DEFAULTS).category == NARROW  # retrieved is the piece
    assert classify(HOLDS_90, G10, PassageThresholds(contain=0.901)).category == WEAK


def test_weak_at_its_threshold_and_miss_just_past() -> None:
    match = classify(G10, HOLDS_60, DEFAULTS)
    # similarity 2*6/30 = 0.40; containment 2*6/20 = 0.60
    assert (match.category, match.similarity, match.containment) == (
        WEAK,
        pytest.approx(0.4),
        pytest.approx(0.6),
    )
    assert classify(G10, HOLDS_60, PassageThresholds(weak=0.601)).category == MISS


def test_empty_text_is_a_miss_and_matching_is_symmetric() -> None:
    assert classify("", G10, DEFAULTS).category == MISS
    assert classify(G10, "", DEFAULTS).category == MISS
    ab, ba = classify(G10, HOLDS_90, DEFAULTS), classify(HOLDS_90, G10, DEFAULTS)
    assert (ab.similarity, ab.containment) == (ba.similarity, ba.containment)


def test_thresholds_that_cannot_work_together_are_refused() -> None:
    assert PassageThresholds(weak=0.95).problem() == (
        "weak threshold 0.95 must not exceed the contain threshold"
    )
    assert PassageThresholds(exact=1.5).problem() == "exact threshold 1.5 must be between 0 and 1"
    with pytest.raises(ValueError, match="ini bizbench_retrieval_exact = 'x' is not a number"):
        ReviewConfig.from_ini(ini(exact="x"))
    with pytest.raises(ValueError, match="ini bizbench_recall_at = '0,5' must list positive"):
        ReviewConfig.from_ini(ini(recall_at="0,5"))
    assert ReviewConfig.from_ini(ini(recall_at="10 1, 5,5")).recall_at == (1, 5, 10)


def ini(**given: str) -> dict[str, str]:
    values = {"exact": "0.95", "contain": "0.90", "weak": "0.60", "recall_at": "1,5,10"}
    values.update(given)
    return {
        "bizbench_retrieval_exact": values["exact"],
        "bizbench_retrieval_contain": values["contain"],
        "bizbench_retrieval_weak": values["weak"],
        "bizbench_recall_at": values["recall_at"],
    }


# --- compliance: all 16 verdict pairs ------------------------------------------

VERDICTS = ("yes", "partial", "no", "not_applicable")
# expected (row) x predicted (column): the ordinal scale, not_applicable off it
TABLE = {
    "yes": (1.0, 0.5, 0.0, 0.0),
    "partial": (0.5, 1.0, 0.5, 0.0),
    "no": (0.0, 0.5, 1.0, 0.0),
    "not_applicable": (0.0, 0.0, 0.0, 1.0),
}


@pytest.mark.parametrize(
    ("expected", "actual", "score"),
    [(e, a, TABLE[e][i]) for e in VERDICTS for i, a in enumerate(VERDICTS)],
)
def test_compliance_of_every_verdict_pair(expected: str, actual: str, score: float) -> None:
    assert compliance_score(expected, actual) == (score, None)


@pytest.mark.parametrize(
    ("value", "verdict"),
    [
        ("Yes", "yes"),
        (" PARTIAL ", "partial"),
        ("Not applicable", "not_applicable"),
        ("not-applicable", "not_applicable"),
        ("n/a", None),
        ("maybe", None),
        (True, None),
        (None, None),
    ],
)
def test_a_predicted_verdict_is_read_leniently_but_not_guessed(value: Any, verdict: str) -> None:
    assert read_verdict(value) == verdict


def test_no_verdict_scores_zero_with_a_reason() -> None:
    assert compliance_score("yes", None) == (0.0, "missing")
    assert compliance_score("no", False) == (0.0, "not-a-verdict")


# --- evidence: every role transition -------------------------------------------

P1 = {"document": "dpa.pdf", "title": "7.1 Encryption", "text": "Customer data is encrypted."}
S1 = {"document": "annex.pdf", "title": "Annex II", "text": "Keys are rotated every year."}


def document(
    golden: dict[str, Any], predicted: dict[str, Any] | None, doc_id: str = "b/R1"
) -> ExtendedDocument:
    gt = {"primary_evidence": {}, "supporting_evidence": {}, "rationale": None, **golden}
    pred = dict(predicted or {})
    for block in ("primary_evidence", "supporting_evidence"):
        cited = pred.get(block, {})  # the case kind reads a list of ids as parts without text
        pred[block] = {key: {} for key in cited} if isinstance(cited, list) else cited
    return ExtendedDocument(id=doc_id, ground_truth=gt, extracted_fields=pred, model="m")


ASSESS = ReviewAssessment()


@pytest.mark.parametrize(
    ("golden_block", "cited_block", "evidence"),
    [
        ("primary_evidence", "primary_evidence", 1.0),  # same role
        ("primary_evidence", "supporting_evidence", 0.5),  # primary cited as supporting
        ("primary_evidence", None, 0.0),  # not cited
        ("supporting_evidence", "supporting_evidence", 1.0),
        ("supporting_evidence", "primary_evidence", 0.75),  # supporting cited as primary
        ("supporting_evidence", None, 0.0),
    ],
)
def test_each_role_transition(golden_block: str, cited_block: str | None, evidence: float) -> None:
    cited = {cited_block: {"p1": {}}} if cited_block else {}
    scored = ASSESS.score(
        document({"assessment": "yes", golden_block: {"p1": P1}}, {"assessment": "yes", **cited})
    )
    assert scored.details["evidence"] == evidence
    # combined = 0.5 x compliance 1.0 + 0.5 x evidence
    assert scored.score == pytest.approx(0.5 + 0.5 * evidence)


def test_weights_primary_two_supporting_one() -> None:
    golden = {
        "assessment": "yes",
        "primary_evidence": {"p1": P1},
        "supporting_evidence": {"s1": S1},
    }
    swapped = {"assessment": "partial", "primary_evidence": ["s1"], "supporting_evidence": ["p1"]}
    scored = ASSESS.score(document(golden, swapped))
    # (2 x 0.5 + 1 x 0.75) / 3 = 1.75 / 3; compliance yes vs partial 0.5
    assert scored.details["evidence"] == pytest.approx(1.75 / 3)
    assert scored.details["compliance"] == 0.5
    assert scored.score == pytest.approx(0.5 * 0.5 + 0.5 * 1.75 / 3)
    parts = scored.details["evidence_parts"]["fields"]
    assert parts["p1"] == {
        "score": 0.5,
        "expected": "primary",
        "actual": "supporting",
        "rung": "evidence",
        "weight": 2.0,
        "matched_by": "id",
    }
    assert parts["s1"]["score"] == 0.75
    only_supporting = ASSESS.score(
        document(golden, {"assessment": "yes", "supporting_evidence": ["s1"]})
    )
    assert only_supporting.details["evidence"] == pytest.approx(1 / 3)  # 1 x 1.0 / 3
    assert only_supporting.details["evidence_parts"]["fields"]["p1"]["reason"] == "not cited"


def test_a_part_cited_in_both_roles_takes_the_better_multiplier() -> None:
    golden = {"assessment": "yes", "supporting_evidence": {"s1": S1}}
    both = {"assessment": "yes", "primary_evidence": ["s1"], "supporting_evidence": ["s1"]}
    assert ASSESS.score(document(golden, both)).details["evidence"] == 1.0  # max(0.75, 1.0)


def test_a_requirement_without_golden_parts_is_scored_on_compliance_alone() -> None:
    golden = {"assessment": "not_applicable"}
    scored = ASSESS.score(
        document(golden, {"assessment": "no", "primary_evidence": {"x1": {"text": "t"}}})
    )
    assert scored.details["evidence"] is None
    assert "evidence_parts" not in scored.details
    assert scored.details["extra_parts"] == ["x1"]
    assert (scored.score, scored.details["compliance"]) == (0.0, 0.0)  # n/a vs no
    agrees = ASSESS.score(document({"assessment": "partial"}, {"assessment": "yes"}))
    assert agrees.score == 0.5  # combined = compliance


def test_a_cited_part_with_an_unknown_id_matches_by_its_text() -> None:
    golden = {
        "assessment": "yes",
        "primary_evidence": {"p1": P1},
        "supporting_evidence": {"s1": S1},
    }
    holds_p1 = {"title": "7.1 Encryption", "text": "Customer data is encrypted. Backups too."}
    piece_of_s1 = {"title": "", "text": "Keys are rotated"}
    predicted = {
        "assessment": "yes",
        "supporting_evidence": {"c7": holds_p1, "c8": piece_of_s1},
    }
    scored = ASSESS.score(document(golden, predicted))
    parts = scored.details["evidence_parts"]["fields"]
    # c7 holds p1 (BROAD): primary cited as supporting, 0.5; c8 is only a piece of s1
    # (NARROW), which is not a match: (2 x 0.5 + 1 x 0) / 3
    assert parts["p1"]["matched_by"] == BROAD
    assert parts["p1"]["cited_as"] == "c7"
    assert parts["s1"]["score"] == 0.0
    assert scored.details["evidence"] == pytest.approx(1 / 3)
    assert scored.details["extra_parts"] == ["c8"]


def test_a_known_id_is_matched_by_id_whatever_its_text() -> None:
    golden = {"assessment": "yes", "primary_evidence": {"p1": P1}}
    predicted = {"assessment": "yes", "primary_evidence": {"p1": {"text": "other words"}}}
    assert ASSESS.score(document(golden, predicted)).details["evidence"] == 1.0


def test_missing_prediction_details_score_everything_zero() -> None:
    golden = {"assessment": "no", "primary_evidence": {"p1": P1}}
    details = ASSESS.missing_details(document(golden, None))
    assert (details["compliance"], details["evidence"], details["combined"]) == (0.0, 0.0, 0.0)
    assert details["verdict"]["reason"] == "missing"
    no_parts = ASSESS.missing_details(document({"assessment": "no"}, None))
    assert no_parts["evidence"] is None


def three_documents() -> list[ScoredDocument]:
    """A: all right. B: partial said no, p1 cited as supporting, s1 missed.
    C: not_applicable said, no golden parts."""
    golden_b = {
        "assessment": "partial",
        "primary_evidence": {"p1": P1},
        "supporting_evidence": {"s1": S1},
    }
    return [
        ASSESS.score(
            document(
                {"assessment": "yes", "primary_evidence": {"p1": P1}},
                {"assessment": "yes", "primary_evidence": ["p1"]},
                "b/A",
            )
        ),
        ASSESS.score(
            document(golden_b, {"assessment": "no", "supporting_evidence": ["p1"]}, "b/B")
        ),
        ASSESS.score(
            document({"assessment": "not_applicable"}, {"assessment": "Not applicable"}, "b/C")
        ),
    ]


def test_assessment_metrics_by_hand() -> None:
    a, b, c = three_documents()
    # B: compliance partial vs no 0.5; evidence (2 x 0.5 + 0) / 3 = 1/3;
    #    combined 0.25 + 1/6 = 5/12
    assert b.score == pytest.approx(5 / 12)
    metrics = ASSESS.compute([c, a, b])
    assert metrics["mean_combined_score"] == pytest.approx((1 + 5 / 12 + 1) / 3)
    assert metrics["mean_compliance_score"] == pytest.approx((1 + 0.5 + 1) / 3)
    assert metrics["mean_evidence_score"] == pytest.approx((1 + 1 / 3) / 2)  # C has none
    assert metrics["accuracy"] == pytest.approx(2 / 3)  # A and C equal verdicts
    assert metrics["total_requirements"] == 3
    assert "per_field_accuracy" not in metrics
    assert metrics["per_requirement"]["b/B"] == {
        "expected": "partial",
        "actual": "no",
        "compliance": 0.5,
        "evidence": pytest.approx(1 / 3),
        "combined": pytest.approx(5 / 12),
        "parts": {"p1": 0.5, "s1": 0.0},
    }
    assert ASSESS.compute([])["mean_combined_score"] == 0.0


def test_compare_adds_component_deltas() -> None:
    result = ASSESS.compare(
        {"mean_combined_score": 0.5, "mean_compliance_score": 0.5, "mean_evidence_score": None},
        {"mean_combined_score": 0.75, "mean_compliance_score": 0.25, "mean_evidence_score": 0.5},
    )
    assert result["verdict"] == "improved"  # +0.25 on the headline
    assert result["component_deltas"] == {
        "mean_compliance_score": {"baseline": 0.5, "candidate": 0.25, "delta": -0.25},
    }


def test_compare_models_lists_each_requirements_verdicts() -> None:
    a_docs = three_documents()
    b_docs = [ASSESS.score(document({"assessment": "yes"}, {"assessment": "partial"}, "b/A"))]
    b_docs = [
        ScoredDocument(ExtendedDocument(id=d.document.id, model="v2"), d.score, d.details)
        for d in b_docs
    ]
    a_docs = [
        ScoredDocument(ExtendedDocument(id=d.document.id, model="v1"), d.score, d.details)
        for d in a_docs
    ]
    paired = ASSESS.compare_models(ASSESS.compute(a_docs), ASSESS.compute(b_docs), a_docs, b_docs)
    assert paired["models"] == {"a": "v1", "b": "v2"}
    assert paired["requirements"]["b/A"] == {
        "expected": "yes",
        "a": "yes",
        "b": "partial",
        "a_score": 1.0,
        "b_score": 0.5,
        "delta": -0.5,
    }
    assert paired["requirements"]["b/C"]["b"] is None  # v2 did not score C
    entry = BenchmarkEntry("1", "", "", "accuracy", "fp", {}, {}, paired={"v2-vs-v1": paired})
    tables = dict(pair_tables("review-assessment", entry, None))
    header, rows = tables["review-assessment v2-vs-v1: by requirements (a = v1, b = v2)"]
    assert header == ["requirements", "a", "a_score", "b", "b_score", "delta", "expected"]
    assert rows[0] == ["b/A", "yes", "1.0000", "partial", "0.5000", "-0.5000", "yes"]


# --- retrieval -----------------------------------------------------------------

P = {"title": "7.1 Encryption", "text": "All customer data is encrypted at rest using AES-256."}
S = {"title": "Annex II", "text": "Encryption keys are rotated every twelve months."}
UNRELATED = {"title": "", "text": "0000 1111 2222"}
HOLDS_S = {
    "title": "Annex II - Security measures",
    "text": "Annex II. Encryption keys are rotated every twelve months. Backups are tested.",
}
PIECE_OF_P = {"title": "7.1 Encryption", "text": "All customer data is encrypted"}
P2 = {"title": "9 Sub-processors", "text": "Sub-processors are engaged only with prior consent."}
PARAPHRASE_P2 = {"title": "9 Sub-processors", "text": "The processor may engage sub-processors."}
RETRIEVE = ReviewRetrieval(ReviewConfig(recall_at=(1, 2, 3)))


def retrieval(golden: dict[str, Any], retrieved: list[Any] | None, doc_id: str) -> ExtendedDocument:
    return document({"assessment": "yes", **golden}, {"retrieved": retrieved}, doc_id)


def test_each_golden_part_takes_its_best_category_and_first_hit() -> None:
    doc = retrieval(
        {"primary_evidence": {"p": P}, "supporting_evidence": {"s": S}},
        [UNRELATED, HOLDS_S, P, PIECE_OF_P],
        "b/R1",
    )
    scored = RETRIEVE.score(doc)
    # p: MISS at 1, MISS at 2, EXACT at 3, NARROW at 4 -> EXACT, first hit at 3
    # s: BROAD at 2 -> BROAD, first hit at 2
    assert scored.details["categories"] == {"p": EXACT, "s": BROAD}
    assert scored.details["parts"]["p"]["rank"] == 3
    assert scored.details["parts"]["s"]["hit_rank"] == 2
    assert scored.score == scored.details["recall"] == 1.0  # (1 EXACT + 1 BROAD) / 2
    # within the top 1 nothing, top 2 s, top 3 both
    assert scored.details["recall_at"] == {"1": 0.0, "2": 0.5, "3": 1.0}
    assert scored.details["first_hit_rank"] == 2
    assert scored.details["reciprocal_rank"] == 0.5
    assert scored.details["note"] == "p EXACT, s BROAD"


def test_narrow_and_weak_are_not_hits() -> None:
    doc = retrieval({"primary_evidence": {"p": P, "p2": P2}}, [PIECE_OF_P, PARAPHRASE_P2], "b/R2")
    scored = RETRIEVE.score(doc)
    assert scored.details["categories"] == {"p": NARROW, "p2": WEAK}
    assert (scored.score, scored.details["reciprocal_rank"]) == (0.0, 0.0)
    assert scored.details["first_hit_rank"] is None


def test_retrieval_is_not_applicable_without_a_list_or_golden_parts() -> None:
    with pytest.raises(NotApplicable, match="has no 'retrieved' parts"):
        RETRIEVE.score(retrieval({"primary_evidence": {"p": P}}, None, "b/R3"))
    with pytest.raises(NotApplicable, match="no golden evidence parts"):
        RETRIEVE.score(retrieval({}, [P], "b/R3"))
    empty = RETRIEVE.score(retrieval({"primary_evidence": {"p": P}}, [], "b/R3"))
    assert (empty.score, empty.details["categories"]) == (0.0, {"p": MISS})


def test_retrieval_metrics_by_hand() -> None:
    found = RETRIEVE.score(
        retrieval(
            {"primary_evidence": {"p": P}, "supporting_evidence": {"s": S}},
            [UNRELATED, HOLDS_S, P],
            "b/R1",
        )
    )
    weak = RETRIEVE.score(
        retrieval(
            {"primary_evidence": {"p2": P2}, "supporting_evidence": {"s": S}},
            [PARAPHRASE_P2],
            "b/R2",
        )
    )
    missing = ScoredDocument(
        retrieval({"primary_evidence": {"p": P}}, None, "b/R3"),
        0.0,
        RETRIEVE.missing_details(retrieval({"primary_evidence": {"p": P}}, None, "b/R3")),
    )
    nothing_to_find = ScoredDocument(
        retrieval({}, None, "b/R4"), 0.0, RETRIEVE.missing_details(retrieval({}, None, "b/R4"))
    )
    assert missing.details["categories"] == {"p": MISS}
    assert nothing_to_find.details == {"recall": None, "categories": {}}
    metrics = RETRIEVE.compute([nothing_to_find, weak, missing, found])
    # recall over the three requirements with golden parts: (1 + 0 + 0) / 3
    assert metrics["recall"] == pytest.approx(1 / 3)
    # hits over all golden parts: 2 of (2 + 2 + 1)
    assert metrics["micro_recall"] == pytest.approx(2 / 5)
    assert metrics["category_counts"] == {EXACT: 1, BROAD: 1, NARROW: 0, WEAK: 1, MISS: 2}
    assert metrics["mrr"] == pytest.approx((1 / 2 + 0 + 0) / 3)  # first hit at rank 2
    assert metrics["recall_at_1"] == 0.0
    assert metrics["recall_at_2"] == pytest.approx((1 / 2) / 3)
    assert metrics["recall_at_3"] == pytest.approx(1 / 3)
    assert (metrics["total_requirements"], metrics["total_golden_parts"]) == (4, 5)
