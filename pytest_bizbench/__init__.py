"""pytest-bizbench: evaluation of extraction, review and QA systems as pytest runs."""

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
