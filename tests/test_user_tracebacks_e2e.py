"""A user's benchmark or predict hook that raises: pytest shows the user's frames,
honours --tb, and --pdb stops in the user's code; the report says what it said."""

from __future__ import annotations

import sys

import pytest
from bizhelpers import Suite, doc

CRASHY = """
from pytest_bizbench import BenchmarkPlugin, ScoredDocument

class Crashy(BenchmarkPlugin):
    name = "crashy"
    version = "1.0.0"
    description = "reads a field the case lacks"
    target_labels = ["invoice"]

    def score(self, document):
        due = due_date(document)
        return ScoredDocument(document, 1.0, {})

def due_date(document):
    return document.ground_truth["due_date"]

def pytest_bizbench_add_benchmarks(config):
    return [Crashy]
"""
MESSAGE = "benchmark 'crashy' raised KeyError: 'due_date' (at conftest.py:15)"


@pytest.fixture
def crashy(suite: Suite) -> Suite:
    suite.write("conftest.py", CRASHY)
    suite.write("pytest.ini", "[pytest]\nbizbench_builtin_benchmarks = false\n")
    suite.cases("a.ground-truth.jsonl", [doc("a", {"k": 1}, extracted_fields={"k": 1})])
    return suite


def test_the_failure_shows_the_users_frames_not_the_plugins(crashy: Suite) -> None:
    result = crashy.pytester.runpytest("-p", "no:cacheprovider", "-rf")
    result.stdout.fnmatch_lines(
        [
            "*_ a[[]crashy[]] _*",
            "    def score(self, document):",
            ">       due = due_date(document)",
            "conftest.py:11: ",
            "    def due_date(document):",
            '>       return document.ground_truth["due_date"]',
            "E       KeyError: 'due_date'",
            "conftest.py:15: KeyError",
            "*- bizbench -*",
            MESSAGE,
        ]
    )
    # the short summary's line is ours (cut to the terminal's width)
    result.stdout.fnmatch_lines(["FAILED a.ground-truth.jsonl::a[[]crashy[]] - benchmark *"])
    # the plugin's frames are hidden: no file of the package is named (a warning of
    # pytest's may name the package itself)
    assert "pytest_bizbench/" not in result.stdout.str()
    # the report is as it was: the document errs with the one-line message
    (document,) = crashy.report()["benchmarks"]["crashy"]["models"]["default"]["documents"]
    assert (document["outcome"], document["message"]) == ("error", MESSAGE)


@pytest.mark.parametrize(
    ("option", "shown"),
    [
        (
            "--tb=short",
            ["conftest.py:11: in score", "conftest.py:15: in due_date", "E   KeyError*"],
        ),
        ("--tb=native", ['  File "*conftest.py", line 15, in due_date', "KeyError: 'due_date'"]),
        ("--tb=long", [">       due = due_date(document)", "conftest.py:15: KeyError"]),
        ("-vv", ["document = ExtendedDocument(*", "conftest.py:15: KeyError"]),
        ("--full-trace", ["*pytest_bizbench*evaluate.py:*", "conftest.py:15: KeyError"]),
    ],
)
def test_tb_styles_are_honoured(crashy: Suite, option: str, shown: list[str]) -> None:
    result = crashy.pytester.runpytest("-p", "no:cacheprovider", option)
    result.stdout.fnmatch_lines(shown)
    if option == "--tb=native":
        assert "pytest_bizbench/" not in result.stdout.str()


def test_tb_no_shows_no_traceback(crashy: Suite) -> None:
    result = crashy.pytester.runpytest("-p", "no:cacheprovider", "--tb=no")
    assert "due_date(document)" not in result.stdout.str()
    result.assert_outcomes(failed=2)  # the case, and the gate


def test_the_traceback_crosses_from_an_xdist_worker(crashy: Suite) -> None:
    result = crashy.pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", "-rf")
    result.stdout.fnmatch_lines(
        [
            '>       return document.ground_truth["due_date"]',
            "conftest.py:15: KeyError",
            "*- bizbench -*",
            MESSAGE,
        ]
    )
    # the short summary's line is ours (cut to the terminal's width)
    result.stdout.fnmatch_lines(["FAILED a.ground-truth.jsonl::a[[]crashy[]] - benchmark *"])


def test_pdb_stops_in_the_users_frame(crashy: Suite) -> None:
    result = crashy.pytester.run(
        sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--pdb", stdin=b"bt\nq\n"
    )
    output = result.stdout.str()
    result.stdout.fnmatch_lines(["*PDB post_mortem*", "> *conftest.py(15)due_date()"])
    # the stack `bt` prints ends in the user's frames, innermost last
    stack = output[output.index("(Pdb)") :]
    assert stack.index("conftest.py(11)score()") < stack.index("conftest.py(15)due_date()")


PREDICT_HOOK = """
def pytest_bizbench_predict(case, model, config):
    return ask(case)

def ask(case):
    raise ConnectionError("the model's endpoint is down")
"""


def test_a_failing_predict_hook_shows_its_frames(suite: Suite) -> None:
    suite.write("conftest.py", PREDICT_HOOK)
    suite.cases("a.ground-truth.jsonl", [doc("a", {"k": 1})])
    result = suite.pytester.runpytest("-p", "no:cacheprovider", "--tb=short")
    result.stdout.fnmatch_lines(
        [
            "conftest.py:3: in pytest_bizbench_predict",
            "    return ask(case)",
            "conftest.py:6: in ask",
            "E   ConnectionError: the model's endpoint is down",
            "*- bizbench -*",
            "prediction hook failed for a (model default): ConnectionError: *",
        ]
    )
    assert "pluggy" + "/" not in result.stdout.str()  # no frame of pluggy's
    (document,) = suite.documents().values()
    assert document["outcome"] == "failed"  # missing, as before: it scores 0
    assert document["details"]["error"] == "ConnectionError: the model's endpoint is down"
