"""The `qa-answer` benchmark on its own: grading ladder, samples, pass@k, metrics."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_bizbench import ExtendedDocument, Judge, ScoredDocument
from pytest_bizbench.benchmarks.qa_answer import QAAnswer
from pytest_bizbench.cases.qa import FINANCEBENCH, GENERIC
from pytest_bizbench.maths.stats import percentile

QUESTION = "What is the FY2022 capex (in USD millions)?"


def doc(
    answers: list[str],
    *,
    gold: str = "$412.00",
    fmt: str = FINANCEBENCH,
    question: str = QUESTION,
    doc_id: str = "q1",
    tags: dict[str, Any] | None = None,
) -> ExtendedDocument:
    return ExtendedDocument(
        id=doc_id,
        metadata=tags or {},
        ground_truth={"question": question, "answer": gold, "format": fmt},
        extracted_fields={"answers": answers},
    )


def test_auto_scorer_by_format() -> None:
    bench = QAAnswer()
    assert bench.scorer_for(FINANCEBENCH) == "numeric"
    assert bench.scorer_for(GENERIC) == "exact"
    assert QAAnswer("contains").scorer_for(FINANCEBENCH) == "contains"


def test_one_right_answer() -> None:
    scored = QAAnswer().score(doc(["Capex was $412 million in FY2022."]))
    assert scored.score == 1.0
    d = scored.details
    assert d["refusal"] is False
    assert d["scorer"] == "numeric"
    assert d["answer"] == {
        "score": 1.0,
        "rung": "numeric",
        "expected": "$412.00",
        "actual": "Capex was $412 million in FY2022.",
        "matched": "$412 million",
    }
    assert d["samples"] == {
        "n": 1, "correct": 1, "refused": 0, "mean": 1.0, "min": 1.0, "max": 1.0,
        "shown": 0, "scores": [1.0],
    }  # fmt: skip
    assert d["pass_at_k"] == {"1": 1.0}
    assert "pass_at_k_note" not in d


def test_a_refusal_scores_zero_and_is_flagged() -> None:
    scored = QAAnswer().score(doc(["The provided context does not contain the capex figure."]))
    assert scored.score == 0.0
    assert scored.details["refusal"] is True
    assert scored.details["answer"]["rung"] == "refusal"
    assert scored.details["answer"]["reason"] == "refusal"


def test_a_right_answer_that_mentions_missing_data_is_no_refusal() -> None:
    answer = "The segment split is not disclosed, but total capex was $412 million."
    scored = QAAnswer().score(doc([answer]))
    assert (scored.score, scored.details["refusal"]) == (1.0, False)


def test_a_refusal_sharing_only_a_year_with_the_gold_is_no_right_answer() -> None:
    # the numeric scorer finds "2022" in both; the detector's refusal stands
    gold = "Yes; it was in compliance as of December 31, 2022."
    question = "Was the company in compliance with its covenants at the end of FY2022?"
    answer = "Covenant compliance as of year-end 2022 is not disclosed in the excerpt."
    scored = QAAnswer().score(doc([answer], gold=gold, question=question))
    assert (scored.score, scored.details["refusal"]) == (0.0, True)
    assert scored.details["refusal_class"] == "passive-unavailability"


def test_a_wrong_answer_is_incorrect_not_refused() -> None:
    scored = QAAnswer().score(doc(["Capex was $390 million."]))
    assert (scored.score, scored.details["refusal"]) == (0.0, False)
    assert scored.details["answer"]["reason"] == "out-of-tolerance"


def test_samples_pass_at_k_and_the_median_sample() -> None:
    # samples: right, refusal, wrong, right, right -> scores 1, 0, 0, 1, 1
    answers = ["$412 million", "I don't know.", "$500 million", "412", "$0.412 billion"]
    scored = QAAnswer(pass_at=(1, 3, 6)).score(doc(answers))
    d = scored.details
    assert scored.score == pytest.approx(3 / 5)
    assert d["samples"] == {
        "n": 5, "correct": 3, "refused": 1, "mean": pytest.approx(0.6), "min": 0.0,
        "max": 1.0, "shown": 0, "scores": [1.0, 0.0, 0.0, 1.0, 1.0],
    }  # fmt: skip
    # ordered by score then position: 0@1, 0@2, 1@0, 1@3, 1@4; the median (position 2) is
    # sample 0, which is the one shown
    assert d["answer"]["actual"] == "$412 million"
    # pass@1 = 3/5; pass@3 = 1 - C(2,3)/C(5,3) = 1 - 0/10 = 1; pass@6 undefined for n=5
    assert d["pass_at_k"] == {"1": pytest.approx(0.6), "3": 1.0, "6": None}
    assert d["pass_at_k_note"] == "k=6 > n=5"


def test_the_shown_sample_decides_the_refusal_flag() -> None:
    # scores 0 (refusal), 0 (refusal), 1: the median is the second refusal
    scored = QAAnswer().score(doc(["N/A", "I don't know.", "$412 million"]))
    assert scored.details["refusal"] is True
    assert scored.details["samples"]["refused"] == 2


def test_generic_rows_default_to_exact() -> None:
    scored = QAAnswer().score(doc(["smith & lowe llp."], gold="Smith & Lowe LLP", fmt=GENERIC))
    assert scored.details["answer"]["rung"] == "exact"
    assert scored.score == 1.0


def test_empty_prediction_is_an_error() -> None:
    with pytest.raises(ValueError, match="holds no answer"):
        QAAnswer().score(doc([]))


# --- model rungs -----------------------------------------------------------------


def test_judge_grades_text_golds_only() -> None:
    calls: list[tuple[str, Any, Any]] = []

    def judge(field: str, expected: Any, actual: Any) -> float | None:
        calls.append((field, expected, actual))
        return 80.0

    bench = QAAnswer(judge=judge)
    text = doc(["They use a big-four firm."], gold="Smith & Lowe LLP", fmt=GENERIC, question="Who?")
    scored = bench.score(text)
    assert scored.score == pytest.approx(0.8)
    assert scored.details["answer"]["rung"] == "judge"
    assert scored.details["answer"]["judge_score"] == 80.0
    # the judge sees the question as the field
    assert calls == [("Who?", "Smith & Lowe LLP", "They use a big-four firm.")]
    # a wrong number is wrong: never sent to the judge; nor is a refusal
    assert bench.score(doc(["$390 million"])).score == 0.0
    assert bench.score(doc(["N/A"], gold="Smith & Lowe LLP", fmt=GENERIC)).score == 0.0
    assert len(calls) == 1
    assert bench.rungs_available[-1] == "judge"
    assert "scoring_note" not in bench.scoring_config()


def test_a_judge_grade_counts_as_correct_from_one_half() -> None:
    bench = QAAnswer(judge=lambda f, e, a: 50.0 if a == "half" else 49.0)
    scored = bench.score(doc(["half", "less"], gold="Yes-ish", fmt=GENERIC))
    # 0.5 counts as correct, 0.49 does not; the score is their mean
    assert scored.details["samples"]["correct"] == 1
    assert scored.score == pytest.approx((0.5 + 0.49) / 2)


def test_embedding_rung() -> None:
    vectors = {"Smith & Lowe LLP": [1.0, 0.0], "S&L": [0.95, 0.05], "Other": [0.0, 1.0]}
    bench = QAAnswer(embed=lambda texts: [vectors[t] for t in texts])
    assert bench.score(doc(["S&L"], gold="Smith & Lowe LLP", fmt=GENERIC)).score == 1.0
    other = bench.score(doc(["Other"], gold="Smith & Lowe LLP", fmt=GENERIC))
    assert (other.score, other.details["answer"]["rung"]) == (0.0, "exact")


def test_a_failing_model_hook_leaves_the_answer_unscored() -> None:
    def judge(field: str, expected: Any, actual: Any) -> float:
        raise TimeoutError("judge down")

    scored = QAAnswer(judge=judge).score(doc(["x"], gold="Smith & Lowe LLP", fmt=GENERIC))
    entry = scored.details["answer"]
    assert (entry["score"], entry["unscored"]) == (0.0, True)
    assert entry["reason"] == "judge-error: TimeoutError: judge down"
    bad = QAAnswer(judge=lambda f, e, a: 120.0).score(doc(["x"], gold="Y z", fmt=GENERIC))
    assert bad.details["answer"]["reason"] == (
        "judge-error: ValueError: judge returned 120.0, not a number in 0-100"
    )


def test_config_names_the_rungs() -> None:
    config = QAAnswer("numeric", (1, 5)).scoring_config()
    assert config["scorer"] == "numeric"
    assert config["pass_at_k"] == [1, 5]
    assert config["rungs_available"] == ["exact", "contains", "numeric", "yes-no", "refusal"]
    assert config["scoring_note"].startswith("scoring used the answer rules only")


def test_qa_judge_prompt_and_parsing() -> None:
    prompt = Judge.qa_prompt("Who audits?", "Smith & Lowe", "S&L")
    assert prompt.startswith("You grade a system's answer")
    assert '"gold_answer": "Smith & Lowe"' in prompt
    assert Judge.parse_score('{"score": 70, "reason": "close"}') == 70.0
    assert Judge.parse_score('Here:\n```json\n{"score": 65}\n```') == 65.0
    assert Judge.parse_score("I'd say score: 40 overall") == 40.0
    assert Judge.parse_score("no idea") is None


# --- metrics ------------------------------------------------------------------------


def scored(score: float, details: dict[str, Any], doc_id: str, **extra: Any) -> ScoredDocument:
    tags = extra.pop("tags", {})
    return ScoredDocument(
        ExtendedDocument(id=doc_id, metadata=tags), score, details, latency_ms=extra.get("latency")
    )


def test_metrics_by_hand() -> None:
    bench = QAAnswer(pass_at=(1, 2))
    b = bench.score(doc(["$412 million", "N/A", "$1 million", "412"], doc_id="b"))
    docs = [
        # a: right, one sample
        scored(1.0, QAAnswer(pass_at=(1, 2)).score(doc(["412"])).details, "a",
               tags={"question_type": "metrics", "company": "Norvale"}, latency=10.0),
        # b: four samples: right, refused, wrong, right -> 0.5 / 0.25 / 0.25
        scored(b.score, b.details, "b", tags={"question_type": "metrics", "company": "Ostra"},
               latency=30.0),
        # c: a refusal
        scored(0.0, {"refusal": True}, "c", tags={"question_type": "novel", "company": "Ostra"},
               latency=20.0),
        # d: the hook raised: incorrect, no samples, no latency
        scored(0.0, {"refusal": False, "error": "RuntimeError: x"}, "d",
               tags={"company": "Ostra"}),
    ]  # fmt: skip
    m = bench.compute(docs)
    # accuracy (1 + 0.5 + 0 + 0) / 4; refusals (0 + 0.25 + 1 + 0) / 4; wrong (0 + .25 + 0 + 1) / 4
    assert m["accuracy"] == pytest.approx(1.5 / 4)
    assert m["refusal_rate"] == pytest.approx(1.25 / 4)
    assert m["incorrect_rate"] == pytest.approx(1.25 / 4)
    assert m["total_documents"] == 4
    # pass@1 over a and b (c and d hold no samples): (1 + 2/4) / 2;
    # pass@2: a has n=1 < 2, so only b: 1 - C(2,2)/C(4,2) = 1 - 1/6
    assert m["pass_at_1"] == pytest.approx(0.75)
    assert m["pass_at_2"] == pytest.approx(5 / 6)
    # attempted 1 - 1.25/4 = 2.75/4; accuracy given attempted 1.5 / 2.75 = 6/11;
    # F = 2 * (3/8) * (6/11) / (3/8 + 6/11) = (9/22) / (81/88) = 4/9
    assert m["attempted_rate"] == pytest.approx(2.75 / 4)
    assert m["accuracy_given_attempted"] == pytest.approx(6 / 11)
    assert m["f_score"] == pytest.approx(4 / 9)
    # metrics: given attempted 0.75 / 0.875 = 6/7, F = 2 * 0.75 * 6/7 / (0.75 + 6/7) = 0.8;
    # novel: nothing attempted, so no accuracy given attempted and F 0
    assert m["groups"]["question_type"] == {
        "metrics": {"count": 2, "accuracy": 0.75, "refusal_rate": 0.125,
                    "incorrect_rate": 0.125, "attempted_rate": 0.875,
                    "accuracy_given_attempted": pytest.approx(6 / 7),
                    "f_score": pytest.approx(0.8)},
        "novel": {"count": 1, "accuracy": 0.0, "refusal_rate": 1.0, "incorrect_rate": 0.0,
                  "attempted_rate": 0.0, "accuracy_given_attempted": None, "f_score": 0.0},
        "unknown": {"count": 1, "accuracy": 0.0, "refusal_rate": 0.0, "incorrect_rate": 1.0,
                    "attempted_rate": 1.0, "accuracy_given_attempted": 0.0, "f_score": 0.0},
    }  # fmt: skip
    assert m["groups"]["company"]["Ostra"]["count"] == 3
    # latencies 10, 20, 30: p50 = 20; p95 at position 0.95 * 2 = 1.9: 20 + 0.9 * 10 = 29
    assert m["latency_p50_ms"] == 20.0
    assert m["latency_p95_ms"] == pytest.approx(29.0)
    assert m["latency_mean_ms"] == 20.0


def test_free_text_tags_are_not_groups() -> None:
    long = "x" * 81
    docs = [
        scored(1.0, {}, "a", tags={"justification": "short", "note": long, "period": 2022}),
        scored(0.0, {}, "b", tags={"note": "short", "period": 2023, "nested": {"a": 1}}),
    ]
    assert sorted(QAAnswer().compute(docs)["groups"]) == ["period"]


def test_empty_and_no_latency() -> None:
    assert QAAnswer().compute([]) == {"accuracy": 0.0, "total_documents": 0}
    m = QAAnswer().compute([scored(1.0, {}, "a")])
    assert "latency_p50_ms" not in m
    assert m["pass_at_1"] is None  # no question had a sample


def test_percentile_interpolates_linearly() -> None:
    assert percentile([5.0], 0.95) == 5.0
    # position 0.5 * 3 = 1.5 between 2 and 3
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.5
    # position 0.95 * 3 = 2.85: 3 + 0.85 * (4 - 3)
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.95) == pytest.approx(3.85)
