"""The non-answer detector: each class found, each precision trap left alone, three outcomes."""

from __future__ import annotations

import pytest

from pytest_bizbench import is_refusal
from pytest_bizbench.scoring.refusal import (
    ANSWERED,
    CUE_CHARS,
    NONANSWER_FIELD,
    REFUSED,
    UNDETERMINED,
    detect,
    hook_nonanswer_judge,
)
from pytest_bizbench.scoring.refusal_catalog import CLASSES, SLUGS

NUMERIC_Q = "What was Orrin Tools' FY2022 operating cash flow (in USD millions)?"
NUMERIC_GOLD = "$918.00"
YES_NO_Q = "Did Orrin Tools repurchase shares in FY2022?"

# Two or more non-answers per class, each with the question and gold it answers.
CLASS_CASES: dict[str, list[tuple[str, str, str]]] = {
    "inability": [
        ("I'm unable to provide Orrin's operating cash flow.", "", ""),
        ("Sorry, but we cannot state that figure reliably.", "", ""),
        ("I do not know the answer to this.", YES_NO_Q, "Yes"),
    ],
    "source-absence": [
        ("The supplied excerpt doesn't include a cash flow statement.", "", ""),
        ("Nothing in the provided pages covers share repurchases.", YES_NO_Q, "Yes"),
        ("Based on the context, I could not find operating cash flow anywhere.", "", ""),
    ],
    "passive-unavailability": [
        ("Operating cash flow for FY2022 is not reported in what was shared.", "", ""),
        ("Cash from operations: not disclosed.", "", ""),
    ],
    "insufficient-info": [
        ("There is insufficient data here to work this out.", "", ""),
        ("The FY2022 figure cannot be determined from these statements.", "", ""),
    ],
    "cutoff": [
        ("My knowledge cutoff is before Orrin published its FY2022 report.", "", ""),
        ("I don't have access to real-time or recent filings.", "", ""),
    ],
    "capability": [
        ("As an AI language model, I can't open SEC filings.", "", ""),
        ("I am only a text-based assistant and cannot browse the internet.", "", ""),
    ],
    "redirect": [
        ("You should consult Orrin's 10-K for the operating cash flow.", "", ""),
        ("Please check the investor relations website.", YES_NO_Q, "Yes"),
    ],
    "asks-input": [
        ("If you paste the cash flow statement, I can pull the number out.", "", ""),
        ("Could you share the FY2022 10-K first?", "", ""),
    ],
    "advice-refusal": [
        ("I can't give personalised investment advice about Orrin.", "", ""),
        ("I'm not a licensed financial adviser, so I won't weigh in.", YES_NO_Q, "Yes"),
    ],
    "generic-substitute": [
        ("Operating cash flow is net income adjusted for non-cash items.", NUMERIC_Q, NUMERIC_GOLD),
        ("To compute it you would add back depreciation to net income.", NUMERIC_Q, NUMERIC_GOLD),
    ],
    "vague-estimate": [
        ("Probably several hundred million dollars.", NUMERIC_Q, NUMERIC_GOLD),
        ("Somewhere in the high hundreds of millions, I'd guess.", "", ""),
    ],
    "partial-work": [
        ("Net income was $610 million; the non-cash adjustments aren't given, so I cannot "
         "finish the calculation.", NUMERIC_Q, NUMERIC_GOLD),
        ("Depreciation was $205 million. Working capital changes are missing, so the total "
         "cannot be computed.", "", ""),
    ],
    "rejects-premise": [
        ("Operating cash flow isn't a meaningful measure for Orrin.", NUMERIC_Q, NUMERIC_GOLD),
        ("The question assumes Orrin reports cash flow by segment, which it does not.", "", ""),
    ],
}  # fmt: skip


def test_the_taxonomy_has_fourteen_documented_classes() -> None:
    assert SLUGS == (
        "advice-refusal", "asks-input", "capability", "cutoff", "empty-structural",
        "generic-substitute", "inability", "insufficient-info", "partial-work",
        "passive-unavailability", "redirect", "rejects-premise", "source-absence",
        "vague-estimate",
    )  # fmt: skip
    assert all(cls.doc for cls in CLASSES)
    assert all(cls.cues for cls in CLASSES if cls.slug != "empty-structural")
    assert set(CLASS_CASES) | {"empty-structural"} == set(SLUGS)


@pytest.mark.parametrize(
    ("slug", "answer", "question", "gold"),
    [(slug, *case) for slug, cases in CLASS_CASES.items() for case in cases],
)
def test_each_class_is_refused_with_its_slug(
    slug: str, answer: str, question: str, gold: str
) -> None:
    decision = detect(answer, question, gold)
    assert decision.outcome == REFUSED
    assert decision.refusal_class == slug
    assert decision.cue is not None


