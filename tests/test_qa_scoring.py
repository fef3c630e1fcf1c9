"""The QA answer scorers, one test per rule of `scoring/answers.py`, by hand."""

from __future__ import annotations

import pytest

from pytest_bizbench.scoring.answers import (
    grade,
    is_numeric_gold,
    polarity,
    quantities,
    question_scale,
    requested_decimals,
    targets,
)
from pytest_bizbench.scoring.refusal import is_refusal

IN_MILLIONS = "What is the FY2018 capital expenditure amount (in USD millions)?"


def numeric(gold: str, answer: str, question: str = "") -> bool:
    return grade("numeric", gold, answer, question, declines=is_refusal).correct


# --- exact and contains -------------------------------------------------------


@pytest.mark.parametrize(
    ("gold", "answer", "correct"),
    [
        ("Yes", "yes", True),
        ("Yes", "Yes.", True),  # surrounding punctuation dropped
        ("Generic", '  "generic"  ', True),  # quotes and spaces dropped
        ("ﬁrm offer", "FIRM   OFFER", True),  # NFKC (the ligature) and case
        ("Yes", "Yes, because the clause says so", False),
        ("Descriptive", "Suggestive", False),
    ],
)
def test_exact(gold: str, answer: str, correct: bool) -> None:
    assert grade("exact", gold, answer).correct is correct


@pytest.mark.parametrize(
    ("gold", "answer", "correct"),
    [
        ("Smith & Lowe LLP", "The auditor is smith & lowe llp.", True),
        ("No", "Not at all", False),  # whole words only
        ("No", "The answer is no.", True),
        ("arbitrary", "arbitrarily chosen", False),
    ],
)
def test_contains(gold: str, answer: str, correct: bool) -> None:
    assert grade("contains", gold, answer).correct is correct


def test_unknown_scorer() -> None:
    with pytest.raises(ValueError, match="unknown scorer 'fuzzy'"):
        grade("fuzzy", "a", "a")


# --- reading numbers ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value", "scale", "percent"),
    [
        ("$1,577.00", 1577.0, 0, False),
        ("US$ 1,577", 1577.0, 0, False),
        ("USD 1.2 bn", 1.2, 9, False),
        ("1,577 million dollars", 1577.0, 6, False),
        ("$20k", 20.0, 3, False),
        ("4.5B", 4.5, 9, False),  # a decimal part makes the glued B a scale
        ("(300)", -300.0, 0, False),
        ("-3.5%", -3.5, 0, True),
        ("\u22123.5 percent", -3.5, 0, True),  # the minus sign U+2212
        ("12.5 percentage points", 12.5, 0, True),
        ("25 bps", 0.25, 0, True),  # hundredths of a percent
        ("2.5x", 2.5, 0, False),
        (".5", 0.5, 0, False),
    ],
)
def test_a_number_as_written(text: str, value: float, scale: int, percent: bool) -> None:
    [q] = quantities(text)
    assert (q.number, q.scale, q.percent) == (pytest.approx(value), scale, percent)


def test_what_is_not_a_candidate() -> None:
    text = (
        "In FY2018 (see page 45 and Note 7), 3M's 10-K for Q3 and COVID-19 on June 30, "
        "2023 was the 2nd filing; 1,400 stands."
    )
    found = quantities(text)
    # FY2018, 45, 7, 3M, 10-K, Q3, 19, 30 and 2nd are references; 2023 is a year
    assert [(q.text, q.year) for q in found] == [("2023", True), ("1,400", False)]
    assert [q.text for q in targets(text)] == ["1,400"]


def test_a_year_is_the_target_only_of_a_year_gold() -> None:
    assert [q.text for q in targets("2019")] == ["2019"]
    assert numeric("2019", "The merger closed in 2019.")
    assert not numeric("2019", "It closed in 2020.")
    # a year in the answer never matches a number gold: 2,019 is not the year 2019
    assert not numeric("$2,019 million", "In 2019 the figure was not given")


def test_question_scale_and_rounding_words() -> None:
    assert question_scale(IN_MILLIONS) == 6
    assert question_scale("Answer in USD thousands.") == 3
    assert question_scale("What was revenue ($ in billions)?") == 9
    assert question_scale("in millions of USD") == 6
    assert question_scale("What was revenue of $1 million customers?") == 0
    assert requested_decimals("Round your answer to two decimal places.") == 2
    assert requested_decimals("rounded to 1 decimal place") == 1
    assert requested_decimals("Round to the nearest whole number.") == 0
    assert requested_decimals(IN_MILLIONS) is None


