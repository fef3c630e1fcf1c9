"""The benchmark SDK: the types a benchmark author writes against.

It imports no pytest: a badly declared benchmark raises `BenchmarkDefinitionError`,
which the registry reports as `pytest.UsageError`. The `regex` package is imported
only when a rule uses the `regex` operator.
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar, cast, overload

from pytest_bizbench.details import field_entries
from pytest_bizbench.maths.figures import is_number, mean
from pytest_bizbench.maths.stats import bootstrap_ci, mde, sign_flip_p

OPERATORS: tuple[str, ...] = (
    "eq",
    "neq",
    "gt",
    "gte",
    "lt",
    "lte",
    "contains",
    "not_contains",
    "regex",
)
DEFAULT_REGEX_TIMEOUT = 1.0
# the summary of the scores every benchmark's default compute() reports
SCORE_SUMMARY = (
    "min_score",
    "max_score",
    "median_score",
    "total_documents",
    "perfect_scores",
    "zero_scores",
)
_KEBAB = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_SEMVER = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$"
)
_MISSING = object()
_S = TypeVar("_S")
_T = TypeVar("_T")


def targets_labels(target_labels: Iterable[str], labels: Iterable[str]) -> bool:
    """Whether a benchmark with these target labels scores a case with these labels."""
    targets = tuple(target_labels)
    return "*" in targets or any(label in targets for label in labels)


class BenchmarkDefinitionError(Exception):
    """A benchmark class declared wrongly: the message names the class and the problems."""


def _regex() -> Any:
    """The `regex` package (timeout-protected matching), imported on first use."""
    import regex

    return regex


@dataclass(frozen=True, slots=True)
class ExtendedDocument:
    """One case as a benchmark sees it: the ground truth and the system's output."""

    id: str
    filename: str = ""
    labels: list[str] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    content: str | None = None
    ground_truth: dict[str, Any] = field(default_factory=dict)
    extracted_fields: dict[str, Any] = field(default_factory=dict)
    model: str = "default"
    source: str = ""


@dataclass(frozen=True, slots=True)
class ScoredDocument:
    """A benchmark's verdict on one document.

    `rules` and `group` are filled in by the plugin on the worker that scored the
    document, so `compute()` on the controller never evaluates a rule or looks up
    a group key in data it no longer holds. `latency_ms` is the wall time of the
    live prediction call (None for predictions read from files), for `compute()`.
    """

    document: ExtendedDocument
    score: float
    details: dict[str, Any] = field(default_factory=dict)
    rules: tuple[str, ...] = ()
    group: str | None = None
    latency_ms: float | None = None


class NotApplicable(Exception):
    """Raised by `score()` for a case the benchmark has nothing to measure on (a review
    prediction without retrieved parts): the item is skipped with this message and the
    case is left out of the metrics, instead of scoring 0 for what was never asked."""


class RegexTimeout(Exception):
    """A `regex` condition ran past its time budget on one document."""

    def __init__(self, rule: str, field_name: str, timeout: float) -> None:
        super().__init__(
            f"match rule {rule!r}: regex on field {field_name!r} timed out after {timeout:g}s"
        )
        self.rule = rule
        self.field_name = field_name
        self.timeout = timeout


def lookup_field(document: ExtendedDocument, name: str) -> Any:
    """Find a field the way rules and `group_by` do: ground truth, metadata,
    document attributes, then extracted fields; None when absent."""
    if name in document.ground_truth:
        return document.ground_truth[name]
    if name in document.metadata:
        return document.metadata[name]
    if name in ExtendedDocument.__dataclass_fields__:
        return getattr(document, name)
    return document.extracted_fields.get(name)


def _as_number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip().replace(",", ""))
        except ValueError:
            return None
    return None


def _fold(value: Any) -> Any:
    return value.casefold() if isinstance(value, str) else value


