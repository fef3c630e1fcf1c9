"""The judge rung's model side: the built-in rubrics and reading a grade out of a reply."""

from __future__ import annotations

import json
import re
from typing import Any

JUDGE_RUBRIC = """\
You grade one field that a system extracted from a business document.
Compare the extracted value with the expected (ground-truth) value and give a score
from 0 to 100: 100 when they state the same fact, even if worded or formatted
differently; partial credit when the extracted value is incomplete or only partly
right; 0 when it is wrong, unrelated or empty. Judge the meaning, not the wording.
Answer with one JSON object and nothing else: {"score": N, "reason": "<one sentence>"}
"""

QA_RUBRIC = """You grade a system's answer to a question about business documents.
Compare the answer with the gold answer and give a score from 0 to 100: 100 when
the answer states what the gold answer states (other wording, rounding or units
that mean the same are fine), partial credit when it is incomplete, 0 when it is
wrong, contradicts the gold answer, or declines to answer.
Answer with one JSON object and nothing else: {"score": N, "reason": "<one sentence>"}
"""

# `qa-answer` asks its judge "is this a non-answer?" with `field` = this prefix + question
NONANSWER_FIELD = "non-answer? "
NONANSWER_RUBRIC = """You decide whether a system's answer to a question about business documents
attempts an answer or declines to give one. A non-answer says the information is
missing, cannot be determined or is out of reach, redirects to another source, asks
for more input, explains a method without a value, hedges without committing to a
figure, or computes part of the answer and stops. An attempt commits to an answer,
right or wrong, even after a disclaimer. Give 100 for a non-answer, 0 for an attempt.
Answer with one JSON object and nothing else: {"score": N, "reason": "<one sentence>"}
"""

_FENCED_RE = re.compile(r"```(?:json)?[ \t]*\n?(.*?)```", re.IGNORECASE | re.DOTALL)
# "score: 80" but not "score: 8/10", which is not on the 0-100 scale
_PROSE_RE = re.compile(
    r"\bscore\b[\"']?\s*(?:[:=]|is)\s*[\"']?(-?\d+(?:\.\d+)?)(?!\.?\d|\s*/)", re.IGNORECASE
)
_OUT_OF_100_RE = re.compile(r"(?<![\d.])(-?\d+(?:\.\d+)?)\s*/\s*100(?!\.?\d)")


_REPLY_SHOWN = 80


class JudgeReplyError(ValueError):
    """A judge model's reply that states no 0-100 score: the value stays unscored."""


def _with_values(rubric: str, values: dict[str, Any]) -> str:
    text = json.dumps(values, ensure_ascii=False, default=str)
    return f"{rubric}\n{text}\n"


class Judge:
    """Helpers for implementing `pytest_bizbench_judge` with a language model."""

    @staticmethod
    def prompt(field: str, expected: Any, actual: Any) -> str:
        """The rubric followed by the field and both values, ready to send to a model."""
        return _with_values(
            JUDGE_RUBRIC, {"field": field, "expected": expected, "extracted": actual}
        )

    @staticmethod
    def qa_prompt(question: str, expected: Any, answer: Any) -> str:
        """The QA rubric followed by the question, the gold answer and the answer."""
        return _with_values(
            QA_RUBRIC, {"question": question, "gold_answer": expected, "answer": answer}
        )

    @staticmethod
    def nonanswer_prompt(question: str, expected: Any, answer: Any) -> str:
        """The non-answer rubric with the question, gold answer and answer (the
        `qa-answer` undetermined path; a `NONANSWER_FIELD` prefix is dropped)."""
        return _with_values(
            NONANSWER_RUBRIC,
            {
                "question": question.removeprefix(NONANSWER_FIELD),
                "gold_answer": expected,
                "answer": answer,
            },
        )

    @staticmethod
    def parse_score(text: str) -> float | None:
        """The 0-100 score a judge model's reply states, or None.

        Models answer in whatever shape they like, so three are read, first found
        wins: the whole reply as a JSON object with `score`, then the first fenced
        code block holding one, then prose (`score: 85`, `Score = 85`, `85/100`).
        A score outside 0-100 gives None rather than being clipped: the judge
        misread the scale, and its number means nothing.
        """
        found = _from_json(text.strip())
        if found is None:
            for block in _FENCED_RE.findall(text):
                found = _from_json(block.strip())
                if found is not None:
                    break
        if found is None and (match := _PROSE_RE.search(text) or _OUT_OF_100_RE.search(text)):
            found = float(match[1])
        if found is None or not 0.0 <= found <= 100.0:
            return None
        return found

    @staticmethod
    def grade_reply(text: str) -> float:
        """`parse_score`, for the built-in judge: a reply without a score raises
        `JudgeReplyError` quoting it, so the rung reports it `unscored` with the reason."""
        found = Judge.parse_score(text)
        if found is None:
            shown = text.strip()
            if len(shown) > _REPLY_SHOWN:
                shown = shown[:_REPLY_SHOWN] + "…"
            raise JudgeReplyError(f"no 0-100 score in the judge's reply {shown!r}")
        return found


def checked_grade(grade: object) -> float | None:
    """A judge hook's return value as a grade: None stays None, anything but a number
    in 0-100 raises `ValueError` (a hook that misreads the scale must not pass)."""
    if grade is None:
        return None
    if isinstance(grade, bool) or not isinstance(grade, (int, float)):
        raise ValueError(f"judge returned {grade!r}, not a number in 0-100")
    if not 0.0 <= grade <= 100.0:
        raise ValueError(f"judge returned {grade!r}, not a number in 0-100")
    return float(grade)


def _from_json(text: str) -> float | None:
    """`score` of a JSON object, as a float; None when text is no such object."""
    if not text.startswith("{"):
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    score = data.get("score") if isinstance(data, dict) else None
    if isinstance(score, bool):
        return None
    if isinstance(score, (int, float)):
        return float(score)
    if isinstance(score, str):
        try:
            return float(score.strip().removesuffix("/100"))
        except ValueError:
            return None
    return None
