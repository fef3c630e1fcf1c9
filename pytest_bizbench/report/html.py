"""A report as one self-contained HTML page: inline CSS and SVG, no scripts.

Nothing is fetched, so the page opens from `file://`, from a CI artifact or an
e-mail attachment alike; charts are plain SVG, so there is no JavaScript to fail.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from pytest_bizbench.io.escape import html_text
from pytest_bizbench.maths.figures import fmt_number as _num
from pytest_bizbench.maths.figures import is_number
from pytest_bizbench.report.model import Report
from pytest_bizbench.report.view import Block, Chart, Detail, report_view

PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1", "#9c755f")
VERDICT_CLASS = {
    "improved": "good",
    "regressed": "bad",
    "stale": "warn",
    "inconclusive": "warn",
    "neutral": "muted",
}
RESULT_CLASS = {"pass": "good", "FAIL": "bad"}
NUMBER = re.compile(r"[+-]?\d+(\.\d+)?%?|—")
BAR_WIDTH = 360  # pixels of a score of 1.0
LABEL_WIDTH = 220

STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;
padding:16px 24px;color:#1f2328;background:#fff}div.wide{overflow-x:auto}
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
            if is_number(value):
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


def cumulative_best(curves: Sequence[tuple[str, Sequence[float]]]) -> str:
    """Each trajectory's best score so far, one line per trajectory, as inline SVG."""
    if not curves:
        return ""
    values = [v for _, vs in curves for v in vs]
    low, high = min(values), max(values)
    # halved, so two far ends (±1e308) still have a finite distance
    span = (high / 2 - low / 2) or 1.0
    steps = max(len(vs) for _, vs in curves) - 1 or 1
    left, top, plot_w, plot_h = 64, 10, 480, 180
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + plot_w + 20}" '
        f'height="{top + plot_h + 34}" role="img" aria-label="cumulative best per trajectory">',
        f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" '
        'stroke="#d0d7de"/>',
        f'<text x="0" y="{top + 4}">{_num(high, ".4g")}</text>',
        f'<text x="0" y="{top + plot_h + 4}">{_num(low, ".4g")}</text>',
        f'<text x="{left}" y="{top + plot_h + 18}">0</text>',
        f'<text x="{left + plot_w - 30}" y="{top + plot_h + 18}">{steps}</text>',
        f'<text x="{left + plot_w / 2 - 24:.1f}" y="{top + plot_h + 30}">iteration</text>',
    ]
    for i, (name, vs) in enumerate(curves):
        colour = PALETTE[i % len(PALETTE)]
        points = [
            (left + j / steps * plot_w, top + (high / 2 - v / 2) / span * plot_h)
            for j, v in enumerate(vs)
        ]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        x, y = points[-1]
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{path}">'
            f"<title>{_e(name)}: best {_num(vs[-1], '.4g')}</title></polyline>"
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}"/>'
        )
    parts.append("</svg>")
    return _legend([name for name, _ in curves]) + "".join(parts)


def _cell(column: str, text: str) -> str:
    word, _, rest = text.partition(" ")
    if column in ("verdict", "result") and word in (*VERDICT_CLASS, *RESULT_CLASS):
        after = f" {_e(rest)}" if rest else ""
        return f"<td>{_badge(word, RESULT_CLASS.get(word))}{after}</td>"
    css = ' class="num"' if NUMBER.fullmatch(text) else ""
    return f"<td{css}>{_e(text)}</td>"


def _table(block: Block) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in block.header)
    body = "".join(
        "<tr>" + "".join(_cell(h, c) for h, c in zip(block.header, row, strict=True)) + "</tr>"
        for row in block.rows
    )
    table = f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    return f'<div class="wide">{table}</div>'


def _chart(chart: Chart) -> str:
    if chart.kind == "field_bars":
        return field_bars(chart.data)
    if chart.kind == "cumulative_best":
        return cumulative_best(chart.data)
    return '<p class="meta">per-case delta, candidate minus baseline:</p>' + delta_histogram(
        chart.data
    )


def _block(block: Block) -> str:
    title = f"<h3>{_e(block.title)}</h3>" if block.title and not block.folded else ""
    parts = [_chart(block.chart)] if block.chart is not None else []
    if block.header:
        parts.append(_table(block))
    parts += [f'<p class="meta">{_e(line)}</p>' for line in block.lines]
    if block.folded:
        return f"<details><summary>{_e(block.title)}</summary>{''.join(parts)}</details>"
    return title + "".join(parts)


def render_html(report: Report) -> str:
    view = report_view(report)
    verdict = _badge("gate passed", "good") if view.passed else _badge("gate FAILED", "bad")
    body = [f"<h1>bizbench report {verdict}</h1>"]
    for section, blocks in view.at(Detail.PAGE):
        if section.key == "gate":
            reasons = "".join(f"<li>{_e(r)}</li>" for block in blocks for r in block.lines)
            body.append(f'<ul class="reasons">{reasons}</ul>' if reasons else "")
            continue
        inner = "".join(_block(block) for block in blocks)
        body.append(
            f'<section id="{_e(section.key)}"><h2>{_e(section.title)}</h2>{inner}</section>'
        )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>bizbench report</title><style>{STYLE}</style></head>"
        f"<body>{''.join(body)}</body></html>\n"
    )
