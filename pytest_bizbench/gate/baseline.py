"""Regression comparison against a baseline report, and when a run may become one.

Both sides of a comparison are read as report data (the baseline from its file,
the candidate from the run or from a second file), so a run with
`--bizbench-baseline` and `bizbench compare` judge the same way.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import pytest

from pytest_bizbench.details import FieldChange, FieldEntry, field_entries
from pytest_bizbench.maths.figures import fmt_number, is_number, plural
from pytest_bizbench.maths.stats import (
    ALPHA,
    MIN_SIGNIFICANT_CASES,
    Clustered,
    clustered,
    histogram,
    holm,
    mcnemar,
    mde,
    paired_deltas,
)
from pytest_bizbench.options.settings import BaselineOptions
from pytest_bizbench.options.thresholds import did_you_mean
from pytest_bizbench.report.json_report import write_report
from pytest_bizbench.report.model import BenchmarkEntry, Report
from pytest_bizbench.report.reader import ReportError, read_report
from pytest_bizbench.report.records import PASSED, Completeness, ReportDocument
from pytest_bizbench.report.stream import Documents
from pytest_bizbench.run.registry import Registry, fingerprint
from pytest_bizbench.run.usercode import UserCodeError, checked
from pytest_bizbench.sdk import BenchmarkPlugin, compare_headlines

IMPROVED, NEUTRAL, REGRESSED, STALE = "improved", "neutral", "regressed", "stale"
INCONCLUSIVE = "inconclusive"
VERDICTS = (IMPROVED, NEUTRAL, REGRESSED, STALE, INCONCLUSIVE)
REBASELINE = (
    "re-baseline: run the whole suite with --bizbench-save-baseline PATH, review the "
    "diff of PATH and commit it"
)
CaseKey = tuple[str, str]  # (case file, id): ids are unique within a file only
MAX_MEASURE = 1e150  # a paired value's bound: a delta's square stays a float


def load_baseline(options: BaselineOptions) -> Report | None:
    """The baseline report, or None when none is configured.

    A baseline that does not exist yet is fine while saving one (the first run of
    a new suite); otherwise an unreadable baseline is a usage error.
    """
    path = options.path
    if path is None or (options.save_path is not None and not path.exists()):
        return None
    try:
        report = read_report(path)
    except ReportError as exc:
        hint = "" if path.exists() else " (create it with --bizbench-save-baseline PATH)"
        raise pytest.UsageError(f"--bizbench-baseline: {exc}{hint}") from None
    check_baseline_models(options, report)
    return report


def check_baseline_models(options: BaselineOptions, report: Report) -> None:
    """A `NEW=OLD` pairing whose OLD the baseline does not hold compares nothing:
    a usage error naming the baseline's models, before anything runs."""
    known = report.model_names()
    for new, old in options.models:
        if old not in known:
            raise pytest.UsageError(
                f"--bizbench-baseline-model {new}={old}: the baseline has no model {old!r}"
                f"{did_you_mean(old, known)} (its models: {', '.join(known) or 'none'})"
            )


@dataclass(frozen=True, slots=True)
class Side:
    """One benchmark x model of one report: identity, metrics and documents."""

    version: str
    fingerprint: str
    metrics: Mapping[str, Any]
    documents: Sequence[Mapping[str, Any]]
    config: Mapping[str, Any] = field(default_factory=dict)  # the scoring config

    @classmethod
    def from_report(cls, report: Report, name: str, model: str) -> Side | None:
        entry = report.benchmarks.get(name)
        data = entry.models.get(model) if entry else None
        if entry is None or data is None:
            return None
        return cls(entry.version, entry.fingerprint, data.metrics, data.documents, entry.config)


