"""Telling a model that declined to answer from one that answered wrongly.

FinanceBench-style evaluations report non-answers apart from wrong answers: "the
filing does not give this" fails differently from an invented number. `detect`
reads one answer like a small classifier and returns one of three outcomes,
`answered`, `refused` or `undetermined`, with the class of the deciding cue and the
sentence it was found in. The cues and exclusions are data, in
`scoring/refusal_catalog.py`; this module holds the decision:

1. Structure first: a provider refusal flag, a content-filter stop, an empty text or
   a placeholder (`{}`, `N/A`) is `refused` (class `empty-structural`).
2. Cues: each sentence, and each clause inside it (after `;`, `:`, a dash, or a
   comma before `but`, `however`, `so` ...), is matched from its start against every
   class. Quoted speech is taken out first; an apology alone and a person's role
   opener are excluded. A cue's weight is its class strength times its position:
   the first sentence 1.0, the last 0.9, one in between 0.75.
3. Overrides, in order:
   - an absence or premise cue that says what a negative gold answer says ("there
     were no acquisitions") is an answer;
   - the question's kind (`question_kind`) says what commits: a numeric question
     with no figure at all, or a yes/no question that takes no side (no yes or no,
     no figure, no statement of fact), is refused;
   - a definite answer of the question's kind (a figure in a clause with no cue for
     a numeric question, an opening yes or no for a yes/no question, two of the
     gold's words for a text question) overrides the cues, unless a cue that the
     work stopped, or an instruction to finish, comes after the last figure
     ("...; without revenue I can't finish", class `partial-work`); a limitation
     about detail only ("the segment split is not disclosed") after the figure
     does not;
   - formula explanations and vague hedges count only when no figure is stated
     (for a text question: the metric's definition, or a hedge naming a kind of
     thing).
4. The strongest remaining cue decides: weight >= 0.75 `refused`, >= 0.5
   `undetermined`, else `answered`.
5. Where these rules are split on a chat answer, a small learned model
   (`scoring/nonanswer_model.py`) decides: a catalog refusal that only disclaims the
   self ("I don't have personal opinions. However, ...") or, with no gold answer, is
   shaped like an attempt (a list, verse, a long text) or has no information-gap cue;
   an answer let through whose first sentence declines a request, deflects on ethics
   or cites a policy (a number inside such a refusal, a hotline or a year, does not
   make it an answer; the gold's own figure does).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from pytest_bizbench.scoring import answers
from pytest_bizbench.scoring import nonanswer_model as model
from pytest_bizbench.scoring.judge import NONANSWER_FIELD, checked_grade
from pytest_bizbench.scoring.ladder import JudgeFn
from pytest_bizbench.scoring.references import MONTH_BEFORE, REFERENCE_WORDS, ends_at
from pytest_bizbench.scoring.refusal_catalog import (
    ABSENT_THING,
    CLASSES,
    EXCLUSIONS,
    FILTERED_STOPS,
    GENERIC_REFERENCE_CLAUSE,
    GENERIC_SUBSTITUTE,
    INFO,
    KINDS,
    LEAD_IN,
    NEGATIVE_GOLD,
    PARTIAL_WORK,
    PLACEHOLDERS,
    PREMISE_GOLD,
    QUOTED,
    VAGUE_ESTIMATE,
    WHY_DETAIL,
    CueClass,
)

ANSWERED, REFUSED, UNDETERMINED = "answered", "refused", "undetermined"
REFUSE_AT = 0.75
DECIDE_AT = 0.5  # the learned model's probability of a non-answer that decides
EMPTY = "empty-structural"
UNDECIDED_AT = 0.5
CUE_CHARS = 200
HEAD_CHARS, TAIL_CHARS = 3000, 1000  # how much of a long answer is read
DEFINITE, CLAIM = "definite", "claim"
FIRST, LAST, MIDDLE = 1.0, 0.9, 0.75
# `pytest_bizbench_judge` is asked "is this a non-answer?" with `field` set to
# `NONANSWER_FIELD` and the question; a grade of 50 or more means a non-answer
NONANSWER_AT = 50.0
# (question, answer, gold) -> True for a non-answer, False for an attempt, None undecided
NonAnswerJudge = Callable[[str, str, str], bool | None]
# classes whose cue an absence-shaped negative gold answer turns into an answer
_ABSENCE_CLASSES = frozenset(
    {"source-absence", "passive-unavailability", "insufficient-info", "rejects-premise"}
)
# classes that say the answer was not decided, whatever else it says
_UNDECIDED = frozenset({"inability", "insufficient-info", "capability", "cutoff", "asks-input"})
# classes that say the asked value is missing from what the model has
_GAP_CLASSES = frozenset(
    {"source-absence", "passive-unavailability", "insufficient-info", "partial-work"}
)
# classes that count only when the answer states no figure
_NO_FIGURE_CLASSES = frozenset({"generic-substitute", "vague-estimate"})
_PATTERNS: tuple[tuple[CueClass, tuple[re.Pattern[str], ...]], ...] = tuple(
    (cls, cls.patterns()) for cls in CLASSES if cls.cues
)

_QUOTES = str.maketrans({"‘": "'", "’": "'", "`": "'", "“": '"', "”": '"', "–": "-", "—": "-"})
_CONTRACTIONS = (
    (re.compile(r"\bcan't\b|\bcan not\b"), "cannot"),
    (re.compile(r"\bwon't\b"), "will not"),
    (re.compile(r"\bshan't\b"), "shall not"),
    (re.compile(r"n't\b"), " not"),
    (re.compile(r"\bi'm\b"), "i am"),
    (re.compile(r"'re\b"), " are"),
    (re.compile(r"'ve\b"), " have"),
    (re.compile(r"\b(i|we|you|it|they|that|there|he|she) ?'d\b"), r"\1 would"),
    (re.compile(r"'ll\b"), " will"),
    (re.compile(r"\b(it|that|there|what|here|this|who|which)'s\b"), r"\1 is"),
)
# a code fence (backticks are straight quotes once normalised) around a placeholder
_FENCE = re.compile(r"^'''[a-z]*|'''$")
_MARKUP = re.compile(r"[*_#>`]+|^\s*(?:[-•]|\d+[.)])(?:\s+|$)")
# a sentence ends at . ! or ? before a space and a capital, not after an initial
# ("J. Wen", but "MD&A." ends one) or a common abbreviation ("Inc.", "Co.")
_SENTENCE = re.compile(
    r"(?<=[.!?])(?<!\s[A-Z]\.)(?<!^[A-Z]\.)(?<!\bInc\.)(?<!\bCo\.)(?<!\bCorp\.)(?<!\bLtd\.)"
    r"(?<!\bvs\.)(?<!\bSt\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bDr\.)[\"')\]]*\s+(?=[^a-z\s])|\n+"
)
_CLAUSE = re.compile(
    r"\s*[;:]\s*|\s+-+\s+|\s*[(\[]\s*|\s*[)\]]\s*"
    r"|,\s*(?=(?:but|however|so|and so|though|although|yet|thus|therefore|hence|since"
    r"|unfortunately|while|whereas|which|meaning|as such|because|and (?:i|we|the))\b)"
    r"|\s+(?=and (?:there|so|thus|therefore|hence|i|we)\b)"
)
# a leading concessive clause ends at its first comma: "although X is not given, Y"
_SUBORDINATE = re.compile(
    r"^((?:although|though|even though|while|whereas|despite|because|since|given that)\b[^,]*)"
    r",\s*"
)
# "No, I can't ..." is two clauses: the interjection and what follows it
_LEADING_YES_NO = re.compile(r"^((?:yes|no|nope|nah|yep|yup|yeah))\s*[,;:!-]+\s*")
_AUX = re.compile(
    r"^(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should|may|might)\b"
)
_YES_NO = re.compile(
    rf"^(?:the (?:short |final )?answer is\s*:?\s*)?(?:yes|no|nope|nah|yep|yup|yeah)\b"
    rf"(?!\s+(?:\w+ )?(?:{INFO}|such)\b)"
)
# a figure: digits, optionally grouped or with a decimal part
_FIGURE = re.compile(r"(?<![\w.])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?!\w)|(?<![\w.])\.\d+")
_YEAR = re.compile(r"(?:19|20)\d\d")
_PERIOD = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)|\bfy'?(\d\d)\b")
_REFERENCE_BEFORE = re.compile(
    rf"(?:\b(?:{REFERENCE_WORDS}|step|q|h|fy|topic|asc|ias|ifrs|phase|stage|tier|level|series"
    r"|class)\.?\s*|#|[a-z]-?)$"
)
# matched at a figure's end (`match(text, end)`, where `^` would not match)
_REFERENCE_AFTER = re.compile(r"(?:-[a-z]|st\b|nd\b|rd\b|th\b|-k|-q)")
_PERCENT_AFTER = re.compile(r"\s*%")
# a clause that points at other data instead of answering: "it only reports 2021 ..."
_POINTING = re.compile(
    r"^\s*(?:only|just|merely)\b|\binstead\b"
    r"|\bonly (?:\w+ ){0,3}(?:reports?|provides?|includes?|mentions?|shows?|gives?|contains?"
    r"|covers?|discloses?|lists?|presents?|states?|has|have|had|offers?|details?)\b"
    r"|\b(?:context|document|text|excerpt|filing|report|pages?|it|they|statement|10-k)\b"
    r"[^.;]{0,30}\b(?:mentions?|provides?|reports?|shows?|states?|includes?|contains?|gives?"
    r"|lists?|presents?|discloses?|notes?|indicates?|discuss(?:es)?|describes?)\b"
    r"|\b(?:is|are|was|were) (?:only )?(?:mentioned|provided|given|shown|listed|available"
    r"|disclosed|stated|included|named|reported|presented|detailed|recorded|described)\b"
    r"|\b(?:there|in it|in that|in this)$"
)
_CLAIM = re.compile(
    r"\b(?:is|are|was|were|amounted|amounts|totaled|totalled|totals|reached|rose|fell"
    r"|increased|decreased|grew|declined|equals|equaled|came to|stood at|had|has|did|paid)\b"
)
# "..., as a regulated utility, yes": a yes or no after a comma closing a clause
_ENDS_YES_NO = re.compile(r",\s*(?:yes|no)\W*$")
# "..., so yes": a yes or no closing a clause
_CONCLUDES_YES_NO = re.compile(r"\b(?:so|thus|therefore|hence|then|and|answer)\W+(?:yes|no)\W*$")
# a finite verb of a statement of fact: a claim verb or a past tense
_FINITE = re.compile(
    r"\b(?:is|are|was|were|has|had|have|does|did|do|amounted|totaled|totalled|reached|paid"
    r"|will|remains?|holds?|owns?|operates?|reports?|records?|shows?|expects?|\w{3,}ed"
    r"|bought|sold|made|took|gave|grew|rose|fell|spent|kept|held|won|lost|became|began|met"
    r"|cut|set|got|went|came|brought|built|drew|led|left|sent|paid|raised|issued)\b"
)
_HEDGE = re.compile(
    r"\b(?:may|might|could|would|should|can|recommend|suggest|check|consult|refer|see"
    r"|typically|usually|generally|often|you|probably|likely|perhaps)\b"
)
_WORDED_FIGURE = re.compile(
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen"
    r"|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy"
    r"|eighty|ninety)(?:[ -](?:one|two|three|four|five|six|seven|eight|nine))?"
    r"(?: and a half| point \w+)? (?:percent|per cent|percentage points|million|billion"
    r"|thousand|trillion|hundred|times|dollars|cents)\b"
)
_NUMBER = (
    r"(?:(?:about|around|roughly|approximately|some|just|nearly|only|the) |~\s?)?"
    # thousands groups bounded: "1,1,1,..." or a long run of groups would have each
    # start scan the rest of the answer
    r"[$€£]?\s?(?:\d{1,3}(?:,\d{3}){1,6}(?!\d)|\d+)(?:\.\d+)?"
    r"\s?(?:%|percent|x|times|million|billion|thousand|m|bn|b|k)?"
)
_BOUND = re.compile(
    r"\b(?:more than|less than|over|under|above|below|at least|at most|upwards of|north of"
    r"|south of|in excess of|greater than|fewer than|up to|exceeding|exceeded|exceeds"
    rf"|approaching|nearly|almost|close to)\s*{_NUMBER}"
    rf"|{_NUMBER}\s*(?:or|and) (?:above|below|more|less|higher|lower|greater|over|under)\b"
    rf"|\b(?:on the order of|in the ballpark of|in the neighbou?rhood of|in the region of)"
    rf"\s*{_NUMBER}|{_NUMBER}\s*(?:or so|give or take|-ish)\b"
)
_RANGE = re.compile(
    rf"\bbetween\s*{_NUMBER}\s*and\s*{_NUMBER}"
    rf"|(?<!from )(?<!\d)(?!\s?(?:19|20)\d\d\b){_NUMBER}\s*(?:-|–|to)\s*{_NUMBER}"
)
_NOT_THIS_VALUE = re.compile(
    r"^(?:if(?! (?:i|my) (?:recall|remember|memory))|suppose|supposing|assuming|assume|say"
    r"|imagine)\b|\b(?:typical|usual|normal|standard) (?:[\w-]+ ){0,2}(?:range|levels?|band)\b"
    r"|\b(?:for example|for instance"
    r"|e\.g\.|hypothetical\w*|illustrat\w*|industry average|industry norm|most companies)\b"
    rf"|\b(?:typically|generally|usually|often|tends? to|in general|on average)\b.*\b(?:{KINDS}"
    r"|industry|industries|sector|most|many)\b"
    rf"|\b(?:{KINDS}|industry|industries|sector|most|many)\b.*\b(?:typically|generally|usually"
    r"|often|tends? to|in general|on average)\b"
)
# a clause whose subject is a kind of company, not the company asked about
_GENERIC_SUBJECT = re.compile(
    rf"^{LEAD_IN}(?:most |many |some |all |other |such |an? |any )?(?:[\w-]+ ){{0,2}}?{KINDS}\b"
)
# a request that says the answer waits for it ("I'd need you to share X before I can")
_NEEDS = re.compile(
    r"\b(?:need|needs|require|requires|before (?:i|we) can|in order to|to (?:compute|calculate"
    r"|finish|complete|determine|give you the))\b"
)
# the model speaking of itself
_FIRST_PERSON = re.compile(
    r"^(?:(?:but|and|so|however|also|honestly|still|though)\W+)*(?:i|we|my|our)\b"
    r"|\bmy (?:training|knowledge|memory|recollection|data)\b"
)
# "there is segment revenue": what is there, no claim about what was asked
_EXISTENTIAL = re.compile(r"^there (?:is|are|was|were)\b")
# zero in words is a figure: "None.", "Zero"
_ZERO = re.compile(r"^(?:none|zero|nil)(?: (?!of\b)[\w$%.-]+){0,3}$")
# figures that are no value: dates written with slashes, "100% sure"
_NOT_A_VALUE = re.compile(
    r"\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b100 ?%(?= (?:sure|certain|confident|accurate|correct"
    r"|minus|less))|(?<=\bfrom the )\d+(?:\.\d+)? ?%(?= (?:[\w.]+ ){0,3}statutory\b)"
)
_FORMULA = re.compile(
    r"\b(?:divide|divided|dividing|multiply|multiplied|multiplying|times|average of|formula"
    r"|calculated|computed)\b|[=×÷*/]"
)
# an instruction to finish the work: "to get the ratio, divide revenue by 535"
_INSTRUCTION = re.compile(
    rf"^{LEAD_IN}(?:(?:you|one|we) (?:would |should |can |could |must |then |just )?"
    r"(?:need to |have to |want to )?)?(?:divide|subtract|multiply|add|take|sum|plug|apply)\b"
)
_CONSTANT = re.compile(r"(?<![\d.,])(?:1|2|4|12|100|365|1,000)(?![\d.,]*\d)(?!\s*%)")
_WORD = re.compile(r"[a-z0-9&]+")
_FUNCTION_WORDS = frozenset(
    [
        "that",
        "this",
        "these",
        "those",
        "with",
        "from",
        "into",
        "than",
        "then",
        "there",
        "their",
        "them",
        "they",
        "what",
        "which",
        "when",
        "where",
        "have",
        "been",
        "were",
        "will",
        "would",
        "could",
        "should",
        "does",
        "about",
        "also",
        "only",
        "such",
        "some",
        "more",
        "most",
        "other",
        "company",
        "companies",
        "fiscal",
        "year",
        "years",
    ]
)
_SAYS_YES_NO = re.compile(
    r"\b(?:believe|think|say|answer is|guess|expect|suspect|would say|lean)"
    r"\s*(?:that\s*|towards?\s*)?"
    r"(?:yes|no)\b"
)
# classes in which the model itself declines: an opening "no" before them is no answer
_MODEL_DECLINES = frozenset(
    {"inability", "capability", "cutoff", "advice-refusal", "asks-input", "redirect"}
)
_WHICH_QUESTION = re.compile(
    r"^(?:which|who|whom|where|what (?:type|kind|sort|category|segment|region|product|business"
    r"|division|unit)s?\b|what (?:is|was|were|are) the (?:main|primary|biggest|largest|key"
    r"|principal) (?:driver|reason|cause|factor|source|contributor)s?\b"
    r"|what (?:is|was|were|are) (?:the |its |(?:[\w&.-]+ ){0,3}[\w&.-]+'s )?(?:main|primary"
    r"|biggest|largest|key"
    r"|principal|top|leading|dominant|most important|single largest) (?!(?:\w+ )?(?:amount"
    r"|value|figure|number|total|expense|cost)s?\b))"
)
_EXPLAIN_QUESTION = re.compile(
    r"\b(?:why|describe|explain|summari[sz]e|discuss|what (?:\w+ ){0,3}?(?:risks?|factors?"
    r"|drivers?|reasons?|challenges?|strateg(?:y|ies)|initiatives?|caused?|drove|led to"
    r"|contributed)|what (?:does|did) (?:[\w&.'-]+ ){1,4}(?:identify|name|cite|consider|describe"
    r"|list|see|view|call) as)\b"
)
# an explanation question that also asks for an amount stays numeric
_AMOUNT_ASKED = re.compile(
    r"\b(?:how much|how many|calculate|compute|round(?:ed)? to|in (?:usd|us\$|\$|millions"
    r"|billions)|what (?:is|was|were) the (?:\w+ )?(?:amount|value|total))\b"
)
# the words that ask which thing: an answer that ends saying this stays open did not answer
_ASKING = re.compile(r"\b(?:which|who|whom|whether|what|how much|how many)\b")
_NUMERIC_QUESTION = re.compile(
    r"\b(?:how much|how many|what (?:is|was|were|are) (?:the )?(?:\w+ ){0,6}?(?:amount|ratio"
    r"|margin|rate|value|revenue|income|sales|total|number|percentage|cost|expense|capex"
    r"|turnover|growth|change|yield|eps|cash|debt|dividend)|calculate|compute|in (?:usd"
    r"|us\$|\$)|round|percentage|ratio)\b"
)


@dataclass(frozen=True, slots=True)
class Decision:
    """One answer's verdict: the outcome, the deciding class and sentence."""

    outcome: str
    refusal_class: str | None = None
    cue: str | None = None
    # the answer's absence or premise statement says what a negative gold says
    agrees_with_gold: bool = False

    @property
    def refused(self) -> bool:
        return self.outcome == REFUSED


