"""Where one pytest process holds its memory: the resident size after collection, every
`--phase-every` items of the test loop, at the session's end and at exit.

A pytest plugin, loaded by name into any run, like `phase_timer.py`:

    PYTHONPATH=benchmarks python -m pytest -p phase_memory ...

Prints one line per phase to stderr: the current resident size, the peak so far
(Linux `/proc/self/status`) and the objects the garbage collector tracks. The growth
between two loop lines divided by the items between them is what the run keeps per
item; a peak above the current size at the end is a transient (the session's end).
"""

from __future__ import annotations

import gc
import sys
import time

import pytest

_START = time.perf_counter()
_EVERY = 5000
_SEEN = {"items": 0}


def _status() -> str:
    fields = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                fields[name] = int(value.split()[0]) // 1024
    return (
        f"rss {fields.get('VmRSS', 0)} MB, peak {fields.get('VmHWM', 0)} MB, "
        f"{len(gc.get_objects())} objects, {time.perf_counter() - _START:.1f} s"
    )


def _say(phase: str) -> None:
    sys.stderr.write(f"\nphase_memory {phase}: {_status()}\n")


def pytest_collection_finish(session: pytest.Session) -> None:
    _say(f"after collection ({len(session.items)} items)")


def pytest_runtest_logfinish() -> None:
    _SEEN["items"] += 1
    if _SEEN["items"] % _EVERY == 0:
        _say(f"after {_SEEN['items']} items")


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish() -> None:
    _say(f"session end ({_SEEN['items']} items)")


@pytest.hookimpl(trylast=True)
def pytest_unconfigure() -> None:
    _say("exit")