@dataclass(frozen=True, slots=True)
class Judge:
    """What judges one benchmark's comparison: its `compare()` and the bounds the
    report shows beside it. A run's benchmark judges with its own `compare()`; a
    benchmark known only from a saved report with the default one and the bounds
    the report recorded."""

    name: str
    headline: str
    regression_threshold: float
    compare: Callable[[Mapping[str, Any], Mapping[str, Any]], Mapping[str, Any]]

    @classmethod
    def of(cls, benchmark: BenchmarkPlugin) -> Judge:
        def compare(base: Mapping[str, Any], cand: Mapping[str, Any]) -> Mapping[str, Any]:
            result: Mapping[str, Any] = checked(benchmark, "compare", base, cand)
            return result

        return cls(
            benchmark.name, benchmark.headline_metric, benchmark.REGRESSION_THRESHOLD, compare
        )

    @classmethod
    def recorded(cls, name: str, entry: BenchmarkEntry) -> Judge:
        regression = entry.regression_threshold
        improvement = entry.improvement_threshold
        bounds = (
            BenchmarkPlugin.REGRESSION_THRESHOLD if regression is None else regression,
            BenchmarkPlugin.IMPROVEMENT_THRESHOLD if improvement is None else improvement,
        )
        return cls(
            name, entry.headline, bounds[0], partial(compare_headlines, entry.headline, *bounds)
        )


def _field_scores(doc: Mapping[str, Any]) -> dict[str, FieldEntry]:
    return field_entries(doc.get("details") or {})


def _field_changes(base: Mapping[str, Any], cand: Mapping[str, Any]) -> dict[str, FieldChange]:
    """Per field whose score moved: both scores, the delta and both actual values."""
    before, after = _field_scores(base), _field_scores(cand)
    changes: dict[str, FieldChange] = {}
    for name in sorted(set(before) | set(after)):
        b = float(before[name]["score"]) if name in before else None
        c = float(after[name]["score"]) if name in after else None
        if b == c:
            continue
        change: FieldChange = {"baseline": b, "candidate": c, "delta": (c or 0.0) - (b or 0.0)}
        if name in before and "actual" in before[name]:
            change["baseline_actual"] = before[name]["actual"]
        if name in after and "actual" in after[name]:
            change["candidate_actual"] = after[name]["actual"]
        if name in after and "expected" in after[name]:
            change["expected"] = after[name]["expected"]
        changes[name] = change
    return dict(sorted(changes.items(), key=lambda kv: (kv[1]["delta"], kv[0])))


Pair = tuple[CaseKey, Mapping[str, Any], Mapping[str, Any]]  # key, baseline doc, candidate doc


def _group_deltas(
    pairs: Sequence[Pair], keys_of: Callable[[Mapping[str, Any]], Iterable[Any]]
) -> dict[str, dict[str, Any]]:
    """Mean baseline and candidate scores per key of the candidate document."""
    buckets: dict[str, list[tuple[float, float]]] = {}
    for _, base, cand in pairs:
        for key in keys_of(cand):
            buckets.setdefault(str(key), []).append((float(base["score"]), float(cand["score"])))
    out = {}
    for key, scores in sorted(buckets.items()):
        n = len(scores)
        b = math.fsum(s for s, _ in scores) / n
        c = math.fsum(s for _, s in scores) / n
        out[key] = {"n": n, "baseline": b, "candidate": c, "mean_delta": c - b}
    return out


def _case_list(keys: Iterable[CaseKey]) -> list[dict[str, str]]:
    return [{"case": case, "id": case_id} for case, case_id in sorted(keys)]


def _stale_message(name: str, base: Side, cand: Side) -> str | None:
    changed = []
    if base.version != cand.version:
        changed.append(f"version {base.version} -> {cand.version}")
    if base.fingerprint != cand.fingerprint:
        changed.append(f"scoring config fingerprint {base.fingerprint} -> {cand.fingerprint}")
    if not changed:
        return None
    return (
        f"benchmark {name!r} changed since the baseline ({'; '.join(changed)}), so its "
        f"scores are not comparable; {REBASELINE}"
    )