@dataclass(frozen=True, slots=True)
class MatchCondition:
    """One test on one field of a document; a missing field never matches."""

    field: str
    operator: str
    value: Any

    def validate(self) -> str | None:
        """The problem with this condition, or None when it is well formed."""
        if self.operator not in OPERATORS:
            return f"unknown operator {self.operator!r} (use one of {', '.join(OPERATORS)})"
        if self.operator == "regex":
            if not isinstance(self.value, str):
                return f"regex value must be a string, got {type(self.value).__name__}"
            try:
                _regex().compile(self.value)
            except _regex().error as exc:
                return f"invalid regex {self.value!r}: {exc}"
        if self.operator in ("gt", "gte", "lt", "lte") and _as_number(self.value) is None:
            return f"operator {self.operator} needs a number, got {self.value!r}"
        return None

    def holds(self, document: ExtendedDocument, timeout: float = DEFAULT_REGEX_TIMEOUT) -> bool:
        """Whether the condition holds; a regex past `timeout` raises TimeoutError."""
        actual = lookup_field(document, self.field)
        if actual is None:
            return False
        op = self.operator
        if op in ("gt", "gte", "lt", "lte"):
            a, b = _as_number(actual), _as_number(self.value)
            if a is None or b is None:
                return False
            return {"gt": a > b, "gte": a >= b, "lt": a < b, "lte": a <= b}[op]
        if op == "regex":
            text = actual if isinstance(actual, str) else str(actual)
            return _regex().search(self.value, text, timeout=timeout) is not None
        if op in ("contains", "not_contains"):
            if isinstance(actual, str):
                found = str(self.value).casefold() in actual.casefold()
            elif isinstance(actual, (list, tuple, set, frozenset, dict)):
                found = _fold(self.value) in {_fold(v) for v in actual if _hashable(v)}
            else:
                found = False
            return found if op == "contains" else not found
        equal = _equal(actual, self.value)
        return equal if op == "eq" else not equal


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return a.casefold() == b.casefold()
    na, nb = _as_number(a), _as_number(b)
    if na is not None and nb is not None:
        return na == nb
    return bool(a == b)


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class MatchRule:
    """A named slice of documents, reported as `rule_<name>` in the metrics."""

    name: str
    conditions: list[MatchCondition] = field(default_factory=list)
    aggregation: Literal["mean", "median"] = "mean"

    def validate(self) -> list[str]:
        problems = []
        name: object = self.name  # declared str, but written by users
        if not isinstance(name, str) or not name:
            problems.append("a rule needs a non-empty name")
        if self.aggregation not in ("mean", "median"):
            problems.append(f"aggregation must be 'mean' or 'median', got {self.aggregation!r}")
        if not self.conditions:
            problems.append("a rule needs at least one condition")
        conditions: list[object] = list(self.conditions)  # declared, but written by users
        for condition in conditions:
            if not isinstance(condition, MatchCondition):
                problems.append(f"condition {condition!r} is not a MatchCondition")
                continue
            problem = condition.validate()
            if problem:
                problems.append(f"field {condition.field!r}: {problem}")
        return problems

    def matches(self, document: ExtendedDocument, timeout: float = DEFAULT_REGEX_TIMEOUT) -> bool:
        """All conditions hold; raises RegexTimeout naming the rule and field."""
        for condition in self.conditions:
            try:
                if not condition.holds(document, timeout):
                    return False
            except TimeoutError as exc:
                raise RegexTimeout(self.name, condition.field, timeout) from exc
        return True


def by_id(scored: Iterable[ScoredDocument]) -> list[ScoredDocument]:
    """The documents in one order whatever the workers' order (id, then file), so a
    `compute()` gives the same metrics with and without xdist."""
    if isinstance(scored, ScoredDocuments):  # the plugin's own compute(): stays lazy
        return cast(list[ScoredDocument], scored.in_id_order())
    return sorted(scored, key=lambda s: (s.document.id, s.document.source))


class DocumentSource(Protocol):
    """A document as the controller keeps it, compact, until a `compute()` reads it."""

    def scored(self) -> ScoredDocument: ...

    def id_order(self) -> tuple[str, str]:
        """(document id, source), the key `by_id` sorts by."""
        ...


class LazySequence(Sequence[_T], Generic[_S, _T]):
    """Items made from compact sources each time they are read and never kept, so a
    pass over 100k documents holds one made item at a time, not all of them."""

    __slots__ = ("_sources",)

    def __init__(self, sources: Sequence[_S]) -> None:
        self._sources = sources

    def _make(self, source: _S) -> _T:
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self._sources)

    @overload
    def __getitem__(self, index: int) -> _T: ...

    @overload
    def __getitem__(self, index: slice) -> LazySequence[_S, _T]: ...

    def __getitem__(self, index: int | slice) -> _T | LazySequence[_S, _T]:
        if isinstance(index, slice):
            return type(self)(self._sources[index])
        return self._make(self._sources[index])

    def __iter__(self) -> Iterator[_T]:
        for source in self._sources:
            yield self._make(source)


