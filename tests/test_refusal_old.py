"""The refusal catalog: every way of declining it names, and answers it must not call refusals."""

from __future__ import annotations

import pytest

from pytest_bizbench import is_refusal
from pytest_bizbench.scoring.refusal import BARE, CATALOG, refusal_patterns

# One or more refusals per catalog pattern, as models write them.
HITS = {
    "source-lacks": [
        "The provided context does not contain information about the FY2019 capital expenditure.",
        "I'm sorry, but the information provided does not include the quick ratio.",
        "The company's filings do not break out segment margins.",
        "The excerpts don't appear to mention the dividend.",
        "The 10-K does not break out segment capex; it only reports total capex of $1,200 million.",
    ],
    "cannot-answer": [
        "I do not know.",
        "I couldn't find this in the filing.",
        "Unfortunately, I cannot determine the effective tax rate from this.",
        "We are unable to identify the auditor from the pages given.",
    ],
    "cannot-be-determined": [
        "Cannot be determined from the given data.",
        "The operating margin can't be calculated without the cost of sales.",
    ],
    "unable-to": [
        "Based on the information provided, it is not possible to determine the margin.",
        "Unable to determine the answer from the context.",
        "It's impossible to say what the FY2023 guidance was.",
    ],
    "no-information": [
        "There is no information about dividends in the excerpt.",
        "No specific data regarding the pension obligation.",
    ],
    "there-is-no": ["There's no mention of a share buyback anywhere in the text."],
    "not-specified": [
        "Not specified in the document.",
        "The FY2022 figure is not disclosed in the provided pages (see page 45).",
        "The number of employees has not been provided.",
        "Dividend changes are not discussed.",
    ],
    "not-reported-in-source": [
        "The segment revenue is not reported in the filing.",
        "Stock-based compensation is unknown from the text.",
    ],
    "not-enough-information": [
        "Insufficient information to calculate the ratio.",
        "There is not enough data to answer.",
    ],
    "no-access": ["I don't have access to the full annual report."],
    "needs-more": ["We would need additional information to answer this question."],
    "unanswerable": ["The question is unanswerable with the excerpts provided."],
    "not-something-reported": ["This metric is not something the 10-K reports."],
    "out-of-scope": ["That is beyond the scope of the provided documents."],
    "silent-on": ["The filing is silent on the matter.", "The text makes no reference to leases."],
}

# Answers that mention missing data, or read like a refusal, but answer.
NEAR_MISSES = [
    # a number stated outside the refusal clause
    "Revenue was $1,577 million (the segment split is not disclosed).",
    "Although the exact figure is not disclosed, revenue was approximately $1.5 billion.",
    "Capex was $1.6 billion. Segment capex is not broken out in the filing.",
    "The exact figure cannot be determined, but it is approximately 12.4%.",
    # an opening yes or no is an answer, however it goes on
    "No, the company did not pay a dividend in FY2022.",
    "No. The context does not mention any dividend, so none was declared.",
    "Yes. The operating margin improved from 12.1% to 14.3%.",
    # a contrast clause with a plain claim
    "The context does not specify the auditor's fee, but the auditor is Smith & Lowe LLP.",
    # statements about the company, not about the source
    "The company does not disclose a dividend policy; it paid $0.50 per share in 2022.",
    "The company does not report a separate segment for services.",
    "The company cannot determine the outcome of the litigation, so no accrual was made.",
    "Management is unable to determine the timing of the payments, per Note 12.",
    # look-alike words
    "No information technology segment exists; segments are Industrial and Consumer.",
    "There was no impairment charge in 2022.",
    "The company has no debt, so the debt-to-equity ratio is 0.",
    "Cash decreased because the information systems upgrade cost $40 million.",
    "The quick ratio was 0.96.",
    # weak verbs need a place in the source to decline
    "The flood loss is not covered by insurance; the uninsured part was $12 million.",
    "The cause of the outage is unknown, and the company took a $3 million charge.",
]

# Refusals that carry numbers, but none that answers.
REFUSALS_WITH_NUMBERS = [
    "The context does not provide the FY2019 revenue. However, it mentions that FY2018 "
    "revenue was $500 million.",
    "I cannot determine the change in margin; the 10-K only reports 2022 gross margin of 35.2%.",
    "The data for Q3 2021 is not available in the provided 10-Q (Item 2, page 14).",
    "The FY2019 figure is not given; only FY2018 and FY2017 are covered.",
    "The June 30, 2023 balance is not disclosed in the excerpt.",
    # another year's figure, or what the source discusses instead
    "There isn't any SG&A figure for 2022 in the text; the 2021 figure was $1,815 million.",
    "The filing doesn't provide net unit growth; it discusses pipeline rooms of 462,000 instead.",
]


def test_every_catalog_pattern_has_a_hit() -> None:
    assert set(HITS) == set(CATALOG)


@pytest.mark.parametrize(
    ("pattern", "text"), [(name, text) for name, texts in HITS.items() for text in texts]
)
def test_catalog_hits(pattern: str, text: str) -> None:
    assert pattern in refusal_patterns(text)
    assert is_refusal(text)


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses_are_answers(text: str) -> None:
    assert not is_refusal(text)


@pytest.mark.parametrize("text", REFUSALS_WITH_NUMBERS)
def test_numbers_that_answer_nothing_keep_a_refusal(text: str) -> None:
    assert is_refusal(text)


@pytest.mark.parametrize(
    "text", ["N/A", "n/a.", "Unknown", "  Not disclosed. ", "\u201cNot available\u201d", "", None]
)
def test_bare_stock_phrases_and_blanks(text: str | None) -> None:
    assert is_refusal(text)


def test_bare_list_is_normalised() -> None:
    assert all(entry == entry.casefold().strip() for entry in BARE)


def test_normalisation_straightens_quotes_and_case() -> None:
    # curly apostrophe, capitals, doubled spaces
    assert is_refusal("I DON\u2019T   KNOW")
    assert refusal_patterns("The Context DOES NOT contain it") == ["source-lacks"]