@dataclass(frozen=True, slots=True)
class _Hit:
    cls: CueClass
    position: tuple[int, int]  # sentence, clause
    weight: float
    sentence: str
    text: str  # the clause, normalised
    detail_only: bool


@dataclass(frozen=True, slots=True)
class _Clause:
    position: tuple[int, int]
    text: str  # normalised
    sentence: str  # the original sentence
    norm_sentence: str  # the sentence normalised


def normalize(text: str) -> str:
    """NFKC, case-folded, straight quotes, symbols dropped, contractions spelt out,
    whitespace collapsed."""
    folded = unicodedata.normalize("NFKC", text).translate(_QUOTES).casefold()
    if not folded.isascii():  # emoji and other symbols carry no words
        folded = "".join(" " if unicodedata.category(c) == "So" else c for c in folded)
    for pattern, replacement in _CONTRACTIONS:
        folded = pattern.sub(replacement, folded)
    return " ".join(folded.split())


def detect(
    answer: str | None,
    question: str = "",
    gold: str = "",
    *,
    provider_refusal: str | None = None,
    finish_reason: str | None = None,
) -> Decision:
    """Whether an answer answers (see the module docstring for the rules)."""
    decision = detect_by_catalog(
        answer, question, gold, provider_refusal=provider_refusal, finish_reason=finish_reason
    )
    if answer is None or decision.agrees_with_gold or decision.refusal_class == EMPTY:
        return decision
    return _weigh(decision, answer, question, gold)


