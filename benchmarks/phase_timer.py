"""Where one pytest process spends its CPU: start-up, collection, the test loop and
the session's end, and how much of each went to the garbage collector.

A pytest plugin, loaded by name into any run, the plugin's or the parametrize
suite's alike, so the two split the same way:

    PYTHONPATH=benchmarks python -m pytest -p phase_timer ...

It prints one line to stderr at exit. CPU time (`time.process_time`), not wall:
on a machine shared with other work, CPU time moves less with the load. The
collector is timed through `gc.callbacks`; the two full collections pytest runs
at unconfigure fall in "end".
"""

from __future__ import annotations

import atexit
import gc
import sys
import time
from typing import Any

import pytest

_MARKS: list[tuple[str, float, float]] = []  # (phase that ends here, CPU s, GC s so far)
_GC = {"total": 0.0, "started": 0.0}


def _time_gc(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _GC["started"] = time.process_time()
    else:
        _GC["total"] += time.process_time() - _GC["started"]


def _mark(name: str) -> None:
    _MARKS.append((name, time.process_time(), _GC["total"]))


def pytest_configure(config: pytest.Config) -> None:
    gc.callbacks.append(_time_gc)
    _mark("start-up")


def pytest_collection_finish(session: pytest.Session) -> None:
    _mark("collection")


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    _mark("test loop")


def _report() -> None:
    _mark("end")
    parts, last_cpu, last_gc = [], 0.0, 0.0
    for name, cpu, gc_s in _MARKS:
        parts.append(f"{name} {cpu - last_cpu:.3f} s (gc {gc_s - last_gc:.3f})")
        last_cpu, last_gc = cpu, gc_s
    print(f"phase_timer CPU: {'; '.join(parts)}", file=sys.stderr)


atexit.register(_report)
