"""The baseline's coverage: what the baseline scored and this run did not (gate).

A regression gate that compares only what happens to be in the run switches
itself off when a model name is mistyped or a benchmark stops registering. Each
benchmark x model of the baseline that this run did not score is therefore a
comparison with verdict `missing` and a gate reason, unless the run judges only
part of the suite on purpose (filtered, a shard) or `--bizbench-allow-missing`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from pytest_bizbench.report.model import Report

MISSING_VERDICT = "missing"


def missing_from_run(
    baseline: Report, scored: Collection[tuple[str, str]]
) -> dict[tuple[str, str], dict[str, Any]]:
    """A `missing` comparison for each baseline benchmark x model the run lacks."""
    return {
        (name, model): {
            "verdict": MISSING_VERDICT,
            "message": f"in the baseline, not scored by this run: {name}/{model}",
        }
        for name, model, _, _ in baseline.entries()
        if (name, model) not in scored
    }


def coverage_reasons(
    missing: Mapping[tuple[str, str], Mapping[str, Any]], *, judged: bool
) -> list[str]:
    """Gate reasons for the missing pairs, or none when the run is not `judged`
    on coverage (filtered, a shard, or --bizbench-allow-missing)."""
    if not judged:
        return []
    return [f"missing from this run: {name}/{model} (in the baseline)" for name, model in missing]
