"""The non-answer catalog as data: fourteen classes of cues and the exclusions beside them.

`scoring/refusal.py` decides; this module only says what to look for. Cues are
grammatical families, not sentences: a subject (the model, the source, the asked
figure), a negated verb of availability or ability, an object. They are matched on
one normalised sentence at a time (case-folded, contractions spelt out: `can't` is
`cannot`, `doesn't` is `does not`, `I'm` is `i am`) and only where the sentence or
one of its clauses *starts*, after an optional lead-in (`Unfortunately,`, `Based
on the excerpt,`, an apology). So "the company cannot estimate the loss" and a
quoted "I cannot let you pass" never match: the sentence does not start with the
model or the source declining.

Each class is a `CueClass`: its slug (reported as `details.refusal_class`), its
`doc` (what it covers, why it is a non-answer), its cue patterns and its strength
(1.0: a cue that alone makes a refusal; lower: a hedge that only makes the answer
undetermined).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import regex as _regex

# --- building blocks -------------------------------------------------------------------

# the model speaking
ME = r"(?:i|we)"
# the source it was given, or that it looked in
SOURCE = (
    r"(?:(?:the|this|these|those|that|its|provided|given|above|supplied|available|attached"
    r"|shared|company's|[\w&.-]+'s)\s+(?:[\w'&.-]+\s+){0,3}?)?"
    r"(?:context|contexts|document|documents|docs|text|texts|passage|passages|excerpt|excerpts"
    r"|filing|filings|report|reports|10-k|10-q|8-k|statement|statements|page|pages|snippet"
    r"|snippets|extract|extracts|material|materials|source|sources|evidence|information|data"
    r"|disclosure|disclosures|notes|table|tables|section|sections|content|record|records"
    r"|chunk|chunks|portion|portions|pdf|pdfs|transcript|transcripts|attachment|attachments"
    r"|file|files|upload|uploads|it|they|them)"
)
NEG = r"(?:does not|do not|did not|cannot|could not|fails? to|failed to|never|will not|has not)"
ADV = r"(?:(?:appear|seem) to |actually |explicitly |specifically |directly |clearly |itself )?"
# verbs of a source making a figure available
SHOW = (
    r"(?:contain|include|provide|mention|specify|state|disclose|give|list|show|report|cover"
    r"|detail|break (?:out|down)|reference|present|offer|address|have|discuss|say|tell|note"
    r"|indicate|reveal|quantify|itemi[sz]e|separate|split out|spell out|make available"
    r"|supply|allow|permit|let|name|identify|cite|describe|explain|clarify|confirm|touch on"
    r"|get into|go into|deal with|speak to|talk about|bring up|raise|refer to)"
)
# participles of being made available
SHOWN = (
    r"(?:given|provided|disclosed|stated|reported|listed|mentioned|available|included|shown"
    r"|broken (?:out|down)|specified|presented|detailed|found|itemi[sz]ed|quantified"
    r"|identified|separated|split out|discussed|addressed|covered|published|captured"
    r"|spelled out|spelt out|indicated|revealed|contained|present|visible|known|made"
    r"|released|filed|issued|out yet|yet available|shared|supplied|attached|sent|named"
    r"|reproduced|printed|copied|readable|legible|accessible|extractable|parsable"
    r"|brought up|raised|referenced|cited|noted|touched on|dealt with|talked about"
    r"|there|here)"
)
# verbs of the model producing an answer
ANSWER = (
    r"(?:answer|provide|give|determine|calculate|compute|say|tell|confirm|state|offer|share"
    r"|supply|identify|report|derive|find|quote|pinpoint|know|verify|estimate|assess|produce"
    r"|come up with|arrive at|work out|figure out|locate|retrieve|obtain|extract|infer"
    r"|ascertain|establish|specify|speak to|comment on|answer that|be certain|be sure"
    r"|reliably|accurately|precisely|definitively|confidently|responsibly|finish|complete"
    r"|help|assist|speculate|guess|venture|hazard|commit to|finalize|finalise|conclude"
    r"|recommend|advise|suggest|endorse|predict|forecast|foresee|project|check|look up"
    r"|look into|name|recall|remember|pin down|weigh in|settle|access|see|pull|close"
    r"|wrap up|explain|describe|list|outline|summari[sz]e|detail|elaborate on|turn (?:\w+ )?into"
    r"|convert)"
)
MODEL_CANNOT = (
    r"(?:cannot|can not|could not|am unable to|are unable to|was unable to|were unable to"
    r"|am not able to|are not able to|was not able to|will not be able to|would not be able to"
    r"|am afraid i cannot|unfortunately cannot|do not think i can|am not in a position to"
    r"|have no way to|have no way of|lack the (?:\w+ )?(?:to|for))"
)
DETERMINED = (
    r"(?:determined|calculated|computed|answered|derived|established|ascertained|inferred"
    r"|assessed|confirmed|verified|identified|quantified|known|completed|finished|worked out"
    r"|estimated|found|stated|given|provided|finalized|finalised|concluded|pinned down"
    r"|settled|resolved|decided|checked|named|read(?: off)?|gleaned|deduced|extracted|told)"
)
INFO = (
    r"(?:information|data|details?|figures?|numbers?|values?|amounts?|mention|disclosure"
    r"|breakdown|reference|record|indication|specifics|context|evidence|inputs?|visibility"
    r"|statements?|discussion|guidance|commentary|word|basis|grounds|info)"
)
# what a sentence may open with before its cue: discourse words, an apology, a
# prepositional or participial phrase closed by a comma
LEAD_IN = (
    r"(?:(?:unfortunately|regrettably|sadly|however|but|and|so|thus|therefore|hence|also"
    r"|honestly|frankly|still|ultimately|again|alas|that said|in short|in summary|in sum"
    r"|to be clear|to be honest|to summari[sz]e|as such|note|hmm|well|ok|okay|sorry"
    r"|apologies|my apologies|i am sorry|i apologi[sz]e|i am afraid|afraid"
    r"|i regret that|answer|response|final answer|short answer|which|it (?:seems|appears)(?: that)?"
    r"|consequently|accordingly|as a result|for (?:that|this|these) reasons?|in that case"
    r"|otherwise|admittedly|realistically|either way|in any case|in other words|put simply"
    r"|because|since|given that|sure|of course|certainly|absolutely|oof|ah|oh|uh|um|yikes"
    r"|(?:it )?(?:seems|appears) that)\b[\s,:;.!-]*"
    r"|(?:based on|according to|from|in|within|under|per|across|looking at|having reviewed"
    r"|after reviewing"
    r"|reviewing|given|with|without|as of|for|on|regarding|as for|as to|while|although"
    r"|though|since|because|even though|despite|to|as far as|to my knowledge|to the best of"
    r"|at this time|at the moment|currently|right now|for now|\w+ing)\b"
    r"(?:[^,;:]{0,120}[,;:]\s*"
    r"|[^,;:]{0,80}? (?=(?:i|we|you|one|there|it (?:is|was|would|seems|appears|remains)) )))*"
)

# an adverb between a modal and its verb: "I would also need"
STILL = r"(?: also| still| first| additionally| then| further| really)?"
# kinds of company: a statement about them is about companies in general
_KIND = (
    r"(?:compan|firm|issuer|business|bank|retailer|insurer|lender|manufacturer|operator|peer"
    r"|producer|utilit|carrier|airline|homebuilder|builder|reit|seller|maker|designer|developer"
    r"|chain|entit|organi[sz]ation|registrant|player|miner|shipper|automaker|biotech|chipmaker"
    r"|distributor|wholesaler|brand)"
)
KINDS = (
    rf"(?:{_KIND}(?:s|es|ies)"
    rf"|(?:an?|any|every|each|a typical) (?:[\w-]+ ){{0,2}}?{_KIND}(?:y|e)?)"
)
# a noun phrase opening a clause: the asked figure, up to 16 words
NP = r"(?:[\w$%&'./(),-]+ ){0,16}?"
# a short noun phrase (terse answers: "Receivables not provided")
SHORT_NP = r"(?:[\w$%&'./-]+ ){1,6}?"
NOT_DERIVABLE = (
    r"(?:determinable|derivable|computable|calculable|answerable|knowable|ascertainable"
    r"|undeterminable|indeterminable|unanswerable|unknowable|undetermined|indeterminate"
    r"|not possible to (?:determine|calculate|compute|derive|know|say))"
)

# where a figure is published: the documents a redirect sends the user to
DOC = (
    r"(?:10-k|10-q|8-k|filings?|reports?|statements?|proxy|notes?|website|site|pages?|releases?"
    r"|database|edgar|section|item \d+|terminal|disclosures?|portal)"
)

# --- classes ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CueClass:
    """One kind of non-answer: its slug, why it is one, and its cues."""

    slug: str
    doc: str
    cues: tuple[str, ...]
    strength: float = 1.0
    # a cue of this class after the last figure means the work was left unfinished
    stops_work: bool = False

    def patterns(self) -> tuple[re.Pattern[str], ...]:
        return tuple(re.compile(rf"^{LEAD_IN}(?:{cue})") for cue in self.cues)


INABILITY = CueClass(
    "inability",
    "The model says it cannot or will not give the figure (first person). It declines "
    "without saying why; the commonest closed-book non-answer after cutoff.",
    (
        r"not sure (?:which|what|who|whether|how|where|when)\b",
        rf"{ME} (?:only )?wish (?:{ME} )?could\b",
        r"[^.;]{0,100}? (?:is|are|was|were) (?:\w+ )?(?:not possible|impossible|not feasible"
        r"|infeasible|beyond me) for (?:me|us)\b",
        rf"{ME} (?:\w+ )?{MODEL_CANNOT} (?:\w+ )?{ANSWER}",
        rf"{ME} (?:do|did) not (?:\w+ )?(?:know|recall|remember|have (?:a |an |any )?(?:\w+ )?"
        rf"(?:answer|figure|number|value|way|means|the (?:\w+ )?(?:figure|number|value|{INFO})"
        rf"|{INFO}))",
        rf"{ME} have no (?:\w+ )?(?:way|means|answer|figure|number|idea|{INFO})",
        rf"{ME} (?:\w+ )?(?:do|did) not (?:\w+ )?(?:know|recall|remember)\b",
        rf"{ME} (?:am|are) (?:unable|not able) to",
        rf"(?:unable|not able) to (?:\w+ )?{ANSWER}",
        rf"no idea\b|(?:cannot|can not) (?:\w+ )?{ANSWER}\b|not sure\s*[.!]?$"
        r"|who (?:knows|can say)\b",
        rf"not (?:something|a (?:detail|figure|number|thing|question)|{INFO}) (?:that )?{ME}"
        r" (?:can|could|am able to|would|know|will|shall)\b",
        rf"(?:{NP}(?:is|are|was|were) )?(?:not )?(?:something|a (?:detail|figure|number|thing"
        rf"|question)|information|{INFO}) (?:that )?{ME} (?:{MODEL_CANNOT}|have no|do not|did not"
        r"|lack|am not|know nothing)",
        rf"{ME} (?:lack|have no|do not have|have little) (?:\w+ )?(?:visibility|insight|knowledge"
        r"|record|access|sight|view)\b",
        rf"{ME} (?:will|would) not (?:be )?(?:able to )?(?:\w+ )?{ANSWER}",
        r"(?:it is|it would be) (?:\w+ )?(?:not possible|impossible|not feasible|difficult|hard"
        r"|unclear)"
        rf" (?:for me )?to (?:\w+ )?{ANSWER}",
        rf"{ME} (?:am|are) not (?:\w+ )?(?:confident|certain|sure|comfortable|willing"
        r"|in a position)"
        r"\b(?![^.;]{0,40}\b(?:but|however)\b)",
        rf"{ME} (?:would|had) rather not\b",
        rf"{NP}(?:is|are) not something (?:that )?(?:{SOURCE}|{ME})\b",
        rf"{NP}(?:is|are|was|were) not (?:\w+ ){{0,3}}?(?:that )?{ME}"
        r" (?:can|could|am able|would)\b",
        rf"(?:\w+ ){{0,6}}?{ME} (?:have to|must|will have to|need to|am going to|will|would|shall)"
        r" (?:pass|decline|refrain|abstain|skip|sit (?:this|that))",
        # the asked thing fronted: "what share it made up I can't say"
        rf"(?:what|which|whether|how much|how many|who|where|when|why)\b[^.;]{{0,80}}? {ME}"
        rf" (?:\w+ )?(?:{MODEL_CANNOT} (?:\w+ )?{ANSWER}|do not know|am not sure|have no idea)\b",
        rf"{ME} would (?:only |just |merely )?be (?:guessing|speculating"
        r"|making (?:it|this|that) up)",
        rf"{ME} (?:will|would|shall) not\s*$",
        rf"{ME} (?:must |have to |will |would )?(?:refuse|decline)\s*[.!]*$",
        rf"{ME} (?:would )?(?:prefer|choose|have) (?:not )?to (?:decline|pass|refrain|abstain)"
        r"|(?:i|we) (?:would )?prefer not to\b|(?:i|we) (?:must|have to|will) decline\b",
        rf"{ME} (?:do|did) not have\b",
        rf"{ME} (?:lack|am missing|am without|are missing|are without)\b",
        rf"(?:{ME} )?(?:do|did) not know\b|no clue\b|(?:{ME} (?:am|are) )?(?:uncertain|unsure"
        r"|not certain)\s*[.!]?$",
        rf"{NP}(?:is|are|was|were) (?:not something|beyond what|outside what|more than) (?:that )?"
        rf"{ME} (?:can|could|am able)",
    ),
    stops_work=True,
)

SOURCE_ABSENCE = CueClass(
    "source-absence",
    "The given text (context, excerpt, filing, pages) does not contain the figure, or "
    "the model found nothing in it. The dominant form when the model had documents.",
    (
        rf"no (?:[\w&'-]+ ){{0,3}}?{INFO} (?:in|within|from) (?:the |this |these )?{SOURCE}",
        rf"{SOURCE} (?:\w+ ){{0,3}}?{NEG} {ADV}(?:\w+ )?{SHOW}\b",
        rf"{SOURCE} (?:\w+ ){{0,3}}?{NEG}\s*$",
        rf"{SOURCE} (?:\w+ ){{0,3}}?only (?:covers?|includes?|contains?|shows?|discuss(?:es)?"
        r"|provides?|lists?|reports?|mentions?|gives?|has|have|deals? with|addresses|goes"
        r"|runs|extends|reaches|gets)\b",
        rf"{SOURCE} (?:\w+ ){{0,3}}?(?:is|are|was|were) (?:only )?(?:limited|restricted|confined)"
        r" to\b",
        rf"all (?:that )?{ME} (?:have|had|was given|were given|got|can see|see|was shown"
        r"|were shown) (?:is|are|was|were)\b",
        rf"only (?:the )?(?:[\w&'-]+ ){{0,4}}(?:is|are|was|were) (?:{SHOWN}|covered)\b",
        rf"only (?:the )?[^.;]{{0,100}}? (?:made it|was included|were included|came through"
        rf"|got through|was captured|were captured) (?:into |in )?{SOURCE}",
        rf"{SOURCE} (?:\w+ ){{0,3}}?(?:is|are|was|were) (?:ambiguous|unclear|vague|inconclusive"
        r"|incomplete)\b",
        rf"{SOURCE} (?:\w+ ){{0,3}}?(?:lacks?|lacked|is missing|are missing|omits?|omitted"
        r"|leaves? out|left out)\b",
        rf"{SOURCE} (?:\w+ ){{0,3}}?(?:is|are|was|were|remains?) (?:silent|mute|quiet)\b",
        rf"{SOURCE} (?:\w+ ){{0,3}}?(?:makes?|made|gives?|has|have|had|contains?|includes?"
        r"|provides?|offers?|reports?|lists?|shows?|discloses?|mentions?|records?|states?"
        r"|presents?) (?:no|none|nothing|not any)\b",
        rf"nothing (?:about|on|regarding|concerning|covering) [^.;]{{0,60}}? (?:in|within|from)"
        rf" {SOURCE}",
        rf"no (?:[\w&'-]+ ){{0,2}}?(?:{INFO}|explanation|discussion) (?:attributing|explaining"
        r"|about|regarding|on|for|behind)\b",
        rf"nothing (?:in|within|on|from) (?:the |this |these |those |any )?(?:[\w-]+ ){{0,3}}?"
        rf"(?:{SOURCE})",
        rf"nothing (?:(?:that )?{ME} (?:was|were|have been|have|had) (?:given|shown|provided|sent"
        r"|seen|read)|(?:\w+ ){0,3}?(?:here|provided|given|shared|supplied)) (?:\w+ )?(?:speaks?"
        r"|mentions?|address(?:es)?|covers?|says|touch(?:es)?|discuss(?:es)?|refers?|relates?"
        r"|gives?|shows?|provides?|states?|bears?)\b",
        r"nothing (?:that |which )?(?:\w+ )?(?:speaks?|mentions?|address(?:es)?|covers?|says"
        r"|touch(?:es)?|discuss(?:es)?|refers?|relates?|gives?|shows?|provides?|states?|bears?"
        r"|deals?)\b",
        rf"{SOURCE} [^.;]{{0,80}}?\b(?:says|mentions|states|discloses|gives|shows|provides"
        r"|contains|includes|reports|offers) (?:nothing|no (?:\w+ )?(?:mention|word|detail"
        r"|information|data|figures?))\b",
        rf"{SOURCE} [^.;]{{0,80}}? (?:and|but|yet) (?:\w+ )?{NEG} {ADV}(?:\w+ )?{SHOW}\b",
        rf"{ME} (?:do|did) not (?:think|believe) (?:that )?{SOURCE} (?:\w+ ){{0,3}}?{SHOW}",
        rf"{ME} (?:can |could )?only (?:see|have|had|got|found|was given|were given|received)\b",
        rf"what {ME} (?:could not|cannot|did not|do not|was unable to|am unable to) (?:\w+ )?"
        r"(?:find|see|locate|spot|get)\b",
        rf"{SOURCE} (?:\w+ ){{0,3}}?(?:only )?(?:covers?|includes?|contains?|shows?|discuss(?:es)?"
        r"|provides?|lists?|reports?|gives?|has|have|deals? with|address(?:es)?)"
        r" [^.;]{1,60}\bonly$",
        rf"{NP}(?:is|are|falls?|lies?|goes|sits?) (?:beyond|outside) (?:the scope of )?what"
        rf" (?:{SOURCE}|{ME})\b",
        rf"(?:none|neither) of (?:the |these |those )?(?:[\w-]+ ){{0,3}}?(?:{SOURCE})",
        r"no (?:\w+ )?(?:excerpt|passage|page|document|section|table|part|filing|statement"
        r"|line item|note)s? (?:\w+ )?(?:mentions?|contains?|includes?|provides?|gives?|shows?"
        r"|lists?|reports?|discloses?|states?|has|have)\b",
        rf"{ME} (?:can |could )?(?:see|find|found|saw|spot|spotted) (?:no|nothing|not any)\b",
        rf"no (?:specific |relevant |explicit |direct |such |separate |detailed |clear )?{INFO}"
        r" (?:regarding|about|on|for|concerning|related to|relating to|of|as to)\b",
        rf"{NP}(?:is|are|falls?|lies?|goes) (?:beyond|outside) (?:the scope of )?(?:{SOURCE}|my\b)",
        r"there (?:is|was|appears to be|seems to be) nothing (?:here |in here |there )?(?:on"
        r"|about|regarding|for|concerning"
        r"|relating|related|in|that)\b",
        rf"{ME} (?:could not|cannot|did not|do not|was unable to|were unable to|am unable to"
        rf"|failed to) (?:\w+ )?(?:find|locate|see|spot|identify|come across|find any)\b",
        rf"there (?:is|are|was|were|appears to be|seems to be) (?:no|not any|nothing) "
        rf"(?:[\w&'-]+ )?(?:{INFO}|(?:\w+ )?(?:mentioned|reported|disclosed|given|provided|listed))"
        rf"(?! of (?:impairment|debt|acquisitions?|dividends?))",
        rf"no (?:specific |relevant |explicit |direct |such |separate |detailed |clear )?"
        rf"{INFO} (?:(?:\w+ ){{0,4}})?(?:is|are|was|were|has been|have been|appears?|seems?)"
        rf" (?:\w+ )?(?:{SHOWN})",
        rf"(?:the )?(?:requested|asked|relevant|required|specific|necessary|needed) "
        rf"(?:\w+ ){{0,2}}?(?:{INFO}|figure|metric) (?:is|are|was|were) (?:not|nowhere)\b",
    ),
)

PASSIVE_UNAVAILABILITY = CueClass(
    "passive-unavailability",
    "The figure itself is the subject: 'FY2019 revenue isn't given here'. No model, no "
    "source named, but the answer says the value is not available.",
    (
        rf"{SHORT_NP}(?:not|nowhere) (?:in|within|on|part of) (?:the |this |these |any )?{SOURCE}",
        rf"{NP}(?:is|are|was|were|has|have|had|remains?|appears?|seems?)"
        rf" (?:been |to be |to have been )?(?:not|nowhere|never|neither) (?:\w+ )?(?:{SHOWN})\b",
        rf"{NP}(?:is|are|was|were|has|have|had) (?:not yet|yet to be) (?:been )?(?:{SHOWN})\b",
        rf"{NP}(?:appears?|seems?) not to (?:be|have been) (?:\w+ )?(?:{SHOWN})\b",
        rf"{NP}(?:does|do|did) not (?:seem|appear) to (?:be|have been) (?:\w+ )?(?:{SHOWN})\b",
        rf"{NP}(?:does|do|did) not (?:appear|show up|feature)\b(?! to)",
        rf"{NP}(?:is|are|was|were) (?:not|nowhere) (?:part of|in|within|among|anywhere in"
        rf"|found in|contained in|present in|to be (?:seen|found)) {SOURCE}",
        rf"{NP}(?:is|are|was|were) nowhere to be (?:seen|found)",
        r"no (?:[\w&'-]+ ){1,3}?(?:is|are|was|were|has been|have been|gets?) (?:\w+ )?"
        r"(?:mentioned|disclosed|given|provided|listed|stated|shown|named|identified|cited"
        r"|referenced|specified|included|brought up|discussed)\b",
        rf"(?:not|never) (?:\w+ )?(?:{SHOWN})\b",
        rf"{SHORT_NP}(?:not|nowhere) (?:\w+ )?(?:{SHOWN})\b(?! (?:by|to|that|because|for))",
        rf"{NP}(?:(?:is|are|was|were) )?(?:unavailable|unknown|undisclosed|unreported"
        rf"|unstated|unspecified|missing|absent|lacking|omitted|redacted)\b",
        rf"neither [^.;]{{1,60}}? nor [^.;]{{1,60}}? (?:is|are|was|were) (?:\w+ )?(?:{SHOWN})",
        rf"{NP}(?:is|are|was|were) not (?:part of|in|among|within) (?:what|anything) (?:{ME}"
        rf"|{SOURCE})",
        r"(?:unavailable|unknown|undisclosed|unreported|unstated|unspecified|not available"
        r"|unconfirmed|unverified|unverifiable"
        r"|missing|absent|n/a|not provided|not given)(?:\s*[.!]?$| (?:in|from|within|on) )",
        r"(?:n/a|none given|no data|no answer|not applicable)\s*[.!]?$",
    ),
)

INSUFFICIENT_INFO = CueClass(
    "insufficient-info",
    "There is not enough information to work the answer out; it cannot be determined. "
    "Impersonal, no model and no source named.",
    (
        r"(?:it is |that is |this is )?(?:hard|difficult|impossible|tough) to be (?:any )?"
        r"(?:more )?(?:precise|specific|definitive|certain|exact)\b",
        rf"{SOURCE} [^.;]{{0,80}}? but (?:not|no) (?:enough|sufficient|adequate)\b",
        r"(?:it )?(?:really |all )?depends (?:on )?(?:how|what|who|which|on your)\b",
        rf"{ME} (?:do not|did not) (?:think|believe) (?:{ME} )?(?:have|had|got) (?:enough"
        r"|sufficient|adequate)\b",
        rf"{ME} (?:do not|did not) (?:have|get) (?:enough|sufficient|adequate) (?:\w+ )?"
        rf"(?:{INFO}|to go on)\b",
        rf"{SHORT_NP}(?:incomplete|undetermined|unknown|not computable|not calculable"
        r"|indeterminate)\s*[.!]?$",
        rf"(?:there (?:\w+ ){{0,2}}?(?:is|are|was|were|be)|this is|that is|it is)"
        rf" (?:an? )?(?:not|no|insufficient|inadequate|limited|too little) (?:\w+ )?"
        rf"(?:enough |sufficient |adequate )?(?:\w+ )?{INFO}",
        rf"{NP}(?:is|are|was|were|remains?) (?:not |still )?{NOT_DERIVABLE}",
        rf"(?:[\w$%&'./-]+ ){{0,6}}?not {NOT_DERIVABLE}",
        r"there is no (?:\w+ )?(?:way|means|basis|grounds?)\b",
        r"there (?:may|might|would|will|does|do|did) not (?:\w+ )?be (?:\w+ )?(?:enough|sufficient"
        r"|adequate|any)\b",
        rf"{NP}(?:remains?|stays?|is|are|was|were|left) (?:undetermined|unknown|unclear|uncertain"
        r"|unresolved|open|incomplete|unanswered)\b",
        rf"(?:more|additional|further|other|extra) (?:\w+ )?{INFO} (?:\w+ )?(?:would be|is|are"
        r"|will be|would have to be) (?:needed|required|necessary)",
        rf"(?:not enough|insufficient|inadequate|incomplete|too little|limited|missing)"
        rf" (?:\w+ )?{INFO}",
        rf"(?:the )?(?:\w+ ){{0,4}}?{INFO} (?:\w+ )?(?:is|are|was|were) (?:insufficient"
        rf"|incomplete|not (?:sufficient|enough|adequate|complete)|too (?:limited|sparse))",
        rf"(?:[\w$%&'./()-]+ ){{0,10}}?(?:cannot|can not|could not|may not) be (?:\w+ )?"
        rf"{DETERMINED}",
        rf"(?:it is|it would be|it was) (?:not possible|impossible|not feasible) to (?:\w+ )?"
        rf"{ANSWER}",
        rf"(?:\w+ ){{0,3}}(?:would|will|\w+ would){STILL} (?:need|require)s? (?:more|additional"
        rf"|further|the|other|access to|both|[\w-]+ (?:{INFO}))",
        rf"{ME} (?:would|will){STILL} (?:need|require|want|have to see|have to have) (?!to\b)\w+",
        rf"{NP}(?:is|are|was|were|remains?) (?:\w+ )?(?:hard|difficult|impossible|tough|tricky)"
        r" to (?:say|tell|know|determine|pin down|judge|gauge|establish|confirm|call)\b",
        r"(?:unanswerable|not answerable|indeterminate|undeterminable|undetermined"
        r"|inconclusive)\b",
        rf"{NP}(?:is|are|was|were|remains?) inconclusive\b",
        r"there (?:is|was) not (?:enough|sufficient)\b",
        r"(?:which|that|this|it|these|those) (?:is|was|are|were) (?:not|in) ?(?:enough|sufficient"
        r"|adequate)\b",
        r"(?:(?:it is|that is|this is|it was) )?(?:(?:really|very|quite|too) )?(?:hard|difficult"
        r"|impossible|tough|tricky) to (?:say|tell|know|determine|pin down|judge|gauge)\b",
        rf"(?:unclear|uncertain|not clear|no (?:\w+ )?{INFO}(?: available| given| provided)?)"
        r"\s*[.!]?$",
        r"(?:it is|this is|that is|it remains|which is) (?:\w+ )?(?:unclear|not clear|uncertain"
        r"|ambiguous)\b",
        r"(?:unclear|not clear|uncertain) (?:from|based on|given|in|whether|what|who|which|how)\b",
        rf"(?:not possible|impossible|not feasible) (?:for (?:me|us) )?to (?:\w+ )?{ANSWER}",
        r"(?:the )?(?:question|query|request|answer) (?:cannot|can not|could not) be"
        rf" (?:\w+ )?{DETERMINED}",
        r"(?:[\w-]+ ){0,4}(?:is|are|was|were) not derivable\b",
    ),
    stops_work=True,
)

CUTOFF = CueClass(
    "cutoff",
    "Knowledge cutoff or no live data: the model's training ends before the period asked "
    "about. The commonest closed-book non-answer.",
    (
        r"my (?:\w+ )?(?:knowledge|training|information|data) (?:does not|do not|did not|may not"
        r"|might not) (?:\w+ )?(?:extend|go|reach|cover|include|run)",
        rf"{NP}(?:came out|(?:was|were) (?:published|released|filed|issued)|appeared)"
        r" (?:\w+ )?after my\b",
        rf"{NP}(?:postdates?|post-dates?|(?:is|are) (?:more recent|newer|later) than)"
        r" (?:\w+ ){0,3}?(?:my|what (?:i|we)|the (?:information|data|knowledge) (?:i|we))\b",
        rf"{ME} (?:lack|do not have|have no|am missing) (?:access to )?(?:any |an? )?(?:real-time"
        r"|real time|live|current|up-to-date|recent|latest|newer|the latest|the most recent)",
        r"(?:my|the) (?:\w+ )?(?:training|knowledge|data|information)(?: data)?(?: \w+){0,3}?"
        r" (?:cut-?off|cut off|ends?"
        r"|ended|stops?|stopped|goes up to|extends?|only goes|only extends|runs? (?:through|to))",
        r"(?:as of|since|after|beyond|up to|until) my (?:last |most recent )?(?:training|knowledge"
        r"|update|cut-?off)",
        rf"{ME} (?:do not|did not|cannot|could not) (?:\w+ )?(?:have|access|get|see|retrieve)"
        r" (?:access to )?(?:any )?(?:real-time|real time|live|current|up-to-date|recent|latest"
        r"|the latest|the most recent|newer|updated)",
        r"(?:without|lacking|no) (?:access to )?(?:real-time|real time|live|current|up-to-date"
        r"|recent) (?:\w+ )?(?:data|information|market data|filings|financials|figures|sources)",
        rf"{ME} (?:am|was) (?:only )?trained (?:on )?(?:data )?(?:up to|until|through|before)",
        r"my (?:\w+ )?(?:information|data|knowledge|training(?: data)?) (?:is|may be|might be"
        r"|could be|is probably) (?:not )?(?:current|up to date|up-to-date|outdated|out of date"
        r"|dated|stale|old|incomplete|limited|not current)",
        rf"{ME} can only (?:speak|comment|answer|provide|offer|share|report|go) (?:\w+ ){{0,3}}?"
        r"(?:to|up to|through|until|as of|from)\b",
        rf"{ME} (?:only )?(?:have|possess|know) (?:\w+ )?(?:information|data|knowledge|training"
        r" data|filings|figures|results) (?:through|up to|until|as of|from before|prior to|to)\b",
        rf"{ME} (?:do|did) not (?:think|believe) (?:that )?my (?:\w+ )?(?:knowledge|training"
        r"|information|data)(?: data)? (?:\w+ )?(?:covers?|includes?|extends?|reaches|goes|has"
        r"|contains?|runs)\b",
        r"(?:this|that|the \w+|fy ?\d+|\d{4}) (?:\w+ ){0,3}(?:is|was|are|were|falls?) (?:after"
        r"|beyond|outside|past) (?:where |what )?my\b",
    ),
)

CAPABILITY = CueClass(
    "capability",
    "The model says what it is and what it cannot do: an AI that cannot browse, open "
    "files or look up filings. Role openers of people ('As an analyst would') are not it.",
    (
        r"(?:as|being) (?:an? )?(?:ai|artificial intelligence|language model|large language"
        r" model|llm|text-based|virtual assistant|ai assistant|chatbot|machine)",
        r"(?:as|being) (?:an? |just an? |only an? )(?:[\w-]+ ){0,2}(?:model|assistant|bot|ai"
        r"|program)\b",
        rf"{ME} (?:am|are) (?:just |only |merely )?(?:an? )?(?:ai|artificial intelligence"
        r"|language model|large language model|llm|text-based|virtual assistant|chatbot"
        r"|ai assistant)",
        rf"{ME} (?:do not|cannot|could not|am unable to|am not able to|lack the ability to"
        r"|have no ability to|have no way to|have no way of|do not have the ability to|have no"
        r" means of) (?:\w+ )?(?:brows|access|open|search|retriev|view|read"
        r"|look\w*(?: \w+)? up|pull"
        r"|fetch|download|query|connect)\w*(?! to be)",
        rf"{ME} (?:do not|does not|have|has) (?:have )?(?:no |any )?(?:\w+ )?(?:browsing|internet"
        r"|web|database|file|search|retrieval|lookup) (?:access|capabilit\w+|abilit\w+|tools?"
        r"|connection|plugins?)",
        rf"{ME} (?:do not|cannot) have access to (?:the |any |external |their |its )?"
        r"(?:\w+ )?(?:filings?|documents?|databases?|internet|web|sec|edgar|financial"
        r" statements?|10-k|annual reports?|files?|sources|tools|systems|resources|websites?)",
        r"no (?:\w+ )?(?:internet|web|browsing|online|database|search|document|file|filing)"
        r" (?:access|connection"
        r"|capabilit\w+|tools?)",
    ),
)

REDIRECT = CueClass(
    "redirect",
    "Sends the user elsewhere (the 10-K, investor relations, a data provider) instead of "
    "giving the figure. With a committed figure it is only a pointer and does not count.",
    (
        r"(?:which|that|it|they|this) (?:will|would|should) (?:\w+ )?(?:state|show|say|tell you"
        r"|disclose|confirm|indicate|list|name|answer)\b",
        rf"{ME} (?:would|will) (?:check|consult|look at|look in|look up|start with|go to|visit"
        r"|refer to)\b",
        r"(?:i|we) (?:would|will) look (?:there|here|in there)\b",
        rf"{NP}(?:shows? up|appears?|(?:is|are) (?:shown|found|listed|given|reported|disclosed))"
        rf" (?:\w+ )?(?:in|on|within|under) (?:item|note|part|section) [\w.]+ of\b",
        rf"{NP}(?:is|are|would be|will be) (?:the|a) (?:better|best|right|safer|surer) (?:route"
        r"|place|bet|option|source|way|path|resource)\b",
        rf"{NP}(?:is|are) (?:\w+ )?(?:easiest|easier|best|simplest|quickest) (?:to )?(?:confirm"
        r"|check|find|verify|see|look up|get)\b",
        rf"{NP}(?:shows? up|appears?|(?:is|are) (?:shown|found|listed|given|broken out)) (?:\w+ )?"
        rf"(?:in|on|within|under) (?:the|its|their|a|an) (?:[\w'&-]+ ){{0,4}}?{DOC}\b",
        rf"(?:grab|pull up|open|download|get|read|fetch) (?:[\w'&.-]+ ){{0,5}}?(?:{DOC}|annual"
        r" report)\b",
        r"look (?:[\w'&-]+ ){1,3}up\b",
        rf"[^.;]{{0,120}}?\b(?:so|or|and|then) (?:just )?(?:check|consult|look (?:at|up|in)|see"
        rf"|visit|review|refer to) (?:the|its|their|a|an|[\w&.-]+'s) (?:[\w'&-]+ ){{0,6}}?{DOC}\b",
        r"(?:you|one|the reader|the user|investors) (?:\w+ )?(?:would|should|can|could|may"
        r"|might|will|need to|ought to)? ?(?:want to |need to |wish to |be able to |have to )?"
        r"(?:check|consult|refer to|look (?:at|up|in)|review|see|visit|search|pull|access"
        r"|obtain|find)\b",
        r"(?:check|consult|refer to|look (?:at|up|in)|review|see|visit|search|try) (?:[\w'&.-]+ )"
        r"{0,7}?(?:10-k|10-q|filing|filings|annual report|report|website|site|investor|sec|edgar"
        r"|financial statements|statements|terminal|provider|database|source|release|documents?"
        r"|disclosures?|notes?|footnotes?|md&a|proxy)\b",
        rf"{NP}(?:is|are|would be|may be|might be) (?:\w+ )?(?:best|better|most reliably)"
        r" (?:checked|verified|found|obtained|confirmed|sourced|looked up|answered|discussed"
        r"|addressed|handled|directed|raised|taken up|put)",
        rf"{ME} (?:would |do |strongly )?(?:recommend|suggest|advise|encourage)\w* (?:\w+ )?"
        r"(?:checking|consulting|reviewing|looking|referring|visiting|that you|you|the|its"
        r"|reading|going)",
        r"(?:please|kindly|try) (?:\w+ )?(?:check|consult|refer|see|visit|look|review|search)",
        r"(?:look|search) (?:for|under|in)\b",
        r"(?:head|go|navigate) (?:over )?to\b",
        r"(?:you|one) (?:\w+ )?(?:can|could|may|might|should|will) (?:get|pull up|download|access"
        r"|read)\b",
        r"(?:[\w'&.-]+ ){0,8}(?:is|are) where (?:you|one|investors)"
        r" (?:would|can|could|will|should) (?:\w+ ){0,2}?(?:find|see|look|check)",
        rf"{NP}(?:would|will|should|may|might) have (?:it|this|that|the (?:\w+ )?(?:figure|number"
        r"|data|answer|details|information|value))\b",
        rf"{NP}(?:usually|typically|normally|generally) (?:publish|post|report|disclose|list"
        r"|include|show)",
        rf"{NP}(?:(?:would|will|should|can|could) be|(?:is|are) (?:usually|typically|normally"
        r"|generally|often)) (?:\w+ )?(?:reported|listed|shown|found|disclosed|presented"
        r"|included|located|available|published) (?:in|on|under|within|at|via)"
        r" (?:the|its|their|a|an)\b",
        rf"{NP}(?:website|site|page|report|filing|10-k|10-q|release|database|terminal"
        r"|provider|edgar)s? (?:\w+ ){0,3}(?:publishes|posts|lists|has|carries|provides|shows"
        r"|contains|reports|includes|will have|should have) (?:it|this|that|these|those|the"
        r" (?:\w+ )?(?:figure|number|data|details|information|breakdown|answer|table))\b",
        r"(?:which|this|that|it|there|those|these|they) (?:is|are) (?:where|(?:the|a good|the right"
        r"|the best|good) (?:\w+ )?(?:places?|sources?)) (?:to|you|one) (?:\w+ )?(?:look|check|find"
        r"|go|see|confirm|verify)",
        rf"{ME} (?:would|will) (?:look|check|start) (?:at|in|with)"
        rf" (?:the|its|their|a|an|[\w&.-]+'s) (?:[\w'&-]+ ){{0,5}}?{DOC}\b",
        r"(?:[\w$%&'./-]+ ){0,10}?(?:is|are|gets?|get) (?:\w+ )?(?:disclosed|reported|public"
        r"|available|listed"
        r"|published|announced|posted|shown|presented|found|covered|documented|detailed)"
        rf" (?:\w+ )?(?:in|on|via|through|at|under) (?:[\w'&-]+ ){{0,5}}?{DOC}\b",
        rf"(?:the|its|their|a|an|each|[\w&.-]+'s) (?:[\w'&-]+ ){{0,5}}?{DOC} (?:\w+ ){{0,4}}?"
        r"(?:names?|lists?|shows?|discloses?|reports?|gives?|has|have"
        r"|contains?|includes?|will (?:settle|answer|show|give)|would (?:settle|answer|show|give)"
        r"|answers?|settles?) (?:it|this|that|them|the (?:\w+ )?(?:firm|name|answer|figure|number"
        r"|details?|information|data))\b",
        r"(?:\w+ ){0,8}?(?:the|a|your) (?:go-to|best|primary|authoritative|definitive|right"
        r"|appropriate|correct|proper|relevant"
        r"|official) (?:\w+ )?(?:source|resource|place|reference)\b",
        rf"(?:that|this|it|the \w+) (?:would|will|should) be (?:on|in) the (?:[\w'&-]+ ){{0,4}}?"
        rf"{DOC}\b",
        rf"{NP}(?:is|are|would be|will be) (?:your|the) (?:best|safest|most reliable|surest"
        r"|quickest) (?:bet|option|source|place|route)\b",
        r"(?:your|the|a) (?:best|safest|most reliable|surest|quickest) (?:bet|option|source|course"
        r"|place|route)\b",
        rf"{NP}(?:10-k|10-q|filing|annual report|report|statements?|release|website|page|edgar)"
        r"\b[^.;]{0,40}\b(?:has|have|contains?|includes?|lists?|shows?|provides?|reports?|gives?)"
        r" (?:both |all |the |these |those |this |that |each )?(?:\w+ )?(?:numbers?|figures?|data"
        r"|information|details?|amounts?|answer|values?)\b",
        r"(?:(?:it is|it would be|it may be) )?(?:best|advisable|better|worth|recommended|wise"
        r"|safest) (?:is )?(?:to )?(?:\w+ )?(?:check|consult|refer|look|review|verify|visit|confirm"
        r"|contact|ask|reach out)",
        rf"(?:{ME} (?:would |will |can |could )?)?(?:refer|direct|point|send|redirect) you"
        r" (?:to|toward)",
        r"(?:{ME} )?(?:would |do |strongly )?(?:recommend|suggest|advise)\w* (?:checking|consulting"
        r"|reviewing|looking|referring|visiting|contacting|reaching|asking|pulling|searching)",
        r"(?:you|one|investors) (?:\w+ )?(?:would|should|can|could|may|might|will|need to)?"
        r" ?(?:want to |need to |wish to |have to )?(?:reach out|contact|ask|call|email|write to"
        r"|get in touch|talk to|speak (?:to|with)|inquire|enquire)\b",
        r"(?:\w+ ){0,4}(?:something|one|a question|a detail|a point|a matter) (?:\w+ )?to"
        r" (?:confirm|check|verify|ask|raise|look up|take up|clarify) (?:with|in|on|via|against)",
        rf"{NP}(?:would|will|should|can|could|may|might) (?:be|appear|show up) (?:\w+ )?"
        r"(?:in|on|within|under) (?:the|its|their|a|an) (?:[\w'&-]+ ){0,4}?(?:10-k|10-q|filings?"
        r"|reports?|statements?|proxy|notes?|website|release|disclosures?|edgar|schedule)\b",
        r"(?:[\w'&-]+ ){0,6}?(?:10-k|10-q|filing|report|statements?|statement of [\w ]{3,30}"
        r"|proxy|note|website|release|edgar|schedule|database|site|page|terminal)"
        r" (?:would|will|should) (?:show|list|disclose|report|give|have|contain|include|tell"
        r"|confirm|name|identify|state|mention|carry|answer|settle|cover|address)\b",
        r"(?:check|consult|refer to|look at|review|see|visit) (?:the|its|their|a|an|your)"
        r" (?:\w+ ){0,4}(?:10-k|10-q|filing|annual report|website|investor|sec|edgar"
        r"|financial statements|terminal|provider|database|source)",
        rf"{NP}(?:can|could|may|should|would|will) be (?:\w+ )?(?:found|obtained|located"
        r"|retrieved|verified|looked up|checked|sourced|confirmed) (?:in|on|at|from|via|through"
        r"|by)\b",
        r"(?:for|to get) (?:the )?(?:exact|precise|accurate|up-to-date|latest|current|most"
        r" recent|official|reliable|specific|actual) (?:\w+ )?(?:figure|number|data|value"
        r"|information|answer|amount|details?)",
    ),
)

ASKS_INPUT = CueClass(
    "asks-input",
    "Asks the user for the data it needs ('if you share the balance sheet I'll compute "
    "it') instead of answering.",
    (
        r"if you (?:\w+ )?(?:can |could |would |are able to |were to )?(?:share|provide|give"
        r"|send|upload|paste|attach|supply|include|point me|let me know|tell me)",
        r"(?:please|kindly) (?:\w+ )?(?:share|provide|give|send|upload|paste|attach|supply"
        r"|include|specify|clarify|let me know|tell me)",
        r"(?:[\w'-]+ ){0,4}?(?:could|can|would) you (?:please )?(?:\w+ ){0,3}?(?:share|provide|give"
        r"|send|upload|paste"
        r"|attach|supply|include|specify|clarify|confirm|let me know|tell me|point me)",
        r"(?:once|when|should) you (?:\w+ )?(?:share|provide|give|send|upload|paste|attach"
        r"|supply|have)",
        rf"{ME} (?:would|will|\w+ would) (?:need|require) (?:you to|your|the user to)",
        r"(?:send|share|provide|give|paste|tell|show) me\b",
        r"(?:share|send|provide|paste|upload|attach|forward|supply) (?:me |us |over )?(?:the|a|an"
        r"|your|its|their|those|these|that|this|more|any)\b",
        r"let me know\b",
        rf"{ME} (?:need|require) (?:the|a|an|its|their|both|more|additional|further|to see"
        r"|access|your)\b",
        r"(?:send|share|provide|paste|upload|pass) (?:over|along|across)\b",
        r"what (?:[\w'-]+ ){0,4}do you have\b",
        r"do you have (?:the|a|an|its|their|access|any|those|these)\b",
        r"feel free to (?:\w+ )?(?:share|send|provide|paste|upload|attach)",
        r"can i (?:get|have|see)\b",
        r"if you (?:\w+ )?(?:have|know|can find|can get|could find|could get|happen to have)\b",
        r"(?:which|what) (?:[\w']+ ){0,3}(?:do|would|should) you (?:want|like|prefer)",
        r"(?:provide|share|send|give|paste|upload|supply|attach) (?:[\w&'/-]+ ){0,6}?(?:and|so"
        r"|then) (?:i|we) (?:will|can|could|would)",
        rf"(?:{ME} (?:would|will|am|are|can|could) (?:be )?)?(?:happy|glad|able|ready|pleased)"
        r" to [^.;]{0,80}?\b(?:if|once|when|as soon as) (?:you|(?:i|we) (?:have|get|see|receive"
        r"|am given|are given))\b",
    ),
)

ADVICE_REFUSAL = CueClass(
    "advice-refusal",
    "Declines on policy: no investment advice, no recommendation to buy or sell.",
    (
        rf"{ME} (?:do not|cannot|will not|never) (?:give|provide|offer|make|share) (?:\w+ )?"
        r"(?:guidance|advice|recommendations?)\b",
        rf"{ME} (?:am going to|will|would|must|need to|have to|prefer to|want to) (?:stay out of"
        r"|steer clear of|avoid|refrain from)\b[^.;]{0,80}\b(?:advice|recommendations?|investment"
        r"|buy|sell)",
        rf"{NP}(?:advisor|adviser|professional|planner|broker)s? (?:would|will|can|could|may"
        r"|might) (?:be (?:a |the )?(?:better|more appropriate|right|best)|help|walk|advise"
        r"|guide|talk)\b",
        rf"{ME} (?:do not|never|will not|would not) (?:weigh in|comment|opine"
        r"|give (?:an )?opinions?) (?:on|about) whether\b",
        rf"{NP}(?:is|are) (?:an? |your )?(?:investment|personal|financial|portfolio) (?:call"
        r"|decision|judgm?ent|question|choice)\b",
        rf"{ME} (?:\w+ )?{MODEL_CANNOT} (?:\w+ )?(?:give|provide|offer|make|tell you whether"
        r"|tell you if|recommend|advise|say whether)(?: you)? (?:\w+ )?(?:personal|personali[sz]ed"
        r"|individual|financial|investment|legal|tax|buy|sell|whether|if|a recommendation"
        r"|recommendations|advice|guidance|opinions?|views?|suitab\w+)",
        rf"{ME} (?:am|are) not (?:a |your |an |able to act as )?(?:\w+ )?(?:financial|investment"
        r"|licensed|registered|certified|legal|tax) (?:advisor|adviser|professional|planner"
        r"|lawyer|counsel)",
        r"(?:this|that|it|the following|nothing here) (?:is|should|does|constitutes) not"
        r" (?:\w+ ){0,2}(?:financial|investment|legal|tax) advice",
        r"(?:consult|speak with|speak to|talk to|talk with|seek|contact|work with|ask)"
        r" (?:with )?(?:a|an|your) (?:qualified |licensed |registered |certified |professional"
        r" |independent |trusted )?(?:financial|investment|tax|legal|fiduciary)",
        rf"{ME} (?:\w+ )?(?:should not|cannot|could not|will not|would not|do not|am not able to"
        r"|am unable to|would rather not|must not)\b[^.;]{0,40}\b(?:whether|if) (?:\w+ ){0,3}"
        r"(?:buy|sell|invest|hold|purchase)",
        r"no (?:[\w/-]+ ){0,3}(?:recommendations?|advice|stock picks?|tips)\b",
        r"whether\b[^.;]{0,100}\bdepends? (?:\w+ )?on\b",
        r"(?:\w+ ){0,6}depends? (?:\w+ )?on (?:your|one's|the investor's|an investor's|each"
        r" investor's) (?:own )?(?:\w+ ){0,2}(?:goals|risk|situation|circumstances|objectives"
        r"|horizon|tolerance|needs|portfolio|strategy)",
        r"(?:seek|get|obtain) (?:\w+ )?(?:professional|independent|qualified|expert|personal"
        r"|personali[sz]ed) (?:\w+ )?(?:advice|guidance|help)",
        r"(?:it is|it would be) (?:not |in)appropriate for me to",
        rf"{NP}(?:is|are) (?:ultimately |really )?(?:a |your )?(?:personal|individual|your own)"
        r" (?:decision|choice|call)",
        r"(?:that|this|it) is (?:a |really a )?(?:question|decision|call|matter)"
        r" (?:for|best left to"
        r"|better suited for|better suited to) (?:a|an|your)",
        rf"{ME} (?:do not|cannot|will not|never|do not ever) (?:give|provide|offer|make|share)"
        r" (?:\w+ )?(?:stock picks?|recommendations?|advice|investment|buy|sell|tips|opinions?"
        r"|views?|judgm?ents?|ratings?|endorsements?|verdicts?)",
        r"(?:investment|financial|that|the|this|such|buying|trading) (?:\w+ )?decisions? (?:is|are)"
        r" (?:yours|your own|up to you|personal|a personal)",
        r"(?:this|that|it) (?:\w+ ){0,3}(?:request|question|ask) for (?:\w+ )?(?:investment"
        r"|financial|personal|tax|legal) (?:advice|guidance|recommendations?|opinions?)",
        r"(?:whether|deciding whether) (?:to|you should) (?:buy|sell|invest|hold)\b[^.]{0,60}"
        r"(?:depends|is a (?:personal|decision)|is up to)",
    ),
)

GENERIC_SUBSTITUTE = CueClass(
    "generic-substitute",
    "Explains how the metric is computed (the formula, the line items) and stops without "
    "a value. Counted only when the answer states no figure at all.",
    (
        r"(?:first |simply |just )?(?:divide|subtract|multiply|add up) (?:[\w&'-]+ ){1,6}?(?:by"
        r"|from|over|and)\b",
        r"(?:[\w$%&'./()-]+ ){0,8}?(?:is|are|can be|would be|could be|should be) (?:\w+ )?"
        r"(?:calculated|computed|derived|determined|defined|measured|found|obtained|estimated)"
        r" (?:as|by|using|from|with|through)\b",
        r"(?:the )?(?:formula|calculation|equation|method|way|approach|definition|computation)"
        r" (?:for|to|of|is)\b",
        r"to (?:calculate|compute|determine|derive|find|get|work out|estimate) (?:the |this"
        r" |a |an |its )?(?:\w+ ){0,6}?(?:you|one|we|the analyst|an analyst|investors)"
        r" (?:\w+ )?(?:would|should|can|could|must|need|divide|subtract|take|add)",
        r"(?:[\w$%&'./-]+ ){1,6}=(?:\s*$|\s*\(?[a-z])",
        r"(?:you|one) (?:would |should |can |could |must |need to )?(?:first |then |simply )?"
        r"(?:divide|subtract|take|add|multiply|sum|average|compare)",
        rf"{NP}(?:(?:is|are|would|will|should|can|could|may)(?: \w+)? be|is|are|equals|measures"
        r"|means|refers to|reflects)\b"
        r"[^.;]{0,120}\b(?:divided by|over|minus|less|plus|(?:the )?(?:sum|total|difference"
        r"|product) (?:of|between)|as a (?:share|percentage|proportion"
        r"|fraction) of|ratio of|times|multiplied by|subtracting|dividing|relative to)\b",
        r"(?:generally|typically|usually|in general|broadly)\b",
    ),
    strength=0.9,
)

# a kind of thing named instead of the thing: "probably a large national firm", "one of
# the Big Four", "most companies use ..."; the hedge of a text answer
GENERIC_REFERENCE = (
    r"(?:[\w'-]+ ){0,4}?(?:probably|likely|possibly|perhaps|maybe|presumably|typically|usually"
    r"|generally|normally|often|most likely|almost certainly) (?:be |is |are |was |were )?"
    r"(?:\w+ )?(?:a|an|one of|some|among|any|either)\b"
    r"|(?:it |that |this )?(?:could|might|may) be (?:any|one) of\b"
    r"|(?:the )?(?:usual|typical|standard|generic|common) (?:[\w-]+ ){0,3}?(?:stuff|things|risks"
    r"|inputs|items|factors|suspects|fare)\b"
    r"|(?:[\w'-]+ ){0,4}?(?:probably|likely|possibly|perhaps|maybe) (?:sometime|some time"
    r"|somewhere|around|about)\b"
    r"|most (?:[\w'-]+ ){0,3}?(?:companies|firms|issuers|businesses|banks|retailers|peers"
    r"|manufacturers|of them)\b"
    r"|(?:which|what|how|whether)\b[^.;]{0,80}\bdepends? (?:\w+ )?on (?:each|every|the individual"
    r"|individual|the specific|specific|the particular)\b"
    rf"|(?:[\w'-]+ )?{KINDS} (?:that|which|who|like|such as|in)\b[^.;]{{0,80}}?"
    r"\b(?:usually|typically|generally|often|commonly|frequently|normally|tend to|tends to)\b"
    r"|(?:[\w'-]+ ){0,4}?(?:typically|usually|generally|often|frequently|commonly|normally"
    r"|tend to|tends to)\b"
)

VAGUE_ESTIMATE = CueClass(
    "vague-estimate",
    "A hedge in place of a figure: 'probably a few billion', 'somewhere in the mid "
    "range'. No committed number, so it is not an attempt.",
    (
        r"(?:probably|likely|possibly|perhaps|maybe|presumably|roughly|somewhere|around"
        r"|approximately|about|on the order of)\b[^.;]{0,40}\b(?:a few|several|some|many"
        r"|tens of|hundreds of|thousands of|millions|billions|single digits?|double digits?"
        r"|low|mid|high|modest|small|large|significant|substantial|meaningful|in the range)\b",
        r"(?:a few|several|some|many|tens of|hundreds of|multiple) (?:hundred |thousand )?"
        r"(?:million|billion|percent|percentage points|dollars)\b",
        r"(?:in the|somewhere in the|within the) (?:low|mid|high|upper|lower)?[\s-]*"
        r"(?:single|double|teens|twenties|millions|billions|hundreds|range)",
        r"(?:hard|difficult|impossible|tough) to (?:say|pin down|tell|know) (?:exactly|precisely"
        r"|for sure|with certainty)?",
        r"(?:my|a|an|the) (?:best |rough |educated )?(?:guess|ballpark|estimate) (?:would be"
        r"|is) (?:that |somewhere |around |roughly |in )?(?!\$?\d)",
        r"[^.;]{0,120}\b(?:probably|likely|plausibly|possibly|perhaps|maybe|presumably"
        r"|i would expect|i would guess|i guess|i suspect|i would imagine|roughly|somewhere"
        r"|on the order of|order of magnitude|ballpark|or so)\b",
        GENERIC_REFERENCE,
        r"(?:\w+ ){0,3}?(?:a |an )?toss-?up\b|(?:there is |there are )?(?:a|some) (?:decent|good"
        r"|fair|reasonable|strong|high|real) (?:chance|probability|likelihood)\b",
        r"(?:it|this|that|the \w+) (?:could|might|may|can) (?:have )?(?:gone|go|cut|swung|swing"
        r"|be|been) (?:either|both) ways?\b",
    ),
    strength=0.8,
)

PARTIAL_WORK = CueClass(
    "partial-work",
    "Computes part of the answer and stops: 'average PP&E is $267.5M; without revenue I "
    "can't finish'. The figures are steps, not the result, so it is not an attempt.",
    (
        rf"{NP}(?:would |will )?(?:forms?|makes? up|provides?|serves? as) the (?:numerator"
        r"|denominator)\b",
        rf"{NP}(?:is|are) the (?:\w+ )?(?:piece|part|bit|number|figure|input|step|item) (?:that )?"
        rf"{ME} (?:cannot|could not|can not|do not have|am missing|lack|am unable to)\b",
        r"(?:so )?no (?:[\w&'-]+ ){0,3}?(?:ratio|figure|number|answer|estimate|value|margin"
        r"|percentage) from (?:me|us)\b",
        rf"{ME} (?:can|could) only (?:read|process|access|use|see|parse|handle)\b",
        r"(?:without|lacking|absent|missing|in the absence of) [^.;,]{1,60}?\b(?:cannot|could not"
        r"|unable|not possible|impossible|no way|not able)",
        r"(?:the|this) (?:final |last |remaining |second |next )?(?:step|ratio|calculation"
        r"|result|figure|answer|computation|margin|percentage|value) (?:\w+ )?(?:cannot|can not"
        r"|could not) be (?:completed|finished|computed|calculated|done|determined|derived)",
        rf"{ME} (?:cannot|could not|am unable to|was unable to) (?:\w+ )?(?:finish|complete"
        r"|carry out|take|do|perform|go further|proceed|compute the (?:final|rest|ratio))",
        r"(?:to (?:finish|complete|get the (?:final|ratio|result|answer))) (?:\w+ )?(?:i|we|one"
        r"|you) (?:would )?(?:need|require)",
        rf"to (?:\w+ ){{0,8}}?{ME} (?:would|will){STILL} (?:need|require)",
        r"(?:cannot|could not|unable to|not able to) (?:\w+ )?(?:finish|complete|proceed"
        r"|go further|go on|continue)\b",
        r"(?:\w+ ){0,6}(?:i|we) (?:will |would |must |have to |need to )?(?:stop|halt|leave it)\b",
        r"[^.;]{0,100}?\bleave (?:\w+ ){0,3}?(?:open|undecided|unanswered|unresolved|there"
        r"|uncomputed|uncalculated|blank|undetermined|unfinished|incomplete|as is|at that)\b",
        r"[^.;]{0,80}?\b(?:once|until|when|after) (?:\w+ ){1,4}?(?:is|are|becomes?|gets?)"
        r" (?:known|available|provided|given|disclosed|shared|supplied)\b",
        rf"{NP}(?:would|will|is|are) (?:still |also |first )?(?:be )?(?:needed|required"
        r"|necessary)\b",
        r"(?:there is|there can be|so there is|i have|we have) no (?:final|complete|resulting"
        r"|definitive|overall|end) (?:number|figure|answer|result|value|ratio|percentage)",
        rf"{NP}(?:needs|requires|would need|would require|depends on|hinges on)\b",
        r"(?:the )?(?:rest|remainder|remaining (?:\w+ )?(?:part|step|calculation)|final step"
        r"|second part|other half) (?:\w+ )?(?:is|are|remains?|cannot|can not|could not)",
        r"(?:which|that|this) (?:is|would be) (?:needed|required|necessary) (?:to|for)"
        r" (?:\w+ )?(?:finish|complete|compute|calculate|the (?:ratio|final|result))",
        # the step named and left: "netting cash is the remaining step", "X goes in the
        # numerator", "would have to be compared", "I can only give you the revenue side"
        rf"{NP}(?:is|are) the (?:remaining|last|final|next|missing|outstanding) (?:\w+ )?(?:step"
        r"|piece|part|input|item|calculation)s?\b",
        rf"{NP}(?:goes|go|belongs?|would go|sits?|needs to go) (?:in|into|on|at) (?:the )?"
        r"(?:numerator|denominator|top|bottom)\b",
        rf"{NP}(?:would|will|still) (?:have|need) to be (?:compared|added|subtracted|netted"
        r"|divided|computed|calculated|deducted|combined|found|obtained)\b",
        rf"{ME} (?:can|could) only (?:\w+ )?(?:give|provide|offer|share|report|get|do|compute"
        r"|calculate|take|go)\b",
    ),
    stops_work=True,
)

REJECTS_PREMISE = CueClass(
    "rejects-premise",
    "Says the question does not apply ('gross margin isn't meaningful for a bank'). An "
    "answer when the gold answer says the same; a refusal otherwise.",
    (
        r"there (?:is|are|was|were) no (?:[\w&'-]+ ){0,4}?(?:ranking|comparison|ratio|metric"
        r"|measure)\b",
        r"there (?:(?:is|are|was|were) (?:no|not (?:really )?(?:a|an|any))|(?:would|will) (?:not"
        r"|never) be (?:a|an|any)|(?:would|will) be no) (?:[\w&'-]+ ){0,6}?to (?:rank|compare"
        r"|attribute|explain|report|compute|calculate|split|allocate|measure|give|provide|list"
        r"|name|identify|show|break out)\b",
        r"(?:not applicable|inapplicable)\s*[.!:]?$",
        r"(?:[\w$%&'./()-]+ ){0,8}?(?:is|are|was|were|may|might|would) (?:not|hardly)(?: be)?"
        r" (?:really )?(?:a |an )?(?:\w+ )?"
        r"(?:meaningful|applicable|relevant|appropriate|a relevant|a meaningful|an applicable"
        r"|a useful|useful|standard|used|reported for|calculated for|a metric|a concept)\b",
        r"(?:[\w$%&'./()-]+ ){0,8}?(?:does|do) not (?:\w+ )?(?:apply|make sense|exist|fit|suit"
        r"|translate|carry over)\b",
        r"(?:the )?(?:question|premise|query) (?:\w+ )?(?:(?:may|might|could|seems to|appears to)"
        r" (?:be based|rest) on|assumes|presumes|presupposes|implies"
        r"|takes for granted|is based on|rests on"
        r"|is flawed|is mistaken|is incorrect|does not apply|contains a)",
        r"(?:this|that|the) (?:question|premise) (?:is|seems) (?:not|mis|in)",
        r"(?:there is|there are|there was) no such (?:thing|metric|figure|line item|segment"
        r"|measure)",
        r"(?:[\w$%&'./()-]+ ){0,8}?(?:is|are|was|were) not (?:really |quite )?(?:the right|a good"
        r"|an appropriate|a fitting|a sensible|the proper|a reliable|a valid|a fair|a useful"
        r"|a helpful|a meaningful) (?:\w+ )?(?:lens|measure|metric|way|yardstick|gauge|tool"
        r"|question|indicator|guide|benchmark|signal)\b",
        r"(?:[\w$%&'./()-]+ ){0,8}?(?:makes?|made) (?:little|no) sense\b|(?:[\w$%&'./()-]+ ){0,8}?"
        r"(?:has|have) no (?:real )?meaning\b",
        r"(?:the |that |this |your )?(?:premise|question|assumption) (?:\w+ )?(?:is|seems|looks)"
        r" (?:off|wrong|flawed|mistaken|misplaced|misguided|invalid)\b",
        r"[^.;]{0,100}?\bthe question (?:of|about|whether) [^.;]{0,60}?(?:does not|do not|is not)"
        r" (?:\w+ )?(?:apply|arise|relevant|meaningful)\b",
        r"there (?:is|are|was|were) no (?:[\w&'-]+ ){0,4}?to (?:rank|compare|attribute|explain"
        r"|report|compute|calculate|split|allocate|measure)\b",
        r"(?:[\w$%&'./()-]+ ){0,8}?(?:does|do) not (?:really |actually |typically |usually )?"
        r"(?:use|report|have|track|compute|publish) (?:a|an|such a|such|that|this|any such)"
        r" (?:\w+ )?(?:metric|measure|ratio|line|concept|line item|kpi|margin)\b",
    ),
)

EMPTY_STRUCTURAL = CueClass(
    "empty-structural",
    "No text to read: empty, `{}`, a bare placeholder, a provider's refusal flag or a "
    "content-filter stop. Decided before any cue is read.",
    (),
)

CLASSES: tuple[CueClass, ...] = (
    EMPTY_STRUCTURAL,
    CUTOFF,
    CAPABILITY,
    ADVICE_REFUSAL,
    ASKS_INPUT,
    PARTIAL_WORK,
    REJECTS_PREMISE,
    SOURCE_ABSENCE,
    INSUFFICIENT_INFO,
    INABILITY,
    PASSIVE_UNAVAILABILITY,
    REDIRECT,
    VAGUE_ESTIMATE,
    GENERIC_SUBSTITUTE,
)
SLUGS: tuple[str, ...] = tuple(sorted(c.slug for c in CLASSES))

# Texts that are no answer at all, after normalisation and edge punctuation
PLACEHOLDERS = frozenset(
    {"", "{}", "[]", "null", "none", "nil", "n/a", "na", "-", "--", "?", "...", "tbd"}
)
# provider stop reasons that mean the text was withheld
FILTERED_STOPS = frozenset({"content_filter", "content-filter", "safety", "refusal"})

# the one hedge that also makes a text answer a non-answer
GENERIC_REFERENCE_CLAUSE = re.compile(rf"^{LEAD_IN}(?:{GENERIC_REFERENCE})")

# --- exclusions ------------------------------------------------------------------------

# Spans taken out before cues are read: quoted speech of others
QUOTED = re.compile(r"\"[^\"]{3,}\"|(?<![\w])'[^']{3,}[.,!?]'(?!\w)")
# Sentences that read like cues but are about the world, not the answer
EXCLUSIONS: dict[str, re.Pattern[str]] = {
    name: re.compile(pattern)
    for name, pattern in {
        # "I'm sorry to hear that", "sorry for the delay": an apology with nothing after
        "bare-apology": r"^(?:i am |we are |so |very |my )*(?:sorry|apologies)\b"
        r"(?![\s,.!:;-]*(?:but|that i|that we|i|we|unfortunately|however)\b)",
        # "As an equity analyst would, ...": a role opener of a person
        "role-opener": r"^as (?:an?|the|your) (?!ai\b|language|large|llm|text|virtual|chatbot"
        r"|machine|artificial)[\w -]{0,40}?(?:would|might|does|,)",
        # a hedge on a figure just given ("..., though I'm not fully sure of that"): the
        # figure stands, the work did not stop
        "hedge": r"\b(?:not|less than) (?:\w+ )?(?:sure|certain|confident|positive)\b"
        r"(?! (?:which|what|who|whether|how|where|when)\b)"
        r"|\b(?:uncertain|unsure)\b|\bif (?:i|we) (?:recall|remember)\b|\bdouble-check",
        # the company's own words reported: "Redfield says a loss is possible, but the
        # amount cannot be estimated" (the clauses after it are the company's)
        "reported-speech": r"^(?!(?:the |this |that |its )?(?:excerpt|context|document|text"
        r"|passage|filing|report|10-k|source|page)s?\b)(?:[\w&.'-]+ ){1,4}(?:says|said|states"
        r"|stated|notes|noted|reports|reported|discloses|disclosed|explains|explained|believes"
        r"|concluded|concludes|indicates|indicated|acknowledges|acknowledged|warns|warned"
        r"|expects|estimates|maintains|asserts)\b",
        # a limitation about detail beside a given figure: "the segment split isn't given"
        "detail-only": r"\b(?:breakdown|split|segment|segments|by region|by geography"
        r"|quarterly|further detail|additional detail|more detail|granular|components?"
        r"|allocation|mix"
        r"|drivers?|reasons?|explanation|commentary|individual|per-segment|sub-?total)\b",
    }.items()
}
# detail words a why-question asks about: not details beside its answer there
WHY_DETAIL = re.compile(r"drivers?|reasons?|explanation|commentary")
# an absence of the asked thing, not of information about it: "does not mention any
# acquisitions" answers "there were none"; "is silent on acquisitions" does not
ABSENT_THING = re.compile(
    rf"(?<!\byes or )\b(?:any|no|none|nor)\b(?! (?:[\w-]+ ){{0,3}}?(?:{INFO}|sources?|documents?"
    r"|filings?|excerpts?|texts?|context|passages?|pages?)\b)"
    r"(?! (?:of )?(?:the|these|those|it|them)\b)"
)
# a negative gold answer: absence is the answer ("there were none", "no, it did not")
NEGATIVE_GOLD = re.compile(
    r"^(?:no\b|none\b|nil\b|zero\b|0(?![.,\d])|there (?:were|was|are|is) no|not |did not|does not"
    r"|has not|had no|have no|it did not|the company (?:did|does|has) not|no such)"
    r"|\b(?:not (?:disclosed|reported|applicable|meaningful|relevant|provided|available"
    r"|given|mentioned)|n/a|none)\b"
)
# a gold answer that itself says the question does not apply: a premise rejection
# agrees with it, a plain "No; it made a loss" does not
PREMISE_GOLD = re.compile(
    r"\bpremise\b|\bnot (?:applicable|meaningful|relevant|a meaningful|an applicable)\b"
    r"|\bn/a\b|\bdoes not apply\b"
)

# --- chat and safety refusals ----------------------------------------------------------
# Read by `scoring/nonanswer_model.py` on an answer's normalised opening (first 400
# characters). Grammatical families again: the model declining a request (any verb of
# producing or helping), declining on policy or ethics with no first person, a
# disclaimer of being an AI, and the pivot back to helping that makes the disclaimer a
# preface. They are matched with the `regex` module under a timeout.

# verbs of doing what was asked
_PRODUCE = (
    r"(?:fulfil+|generate|write|create|compose|produce|comply|engage|support|discuss|provide"
    r"|help|assist|answer|give|offer|share|promote|condone|encourage|endorse|facilitate"
    r"|participate|make|tell|recommend|suggest|continue|complete|accommodate|respond|draft"
    r"|express|take|agree|satisfy|do (?:that|this|so)|speculate|entertain|pretend|role-?play"
    r"|describe|explain|list|teach|show)"
)
SAFETY_REFUSAL = _regex.compile(
    r"(?:^|[.!?,;:]\s*|\b(?:but|so|and|however|sorry|apologi[sz]e)\s+)"
    r"(?:i|we)(?: (?:really|simply|just|truly|unfortunately|respectfully|afraid i))?"
    r" (?:cannot|can not|will not|would not|must (?:respectfully )?decline to|must not"
    r"|am (?:not )?(?:able|unable|allowed|permitted|programmed|going|designed|willing|comfortable)"
    r" to|am not (?:able|allowed|permitted|programmed|going|designed|willing|comfortable) to"
    r"|refuse to|do not (?:feel comfortable|think it is appropriate|condone|support|endorse"
    r"|promote|encourage)|should not|have to decline|need to decline|decline to)"
    rf"(?: (?:\w+ ){{0,2}}?{_PRODUCE}\b|\s*[.!]|$)"
    r"|(?:i|we) (?:must|have to|will have to|need to) (?:respectfully )?(?:decline|refuse|pass)\b"
    r"|(?:this|that|your|such a) (?:request|question|prompt|topic|content|task)"
    r" (?:\w+ )?(?:goes against|violates|is (?:not appropriate|inappropriate|harmful|offensive"
    r"|unethical|against))"
)
# the object of a refusal that only disclaims: "I cannot give a personal opinion"
DECLINED_OPINION = _regex.compile(
    r"^(?:\w+ ){0,4}?(?:(?:a|an|any|my|personal|subjective|definitive|direct|moral|medical"
    r"|legal|financial|professional) )*(?:opinions?|beliefs?|views?|feelings?|preferences?"
    r"|judgm?ents?|advice|stance|emotions?|experiences?|diagnos[ie]s)\b"
)
AI_DISCLAIMER = _regex.compile(
    r"\b(?:as|being) (?:an? |just an? )?(?:ai|artificial intelligence|(?:large )?language"
    r" model|llm|chatbot|virtual assistant|ai assistant|machine)\b"
    r"|\b(?:i|we) (?:am|are) (?:just |only |merely )?an? (?:ai|language model|chatbot"
    r"|artificial intelligence|machine)\b"
)
NO_PERSONAL = _regex.compile(
    r"\b(?:i|we) (?:do not|cannot|am not able to|can not) (?:have|hold|possess|form|express"
    r"|provide|give|share) (?:any |my )?(?:own )?(?:personal |subjective )?(?:opinions?"
    r"|beliefs?|views?|feelings?|emotions?|experiences?|preferences?|biases?|agenda|stance"
    r"|the ability to (?:feel|form|have|experience))\b"
)
# the disclaimer turned into help: "..., but I can tell you", "However, here are"
HELP_PIVOT = _regex.compile(
    r"\b(?:but|however|that said|nevertheless|instead)\W+(?:\w+ ){0,6}?(?:(?:i|we) (?:can|could"
    r"|will|would be happy to|am happy to) (?:\w+ )?(?:provide|offer|tell|give|share|suggest"
    r"|explain|help|try|list|describe|outline|say|point|answer)|here (?:are|is)"
    r"|(?:some|several|a few|many|there are)\b|to answer your question"
    r"|(?:in general|generally|typically|research|studies|according to|based on))"
    r"|^(?:sure|certainly|of course|absolutely|yes|great question|here (?:are|is))\b"
)
# no first person: "It is not ethical or safe to ...", "It would be inappropriate to ..."
DEFLECTION = _regex.compile(
    r"\bit (?:is|would be|is never|would never be) (?:not |never |highly |extremely |very )?"
    r"(?:(?:appropriate|ethical|okay|ok|acceptable|safe|advisable|responsible|respectful"
    r"|legal|right|wise|a good idea|productive|fair|accurate|morally|inappropriate|unethical"
    r"|irresponsible|illegal|harmful|wrong|dangerous)(?: (?:or|and|nor) | |, )?){1,4}"
    r"(?:for (?:me|us|anyone|you) )?(?:to|for)\b"
    r"|\b(?:i|we) must (?:clarify|point out|emphasi[sz]e|stress|inform you|remind you|note)\b"
    r"|^(?:first\W+)?it is (?:important|crucial|essential) to (?:note|remember|understand"
    r"|recogni[sz]e) that\b"
)
POLICY = _regex.compile(
    r"\b(?:goes? against|violates?|against) (?:my|our|the|openai's|its|ethical|moral|content"
    r"|community|usage|\w+'s)\b[^.]{0,40}?\b(?:polic(?:y|ies)|guidelines?|principles?"
    r"|programming|values?|standards?|codes?|rules?|terms|ethics?)\b"
    r"|\bnot within my (?:programming|guidelines|capabilities|ethical)\b"
)
# words of a lecture instead of an answer
MORALISING = _regex.compile(
    r"\b(?:important to|respect\w*|appropriate|inappropriate|ethic\w*|unethical|harm\w*"
    r"|illegal|offensive|stereotyp\w*|generali[sz]\w*|dignity|unfair|discriminat\w*|hate"
    r"|hateful|violen\w*|immoral|moral\w*|condone|promote|kindness|sensitiv\w*|never"
    r"|acceptable|unacceptable|instead|professional help|seek help|reprehensible|rights"
    r"|derogatory|divisive|inclusiv\w*|empathy|tolerance|equality)\b"
)