# --- numeric matching rules -------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "correct"),
    [
        # gold $1577.00 in the question's millions = 1,577,000,000
        ("$1,577 million", True),
        ("1.577 billion", True),
        ("Capital expenditure came to $1.58 billion in FY2018.", True),  # 0.19% off
        ("$1,577M", True),  # glued M with a currency
        ("1577", True),  # written in the question's unit
        ("$1,577,000,000", True),  # written out in full
        ("$1.6 billion", True),  # 1.577 rounded to one decimal is 1.6
        ("$2 billion", False),  # one significant digit does not round-match
        ("$1,577 thousand", False),  # the wrong scale
        ("$1,600 million", False),  # 1.46% off, and 1577 rounds to 1,577 not 1,600
        ("$1,420 million", False),  # 10% off
    ],
)
def test_scale_from_the_question(answer: str, correct: bool) -> None:
    assert numeric("$1577.00", answer, IN_MILLIONS) is correct


@pytest.mark.parametrize(
    ("gold", "answer", "correct"),
    [
        ("$4.5 billion", "4,500 million", True),
        ("$1,577 million", "$1.577bn", True),
        ("$1,577 million", "Revenue was 1577", True),  # an unscaled answer takes the gold's scale
        ("1577", "$1,577 million", True),  # no scale known: the answer's own does not count
        ("$1,577 million", "$1,577 billion", False),
    ],
)
def test_scales_between_gold_and_answer(gold: str, answer: str, correct: bool) -> None:
    assert numeric(gold, answer) is correct


@pytest.mark.parametrize(
    ("gold", "answer", "correct"),
    [
        ("100", "100.99", True),  # 0.99% off
        ("100", "101.01", False),  # 1.01% off, and 100 is no rounding of 101.01
        ("0.96", "The quick ratio was 0.96.", True),
        ("0.96", "0.97", False),  # 1.04% off
        ("24.26%", "24.3%", True),  # 0.16% off
        ("24.26%", "24%", True),  # 24.26 rounded to 0 decimals, two significant digits
        ("24.26%", "20%", False),
        ("0.96", "1.0", True),  # rounded to the one decimal written
        ("0", "0", True),
        ("0", "0.001", False),
    ],
)
def test_tolerance_and_rounding(gold: str, answer: str, correct: bool) -> None:
    assert numeric(gold, answer) is correct


def test_the_question_can_ask_for_decimals() -> None:
    question = "What is the quick ratio? Round your answer to two decimal places."
    assert not numeric("0.96", "1.0", question)  # one decimal given, two asked
    assert numeric("0.96", "0.96", question)
    assert not numeric("$1577.00", "$1.6 billion", IN_MILLIONS + " Round to two decimal places.")


@pytest.mark.parametrize(
    ("gold", "answer", "correct"),
    [
        ("12.5%", "0.125", True),  # a fraction equals its percent
        ("0.125", "12.5%", True),
        ("12.5%", "12.5", True),  # a percent written without its sign
        ("65.4%", "The gross margin was 65.4 percent", True),
        ("0.66", "66%", True),
        ("118%", "1.18", True),  # a ratio is a fraction too
        ("1.18", "118%", True),
        ("125%", "1.35", False),
        ("12.5%", "$0.125", False),  # money is never a percent
        ("12.5%", "12.5 million", False),
        ("25 bps", "0.25%", True),
    ],
)
def test_percent_and_fraction(gold: str, answer: str, correct: bool) -> None:
    assert numeric(gold, answer) is correct


@pytest.mark.parametrize(
    ("gold", "answer", "correct"),
    [
        ("-3.2%", "3.2%", False),  # the wrong sign
        ("-3.2%", "an increase of 3.2%", False),
        ("-3.2%", "-3.2%", True),
        ("-3.2%", "Revenue declined by 3.2%", True),  # a word of decrease: either sign
        ("-$50 million", "a net loss of $50 million", True),
        ("$50 million", "a net loss of $50 million", True),
        ("(300)", "-300", True),
        ("-300", "(300)", True),
        ("300", "(300)", False),
    ],
)
def test_signs(gold: str, answer: str, correct: bool) -> None:
    assert numeric(gold, answer) is correct


def test_a_question_about_a_loss_takes_either_sign() -> None:
    question = "What was Halcyon's FY2023 net loss (in USD millions)?"
    assert numeric("-$188.2", "$188.2 million", question)
    assert numeric("-$188.2", "-$188.2 million", question)
    # without such a word in the question, the sign counts
    assert not numeric("-$188.2", "$188.2 million", "What was net income (in USD millions)?")


