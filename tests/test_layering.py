"""The rules that hold the module map (docs/design.md), checked mechanically:
imports point one way, `scoring/` and `cases/` import no pytest, and start-up
imports no case loader, built-in benchmark, `yaml`, `regex` or `rapidfuzz`."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import pytest_bizbench
from pytest_bizbench.benchmarks import BUILTINS, BuiltinSpec
from pytest_bizbench.cases.kinds import KIND_SPECS, KindSpec, load_kind
from pytest_bizbench.run.registry import Registry
from pytest_bizbench.sdk import BenchmarkPlugin

PACKAGE = Path(pytest_bizbench.__file__).parent
LOADERS = ("ground_truth", "agent", "golden", "qa")
HEAVY = ("yaml", "regex", "rapidfuzz")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _targets(node: ast.AST, package: str) -> set[str]:
    """The modules (and the names, which may be modules) one import statement names."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names}
    if not isinstance(node, ast.ImportFrom):
        return set()
    base = node.module or ""
    if node.level:
        parts = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join([*parts, base] if base else parts)
    return {base, *(f"{base}.{a.name}" for a in node.names)}


def _imported(path: Path, modules: set[str], *, lazy: bool = False) -> set[str]:
    """Package modules this file imports at module level (TYPE_CHECKING blocks
    included: a cycle hidden there is still a cycle); with `lazy`, at any depth of its
    code too, the deliberate imports inside functions included."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            found.update(_targets(node, package))
            if isinstance(node, ast.If):
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                for handler in node.handlers:
                    visit(handler.body)
                visit(node.orelse)

    if lazy:
        for node in ast.walk(tree):
            found.update(_targets(node, package))
    else:
        visit(tree.body)
    return {m for m in found if m in modules and m != name}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of the graph as a path, or None."""
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set(), "c": {"a"}}) is None


def test_no_import_cycle_among_package_modules() -> None:
    files = sorted(PACKAGE.rglob("*.py"))
    modules = {_module_name(f) for f in files}
    graph = {_module_name(f): _imported(f, modules) for f in files}
    assert graph["pytest_bizbench.plugin"]  # the walk sees imports at all
    assert _cycle(graph) is None


#: the stages from the top of the flow to the bottom: a module imports only from
#: its own stage or one below it (lazy imports inside functions included)
STAGES: tuple[tuple[str, ...], ...] = (
    ("cli", "plugin"),
    ("scaffold", "hookspecs"),
    ("gate",),  # the controller's end of the run, shared with `bizbench merge`
    ("collect",),
    ("report",),
    ("run",),
    ("predict",),
    ("benchmarks",),
    ("cases",),
    ("scoring",),
    ("options",),
    ("sdk",),
    ("details",),
    ("maths", "io", "lazy"),
)
#: what may sit directly in the package: the entry points, the hooks and the public API
TOP_LEVEL = {"__init__", "cli", "plugin", "scaffold", "hookspecs", "sdk", "details", "lazy"}


def _stage(module: str) -> int:
    name = module.split(".")[1]
    return next(rank for rank, stage in enumerate(STAGES) if name in stage)


def test_the_package_holds_only_entry_points_hooks_and_the_public_api() -> None:
    top = {p.stem for p in PACKAGE.glob("*.py")}
    assert top <= TOP_LEVEL
    stages = {name for stage in STAGES for name in stage}
    subpackages = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert subpackages <= stages


def test_imports_point_down_the_flow() -> None:
    """The root package (`__version__`, the lazy public names) is everyone's parent
    and exempt; every other import goes to the module's own stage or below it."""
    files = sorted(PACKAGE.rglob("*.py"))
    modules = {_module_name(f) for f in files} - {"pytest_bizbench"}
    upward = [
        f"{_module_name(f)} -> {target}"
        for f in files
        if _module_name(f) != "pytest_bizbench"
        for target in sorted(_imported(f, modules, lazy=True))
        if _stage(target) < _stage(_module_name(f))
    ]
    assert upward == []


def test_the_direction_check_sees_an_upward_import() -> None:
    assert _stage("pytest_bizbench.scoring.ladder") > _stage("pytest_bizbench.run.evaluate")
    assert _stage("pytest_bizbench.gate.verdict") < _stage("pytest_bizbench.report.records")


