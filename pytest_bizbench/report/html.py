"""A report as one self-contained HTML page (SPEC §12): inline CSS and SVG, no scripts.

Nothing is fetched, so the page opens from `file://`, from a CI artifact or an
e-mail attachment alike; charts are plain SVG, so there is no JavaScript to fail.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pytest_bizbench.escape import html_text
from pytest_bizbench.figures import fmt_number as _num
from pytest_bizbench.report.tables import detectability, honest_line

PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1", "#9c755f")
VERDICT_CLASS = {
    "improved": "good",
    "regressed": "bad",
    "stale": "warn",
    "inconclusive": "warn",
    "neutral": "muted",
}
BAR_WIDTH = 360  # pixels of a score of 1.0
LABEL_WIDTH = 220

STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;
max-width:1100px;padding:24px;color:#1f2328;background:#fff}
h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;margin:32px 0 4px;border-bottom:1px solid
#d0d7de;padding-bottom:4px}h2 small{color:#59636e;font-weight:normal;font-size:14px}
h3{font-size:15px;margin:18px 0 6px}p.meta{color:#59636e;margin:0 0 12px}
table{border-collapse:collapse;margin:6px 0 12px;font-variant-numeric:tabular-nums}
th,td{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.num{text-align:right}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-weight:600;color:#fff}
.good{background:#1a7f37}.bad{background:#cf222e}.warn{background:#9a6700}
.muted{background:#6e7781}ul.reasons li{color:#cf222e}details{margin:8px 0}
summary{cursor:pointer;color:#0969da}svg text{font:12px system-ui,sans-serif;fill:#1f2328}
.legend span{display:inline-block;margin-right:14px}.legend i{display:inline-block;width:10px;
height:10px;margin-right:4px;border-radius:2px}
"""


_e = html_text


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], numeric: set[int]) -> str:
    """Cells are HTML already (callers escape); `numeric` columns are right-aligned."""
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="num">{cell}</td>' if i in numeric else f"<td>{cell}</td>"
            for i, cell in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _badge(text: str, css: str | None = None) -> str:
    """A coloured word; verdicts pick their own colour."""
    return f'<span class="badge {css or VERDICT_CLASS.get(text, "muted")}">{_e(text)}</span>'


def _legend(models: Sequence[str]) -> str:
    items = "".join(
        f'<span><i style="background:{PALETTE[i % len(PALETTE)]}"></i>{_e(m)}</span>'
        for i, m in enumerate(models)
    )
    return f'<p class="legend">{items}</p>'


def field_bars(per_model: Mapping[str, Mapping[str, Any]]) -> str:
    """Per-field accuracy, one bar per model under each field name, as inline SVG."""
    models = list(per_model)
    fields = sorted({f for metrics in per_model.values() for f in metrics})
    if not fields:
        return ""
    row = 14 * len(models) + 8
    height = row * len(fields) + 4
    width = LABEL_WIDTH + BAR_WIDTH + 60
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'role="img" aria-label="per-field accuracy">'
    ]
    for i, name in enumerate(fields):
        top = i * row + 2
        label = name if len(name) <= 32 else name[:31] + "…"
        parts.append(f'<text x="0" y="{top + row / 2 + 4:.1f}">{_e(label)}</text>')
        for j, model in enumerate(models):
            value = per_model[model].get(name)
            y = top + j * 14
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                w = max(0.0, min(1.0, float(value))) * BAR_WIDTH
                colour = PALETTE[j % len(PALETTE)]
                parts.append(
                    f'<rect x="{LABEL_WIDTH}" y="{y}" width="{w:.1f}" height="11" '
                    f'fill="{colour}"><title>{_e(model)}: {_num(value)}</title></rect>'
                    f'<text x="{LABEL_WIDTH + w + 4:.1f}" y="{y + 10}">{_num(value, ".2f")}</text>'
                )
    parts.append("</svg>")
    return _legend(models) + "".join(parts)


