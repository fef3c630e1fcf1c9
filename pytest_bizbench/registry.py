"""The run's benchmarks, from built-ins, the hook, ini and entry points (SPEC §1)."""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from pytest_bizbench.benchmarks.agent_fs import AgentFs
from pytest_bizbench.benchmarks.field_accuracy import FieldAccuracy
from pytest_bizbench.benchmarks.qa_answer import QAAnswer
from pytest_bizbench.benchmarks.review_assessment import ReviewAssessment
from pytest_bizbench.benchmarks.review_retrieval import ReviewRetrieval
from pytest_bizbench.llm.runtime import LLMRuntime
from pytest_bizbench.scoring import Embedder, FieldLadder, JudgeFn
from pytest_bizbench.scoring.judge import Judge
from pytest_bizbench.scoring.refusal import hook_nonanswer_judge
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
    builtins: list[BenchmarkPlugin] = []
    found: list[tuple[BenchmarkPlugin, str]] = []
    if settings.builtin_benchmarks:
        embed, judge = _hook_callables(config)
        qa_judge = judge
        nonanswer = None  # from the hook, QAAnswer asks it with the non-answer field
        if llm is not None:
            embed = embed or llm.embedder()
            if judge is None:
                judge, qa_judge = llm.judge(Judge.prompt), llm.judge(Judge.qa_prompt)
                asked = llm.judge(Judge.nonanswer_prompt)
                nonanswer = hook_nonanswer_judge(asked) if asked is not None else None
        builtins.append(
            FieldAccuracy(
                FieldLadder(FieldAccuracy.ladder_config(settings.ladder), embed=embed, judge=judge)
            )
        )
        builtins.append(AgentFs(settings.agent, settings.regex_timeout, settings.qa.pass_at_k))
        qa = settings.qa
        builtins.append(
            QAAnswer(
                qa.scorer,
                qa.pass_at_k,
                settings.ladder.strictness,
                embed=embed,
                judge=qa_judge,
                nonanswer_judge=nonanswer,
            )
        )
        builtins.append(ReviewAssessment(settings.review.thresholds))
        builtins.append(ReviewRetrieval(settings.review))
    for returned in config.hook.pytest_bizbench_add_benchmarks(config=config):
        batch = returned if isinstance(returned, (list, tuple)) else [returned]
        source = "pytest_bizbench_add_benchmarks"
        found.extend((_instantiate(item, source), source) for item in batch)
    for spec in settings.benchmark_specs:
        source = f"ini bizbench_benchmarks {spec!r}"
        found.append((_instantiate(_import_class(spec), source), source))
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = entry.load()
        except Exception as exc:
            raise pytest.UsageError(
                f"entry point {entry.name!r} ({entry.value}): cannot load: "
                f"{type(exc).__name__}: {exc}"
            ) from None
        source = f"entry point {entry.name!r}"
        found.append((_instantiate(loaded, source), source))
    return Registry(_one_per_name(builtins, found))


def _describe(benchmark: BenchmarkPlugin, source: str) -> str:
    cls = type(benchmark)
    return (
        f"{cls.__module__}.{cls.__qualname__} (from {source}, fingerprint {fingerprint(benchmark)})"
    )


def _one_per_name(
    builtins: list[BenchmarkPlugin], found: list[tuple[BenchmarkPlugin, str]]
) -> tuple[BenchmarkPlugin, ...]:
    """Registered benchmarks used as returned: an instance of a built-in's class
    replaces the built-in (a configured one, say); the same definition
    registered twice counts once; two different definitions under one name are a
    UsageError naming both."""
    chosen: dict[str, tuple[BenchmarkPlugin, str]] = {b.name: (b, "built-in") for b in builtins}
    registered: set[str] = set()
    for benchmark, source in found:
        other = chosen.get(benchmark.name)
        if other is not None and (
            benchmark.name in registered or type(other[0]) is not type(benchmark)
        ):
            if fingerprint(other[0]) != fingerprint(benchmark):
                raise pytest.UsageError(
                    f"benchmark name {benchmark.name!r} has two definitions: "
                    f"{_describe(*other)} and {_describe(benchmark, source)}"
                )
            continue
        registered.add(benchmark.name)
        chosen[benchmark.name] = (benchmark, source)
    return tuple(benchmark for benchmark, _ in chosen.values())


HOOK_NAME = "pytest_bizbench_add_benchmarks"


def registering_conftests(config: pytest.Config) -> frozenset[str]:
    """The loaded conftest.py files that implement the registration hook."""
    return frozenset(
        str(getattr(plugin, "__file__", ""))
        for plugin in config.pluginmanager.get_plugins()
        if str(getattr(plugin, "__file__", "")).endswith("conftest.py")
        and hasattr(plugin, HOOK_NAME)
    )


def late_registration(conftest: str) -> str:
    return (
        f"{conftest} implements {HOOK_NAME} but is loaded only while collecting, after "
        "the benchmarks are registered; move the hook to the conftest.py next to the "
        "ini file (or one given on the command line), or register the class with ini "
        "bizbench_benchmarks"
    )


def check_late_registrations(config: pytest.Config, known: frozenset[str]) -> None:
    """A conftest loaded during collection (below the rootdir) that registers
    benchmarks would take part in some processes and not others (an xdist
    controller never collects): stop with a UsageError naming it."""
    late = sorted(registering_conftests(config) - known)
    if late:
        raise pytest.UsageError(late_registration(late[0]))


def unloaded_registrar(config: pytest.Config, nodeids: Iterable[str]) -> str | None:
    """Under xdist the controller collects nothing, so it looks for the conftest.py
    files between the rootdir and each collected file that it has not loaded and
    that define the registration hook; the first one found, or None."""
    loaded = {str(getattr(p, "__file__", "")) for p in config.pluginmanager.get_plugins()}
    root = config.rootpath
    dirs = sorted({(root / nodeid.split("::", 1)[0]).parent for nodeid in nodeids})
    seen: set[Path] = set()
    for directory in dirs:
        for parent in [directory, *directory.parents]:
            if parent in seen or not parent.is_relative_to(root):
                break
            seen.add(parent)
            conftest = parent / "conftest.py"
            if str(conftest) in loaded or not conftest.is_file():
                continue
            try:
                text = conftest.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            if f"def {HOOK_NAME}" in text:
                return str(conftest)
    return None
