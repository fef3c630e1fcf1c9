"""Saved reports read back: checked once against the contract, then the same `Report`
a run builds.

A report file is the one artifact CI keeps, so baselines, `bizbench compare`,
`bizbench report` and `bizbench merge` all start from it. Anything that is not a
report of our schema is a `ReportError` naming the file and the first problem.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

from pytest_bizbench.io.files import UnsafeInputError, read_regular
from pytest_bizbench.io.jsonio import InputError, parse_json
from pytest_bizbench.report.contract import ReportJson, problem
from pytest_bizbench.report.model import Report

# Far above any report a suite writes (about 1 KB a document), far below what
# would exhaust a CI runner's memory.
REPORT_MAX_BYTES = 512 * 1024 * 1024


class ReportError(Exception):
    """A report file that cannot be read or is not a bizbench report."""


def read_report(path: Path, max_bytes: int = REPORT_MAX_BYTES) -> Report:
    """The report at `path`; ReportError when it is unreadable or not a report."""
    try:
        data = read_regular(path, max_bytes, "bizbench reads reports up to this size")
    except UnsafeInputError as exc:
        raise ReportError(f"{exc.message.replace('file', f'report {path}', 1)}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ReportError(f"{path}: not a bizbench report: not UTF-8 text") from None
    try:
        parsed = parse_json(text)
    except InputError as exc:
        where = f"{path}:{exc.line}" if exc.line else str(path)
        raise ReportError(f"{where}: not a bizbench report: {exc.message}") from None
    found = problem(parsed)
    if found:
        raise ReportError(f"{path}: not a bizbench report: {found}")
    return Report.from_json(cast(ReportJson, parsed))