def _weigh(decision: Decision, answer: str, question: str, gold: str) -> Decision:
    """Step 5: where the rules are split (`Reading.consulted`), the learned model
    decides: a catalog refusal of an answer that only disclaims the self, or (with no
    gold) is shaped like an attempt, stands only if the model agrees; an answer the
    catalog lets through whose first sentence declines (a refusal, a deflection, a
    policy) is refused if the model says so, unless it states the gold's own figure."""
    head = answer[: model.READ_CHARS]
    reading = model.read(normalize(head), head, decision.refusal_class, decision.refused)
    if not reading.consulted(decision.refused, bool(gold)):
        return decision
    if decision.refused:
        return Decision(ANSWERED) if reading.probability < DECIDE_AT else decision
    if reading.probability < DECIDE_AT:
        return decision
    if gold and _gives_gold_figure(gold, answer, question, question_kind(question, gold)):
        return decision
    return Decision(REFUSED, reading.refusal_class, _cut(_original(answer, reading.cue or "")))


def _original(answer: str, cue: str) -> str:
    """The answer's own sentence for a normalised cue sentence (its first clause's
    sentence when none matches)."""
    clauses = _clauses(answer[: model.READ_CHARS])
    probe = cue[:40]
    for clause in clauses:
        if probe and probe in clause.norm_sentence:
            return clause.sentence
    return clauses[0].sentence if clauses else cue