@dataclass(frozen=True, slots=True)
class Measure:
    """The value a comparison pairs per case: the score, or the numeric detail the
    benchmark's scoring config names (`paired_on`, a trajectory's `best`), signed by
    its `lower_is_better` so that a delta below 0 is always a loss."""

    detail: str | None = None
    sign: float = 1.0

    @classmethod
    def of(cls, config: Mapping[str, Any]) -> Measure:
        detail = config.get("paired_on")
        if not isinstance(detail, str):
            return cls()
        return cls(detail, -1.0 if config.get("lower_is_better") is True else 1.0)

    def value(self, doc: Mapping[str, Any]) -> float | None:
        """The case's value; None when it has none to pair, or one too large for the
        statistics (their squares must stay finite)."""
        if self.detail is None:
            found = doc["score"]
        else:
            details = doc.get("details")
            found = details.get(self.detail) if isinstance(details, Mapping) else None
        return float(found) if is_number(found) and abs(found) < MAX_MEASURE else None

    def both(self, base: Mapping[str, Any], cand: Mapping[str, Any]) -> bool:
        return self.value(base) is not None and self.value(cand) is not None

    def delta(self, pair: Pair) -> float:
        return self.sign * (float(self.value(pair[2]) or 0.0) - float(self.value(pair[1]) or 0.0))


def _worst(pairs: Sequence[Pair], count: int, measure: Measure) -> list[dict[str, Any]]:
    """The `count` cases that lost most, with the fields that moved."""
    losers = [p for p in pairs if measure.delta(p) < 0.0]
    # float noise must not split ties
    losers.sort(key=lambda p: (round(measure.delta(p), 12), p[0]))
    return [
        {
            "case": key[0],
            "id": key[1],
            "baseline": measure.value(b),
            "candidate": measure.value(c),
            "delta": measure.delta((key, b, c)),
            "fields": _field_changes(b, c),
        }
        for key, b, c in losers[:count]
    ]


def significant(comparison: Mapping[str, Any]) -> bool:
    """The change is beyond chance: the sign-flip p, Holm-adjusted over the run, is
    below ALPHA and, where cases are clustered, the clustered interval excludes 0
    (one cluster has no interval, so it is never significant)."""
    p_holm = comparison.get("p_holm")
    if not (isinstance(p_holm, (int, float)) and p_holm < ALPHA):  # NaN is no test
        return False
    robust = comparison.get("clustered")
    if robust is None:
        return True
    ci = robust.get("ci95")
    return ci is not None and (ci[0] > 0.0 or ci[1] < 0.0)


def _not_significant_because(comparison: Mapping[str, Any]) -> str:
    p_holm, paired = comparison["p_holm"], comparison["paired"]
    robust = comparison.get("clustered") or {}
    if p_holm >= ALPHA:
        few = paired["n"] < MIN_SIGNIFICANT_CASES
        never = f" (under {MIN_SIGNIFICANT_CASES} paired cases it never is)" if few else ""
        return f"its p (Holm) {p_holm:.4g} is not below {ALPHA:g}{never}"
    if robust.get("note"):
        return str(robust["note"])
    if robust and not comparison["significant"]:
        return f"its clustered 95% CI {_ci_text(robust.get('ci95'))} does not exclude 0"
    return f"the paired cases moved the other way (mean delta {paired['mean_delta']:+.4f})"


def settle(comparison: dict[str, Any], p_holm: float, options: BaselineOptions) -> None:
    """Record the Holm-adjusted p and whether the change is significant, and, with
    significance required, the final verdict: a regression that is not a
    significant drop is `inconclusive` (reported, not failing), an improvement that
    is not a significant gain is `neutral`."""
    comparison["p_holm"] = p_holm
    comparison["significant"] = comparison["paired"]["significant"] = significant(comparison)
    verdict = comparison["verdict"]
    if not options.require_significance or verdict not in (REGRESSED, IMPROVED):
        return
    down = comparison["paired"]["mean_delta"] < 0.0
    if comparison["significant"] and down == (verdict == REGRESSED):
        return
    final = INCONCLUSIVE if verdict == REGRESSED else NEUTRAL
    comparison["verdict"] = final
    comparison["message"] = (
        f"{verdict} on the headline, but not a significant "
        f"{'drop' if verdict == REGRESSED else 'gain'}: "
        f"{_not_significant_because(comparison)}, so the change may be noise: "
        f"{final} (--bizbench-require-significance)"
    )


def _cluster_of(doc: Mapping[str, Any]) -> Any:
    """The document's cluster: the ini `bizbench_cluster_by` field when the run had
    one (key `cluster`), else the benchmark's `group_by` key (`group`)."""
    return doc["cluster"] if "cluster" in doc else doc.get("group")


