"""The summary tables, as rows of text, shared by the terminal and markdown views."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_bizbench.aggregate import FAILED, PASSED
from pytest_bizbench.payload import ERROR
from pytest_bizbench.registry import Registry
from pytest_bizbench.report.json_report import RunResult

COMPONENTS = ("completeness", "correctness")
Table = tuple[list[str], list[list[str]]]


def fmt(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return "—" if value is None else str(value).lower()
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def headline_of(registry: Registry, name: str) -> str:
    benchmark = registry.get(name)
    return benchmark.headline_metric if benchmark else "accuracy"


def summary_table(result: RunResult, registry: Registry) -> Table:
    """One row per benchmark x model: headline, components, outcomes, verdict, delta."""
    header = [
        "benchmark",
        "model",
        "headline",
        "value",
        "components",
        "docs",
        "passed",
        "failed",
        "errors",
        "verdict",
        "delta",
    ]
    rows = []
    for (name, model), docs in result.documents.items():
        metrics: Mapping[str, Any] = result.metrics.get((name, model), {})
        headline = headline_of(registry, name)
        components = ", ".join(f"{key} {fmt(metrics[key])}" for key in COMPONENTS if key in metrics)
        outcomes = [d.outcome for d in docs]
        comparison = result.comparisons.get((name, model), {})
        rows.append(
            [
                name,
                model,
                headline,
                fmt(metrics.get(headline)),
                components or "—",
                str(len(docs)),
                str(outcomes.count(PASSED)),
                str(outcomes.count(FAILED)),
                str(outcomes.count(ERROR)),
                str(comparison.get("verdict", "—")),
                fmt(comparison.get("delta")),
            ]
        )
    return header, rows


def side_by_side_table(result: RunResult, registry: Registry) -> Table | None:
    """Metrics as rows and models as columns, when more than one model ran."""
    models = sorted({model for _, model in result.metrics})
    if len(models) < 2:
        return None
    rows = []
    for name in sorted({name for name, _ in result.metrics}):
        per_model = {m: result.metrics.get((name, m), {}) for m in models}
        keys = [headline_of(registry, name), *COMPONENTS]
        fields = sorted(
            {f for metrics in per_model.values() for f in metrics.get("per_field_accuracy", {})}
        )
        for key in keys:
            if any(key in metrics for metrics in per_model.values()):
                rows.append([name, key, *(fmt(per_model[m].get(key)) for m in models)])
        for field in fields:
            rows.append(
                [
                    name,
                    f"per_field_accuracy.{field}",
                    *(fmt(per_model[m].get("per_field_accuracy", {}).get(field)) for m in models),
                ]
            )
    return ["benchmark", "metric", *models], rows


def threshold_table(result: RunResult) -> Table:
    header = ["threshold", "model", "actual", "result"]
    rows = [
        [t.threshold.text, t.model, fmt(t.actual), "pass" if t.passed else f"FAIL {t.note}".strip()]
        for t in result.thresholds
    ]
    return header, rows