@pytest.mark.parametrize(
    ("answer", "signals", "cue"),
    [
        ("", {}, None),
        ("   ", {}, None),
        ("{}", {}, None),
        ("N/A.", {}, None),
        ("```json\n{}\n```", {}, None),
        ('{"answer": null}', {}, None),
        (None, {}, None),
        ("Operating cash flow was $918 million.", {"provider_refusal": "I can't help."},
         "I can't help."),
        ("", {"finish_reason": "content_filter"}, "finish_reason: content_filter"),
    ],
)  # fmt: skip
def test_structural_signals_come_first(
    answer: str | None, signals: dict[str, str], cue: str | None
) -> None:
    decision = detect(answer, NUMERIC_Q, NUMERIC_GOLD, **signals)
    assert (decision.outcome, decision.refusal_class, decision.cue) == (
        REFUSED,
        "empty-structural",
        cue,
    )


def test_an_ordinary_stop_reason_is_no_signal() -> None:
    assert detect("$918 million", finish_reason="stop").outcome == ANSWERED


# Each precision trap: answers that must NOT be called refusals.
TRAPS: dict[str, list[tuple[str, str, str]]] = {
    "subject-negation": [
        ("The company cannot reasonably estimate the loss, so no accrual was recorded.", "", ""),
        ("Management was unable to refinance the notes; operating cash flow was $918 million.",
         NUMERIC_Q, NUMERIC_GOLD),
        ("No. The board did not authorise a buyback and none took place.", YES_NO_Q, "No"),
    ],
    "quoted-speech": [
        ("'I cannot let you pass,' the guard said.", "", ""),
        ('Operating cash flow was $918 million; the CEO said "we could not have done better".',
         NUMERIC_Q, NUMERIC_GOLD),
    ],
    "role-opener": [
        ("As an equity analyst would, I start from net income and reach $918 million.",
         NUMERIC_Q, NUMERIC_GOLD),
        ("As a credit analyst, I would call it $918 million of operating cash flow.", "", ""),
    ],
    "bare-apology": [
        ("I'm sorry to hear that.", "", ""),
        ("Sorry for the confusion earlier: operating cash flow was $918 million.", NUMERIC_Q,
         NUMERIC_GOLD),
    ],
    "disclaimer-then-answer": [
        ("I don't have live data, but the FY2022 figure was $918 million.", NUMERIC_Q,
         NUMERIC_GOLD),
        ("I can't be certain without the filing; my answer is $918 million.", NUMERIC_Q,
         NUMERIC_GOLD),
        ("I can't browse the web. Yes, Orrin bought back shares in FY2022.", YES_NO_Q, "Yes"),
    ],
    "negative-gold": [
        ("The filing does not mention any share repurchases in FY2022.", YES_NO_Q,
         "No, there were no share repurchases."),
        ("There were no share repurchases that year.", YES_NO_Q, "No"),
    ],
    "partial-limitation": [
        ("Operating cash flow was $918 million; the split by segment is not disclosed.",
         NUMERIC_Q, NUMERIC_GOLD),
        ("$918 million. The drivers of the change aren't discussed in the excerpt.", "", ""),
    ],
    "topic-words": [
        ("Operating cash flow was $918 million after a fine for illegal dumping.", NUMERIC_Q,
         NUMERIC_GOLD),
        ("Yes; the buyback was funded from the sale of a harmful-chemicals unit.", YES_NO_Q,
         "Yes"),
    ],
}  # fmt: skip


@pytest.mark.parametrize(
    ("trap", "answer", "question", "gold"),
    [(trap, *case) for trap, cases in TRAPS.items() for case in cases],
)
def test_precision_traps_are_not_refusals(trap: str, answer: str, question: str, gold: str) -> None:
    decision = detect(answer, question, gold)
    assert decision.outcome == ANSWERED
    assert (decision.refusal_class, decision.cue) == (None, None)


def test_absence_that_matches_a_negative_gold_is_an_answer_only_then() -> None:
    answer = "The filing does not mention any share repurchases in FY2022."
    assert detect(answer, YES_NO_Q, "No").agrees_with_gold
    assert detect(answer, YES_NO_Q, "Yes").outcome == REFUSED
    # silence about the thing is not a statement that there was none
    assert detect("The excerpt is silent on buybacks.", YES_NO_Q, "No").outcome == REFUSED


def test_rejecting_the_premise_is_an_answer_when_the_gold_rejects_it_too() -> None:
    answer = "Gross margin is not meaningful for a bank."
    agreeing = detect(answer, "What is the bank's gross margin?", "Not applicable: it is a bank.")
    assert (agreeing.outcome, agreeing.agrees_with_gold) == (ANSWERED, True)
    assert detect(answer, "What is the bank's gross margin?", "41.2%").refusal_class == (
        "rejects-premise"
    )


def test_an_apology_counts_only_with_an_inability_after_it() -> None:
    assert detect("I'm sorry, I can't answer that.").refusal_class == "inability"
    assert detect("I'm sorry for the late reply.").outcome == ANSWERED