class ScoredDocuments(LazySequence[DocumentSource, ScoredDocument]):
    """The documents the plugin's own `compute()` and `compare_models()` read, each
    made (its details parsed) when read. A benchmark that overrides those methods
    gets a plain list, as the SDK promises.
    """

    __slots__ = ()

    def _make(self, source: DocumentSource) -> ScoredDocument:
        return source.scored()

    def in_id_order(self) -> ScoredDocuments:
        return ScoredDocuments(sorted(self._sources, key=lambda s: s.id_order()))


class BenchmarkPlugin:
    """Base class of every benchmark; subclasses set the identity and `score()`."""

    name: ClassVar[str]
    version: ClassVar[str]
    # top-level numeric details whose means `compute()` adds in its one pass (the
    # built-in field-accuracy's sub-scores); not part of the SDK
    _detail_means: ClassVar[tuple[str, ...]] = ()
    description: ClassVar[str]
    target_labels: ClassVar[list[str]]
    metric_unit: ClassVar[str] = "score"
    group_by: ClassVar[str | None] = None
    MATCH_RULES: ClassVar[list[MatchRule]] = []
    headline_metric: ClassVar[str] = "accuracy"
    #: The pass mark of a case without its own: above 0, so a case that scores 0
    #: never passes by default.
    min_score: ClassVar[float] = 0.5
    REGRESSION_THRESHOLD: ClassVar[float] = 0.02
    IMPROVEMENT_THRESHOLD: ClassVar[float] = 0.01
    #: The case type scored; custom benchmarks score ground-truth documents.
    case_type: ClassVar[str] = "ground-truth"

    def score(self, document: ExtendedDocument) -> ScoredDocument:
        raise NotImplementedError(f"{type(self).__name__}.score() is not implemented")

    def missing_details(self, document: ExtendedDocument) -> dict[str, Any]:
        """Details of a case without a prediction (it scores 0); `document` has the
        ground truth and no extracted fields. Override so that such documents carry
        the detail keys scored ones do."""
        return {}

    def targets(self, labels: Iterable[str]) -> bool:
        return targets_labels(self.target_labels, labels)

    def scoring_config(self) -> dict[str, Any]:
        """Everything that changes scores; hashed into the report's fingerprint."""
        return {
            "min_score": self.min_score,
            "group_by": self.group_by,
            "match_rules": [
                {
                    "name": rule.name,
                    "aggregation": rule.aggregation,
                    "conditions": [[c.field, c.operator, c.value] for c in rule.conditions],
                }
                for rule in self.MATCH_RULES
            ],
        }

    def compute(self, scored: list[ScoredDocument]) -> dict[str, Any]:
        return self._metrics(scored)

    def _metrics(
        self,
        scored: list[ScoredDocument],
        visit: Callable[[ScoredDocument], None] | None = None,
    ) -> dict[str, Any]:
        """compute()'s one pass over the documents; `visit` sees each one in it, so a
        subclass adds metrics without parsing a lazily read document twice."""
        means: dict[str, list[float]] = {key: [] for key in self._detail_means}
        if not scored:
            return {"accuracy": 0.0, "total_documents": 0, **dict.fromkeys(means, 0.0)}
        scores: list[float] = []
        per_field: dict[str, list[float]] = {}
        groups: dict[str, list[float]] = {}
        rules: dict[str, list[float]] = {rule.name: [] for rule in self.MATCH_RULES}
        for s in by_id(scored):  # one pass: a lazily read document is parsed per pass
            if visit is not None:
                visit(s)
            scores.append(s.score)
            details = s.details
            for key, values in means.items():  # absent (a missing prediction) counts as 0
                values.append(float(details.get(key, 0.0)))
            for name, entry in field_entries(details).items():
                per_field.setdefault(name, []).append(float(entry["score"]))
            groups.setdefault(s.group or "unknown", []).append(s.score)
            for rule_name in s.rules:
                rules.setdefault(rule_name, []).append(s.score)
        summary = (
            min(scores),
            max(scores),
            statistics.median(scores),
            len(scores),
            sum(1 for v in scores if v >= 1.0),
            sum(1 for v in scores if v <= 0.0),
        )
        metrics: dict[str, Any] = {
            "accuracy": mean(scores),
            **dict(zip(SCORE_SUMMARY, summary, strict=True)),
            "per_field_accuracy": {k: mean(v) for k, v in sorted(per_field.items())},
        }
        if self.group_by is not None:
            metrics["groups"] = {
                key: {"count": len(values), "accuracy": mean(values)}
                for key, values in sorted(groups.items())
            }
        aggregations = {rule.name: rule.aggregation for rule in self.MATCH_RULES}
        for rule_name, values in sorted(rules.items()):
            how = aggregations.get(rule_name, "mean")
            value = statistics.median(values) if how == "median" and values else mean(values)
            metrics[f"rule_{rule_name}"] = {"count": len(values), "accuracy": value}
        metrics.update((key, mean(values)) for key, values in means.items())
        return metrics

    def compare(
        self, baseline_metrics: Mapping[str, Any], candidate_metrics: Mapping[str, Any]
    ) -> dict[str, Any]:
        return compare_headlines(
            self.headline_metric,
            self.REGRESSION_THRESHOLD,
            self.IMPROVEMENT_THRESHOLD,
            baseline_metrics,
            candidate_metrics,
        )

    def compare_models(
        self,
        a_metrics: Mapping[str, Any],
        b_metrics: Mapping[str, Any],
        a_scored: list[ScoredDocument],
        b_scored: list[ScoredDocument],
    ) -> dict[str, Any]:
        """Model B against model A in one run: `compare()` plus paired per-case deltas.

        Reported under `benchmarks[NAME].paired["<B>-vs-<A>"]`; override to add
        benchmark-specific breakdowns.
        """
        a_by_id = {s.document.id: s.score for s in a_scored}
        deltas = {
            s.document.id: s.score - a_by_id[s.document.id]
            for s in by_id(b_scored)
            if s.document.id in a_by_id
        }
        values = list(deltas.values())
        return {
            **self.compare(a_metrics, b_metrics),
            "cases": {
                "n": len(values),
                "mean_delta": mean(values),
                "b_better": sum(1 for v in values if v > 0),
                "a_better": sum(1 for v in values if v < 0),
                "ties": sum(1 for v in values if v == 0),
                # 95% BCa bootstrap interval of mean_delta, fixed seed (stats.bootstrap_ci)
                "ci95": bootstrap_ci(values),
                # the sign-flip p (Holm-adjusted over the run's pairs by the plugin)
                # and the smallest mean delta these cases detect
                "p_value": sign_flip_p(values),
                "mde": mde(values).mde,
            },
        }


