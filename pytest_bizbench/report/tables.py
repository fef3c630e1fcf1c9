"""The report's tables, as rows of text, read from the report dict every view shares."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from pytest_bizbench.maths.figures import is_number
from pytest_bizbench.maths.stats import MIN_SIGNIFICANT_CASES
from pytest_bizbench.report.records import FAILED, PASSED
from pytest_bizbench.run.payload import ERROR
from pytest_bizbench.run.registry import Registry

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
# a benchmark's own metrics its metrics table shows where it reports them (the
# trajectory built-in's); an object's numbers each as a row `metric.key`
OWN_METRICS = (
    "iterations",
    "first",
    "best",
    "improvement",
    "steps_to_best",
    "repeat_rate",
    "knob_coverage",
    "mode_dominance",
    "skipped_records",
)
Table = tuple[list[str], list[list[str]]]
Report = Mapping[str, Any]


def fmt(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return "—" if value is None else str(value).lower()
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def headline_of(entry: Mapping[str, Any]) -> str:
    return str(entry.get("headline_metric") or "accuracy")


def model_entries(
    report: Report,
) -> Iterator[tuple[str, str, Mapping[str, Any], Mapping[str, Any]]]:
    """(benchmark, model, benchmark entry, model entry), sorted by benchmark and model."""
    for name, entry in sorted(report["benchmarks"].items()):
        for model, data in sorted(entry["models"].items()):
            yield name, model, entry, data


def comparisons_of(report: Report) -> dict[tuple[str, str], Mapping[str, Any]]:
    return {
        (name, model): comparison
        for name, entry in report["benchmarks"].items()
        for model, comparison in (entry.get("comparison") or {}).items()
    }


def summary_table(report: Report) -> Table:
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
    for name, model, entry, data in model_entries(report):
        metrics: Mapping[str, Any] = data["metrics"]
        headline = headline_of(entry)
        components = ", ".join(f"{key} {fmt(metrics[key])}" for key in COMPONENTS if key in metrics)
        outcomes = [d.get("outcome") for d in data["documents"]]
        comparison = (entry.get("comparison") or {}).get(model, {})
        rows.append(
            [
                name,
                model,
                headline,
                fmt(metrics.get(headline)),
                components or "—",
                str(len(outcomes)),
                str(outcomes.count(PASSED)),
                str(outcomes.count(FAILED)),
                str(outcomes.count(ERROR)),
                verdict_text(comparison) if comparison else "—",
                fmt(comparison.get("delta")),
            ]
        )
    return header, rows


def metrics_table(entry: Mapping[str, Any]) -> Table:
    """One benchmark's metrics as rows and its models as columns, per field included."""
    models = sorted(entry["models"])
    per_model = {m: entry["models"][m]["metrics"] for m in models}
    fields = sorted(
        {f for metrics in per_model.values() for f in metrics.get("per_field_accuracy") or {}}
    )
    rows = [
        [key, *(fmt(per_model[m].get(key)) for m in models)]
        for key in (headline_of(entry), *COMPONENTS)
        if any(key in metrics for metrics in per_model.values())
    ]
    for key in OWN_METRICS:
        values = [per_model[m].get(key) for m in models]
        if all(v is None for v in values):
            continue
        if not any(isinstance(v, Mapping) for v in values):
            rows.append([key, *(fmt(v) for v in values)])
            continue
        parts = sorted({part for v in values if isinstance(v, Mapping) for part in v})
        rows += [
            [
                f"{key}.{part}",
                *(fmt(v.get(part) if isinstance(v, Mapping) else None) for v in values),
            ]
            for part in parts
        ]
    rows += [
        [
            f"per_field_accuracy.{field}",
            *(fmt((per_model[m].get("per_field_accuracy") or {}).get(field)) for m in models),
        ]
        for field in fields
    ]
    return ["metric", *models], rows


def paired_sections(
    name: str, entry: Mapping[str, Any], registry: Registry
) -> list[tuple[str, Table]]:
    """The benchmark's own tables of its model pairs (`BenchmarkPlugin.paired_tables`)."""
    benchmark = registry.get(name)
    if benchmark is None:
        return []
    return [
        (f"{name} {label}: {title}", (header, rows))
        for label, paired in sorted((entry.get("paired") or {}).items())
        for title, header, rows in benchmark.paired_tables(paired)
    ]