def detect_by_catalog(
    answer: str | None,
    question: str = "",
    gold: str = "",
    *,
    provider_refusal: str | None = None,
    finish_reason: str | None = None,
) -> Decision:
    """Steps 1-4 alone: the rules' verdict, before the learned model weighs in."""
    if provider_refusal is not None and provider_refusal.strip():
        return Decision(REFUSED, EMPTY, _cut(provider_refusal))
    if finish_reason is not None and finish_reason.strip().casefold() in FILTERED_STOPS:
        return Decision(REFUSED, EMPTY, f"finish_reason: {_cut(finish_reason)}")
    if answer is None or _bare(answer) in PLACEHOLDERS or _empty_json(answer):
        return Decision(REFUSED, EMPTY, None)
    clauses = _clauses(answer)
    hits = _hits(clauses, question)
    kind = question_kind(question, gold)
    hit_positions = {hit.position for hit in hits if hit.cls.slug not in _NO_FIGURE_CLASSES}
    asked = frozenset(_FIGURE.findall(normalize(question)))
    figures = [
        c.position for c in clauses if c.position not in hit_positions and _answers(c, asked)
    ]
    figures = _same_period(figures, clauses, hits)
    if figures and gold and kind == "numeric":
        steps_left = [
            c for c in clauses if c.position >= max(figures) and _INSTRUCTION.match(c.text)
        ]
        if steps_left and not _numeric_correct(gold, answer, question):
            # a step, then how to finish: the work stopped short of the value
            return Decision(REFUSED, PARTIAL_WORK.slug, _cut(steps_left[-1].sentence))
    if figures or kind not in ("numeric", "any", "yes-no"):
        # a text answer's explanation of the metric counts; its hedge only when it names
        # a kind of thing, not a thing ("probably a large firm", not "probably KPMG")
        generic = {c.position for c in clauses if GENERIC_REFERENCE_CLAUSE.match(c.text)}
        hits = [
            hit
            for hit in hits
            if hit.cls.slug not in _NO_FIGURE_CLASSES
            or (
                kind == "text"
                and not figures
                and (hit.cls.slug == GENERIC_SUBSTITUTE.slug or hit.position in generic)
            )
        ]
    if kind == "numeric" and not any(
        _states_figure(_commits(c.text, c.norm_sentence, asked)) or _ZERO.match(c.text)
        for c in clauses
    ):
        # no committed figure at all for a numeric question (none, or only bounds,
        # ranges, formula constants, examples): no value was given, whatever the
        # wording; a cue anywhere names the class
        if not hits:
            vague = any(_BOUND.search(c.text) or _RANGE.search(c.text) for c in clauses)
            slug = VAGUE_ESTIMATE.slug if vague else GENERIC_SUBSTITUTE.slug
            return Decision(REFUSED, slug, _first_sentence(clauses))
        best = max(hits, key=lambda hit: (hit.cls.strength, -hit.position[0], -hit.position[1]))
        if _agrees(best, hits, clauses, gold):
            return Decision(ANSWERED, agrees_with_gold=True)
        return Decision(REFUSED, best.cls.slug, _cut(best.sentence))
    if not hits:
        if (
            kind == "yes-no"
            and _AUX.match(normalize(question))
            and not figures
            and not _takes_a_side(clauses)
        ):
            # neither yes nor no, no figure, no statement of fact: a hedge
            return Decision(REFUSED, VAGUE_ESTIMATE.slug, _first_sentence(clauses))
        return Decision(ANSWERED)
    best = max(hits, key=lambda hit: (hit.weight, -hit.position[0], -hit.position[1]))
    if _agrees(best, hits, clauses, gold):
        return Decision(ANSWERED, agrees_with_gold=True)
    # what the gold adds to the question: its topic words name no answer
    gold_words = _content_words(gold) - _content_words(question) if kind == "text" else set()
    commitment = _commitment(
        question, kind, gold_words=gold_words, clauses=clauses, hits=hits, figures=figures
    )
    if commitment == DEFINITE and figures and kind != "text":
        after = [
            hit
            for hit in hits
            if hit.position > max(figures)
            and not hit.detail_only
            and hit.cls.slug != "rejects-premise"
        ]
        stopped = [
            hit
            for hit in after
            if hit.cls.stops_work or (hit.cls.slug == "asks-input" and _NEEDS.search(hit.text))
        ]
        missing = [hit for hit in after if hit.cls.slug in _ABSENCE_CLASSES]
        gaps = [
            hit
            for hit in hits
            if hit.cls.slug in _GAP_CLASSES and not hit.detail_only and hit.position < max(figures)
        ]
        # graded once, and only when a stop or a gap asks whether the figure is the gold's
        gives_gold = bool(gold and (stopped or missing or gaps)) and _gives_gold_figure(
            gold, answer, question, kind
        )
        if stopped and not gives_gold:
            # the work stopped after a step; a stop after the gold's own figure only
            # leaves out a part ("..., so I can only give you the total")
            return Decision(REFUSED, PARTIAL_WORK.slug, _cut(stopped[-1].sentence))
        if missing:
            # a figure, then something missing: the gold's own figure makes the gap a
            # part left out; another figure is a step before the gap; no gold, unsure
            cue = _cut(missing[-1].sentence)
            if not gold:
                return Decision(UNDETERMINED, PARTIAL_WORK.slug, cue)
            if not gives_gold:
                return Decision(REFUSED, PARTIAL_WORK.slug, cue)
        if gaps and gold and not gives_gold:
            # the asked value is missing and the figure beside it is not the gold's:
            # a step or another metric, not an answer
            return Decision(REFUSED, gaps[0].cls.slug, _cut(gaps[0].sentence))
    if commitment in (DEFINITE, CLAIM) and kind == "text":
        open_end = _open_end(question, clauses, hits)
        if open_end is not None:
            return Decision(REFUSED, PARTIAL_WORK.slug, _cut(open_end.sentence))
    if commitment == DEFINITE:
        return Decision(ANSWERED)
    if commitment == CLAIM and best.cls.slug not in (
        "advice-refusal",
        "rejects-premise",
        GENERIC_SUBSTITUTE.slug,
    ):
        # a claim beside the cue: an answer to this question? (facts beside a policy
        # refusal, a premise rejection or a metric's definition are more of the same)
        return Decision(UNDETERMINED, best.cls.slug, _cut(best.sentence))
    if best.weight >= REFUSE_AT:
        return Decision(REFUSED, best.cls.slug, _cut(best.sentence))
    if best.weight >= UNDECIDED_AT:
        return Decision(UNDETERMINED, best.cls.slug, _cut(best.sentence))
    return Decision(ANSWERED)


