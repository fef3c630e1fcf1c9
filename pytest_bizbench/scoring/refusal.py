"""Telling a model that declined to answer from one that answered wrongly (SPEC §5.4).

FinanceBench-style evaluations report refusals apart from wrong answers: a system
that says "the filing does not give this" fails differently from one that invents
a number. `is_refusal` reads an answer against a catalog of the ways models decline
(`CATALOG`, one named pattern per way), then lets a committed answer overrule it,
so that "revenue was $1,577 million (the segment split is not disclosed)" is an
answer, not a refusal.

The rules, in order:
1. Blank answers and bare stock phrases are refusals: `N/A`, `unknown`, `not
   available`, `not disclosed`, `cannot be determined`, `I don't know` ... (`BARE`).
2. No catalog pattern anywhere: not a refusal.
3. A committed answer overrules the patterns. The answer is cut into clauses at
   sentence ends, semicolons, colons, dashes, brackets and contrast words (but,
   however, although ...). It is committed when
   - it opens with `Yes` or `No` followed by punctuation (`No, the company did not
     ...`: a yes/no answer, however it goes on), or
   - a clause without a refusal pattern states a number: a figure that is not a
     year, not a reference (`page 12`, `Note 7`, `Q3`, `FY2022`, `10-K`), not in a
     clause pointing at other data (`the filing only reports ...`, `however, it
     mentions ...`) and not about another year than the one declined (`the 2019
     figure is not given; 2018 revenue was $500 million` still declines), or
   - a contrast clause without a refusal pattern makes a plain claim (`..., but the
     auditor is Smith & Lowe`): a statement verb and no advice or modal
     (`you could check ...`, `it may be ...`).
   Otherwise the answer is a refusal.
Patterns are matched on a normalised text: NFKC, case-folded, curly quotes made
straight, whitespace collapsed.
"""

from __future__ import annotations

import re
import unicodedata

_NOUN = (
    r"(?:context|contexts|document|documents|text|texts|passage|passages|excerpt|excerpts"
    r"|filing|filings|report|reports|information|evidence|data|source|sources|material"
    r"|materials|10-k|10-q|statement|statements|page|pages|snippet|snippets|extract"
    r"|content|records?|disclosures?)"
)
_SHOW = (
    r"(?:contain|include|provide|mention|specify|state|disclose|give|have|list|show"
    r"|report|offer|present|address|cover|detail|break out|reference|indicate|reveal)"
)
_NOT = r"(?:does not|doesn't|do not|don't|did not|didn't|does n't)"
_CANNOT = (
    r"(?:cannot|can not|can't|could not|couldn't|am unable to|am not able to|was unable to"
    r"|are unable to|were unable to|'m unable to|'m not able to|do not|don't|did not|didn't)"
)
_EXACTLY = r"(?:definitively |accurately |precisely |reliably |directly |exactly )?"
_FIND = (
    r"(?:know|find|locate|determine|answer|provide|calculate|compute|say|tell|identify"
    r"|confirm|verify|access|see|give|derive|ascertain|infer|extract|pinpoint|be certain)"
)
_DETERMINED = (
    r"(?:determined|calculated|computed|answered|found|derived|inferred|ascertained"
    r"|identified|established|confirmed|verified|located|known|assessed|deduced)"
)
_STRONG_MISSING = (
    r"(?:specified|provided|mentioned|disclosed|stated|available|unavailable|given|included"
    r"|discussed|addressed"
    r"|explicitly (?:stated|mentioned|provided|disclosed|given|reported))"
)
_WEAK_MISSING = (
    r"(?:reported|listed|found|detailed|present|presented|shown|broken out|covered|unknown)"
)
_WHERE = r"(?:in|within|from|by|on) (?:the|this|these|those|any|provided|given|available|above)\b"

