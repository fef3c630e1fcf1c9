"""The report's tables, as rows of text, read from the `Report` every view shares."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pytest_bizbench.maths.figures import is_number
from pytest_bizbench.maths.stats import MIN_SIGNIFICANT_CASES
from pytest_bizbench.report.model import BenchmarkEntry, Report
from pytest_bizbench.report.records import FAILED, PASSED, ThresholdResult
from pytest_bizbench.run.payload import ERROR
from pytest_bizbench.scoring.passk import is_sample_metric
from pytest_bizbench.sdk import SCORE_SUMMARY

Table = tuple[list[str], list[list[str]]]
# rows of one model pair's table kept in the terminal and the step summary; the
# page shows every row
PAIR_ROWS = 20


def fmt(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return "—" if value is None else str(value).lower()
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def components(metrics: Mapping[str, Any], headline: str) -> list[str]:
    """The metrics shown beside the headline: the benchmark's own rates, which are
    every fractional metric but the headline and the score summary and sample
    statistics every benchmark gets."""
    return [
        key
        for key, value in sorted(metrics.items())
        if key != headline
        and isinstance(value, float)
        and key not in SCORE_SUMMARY
        and not is_sample_metric(key)
    ]


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
    for name, model, entry, data in report.entries():
        metrics = data.metrics
        headline = entry.headline
        shown = ", ".join(f"{key} {fmt(metrics[key])}" for key in components(metrics, headline))
        outcomes = [d.outcome for d in data.documents.sources]
        comparison = entry.comparison.get(model, {})
        rows.append(
            [
                name,
                model,
                headline,
                fmt(metrics.get(headline)),
                shown or "—",
                str(len(outcomes)),
                str(outcomes.count(PASSED)),
                str(outcomes.count(FAILED)),
                str(outcomes.count(ERROR)),
                verdict_text(comparison) if comparison else "—",
                fmt(comparison.get("delta")),
            ]
        )
    return header, rows


def metrics_table(entry: BenchmarkEntry) -> Table:
    """One benchmark's metrics as rows and its models as columns: the headline first,
    then every metric by name, an object's entries each as a row `metric.key`."""
    models = sorted(entry.models)
    per_model = {m: entry.models[m].metrics for m in models}
    names = sorted({key for metrics in per_model.values() for key in metrics} - {entry.headline})
    rows = [[entry.headline, *(fmt(per_model[m].get(entry.headline)) for m in models)]]
    for key in names:
        values = [per_model[m].get(key) for m in models]
        if not any(isinstance(v, Mapping) for v in values) or all(map(_is_slice, values)):
            rows.append([key, *(_cell(v) for v in values)])
            continue
        parts = sorted({str(part) for v in values for part in _mapping(v)})
        rows += [
            [f"{key}.{part}", *(_cell(_mapping(v).get(part)) for v in values)] for part in parts
        ]
    return ["metric", *models], rows


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _is_slice(value: Any) -> bool:
    """A rule's or a group's accuracy and count, shown as one cell."""
    return isinstance(value, Mapping) and set(value) == {"accuracy", "count"}


def _cell(value: Any) -> str:
    """One value of a metric's object: a slice's accuracy and count as `0.8222 (n 15)`,
    an object as `f1 0.9000, tp 9` (keys by name, so a run and its saved report read
    alike), else the value."""
    if not isinstance(value, Mapping):
        return fmt(value)
    if _is_slice(value):
        return f"{fmt(value.get('accuracy'))} (n {value.get('count', '—')})"
    return ", ".join(f"{k} {_cell(v)}" for k, v in sorted(value.items()))


