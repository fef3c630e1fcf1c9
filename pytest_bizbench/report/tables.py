"""The summary tables, as rows of text, shared by the terminal and markdown views."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_bizbench.aggregate import FAILED, PASSED
from pytest_bizbench.payload import ERROR
from pytest_bizbench.registry import Registry
from pytest_bizbench.report.json_report import RunResult
from pytest_bizbench.scoring.passk import flaky_cases

# metrics shown next to the headline, where a benchmark reports them
COMPONENTS = (
    "completeness",
    "correctness",
    "mean_compliance_score",
    "mean_evidence_score",
    "micro_recall",
    "mrr",
    "refusal_rate",
    "incorrect_rate",
    "attempted_rate",
    "accuracy_given_attempted",
    "f_score",
)
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


def paired_sections(result: RunResult, registry: Registry) -> list[tuple[str, Table]]:
    """Each benchmark's own tables of its model pairs (`BenchmarkPlugin.paired_tables`)."""
    sections: list[tuple[str, Table]] = []
    for name, pairs in sorted(result.paired.items()):
        benchmark = registry.get(name)
        if benchmark is None:
            continue
        for label, paired in sorted(pairs.items()):
            for title, header, rows in benchmark.paired_tables(paired):
                sections.append((f"{name} {label}: {title}", (header, rows)))
    return sections


def threshold_table(result: RunResult) -> Table:
    header = ["threshold", "model", "actual", "result"]
    rows = [
        [t.threshold.text, t.model, fmt(t.actual), "pass" if t.passed else f"FAIL {t.note}".strip()]
        for t in result.thresholds
    ]
    return header, rows


Comparisons = Mapping[tuple[str, str], Mapping[str, Any]]


def _ci(paired: Mapping[str, Any]) -> str:
    ci = paired.get("ci95")
    return "—" if not ci else f"[{ci[0]:+.4f}, {ci[1]:+.4f}]"


def comparison_table(comparisons: Comparisons, registry: Registry) -> Table | None:
    """One row per benchmark x model compared with the baseline (SPEC §7)."""
    if not comparisons:
        return None
    header = [
        "benchmark",
        "model",
        "verdict",
        "headline",
        "baseline",
        "candidate",
        "delta",
        "paired",
        "mean delta",
        "95% CI",
        "p (Holm)",
        "MDE",
        "new",
        "removed",
        "changed",
    ]
    rows = []
    for (name, model), c in sorted(comparisons.items()):
        headline = headline_of(registry, name)
        paired = c.get("paired") or {}
        rows.append(
            [
                name,
                model,
                str(c.get("verdict", "—")),
                headline,
                fmt(c.get(f"baseline_{headline}")),
                fmt(c.get(f"candidate_{headline}")),
                fmt(c.get("delta")),
                str(paired.get("n", "—")),
                fmt(paired.get("mean_delta")),
                _ci(paired),
                fmt(c.get("p_holm")),
                fmt(c.get("mde")),
                str(len(c.get("new_cases") or ())),
                str(len(c.get("removed_cases") or ())),
                str(len(c.get("stale_cases") or ())),
            ]
        )
    return header, rows


def _field_change(name: str, change: Mapping[str, Any]) -> str:
    def score(value: Any) -> str:
        return "—" if value is None else f"{value:.2f}"

    return f"{name} {score(change.get('baseline'))}→{score(change.get('candidate'))}"


def worst_table(comparisons: Comparisons) -> Table | None:
    """The worst-regressed cases of every comparison, with the fields that moved."""
    header = ["benchmark", "model", "case", "baseline", "candidate", "delta", "fields"]
    rows = [
        [
            name,
            model,
            str(w["id"]),
            fmt(w["baseline"]),
            fmt(w["candidate"]),
            fmt(w["delta"]),
            ", ".join(_field_change(f, ch) for f, ch in (w.get("fields") or {}).items()) or "—",
        ]
        for (name, model), c in sorted(comparisons.items())
        for w in c.get("worst") or ()
    ]
    return (header, rows) if rows else None


def _points(value: float) -> str:
    """A score difference in percentage points, to one decimal: 0.061 -> '6.1'."""
    return f"{round(value * 100, 1):g}"


def detectability(c: Mapping[str, Any]) -> str | None:
    """One sentence when the suite is too small to see a regression of the size the
    benchmark's threshold calls one, so a neutral verdict is not read as proof."""
    mde, threshold = c.get("mde"), c.get("regression_threshold")
    if not isinstance(mde, (int, float)) or not isinstance(threshold, (int, float)):
        return None
    if mde <= threshold:
        return None
    return (
        f"this suite can detect changes of {_points(mde)} points or more; "
        f"REGRESSION_THRESHOLD is {_points(threshold)} points"
    )


def honest_line(c: Mapping[str, Any]) -> str:
    """McNemar, Holm, MDE and the clustered interval of one comparison, in one line."""
    test = c.get("mcnemar") or {}
    parts = [
        f"McNemar b={test.get('b', '—')} (passed→failed), c={test.get('c', '—')} "
        f"(failed→passed), p={fmt(test.get('p_value'))}",
        f"Holm-adjusted p={fmt(c.get('p_holm'))}",
        f"MDE={fmt(c.get('mde'))}",
    ]
    robust = c.get("clustered")
    if isinstance(robust, Mapping):
        parts.append(
            f"clustered over {robust.get('n_clusters')} clusters: se={fmt(robust.get('se'))}, "
            f"95% CI {_ci(robust)}"
        )
    return "; ".join(parts)


def comparison_notes(comparisons: Comparisons) -> list[str]:
    """Stale and not-significant explanations, and where the suite is too small to
    detect a regression, one line each."""
    notes = []
    for (name, model), c in sorted(comparisons.items()):
        for text in (c.get("message"), detectability(c)):
            if text:
                notes.append(f"{name} ({model}): {text}")
    return notes


def flaky_table(result: RunResult) -> Table | None:
    """Cases whose repeated samples disagree, per benchmark x model."""
    rows = [
        [name, model, str(f["id"]), f["case"], f"{f['passed']} of {f['n']}"]
        for (name, model), docs in result.documents.items()
        for f in flaky_cases(
            {"case": d.payload.case, "id": d.payload.id, "details": d.payload.details} for d in docs
        )
    ]
    return (["benchmark", "model", "case", "file", "samples passed"], rows) if rows else None