def _gives_gold_figure(gold: str, answer: str, question: str, kind: str) -> bool:
    """The answer states the gold, or the first figure of a numeric gold with several
    ("$14.8 billion, of which $9.6 billion funded"): what it leaves out after that is a
    part, not the answer. A gold's later figures are often its workings, and a yes/no
    gold's figures its reasons, so they do not count."""
    if _numeric_correct(gold, answer, question):
        return True
    goals = answers.targets(gold) if kind == "numeric" else []
    return bool(goals) and _numeric_correct(goals[0].text, answer, question)


def _numeric_correct(gold: str, answer: str, question: str) -> bool:
    """The numeric scorer's verdict, with this detector telling it a declining "No"."""
    return answers.grade("numeric", gold, answer, question, declines=is_refusal).correct


def _open_end(question: str, clauses: list[_Clause], hits: list[_Hit]) -> _Hit | None:
    """A text answer that names candidates or steps, then ends saying the asked thing
    stays open: a stop in the last sentence that speaks of what the question asks
    (its which/who/what, or two of its words) up to the stop, leaving out the clauses
    that state figures (those are the answer's steps, not what stays open)."""
    last = max(c.position[0] for c in clauses)
    norm_question = normalize(question)
    asking, topic = set(_ASKING.findall(norm_question)), _content_words(norm_question)
    for hit in reversed(hits):
        clause = " ".join(
            c.text
            for c in clauses
            if c.position[0] == hit.position[0]
            and c.position <= hit.position
            and not _states_figure(c.text)
        )
        if (
            hit.position[0] == last
            and hit.position > clauses[0].position  # something came before it
            and hit.cls.stops_work
            and (
                asking & set(_ASKING.findall(clause))
                or len(topic & set(_WORD.findall(clause))) >= 2
            )
        ):
            return hit
    return None


