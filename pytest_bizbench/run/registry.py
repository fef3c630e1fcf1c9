"""The run's benchmarks, from built-ins, the hook, ini and entry points.

Built-ins are known by their identities (`benchmarks.BUILTINS`) and imported only
when asked for, so a session that collects no case of theirs never loads their code.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Callable, Iterable, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_bizbench.benchmarks import BUILTINS, BuiltinSpec, ModelRungs

if TYPE_CHECKING:  # the SDK loads once a benchmark is registered or asked for
    from pytest_bizbench.options.settings import Settings
    from pytest_bizbench.predict.llm.runtime import LLMRuntime
    from pytest_bizbench.scoring.ladder import Embedder, JudgeFn
    from pytest_bizbench.sdk import BenchmarkPlugin

ENTRY_POINT_GROUP = "bizbench.benchmarks"


class Registry:
    """The run's benchmarks by name, built-ins first; a built-in is created on first use.

    Not frozen: it fills a per-run cache of created built-ins, kept in `RunState`.
    """

    __slots__ = ("_builtins", "_loaded", "_make")

    def __init__(
        self,
        benchmarks: Iterable[BenchmarkPlugin | BuiltinSpec] = (),
        builtins: Sequence[BuiltinSpec] = (),
        make: Callable[[BuiltinSpec], BenchmarkPlugin] | None = None,
    ) -> None:
        entries = [*builtins, *benchmarks]
        self._builtins = {e.name: e for e in entries if isinstance(e, BuiltinSpec)}
        self._loaded: dict[str, BenchmarkPlugin | None] = {
            e.name: None if isinstance(e, BuiltinSpec) else e for e in entries
        }
        self._make = make

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._loaded)

    def case_type(self, name: str) -> str | None:
        spec = self._builtins.get(name)
        if spec is not None:
            return spec.case_type
        benchmark = self._loaded.get(name)
        return None if benchmark is None else benchmark.case_type

    def target_labels(self, name: str) -> tuple[str, ...]:
        spec = self._builtins.get(name)
        if spec is not None:
            return spec.target_labels
        benchmark = self._loaded.get(name)
        return () if benchmark is None else tuple(benchmark.target_labels)

    @property
    def benchmarks(self) -> tuple[BenchmarkPlugin, ...]:
        """Every benchmark, built-ins created."""
        return tuple(b for b in map(self.get, self._loaded) if b is not None)

    def get(self, name: str) -> BenchmarkPlugin | None:
        if name not in self._loaded:
            return None
        benchmark = self._loaded[name]
        if benchmark is None and self._make is not None:
            benchmark = self._loaded[name] = self._make(self._builtins[name])
        return benchmark

    def targeting(self, case_type: str, labels: Iterable[str]) -> list[BenchmarkPlugin]:
        from pytest_bizbench.sdk import targets_labels

        labels = tuple(labels)
        found: list[BenchmarkPlugin] = []
        for name, loaded in self._loaded.items():
            spec = self._builtins.get(name)
            if spec is not None:
                if spec.case_type != case_type or not targets_labels(spec.target_labels, labels):
                    continue
            elif loaded is None or loaded.case_type != case_type or not loaded.targets(labels):
                continue
            benchmark = self.get(name)
            if benchmark is not None:
                found.append(benchmark)
        return found


def scoring_config_of(benchmark: BenchmarkPlugin) -> tuple[Any, str | None]:
    """(the benchmark's `scoring_config()` as JSON data, None), or ({}, the problem)
    when it raises or returns what JSON cannot hold: a gate reason, not a lost report."""
    from pytest_bizbench.run.usercode import UserCodeError, checked  # when a report is made

    try:
        return checked(benchmark, "scoring_config"), None
    except UserCodeError as exc:
        return {}, str(exc)


def fingerprint(benchmark: BenchmarkPlugin) -> str:
    """A hash of what decides the benchmark's scores, so a baseline can tell it is stale."""
    cls = type(benchmark)
    identity = {
        "class": f"{cls.__module__}.{cls.__qualname__}",
        "name": benchmark.name,
        "version": benchmark.version,
        "config": scoring_config_of(benchmark)[0],
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
    from pytest_bizbench.sdk import (
        BenchmarkDefinitionError,
        BenchmarkPlugin,
        validate_benchmark_class,
    )

    cls = item if isinstance(item, type) else type(item)
    if not (isinstance(cls, type) and issubclass(cls, BenchmarkPlugin)):
        raise pytest.UsageError(f"{source}: {item!r} is not a BenchmarkPlugin subclass or instance")
    try:
        validate_benchmark_class(cls)
    except BenchmarkDefinitionError as exc:
        raise pytest.UsageError(str(exc)) from None
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
            result: list[list[float]] = hook.pytest_bizbench_embed(texts=texts, config=config)
            return result

    if hook.pytest_bizbench_judge.get_hookimpls():

        def judge(field: str, expected: object, actual: object) -> float | None:
            result: float | None = hook.pytest_bizbench_judge(
                field=field, expected=expected, actual=actual, config=config
            )
            return result

    return embed, judge


def _model_rungs(
    hooks: tuple[Embedder | None, JudgeFn | None], llm: LLMRuntime | None
) -> ModelRungs:
    """The conftest hooks, else the endpoint's judge and embedding models when set
    (QA answers and non-answers judged with their own rubrics)."""
    embed, judge = hooks
    if llm is None or judge is not None:
        return ModelRungs(embed or (llm.embedder() if llm else None), judge, judge)
    from pytest_bizbench.scoring.judge import Judge
    from pytest_bizbench.scoring.refusal import hook_nonanswer_judge

    asked = llm.judge(Judge.nonanswer_prompt)
    return ModelRungs(
        embed or llm.embedder(),
        llm.judge(Judge.prompt),
        llm.judge(Judge.qa_prompt),
        hook_nonanswer_judge(asked) if asked is not None else None,
    )


def build_registry(
    config: pytest.Config, settings: Settings, llm: LLMRuntime | None = None
) -> Registry:
    """Every benchmark of the run, validated; a bad one is a `pytest.UsageError`.

    The model rungs are the conftest hooks when implemented, else the endpoint's
    judge and embedding models when set (the QA judge with its own rubric).
    """
    found: list[tuple[BenchmarkPlugin, str]] = []
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
    hooks = _hook_callables(config)
    rungs = _model_rungs(hooks, llm)
    # the endpoint's calls are fetched ahead only where no conftest hook takes part:
    # planning runs the scoring twice, and user code must run once
    prefetch = llm if llm is not None and hooks == (None, None) else None

    def make(spec: BuiltinSpec) -> BenchmarkPlugin:
        module_name, _, attr = spec.path.partition(":")
        made: BenchmarkPlugin = getattr(importlib.import_module(module_name), attr).from_settings(
            settings, rungs
        )
        if prefetch is not None and spec.asks_models:
            prefetch.prefetch_for(made)
        return made

    builtins = BUILTINS if settings.builtin_benchmarks else ()
    return Registry(_one_per_name(builtins, found, make), make=make)


def _describe(benchmark: BenchmarkPlugin, source: str) -> str:
    cls = type(benchmark)
    return (
        f"{cls.__module__}.{cls.__qualname__} (from {source}, fingerprint {fingerprint(benchmark)})"
    )


def _one_per_name(
    builtins: Sequence[BuiltinSpec],
    found: list[tuple[BenchmarkPlugin, str]],
    make: Callable[[BuiltinSpec], BenchmarkPlugin],
) -> list[BenchmarkPlugin | BuiltinSpec]:
    """Registered benchmarks used as returned: an instance of a built-in's class
    replaces the built-in (a configured one, say); the same definition
    registered twice counts once; two different definitions under one name are a
    UsageError naming both. A built-in stays a spec (not imported) unless another
    definition takes its name and must be compared with it."""
    chosen: dict[str, tuple[BenchmarkPlugin | BuiltinSpec, str]] = {
        spec.name: (spec, "built-in") for spec in builtins
    }
    registered: set[str] = set()
    for benchmark, source in found:
        other = chosen.get(benchmark.name)
        if other is not None:
            entry, where = other
            cls = type(benchmark)
            if isinstance(entry, BuiltinSpec):
                if f"{cls.__module__}:{cls.__qualname__}" == entry.path:
                    registered.add(benchmark.name)  # a configured built-in replaces it
                    chosen[benchmark.name] = (benchmark, source)
                    continue
                entry = make(entry)
            if benchmark.name in registered or type(entry) is not cls:
                if fingerprint(entry) != fingerprint(benchmark):
                    raise pytest.UsageError(
                        f"benchmark name {benchmark.name!r} has two definitions: "
                        f"{_describe(entry, where)} and {_describe(benchmark, source)}"
                    )
                continue
        registered.add(benchmark.name)
        chosen[benchmark.name] = (benchmark, source)
    return [entry for entry, _ in chosen.values()]


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


def unloaded_registrar(
    config: pytest.Config, nodeids: Iterable[str], hook: str = HOOK_NAME
) -> str | None:
    """Under xdist the controller collects nothing, so it looks for the conftest.py
    files between the rootdir and each collected file that it has not loaded and
    that define `hook` (the registration hook); the first one found, or None."""
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
            if f"def {hook}" in text:
                return str(conftest)
    return None