def _honest(pairs: Sequence[Pair], deltas: Sequence[float]) -> dict[str, Any]:
    """McNemar on pass/fail, the clustered error where documents carry a cluster,
    and the minimum detectable effect (with why it is missing, when it is)."""
    test = mcnemar((b.get("outcome") == PASSED, c.get("outcome") == PASSED) for _, b, c in pairs)
    keys = [_cluster_of(c) for _, _, c in pairs]
    robust: Clustered | None = None
    if any(key is not None for key in keys):
        robust = clustered(deltas, [str(key) for key in keys])
    detectable = mde(deltas, robust)
    out: dict[str, Any] = {"mcnemar": test.as_json(), "mde": detectable.mde}
    if detectable.note is not None:
        out["mde_note"] = detectable.note
    if robust is not None:
        out["clustered"] = robust.as_json()
    return out


def compare_sides(judge: Judge, base: Side, cand: Side, options: BaselineOptions) -> dict[str, Any]:
    """One comparison judged on its own (a family of one for Holm's adjustment)."""
    result = measure_sides(judge, base, cand, options)
    settle(result, result["paired"]["p_value"], options)
    return result


def measure_sides(judge: Judge, base: Side, cand: Side, options: BaselineOptions) -> dict[str, Any]:
    """The benchmark's `compare()` plus paired per-case deltas and their statistics, worst
    cases, case changes, group deltas and the stale verdict; significance waits for
    Holm's adjustment over the run (`settle`). Raises whatever `compare()` raises."""
    result = dict(judge.compare(base.metrics, cand.metrics))
    if result.get("verdict") not in (IMPROVED, NEUTRAL, REGRESSED):
        raise ValueError(f"compare() returned verdict {result.get('verdict')!r}")
    before, after = by_identity(base.documents, cand.documents)
    # in this run's (file, id) order: the statistics see the deltas in one order
    common = sorted(set(before) & set(after), key=lambda k: _where(after[k]))
    changed = {k for k in common if before[k].get("case_hash") != after[k].get("case_hash")}
    measure = Measure.of(cand.config)
    pairs: list[Pair] = [
        (_where(after[k]), before[k], after[k])
        for k in common
        if k not in changed and measure.both(before[k], after[k])
    ]
    deltas = [measure.delta(p) for p in pairs]
    stale = _stale_message(judge.name, base, cand)
    if not common and stale is None:  # nothing to pair: the headlines compare no cases
        result["verdict"], result["message"] = NEUTRAL, NOT_COMPARED
    result.update(
        _honest(pairs, deltas),
        paired={**paired_deltas(deltas).as_json(), "histogram": histogram(deltas)},
        worst=_worst(pairs, options.worst_cases, measure),
        new_cases=_case_list(_where(after[k]) for k in set(after) - set(before)),
        removed_cases=_case_list(_where(before[k]) for k in set(before) - set(after)),
        stale_cases=_case_list(_where(after[k]) for k in changed),
        groups={
            "group": _group_deltas(pairs, lambda d: () if d.get("group") is None else [d["group"]]),
            "label": _group_deltas(pairs, lambda d: d.get("labels") or ()),
        },
        verdict=result["verdict"] if stale is None else STALE,
        significance_required=options.require_significance,
        # so a reader can tell whether the suite could detect a regression at all
        regression_threshold=judge.regression_threshold,
    )
    if stale is not None:
        result["message"] = stale
    elif not common:  # no delta at all, never one of +0.0000: the two headlines score
        result["delta"] = None  # different cases, and no case moved
        result["paired"]["mean_delta"] = None
    flipped = _flipped(pairs, measure)
    if flipped and result["verdict"] == REGRESSED:  # what a reader of a regression reads first
        result["flipped"] = flipped[: options.worst_cases]
    return result


def _flipped(pairs: Sequence[Pair], measure: Measure) -> list[dict[str, Any]]:
    """The paired cases that passed in the baseline and fail now, in file and id order."""
    return [
        {"case": key[0], "id": key[1], "baseline": measure.value(b), "candidate": measure.value(c)}
        for key, b, c in pairs
        if b.get("outcome") == PASSED and c.get("outcome") != PASSED
    ]


