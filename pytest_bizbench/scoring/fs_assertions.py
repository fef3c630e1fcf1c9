"""File-system assertions graded against an agent's post-state workspace.

A workspace directory and one assertion in, one result out:
`{kind, path, passed, skipped, reason}`, where `reason` names the proximate cause of
a failure (`missing: src/x.py`, `regex did not match`, `contents differ`). Grading
never raises: an unknown kind or a path that leaves the workspace fails that one
assertion. A path is resolved (symlinks included) before anything is opened, so
an escaping path is never read; reads are size-capped and patterns time-limited.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import regex

from pytest_bizbench.io.files import UnsafeInputError, read_regular, resolve_inside

KNOWN_KINDS = (
    "file_exists",
    "file_not_exists",
    "file_contents_contain",
    "file_contents_match_regex",
    "file_unchanged",
)
RUN_DIR = re.compile(r"^run-(\d+)$")
NO_SEED = "skipped (no seed content)"
MAX_SHOWN = 60  # characters of a missing needle shown in a reason


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds on what grading may cost: bytes read per file, seconds per regex search."""

    max_bytes: int
    regex_timeout: float


class _Failed(Exception):
    """The assertion fails for the reason given; raised from deep inside a check."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _result(
    assertion: Mapping[str, Any], passed: bool, reason: str | None, *, skipped: bool = False
) -> dict[str, Any]:
    path = assertion.get("path")
    return {
        "kind": assertion.get("kind"),
        "path": path if isinstance(path, str) else "",
        "passed": passed,
        "skipped": skipped,
        "reason": reason,
    }


def _inside(root: Path, relpath: str) -> Path:
    try:
        return resolve_inside(root, relpath)
    except UnsafeInputError as exc:
        raise _Failed(exc.message) from None


def _read(target: Path, relpath: str, max_bytes: int) -> bytes:
    """The file's bytes; a FIFO or a device is refused unopened (it may block)."""
    try:
        return read_regular(target, max_bytes, "ini bizbench_agent_max_file_bytes")
    except UnsafeInputError as exc:
        if not target.exists():
            raise _Failed(f"missing: {relpath}") from None
        if "not a regular file" in exc.message:
            raise _Failed(f"not a file: {relpath}") from None
        if exc.message.startswith("file is"):
            cap = exc.message.split("over the ", 1)[1]
            raise _Failed(f"too large: {relpath} is over the {cap}") from None
        raise _Failed(f"{exc.message}: {relpath}") from None


def _shown(text: str) -> str:
    shown = repr(text)
    return shown if len(shown) <= MAX_SHOWN else shown[: MAX_SHOWN - 1] + "…"


def _check(
    root: Path, assertion: Mapping[str, Any], seed: Mapping[str, str], limits: Limits
) -> tuple[bool, str | None]:
    """(passed, reason) of a known kind; `_Failed` carries the reason of a failure."""
    kind, relpath = assertion["kind"], assertion["path"]
    target = _inside(root, relpath)
    if kind == "file_exists":
        if target.is_file():
            return True, None
        raise _Failed(f"not a file: {relpath}" if target.exists() else f"missing: {relpath}")
    if kind == "file_not_exists":
        if target.exists():
            raise _Failed(f"exists: {relpath}")
        return True, None
    if kind == "file_unchanged":
        original = seed.get(relpath, seed.get(posixpath.normpath(relpath)))
        if original is None:
            return True, NO_SEED
        if _read(target, relpath, limits.max_bytes) != original.encode("utf-8", "surrogatepass"):
            raise _Failed("contents differ")
        return True, None
    text = _read(target, relpath, limits.max_bytes).decode("utf-8", "replace")
    if kind == "file_contents_contain":
        needles = assertion["must_contain"]
        for needle in [needles] if isinstance(needles, str) else needles:
            if needle not in text:
                raise _Failed(f"does not contain: {_shown(needle)}")
        return True, None
    try:
        found = regex.search(assertion["regex"], text, timeout=limits.regex_timeout)
    except TimeoutError:
        raise _Failed(f"regex timed out after {limits.regex_timeout:g}s") from None
    except regex.error as exc:
        raise _Failed(f"invalid regex: {exc}") from None
    if found is None:
        raise _Failed("regex did not match")
    return True, None


def check_assertion(
    root: Path, assertion: Mapping[str, Any], seed: Mapping[str, str], limits: Limits
) -> dict[str, Any]:
    """Grade one assertion; never raises for a bad assertion or workspace."""
    kind = assertion.get("kind")
    if kind not in KNOWN_KINDS:
        return _result(assertion, False, f"unknown kind: {kind}")
    try:
        passed, reason = _check(root, assertion, seed, limits)
    except _Failed as failed:
        return _result(assertion, False, failed.reason)
    except (KeyError, TypeError) as exc:  # an assertion built without the loader's checks
        return _result(assertion, False, f"malformed assertion: {type(exc).__name__}: {exc}")
    except OSError as exc:  # a path the file system refuses (a name over 255 bytes, ...)
        return _result(assertion, False, f"cannot check the path: {exc.strerror or exc}")
    return _result(assertion, passed, reason, skipped=reason == NO_SEED)


def grade_workspace(
    root: Path,
    assertions: Sequence[Mapping[str, Any]],
    seed: Mapping[str, str],
    limits: Limits,
) -> list[dict[str, Any]]:
    """Every assertion's result, in the task's order."""
    return [check_assertion(root, a, seed, limits) for a in assertions]


def refused(assertions: Sequence[Mapping[str, Any]], reason: str) -> list[dict[str, Any]]:
    """Every assertion failed for one reason (a run folder that leaves its task)."""
    return [_result(a, False, reason) for a in assertions]


@dataclass(frozen=True, slots=True)
class RunWorkspace:
    """One run's post-state: `name` is `run-<n>` (None for a single run); `refused`
    is why it is not graded (a `run-<n>` link that leaves the task folder)."""

    name: str | None
    root: Path
    refused: str | None = None


def run_workspaces(task_dir: Path) -> list[RunWorkspace]:
    """The workspaces of one task: `run-<n>/` directories in run order when the task
    directory holds nothing else (hidden entries aside), else the directory itself.
    A run folder is resolved inside the task folder, so a planted link to a folder
    outside is never graded (its runs fail every assertion)."""
    entries = [e for e in task_dir.iterdir() if not e.name.startswith(".")]
    runs = [(int(m[1]), e) for e in entries if (m := RUN_DIR.match(e.name)) and e.is_dir()]
    if not runs or len(runs) != len(entries):
        return [RunWorkspace(None, task_dir)]
    found = []
    for _, path in sorted(runs, key=lambda pair: (pair[0], pair[1].name)):
        try:
            found.append(RunWorkspace(path.name, resolve_inside(task_dir, path.name, "run folder")))
        except UnsafeInputError as exc:
            found.append(RunWorkspace(path.name, path, exc.message))
    return found
