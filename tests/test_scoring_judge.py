"""Judge.parse_score and the built-in rubric."""

from __future__ import annotations

import json

import pytest

from pytest_bizbench.scoring.judge import JUDGE_RUBRIC, Judge, JudgeReplyError


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"score": 85, "reason": "same company"}', 85.0),
        ('  {"score": 72.5}  ', 72.5),
        ('{"score": "90"}', 90.0),
        ('{"score": 0}', 0.0),
        ('{"score": 100}', 100.0),
        ('Here you go:\n```json\n{"score": 60, "reason": "partly"}\n```', 60.0),
        ('```JSON\n{"score": 61}\n```', 61.0),
        ('```\n{"score": 62}\n```', 62.0),
        ('```python\nx = 1\n```\n```json\n{"score": 63}\n```', 63.0),  # first JSON block
        ("Score: 85", 85.0),
        ("Score: 85.", 85.0),
        ("score = 85.5", 85.5),
        ("The score is 40 because the date is wrong.", 40.0),
        ('Reasoning... "score": 77, "reason": "close"', 77.0),
        ("I would give it 70/100.", 70.0),
        ("Score: 80/100", 80.0),
        ("70 / 100", 70.0),
    ],
)
def test_parse_score_reads_the_grade(text: str, expected: float) -> None:
    assert Judge.parse_score(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "looks right to me",
        '{"grade": 80}',
        '{"score": null}',
        '{"score": true}',
        '{"score": "high"}',
        '{"score": 150}',  # off the scale: the judge misread it, no clipping
        '{"score": -5}',
        '{"score": NaN}',
        "Score: 101",
        "score: 8/10",  # a 0-10 scale is not a 0-100 score
        "7.5/10",
        "1000/100",
        "[80]",
    ],
)
def test_parse_score_none_when_no_usable_grade(text: str) -> None:
    assert Judge.parse_score(text) is None


def test_parse_score_whole_json_wins_over_prose_inside_it() -> None:
    assert Judge.parse_score('{"score": 30, "reason": "not 90/100"}') == 30.0


def test_parse_score_out_of_range_json_is_not_rescued_by_prose() -> None:
    assert Judge.parse_score('{"score": 200, "reason": "Score: 50"}') is None


def test_rubric_asks_for_a_json_score_from_0_to_100() -> None:
    assert "0 to 100" in JUDGE_RUBRIC
    assert '{"score": N, "reason":' in JUDGE_RUBRIC


def test_prompt_holds_the_rubric_and_the_values() -> None:
    prompt = Judge.prompt("vendor", "Acme Corp", "ACME")
    assert prompt.startswith(JUDGE_RUBRIC)
    values = json.loads(prompt[len(JUDGE_RUBRIC) :])
    assert values == {"field": "vendor", "expected": "Acme Corp", "extracted": "ACME"}


@pytest.mark.parametrize(
    ("reply", "grade"),
    [
        ('{"score": 85, "reason": "same"}', 85.0),
        ('Here you go:\n```json\n{"score": 60}\n```', 60.0),
        ("I would give it a score: 40.", 40.0),
        ("70/100", 70.0),
    ],
)
def test_grade_reply_reads_every_shape(reply: str, grade: float) -> None:
    assert Judge.grade_reply(reply) == grade


def test_grade_reply_without_a_score_raises_quoting_it() -> None:
    with pytest.raises(JudgeReplyError) as caught:
        Judge.grade_reply("  Looks fine to me.  ")
    assert str(caught.value) == "no 0-100 score in the judge's reply 'Looks fine to me.'"
    with pytest.raises(JudgeReplyError) as caught:
        Judge.grade_reply("x" * 100)
    assert str(caught.value) == f"no 0-100 score in the judge's reply '{'x' * 80}…'"


def test_the_nonanswer_prompt_asks_about_the_question_without_the_field_prefix() -> None:
    from pytest_bizbench.scoring.judge import NONANSWER_FIELD, NONANSWER_RUBRIC, Judge

    prompt = Judge.nonanswer_prompt(NONANSWER_FIELD + "Who audits Orrin?", "Pell LLP", "n/a")
    assert prompt == (
        NONANSWER_RUBRIC
        + '\n{"question": "Who audits Orrin?", "gold_answer": "Pell LLP", "answer": "n/a"}\n'
    )
