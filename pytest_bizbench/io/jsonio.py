"""Strict JSON reading for case files: anything Python's `json` would let through
silently (duplicate keys, NaN, overflowing numbers, depth bombs, bad bytes) is
rejected as an `InputError` carrying a line where one is known."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from itertools import accumulate
from pathlib import Path
from typing import Any, NoReturn

from pytest_bizbench.io.files import UnsafeInputError, read_regular

MAX_DEPTH = 64
TOO_DEEP = f"nesting deeper than {MAX_DEPTH} levels"
_BOM = b"\xef\xbb\xbf"
# a byte UTF-8 could not decode, kept by "surrogateescape" (decoding never makes one)
_UNDECODED = re.compile("[\udc80-\udcff]")
# An unterminated string swallows the rest of the text instead of backtracking, so
# the depth scan stays linear on hostile input; `json` then reports the real error.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
# Any integer literal this short (sign included) is below 1e308, so it fits a float.
_SAFE_INT_CHARS = 308


class InputError(ValueError):
    """Bad input, as opposed to a bug: the loader turns it into a `CaseError`."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def read_text(path: Path, max_bytes: int) -> str:
    """Read a case file as UTF-8: a regular file only, refused over the cap unread."""
    try:
        data = read_regular(path, max_bytes, "ini bizbench_max_case_bytes")
    except UnsafeInputError as err:
        raise InputError(err.message) from None
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        if path.suffix != ".jsonl":
            line = data.count(b"\n", 0, err.start) + 1
            column = err.start - data.rfind(b"\n", 0, err.start)
            raise _not_utf8(data[err.start], line, column) from None
        # a JSONL file's lines stand alone: `iter_jsonl` makes each line holding an
        # undecodable byte its own error, and the other lines are read
        text = data.decode("utf-8", "surrogateescape")
    if not text:
        raise InputError("empty file")
    if text.isspace():
        raise InputError("empty file (whitespace only)")
    return text


def _not_utf8(byte: int, line: int, column: int) -> InputError:
    return InputError(
        f"not UTF-8: invalid byte 0x{byte:02x} at line {line}, byte {column}"
        " (save the file as UTF-8)",
        line,
    )


def parse_json(text: str, *, line_offset: int = 0) -> Any:
    """Decode one JSON value; `line_offset` maps syntax-error lines back into the file."""
    _check_depth(text)
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError as err:
        comma = _trailing_comma(text, err.pos)
        if comma is not None:  # json blames the bracket after it, often a line later
            line, column = _line_column(text, comma)
            message = f"trailing comma at column {column} (remove it)"
        else:
            # json's messages end in "at" when they expect a position after them.
            line, message = err.lineno, f"{err.msg.removesuffix(' at')} at column {err.colno}"
        raise InputError(f"malformed JSON: {message}", line + line_offset) from err


def _trailing_comma(text: str, pos: int) -> int | None:
    """The offset of a comma right before the closing bracket at `pos`, or None."""
    if pos >= len(text) or text[pos] not in "]}":
        return None
    before = len(text[:pos].rstrip())
    return before - 1 if before and text[before - 1] == "," else None


def _line_column(text: str, offset: int) -> tuple[int, int]:
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


def iter_jsonl(text: str) -> Iterator[tuple[int, Any | InputError]]:
    """Yield `(line, value)` per non-blank line, an `InputError` in place of a bad
    value, so one bad line never hides the lines after it."""
    # not splitlines(): U+2028 and friends are legal in JSON strings
    undecoded = not text.isascii() and _UNDECODED.search(text) is not None
    return iter_jsonl_lines(text.split("\n"), undecoded=undecoded)


def iter_jsonl_lines(
    lines: list[str], *, undecoded: bool = False
) -> Iterator[tuple[int, Any | InputError]]:
    """`iter_jsonl` of a text already split at "\\n", for a caller that keeps the lines;
    `undecoded`: some line holds a byte `read_text` could not decode."""
    truncated_index = -1 if lines[-1] == "" else len(lines) - 1
    for index, line in enumerate(lines):
        if not line or line.isspace():
            continue
        lineno = index + 1
        if undecoded and (bad := _UNDECODED.search(line)) is not None:
            column = len(line[: bad.start()].encode("utf-8", "surrogateescape")) + 1
            yield lineno, _not_utf8(ord(bad.group()) - 0xDC00, lineno, column)
            continue
        try:
            yield lineno, parse_json(line, line_offset=index)
        except InputError as err:
            message = err.message
            if index == truncated_index and isinstance(err.__cause__, json.JSONDecodeError):
                message = f"truncated last line: {message}"
            yield lineno, InputError(message, err.line or lineno)


def _check_depth(text: str) -> None:
    """Reject depth bombs before `json` recurses into them; the bracket count
    skips the scan for ordinary documents."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0) > MAX_DEPTH:
        raise InputError(TOO_DEEP)


def _abbreviate(literal: str) -> str:
    return literal if len(literal) <= 40 else f"{literal[:20]}...({len(literal):,} characters)"


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise InputError(f"duplicate key {json.dumps(key, ensure_ascii=False)}")
            seen.add(key)
    return obj


def _reject_constant(name: str) -> NoReturn:
    raise InputError(f"{name} is not allowed (JSON has no NaN or Infinity)")


def _finite_float(literal: str) -> float:
    value = float(literal)
    if math.isinf(value):  # a literal too large for a float
        raise InputError(f"number {_abbreviate(literal)} is out of range")
    return value


def _float_sized_int(literal: str) -> int:
    if len(literal) <= _SAFE_INT_CHARS:
        return int(literal)
    try:
        value = int(literal)
        float(value)
    except (OverflowError, ValueError):  # ValueError: the int-string conversion limit
        raise InputError(f"integer {_abbreviate(literal)} is too large for a float") from None
    return value


_DECODER = json.JSONDecoder(
    object_pairs_hook=_unique_keys,
    parse_float=_finite_float,
    parse_int=_float_sized_int,
    parse_constant=_reject_constant,
)


def compact_json(value: Any) -> str:
    """JSON text without spaces, ASCII (a lone surrogate crosses between processes escaped);
    raises ValueError for NaN, TypeError for what is not JSON."""
    return _COMPACT.encode(value)


# built once: `json.dumps` with options builds an encoder per call, twice per item
_COMPACT = json.JSONEncoder(allow_nan=False, separators=(",", ":"))