def compare_headlines(
    key: str,
    regression_threshold: float,
    improvement_threshold: float,
    baseline_metrics: Mapping[str, Any],
    candidate_metrics: Mapping[str, Any],
) -> dict[str, Any]:
    """The default `compare()`: the headline `key` and each field's accuracy, judged by
    the two thresholds; also what `bizbench compare` judges two saved reports by."""
    base = _metric_value(baseline_metrics, key)
    cand = _metric_value(candidate_metrics, key)
    delta = cand - base
    # Rounded to 12 decimals, a move of exactly a threshold counts at every suite
    # size: 3/50 - 4/50 is -0.020000000000000004 and 1/50 - 2/50 is -0.02.
    moved = round(delta, 12)
    regression = moved < 0.0 and -moved >= round(regression_threshold, 12)
    if moved > 0.0 and moved >= round(improvement_threshold, 12):
        verdict = "improved"
    elif regression:
        verdict = "regressed"
    else:
        verdict = "neutral"
    base_fields = baseline_metrics.get("per_field_accuracy") or {}
    cand_fields = candidate_metrics.get("per_field_accuracy") or {}
    per_field = {}
    for name in sorted(set(base_fields) | set(cand_fields)):
        b, c = _metric_value(base_fields, name), _metric_value(cand_fields, name)
        per_field[name] = {"baseline": b, "candidate": c, "delta": c - b, "improved": c > b}
    return {
        f"baseline_{key}": base,
        f"candidate_{key}": cand,
        "delta": delta,
        "improved": delta > 0,
        "regression": regression,
        "per_field_deltas": per_field,
        "verdict": verdict,
    }


