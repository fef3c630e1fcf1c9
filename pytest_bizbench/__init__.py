"""pytest-bizbench: evaluation of extraction, review and QA systems as pytest runs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pytest_bizbench.lazy import lazy_export

if TYPE_CHECKING:
    from pytest_bizbench.scoring.judge import Judge
    from pytest_bizbench.scoring.passk import pass_at_k
    from pytest_bizbench.scoring.refusal import is_refusal
    from pytest_bizbench.sdk import (
        BenchmarkPlugin,
        ExtendedDocument,
        MatchCondition,
        MatchRule,
        NotApplicable,
        ScoredDocument,
    )

__version__ = "0.1.0"

_EXPORTS = {
    "Judge": "pytest_bizbench.scoring.judge",
    "pass_at_k": "pytest_bizbench.scoring.passk",
    "is_refusal": "pytest_bizbench.scoring.refusal",
    "BenchmarkPlugin": "pytest_bizbench.sdk",
    "ExtendedDocument": "pytest_bizbench.sdk",
    "MatchCondition": "pytest_bizbench.sdk",
    "MatchRule": "pytest_bizbench.sdk",
    "NotApplicable": "pytest_bizbench.sdk",
    "ScoredDocument": "pytest_bizbench.sdk",
}

__all__ = [
    "BenchmarkPlugin",
    "ExtendedDocument",
    "Judge",
    "MatchCondition",
    "MatchRule",
    "NotApplicable",
    "ScoredDocument",
    "__version__",
    "is_refusal",
    "pass_at_k",
]


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use, so importing one submodule
    loads only what that submodule needs."""
    return lazy_export(__name__, _EXPORTS, globals(), name)