def is_refusal(text: str | None, question: str = "", gold: str = "") -> bool:
    """Whether `detect` calls the answer a refusal (undetermined counts as answered)."""
    return detect(text, question, gold).refused


def hook_nonanswer_judge(judge: JudgeFn) -> NonAnswerJudge:
    """The undetermined path's judge, asked through the `pytest_bizbench_judge` hook."""

    def decide(question: str, answer: str, gold: str) -> bool | None:
        grade = checked_grade(judge(NONANSWER_FIELD + question, gold, answer))
        return None if grade is None else grade >= NONANSWER_AT

    return decide


def _agrees(best: _Hit, hits: list[_Hit], clauses: list[_Clause], gold: str) -> bool:
    """A premise rejection, or an absence of the asked thing itself, that says what a
    negative gold answer says; not when the answer also says it cannot decide ("...
    so I can't confirm whether it made any")."""
    if not gold or best.cls.slug not in _ABSENCE_CLASSES:
        return False
    gold_hits = _hits(_clauses(gold))
    if not _negative(gold, gold_hits):
        return False
    # a premise rejection's consequence ("so it can't be computed") is no indecision
    undecided = (
        _UNDECIDED - {"insufficient-info"} if best.cls.slug == "rejects-premise" else _UNDECIDED
    )
    if any(hit.cls.slug in undecided for hit in hits):
        return False
    if best.cls.slug == "rejects-premise":
        # a plain "No; it made a loss" does not reject the question's premise
        return bool(PREMISE_GOLD.search(normalize(gold))) or any(
            hit.cls.slug == "rejects-premise" for hit in gold_hits
        )
    return any(ABSENT_THING.search(c.text) for c in clauses)