def delta_histogram(bins: Sequence[Mapping[str, Any]]) -> str:
    """Paired per-case deltas as bars: red below zero, grey at zero, green above."""
    if not bins:
        return ""
    peak = max(int(b.get("count") or 0) for b in bins) or 1
    bar, gap, plot, top = 22, 3, 120, 18  # `top` leaves room for the tallest count
    width = len(bins) * (bar + gap) + 40
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{top + plot + 30}" '
        'role="img" aria-label="paired per-case deltas">'
    ]
    for i, b in enumerate(bins):
        count = int(b.get("count") or 0)
        lo, hi = b.get("range") or (0.0, 0.0)
        colour = "#6e7781" if lo == hi == 0.0 else ("#cf222e" if hi <= 0.0 else "#1a7f37")
        h = count / peak * plot
        x = 20 + i * (bar + gap)
        label = "0" if lo == hi else f"{lo:+.1f}..{hi:+.1f}"
        parts.append(
            f'<rect x="{x}" y="{top + plot - h:.1f}" width="{bar}" height="{h:.1f}" '
            f'fill="{colour}"><title>{_e(label)}: {count} cases</title></rect>'
        )
        if count:
            parts.append(f'<text x="{x + 2}" y="{top + plot - h - 4:.1f}">{count}</text>')
    for i, tick in ((0, "-1"), (5, "-0.5"), (10, "0"), (15, "+0.5"), (20, "+1")):
        x = 20 + i * (bar + gap) + 4
        parts.append(f'<text x="{x}" y="{top + plot + 18}">{tick}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _model_table(entry: Mapping[str, Any], headline: str) -> str:
    comparisons = entry.get("comparison") or {}
    header = ["model", headline, "documents", "passed", "failed", "errors"]
    if comparisons:
        header += ["baseline", "delta", "verdict"]
    rows = []
    for model, data in entry["models"].items():
        outcomes = [d.get("outcome") for d in data["documents"]]
        row = [
            _e(model),
            _num(data["metrics"].get(headline)),
            str(len(outcomes)),
            str(outcomes.count("passed")),
            str(outcomes.count("failed")),
            str(outcomes.count("error")),
        ]
        if comparisons:
            c = comparisons.get(model)
            row += (
                [
                    _num(c.get(f"baseline_{headline}")),
                    _num(c.get("delta"), "+.4f"),
                    _badge(c["verdict"]),
                ]
                if c
                else ["—", "—", "—"]
            )
        rows.append(row)
    return _table(header, rows, {1, 2, 3, 4, 5, 6, 7})


def _comparison(model: str, c: Mapping[str, Any]) -> str:
    paired = c.get("paired") or {}
    ci = paired.get("ci95")
    ci_text = f"[{ci[0]:+.4f}, {ci[1]:+.4f}]" if ci else "—"
    out = [
        f"<h3>{_e(model)} against the baseline {_badge(str(c.get('verdict')))}</h3>",
        f'<p class="meta">paired over {_e(paired.get("n", 0))} cases: mean delta '
        f"{_num(paired.get('mean_delta'), '+.4f')}, 95% CI {_e(ci_text)} "
        f"(bootstrap, seed {_e(paired.get('seed', '—'))}); new "
        f"{len(c.get('new_cases') or ())}, removed {len(c.get('removed_cases') or ())}, "
        f"changed {len(c.get('stale_cases') or ())}</p>",
    ]
    out.append(f'<p class="meta">{_e(honest_line(c))}</p>')
    if c.get("message"):
        out.append(f"<p>{_e(c['message'])}</p>")
    detect = detectability(c)
    if detect:
        out.append(f"<p>{_e(detect)}</p>")
    histogram = delta_histogram(paired.get("histogram") or ())
    if histogram:
        out += ['<p class="meta">per-case delta, candidate minus baseline:</p>', histogram]
    worst = c.get("worst") or ()
    if worst:
        rows = [
            [
                _e(w["id"]),
                _e(w["case"]),
                _num(w["baseline"]),
                _num(w["candidate"]),
                _num(w["delta"], "+.4f"),
                _e(
                    ", ".join(
                        f"{f} {_num(ch.get('baseline'), '.2f')}→{_num(ch.get('candidate'), '.2f')}"
                        for f, ch in (w.get("fields") or {}).items()
                    )
                ),
            ]
            for w in worst
        ]
        out.append("<h3>Worst-regressed cases</h3>")
        out.append(
            _table(["id", "case", "baseline", "candidate", "delta", "fields"], rows, {2, 3, 4})
        )
    return "".join(out)


def _flaky(model: str, flaky: Sequence[Mapping[str, Any]]) -> str:
    rows = [[_e(f["id"]), _e(f["case"]), _e(f"{f['passed']} of {f['n']}")] for f in flaky]
    table = _table(["id", "case", "samples passed"], rows, set())
    return f"<h3>{_e(model)}: flaky cases ({len(rows)})</h3>{table}"


def _documents(model: str, documents: Sequence[Mapping[str, Any]]) -> str:
    rows = [
        [
            _e(d["id"]),
            _e(d["case"]),
            _num(d.get("score")),
            _e(d.get("outcome")),
            _e(d.get("message", "")),
        ]
        for d in documents
    ]
    table = _table(["id", "case", "score", "outcome", "message"], rows, {2})
    return f"<details><summary>{_e(model)}: {len(rows)} documents</summary>{table}</details>"


def _benchmark(name: str, entry: Mapping[str, Any]) -> str:
    headline = str(entry.get("headline_metric") or "accuracy")
    models = entry["models"]
    per_field = {m: data["metrics"].get("per_field_accuracy") or {} for m, data in models.items()}
    parts = [
        f"<section><h2>{_e(name)} <small>version {_e(entry.get('version', ''))}</small></h2>",
        f'<p class="meta">{_e(entry.get("description", ""))}</p>',
        _model_table(entry, headline),
    ]
    bars = field_bars(per_field)
    if bars:
        parts += ["<h3>Per-field accuracy</h3>", bars]
    for model, c in (entry.get("comparison") or {}).items():
        parts.append(_comparison(model, c))
    parts += [_flaky(model, data["flaky"]) for model, data in models.items() if data.get("flaky")]
    parts += [_documents(model, data["documents"]) for model, data in models.items()]
    parts.append("</section>")
    return "".join(parts)


def _thresholds(thresholds: Sequence[Mapping[str, Any]]) -> str:
    if not thresholds:
        return ""
    rows = [
        [
            _e(f"{t.get('benchmark')}:{t.get('metric')} {t.get('op')} {t.get('value')}"),
            _e(t.get("model")),
            _num(t.get("actual")),
            _badge("pass", "good") if t.get("passed") else _badge("FAIL", "bad"),
        ]
        for t in thresholds
    ]
    return "<h2>Thresholds</h2>" + _table(["threshold", "model", "actual", "result"], rows, {2})


def render_html(report: Mapping[str, Any]) -> str:
    gate = report.get("gate") or {}
    passed = bool(gate.get("passed"))
    completeness = report.get("completeness") or {}
    run = report.get("run") or {}
    tool = report.get("tool") or {}
    reasons = "".join(f"<li>{_e(r)}</li>" for r in gate.get("reasons") or ())
    verdict = _badge("gate passed", "good") if passed else _badge("gate FAILED", "bad")
    body = [
        f"<h1>bizbench report {verdict}</h1>",
        f'<p class="meta">{_e(tool.get("name", ""))} {_e(tool.get("version", ""))} · started '
        f"{_e(run.get('started_at', '—'))} · {_e(completeness.get('collected', 0))} items "
        f"collected, {_e(completeness.get('scored', 0))} scored, "
        f"{len(completeness.get('errors') or ())} errors, "
        f"{len(completeness.get('missing') or ())} missing predictions</p>",
        f'<ul class="reasons">{reasons}</ul>' if reasons else "",
        "".join(f'<p class="meta">{_e(n)}</p>' for n in completeness.get("notes") or ()),
        *(_benchmark(name, entry) for name, entry in sorted(report["benchmarks"].items())),
        _thresholds(report.get("thresholds") or ()),
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>bizbench report</title><style>{STYLE}</style></head>"
        f"<body>{''.join(body)}</body></html>\n"
    )