CATALOG: dict[str, re.Pattern[str]] = {
    name: re.compile(pattern)
    for name, pattern in {
        # "the provided context does not contain ...", "the 10-K doesn't specify ..."
        "source-lacks": rf"\b(?:the|this|these|those|provided|given|above|available|supplied)\b"
        rf"[\w\s,'-]{{0,40}}?\b{_NOUN}\b[^.;:]{{0,40}}?\b{_NOT} (?:appear to |seem to )?"
        rf"(?:{_SHOW}|(?:any|enough|sufficient) )",
        # "I do not know", "I cannot determine", "we couldn't find"
        "cannot-answer": rf"\b(?:i|we)(?: (?:simply|honestly|currently|unfortunately))? "
        rf"{_CANNOT} {_EXACTLY}{_FIND}\b",
        # "cannot be determined from ...", "can't be calculated"
        "cannot-be-determined": rf"\b(?:cannot|can not|can't|could not|couldn't) be "
        rf"{_EXACTLY}{_DETERMINED}\b",
        # "it is not possible to determine", "I am unable to answer", "unable to calculate"
        "unable-to": rf"(?:^|[.;:!?]\s*|\b(?:i am|i'm|we are|we're|i was|we were|it is|it's"
        r"|it was|it would be|i would be|i'd be|therefore|so|thus)\s+)"
        r"(?:unable|not able|impossible|not possible|not feasible) to "
        rf"{_EXACTLY}{_FIND}\b",
        # "no information about", "no specific data regarding"
        "no-information": r"\bno (?:specific |relevant |further |detailed |explicit |direct "
        r"|such |additional |concrete |clear )?(?:information|data|details|figures|numbers"
        r"|mention|disclosure|indication|breakdown|record|statement)s? (?:about|on|regarding"
        r"|concerning|related to|relating to|for|of|is|was|are|were|available|provided|given"
        r"|that)\b",
        # "there is no mention of", "there's no data"
        "there-is-no": r"\bthere(?: is| are| was| were|'s|(?: is|'s) not| isn't| aren't| wasn't)"
        r" (?:no|not any|nothing|any) (?:specific |relevant |explicit |direct |such )?"
        r"(?:[\w&-]+ )?(?:information|data|details|mention|figures?|numbers?|disclosure"
        r"|indication|record|reference|breakdown|statement)\b",
        # "is not specified", "was not disclosed"
        "not-specified": rf"\b(?:is|are|was|were|has not been|have not been|isn't|aren't"
        rf"|wasn't|weren't|not) (?:not )?{_STRONG_MISSING}\b",
        # "is not reported in the filing": weaker verbs need a place
        "not-reported-in-source": rf"\b(?:is|are|was|were|isn't|aren't|wasn't|weren't) "
        rf"(?:not )?{_WEAK_MISSING} (?:anywhere )?{_WHERE}",
        # "not enough information", "insufficient data", "lack of detail"
        "not-enough-information": r"\b(?:not enough|insufficient|inadequate|lacks?|lacking"
        r"|lack of|without (?:the )?(?:necessary|required|sufficient)|missing) "
        r"(?:the )?(?:necessary |required |sufficient |specific |relevant )?"
        r"(?:information|data|details|context|evidence|figures)\b",
        # "I don't have access to", "I do not have the data"
        "no-access": r"\b(?:i|we) (?:do not|don't|did not|didn't) have (?:access|enough"
        r"|sufficient|the (?:necessary |required |relevant |specific )?"
        r"(?:information|data|details|figures|numbers))\b",
        # "would need more information", "additional data would be required"
        "needs-more": r"\b(?:would need|need|needs|requires?|required|would require) "
        r"(?:more|additional|further|the full|access to) (?:information|data|details"
        r"|context|documents?|figures|disclosure)\b|\b(?:more|additional|further) "
        r"(?:information|data|details|context) (?:is|are|would be) (?:needed|required"
        r"|necessary)\b",
        # "the question cannot be answered", "unanswerable"
        "unanswerable": r"\bunanswerable\b|\bnot answerable\b|\b(?:question|query) "
        r"(?:cannot|can not|can't) be answered\b",
        # "this metric is not something the filing reports"
        "not-something-reported": r"\b(?:is|are) not something (?:that )?(?:the|this|these|i|we)\b",
        # "beyond the scope of the provided documents", "outside my knowledge"
        "out-of-scope": r"\b(?:beyond|outside) (?:the scope of )?(?:the|my|this) "
        r"(?:provided |given |available )?(?:context|documents?|information|knowledge"
        r"|data|excerpt|text)\b",
        # "the context is silent on", "the document makes no reference to"
        "silent-on": rf"\b{_NOUN} (?:is|are) silent\b|\bmakes? no (?:mention|reference)\b",
    }.items()
}

BARE = frozenset(
    {
        "",
        "n/a",
        "na",
        "none provided",
        "unknown",
        "not known",
        "unavailable",
        "not available",
        "not specified",
        "not disclosed",
        "not provided",
        "not stated",
        "not mentioned",
        "not reported",
        "not found",
        "not applicable",
        "no answer",
        "no data",
        "no information",
        "insufficient information",
        "insufficient data",
        "information not available",
        "data not available",
        "information not provided",
        "cannot determine",
        "cannot be determined",
        "cannot answer",
        "unable to determine",
        "unable to answer",
        "undetermined",
        "i don't know",
        "i do not know",
        "don't know",
        "idk",
    }
)