def test_a_definite_answer_of_the_question_kind_overrides_a_cue() -> None:
    # a number for a numeric question
    assert detect(
        "The context is thin, but it was $918 million.", NUMERIC_Q, NUMERIC_GOLD
    ).outcome == (ANSWERED)
    # an opening yes/no does not answer a numeric question
    assert detect("No, the excerpt does not give it.", NUMERIC_Q, NUMERIC_GOLD).outcome == REFUSED
    # a figure for another year than the one declined answers nothing
    other_year = "The 2022 figure is not given; the 2021 figure was $802 million."
    assert detect(other_year, NUMERIC_Q, NUMERIC_GOLD).outcome == REFUSED


def test_unfinished_work_keeps_the_refusal() -> None:
    decision = detect(
        "Net income was $610 million. Without the working-capital lines I cannot complete it."
    )
    assert (decision.outcome, decision.refusal_class) == (REFUSED, "partial-work")
    assert decision.cue == "Without the working-capital lines I cannot complete it."


def test_a_numeric_question_answered_without_any_figure_is_no_answer() -> None:
    decision = detect("Cash flow was healthy and improving.", NUMERIC_Q, NUMERIC_GOLD)
    assert (decision.outcome, decision.refusal_class) == (REFUSED, "generic-substitute")
    # a figure in words is a figure
    assert detect("About nine hundred million dollars.", NUMERIC_Q, NUMERIC_GOLD).outcome == (
        ANSWERED
    )
    assert detect("Roughly five percent.", "What was the margin?", "5.1%").outcome == ANSWERED


def test_a_weak_cue_in_the_middle_is_undetermined() -> None:
    # a hedge with no figure, neither first nor last sentence: 0.8 x 0.75 = 0.6
    answer = "Orrin is a tool maker. Its cash flow is probably large. Thanks for asking."
    decision = detect(answer)
    assert (decision.outcome, decision.refusal_class) == (UNDETERMINED, "vague-estimate")
    assert decision.cue == "Its cash flow is probably large."
    assert not is_refusal(answer)  # undetermined counts as answered without a judge


def test_the_cue_is_the_deciding_sentence_cut_to_200_characters() -> None:
    long = "The provided excerpt does not contain " + "any of the requested lines " * 20 + "."
    decision = detect("Revenue grew. " + long)
    assert decision.cue is not None
    assert len(decision.cue) == CUE_CHARS
    assert decision.cue.startswith("The provided excerpt does not contain")
    assert decision.cue.endswith("…")


def test_normalisation_reads_curly_quotes_and_capitals() -> None:
    assert is_refusal("I DON\u2019T   KNOW")
    assert is_refusal("The Context DOESN\u2019T contain it")


def test_the_hook_judge_asks_with_a_prefixed_field() -> None:
    calls: list[tuple[str, object, object]] = []

    def judge(field: str, expected: object, actual: object) -> float | None:
        calls.append((field, expected, actual))
        return {"a": 80.0, "b": 49.0, "c": None}[str(actual)]

    decide = hook_nonanswer_judge(judge)
    assert decide("Q?", "a", "gold") is True
    assert decide("Q?", "b", "gold") is False
    assert decide("Q?", "c", "gold") is None
    assert calls[0] == (NONANSWER_FIELD + "Q?", "gold", "a")


@pytest.mark.parametrize("grade", [101.0, -1.0, True, "80"])
def test_the_hook_judge_rejects_grades_off_the_scale(grade: object) -> None:
    decide = hook_nonanswer_judge(lambda field, expected, actual: grade)  # type: ignore[arg-type,return-value]
    with pytest.raises(ValueError, match="not a number in 0-100"):
        decide("Q?", "answer", "gold")


# Regressions kept from the phrase catalog this detector replaced
OLD_REFUSALS = [
    "The company's filings do not break out segment margins.",
    "No specific data regarding the pension obligation.",
    "That is beyond the scope of the provided documents.",
    "The 10-K does not break out segment capex; it only reports total capex of $1,200 million.",
    "The context does not provide the FY2019 revenue. However, it mentions that FY2018 "
    "revenue was $500 million.",
    "I cannot determine the change in margin; the 10-K only reports 2022 gross margin of 35.2%.",
    "The FY2019 figure is not given; only FY2018 and FY2017 are covered.",
    "There isn't any SG&A figure for 2022 in the text; the 2021 figure was $1,815 million.",
    "The filing doesn't provide net unit growth; it discusses pipeline rooms of 462,000 instead.",
]
OLD_ANSWERS = [
    "Revenue was $1,577 million (the segment split is not disclosed).",
    "Although the exact figure is not disclosed, revenue was approximately $1.5 billion.",
    "The exact figure cannot be determined, but it is approximately 12.4%.",
    "No. The context does not mention any dividend, so none was declared.",
    "The context does not specify the auditor's fee, but the auditor is Smith & Lowe LLP.",
    "The company does not disclose a dividend policy; it paid $0.50 per share in 2022.",
    "No information technology segment exists; segments are Industrial and Consumer.",
    "The flood loss is not covered by insurance; the uninsured part was $12 million.",
]