def _metric_value(metrics: Mapping[str, Any], key: str) -> float:
    """A metric as a number; absent or null (nothing scored it) counts as 0. Anything
    else is an error: text such as "nan" would read as a number that never moves."""
    value = metrics.get(key)
    if value is None:
        return 0.0
    if not is_number(value) or not math.isfinite(value):
        raise ValueError(f"metric {key!r} is {value!r}, not a finite number")
    return float(value)


def check_scored(benchmark: BenchmarkPlugin, result: object) -> ScoredDocument:
    """The benchmark's result if it is a valid ScoredDocument; else ValueError naming it."""
    name = benchmark.name
    if not isinstance(result, ScoredDocument):
        raise ValueError(
            f"benchmark {name!r} returned {type(result).__name__}, not a ScoredDocument"
        )
    score = result.score
    if not is_number(score) or not math.isfinite(score) or not 0.0 <= score <= 1.0:
        raise ValueError(
            f"benchmark {name!r} returned score {score!r}, not a finite float in [0, 1]"
        )
    if not isinstance(result.details, dict):
        raise ValueError(
            f"benchmark {name!r} returned details of type {type(result.details).__name__}, "
            "not a dict"
        )
    return result


# The identity class attributes `identity_problems` checks, in its order (`bizbench validate`).
IDENTITY_FIELDS = (
    "name",
    "version",
    "description",
    "target_labels",
    "metric_unit",
    "group_by",
    "headline_metric",
    "min_score",
    "REGRESSION_THRESHOLD",
    "IMPROVEMENT_THRESHOLD",
)


def identity_problems(cls: type) -> list[tuple[str, str]]:
    """(field, problem) pairs for a benchmark class's identity."""
    problems: list[tuple[str, str]] = []

    def need(attr: str, ok: Callable[[Any], bool], what: str) -> None:
        value = getattr(cls, attr, _MISSING)
        if value is _MISSING:
            problems.append((attr, "is missing"))
        elif not ok(value):
            problems.append((attr, f"must be {what}, got {value!r}"))

    need("name", lambda v: isinstance(v, str) and bool(_KEBAB.match(v)), "a kebab-case string")
    need("version", lambda v: isinstance(v, str) and bool(_SEMVER.match(v)), "a semver string")
    need("description", lambda v: isinstance(v, str) and bool(v.strip()), "a non-empty string")
    need(
        "target_labels",
        lambda v: isinstance(v, list) and bool(v) and all(isinstance(x, str) for x in v),
        "a non-empty list of strings",
    )
    need("metric_unit", lambda v: isinstance(v, str), "a string")
    need("group_by", lambda v: v is None or isinstance(v, str), "a string or None")
    need("headline_metric", lambda v: isinstance(v, str) and bool(v), "a non-empty string")
    need("min_score", lambda v: is_number(v) and 0.0 <= v <= 1.0, "a number in [0, 1]")
    for attr in ("REGRESSION_THRESHOLD", "IMPROVEMENT_THRESHOLD"):
        need(attr, lambda v: is_number(v) and v >= 0, "a non-negative number")
    rules = getattr(cls, "MATCH_RULES", [])
    if not isinstance(rules, list):
        problems.append(("MATCH_RULES", f"must be a list, got {rules!r}"))
    else:
        seen: set[str] = set()
        for rule in rules:
            if not isinstance(rule, MatchRule):
                problems.append(("MATCH_RULES", f"{rule!r} is not a MatchRule"))
                continue
            if rule.name in seen:
                problems.append(("MATCH_RULES", f"rule {rule.name!r} is declared twice"))
            seen.add(rule.name)
            problems.extend(("MATCH_RULES", f"rule {rule.name!r}: {p}") for p in rule.validate())
    if getattr(cls, "score", None) is BenchmarkPlugin.score:
        problems.append(("score", "must be implemented"))
    return problems


def validate_benchmark_class(cls: type) -> None:
    """Raise BenchmarkDefinitionError naming the class and every problem with it."""
    where = f"{cls.__module__}.{cls.__qualname__}"
    if not (isinstance(cls, type) and issubclass(cls, BenchmarkPlugin)):
        raise BenchmarkDefinitionError(f"benchmark {where}: not a subclass of BenchmarkPlugin")
    problems = identity_problems(cls)
    if problems:
        lines = "; ".join(f"{attr} {why}" for attr, why in problems)
        raise BenchmarkDefinitionError(f"benchmark {where}: {lines}")
