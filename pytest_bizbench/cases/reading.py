"""The preamble every case loader shares: read the file through the safe reader
and turn what cannot be read, or a JSONL line that cannot be parsed, into the
`CaseError` that becomes an error item, so the loaders differ only in their rows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pytest_bizbench.io.jsonio import InputError, iter_jsonl, read_text

from .model import CaseError


def read_case_file(path: Path, max_bytes: int) -> str | CaseError:
    """The file's text, or the one error that stands for the whole file."""
    try:
        return read_text(path, max_bytes)
    except InputError as err:
        return CaseError(str(path), err.line, err.message)


def jsonl_rows(source: str, text: str) -> Iterator[tuple[int, Any] | CaseError]:
    """`(line, value)` per row; a row that is not JSON as its own error."""
    for line, value in iter_jsonl(text):
        if isinstance(value, InputError):
            yield CaseError(source, value.line, value.message)
        else:
            yield line, value
