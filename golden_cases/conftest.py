"""A custom benchmark next to the built-in `field-accuracy`: copy this file to start your own.

A wrong total costs more than a misspelled vendor name, so the money fields get a
metric, groups and a threshold of their own instead of being one field among ten.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import pytest

from pytest_bizbench import (
    BenchmarkPlugin,
    ExtendedDocument,
    MatchCondition,
    MatchRule,
    ScoredDocument,
)
from pytest_bizbench.scoring.numbers import numbers_match, parse_number

AMOUNT_FIELDS = ("total_amount", "tax_amount")
# Agent workspaces hold the agents' own tests and conftests: never collect them.
collect_ignore = ["predictions"]


class InvoiceTotals(BenchmarkPlugin):
    """Scores total, tax and currency of each invoice; 1.0 when all three are right."""

    name = "invoice-totals"
    version = "1.0.0"  # bump when scoring changes, so old baselines are reported as stale
    description = "Share of an invoice's money fields (total, tax, currency) extracted correctly"
    target_labels: ClassVar[list[str]] = ["invoice"]
    metric_unit = "share of money fields correct"
    group_by = "vendor_country"  # read from the case's metadata
    MATCH_RULES: ClassVar[list[MatchRule]] = [
        MatchRule("high-value", [MatchCondition("total_amount", "gt", 10000)], "mean"),
        MatchRule(
            "eu-vendor",
            [MatchCondition("vendor_country", "regex", r"^(DE|FR|NL|IT|ES|AT|BE)$")],
            "median",
        ),
    ]

    def score(self, document: ExtendedDocument) -> ScoredDocument:
        expected, actual = document.ground_truth, document.extracted_fields
        details: dict[str, dict[str, Any]] = {}
        for field in AMOUNT_FIELDS:
            # Tolerant on purpose: "$1,577.00", "(300.00)" and a rounding cent are all fine.
            e, a = parse_number(expected.get(field)), parse_number(actual.get(field))
            ok = e is not None and a is not None and numbers_match(e, a, rel_tol=0.01, abs_tol=0.01)
            details[field] = _detail(ok, expected.get(field), actual.get(field))
        want, got = expected.get("currency"), actual.get("currency")
        ok = isinstance(got, str) and got.strip().casefold() == str(want).casefold()
        details["currency"] = _detail(ok, want, got)
        score = sum(d["score"] for d in details.values()) / len(details)
        return ScoredDocument(document, score, details)


def _detail(ok: bool, expected: object, actual: object) -> dict[str, Any]:
    return {"score": 1.0 if ok else 0.0, "expected": expected, "actual": actual}


def pytest_bizbench_add_benchmarks(config: pytest.Config) -> list[type[BenchmarkPlugin]]:
    return [InvoiceTotals]


KNOWN_FAILURES = Path(__file__).with_name("known-failures.txt")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The cases a model is known to fail, as expected failures: the pass marks stay
    what they are, the run stays green, and a case that starts to pass says so."""
    lines = KNOWN_FAILURES.read_text(encoding="utf-8").splitlines()
    known = {line.strip() for line in lines if line.strip() and not line.startswith("#")}
    reason = f"known failure (listed in {KNOWN_FAILURES.name})"
    for item in items:
        if item.nodeid in known:
            item.add_marker(pytest.mark.xfail(reason=reason, strict=True))