def _fresh_modules(code: str) -> set[str]:
    """The modules loaded after running `code` in a new interpreter."""
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_plugin_import_loads_no_loader_builtin_or_heavy_library() -> None:
    loaded = _fresh_modules("import pytest_bizbench.plugin")
    assert "pytest_bizbench.plugin" in loaded
    assert sorted(loaded & _unwanted()) == []


def _unwanted() -> set[str]:
    return {
        *HEAVY,
        *(f"pytest_bizbench.cases.{name}" for name in LOADERS),
        "pytest_bizbench.io.yamlio",
        *(spec.path.partition(":")[0] for spec in BUILTINS),
        "pytest_bizbench.scoring.refusal",
        "pytest_bizbench.scoring.ladder",
        "pytest_bizbench.scoring.fs_assertions",
    }


#: what `pytest --help` loads of the package: the hooks, the option table and the
#: settings it is read into (configure registers the controller, whose own imports
#: wait for a case)
HELP_MODULES = {
    "pytest_bizbench",
    "pytest_bizbench.gate",
    "pytest_bizbench.gate.controller",
    "pytest_bizbench.hookspecs",
    "pytest_bizbench.lazy",
    "pytest_bizbench.options",
    "pytest_bizbench.options.llm",
    "pytest_bizbench.options.settings",
    "pytest_bizbench.options.table",
    "pytest_bizbench.options.types",
    "pytest_bizbench.plugin",
    "pytest_bizbench.run",
    "pytest_bizbench.run.interrupt",
    "pytest_bizbench.run.state",
}
#: and a session without case files: the registry's table and the prediction
#: sources (options are checked at session start, a bad one is a usage error in
#: every session; their readers wait for a file to read), and the search for
#: agent-run files, which make no items
SESSION_MODULES = HELP_MODULES | {
    "pytest_bizbench.benchmarks",
    "pytest_bizbench.cases",
    "pytest_bizbench.cases.kinds",
    "pytest_bizbench.collect",
    "pytest_bizbench.collect.selection",
    "pytest_bizbench.gate.agent_runs",
    "pytest_bizbench.maths",
    "pytest_bizbench.maths.figures",
    "pytest_bizbench.predict",
    "pytest_bizbench.predict.sources",
    "pytest_bizbench.run.registry",
}


def _session_modules(directory: Path, *args: str, exit_code: int) -> set[str]:
    """The package's modules loaded by one whole pytest session in `directory`."""
    loaded = _fresh_modules(
        f"import os, pytest\nos.chdir({str(directory)!r})\n"
        f"assert pytest.main([*{list(args)!r}, '-q', '-p', 'no:cacheprovider']) == {exit_code}"
    )
    return {name for name in loaded if name.partition(".")[0] == "pytest_bizbench"}


def test_help_loads_only_the_hooks_and_options(tmp_path: Path) -> None:
    assert _session_modules(tmp_path, "--help", exit_code=0) == HELP_MODULES


def test_a_session_with_no_case_files_loads_no_controller_code(tmp_path: Path) -> None:
    """The whole session, not only the import: start-up, configure, session start
    and finish in an empty directory; no loader, benchmark, aggregation or report."""
    assert _session_modules(tmp_path, exit_code=5) == SESSION_MODULES


def test_a_session_of_plain_tests_loads_no_controller_code(tmp_path: Path) -> None:
    """Plain tests pass, fail and report through the controller's hooks, which
    leave them alone without loading anything."""
    tmp_path.joinpath("test_plain.py").write_text(
        "def test_passes():\n    pass\n\ndef test_fails():\n    assert False\n"
    )
    assert _session_modules(tmp_path, "-v", exit_code=1) == SESSION_MODULES


def test_scoring_and_cases_import_no_pytest() -> None:
    names = sorted(
        _module_name(f) for sub in ("scoring", "cases") for f in (PACKAGE / sub).glob("*.py")
    )
    assert "pytest_bizbench.scoring.ladder" in names
    assert "pytest_bizbench.cases.golden" in names
    loaded = _fresh_modules("\n".join(f"import {name}" for name in names))
    assert "pytest_bizbench.cases.golden" in loaded
    assert "pytest" not in loaded
    assert "_pytest" not in loaded