@pytest.mark.parametrize("text", OLD_REFUSALS)
def test_old_catalog_refusals_stay_refusals(text: str) -> None:
    assert is_refusal(text)


@pytest.mark.parametrize("text", OLD_ANSWERS)
def test_old_catalog_answers_stay_answers(text: str) -> None:
    assert not is_refusal(text)


# Second pass: mechanisms that the misses of a second, blind development set pointed at
WHICH_Q = "Which of Orrin Tools' segments generated the most revenue in FY2022?"
WHICH_GOLD = "Power Tools, with $2,140 million of revenue."
DRIVER_Q = "What was the main driver of Orrin Tools' margin improvement in FY2022?"
DRIVER_GOLD = "Lower steel costs (2.1 points of margin)."


@pytest.mark.parametrize(
    ("answer", "question", "gold", "slug"),
    [
        # a lead-in runs into the subject without a comma
        ("Based on the excerpt I can't give the figure.", NUMERIC_Q, NUMERIC_GOLD, "inability"),
        ("To answer this you would look at the cash flow statement.", YES_NO_Q, "Yes",
         "redirect"),
        # deferral verbs: refer, reach out, confirm with
        ("I'd refer you to the FY2022 annual report.", YES_NO_Q, "Yes", "redirect"),
        ("You might reach out to the company directly for that.", YES_NO_Q, "Yes", "redirect"),
        ("That would be something to confirm with investor relations.", YES_NO_Q, "Yes",
         "redirect"),
        ("The proxy statement will name it.", WHICH_Q, WHICH_GOLD, "redirect"),
        # requests: an imperative, a wish after a few words
        ("Share the FY2022 10-K and I'll check.", YES_NO_Q, "Yes", "asks-input"),
        ("Happy to look into this once I have the 10-K.", YES_NO_Q, "Yes", "asks-input"),
        # the source's verb after what it does give
        ("The excerpt gives revenue and margins but says nothing about buybacks.", YES_NO_Q,
         "Yes", "source-absence"),
        ("The document focuses on results and does not get into shareholder returns.",
         YES_NO_Q, "Yes", "source-absence"),
        ("The excerpt is limited to the income statement.", YES_NO_Q, "Yes", "source-absence"),
        # a subject-less inability, a thing the model does not have
        ("Can't confirm either way.", YES_NO_Q, "Yes", "inability"),
        ("Not something I can confirm.", YES_NO_Q, "Yes", "inability"),
        ("I lack visibility into Orrin's buyback decisions.", YES_NO_Q, "Yes", "inability"),
        # work that stops: a need, a question left open
        ("Capex was $410 million; revenue would still be needed to express it as a share.",
         NUMERIC_Q, NUMERIC_GOLD, "partial-work"),
        ("Net income was $610 million, so whether it improved is something I'd leave open.",
         NUMERIC_Q, NUMERIC_GOLD, "partial-work"),
        # a text question answered with a kind of thing or the metric's definition
        ("It's probably one of its larger segments.", WHICH_Q, WHICH_GOLD, "vague-estimate"),
        ("The margin is the difference between revenue and cost, over revenue.", DRIVER_Q,
         DRIVER_GOLD, "generic-substitute"),
        # a yes/no question answered with no side taken
        ("Possibly.", YES_NO_Q, "Yes", "vague-estimate"),
        ("It could have gone either way.", YES_NO_Q, "Yes", "vague-estimate"),
        ("It's a toss-up.", YES_NO_Q, "Yes", "vague-estimate"),
        # where the answer is published, instead of the answer
        ("This is disclosed in the financing section of the 10-K.", YES_NO_Q, "Yes",
         "redirect"),
        ("The audit report in the 10-K names the firm.", WHICH_Q, WHICH_GOLD, "redirect"),
        # a step, then how to finish
        ("Average net PP&E is 535. To get the ratio, divide revenue by 535.",
         "What is Orrin's fixed asset turnover?", "8.07", "partial-work"),
        # the premise, in other words
        ("Gross margin isn't really the right lens for a bank.", "What is the gross margin?",
         "41.2%", "rejects-premise"),
        # the reasons beside a premise rejection are not an answer to the question
        ("The question presupposes that Orrin reports backlog. It sells from stock, so "
         "backlog is small and changes daily.", "Did Orrin's backlog increase in FY2022?",
         "Yes, to $1.2 billion.", "rejects-premise"),
        # a prepositional lead-in runs into an impersonal "there is" / "it is"
        ("Without the FY2022 statements there is not enough to go on.", YES_NO_Q, "Yes",
         "insufficient-info"),
        ("From the pages provided it is impossible to say.", YES_NO_Q, "Yes",
         "insufficient-info"),
        ("Whether the buyback was completed is hard to say.", YES_NO_Q, "Yes",
         "insufficient-info"),
        # an imperative pointing at a footnote; a raised negation about the training data
        ("Check the equity footnote in Orrin's FY2022 annual report.", YES_NO_Q, "Yes",
         "redirect"),
        ("I don't think my training data covers Orrin's FY2022 report.", NUMERIC_Q,
         NUMERIC_GOLD, "cutoff"),
        ("I can't explain the reasons for the margin change.", DRIVER_Q, DRIVER_GOLD,
         "inability"),
        # the source as a retrieval chunk; "nothing that addresses"
        ("Net income was $610 million, but the cash flow lines are not in the chunks I "
         "was given.", NUMERIC_Q, NUMERIC_GOLD, "partial-work"),
        ("I went through the retrieved pages: plenty on pricing, but nothing that "
         "addresses steel costs.", DRIVER_Q, DRIVER_GOLD, "source-absence"),
        # a step, a need with an adverb, the value left uncomputed
        ("Operating cash flow starts from net income of $610 million. To finish I would "
         "also need the working-capital lines, so I'll leave the figure uncomputed.",
         NUMERIC_Q, NUMERIC_GOLD, "partial-work"),
        # a two-part question: the thing named, the asked share left open
        ("The largest customer was the Department of Defense. What share of revenue it "
         "made up I can't say: the percentage isn't given.",
         "Who was Orrin's largest customer, and what share of revenue did it account for?",
         "The U.S. Department of Defense, about 38% of revenue.", "partial-work"),
        # a formula whose constant sits in its own clause, ranges with "roughly"
        ("Operating margin is operating income divided by revenue (multiply by 100 for a "
         "percentage); industrial firms typically land between roughly 8% and 15%.",
         "What was Orrin's FY2022 operating margin?", "12.4%", "generic-substitute"),
        ("Retail comparable sales are usually reported for stores open at least 13-14 "
         "months.", "What was Orrin's FY2022 comparable sales growth?", "-2.1%", "redirect"),
        # a step, then the gap or the step left: the figure is no answer
        ("Operating cash flow was $455 million; I can't see capex here, so the free cash "
         "flow stops there.", "What was Orrin's FY2022 free cash flow (in USD millions)?",
         "$274.00", "partial-work"),
        ("Average assets are $2,025 million. Net income goes in the numerator.",
         "What was Orrin's FY2022 return on average assets?", "5.1%", "partial-work"),
        ("Total debt was $1,430 million. Netting cash against it is the remaining step.",
         "What was Orrin's net debt at the end of FY2022 (in USD millions)?", "$1,045.00",
         "partial-work"),
        # a which-question asked about segments: "segment" is no mere detail here
        ("Hand tools made $1,450 million and Fasteners $826 million; the third segment's row "
         "is cut off, so I can't determine which segment was the largest.", WHICH_Q,
         WHICH_GOLD, "partial-work"),
        ("I'd look at the segment note in the FY2022 10-K.", WHICH_Q, WHICH_GOLD, "redirect"),
        # companies in general name nothing about this one, whatever words they share
        ("Under ASC 606, companies recognize revenue over time or at a point in time. "
         "Which applies depends on the terms of each contract.",
         "How does Orrin recognize revenue on its service contracts?",
         "Over time, using the cost-to-cost input method.", "partial-work"),
        # a cause clause split off its main clause; a report newer than the training
        ("Because my training data does not include Orrin's FY2022 results, I cannot "
         "determine its growth.", YES_NO_Q, "Yes", "cutoff"),
        ("Orrin's FY2022 report came out after my training data ends, so I genuinely "
         "don't know.", YES_NO_Q, "Yes", "cutoff"),
        # a figure in brackets, then "which isn't enough"
        ("Only the year-end inventory balance ($612.4 million) made it into the context, "
         "which isn't enough to compute turnover.", "What was Orrin's FY2022 inventory "
         "turnover?", "5.2", "partial-work"),
        ("Hard to say exactly; it could be either channel.", "Which sales channel "
         "generated most of Orrin's revenue?", "Wholesale, 61% of revenue.",
         "insufficient-info"),
        # the question's own threshold is no figure of the answer's
        ("If you paste the concentration note, I can tell you which customer crossed 10% "
         "and by how much.", "Did any customer account for more than 10% of Orrin's "
         "revenue?", "Yes; Arlen Components, 17%.", "asks-input"),
        # a step, then a request the answer waits for
        ("I can see a loss ratio of 66.1%, but I'd need you to share the expense ratio "
         "before I can give you the combined ratio.", "What was Orrin Insurance's FY2022 "
         "combined ratio?", "97.3%", "partial-work"),
        # a kind of company's usual figure; a phase number; numbered steps
        ("A builder of Orrin's size typically closes around ten thousand homes a year.",
         "How many homes did Orrin Homes deliver in FY2022?", "8,412 homes",
         "generic-substitute"),
        ("Late-stage biotechs running a Phase 3 program usually spend a few hundred million "
         "dollars a year on R&D.", "What was Orrin Bio's FY2022 R&D expense (in USD "
         "millions)?", "$412.00", "generic-substitute"),
        ("Free cash flow is operating cash flow less capex.\n\n1. Take operating cash "
         "flow.\n2. Subtract capex.", "What was Orrin's FY2022 free cash flow (in USD "
         "millions)?", "$274.00", "generic-substitute"),
        # a plain "No" gold does not reject the premise with the answer
        ("GAAP profitability isn't really the relevant measure for a software company.",
         "Was Orrin Software profitable on a GAAP basis in FY2023?",
         "No; it reported a GAAP net loss of $87.2 million.", "rejects-premise"),
        # more of a metric's definition is no claim about the company
        ("Inventory turnover is cost of goods sold over average inventory. A higher number "
         "means goods move quickly, so it is important to compare like with like.",
         "What was Orrin Software's inventory turnover in FY2023?",
         "Not meaningful: Orrin holds no inventory.", "generic-substitute"),
        # a why-question asks for the explanation: it is no mere detail; "there is X" is
        # what the source has
        ("Revenue rose in a soft market. Unfortunately, the pages I have don't include "
         "management's explanation of what drove it; there is segment revenue, but no "
         "commentary attributing the change.", "According to management, what was the "
         "main driver of Orrin's revenue growth?", "Higher prices in the Tools segment.",
         "source-absence"),
        ("I wish I could help, but I'm an AI without internet access, so digging into "
         "segment data isn't possible for me.", WHICH_Q, WHICH_GOLD, "inability"),
        ("The segment table appears to be an image. I can only process the text layer, so "
         "the figures are not readable for me.", WHICH_Q, WHICH_GOLD, "partial-work"),
        ("Working only from these pages, I am not able to say which segment was the "
         "biggest.", WHICH_Q, WHICH_GOLD, "inability"),
        ("I don't think I have enough to go on to answer this reliably.", YES_NO_Q, "Yes",
         "insufficient-info"),
        ("Nothing about buybacks in the provided pages.", YES_NO_Q, "Yes", "source-absence"),
        ("Dividends paid: $214.6M. Net income not in excerpt; ratio incomplete.",
         "What was Orrin's FY2022 dividend payout ratio?", "38.2%", "partial-work"),
        ("Orrin's quarterly supplement is your best bet.", WHICH_Q, WHICH_GOLD, "redirect"),
        ("I'm going to stay out of anything that looks like advice on Orrin's bonds.",
         "Are Orrin's bonds a safe holding?", "Yes; rated A-.", "advice-refusal"),
        ("Whether Orrin carries too much debt for you to own it is an investment call.",
         "Does Orrin carry too much debt?", "No; net debt is 1.2x EBITDA.", "advice-refusal"),
        ("If I remember right, Orrin reports one segment, so there wouldn't be a ranking of "
         "segments to give you.", WHICH_Q, WHICH_GOLD, "rejects-premise"),
        ("Sounds like you're weighing Orrin as an investment. I'm going to sit that one "
         "out; a fee-only planner could walk through it with you.", "Is Orrin a good buy?",
         "Yes; its margins are rising.", "inability"),
        ("Orrin operates as a single segment, so there are no reportable segments to list.",
         "What are Orrin's reportable segments?", "Tools and Fasteners.", "rejects-premise"),
        ("I think the question may be based on a misunderstanding: Orrin reports as one "
         "segment, so there isn't really a largest segment to name.", WHICH_Q, WHICH_GOLD,
         "rejects-premise"),
        ("Interest expense was $285 million. The operating income figure is the piece I "
         "can't pin down, so no coverage ratio from me.", "What was Orrin's FY2023 interest "
         "coverage ratio?", "6.1x", "partial-work"),
        ("Orrin's dividend history is easiest to confirm on the investor relations site.",
         YES_NO_Q, "Yes", "redirect"),
        ("Segment revenue shows up in the segment note. Grab Orrin's FY2023 10-K and it'll "
         "tell you which segment led.", WHICH_Q, WHICH_GOLD, "redirect"),
        ("The patent office lists expiry dates, so look the drug up there, or check the IP "
         "section of Orrin's 10-K.", "When does Orrin's main patent expire?", "2031",
         "redirect"),
        ("Probably sometime in the late 2020s.", "When does Orrin's main patent expire?",
         "In 2031.", "vague-estimate"),
        # "MD&A." ends a sentence: "A." after "&" is no initial
        ("There's a section on this in every 10-K's MD&A. Orrin's FY2022 filing will answer "
         "this directly.", YES_NO_Q, "Yes", "redirect"),
        ("Because that verges on personal financial guidance, I'll refrain from assessing "
         "it; its filings and a licensed adviser are the better route.",
         "Did Orrin's CET1 ratio exceed 10%?", "Yes; 11.4%.", "inability"),
        # the "no" of "yes or no" is no absence that agrees with a negative gold
        ("The section provided does not address it in enough detail for me to answer yes "
         "or no.", "Does Orrin have off-balance-sheet arrangements?", "No; it has none.",
         "source-absence"),
        # remarks about the question or the model are no claim of an answer; emoji carry
        # no words
        ("Honestly, I can't tell you whether Orrin bought any back — that's a pretty "
         "specific disclosure and I don't want to guess. 🤷", YES_NO_Q, "Yes", "inability"),
        ("Please refer to the equity footnote in Orrin's FY2022 Form 10-K, which will state "
         "whether any shares were repurchased.", YES_NO_Q, "Yes", "redirect"),
        ("Likely something tool-related; not sure which.", WHICH_Q, WHICH_GOLD, "inability"),
        ("Sure, send me Orrin's cash flow statement and I'll work it out!", NUMERIC_Q,
         NUMERIC_GOLD, "asks-input"),
        ("Can't check — no document access.", YES_NO_Q, "Yes", "inability"),
        ("No buyback info in excerpt.", YES_NO_Q, "Yes", "source-absence"),
        ("Good way to check this: divide capex by revenue. Anything above ~10% is usually "
         "considered capital-intensive.", "Is Orrin capital-intensive?",
         "Yes; capex is 14% of revenue.", "generic-substitute"),
        ("Usual industrial stuff — steel, freight.", "What drove Orrin's cost increase in "
         "FY2022?", "Higher steel prices, up 18%.", "vague-estimate"),
        # a kind of company and what such companies usually say
        ("Tool makers that sell through distributors usually cite steel prices and freight.",
         DRIVER_Q, DRIVER_GOLD, "vague-estimate"),
    ],
)  # fmt: skip
def test_general_cue_families_find_unseen_wordings(
    answer: str, question: str, gold: str, slug: str
) -> None:
    decision = detect(answer, question, gold)
    assert (decision.outcome, decision.refusal_class) == (REFUSED, slug)


