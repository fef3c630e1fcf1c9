"""`bizbench validate`: check benchmark modules and case files before a run.

It reuses the checks registration and collection apply (`sdk.identity_problems`,
the case kinds' loaders), so a file that validates clean is one a run accepts.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from pytest_bizbench.cases.agent import RUNS_SUFFIX, load_agent_runs
from pytest_bizbench.cases.kinds import kind_for
from pytest_bizbench.cases.model import CaseError
from pytest_bizbench.io.files import UnsafeInputError, require_regular
from pytest_bizbench.options.settings import Settings, default_settings
from pytest_bizbench.sdk import IDENTITY_FIELDS, BenchmarkPlugin, MatchRule, identity_problems

OK, BAD = "✓", "✗"
REQUIRED_METHODS = ("score", "compute", "compare")


@dataclass(frozen=True, slots=True)
class Check:
    """One line of the output: a check that holds, one that fails, or a warning."""

    ok: bool
    text: str
    warning: bool = False

    def line(self) -> str:
        if self.warning:
            return f"! {self.text}"
        return f"{OK if self.ok else BAD} {self.text}"


class ValidateUsageError(Exception):
    """A path that does not exist or is neither a module nor a case file (exit 2)."""


def _import(path: Path) -> ModuleType:
    """Import a module file by path, its directory importable as for a conftest."""
    name = f"_bizbench_validate_{abs(hash(path.resolve()))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.resolve().parent))
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.pop(0)
    return module


def _import_failure(path: Path, exc: BaseException) -> str:
    """What went wrong importing, as one line naming the file and line (no traceback)."""
    if isinstance(exc, SyntaxError):
        return f"{type(exc).__name__} at {path}:{exc.lineno}: {exc.msg}"
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename) == path]
    where = f" at {path}:{frames[-1].lineno}" if frames else ""
    return f"{type(exc).__name__}{where}: {exc}"


def _candidates(module: ModuleType) -> list[type]:
    """Classes defined in the module that are, or look like, benchmarks: a subclass of
    BenchmarkPlugin, or a class with a `score` method (which then fails `base class`)."""
    return [
        obj
        for _, obj in inspect.getmembers(module, inspect.isclass)
        if obj.__module__ == module.__name__
        and obj is not BenchmarkPlugin
        and (issubclass(obj, BenchmarkPlugin) or callable(getattr(obj, "score", None)))
    ]


def _methods(cls: type) -> Check:
    missing = [m for m in REQUIRED_METHODS if not callable(getattr(cls, m, None))]
    if getattr(cls, "score", None) is BenchmarkPlugin.score:
        missing.append("score (not implemented)")
    if missing:
        return Check(False, f"required methods: missing {', '.join(missing)}")
    return Check(True, f"required methods: {', '.join(REQUIRED_METHODS)}")


def _rules(cls: type, problems: list[str]) -> Iterator[Check]:
    """One line per match rule; `problems` are identity_problems' MATCH_RULES entries."""
    rules: Any = getattr(cls, "MATCH_RULES", [])
    named = [r for r in rules if isinstance(r, MatchRule)] if isinstance(rules, list) else []
    for rule in named:
        prefix = f"rule {rule.name!r}: "
        own = [p.removeprefix(prefix) for p in problems if p.startswith(prefix)]
        if own:
            yield Check(False, f"match rule {rule.name!r}: {'; '.join(own)}")
        else:
            conditions = ", ".join(f"{c.field} {c.operator} {c.value!r}" for c in rule.conditions)
            yield Check(True, f"match rule {rule.name!r}: {conditions} ({rule.aggregation})")
    prefixes = tuple(f"rule {r.name!r}: " for r in named)
    for problem in problems:
        if not problem.startswith(prefixes):
            yield Check(False, f"match rules: {problem}")
    if not named and not problems:
        yield Check(True, "match rules: none")


def _class_checks(cls: type) -> Iterator[Check]:
    yield Check(True, f"class found: {cls.__qualname__}")
    base = issubclass(cls, BenchmarkPlugin)
    yield Check(
        base,
        f"base class: {cls.__qualname__} "
        + ("subclasses BenchmarkPlugin" if base else "is not a subclass of BenchmarkPlugin"),
    )
    yield _methods(cls)
    problems = identity_problems(cls)
    for attr in IDENTITY_FIELDS:
        own = [why for field, why in problems if field == attr]
        if own:
            yield Check(False, f"{attr} {'; '.join(own)}")
        else:
            yield Check(True, f"{attr} = {getattr(cls, attr)!r}")
    yield from _rules(cls, [why for field, why in problems if field == "MATCH_RULES"])


def check_module(path: Path) -> Iterator[Check]:
    """The checks `bizbench validate` makes, in order; a failed import or no class
    stops the list."""
    try:
        require_regular(path)  # importing a FIFO would block
    except UnsafeInputError as exc:
        yield Check(False, f"module imports: {path}: {exc.message}")
        return
    try:
        module = _import(path)
    except (Exception, SystemExit) as exc:
        yield Check(False, f"module imports: {_import_failure(path, exc)}")
        return
    yield Check(True, f"module imports: {path}")
    classes = _candidates(module)
    if not classes:
        yield Check(False, f"class found: no subclass of BenchmarkPlugin in {path}")
        return
    for cls in classes:
        yield from _class_checks(cls)


def _load(path: Path, settings: Settings) -> Sequence[object]:
    if path.name.endswith(RUNS_SUFFIX):
        return load_agent_runs(path, settings.max_case_bytes, settings.agent.run_fields)
    kind = kind_for(path)
    assert kind is not None  # _targets only yields case files
    return kind.load(path, settings.load_options())


def check_case_file(path: Path, settings: Settings) -> Iterator[Check]:
    """`file:line: reason` per problem, as collection would report it; golden-record
    warnings (a missing or null evidence block) are shown but do not fail."""
    entries = _load(path, settings)
    errors = [e for e in entries if isinstance(e, CaseError)]
    for error in errors:
        yield Check(False, error.describe())
    for entry in entries:
        for warning in getattr(entry, "warnings", ()):
            line = getattr(entry, "line", None)
            yield Check(True, f"{path}{'' if line is None else f':{line}'}: {warning}", True)
    if not errors:
        count = len(entries)
        yield Check(True, f"{path}: {count} case{'' if count == 1 else 's'}")


def is_case_file(path: Path) -> bool:
    return kind_for(path) is not None or path.name.endswith(RUNS_SUFFIX)


def _targets(raw: str) -> list[Path]:
    """A module, a case file, or a directory's case files; else ValidateUsageError."""
    path = Path(raw)
    if not path.exists():
        raise ValidateUsageError(f"{raw}: no such file or directory")
    if path.is_dir():
        found = sorted(p for p in path.rglob("*") if p.is_file() and is_case_file(p))
        if not found:
            raise ValidateUsageError(f"{raw}: no case files in this directory")
        return found
    if path.suffix == ".py" or is_case_file(path):
        return [path]
    raise ValidateUsageError(f"{raw}: neither a benchmark module (.py) nor a case file")


def validate(paths: Sequence[str], settings: Settings | None = None) -> tuple[list[str], bool]:
    """Output lines and whether every check held; ValidateUsageError for a bad path."""
    settings = settings or default_settings()
    targets = [target for raw in paths for target in _targets(raw)]
    lines: list[str] = []
    ok = True
    for target in targets:
        checks = (
            check_module(target) if target.suffix == ".py" else check_case_file(target, settings)
        )
        for check in checks:
            ok = ok and check.ok
            lines.append(check.line())
    return lines, ok
