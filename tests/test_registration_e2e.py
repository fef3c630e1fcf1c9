"""The three ways of registering a benchmark, and registration errors."""

from __future__ import annotations

import pytest
from bizhelpers import Suite, doc

BENCH_MODULE = """
from pytest_bizbench import BenchmarkPlugin, ScoredDocument

class Half(BenchmarkPlugin):
    name = "half"
    version = "0.1.0"
    description = "gives every invoice one half"
    target_labels = ["invoice"]

    def score(self, document):
        return ScoredDocument(document, 0.5, {"k": {"score": 0.5}})

class Bad(BenchmarkPlugin):
    name = "Bad_Name"
    version = "0.1.0"
    description = "bad"
    target_labels = ["invoice"]

    def score(self, document):
        return ScoredDocument(document, 0.5, {})
"""


def write_cases(suite: Suite) -> None:
    suite.cases(
        "a.ground-truth.jsonl",
        [
            doc("i1", {"k": 1}, extracted_fields={"k": 1}),
            doc("c1", {"k": 1}, labels=["contract"], extracted_fields={"k": 1}),
        ],
    )


def test_register_by_ini(suite: Suite) -> None:
    write_cases(suite)
    suite.write("mybench.py", BENCH_MODULE)
    suite.write("pytest.ini", "[pytest]\npythonpath = .\nbizbench_benchmarks = mybench:Half\n")
    result = suite.pytester.runpytest("-v")
    result.stdout.fnmatch_lines(
        [
            "*::c1[[]field-accuracy[]] PASSED 1.00*",
            "*::i1[[]field-accuracy[]] PASSED 1.00*",
            "*::i1[[]half[]] PASSED 0.50*",
        ]
    )
    assert suite.metrics("half")["accuracy"] == 0.5
    assert suite.report()["benchmarks"]["half"]["version"] == "0.1.0"


def test_register_by_hook_instance_or_class(suite: Suite) -> None:
    write_cases(suite)
    suite.write("mybench.py", BENCH_MODULE)
    suite.write(
        "conftest.py",
        "from mybench import Half\n"
        "def pytest_bizbench_add_benchmarks(config):\n    return [Half()]\n",
    )
    suite.write("pytest.ini", "[pytest]\npythonpath = .\nbizbench_builtin_benchmarks = false\n")
    result = suite.pytester.runpytest("-v")
    result.stdout.fnmatch_lines(["*::i1[[]half[]] PASSED 0.50*"])
    assert list(suite.report()["benchmarks"]) == ["half"]
    # c1 is a contract: nothing targets it once the built-ins are off
    result.stdout.fnmatch_lines(["*c1[[]no-benchmark[]]*ERROR*"])


def test_register_by_entry_point(suite: Suite, monkeypatch: pytest.MonkeyPatch) -> None:
    write_cases(suite)
    suite.write("mybench.py", BENCH_MODULE)
    dist = suite.path / "site" / "mybench_plugin-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: mybench-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[bizbench.benchmarks]\nhalf = mybench:Half\n")
    monkeypatch.syspath_prepend(str(suite.path / "site"))
    monkeypatch.syspath_prepend(str(suite.path))
    result = suite.pytester.runpytest("-v")
    result.stdout.fnmatch_lines(["*::i1[[]half[]] PASSED 0.50*"])


@pytest.mark.parametrize(
    ("ini", "problem"),
    [
        ("bizbench_benchmarks = mybench:Bad", "benchmark mybench.Bad: name must be a kebab-case"),
        ("bizbench_benchmarks = mybench:Nope", "module 'mybench' has no 'Nope'"),
        ("bizbench_benchmarks = nomodule:X", "cannot import 'nomodule'"),
        ("bizbench_benchmarks = mybench", "is not pkg.module:ClassName"),
        ("bizbench_strictness = 2", "bizbench_strictness = '2' must be between 0 and 1"),
        ("bizbench_date_order = YMD", "must be DMY or MDY"),
    ],
)
def test_registration_and_option_errors_are_usage_errors(
    suite: Suite, ini: str, problem: str
) -> None:
    write_cases(suite)
    suite.write("mybench.py", BENCH_MODULE)
    suite.write("pytest.ini", f"[pytest]\npythonpath = .\n{ini}\n")
    result = suite.pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: *{problem}*"])


def test_duplicate_benchmark_name_is_usage_error(suite: Suite) -> None:
    write_cases(suite)
    suite.write(
        "conftest.py",
        """
from pytest_bizbench import BenchmarkPlugin, ScoredDocument

class Mine(BenchmarkPlugin):
    name = "field-accuracy"
    version = "1.0.0"
    description = "clash"
    target_labels = ["*"]
    def score(self, document):
        return ScoredDocument(document, 1.0, {})

def pytest_bizbench_add_benchmarks(config):
    return [Mine]
""",
    )
    result = suite.pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "*benchmark name 'field-accuracy' has two definitions: "
            "pytest_bizbench.benchmarks.field_accuracy.FieldAccuracy (from built-in, *) and "
            "conftest.Mine (from pytest_bizbench_add_benchmarks, *)"
        ]
    )
