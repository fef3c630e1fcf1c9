"""pytest-bizbench: evaluation of extraction, review and QA systems as pytest runs."""

from pytest_bizbench.scoring.judge import Judge
from pytest_bizbench.sdk import (
    BenchmarkPlugin,
    ExtendedDocument,
    MatchCondition,
    MatchRule,
    ScoredDocument,
)

__version__ = "0.1.0"

__all__ = [
    "BenchmarkPlugin",
    "ExtendedDocument",
    "Judge",
    "MatchCondition",
    "MatchRule",
    "ScoredDocument",
    "__version__",
]
