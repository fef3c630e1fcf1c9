"""The field ladder and the parsers it stands on: pure data in, plain data out."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pytest_bizbench.config import LadderConfig
    from pytest_bizbench.scoring.ladder import Embedder, FieldLadder, JudgeFn

_EXPORTS = {
    "LadderConfig": "pytest_bizbench.config",
    "Embedder": "pytest_bizbench.scoring.ladder",
    "FieldLadder": "pytest_bizbench.scoring.ladder",
    "JudgeFn": "pytest_bizbench.scoring.ladder",
}

__all__ = ["Embedder", "FieldLadder", "JudgeFn", "LadderConfig"]


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use, so importing one submodule
    loads only what that submodule needs."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
