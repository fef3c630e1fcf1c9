"""Loading `*.qa.jsonl` rows: format detection, ids, tags, prompts, bad rows; prediction shapes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_bizbench.cases import CaseError
from pytest_bizbench.cases.model import PredictionShapeError
from pytest_bizbench.cases.qa import (
    FINANCEBENCH,
    GENERIC,
    LEGALBENCH,
    QACase,
    QAKind,
    load_qa,
)

MAX = 1_000_000


def write(tmp_path: Path, rows: list[Any], name: str = "set.qa.jsonl") -> Path:
    path = tmp_path / name
    path.write_text(
        "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), "utf-8"
    )
    return path


def cases(loaded: list[QACase | CaseError]) -> list[QACase]:
    return [c for c in loaded if isinstance(c, QACase)]


def errors(loaded: list[QACase | CaseError]) -> list[CaseError]:
    return [c for c in loaded if isinstance(c, CaseError)]


FB_ROW = {
    "financebench_id": "fb-01",
    "company": "Norvale Foods",
    "doc_name": "NORVALE_2022_10K",
    "question_type": "metrics-generated",
    "doc_period": 2022,
    "question": "What is the FY2022 capex (in USD millions)?",
    "answer": "$412.00",
    "justification": "Cash flow statement.",
    "evidence": [
        {"evidence_text": "Purchases of property, plant and equipment: (412)", "doc_name": "x"},
        "Capex guidance for 2023 is $450 million.",
    ],
}


def test_financebench_rows(tmp_path: Path) -> None:
    [case] = cases(load_qa(write(tmp_path, [FB_ROW]), MAX))
    assert (case.id, case.format, case.line) == ("fb-01", FINANCEBENCH, 1)
    assert case.answer == "$412.00"
    assert case.evidence == (
        "Purchases of property, plant and equipment: (412)",
        "Capex guidance for 2023 is $450 million.",
    )
    # every other key is a tag, and tags are the metadata groups are made of
    assert case.tags == {
        "company": "Norvale Foods",
        "doc_name": "NORVALE_2022_10K",
        "question_type": "metrics-generated",
        "doc_period": 2022,
        "justification": "Cash flow statement.",
    }
    assert case.metadata is case.tags
    assert case.question_type == "metrics-generated"
    assert case.filename == "NORVALE_2022_10K"
    # open book by default: the evidence comes before the question
    assert case.prompt == (
        "Evidence:\nPurchases of property, plant and equipment: (412)\n\n"
        "Capex guidance for 2023 is $450 million.\n\n"
        "Question: What is the FY2022 capex (in USD millions)?\nAnswer:"
    )


def test_open_book_can_be_turned_off_and_on(tmp_path: Path) -> None:
    path = write(tmp_path, [FB_ROW])
    [closed] = cases(load_qa(path, MAX, open_book=False))
    assert closed.prompt == "Question: What is the FY2022 capex (in USD millions)?\nAnswer:"
    no_evidence = {**FB_ROW, "evidence": None}
    [case] = cases(load_qa(write(tmp_path, [no_evidence], "b.qa.jsonl"), MAX, open_book=True))
    assert case.prompt.startswith("Question:")


def test_generic_rows(tmp_path: Path) -> None:
    rows = [
        {"id": "q1", "question": "Who audits Norvale?", "expected": "Smith & Lowe LLP",
         "tags": {"company": "Norvale", "question_type": "entity"}, "min_score": 1},
        {"id": 7, "question": "Headcount?", "expected": 1250, "extra": "ignored"},
    ]  # fmt: skip
    first, second = cases(load_qa(write(tmp_path, rows), MAX))
    assert (first.format, first.tags, first.min_score) == (
        GENERIC,
        {"company": "Norvale", "question_type": "entity"},
        1.0,
    )
    assert first.prompt == "Question: Who audits Norvale?\nAnswer:"  # no evidence
    # numbers as ids and gold answers are read as written
    assert (second.id, second.answer, second.tags) == ("7", "1250", {})


def test_legalbench_rows_and_their_ids(tmp_path: Path) -> None:
    rows = [
        {"index": "0", "text": "The mark 'Ivory' for soap.", "answer": "arbitrary"},
        {"text": "The mark 'Salty' for crackers.", "answer": "descriptive", "task": "marks"},
        {"id": "lb-own", "question": "Is this a termination clause?",
         "text": "Either party may end this agreement on 30 days notice.", "answer": "Yes"},
    ]  # fmt: skip
    first, second, third = cases(load_qa(write(tmp_path, rows, "marks.qa.jsonl"), MAX))
    assert first.format == LEGALBENCH
    # no id: <file stem>-<index>, else <file stem>-<line>
    assert (first.id, second.id, third.id) == ("marks-0", "marks-2", "lb-own")
    assert first.question == "The mark 'Ivory' for soap."
    assert first.passage is None
    assert second.tags == {"task": "marks"}
    # with a question, the text is the passage it is about, put before the question
    assert third.passage == "Either party may end this agreement on 30 days notice."
    assert third.prompt == (
        "Either party may end this agreement on 30 days notice.\n\n"
        "Question: Is this a termination clause?\nAnswer:"
    )


def test_rows_lacking_question_or_answer_are_listed_and_the_rest_load(tmp_path: Path) -> None:
    rows = [
        FB_ROW,
        {"financebench_id": "fb-02", "answer": "$1.00"},
        {"financebench_id": "fb-03", "question": "Q?"},
        {"financebench_id": "fb-04", "question": "", "answer": "1"},
        {"financebench_id": "fb-05", "question": "Q?", "answer": True},
        {**FB_ROW, "financebench_id": "fb-06"},
    ]
    loaded = load_qa(write(tmp_path, rows), MAX)
    assert [c.id for c in cases(loaded)] == ["fb-01", "fb-06"]
    assert [(e.line, e.case_id, e.message) for e in errors(loaded)] == [
        (
            2,
            "fb-02",
            'row lacks "question" (the file is read as financebench QA rows, from line 1; '
            'financebench rows need "financebench_id", "question", "answer")',
        ),
        (
            3,
            "fb-03",
            'row lacks "answer" (the file is read as financebench QA rows, from line 1; '
            'financebench rows need "financebench_id", "question", "answer")',
        ),
        (4, "fb-04", '"question" must be a non-empty string, got ""'),
        (5, "fb-05", '"answer" must be a non-empty string or a number, got boolean'),
    ]


def test_the_first_row_decides_the_format(tmp_path: Path) -> None:
    rows = [
        "not json",
        [1, 2],
        {"id": "g1", "question": "Q?", "expected": "A"},
        {"financebench_id": "fb-1", "question": "Q?", "answer": "A"},
    ]
    loaded = load_qa(write(tmp_path, rows), MAX)
    assert [c.id for c in cases(loaded)] == ["g1"]
    bad_json, not_object, wrong_format = errors(loaded)
    assert bad_json.line == 1
    assert bad_json.message.startswith("malformed JSON")
    assert (not_object.line, not_object.message) == (2, "row must be an object, got list")
    assert wrong_format.line == 4
    assert wrong_format.message == (
        'row lacks "id", "expected" (the file is read as generic QA rows, from line 3; '
        'generic rows need "id", "question", "expected")'
    )


def test_bad_fields(tmp_path: Path) -> None:
    rows = [
        {"id": "g1", "question": "Q?", "expected": "A", "tags": ["x"]},
        {"id": "g2", "question": "Q?", "expected": "A", "evidence": [1]},
        {"id": "g3", "question": "Q?", "expected": "A", "min_score": 2},
        {"id": "", "question": "Q?", "expected": "A"},
        {"id": "g5", "question": "Q?", "expected": "A"},
        {"id": "g5", "question": "Q?", "expected": "B"},
    ]
    loaded = load_qa(write(tmp_path, rows), MAX)
    assert [c.id for c in cases(loaded)] == ["g5"]
    assert [(e.line, e.message) for e in errors(loaded)] == [
        (1, '"tags" must be an object, got list'),
        (2, '"evidence" must be a string or a list of strings or {"evidence_text": ...} objects'),
        (3, '"min_score" must be a number in [0, 1], got 2'),
        (4, '"id" must be a non-empty string or an integer, got ""'),
        (6, "duplicate id 'g5' (first at line 5)"),
    ]


def test_unreadable_files_give_one_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty.qa.jsonl"
    empty.write_text("", "utf-8")
    [error] = load_qa(empty, MAX)
    assert isinstance(error, CaseError)
    assert error.message == "empty file"
    [error] = load_qa(write(tmp_path, [FB_ROW]), 10)
    assert isinstance(error, CaseError)
    assert "cap" in error.message


def test_case_hash_follows_content(tmp_path: Path) -> None:
    [a] = cases(load_qa(write(tmp_path, [FB_ROW], "a.qa.jsonl"), MAX))
    [b] = cases(load_qa(write(tmp_path, [dict(reversed(FB_ROW.items()))], "b.qa.jsonl"), MAX))
    [c] = cases(load_qa(write(tmp_path, [{**FB_ROW, "answer": "$413.00"}], "c.qa.jsonl"), MAX))
    assert a.case_hash == b.case_hash != c.case_hash


# --- prediction shapes ---------------------------------------------------------------


@pytest.fixture
def case(tmp_path: Path) -> QACase:
    [loaded] = cases(load_qa(write(tmp_path, [FB_ROW]), MAX))
    return loaded


@pytest.mark.parametrize(
    ("raw", "answers"),
    [
        ({"answer": "$412 million"}, ["$412 million"]),
        ({"answers": ["a", "b"]}, ["a", "b"]),
        ("$412 million", ["$412 million"]),
        (["a", "b", "c"], ["a", "b", "c"]),
        ({"answer": 412}, ["412"]),
        ({"answer": None}, None),  # the system gave nothing: a missing prediction
        ({"answers": []}, None),
        ([], None),
    ],
)
def test_answer_shapes(case: QACase, raw: Any, answers: list[str] | None) -> None:
    fields = QAKind().fields(case, raw)
    assert fields == (None if answers is None else {"answers": answers})


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"text": "x"}, "question 'fb-01' has no \"answer\" or \"answers\" (keys: text)"),
        ({"answer": {"v": 1}}, "an answer is object, not a string"),
        (["a", None], "an answer is null, not a string"),
        (True, "an answer is boolean, not a string"),
    ],
)  # fmt: skip
def test_bad_answer_shapes(case: QACase, raw: Any, message: str) -> None:
    with pytest.raises(PredictionShapeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        QAKind().fields(case, raw)


def test_runs_merge_into_samples(case: QACase) -> None:
    merged = QAKind().merge_runs(case, [{"answers": ["a"]}, {"answers": ["b", "c"]}])
    assert merged == {"answers": ["a", "b", "c"]}


def test_document(case: QACase) -> None:
    document = QAKind().document(case, "m1", {"answers": ["x"]}, "set.qa.jsonl")
    assert document.ground_truth == {
        "question": case.question,
        "answer": "$412.00",
        "format": FINANCEBENCH,
    }
    assert document.metadata == case.tags
    assert document.content is not None
    assert document.content.startswith("Purchases")
    assert (document.model, document.extracted_fields) == ("m1", {"answers": ["x"]})
