"""Grading one answer against a QA row's gold answer: `exact`, `contains`, `numeric`.

- `exact`: equal after normalisation (NFKC, case-folded, whitespace collapsed,
  surrounding punctuation and quotes dropped: `"Yes."` equals `yes`).
- `contains`: the normalised gold appears in the normalised answer as whole words
  (`"no"` is not found in `"not"`).
- `numeric`: the gold's numbers must be stated by the answer. The rules:
  * Every number in the answer is a candidate; the answer is right when every
    number of the gold (its *targets*) is matched by some candidate. Prose around
    the numbers is ignored, so `"Revenue rose to $1,577 million in FY2022"` answers
    `$1,577 million`.
  * Read in a number: a sign (`-`, also the minus sign U+2212 and the en dash) or
    accounting brackets (`(300)` is -300); a currency (`$ US$ € £ ¥ ₹`, `USD EUR
    GBP ...`, `dollars`), before or after; thousands commas (`1,577.00`); a scale
    word or suffix (`thousand k`, `million mn mm m`, `billion bn b`, `trillion tn`);
    a percent (`%`, `percent`,
    `percentage points`; `bps` / `basis points` are hundredths of a percent); `x` /
    `times` after a ratio. A one-letter suffix glued to the number (`3M`, `4B`) is a
    scale only with a currency or a decimal part (`$3M`, `4.5B`), because `3M` is
    also a company.
  * Not candidates: years (a bare whole number 1900-2100 without currency, scale,
    percent or separators, unless the gold itself is a year), references (`page 12`,
    `Note 7`, `Item 7`, `10-K`, `Q3`, `FY2022`, `COVID-19`, `2nd`), the day in
    `June 30`.
  * Scale: `$4.5 billion` equals `4,500 million`. A gold without a scale word takes
    the scale the question names (`(in USD millions)`, `in thousands`, `USD billions`),
    so gold `$1577.00` equals `$1,577 million` and `1.577 billion`; a candidate
    without a scale word is read both as written and in the question's scale. When
    neither the gold nor the question names a scale, a candidate's own scale word
    does not count against it (gold `1577`, answer `$1,577 million`).
  * Percent against plain numbers: a percent equals a plain number written without
    the sign (`12.5%` and `12.5`) and the same number as a fraction (`12.5%` and
    `0.125`, `118%` and `1.18`). A percent never equals a number with a currency or
    a scale (`$0.125`, `12.5 million`).
  * Tolerance: within 1% of the gold, relative (a year must be equal). Also
    right: one side is the other rounded to the digits it is written with
    (`$1.6 billion` for `1,577 million`; `24%` for `24.26%`), when the rounded side
    keeps at least two significant digits and, for the answer, at least the decimals
    the question asks for ("round to two decimal places").
  * Signs: `-3.2%` does not equal `3.2%`. A number after a word of decrease (`fell`,
    `declined by`, `a decrease of`, `down`, `a loss of`, `negative`, ...) is read
    with either sign, so `"declined by 3.2%"` answers `-3.2%`, and `"a net loss of
    $50 million"` answers both `-50` and `50` (million). So is every number when the
    question asks about a loss, a decline or an outflow (net or operating loss,
    decrease, decline, reduction, deficit, outflow, capital expenditures): "What was
    the net loss?" is answered by `$188.2 million` as well as `-$188.2 million`, and
    capital expenditures by the cash flow statement's `(612)`; not when the answer
    calls the number a gain (`"operating income was $96.4 million"` for a loss).
  * A gold that opens with `Yes` or `No` is a yes/no question: the answer's own
    opening yes/no decides (`"No, it did not"`, also `"No dividend was paid"` unless
    the answer is a refusal such as `"No information is given"`); without one, the
    gold's numbers do.
  * A gold with no number (and no yes/no) is compared as text: exact, then contains.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from pytest_bizbench.scoring.numbers import numbers_match
from pytest_bizbench.scoring.references import MONTH_BEFORE, REFERENCE_WORDS, ends_at

SCORERS = ("exact", "contains", "numeric")
REL_TOL = 0.01

_SCALE_WORDS = {
    "thousand": 3,
    "k": 3,
    "million": 6,
    "mn": 6,
    "mm": 6,
    "mln": 6,
    "m": 6,
    "billion": 9,
    "bn": 9,
    "bln": 9,
    "b": 9,
    "trillion": 12,
    "tn": 12,
}
_GLUED = {"k", "m", "b", "mn", "mm", "bn", "tn", "mln", "bln"}
_QUANTITY = re.compile(
    r"""
    (?<![\w.])
    (?P<open>\()?
    (?P<sign>[-−–](?=\s?(?:us\$|[$€£¥₹]|\d|\.\d)))?
    (?P<pre>(?:us|hk|c|a|s|nz)\$|[$€£¥₹]|(?:usd|eur|gbp|jpy|chf|cad|aud|cny|inr)(?=\s?\d)\s?)?
    (?P<sign2>[-−–])?
    (?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)
    (?P<glued>[a-z]+)?
    (?:\s?(?P<word>thousand|million|billion|trillion|mn|mm|mln|bn|bln|tn)\b)?
    (?P<pct>\s?(?:%|percent\b|per\s?cent\b|percentage\s+points?\b|pp\b|basis\s+points?\b|bps\b))?
    (?:\s?(?P<post>usd|eur|gbp|dollars?|euros?)\b)?
    (?P<close>\))?
    """,
    re.IGNORECASE | re.VERBOSE,
)
_REFERENCE_BEFORE = re.compile(rf"(?:\b(?:{REFERENCE_WORDS})\.?\s*|#|[a-z]-)$", re.IGNORECASE)
_REFERENCE_AFTER = re.compile(r"-[a-z]", re.IGNORECASE)  # matched at the number's end
_DECREASE_BEFORE = re.compile(
    r"\b(?:decreas(?:e|es|ed|ing)|declin(?:e|es|ed|ing)|fell|fall|falls|falling|drop|drops"
    r"|dropped|down|lower|loss|losses|negative|minus|reduc(?:ed|tion|tions)|shr[au]nk"
    r"|contract(?:ed|ion)|deficit|outflow|outflows|deteriorat(?:ed|ion))\b"
    r"(?:[\s,]+[\w'$€£-]+){0,4}?[\s,]*(?:by|of|to|at|was|were|is|:)?\s*$",
    re.IGNORECASE,
)
_INCREASE_BEFORE = re.compile(
    r"\b(?:increas(?:e|es|ed|ing)|rose|rise|rises|grew|grow|grows|growth|up|gain|gains"
    r"|profit|profits|income|higher|improved)\b"
    r"(?:[\s,]+[\w'$€£-]+){0,4}?[\s,]*(?:by|of|to|at|was|were|is|:)?\s*$",
    re.IGNORECASE,
)
# a question about a loss or an outflow takes its amount with either sign; "credit
# losses" is not one (a negative provision is a release)
_QUESTION_DECREASE = re.compile(
    r"\b(?:(?:net|operating|pre-?tax|gross) loss(?:es)?|loss (?:before|per share|from)"
    r"|declin\w*|decreas\w*|drop\w*|reduc\w*|deficit|outflows?|shortfall"
    r"|capital expenditures?|capex)\b",
    re.IGNORECASE,
)
_QUESTION_SCALE = re.compile(
    r"\b(?:in|of)\s+(?:(?:usd|us\s?dollars?|dollars?|\$|us\$|eur|euros?|gbp|€|£)\s+)?"
    r"(thousand|million|billion|trillion)s?\b"
    r"|(?:\busd|\$|\beur|€|£)\s*(thousand|million|billion|trillion)s\b",
    re.IGNORECASE,
)
_DECIMAL_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4}
_REQUESTED_DECIMALS = re.compile(
    r"\bround(?:ed)?\b[^.?]{0,40}?\bto\s+(?:the\s+)?(?:(\d|zero|one|two|three|four)\s+"
    r"decimal|nearest\s+(whole|integer|tenth|hundredth|thousandth))",
    re.IGNORECASE,
)
_NEAREST = {"whole": 0, "integer": 0, "tenth": 1, "hundredth": 2, "thousandth": 3}
# "no" must be followed by punctuation: "No information is given" is no answer
_POLARITY = re.compile(r"^\W*(?:the answer is\s*:?\s*)?(?:(yes)\b|(no)(?=\s*[,.;:!—–-]|\s*$))")
_EDGE = " \t\n.,;:!?\"'`()[]{}*_"


@dataclass(frozen=True, slots=True)
class Quantity:
    """One number as written in a text, with what was written around it."""

    text: str
    number: float  # the written number, signed, without scale
    scale: int  # power of ten of the scale word, 0 without one
    scaled: bool
    percent: bool
    currency: bool
    decimals: int  # digits written after the decimal point
    significant: int  # significant digits written
    year: bool  # a bare whole number 1900-2100
    either_sign: bool  # after a word of decrease: read with either sign
    rising: bool = False  # after a word of increase or profit


@dataclass(frozen=True, slots=True)
class Verdict:
    """The grade of one answer: right or not, which rung decided, and why."""

    correct: bool
    rung: str
    reason: str | None = None
    matched: str | None = None  # the part of the answer that made it right
    decided: bool = True  # False: no rule could tell (a text gold no rule matched)


def normalize_answer(text: str) -> str:
    """NFKC, case-folded, whitespace collapsed, surrounding punctuation dropped."""
    folded = " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    return folded.strip(_EDGE)


def quantities(text: str) -> list[Quantity]:
    """Every number a text states, in order (see the module docstring for the rules)."""
    text = unicodedata.normalize("NFKC", text)
    found: list[Quantity] = []
    for match in _QUANTITY.finditer(text):
        quantity = _quantity(text, match)
        if quantity is not None:
            found.append(quantity)
    return found


def _quantity(text: str, match: re.Match[str]) -> Quantity | None:
    parts = match.groupdict()
    start, end = match.span()
    if ends_at(_REFERENCE_BEFORE, text, start):
        return None
    if ends_at(MONTH_BEFORE, text, start) and len(parts["num"]) <= 2:
        return None  # the day of "June 30", not the year of "March 2027"
    if _REFERENCE_AFTER.match(text, end) or (text[end : end + 1].isalnum() and not parts["close"]):
        return None
    glued = (parts["glued"] or "").lower()
    currency = bool(parts["pre"] or parts["post"])
    digits = parts["num"].replace(",", "")
    scale = 0
    if glued:
        if glued in ("x",):
            pass
        elif glued not in _GLUED or (len(glued) == 1 and not currency and "." not in digits):
            return None
        else:
            scale = _SCALE_WORDS[glued]
    if parts["word"]:
        if scale:
            return None  # "5mbillion": not a number we can read
        scale = _SCALE_WORDS[parts["word"].lower()]
    if bool(parts["open"]) != bool(parts["close"]):
        parts["open"] = parts["close"] = None
    pct = (parts["pct"] or "").strip().lower()
    number = float(digits)
    if pct.startswith(("basis", "bps")):
        number /= 100.0
    negative = bool(parts["open"]) or bool(parts["sign"] or parts["sign2"])
    plain = not (currency or scale or pct or "," in parts["num"] or "." in digits or negative)
    whole = digits.split(".")[0]
    fraction = digits.split(".")[1] if "." in digits else ""
    significant = len((whole + fraction).lstrip("0")) or 1
    return Quantity(
        text=match.group().strip(),
        number=-number if negative else number,
        scale=scale,
        scaled=bool(scale),
        percent=bool(pct),
        currency=currency,
        decimals=len(fraction),
        significant=significant,
        year=plain and len(digits) == 4 and 1900 <= int(digits) <= 2100,
        either_sign=ends_at(_DECREASE_BEFORE, text, start),
        rising=ends_at(_INCREASE_BEFORE, text, start),
    )


def question_scale(question: str) -> int:
    """The power of ten a question asks amounts in (`(in USD millions)` -> 6), else 0."""
    match = _QUESTION_SCALE.search(question)
    if match is None:
        return 0
    return _SCALE_WORDS[(match[1] or match[2]).lower()]


def requested_decimals(question: str) -> int | None:
    """Decimals the question asks the answer to be rounded to, if it says."""
    match = _REQUESTED_DECIMALS.search(question)
    if match is None:
        return None
    if match[1]:
        word = match[1].lower()
        return int(word) if word.isdigit() else _DECIMAL_WORDS[word]
    return _NEAREST[match[2].lower()]


def targets(gold: str) -> list[Quantity]:
    """The numbers an answer must state to match the gold: its non-year numbers, or its
    years when it states nothing else ("In which year ...?")."""
    found = quantities(gold)
    numbers = [q for q in found if not q.year]
    return numbers or found


def polarity(text: str) -> str | None:
    """`yes` or `no` when the text opens with one, else None."""
    match = _POLARITY.match(" ".join(unicodedata.normalize("NFKC", text).casefold().split()))
    return (match[1] or match[2]) if match else None


def is_numeric_gold(gold: str) -> bool:
    """A gold the numeric scorer decides by its numbers (not yes/no, has a number)."""
    return polarity(gold) is None and bool(targets(gold))


def grade(
    scorer: str,
    gold: str,
    answer: str,
    question: str = "",
    *,
    declines: Callable[[str], bool] | None = None,
) -> Verdict:
    """Grade one answer with one scorer; `question` gives numeric its scale and rounding.

    `declines` tells a "No, I can't say" from a "no" (the non-answer detector,
    `refusal.is_refusal`); it is passed in because that detector grades answers
    with this module, so neither module imports the other both ways.
    """
    if scorer == "exact":
        return _exact(gold, answer)
    if scorer == "contains":
        return _contains(gold, answer)
    if scorer == "numeric":
        return _numeric(gold, answer, question, declines)
    raise ValueError(f"unknown scorer {scorer!r} (use one of {', '.join(SCORERS)})")


def _exact(gold: str, answer: str) -> Verdict:
    if normalize_answer(gold) == normalize_answer(answer):
        return Verdict(True, "exact", matched=answer)
    return Verdict(False, "exact", "mismatch", decided=False)


def _contains(gold: str, answer: str) -> Verdict:
    wanted = normalize_answer(gold)
    if wanted and re.search(rf"(?<!\w){re.escape(wanted)}(?!\w)", normalize_answer(answer)):
        return Verdict(True, "contains", matched=gold)
    return Verdict(False, "contains", "not-contained", decided=False)


def _answer_polarity(answer: str, declines: Callable[[str], bool] | None) -> str | None:
    """The answer's yes or no; "No dividend was paid" says no too, unless the answer
    declines ("No information is given", "No, I can't say")."""
    given = polarity(answer)
    if given is None and normalize_answer(answer).startswith("no "):
        given = "no"
    if given is None or (declines is not None and declines(answer)):
        return None
    return given


def _numeric(
    gold: str, answer: str, question: str, declines: Callable[[str], bool] | None
) -> Verdict:
    wanted = polarity(gold)
    if wanted is not None:
        given = _answer_polarity(answer, declines)
        if given is not None:
            reason = None if given == wanted else "opposite-answer"
            return Verdict(given == wanted, "yes-no", reason, given if given == wanted else None)
    goals = targets(gold)
    if not goals:
        if wanted is not None:
            return Verdict(False, "yes-no", "no-yes-no", decided=False)
        verdict = _exact(gold, answer)
        return verdict if verdict.correct else _contains(gold, answer)
    candidates = quantities(answer)
    if not any(q.year == goals[0].year for q in candidates):
        return Verdict(False, "numeric", "no-number")
    scale = question_scale(question)
    decimals = requested_decimals(question)
    any_sign = bool(_QUESTION_DECREASE.search(question))
    matched: list[str] = []
    for goal in goals:
        hit = next(
            (
                c
                for c in candidates
                if c.year == goal.year
                and _quantities_match(goal, c, scale, decimals, any_sign=any_sign)
            ),
            None,
        )
        if hit is None:
            return Verdict(False, "numeric", "out-of-tolerance")
        matched.append(hit.text)
    return Verdict(True, "numeric", matched="; ".join(matched))


@dataclass(frozen=True, slots=True)
class _Reading:
    """One way to read a quantity: its value, and what one written unit is worth."""

    value: float
    unit: float
    quantity: Quantity


def _readings(q: Quantity, scale: int, *, own_scale_optional: bool) -> list[_Reading]:
    """Values a non-percent quantity may stand for, in base units."""
    if q.scaled:
        out = [_Reading(q.number * 10.0**q.scale, 10.0**q.scale, q)]
        if own_scale_optional:
            out.append(_Reading(q.number, 1.0, q))
        return out
    out = [_Reading(q.number, 1.0, q)]
    if scale:
        out.append(_Reading(q.number * 10.0**scale, 10.0**scale, q))
    return out


def _percent_readings(q: Quantity) -> list[_Reading]:
    """Values, in percent points, of a quantity compared with a percent."""
    if q.percent:
        return [_Reading(q.number, 1.0, q)]
    if q.currency or q.scaled:
        return []
    # a percent written without its sign, or as a fraction (0.125, 1.18)
    return [_Reading(q.number, 1.0, q), _Reading(q.number * 100.0, 100.0, q)]


def _signed(readings: Sequence[_Reading], any_sign: bool) -> list[_Reading]:
    return [
        *readings,
        *(
            _Reading(-r.value, r.unit, r.quantity)
            for r in readings
            if any_sign or r.quantity.either_sign
        ),
    ]


def _quantities_match(
    goal: Quantity, cand: Quantity, scale: int, decimals: int | None, *, any_sign: bool
) -> bool:
    if goal.year:
        return cand.number == goal.number  # 2020 is not 2019 within 1%
    if goal.percent or cand.percent:
        gold_side, cand_side = _percent_readings(goal), _percent_readings(cand)
    else:
        # the gold is in its own scale, else in the question's: never both
        unit = 10.0 ** (goal.scale if goal.scaled else scale)
        gold_side = [_Reading(goal.number * unit, unit, goal)]
        # no scale named by the question: an unscaled answer may use the gold's
        cand_scale = scale or goal.scale
        cand_side = _readings(cand, cand_scale, own_scale_optional=not (goal.scaled or scale))
    # a question about a loss takes either sign, unless the answer calls it a gain
    for g in _signed(gold_side, any_sign and not cand.rising):
        for c in _signed(cand_side, False):
            if numbers_match(g.value, c.value, REL_TOL, 0.0):
                return True
            if _rounds_to(c.value, g) or (
                (decimals is None or c.quantity.decimals >= decimals) and _rounds_to(g.value, c)
            ):
                return True
    return False


def _rounds_to(precise: float, coarse: _Reading) -> bool:
    """`precise` rounded to the digits `coarse` is written with gives `coarse`."""
    q = coarse.quantity
    if q.significant < 2:
        return False
    sign = 1.0 if coarse.value * q.number >= 0 else -1.0  # coarse may be a sign flip
    try:
        shown = Decimal(repr(sign * precise / coarse.unit)).quantize(
            Decimal(1).scaleb(-q.decimals), rounding=ROUND_HALF_UP
        )
    except InvalidOperation:
        return False
    return shown == Decimal(repr(q.number)).quantize(Decimal(1).scaleb(-q.decimals))
