"""SIGTERM ends a run like Ctrl-C, so results so far are kept and reported.

The handler is set only once the session has selected case items (on the
controller: its own collection, or a worker's under xdist) and put back at
unconfigure, so a session of an environment that merely has the plugin installed
keeps the signal handling it had.
"""

from __future__ import annotations

import contextlib
import fnmatch
import signal
from collections.abc import Iterable
from types import FrameType
from typing import Any

import pytest

_PREVIOUS_SIGTERM = pytest.StashKey[Any]()


def _sigterm_as_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def is_case_nodeid(nodeid: str, patterns: Iterable[str]) -> bool:
    """Whether a node id is in a file `bizbench_case_patterns` collects."""
    name = nodeid.split("::", 1)[0].rsplit("/", 1)[-1]
    return any(fnmatch.fnmatch(name, pattern) for pattern in patterns)


def catch_sigterm(config: pytest.Config) -> None:
    """Turn SIGTERM into KeyboardInterrupt until unconfigure; set once per session.
    Outside the main thread (pytest run inside another program) it cannot be set."""
    if _PREVIOUS_SIGTERM in config.stash:
        return
    with contextlib.suppress(ValueError):
        config.stash[_PREVIOUS_SIGTERM] = signal.signal(signal.SIGTERM, _sigterm_as_interrupt)


def release_sigterm(config: pytest.Config) -> None:
    """Put back the handler `catch_sigterm` replaced."""
    if _PREVIOUS_SIGTERM not in config.stash:
        return
    previous = config.stash[_PREVIOUS_SIGTERM]
    del config.stash[_PREVIOUS_SIGTERM]
    if previous is not None:  # None: set outside Python, cannot be put back
        signal.signal(signal.SIGTERM, previous)