NOT_COMPARED = "not compared: no case of this run is in the baseline"

#: a case's identity in a comparison: its id, with its file only where two files
#: of one side give the same id
Identity = tuple[str, str]


def _where(doc: Mapping[str, Any]) -> CaseKey:
    return str(doc["case"]), str(doc["id"])


def by_identity(
    before: Iterable[Mapping[str, Any]], after: Iterable[Mapping[str, Any]]
) -> tuple[dict[Identity, Mapping[str, Any]], dict[Identity, Mapping[str, Any]]]:
    """Both sides' documents keyed by case id, so a case file moved or renamed
    since the baseline still pairs; by (file, id) where an id is not unique on a side."""
    sides = [list(before), list(after)]
    counts = [Counter(str(d["id"]) for d in docs) for docs in sides]
    repeated = {case_id for count in counts for case_id, n in count.items() if n > 1}

    def identity(doc: Mapping[str, Any]) -> Identity:
        case_id = str(doc["id"])
        return (str(doc["case"]) if case_id in repeated else "", case_id)

    keyed = [{identity(d): d for d in docs} for docs in sides]
    return keyed[0], keyed[1]


def _ci_text(ci: Sequence[float] | None) -> str:
    return "n/a" if ci is None else f"[{ci[0]:+.4f}, {ci[1]:+.4f}]"


@dataclass(slots=True)
class Comparisons:
    """Every benchmark x model compared with the baseline, and what went wrong;
    filled in place by `compare_run`, so not frozen."""

    results: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    headlines: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def reasons(
        self,
        options: BaselineOptions,
        *,
        accept: bool = False,
        allow_flag: str = "--bizbench-allow-regression",
    ) -> list[str]:
        """Gate reasons: comparisons that failed, and regressed and stale verdicts
        unless allowed (or `accept`ed by saving a new baseline). `allow_flag` is the
        option that allows a regression where the reason is shown (pytest or the CLI)."""
        if accept:
            return list(self.problems)
        reasons = []
        for (name, model), c in sorted(self.results.items()):
            if c["verdict"] == REGRESSED and not options.allow_regression:
                key = self.headlines.get(name, "accuracy")
                paired = c.get("paired") or {}
                reasons.append(
                    f"regression: {name} (model {model}): {key} "
                    f"{fmt_number(c.get(f'baseline_{key}'), missing='n/a')} -> "
                    f"{fmt_number(c.get(f'candidate_{key}'), missing='n/a')} "
                    f"(delta {fmt_number(c.get('delta'), '+.4f', 'n/a')}); paired mean delta "
                    f"{fmt_number(paired.get('mean_delta'), '+.4f', 'n/a')}, 95% CI "
                    f"{_ci_text(paired.get('ci95'))} over {paired.get('n', 0)} cases, p (Holm) "
                    f"{fmt_number(c.get('p_holm'), '.4g', 'n/a')}; "
                    f"accept it with {allow_flag} or re-baseline"
                )
            if c["verdict"] == STALE and not options.allow_stale:
                reasons.append(
                    f"stale baseline: {name} (model {model}): {c.get('message', REBASELINE)}"
                )
        return [*self.problems, *reasons]


def _compare_all(
    pairs: Iterable[tuple[str, str, Judge, Side, Side]], options: BaselineOptions
) -> Comparisons:
    out = Comparisons()
    for name, model, judge, base, cand in pairs:
        out.headlines[name] = judge.headline
        try:
            out.results[name, model] = measure_sides(judge, base, cand, options)
        except UserCodeError as exc:
            out.problems.append(str(exc))
        except Exception as exc:
            out.problems.append(
                f"benchmark {name!r}: comparison with the baseline failed: "
                f"{type(exc).__name__}: {exc}"
            )
    results = list(out.results.values())
    # Holm over the run: of many comparisons, one small p is not taken at face value
    for result, adjusted in zip(
        results, holm([r["paired"]["p_value"] for r in results]), strict=True
    ):
        settle(result, adjusted, options)
    return out


