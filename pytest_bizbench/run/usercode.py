"""Calls into a benchmark's own code, which may raise anything or return anything.

A `score()`, `compute()`, `compare()`, `compare_models()` or `scoring_config()` that
raises (`SystemExit` and `GeneratorExit` too) or returns what JSON cannot hold must
cost only its case or its benchmark, never the run's report: the failure becomes a
`UserCodeError` whose message names the benchmark, the method and the user's file
and line. `KeyboardInterrupt` still stops the run, as pytest does. No pytest here.
"""

from __future__ import annotations

import inspect
import os
import sysconfig
from types import TracebackType
from typing import TYPE_CHECKING, Any

from pytest_bizbench.run.payload import NotJSON, jsonable

if TYPE_CHECKING:
    from pytest_bizbench.sdk import BenchmarkPlugin

_OURS = os.path.dirname(os.path.abspath(__file__)) + os.sep
_STDLIB = os.path.abspath(sysconfig.get_paths()["stdlib"]) + os.sep


class UserCodeError(Exception):
    """A benchmark method failed; the message says which and where."""


def shown_path(path: str) -> str:
    """A source path as a message shows it: relative to the current directory when
    inside it, so messages compare across runs and machines."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def raised_at(tb: TracebackType | None) -> str:
    """`file:line` of the innermost frame of a traceback in the user's code: not the
    plugin's, not the standard library's (the last frame when every one is)."""
    found = ""
    while tb is not None:
        filename = os.path.abspath(tb.tb_frame.f_code.co_filename)
        if not filename.startswith((_OURS, _STDLIB)) or not found:
            found = f"{shown_path(filename)}:{tb.tb_lineno}"
        tb = tb.tb_next
    return found


def defined_at(benchmark: BenchmarkPlugin, method: str) -> str:
    """`file:line` of the benchmark's definition of `method` (its class when the
    source cannot be found)."""
    target: Any = getattr(type(benchmark), method, type(benchmark))
    try:
        filename = inspect.getsourcefile(target) or ""
        line = inspect.getsourcelines(target)[1]
    except (OSError, TypeError):
        return type(benchmark).__qualname__
    return f"{shown_path(filename)}:{line}"


def failure(benchmark: BenchmarkPlugin, method: str, exc: BaseException) -> str:
    """`Type: message (at file:line)` of an exception `method` raised."""
    try:
        text = str(exc)
    except Exception:  # an exception whose own __str__ raises
        text = "<unprintable>"
    where = raised_at(exc.__traceback__) or defined_at(benchmark, method)
    return f"{type(exc).__name__}: {text} (at {where})"


def call(benchmark: BenchmarkPlugin, method: str, *args: Any) -> Any:
    """`benchmark.<method>(*args)`; any exception but KeyboardInterrupt is a
    `UserCodeError`."""
    try:
        return getattr(benchmark, method)(*args)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        raise UserCodeError(
            f"benchmark {benchmark.name!r}: {method}() raised {failure(benchmark, method, exc)}"
        ) from None


def plain(benchmark: BenchmarkPlugin, method: str, value: Any, *, bounded: bool = False) -> Any:
    """What `method` returned as plain JSON data; a `UserCodeError` when JSON cannot
    hold it (a self-reference, an int past Python's digit limit, an object whose
    repr raises)."""
    try:
        return jsonable(value, bounded=bounded)
    except NotJSON as exc:
        raise UserCodeError(
            f"benchmark {benchmark.name!r}: {method}() returned what JSON cannot hold: "
            f"{exc} (at {defined_at(benchmark, method)})"
        ) from None


def checked(benchmark: BenchmarkPlugin, method: str, *args: Any) -> Any:
    """`call` then `plain`: the method's result as JSON data, or a `UserCodeError`."""
    return plain(benchmark, method, call(benchmark, method, *args))
