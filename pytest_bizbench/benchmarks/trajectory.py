"""`trajectory`: how well an agent loop that tunes a system searched.

A trajectory scores 1.0, and passes, when its best score strictly beats its
baseline (the records' baseline field, else its first iteration), else 0.0; one
with no iteration scores 0.0. Its details describe the search: how many
iterations, first and best score, the improvement, how soon the best came, how
many values each knob took, how often a knob setting was tried again and the
share of each mode. The metrics are their means over the model's trajectories.

A knob setting is the value at the knobs path: an object's keys are the knobs;
any other value is one knob named by the path. Settings are compared by their
canonical JSON, so key order and formatting do not matter; an iteration without
one never repeats another.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from pytest_bizbench.cases.model import content_hash
from pytest_bizbench.maths.figures import is_number, mean
from pytest_bizbench.options.types import TrajectoryConfig
from pytest_bizbench.sdk import BenchmarkPlugin, ExtendedDocument, ScoredDocument, by_id

if TYPE_CHECKING:
    from pytest_bizbench.benchmarks import ModelRungs
    from pytest_bizbench.options.settings import Settings

# per-trajectory numbers whose mean over trajectories is a metric of the same name
MEANS = ("first", "best", "improvement", "steps_to_best", "repeat_rate")


@dataclass(frozen=True, slots=True)
class _Search:
    """One trajectory's iterations as the analysis reads them."""

    scores: list[float]
    knobs: list[Any]
    modes: list[str | None]

    @classmethod
    def of(cls, iterations: Sequence[Mapping[str, Any]]) -> _Search:
        return cls(
            [float(i["score"]) for i in iterations],
            [i.get("knobs") for i in iterations],
            [i.get("mode") for i in iterations],
        )


def _knob_values(setting: Any, path: str) -> dict[str, Any]:
    if setting is None:
        return {}
    return dict(setting) if isinstance(setting, Mapping) else {path: setting}


def _coverage(settings: Sequence[Any], path: str) -> dict[str, int]:
    seen: dict[str, set[str]] = {}
    for setting in settings:
        for knob, value in _knob_values(setting, path).items():
            seen.setdefault(knob, set()).add(content_hash(value))
    return {knob: len(values) for knob, values in sorted(seen.items())}


def _repeat_rate(settings: Sequence[Any]) -> float:
    seen: set[str] = set()
    repeats = 0
    for setting in settings:
        if setting is None:
            continue
        key = content_hash(setting)
        repeats += key in seen
        seen.add(key)
    return repeats / len(settings)


def _dominance(modes: Sequence[str | None]) -> dict[str, float]:
    counts: dict[str, int] = {}
    for mode in modes:
        if mode is not None:
            counts[mode] = counts.get(mode, 0) + 1
    return {mode: n / len(modes) for mode, n in sorted(counts.items())}


class Trajectory(BenchmarkPlugin):
    """Whether a tuning loop beat its baseline, and how it searched."""

    name = "trajectory"
    version = "1.0.0"
    description = "Whether an agent loop's best score beats its baseline, and how it searched."
    target_labels: ClassVar[list[str]] = ["*"]
    metric_unit = "share of trajectories that beat their baseline"
    min_score = 1.0
    case_type = "trajectory"

    @classmethod
    def from_settings(cls, settings: Settings, rungs: ModelRungs) -> Trajectory:
        """The built-in as a run's settings configure it."""
        return cls(settings.trajectory)

    def __init__(self, config: TrajectoryConfig | None = None) -> None:
        self.config = config or TrajectoryConfig()

    def scoring_config(self) -> dict[str, Any]:
        c = self.config
        return {
            **super().scoring_config(),
            "score": c.score,
            "lower_is_better": c.lower_is_better,
            "paired_on": "best",  # what a baseline comparison pairs (baseline.Measure)
            "fields": {
                "knobs": c.knobs,
                "mode": c.mode,
                "status": c.status,
                "baseline": c.baseline,
            },
        }

    def score(self, document: ExtendedDocument) -> ScoredDocument:
        search = _Search.of(document.extracted_fields["iterations"])
        given = document.ground_truth.get("baseline")
        details: dict[str, Any] = {
            "iterations": len(search.scores),
            "skipped_records": document.ground_truth.get("skipped_records") or {},
        }
        if not search.scores:
            details["reason"] = f"no iteration: no record has a finite {self.config.score!r}"
            return ScoredDocument(document, 0.0, details)
        pick = min if self.config.lower_is_better else max
        first = search.scores[0]
        cumulative = [search.scores[0]]
        for value in search.scores[1:]:
            cumulative.append(pick(cumulative[-1], value))
        best = cumulative[-1]
        reference = float(given) if given is not None else first
        beats = self.config.beats(best, reference)
        verb = "beats" if beats else "does not beat"
        against = "its baseline field" if given is not None else "its first iteration"
        better = "lower" if self.config.lower_is_better else "higher"
        details.update(
            first=first,
            best=best,
            improvement=first - best if self.config.lower_is_better else best - first,
            steps_to_best=search.scores.index(best),
            knob_coverage=_coverage(search.knobs, self.config.knobs),
            repeat_rate=_repeat_rate(search.knobs),
            mode_dominance=_dominance(search.modes),
            cumulative_best=cumulative,
            baseline=reference,
            baseline_source="baseline field" if given is not None else "first iteration",
            reason=f"best {best:g} {verb} {reference:g}, {against} ({better} is better)",
        )
        return ScoredDocument(document, 1.0 if beats else 0.0, details)

    def compute(self, scored: list[ScoredDocument]) -> dict[str, Any]:
        """Means over trajectories; those without an iteration count only in
        `iterations`. `knob_coverage`: per knob, the mean over the trajectories that
        set it; `mode_dominance`: per mode, the mean share (0 where a trajectory never
        used it); `skipped_records`: totals per status."""
        metrics = super().compute(scored)
        metrics.pop("per_field_accuracy", None)
        details = [s.details for s in by_id(scored)]
        searched = [d for d in details if d.get("iterations")]
        metrics["iterations"] = mean(float(d.get("iterations") or 0) for d in details)
        for key in MEANS:
            values = [float(d[key]) for d in searched if is_number(d.get(key))]
            metrics[key] = mean(values) if values else None
        coverage: dict[str, list[float]] = {}
        modes: set[str] = set()
        skipped: dict[str, int] = {}
        for d in details:
            for knob, count in (d.get("knob_coverage") or {}).items():
                coverage.setdefault(knob, []).append(float(count))
            modes.update(d.get("mode_dominance") or {})
            for status, n in (d.get("skipped_records") or {}).items():
                skipped[status] = skipped.get(status, 0) + int(n)
        metrics["knob_coverage"] = {k: mean(v) for k, v in sorted(coverage.items())}
        metrics["mode_dominance"] = {
            m: mean(float((d.get("mode_dominance") or {}).get(m, 0.0)) for d in searched)
            for m in sorted(modes)
        }
        metrics["skipped_records"] = dict(sorted(skipped.items()))
        return metrics