def pairs_table(report: Report) -> Table | None:
    """Every model pair of every benchmark, B minus A on the headline, with its paired CI."""
    rows = []
    for name, entry in sorted(report["benchmarks"].items()):
        headline = headline_of(entry)
        for label, paired in sorted((entry.get("paired") or {}).items()):
            cases = paired.get("cases") or {}
            rows.append(
                [
                    name,
                    label,
                    headline,
                    fmt(paired.get(f"baseline_{headline}")),
                    fmt(paired.get(f"candidate_{headline}")),
                    _signed(paired.get("delta")),
                    _ci(cases),
                    str(cases.get("n", "—")),
                    verdict_text(
                        {
                            "verdict": paired.get("verdict", "—"),
                            "paired": cases,
                            **{k: cases.get(k) for k in ("significant", "p_holm", "mde")},
                        }
                    ),
                ]
            )
    header = ["benchmark", "B-vs-A", "headline", "A", "B", "B − A", "95% CI", "cases", "verdict"]
    return (header, rows) if rows else None


def _general(value: Any) -> str:
    return f"{value:g}" if isinstance(value, (int, float)) else fmt(value)


def _signed(value: Any) -> str:
    return f"{value:+.4f}" if isinstance(value, float) else fmt(value)


def threshold_table(thresholds: list[Mapping[str, Any]]) -> Table:
    header = ["threshold", "model", "actual", "result"]
    rows = [
        [
            f"{t.get('benchmark')}:{t.get('metric')} {t.get('op')} {_general(t.get('value'))}",
            str(t.get("model")),
            fmt(t.get("actual")),
            "pass"
            if t.get("passed")
            else ("FAIL" if t.get("actual") is not None else "FAIL no such metric"),
        ]
        for t in thresholds
    ]
    return header, rows


def flaky_table(report: Report) -> Table | None:
    """Cases whose repeated samples disagree, per benchmark x model."""
    rows = [
        [name, model, str(f["id"]), str(f["case"]), f"{f['passed']} of {f['n']}"]
        for name, model, _, data in model_entries(report)
        for f in data.get("flaky") or ()
    ]
    return (["benchmark", "model", "case", "file", "samples passed"], rows) if rows else None


Comparisons = Mapping[tuple[str, str], Mapping[str, Any]]


def _ci(paired: Mapping[str, Any]) -> str:
    ci = paired.get("ci95")
    return "—" if not ci else f"[{ci[0]:+.4f}, {ci[1]:+.4f}]"


def comparison_table(comparisons: Comparisons, headlines: Mapping[str, str]) -> Table | None:
    """One row per benchmark x model compared with the baseline."""
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
        headline = headlines.get(name, "accuracy")
        paired = c.get("paired") or {}
        rows.append(
            [
                name,
                model,
                verdict_text(c),
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


def _short(value: float) -> str:
    """Two significant digits: p 0.25, drops of 0.15."""
    return f"{value:.2g}"


def _reach(c: Mapping[str, Any], verdict: str) -> str:
    """What this suite can see: the smallest change it detects, or why it cannot say."""
    n = (c.get("paired") or {}).get("n", 0)
    mde = c.get("mde")
    if isinstance(n, int) and n < MIN_SIGNIFICANT_CASES:
        return f"under {MIN_SIGNIFICANT_CASES} paired cases ({n}) can never be significant"
    if not is_number(mde):
        return str(c.get("mde_note") or "no detectable change could be estimated")
    if mde == 0:  # every delta alike: usually no case moved at all
        moved = (c.get("paired") or {}).get("mean_delta")
        return "no paired case changed" if moved == 0 else "the deltas show no spread"
    direction = "gains" if verdict == "improved" else "drops"
    return f"this suite detects {direction} of {_short(mde)} or more"


def verdict_text(c: Mapping[str, Any]) -> str:
    """The verdict, and beside one that is not significant the words "not
    significant", its p (Holm) and what the suite can detect, so a neutral verdict
    is not read as proof that nothing changed."""
    verdict = str(c.get("verdict", "—"))
    p_holm = c.get("p_holm")
    if c.get("significant") is not False or verdict == "stale" or not is_number(p_holm):
        return verdict
    return f"{verdict} (not significant, p {_short(p_holm)}; {_reach(c, verdict)})"


def honest_line(c: Mapping[str, Any]) -> str:
    """The sign-flip p, McNemar, Holm, MDE and the clustered interval of one
    comparison, in one line."""
    test = c.get("mcnemar") or {}
    parts = [
        f"sign-flip p={fmt((c.get('paired') or {}).get('p_value'))}",
        f"McNemar b={test.get('b', '—')} (passed→failed), c={test.get('c', '—')} "
        f"(failed→passed), p={fmt(test.get('p_value'))}",
        f"Holm-adjusted p={fmt(c.get('p_holm'))}",
        f"MDE={fmt(c.get('mde'))}" + (f" ({c['mde_note']})" if c.get("mde_note") else ""),
    ]
    robust = c.get("clustered")
    if isinstance(robust, Mapping):
        error = (
            f"se={fmt(robust.get('se'))}, 95% CI {_ci(robust)}"
            if robust.get("se") is not None
            else str(robust.get("note") or "no clustered error")
        )
        parts.append(f"clustered over {robust.get('n_clusters')} clusters: {error}")
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