def _negative(gold: str, gold_hits: list[_Hit]) -> bool:
    """A gold answer that itself states an absence or rejects the premise."""
    return bool(NEGATIVE_GOLD.search(normalize(gold))) or any(
        hit.cls.slug in _ABSENCE_CLASSES for hit in gold_hits
    )


def _empty_json(text: str) -> bool:
    """A JSON object or list with nothing in it: `{"answer": null}`, `{"value": ""}`."""
    stripped = _FENCE.sub("", normalize(text)).strip()
    if len(stripped) > 500 or not stripped.startswith(("{", "[")):
        return False
    try:
        value = json.loads(stripped)
    except ValueError:
        return False
    return _holds_nothing(value)


def _holds_nothing(value: object) -> bool:
    if isinstance(value, dict):
        return all(_holds_nothing(v) for v in value.values())
    if isinstance(value, list):
        return all(_holds_nothing(v) for v in value)
    return value is None or (isinstance(value, str) and _bare(value) in PLACEHOLDERS)


def _bare(text: str) -> str:
    """The text without edge punctuation and a code fence around it (```json {} ```)."""
    return _FENCE.sub("", normalize(text)).strip(" \t\n.,;:!\"'*_")


def _first_sentence(clauses: list[_Clause]) -> str | None:
    """The cue of an answer refused as a whole; an answer of punctuation alone ("(")
    has no clause to quote."""
    return _cut(clauses[0].sentence) if clauses else None


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= CUE_CHARS else text[: CUE_CHARS - 1] + "…"


def _clauses(answer: str) -> list[_Clause]:
    """Each sentence's clauses, normalised, quoted speech taken out. A long answer is
    read by its head and tail only: cues sit in the first and last sentences, and
    the cost of the cue patterns grows faster than the text."""
    if len(answer) > HEAD_CHARS + TAIL_CHARS:
        answer = answer[:HEAD_CHARS] + "\n" + answer[-TAIL_CHARS:]
    sentences = [s.strip() for s in _SENTENCE.split(answer.strip()) if s and s.strip()]
    result = []
    for i, sentence in enumerate(sentences):
        text = _MARKUP.sub(" ", QUOTED.sub(" ", normalize(sentence.translate(_QUOTES))))
        parts = [
            piece.strip(" ,.")
            for part in _LEADING_YES_NO.split(normalize(text), maxsplit=1)
            for clause in _CLAUSE.split(part)
            for piece in _SUBORDINATE.split(clause, maxsplit=1)
        ]
        for j, part in enumerate(p for p in parts if p):
            result.append(_Clause((i, j), part, sentence, text))
    return result


def _hits(clauses: list[_Clause], question: str = "") -> list[_Hit]:
    """The cues found at clause starts. A limitation about a detail ("the segment split
    is not given") is marked `detail_only` unless the question asks about that detail."""
    asked = normalize(question)
    why = bool(_EXPLAIN_QUESTION.search(asked))  # a why-question asks for the reasons
    last_sentence = max((c.position[0] for c in clauses), default=0)
    # sentences that report the company's own words: their later clauses are its words
    reported = {
        c.position[0]
        for c in clauses
        if c.position[1] == 0 and EXCLUSIONS["reported-speech"].match(c.text)
    }
    hits = []
    for clause in clauses:
        if EXCLUSIONS["bare-apology"].match(clause.text):
            continue
        if clause.position[0] in reported and clause.position[1] > 0:
            continue
        # "it was Tallow Ridge, though I'm not sure": a hedge on what was just said
        hedged = clause.position > clauses[0].position and EXCLUSIONS["hedge"].search(clause.text)
        index = clause.position[0]
        place = FIRST if index == 0 else LAST if index == last_sentence else MIDDLE
        detail_only = any(
            m.group() not in asked and not (why and WHY_DETAIL.fullmatch(m.group()))
            for m in EXCLUSIONS["detail-only"].finditer(clause.text)
        )
        for cls, patterns in _PATTERNS:
            if cls.slug == "capability" and EXCLUSIONS["role-opener"].match(clause.text):
                continue
            if cls.slug == "inability" and hedged:
                continue
            if cls.slug == "redirect" and _states_figure(_commits(clause.text)):
                continue  # a figure with its source: a pointer, not a redirect
            if any(p.match(clause.text) for p in patterns):
                hits.append(
                    _Hit(
                        cls,
                        clause.position,
                        cls.strength * place,
                        clause.sentence,
                        clause.text,
                        detail_only,
                    )
                )
                break
    return hits


def question_kind(question: str, gold: str) -> str:
    """`yes-no`, `numeric`, `text`, or `any` when neither question nor gold says. A
    question that asks which thing ("which segment ...", "what type of ...") or asks
    for an explanation ("why ...", "what risks ...") is `text` even when its gold adds
    a figure."""
    norm_gold, norm_question = normalize(gold), normalize(question)
    if _YES_NO.match(norm_gold) or (not gold and _AUX.match(norm_question)):
        return "yes-no"
    if _WHICH_QUESTION.match(norm_question) or (
        _EXPLAIN_QUESTION.search(norm_question) and not _AMOUNT_ASKED.search(norm_question)
    ):
        return "text"
    if gold:
        return "numeric" if _states_figure(norm_gold) else "text"
    if _NUMERIC_QUESTION.search(norm_question):
        return "numeric"
    return "any"