def pair_tables(name: str, entry: BenchmarkEntry, rows_kept: int | None) -> list[tuple[str, Table]]:
    """Each model pair's objects of rows as tables: whatever `compare_models()` returns
    as `{key: {row: {column: value}}}` (per group, per requirement, per task) is one
    table, rows with a delta worst first. `rows_kept` cuts each table, saying how many
    rows it left out; None keeps all."""
    tables = []
    for label, paired in sorted(entry.paired.items()):
        models = _mapping(paired.get("models"))
        names = ", ".join(f"{k} = {v}" for k, v in sorted(models.items()) if isinstance(v, str))
        for key, value in sorted(paired.items()):
            rows_of = _mapping(value)
            if not rows_of or not all(isinstance(row, Mapping) for row in rows_of.values()):
                continue
            columns = sorted({str(c) for row in rows_of.values() for c in row})
            delta = next((c for c in columns if c.startswith("delta")), None)
            order = sorted(rows_of, key=lambda r: (_worst_first(rows_of[r], delta), str(r)))
            rows = [[str(r), *(_cell(rows_of[r].get(c)) for c in columns)] for r in order]
            if rows_kept is not None and len(rows) > rows_kept:
                left = len(rows) - rows_kept
                rows = [*rows[:rows_kept], [f"… {left} more", *[""] * len(columns)]]
            title = f"{name} {label}: by {key}" + (f" ({names})" if names else "")
            tables.append((title, ([key, *columns], rows)))
    return tables


def _worst_first(row: Mapping[str, Any], delta: str | None) -> float:
    value = row.get(delta) if delta is not None else None
    return float(value) if is_number(value) else 0.0


def pairs_table(report: Report) -> Table | None:
    """Every model pair of every benchmark, B minus A on the headline, with its paired CI."""
    rows = []
    for name, entry in sorted(report.benchmarks.items()):
        headline = entry.headline
        for label, paired in sorted(entry.paired.items()):
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


def threshold_table(thresholds: Sequence[ThresholdResult]) -> Table:
    header = ["threshold", "model", "actual", "result"]
    rows = [
        [
            f"{t.threshold.benchmark}:{t.threshold.metric} {t.threshold.op} "
            f"{_general(t.threshold.value)}",
            t.model,
            fmt(t.actual),
            "pass" if t.passed else ("FAIL" if t.actual is not None else "FAIL, no value"),
        ]
        for t in thresholds
    ]
    return header, rows


def threshold_cases_table(threshold: ThresholdResult) -> Table | None:
    """The cases a failed threshold names (`gate.explain`): for a refusal rate each
    refused answer's class and text; else each case's score, and for a per-field
    metric the field's expected and actual values and rung."""
    cases = threshold.cases
    if not cases:
        return None
    if any(c.refusal_class is not None for c in cases):
        header = ["id", "file", "class", "answer"]
        rows = [[c.id, c.case, str(c.refusal_class), str(c.actual)] for c in cases]
        return header, rows
    if any(c.field is not None for c in cases):
        header = ["id", "file", "field", "expected", "actual", "rung score"]
        rows = [
            [
                c.id,
                c.case,
                str(c.field),
                repr(c.expected),
                repr(c.actual),
                f"{c.rung} {fmt(c.score)}",
            ]
            for c in cases
        ]
        return header, rows
    return ["id", "file", "score"], [[c.id, c.case, fmt(c.score)] for c in cases]


def flaky_table(report: Report) -> Table | None:
    """Cases whose repeated samples disagree, per benchmark x model."""
    rows = [
        [name, model, str(f["id"]), str(f["case"]), f"{f['passed']} of {f['n']}"]
        for name, model, _, data in report.entries()
        for f in data.flaky
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
    return f"{round(float(value) * 100, 1):g}"


def detectability(c: Mapping[str, Any]) -> str | None:
    """One sentence when the suite is too small to see a regression of the size the
    benchmark's threshold calls one, so a neutral verdict is not read as proof."""
    mde, threshold = c.get("mde"), c.get("regression_threshold")
    if not isinstance(mde, (int, float)) or not isinstance(threshold, (int, float)):
        return None
    if mde <= threshold:
        return None
    if mde > 1:  # more than a score's whole range: say so rather than "352.1 points"
        return (
            f"this suite cannot detect a change of any size: the smallest it could, "
            f"{_short(mde)}, is more than the whole score range; "
            f"REGRESSION_THRESHOLD is {_points(threshold)} points"
        )
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
