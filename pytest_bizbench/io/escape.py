"""Text from data made safe for the medium it is shown in: one helper per medium.

Ids, field names, messages and every value read back from a report are untrusted:
a control character or an ANSI escape must not rewrite a terminal, a CR or a pipe
must not split a markdown table row, and a tag must not run in an HTML page.
"""

from __future__ import annotations

import html as _html
import re
import unicodedata

# C0 and C1 controls (ESC included), DEL, the invisible bidi and format controls
# and line separators that can make shown text differ from the data (the Arabic
# letter mark U+061C, zero-width spaces and marks, embeddings, overrides, isolates,
# the BOM), and surrogates (no terminal or UTF-8 stream can carry one; pytest-xdist
# fails on a node id holding one).
_INVISIBLE = "\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff\ud800-\udfff"
_CONTROL = re.compile(f"[\x00-\x1f{_INVISIBLE}]")
_CONTROL_BUT_NEWLINE = re.compile(f"[\x00-\x09\x0b-\x1f{_INVISIBLE}]")
# what UTF-8 cannot encode: a string a hook made may hold one
SURROGATE = re.compile("[\ud800-\udfff]")
# the invisible bidi and format controls and line separators a JSON encoder leaves
# raw (it escapes C0 controls itself)
_JSON_INVISIBLE = re.compile("[\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")
_MARKDOWN = str.maketrans(
    {
        "\\": "\\\\",
        "|": "\\|",
        "&": "&amp;",
        "<": "&lt;",
        "`": "\\`",
        "[": "\\[",  # no link or image: `[text](url)`, `![alt](url)`
        "]": "\\]",
        "@": "\\@",  # no e-mail autolink
    }
)
# what a GitHub-flavoured renderer turns into a link without brackets: `scheme://`
# and `www.`; an escaped character splits the text, so the pattern no longer matches
_AUTOLINK = re.compile(r"(?<=[A-Za-z]):(?=//)|(?<=www)\.", re.IGNORECASE)


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_text(value: object) -> str:
    """One line for a terminal: every control character shown as `\\xNN` (`\\uXXXX`
    above U+00FF)."""
    return _CONTROL.sub(_visible, str(value))


def columns(text: str) -> int:
    """How many terminal columns `text` takes: an East Asian wide or full-width
    character two, a combining mark or zero-width format character none."""
    if text.isascii():
        return len(text)
    return sum(_columns(ch) for ch in text)


def _columns(ch: str) -> int:
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def terminal_block(value: object) -> str:
    """Several lines for a terminal: newlines kept, other controls shown as `\\xNN`
    or `\\uXXXX`."""
    return _CONTROL_BUT_NEWLINE.sub(_visible, str(value))


def json_escaped(text: str) -> str:
    """JSON text with every invisible bidi or format control spelled as its `\\uXXXX`
    escape, which a JSON reader reads back as the same character: a file viewer
    cannot be made to show the data other than it is. Such a character is always
    inside a string of JSON text, where the escape is valid."""
    return _JSON_INVISIBLE.sub(_visible, text)


def markdown_text(value: object) -> str:
    """Text for a markdown table cell or list item: backslashes, pipes and backticks
    escaped, `<` and `&` as entities (so no tag or entity is rendered; `>=` stays), controls (CR, LF
    included) shown as `\\xNN`, so a value is always one cell of one row."""
    return terminal_text(_AUTOLINK.sub(r"\\\g<0>", str(value).translate(_MARKDOWN)))


def html_text(value: object) -> str:
    """Text for HTML element content or a quoted attribute: markup as entities, and
    controls, direction overrides and surrogates (which no UTF-8 page can hold) shown
    as `\\xNN` or `\\uXXXX`, as in the terminal."""
    return _html.escape(terminal_text(value), quote=True)