def test_top_level_names_import_lazily() -> None:
    loaded = _fresh_modules("import pytest_bizbench.scoring.ladder")
    assert "pytest" not in loaded
    assert "pytest_bizbench.sdk" not in loaded
    assert pytest_bizbench.ScoredDocument.__name__ == "ScoredDocument"
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        pytest_bizbench.Nope  # noqa: B018


@pytest.mark.parametrize("spec", KIND_SPECS, ids=lambda s: s.name)
def test_kind_table_matches_the_kind_code(spec: KindSpec) -> None:
    kind = load_kind(spec)
    assert (kind.name, kind.suffixes) == (spec.name, spec.suffixes)
    assert spec.own_model == hasattr(kind, "case_model")


@pytest.mark.parametrize("spec", BUILTINS, ids=lambda s: s.name)
def test_builtin_table_matches_the_benchmark_code(spec: BuiltinSpec) -> None:
    registry = Registry(builtins=BUILTINS, make=_make)
    benchmark = registry.get(spec.name)
    assert benchmark is not None
    assert (benchmark.name, benchmark.case_type, tuple(benchmark.target_labels)) == (
        spec.name,
        spec.case_type,
        spec.target_labels,
    )


def _make(spec: BuiltinSpec) -> BenchmarkPlugin:
    benchmark: BenchmarkPlugin = _load_class(spec.path)()
    return benchmark


def _load_class(path: str) -> type:
    module, _, attr = path.partition(":")
    cls: type = getattr(importlib.import_module(module), attr)
    return cls


def test_registry_creates_a_builtin_only_when_asked() -> None:
    made: list[str] = []

    def make(spec: BuiltinSpec) -> BenchmarkPlugin:
        made.append(spec.name)
        return _make(spec)

    registry = Registry(builtins=BUILTINS, make=make)
    assert registry.case_type("qa-answer") == "qa"
    assert made == []
    assert [b.name for b in registry.targeting("golden-assessment", ["x"])] == [
        "review-assessment",
        "review-retrieval",
    ]
    assert made == ["review-assessment", "review-retrieval"]


def test_a_ground_truth_run_imports_no_other_kind(pytester: pytest.Pytester) -> None:
    """Collecting one kind's files loads that kind's code and its benchmark only."""
    pytester.makepyfile(
        conftest="""
        import sys

        def pytest_sessionfinish(session):
            names = ("yaml", "pytest_bizbench.cases.golden", "pytest_bizbench.cases.qa",
                     "pytest_bizbench.benchmarks.qa_answer", "pytest_bizbench.scoring.refusal",
                     "pytest_bizbench.benchmarks.field_accuracy")
            print("LOADED", [n for n in names if n in sys.modules])
        """
    )
    pytester.path.joinpath("a.ground-truth.jsonl").write_text(
        '{"id": "d1", "ground_truth": {"x": 1}, "extracted_fields": {"x": 1}}\n'
    )
    result = pytester.runpytest_subprocess("-s", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)  # the case and bizbench::gate
    assert "LOADED ['pytest_bizbench.benchmarks.field_accuracy']\n" in result.stdout.str()


def _module_map() -> set[str]:
    """The files the module map of docs/design.md names, as paths in the package."""
    text = (PACKAGE.parent / "docs" / "design.md").read_text(encoding="utf-8")
    start = text.index("```\npytest_bizbench/")
    block = text[start : text.index("```", start + 3)].splitlines()[2:]
    named: set[str] = set()
    folders: list[str] = []
    for line in block:
        depth = (len(line) - len(line.lstrip())) // 2
        name = line.split()[0]
        folders = folders[: depth - 1]
        if name.endswith("/"):
            folders.append(name.rstrip("/"))
        else:
            named.add("/".join([*folders, name]))
    return named


def test_the_design_docs_module_map_is_the_tree() -> None:
    tree = {
        str(path.relative_to(PACKAGE))
        for pattern in ("*.py", "*.json")
        for path in PACKAGE.rglob(pattern)
        if path.name != "__init__.py" or path.parent == PACKAGE
    }
    named = {name for name in _module_map() if not name.endswith("/__init__.py")}
    assert named == tree