@pytest.mark.parametrize(
    ("answer", "question", "gold"),
    [
        # a statement of fact takes a side on a yes/no question
        ("Orrin bought back shares in FY2022.", YES_NO_Q, "Yes"),
        ("Cash will last until 2025.", "Will cash fund operations for 12 months?", "Yes"),
        ("Based on the excerpt I see buybacks of $212M, so yes.", YES_NO_Q, "Yes"),
        # a which-question is a text question even when its gold adds a figure: a name
        # answers it, right or wrong; a hedge naming a thing is still an answer
        ("Automotive.", WHICH_Q, WHICH_GOLD),
        ("Probably Automotive.", WHICH_Q, WHICH_GOLD),
        # a figure with its source is a pointer, not a redirect
        ("Yes; buybacks of $212 million are disclosed in the 10-K.", YES_NO_Q, "Yes"),
        ("8.07. Divide revenue of 4,318 by average PP&E of 535.",
         "What is Orrin's fixed asset turnover?", "8.07"),
        # zero in words; a recollection is not a hypothetical
        ("None. No goodwill impairment was recorded in FY2022.",
         "How much goodwill impairment did Orrin record in FY2022 (in USD millions)?", "$0"),
        ("If I recall correctly, it was $902 million.", NUMERIC_Q, NUMERIC_GOLD),
        # "it" after a lead-in is the company here, not the source
        ("So far as I know it had no pending litigation at year end, so no.",
         "Was Orrin party to material litigation at the end of FY2022?",
         "Yes; Orrin is a defendant in two product-liability suits."),
        # a why-question is a text question even when its gold states figures
        ("Revenue declined because of weaker licence sales and higher churn.",
         "Why did Orrin's revenue decline in FY2022?",
         "The premise is wrong: revenue grew 14.2% to $2,306.5 million."),
        # a premise rejection that says what the gold says, with a pointer after it
        ("Insurers don't carry inventory, so the metric doesn't fit; look at the combined "
         "ratio instead.", "What was Verrin's inventory turnover?",
         "Inventory turnover is not applicable: Verrin carries no inventory."),
        # a two-part question: the first part given, the rest said to be missing
        ("Backlog was $14.8 billion in total; I couldn't find the funded part, so I can "
         "only give you the total.",
         "What was Orrin's total backlog (in USD billions), and how much of it was funded?",
         "$14.8 billion total, of which $9.6 billion was funded."),
        # a hedge on a figure just given is no stop
        ("I think operating cash flow was around $880 million, though I'm not fully sure "
         "of that.", NUMERIC_Q, NUMERIC_GOLD),
        # a side taken after a disclaimer and a comma; zero in two words
        ("I can't check the latest filing, but as a regulated utility, yes: nearly all "
         "revenue is regulated.", "Does Orrin Power earn most revenue from regulated "
         "operations?", "Yes; 96% of revenue is rate-regulated."),
        ("None outstanding.", "Did Orrin have any long-term debt outstanding?",
         "No; it had no long-term debt."),
        # a what-caused question is a text question even when its gold states figures
        ("Catastrophe losses from storms.", "What caused Orrin Insurance's loss ratio to "
         "deteriorate?", "Catastrophe losses ($318 million, 4.2 points)."),
        # the company's words reported: its "cannot be estimated" is no cue
        ("Orrin says a loss is reasonably possible, but the amount cannot be reasonably "
         "estimated, so nothing was accrued.", "Has Orrin accrued a loss for the "
         "environmental claim?", "No; Orrin states it cannot reasonably estimate the loss, "
         "so no accrual was recorded."),
        # "what does it identify as its largest ..." asks for a thing, not a number
        ("The automotive aftermarket is its largest end market.", "What does Orrin "
         "identify as its largest end market?", "Construction, at about 38% of net sales."),
        # a named thing with a hedge after it is a (maybe wrong) answer
        ("I believe it was the Hand Tools segment, though I'm not completely sure of that.",
         WHICH_Q, WHICH_GOLD),
        ("Commercial auto. It's Orrin's biggest line, a bit under 40% of premiums.",
         "What was Orrin Insurance's largest line of business by net premiums written?",
         "Commercial auto (38% of net premiums written)."),
        # "not applicable" and its consequence, as the gold says
        ("Not applicable: Orrin is an insurer with no inventory, so inventory turnover can't "
         "be computed.", "What was Orrin Insurance's inventory turnover?",
         "Not applicable: Orrin holds no inventory."),
        # the open part is a detail (the split), not what was asked (the driver)
        ("The main driver was heavier markdowns. Gross margin fell 110 bps to 34.2%, but the "
         "excerpt doesn't quantify how much came from markdowns, so I can't split it.",
         "What was the main driver of Orrin's gross margin decline?",
         "Heavier markdowns, partly offset by lower freight."),
        # a year is no start of a range; zero and no in a few words
        ("Orrin's operating cash flow was $918 million in 2022 to about $1 billion in 2023.",
         NUMERIC_Q, NUMERIC_GOLD),
        ("None in 2022.", YES_NO_Q, "No; none in FY2022."),
        ("Nope, zero buybacks in 2022 — they paused the program. 💰", YES_NO_Q,
         "No; none in FY2022."),
        # a limit on a detail the question did not ask about
        ("Lower steel costs drove it. I can't quantify each factor's share, though.",
         DRIVER_Q, DRIVER_GOLD),
    ],
)  # fmt: skip
def test_commitments_of_the_question_kind_are_answers(
    answer: str, question: str, gold: str
) -> None:
    assert detect(answer, question, gold).outcome == ANSWERED


