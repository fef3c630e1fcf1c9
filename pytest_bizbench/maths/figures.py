"""Numbers as every module reads and writes them: one test for "is a number", one
mean, one plural and one formatter, so a score reads the same in every output."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, TypeGuard


def is_number(value: object) -> TypeGuard[int | float]:
    """An int or a float, but not a bool (JSON's true is no score)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def mean(values: Iterable[float]) -> float:
    """The exact (`fsum`) mean; 0.0 for no values."""
    items = list(values)
    return math.fsum(items) / len(items) if items else 0.0


def plural(n: int, noun: str) -> str:
    """`1 case`, `2 cases`."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def fmt_number(value: Any, spec: str = ".4f", missing: str = "—") -> str:
    """`value` formatted with `spec`, or `missing` where it is not a number."""
    return format(value, spec) if is_number(value) else missing