def test_a_month_hides_a_day_not_a_year() -> None:
    assert [q.text for q in quantities("It matures on March 15, 2027.")] == ["2027"]
    assert numeric("2027", "It matures in March 2027.")


def test_several_numbers_in_an_answer() -> None:
    answer = "Revenue rose from $1,200 million in FY2021 to $1,577 million in FY2022, up 31.4%."
    assert numeric("$1,577 million", answer)
    assert numeric("31.4%", answer)
    assert not numeric("$1,300 million", answer)
    # a gold with two numbers needs both
    assert numeric("FY2021: $1,200 million; FY2022: $1,577 million", answer)
    assert not numeric("$1,200 million and $1,650 million", answer)


def test_yes_no_gold() -> None:
    assert polarity("Yes, it is.") == "yes"
    assert polarity("No.") == "no"
    assert polarity("No information is given") is None  # "no" needs punctuation
    gold = "Yes. The quick ratio improved from 0.8 to 0.96."
    assert numeric(gold, "Yes, it improved.")
    verdict = grade("numeric", gold, "No, it worsened.", declines=is_refusal)
    assert (verdict.correct, verdict.reason) == (False, "opposite-answer")
    # without a yes/no of its own, the gold's numbers decide
    assert numeric(gold, "It went from 0.8 to 0.96.")
    assert not numeric(gold, "It went up to 1.1.")
    # "No <noun> ..." says no, unless it declines
    assert numeric("No", "No impairment was recorded.")
    assert not numeric("No", "No information about impairment is given.")
    # a yes/no gold without numbers cannot tell
    verdict = grade("numeric", "Yes", "The company is capital intensive.", declines=is_refusal)
    assert (verdict.correct, verdict.decided) == (False, False)


def test_text_gold_under_numeric_falls_back_to_exact_then_contains() -> None:
    assert numeric("Smith & Lowe LLP", "The auditor is Smith & Lowe LLP.")
    verdict = grade("numeric", "Smith & Lowe LLP", "Another firm", declines=is_refusal)
    assert (verdict.correct, verdict.rung, verdict.decided) == (False, "contains", False)


def test_no_number_and_out_of_tolerance_reasons() -> None:
    assert grade("numeric", "0.96", "It improved a lot.", declines=is_refusal).reason == "no-number"
    assert grade("numeric", "0.96", "It was 1.5.", declines=is_refusal).reason == "out-of-tolerance"
    assert grade("numeric", "0.96", "It was 0.96.", declines=is_refusal).matched == "0.96"


def test_numeric_gold() -> None:
    assert is_numeric_gold("$1577.00")
    assert is_numeric_gold("The margin was 12%.")
    assert not is_numeric_gold("Yes, 12%.")
    assert not is_numeric_gold("Smith & Lowe LLP")


def test_a_no_that_opens_a_refusal_answers_no_yes_no_question() -> None:
    assert not grade(
        "numeric", "No", "No, I can't say whether it did.", declines=is_refusal
    ).correct
    # the detector is what tells it: without one, the opening "No" is read as the answer
    assert grade("numeric", "No", "No, I can't say whether it did.").correct
    assert grade("numeric", "No", "No, the company did not pay one.", declines=is_refusal).correct


def test_the_words_before_a_number_are_read_near_it_and_only_whole() -> None:
    """The cues before a number are looked for within `BEFORE_CHARS` of it (a long
    answer of many numbers stays linear), and a word cut by that window's start is
    still read whole: "aaanote 12" is no reference to note 12."""
    from pytest_bizbench.scoring.references import BEFORE_CHARS

    assert BEFORE_CHARS == 256
    # the window starts at the "n" of "note": `\b` still sees the "a" before it
    assert [q.number for q in quantities("aaanote" + " " * 252 + "12")] == [12.0]
    assert [q.number for q in quantities("   note" + " " * 252 + "12")] == []
    deep = "x " * 400 + "see note 12, revenue fell to 5"
    assert [(q.number, q.either_sign) for q in quantities(deep)] == [(5.0, True)]
    # a cue farther away than the window is not read
    far = "revenue decreased by" + " " * 300 + "7"
    assert [(q.number, q.either_sign) for q in quantities(far)] == [(7.0, False)]
    assert [(q.number, q.either_sign) for q in quantities("revenue decreased by 7")] == [
        (7.0, True)
    ]
