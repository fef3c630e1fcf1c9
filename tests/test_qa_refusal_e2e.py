"""Non-answers end to end: provider signals, the refusal details, the judge on the
undetermined path, and the abstention-aware metrics gated from the command line."""

from __future__ import annotations

import re

import pytest
from bizhelpers import Suite, jsonl

QUESTIONS = [
    {"financebench_id": f"q-{i}", "company": "Orrin", "question": question, "answer": gold}
    for i, (question, gold) in enumerate(
        [
            ("What was Orrin's FY2022 revenue (in USD millions)?", "$5,120.00"),
            ("What was Orrin's FY2022 capex (in USD millions)?", "$310.00"),
            ("What was Orrin's FY2022 net income (in USD millions)?", "$402.00"),
            ("What was Orrin's FY2022 free cash flow (in USD millions)?", "$288.00"),
            ("Who audits Orrin?", "Pell & Marr LLP"),
        ]
    )
]
# a claim beside a cue, not naming the gold: does it answer? undetermined, for the judge
UNDECIDED = (
    "The excerpt does not name Orrin's auditor, but its audit committee is chaired by J. Wen."
)
PREDICTIONS = [
    {"id": "q-0", "answer": "Revenue was $5,120 million."},
    {"id": "q-1", "answer": "The excerpt does not include capital expenditures."},
    {"id": "q-2", "answer": None, "refusal": "I can't help with that."},
    {"id": "q-3", "answer": "", "finish_reason": "content_filter"},
    {"id": "q-4", "answer": UNDECIDED},
]
JUDGE = """
import pytest
from pytest_bizbench.scoring.refusal import NONANSWER_FIELD

ASKED = []

@pytest.hookimpl
def pytest_bizbench_judge(field, expected, actual):
    if field.startswith(NONANSWER_FIELD):
        ASKED.append(field)
        return 90.0 if "chaired" in actual else 10.0
    return None

def pytest_sessionfinish(session):
    with open("asked.txt", "w", encoding="utf-8") as fh:
        fh.write("\\n".join(ASKED))
"""
ARGS = ("--bizbench-predictions", "preds.jsonl", "-p", "no:cacheprovider")


def write(suite: Suite, *, judge: bool) -> None:
    suite.write("fin.qa.jsonl", jsonl(QUESTIONS))
    suite.write("preds.jsonl", jsonl(PREDICTIONS))
    if judge:
        suite.write("conftest.py", JUDGE)


def test_refusal_details_and_the_judge_on_the_undetermined_path(suite: Suite) -> None:
    write(suite, judge=True)
    result = suite.pytester.runpytest_subprocess(*ARGS)
    assert result.ret == 1  # a refusal is not a correct answer: its item fails
    docs = suite.documents("qa-answer")
    verdicts = {
        doc_id: tuple(d["details"][key] for key in ("refusal", "refusal_class", "refusal_rung"))
        for doc_id, d in docs.items()
    }
    assert verdicts == {
        "q-0": (False, None, "catalog"),
        "q-1": (True, "source-absence", "catalog"),
        "q-2": (True, "empty-structural", "catalog"),
        "q-3": (True, "empty-structural", "catalog"),
        "q-4": (True, "source-absence", "judge"),
    }
    assert docs["q-1"]["details"]["refusal_cue"] == (
        "The excerpt does not include capital expenditures."
    )
    assert docs["q-2"]["details"]["refusal_cue"] == "I can't help with that."
    assert docs["q-3"]["details"]["refusal_cue"] == "finish_reason: content_filter"
    assert docs["q-4"]["details"]["refusal_cue"] == UNDECIDED
    assert docs["q-0"]["details"]["refusal_cue"] is None
    # only the undetermined answer went to the judge, as a non-answer question
    asked = (suite.path / "asked.txt").read_text(encoding="utf-8")
    assert asked == "non-answer? Who audits Orrin?"
    metrics = suite.metrics("qa-answer")
    # 1 right of 5, 4 refused: attempted 1/5, accuracy given attempted 1, F = 2*0.2*1/1.2
    assert metrics["accuracy"] == 0.2
    assert metrics["refusal_rate"] == 0.8
    assert metrics["attempted_rate"] == pytest.approx(0.2)
    assert metrics["accuracy_given_attempted"] == 1.0
    assert metrics["f_score"] == pytest.approx(1 / 3)


def test_without_a_judge_the_undetermined_answer_counts_as_answered(suite: Suite) -> None:
    write(suite, judge=False)
    suite.pytester.runpytest_subprocess(*ARGS)
    details = suite.documents("qa-answer")["q-4"]["details"]
    assert (details["refusal"], details["refusal_class"], details["refusal_rung"]) == (
        False,
        None,
        "catalog",
    )
    metrics = suite.metrics("qa-answer")
    # q-0 right, q-4 wrong, three refused: attempted 2/5, given attempted 1/2
    assert metrics["refusal_rate"] == 0.6
    assert metrics["incorrect_rate"] == 0.2
    assert metrics["accuracy_given_attempted"] == pytest.approx(0.5)


def test_the_new_metrics_gate_and_show_in_the_table(suite: Suite) -> None:
    write(suite, judge=True)
    result = suite.pytester.runpytest_subprocess(
        *ARGS,
        "--bizbench-threshold",
        "qa-answer:accuracy_given_attempted>=0.9",
        "--bizbench-threshold",
        "qa-answer:f_score>=0.5",
    )
    assert result.ret == 1
    out = result.stdout.str()
    assert "attempted_rate 0.2000" in out
    assert "f_score 0.3333" in out
    # short by default: the count, and the threshold that failed
    assert "thresholds: 1 of 2 passed" in out
    assert re.search(r"qa-answer:f_score >= 0.5\s+default\s+0.3333\s+FAIL", out)
    assert "accuracy_given_attempted >= 0.9" not in out
