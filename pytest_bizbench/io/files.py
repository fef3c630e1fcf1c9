"""Untrusted paths and files: the one place that opens what a user or a data file names.

Everything the plugin and the CLI read (case files, predictions, baselines, reports,
agent workspaces and run files) comes through here, so three promises hold in one
place: only regular files are read (a FIFO or a device is refused without blocking:
it is opened non-blocking and checked with `fstat` before any read), every read is
capped, and a name taken from data (a case id, an assertion's path, a run folder)
never reaches outside the directory it is looked up in, symlinks included.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path, PurePosixPath, PureWindowsPath

NAME_MAX = 255  # bytes in one file name on the file systems CI runs on
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
_CHUNK = 1 << 20


class UnsafeInputError(ValueError):
    """A path or file refused before it was read; `message` is the one-line reason."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def shown(text: str, limit: int = 80) -> str:
    """A name from data, quoted and cut, for a message (never the whole 300-char id)."""
    quoted = repr(text)
    return quoted if len(quoted) <= limit else f"{quoted[: limit - 1]}…"


def _kind(mode: int) -> str:
    """The refusal of a file that is not regular, naming what it is."""
    return f"cannot read file: {_not_regular(mode)}"


def _not_regular(mode: int) -> str:
    kinds = (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISDIR, "a directory"),
    )
    found = next((f" ({name})" for test, name in kinds if test(mode)), "")
    return f"not a regular file{found}"


def require_writable_target(path: Path) -> None:
    """Refuse to put a file where a link, a FIFO, a device or a directory is: a
    rename would replace it (as root, `/dev/full` or the `/dev/stdout` link) and its
    target would never be written. An `OSError`, as a failed write is."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISLNK(mode):
        raise OSError(errno.EEXIST, "a symbolic link is there (give the path it points to)")
    if not stat.S_ISREG(mode):
        raise OSError(errno.EEXIST, f"{_not_regular(mode)} is there")


def read_regular(path: Path, max_bytes: int, cap_hint: str) -> bytes:
    """The bytes of the regular file at `path`, at most `max_bytes`; anything else
    (missing, a FIFO, a device, a directory, over the cap) is an `UnsafeInputError`.
    `cap_hint` names the setting that raises the cap."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as err:
        raise UnsafeInputError(f"cannot read file: {err.strerror or err}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeInputError(_kind(info.st_mode))
        over = f"over the {max_bytes:,}-byte cap ({cap_hint})"
        if info.st_size > max_bytes:
            raise UnsafeInputError(f"file is {info.st_size:,} bytes, {over}")
        chunks: list[bytes] = []
        remaining = max_bytes + 1  # bounded even when the file grows while read
        while remaining > 0:
            chunk = os.read(fd, min(_CHUNK, remaining))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
    except OSError as err:
        raise UnsafeInputError(f"cannot read file: {err.strerror or err}") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > max_bytes:
        raise UnsafeInputError(f"file is {over}")
    return data


def append_regular(path: Path, text: str) -> None:
    """Append UTF-8 text to a regular file (created if absent). Opened non-blocking,
    so a FIFO without a reader fails at once instead of waiting; OSError otherwise."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o666)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        os.write(fd, text.encode("utf-8"))
    finally:
        os.close(fd)


def require_regular(path: Path) -> None:
    """Refuse anything but a regular file (a module about to be imported, say)."""
    try:
        mode = path.stat().st_mode
    except OSError as err:
        raise UnsafeInputError(f"cannot read file: {err.strerror or err}") from None
    if not stat.S_ISREG(mode):
        raise UnsafeInputError(_kind(mode))


def _inside(base: Path, target: Path) -> bool:
    return target == base or base in target.parents


def resolve_inside(root: Path, relpath: str, what: str = "path") -> Path:
    """The path `relpath` names under `root`, symlinks followed; an
    `UnsafeInputError` when it is absolute, holds a NUL, or resolves outside `root`
    (`..`, a symlink pointing out)."""
    escape = UnsafeInputError(f"{what} escapes the workspace: {relpath}")
    if "\0" in relpath or PurePosixPath(relpath).is_absolute() or PureWindowsPath(relpath).anchor:
        raise escape
    try:
        base = root.resolve()
        target = (base / relpath).resolve()
    except (OSError, RuntimeError, ValueError) as exc:  # RuntimeError: a symlink loop
        raise UnsafeInputError(f"cannot resolve {relpath}: {exc}") from None
    if not _inside(base, target):
        raise escape
    return target


def child_name(root: Path, name: str, suffix: str = "") -> Path:
    """`root/<name><suffix>` for a name taken from data (a case id): one plain file
    name, never a path. Refused with a reason: empty, `.`/`..`, a separator, a NUL or
    another control character, over `NAME_MAX` bytes, or a symlink resolving outside
    `root`."""
    problem = _name_problem(name, suffix)
    if problem:
        raise UnsafeInputError(f"case id {shown(name)} cannot name a file in {root}: {problem}")
    candidate = root / f"{name}{suffix}"
    if candidate.is_symlink():
        try:
            target = candidate.resolve()
            base = root.resolve()
        except (OSError, RuntimeError) as exc:
            raise UnsafeInputError(f"cannot resolve {candidate}: {exc}") from None
        if not _inside(base, target):
            raise UnsafeInputError(f"{candidate} is a link that leaves {root}")
    return candidate


def _name_problem(name: str, suffix: str) -> str | None:
    if not name or name in (".", ".."):
        return "empty or a relative directory name"
    if "/" in name or "\\" in name:
        return "it holds a path separator"
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        return "it holds a control character"
    if PureWindowsPath(name).anchor:
        return "it is an absolute path"
    if len(f"{name}{suffix}".encode("utf-8", "surrogatepass")) > NAME_MAX:
        return f"the file name would be over {NAME_MAX} bytes"
    return None
