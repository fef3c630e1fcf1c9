"""Case files in, validated cases or located errors out: the loading layer that
collection builds items from. It imports no pytest, so it can be tested and
reused (`bizbench validate`) on its own; a loader is imported only when its
names are first used."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pytest_bizbench.lazy import lazy_export

if TYPE_CHECKING:
    from pytest_bizbench.cases.ground_truth import load_ground_truth
    from pytest_bizbench.cases.model import CaseError, GroundTruthCase, content_hash
    from pytest_bizbench.io.jsonio import (
        MAX_DEPTH,
        InputError,
        iter_jsonl,
        parse_json,
        read_text,
    )

_EXPORTS = {
    "load_ground_truth": "pytest_bizbench.cases.ground_truth",
    "MAX_DEPTH": "pytest_bizbench.io.jsonio",
    "InputError": "pytest_bizbench.io.jsonio",
    "iter_jsonl": "pytest_bizbench.io.jsonio",
    "parse_json": "pytest_bizbench.io.jsonio",
    "read_text": "pytest_bizbench.io.jsonio",
    "CaseError": "pytest_bizbench.cases.model",
    "GroundTruthCase": "pytest_bizbench.cases.model",
    "content_hash": "pytest_bizbench.cases.model",
}

__all__ = [
    "MAX_DEPTH",
    "CaseError",
    "GroundTruthCase",
    "InputError",
    "content_hash",
    "iter_jsonl",
    "load_ground_truth",
    "parse_json",
    "read_text",
]


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use, so importing one submodule
    loads only what that submodule needs."""
    return lazy_export(__name__, _EXPORTS, globals(), name)