_QUOTES = str.maketrans({"‘": "'", "’": "'", "`": "'", "“": '"', "”": '"'})
_EDGE = " \t\n.,;:!?\"'()[]*_-"
_CONTRAST_WORDS = (
    r"but|however|although|though|nevertheless|nonetheless|that said|instead|while|whereas"
)
# sentence ends (not decimal points), semicolons, colons, brackets, dashes; and a
# zero-width cut before each contrast word, so "..., but X" starts its own clause
_CLAUSE = rf"(?:(?<!\d)[.!?](?!\d)|[;:()\[\]]|\s[-–—]+\s|\n)+|\b(?=(?:{_CONTRAST_WORDS})\b)"
_COARSE_SPLIT = re.compile(_CLAUSE)
_FINE_SPLIT = re.compile(rf"{_CLAUSE}|,\s")  # also at commas, for figures
_CONTRAST = re.compile(rf"^\s*(?:{_CONTRAST_WORDS})\b")
_YES_NO = re.compile(r"^(?:the answer is\s*:?\s*)?(?:yes|no)(?:\s*[,.;:!—–-]|\s*$)")
# a figure: digits, optionally grouped or with a decimal part
_FIGURE = re.compile(r"(?<![\w.])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?!\w)|(?<![\w.])\.\d+")
_YEAR = re.compile(r"(?:19|20)\d\d")
_PERIOD = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)|\bfy'?(\d\d)\b")
_REFERENCE_BEFORE = re.compile(
    r"(?:\b(?:page|pages|p|pp|note|notes|item|items|section|part|exhibit|table|schedule"
    r"|line|form|rule|article|chapter|figure|appendix|footnote|no|number)\.?\s*|#|[a-z]-?)$"
)
_REFERENCE_AFTER = re.compile(r"^(?:-[a-z]|st\b|nd\b|rd\b|th\b)")
_MONTH_BEFORE = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*$")
# a clause that points at other data instead of answering: "only FY2018 is given",
# "however, the filing mentions revenue of ..."
_POINTING = re.compile(
    r"^\s*(?:only|just|merely)\b|\binstead\s*$"
    r"|\bonly (?:\w+ ){0,3}(?:reports?|provides?|includes?|mentions?|shows?|gives?|contains?"
    r"|covers?|discloses?|lists?|presents?|states?|has|have|had|offers?|details?)\b"
    rf"|\b(?:{_NOUN}|it|they)\b[^.;]{{0,30}}\b(?:mentions?|provides?|reports?|shows?"
    r"|states?|includes?|contains?|gives?|lists?|presents?|discloses?|notes?|indicates?"
    r"|discuss(?:es)?|describes?"
    r"|does (?:mention|provide|show|include|give|state|report))\b"
    r"|\b(?:is|are|was|were) (?:only )?(?:mentioned|provided|given|shown|listed|available"
    r"|disclosed|stated|included)\b"
)
_CLAIM = re.compile(
    r"\b(?:is|are|was|were|amounted|amounts|totaled|totalled|totals|reached|rose|fell"
    r"|increased|decreased|grew|declined|equals|equaled|came to|stood at)\b"
)
_HEDGE = re.compile(
    r"\b(?:may|might|could|would|should|can|recommend|suggest|check|consult|refer|see"
    r"|typically|usually|generally|often|you)\b"
)


def _normalize(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).translate(_QUOTES).casefold()
    return " ".join(folded.split())


def refusal_patterns(text: str) -> list[str]:
    """Names of the `CATALOG` patterns found in the answer, in catalog order."""
    norm = _normalize(text)
    return [name for name, pattern in CATALOG.items() if pattern.search(norm)]


def is_refusal(text: str | None) -> bool:
    """Whether an answer declines to answer (see the module docstring for the rules)."""
    if text is None:
        return True
    norm = _normalize(text)
    if norm.strip(_EDGE) in BARE:
        return True
    if not any(pattern.search(norm) for pattern in CATALOG.values()):
        return False
    return not _committed(norm)


def _committed(norm: str) -> bool:
    """The answer commits to an answer despite a refusal phrase somewhere in it."""
    if _YES_NO.match(norm.lstrip(_EDGE.replace("-", ""))):
        return True
    clauses = [clause for clause in _FINE_SPLIT.split(norm) if clause and clause.strip()]
    declined = [clause for clause in clauses if _declines(clause)]
    asked = {period for clause in declined for period in _periods(clause)}
    for clause in clauses:
        if clause in declined or not _states_figure(clause):
            continue
        stated = _periods(clause)
        if asked and stated and asked.isdisjoint(stated):
            continue  # another period's figure: "2019 is not given; 2018 was $500 million"
        return True
    return any(
        _CONTRAST.match(clause) and _CLAIM.search(clause) and not _HEDGE.search(clause)
        for clause in _COARSE_SPLIT.split(norm)
        if clause and not _declines(clause)
    )


def _periods(clause: str) -> set[str]:
    """The years a clause names (`2022`, `FY2022`, `FY22` all give `2022`)."""
    return {match[1] or f"20{match[2]}" for match in _PERIOD.finditer(clause)}


def _declines(clause: str) -> bool:
    """The clause refuses, or points at other data instead of answering."""
    return bool(_POINTING.search(clause)) or any(
        pattern.search(clause) for pattern in CATALOG.values()
    )


def _states_figure(clause: str) -> bool:
    """A number in the clause that is not a year, a reference or a date's day."""
    for match in _FIGURE.finditer(clause):
        before, after = clause[: match.start()], clause[match.end() :]
        if _REFERENCE_BEFORE.search(before) or _MONTH_BEFORE.search(before):
            continue
        if _REFERENCE_AFTER.match(after):
            continue
        if _YEAR.fullmatch(match.group()) and not after.lstrip().startswith("%"):
            continue
        return True
    return False
