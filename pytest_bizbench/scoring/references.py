"""Words before a number that make it a reference or a date's day, not a figure:
"note 12", "page 3", "March 31". Shared by the answer scorer (`answers.py`) and
the non-answer detector (`refusal.py`), so both read "note 12" the same way."""

from __future__ import annotations

import re

# what a reference number follows: "page 3", "note 12", "item 7"
REFERENCE_WORDS = (
    "page|pages|p|pp|note|notes|item|items|section|part|exhibit|table|schedule"
    "|line|form|rule|article|chapter|figure|appendix|footnote|no|number"
)
# a month name (or its abbreviation) right before a number: the number is a day
MONTH_BEFORE = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*$", re.IGNORECASE
)

# How far before a number the words above are looked for. Each cue ends within a few
# words of the number; searching the whole text before every number made a long answer
# of many numbers quadratic (a 16,000-character one took 47 s).
BEFORE_CHARS = 256


def ends_at(pattern: re.Pattern[str], text: str, end: int) -> bool:
    """Whether `pattern`, anchored with `$`, matches a stretch of `text` ending at `end`
    that starts at most BEFORE_CHARS before it. `\\b` still sees the character before
    the window (`pos` does not cut the string), so a word is never cut in two."""
    return pattern.search(text, max(0, end - BEFORE_CHARS), end) is not None