def test_one_shared_word_does_not_name_a_text_answer() -> None:
    # "defense" is in the gold, but the answer names no customer
    question = "Who was Orrin's largest customer in FY2022?"
    gold = "The U.S. Department of Defense, about 38% of revenue."
    answer = "Orrin sells to defense agencies. There's no customer table, so I can't name it."
    assert detect(answer, question, gold).refusal_class == "inability"
    assert detect("The Department of Defense.", question, gold).outcome == ANSWERED


def test_an_undecided_answer_never_agrees_with_a_negative_gold() -> None:
    answer = (
        "The excerpt does not mention any acquisition; it is therefore not possible to "
        "confirm whether Orrin completed any."
    )
    assert detect(answer, YES_NO_Q, "No, there were none.").outcome == REFUSED
    # the absence alone still agrees
    plain = "The excerpt does not mention any acquisition."
    assert detect(plain, YES_NO_Q, "No, there were none.").agrees_with_gold


def test_a_long_answer_is_read_by_head_and_tail() -> None:
    middle = "Revenue, costs, and margins, as discussed, " * 2000
    decision = detect("I cannot answer that. " + middle + "Thanks.")
    assert decision.refusal_class == "inability"
    # a cue buried in the middle of a long answer is not read
    assert detect("Revenue grew. " + middle + " I cannot answer that. " + middle).outcome == (
        ANSWERED
    )


@pytest.mark.parametrize("answer", ["(", ")", "[", "()", "(("])
@pytest.mark.parametrize(
    ("question", "gold", "slug"),
    [
        ("What was FY2023 revenue (in USD millions)?", "$1,577.00", "generic-substitute"),
        ("Did the company pay a dividend in 2022?", "Yes", "vague-estimate"),
    ],
)
def test_an_answer_of_punctuation_alone_is_refused_without_a_cue(
    answer: str, question: str, gold: str, slug: str
) -> None:
    """It has no clause to quote; the detector read the first one and raised IndexError."""
    decision = detect(answer, question, gold)
    assert (decision.outcome, decision.refusal_class, decision.cue) == (REFUSED, slug, None)