def _commitment(
    question: str,
    kind: str,
    *,
    gold_words: set[str],
    clauses: list[_Clause],
    hits: list[_Hit],
    figures: list[tuple[int, int]],
) -> str | None:
    """`definite` for an answer of the question's kind beside the cues (a figure for a
    numeric question, a yes or no for a yes/no one, the gold's own words for a text
    one); `claim` for a plain statement after a cue that may or may not answer."""
    cued = {hit.position for hit in hits}
    declined = {hit.position for hit in hits if hit.cls.slug in _MODEL_DECLINES}
    if kind in ("yes-no", "any") and any(
        c.position not in cued
        and (
            _YES_NO.match(c.text)
            or _SAYS_YES_NO.search(c.text)
            or _ENDS_YES_NO.search(c.text)
            or _ZERO.match(c.text)
        )
        and (c.position[0], c.position[1] + 1) not in declined  # "no, i cannot say"
        for c in clauses
    ):
        return DEFINITE
    if figures and kind != "text":
        return DEFINITE
    # one shared word may be chance ("lower", "defense"); two name the gold's answer
    named = min(2, len(gold_words))
    if gold_words and any(
        c.position not in cued
        and not _about_companies_in_general(c.text)
        and len(gold_words & set(_WORD.findall(c.text))) >= named
        for c in clauses
    ):
        return DEFINITE
    first_cue = min(cued)
    # "that's a pretty specific disclosure", "my recollection is thin": no claim about
    # what was asked (word stems, so "auditor" meets "audits")
    asked_stems = {w[:5] for w in _content_words(question)}
    if figures or any(
        c.position > first_cue
        and c.position not in cued
        and not _states_figure(c.text)
        and _CLAIM.search(c.text)
        and not _HEDGE.search(c.text)
        and not _POINTING.search(c.text)
        and not _EXISTENTIAL.match(c.text)
        and not _FIRST_PERSON.search(c.text)
        and (not asked_stems or bool(asked_stems & {w[:5] for w in _WORD.findall(c.text)}))
        for c in clauses
    ):
        return CLAIM
    return None


def _about_companies_in_general(text: str) -> bool:
    """A clause about companies in general ("under ASC 606, companies recognize ...",
    "most banks typically ..."): its words name nothing about this company."""
    return bool(_NOT_THIS_VALUE.search(text) or _GENERIC_SUBJECT.match(text))


def _takes_a_side(clauses: list[_Clause]) -> bool:
    """A yes or a no, or a statement of fact (a finite verb, no hedge)."""
    return any(
        _YES_NO.match(c.text)
        or _SAYS_YES_NO.search(c.text)
        or _CONCLUDES_YES_NO.search(c.text)
        or _ZERO.match(c.text)
        or (bool(_FINITE.search(c.text)) and not _HEDGE.search(c.text))
        for c in clauses
    )


def _content_words(gold: str) -> set[str]:
    """The words of a text gold answer that name something (not function words)."""
    return {
        w
        for w in _WORD.findall(normalize(gold))
        if len(w) > 3 and w not in _FUNCTION_WORDS and not w.isdigit()
    }


def _answers(clause: _Clause, asked: frozenset[str] = frozenset()) -> bool:
    """A clause that commits to a figure and does not point at other data instead."""
    return _states_figure(
        _commits(clause.text, clause.norm_sentence, asked)
    ) and not _POINTING.search(clause.text)


def _commits(text: str, sentence: str = "", asked: frozenset[str] = frozenset()) -> str:
    """The clause without the figures that commit to nothing: all of them in an
    example or a statement about companies in general, bounds ("more than $1
    billion"), ranges ("20-25%", "at least 13-14 months"), a formula's constants ("x 100",
    "/ 2", "(365 for a full year)": a formula anywhere in the sentence)."""
    if _about_companies_in_general(text):
        return ""
    if asked:  # the question's own figures ("more than 10%?") commit to nothing
        text = _FIGURE.sub(lambda m: " " if m.group() in asked else m.group(), text)
    text = _BOUND.sub(" ", _RANGE.sub(" ", _NOT_A_VALUE.sub(" ", text)))
    return _CONSTANT.sub(" ", text) if _FORMULA.search(sentence or text) else text


def _same_period(
    figures: list[tuple[int, int]], clauses: list[_Clause], hits: list[_Hit]
) -> list[tuple[int, int]]:
    """Figures for another year than the one a cue declines do not answer it."""
    by_position = {c.position: c.text for c in clauses}
    asked = {p for hit in hits for p in _periods(by_position[hit.position])}
    if not asked:
        return figures
    kept = []
    for figure in figures:
        stated = _periods(by_position[figure])
        if not (stated and stated.isdisjoint(asked)):
            kept.append(figure)
    return kept


def _periods(text: str) -> set[str]:
    """The years a clause names (`2022`, `FY2022`, `FY22` all give `2022`)."""
    return {match[1] or f"20{match[2]}" for match in _PERIOD.finditer(text)}


def _states_figure(text: str) -> bool:
    """A number in the text that is not a year, a reference or a date's day; or a
    number in words with a unit ("five percent", "two billion")."""
    if _WORDED_FIGURE.search(text):
        return True
    for match in _FIGURE.finditer(text):
        start, end = match.span()
        if ends_at(_REFERENCE_BEFORE, text, start) or ends_at(MONTH_BEFORE, text, start):
            continue
        if _REFERENCE_AFTER.match(text, end):
            continue
        if _YEAR.fullmatch(match.group()) and not _PERCENT_AFTER.match(text, end):
            continue
        return True
    return False