def compare_run(
    documents: Mapping[tuple[str, str], Sequence[ReportDocument]],
    metrics: Mapping[tuple[str, str], Mapping[str, Any]],
    registry: Registry,
    baseline: Report,
    options: BaselineOptions,
) -> Comparisons:
    """This run's benchmarks x models against the baseline report, with their own
    `compare()`. A benchmark or model the baseline lacks is not compared."""

    def pairs() -> Iterable[tuple[str, str, Judge, Side, Side]]:
        for (name, model), docs in documents.items():
            benchmark = registry.get(name)
            base = Side.from_report(baseline, name, options.baseline_model(model))
            if benchmark is None or base is None:
                continue
            cand = Side(
                benchmark.version,
                fingerprint(benchmark),
                metrics.get((name, model), {}),
                Documents(docs),  # details parsed only for the worst cases
                benchmark.scoring_config(),
            )
            yield name, model, Judge.of(benchmark), base, cand

    return _compare_all(pairs(), options)


def compare_reports(baseline: Report, candidate: Report, options: BaselineOptions) -> Comparisons:
    """Two saved reports, judged by the rules the candidate report recorded
    (headline and thresholds, with the default `compare()`)."""

    def pairs() -> Iterable[tuple[str, str, Judge, Side, Side]]:
        for name, entry in sorted(candidate.benchmarks.items()):
            judge = Judge.recorded(name, entry)
            for model in sorted(entry.models):
                base = Side.from_report(baseline, name, model)
                cand = Side.from_report(candidate, name, model)
                if base is not None and cand is not None:
                    yield name, model, judge, base, cand

    return _compare_all(pairs(), options)


def save_refusal(completeness: Completeness, options: BaselineOptions) -> str | None:
    """Why this run may not become the baseline, or None when it may."""
    if options.save_path is None or options.force:
        return None
    why = []
    if completeness.filtered:
        why.append(
            "it ran a filtered selection (-k, -m, --deselect, --lf, --sw, node ids or a "
            "--bizbench-* subset)"
        )
    if not completeness.complete:
        why.append(f"it is incomplete ({_incomplete(completeness)})")
    if completeness.shard:
        why.append("it is one shard of a run (save from `bizbench merge` of every shard)")
    if not why:
        return None
    return (
        f"refusing to save the baseline {options.save_path}: {' and '.join(why)}. Run the "
        "whole suite without errors, or pass --bizbench-force-baseline to save it anyway"
    )


def _incomplete(completeness: Completeness) -> str:
    parts = []
    if completeness.errors:
        parts.append(plural(len(completeness.errors), "error"))
    if completeness.missing:
        parts.append(plural(len(completeness.missing), "missing prediction"))
    if completeness.not_run:
        parts.append(f"{completeness.not_run} selected items never ran")
    if completeness.interrupted:
        parts.append("interrupted")
    return ", ".join(parts)


def nothing_to_save(options: BaselineOptions) -> tuple[bool, str] | None:
    """The refusal for a session that ran no case at all, when a save was asked for."""
    if options.save_path is None:
        return None
    return False, f"refusing to save the baseline {options.save_path}: no case ran"


def accepts_verdicts(completeness: Completeness, options: BaselineOptions) -> bool:
    """Saving a baseline accepts the run's verdicts, like a snapshot update: they
    are still reported, but regressed and stale do not fail the gate."""
    return options.save_path is not None and save_refusal(completeness, options) is None


def save_baseline(
    report: Report, completeness: Completeness, options: BaselineOptions
) -> tuple[bool, str] | None:
    """Write the report as the baseline when allowed: (saved, message), or None
    when no baseline is to be saved."""
    path = options.save_path
    if path is None:
        return None
    refusal = save_refusal(completeness, options)
    if refusal is not None:
        return False, refusal
    try:
        write_report(report, path)
    except OSError as exc:
        return False, f"cannot write baseline {path}: {exc.strerror or exc}"
    forced = "" if completeness.complete and not completeness.filtered else " (forced)"
    return True, f"baseline saved to {path}{forced}; review the diff and commit it"
