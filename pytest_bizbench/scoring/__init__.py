"""The field ladder and the parsers it stands on: pure data in, plain data out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pytest_bizbench.lazy import lazy_export

if TYPE_CHECKING:
    from pytest_bizbench.options.types import LadderConfig
    from pytest_bizbench.scoring.ladder import Embedder, FieldLadder, JudgeFn

_EXPORTS = {
    "LadderConfig": "pytest_bizbench.options.types",
    "Embedder": "pytest_bizbench.scoring.ladder",
    "FieldLadder": "pytest_bizbench.scoring.ladder",
    "JudgeFn": "pytest_bizbench.scoring.ladder",
}

__all__ = ["Embedder", "FieldLadder", "JudgeFn", "LadderConfig"]


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use, so importing one submodule
    loads only what that submodule needs."""
    return lazy_export(__name__, _EXPORTS, globals(), name)
