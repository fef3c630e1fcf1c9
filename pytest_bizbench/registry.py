"""The run's benchmarks, from built-ins, the hook, ini and entry points (SPEC §1)."""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from importlib.metadata import entry_points

import pytest

from pytest_bizbench.benchmarks.agent_fs import AgentFs
from pytest_bizbench.benchmarks.field_accuracy import FieldAccuracy
from pytest_bizbench.benchmarks.qa_answer import QAAnswer
from pytest_bizbench.benchmarks.review_assessment import ReviewAssessment
from pytest_bizbench.benchmarks.review_retrieval import ReviewRetrieval
from pytest_bizbench.llm.runtime import LLMRuntime
from pytest_bizbench.scoring import Embedder, FieldLadder, JudgeFn
from pytest_bizbench.scoring.judge import Judge
from pytest_bizbench.sdk import BenchmarkPlugin, validate_benchmark_class
from pytest_bizbench.settings import Settings

ENTRY_POINT_GROUP = "bizbench.benchmarks"
BUILTIN_BENCHMARKS = (FieldAccuracy, AgentFs, QAAnswer, ReviewAssessment, ReviewRetrieval)


@dataclass(frozen=True, slots=True)
class Registry:
    benchmarks: tuple[BenchmarkPlugin, ...]

    def get(self, name: str) -> BenchmarkPlugin | None:
        return next((b for b in self.benchmarks if b.name == name), None)

    def targeting(self, case_type: str, labels: Iterable[str]) -> list[BenchmarkPlugin]:
        labels = tuple(labels)
        return [b for b in self.benchmarks if b.case_type == case_type and b.targets(labels)]


def fingerprint(benchmark: BenchmarkPlugin) -> str:
    """A hash of what decides the benchmark's scores, so a baseline can tell it is stale."""
    cls = type(benchmark)
    identity = {
        "class": f"{cls.__module__}.{cls.__qualname__}",
        "name": benchmark.name,
        "version": benchmark.version,
        "config": benchmark.scoring_config(),
    }
    text = json.dumps(identity, sort_keys=True, default=repr, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _import_class(spec: str) -> object:
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise pytest.UsageError(f"ini bizbench_benchmarks: {spec!r} is not pkg.module:ClassName")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        raise pytest.UsageError(
            f"ini bizbench_benchmarks: cannot import {module_name!r}: {type(exc).__name__}: {exc}"
        ) from None
    try:
        return getattr(module, attr)
    except AttributeError:
        raise pytest.UsageError(
            f"ini bizbench_benchmarks: module {module_name!r} has no {attr!r}"
        ) from None


def _instantiate(item: object, source: str) -> BenchmarkPlugin:
    cls = item if isinstance(item, type) else type(item)
    if not (isinstance(cls, type) and issubclass(cls, BenchmarkPlugin)):
        raise pytest.UsageError(f"{source}: {item!r} is not a BenchmarkPlugin subclass or instance")
    validate_benchmark_class(cls)
    if isinstance(item, BenchmarkPlugin):
        return item
    try:
        return cls()
    except Exception as exc:
        raise pytest.UsageError(
            f"{source}: benchmark {cls.__qualname__} cannot be created without arguments: "
            f"{type(exc).__name__}: {exc}"
        ) from None


def _hook_callables(config: pytest.Config) -> tuple[Embedder | None, JudgeFn | None]:
    hook = config.hook
    embed: Embedder | None = None
    judge: JudgeFn | None = None
    if hook.pytest_bizbench_embed.get_hookimpls():

        def embed(texts: list[str]) -> list[list[float]]:
            result: list[list[float]] = hook.pytest_bizbench_embed(texts=texts)
            return result

    if hook.pytest_bizbench_judge.get_hookimpls():

        def judge(field: str, expected: object, actual: object) -> float | None:
            result: float | None = hook.pytest_bizbench_judge(
                field=field, expected=expected, actual=actual
            )
            return result

    return embed, judge


def build_registry(
    config: pytest.Config, settings: Settings, llm: LLMRuntime | None = None
) -> Registry:
    """Every benchmark of the run, validated; a bad one is a `pytest.UsageError`.

    The model rungs are the conftest hooks when implemented, else the endpoint's
    judge and embedding models when set (the QA judge with its own rubric).
    """
    found: list[BenchmarkPlugin] = []
    if settings.builtin_benchmarks:
        embed, judge = _hook_callables(config)
        qa_judge = judge
        if llm is not None:
            embed = embed or llm.embedder()
            if judge is None:
                judge, qa_judge = llm.judge(Judge.prompt), llm.judge(Judge.qa_prompt)
        found.append(
            FieldAccuracy(
                FieldLadder(FieldAccuracy.ladder_config(settings.ladder), embed=embed, judge=judge)
            )
        )
        found.append(AgentFs(settings.agent, settings.regex_timeout, settings.qa.pass_at_k))
        qa = settings.qa
        found.append(
            QAAnswer(
                qa.scorer, qa.pass_at_k, settings.ladder.strictness, embed=embed, judge=qa_judge
            )
        )
        found.append(ReviewAssessment(settings.review.thresholds))
        found.append(ReviewRetrieval(settings.review))
    for returned in config.hook.pytest_bizbench_add_benchmarks(config=config):
        batch = returned if isinstance(returned, (list, tuple)) else [returned]
        found.extend(_instantiate(item, "pytest_bizbench_add_benchmarks") for item in batch)
    for spec in settings.benchmark_specs:
        found.append(_instantiate(_import_class(spec), f"ini bizbench_benchmarks {spec!r}"))
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = entry.load()
        except Exception as exc:
            raise pytest.UsageError(
                f"entry point {entry.name!r} ({entry.value}): cannot load: "
                f"{type(exc).__name__}: {exc}"
            ) from None
        found.append(_instantiate(loaded, f"entry point {entry.name!r}"))
    seen: dict[str, BenchmarkPlugin] = {}
    for benchmark in found:
        other = seen.get(benchmark.name)
        if other is not None and type(other) is not type(benchmark):
            raise pytest.UsageError(
                f"benchmark name {benchmark.name!r} is used by both "
                f"{type(other).__qualname__} and {type(benchmark).__qualname__}"
            )
        seen.setdefault(benchmark.name, benchmark)
    return Registry(tuple(seen.values()))
