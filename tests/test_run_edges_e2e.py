"""Interrupted runs, non-JSON details, model-backed rungs and the `bizbench` command."""

from __future__ import annotations

import json

import pytest
from bizhelpers import Suite, doc

from pytest_bizbench.cli import main

THREE = [doc(f"c{i}", {"k": "v"}) for i in range(3)]


@pytest.mark.parametrize("how", ["KeyboardInterrupt()", "os.kill(os.getpid(), signal.SIGTERM)"])
def test_interrupt_keeps_results_so_far(suite: Suite, how: str) -> None:
    suite.cases("a.ground-truth.jsonl", THREE)
    suite.write(
        "conftest.py",
        f"""
import os, signal

def pytest_bizbench_predict(case, model, config):
    if case.id == "c1":
        {"raise " if how.startswith("Key") else ""}{how}
    return {{"k": "v"}}
""",
    )
    result = suite.pytester.runpytest_subprocess()
    assert result.ret == pytest.ExitCode.INTERRUPTED
    report = suite.report()
    completeness = report["completeness"]
    assert completeness["interrupted"] is True
    assert completeness["complete"] is False
    assert report["gate"]["passed"] is False
    assert [
        d["id"] for d in report["benchmarks"]["field-accuracy"]["models"]["default"]["documents"]
    ] == ["c0"]
    result.stdout.fnmatch_lines(["*interrupted*", "bizbench gate: FAILED*"])
    assert not [p for p in suite.path.iterdir() if p.name.endswith(".tmp")]


def test_non_json_details_are_converted(suite: Suite) -> None:
    suite.write(
        "conftest.py",
        """
import datetime, decimal, math
from pytest_bizbench import BenchmarkPlugin, ScoredDocument

class Odd(BenchmarkPlugin):
    name = "odd"
    version = "1.0.0"
    description = "puts Python values in its details"
    target_labels = ["*"]

    def score(self, document):
        return ScoredDocument(document, 1.0, {"total": {
            "score": 1.0, "amount": decimal.Decimal("12.50"), "when": datetime.date(2024, 1, 5),
            "tags": {"b", "a"}, "raw": b"\\xffbytes", "nan": math.nan, "text": b"ok"}})

def pytest_bizbench_add_benchmarks(config):
    return [Odd]
""",
    )
    suite.cases("a.ground-truth.jsonl", [doc("x", {"k": 1}, extracted_fields={"k": 1})])
    result = suite.pytester.runpytest()
    assert result.ret == 0
    details = suite.documents("odd")["x"]["details"]["total"]
    assert details == {
        "score": 1.0,
        "amount": 12.5,
        "when": "2024-01-05",
        "tags": ["a", "b"],
        "raw": "/2J5dGVz",
        "nan": None,
        "text": "ok",
    }


def test_embedding_and_judge_hooks_are_rungs(suite: Suite) -> None:
    suite.write(
        "conftest.py",
        """
VECTORS = {"car": [1, 0, 0], "automobile": [1, 0, 0], "crimson": [0, 1, 0], "dark red": [0, 0, 1]}

def pytest_bizbench_embed(texts):
    # "car" and "automobile" share a direction; the rest are orthogonal or zero
    return [VECTORS.get(t.lower(), [0, 0, 0]) for t in texts]

def pytest_bizbench_judge(field, expected, actual):
    return 40 if field == "colour" else None
""",
    )
    suite.cases(
        "a.ground-truth.jsonl",
        [
            doc(
                "e",
                {"vehicle": "car", "colour": "crimson", "size": "small"},
                extracted_fields={"vehicle": "automobile", "colour": "dark red", "size": "tiny"},
            ),
        ],
    )
    result = suite.pytester.runpytest()
    assert result.ret == 1  # 0.47, under the pass mark 0.5
    details = suite.documents()["e"]["details"]
    assert (details["vehicle"]["rung"], details["vehicle"]["score"]) == ("embedding", 1.0)
    assert (details["colour"]["rung"], details["colour"]["score"]) == ("judge", 0.4)
    assert details["size"]["score"] == 0.0
    # (1 + 0.4 + 0) / 3
    assert suite.documents()["e"]["score"] == pytest.approx(1.4 / 3)
    config = suite.report()["benchmarks"]["field-accuracy"]["config"]
    assert config["rungs_available"] == ["exact", "fuzzy", "embedding", "judge"]
    assert "scoring_note" not in config


def test_verbose_shows_failed_score(suite: Suite) -> None:
    suite.cases(
        "a.ground-truth.jsonl",
        [
            doc("f", {"a": 1, "b": 2}, min_score=0.9, extracted_fields={"a": 1, "b": 3}),
        ],
    )
    result = suite.pytester.runpytest("-v")
    result.stdout.fnmatch_lines(["a.ground-truth.jsonl::f[[]field-accuracy[]] FAILED 0.50*"])


def test_bizbench_run_is_pytest_with_the_plugin(
    suite: Suite, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    suite.cases("a.ground-truth.jsonl", [doc("r", {"k": "v"}, extracted_fields={"k": "v"})])
    monkeypatch.chdir(suite.path)
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    assert main(["run", "-q", "-p", "no:cacheprovider", "--bizbench-report", "cli.json"]) == 0
    report = json.loads((suite.path / "cli.json").read_text())
    assert report["completeness"]["scored"] == 1
    assert "bizbench gate: passed" in capsys.readouterr().out


def test_bizbench_without_command_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage: bizbench" in capsys.readouterr().err


def test_a_field_no_rung_could_score_fails_the_item(suite: Suite) -> None:
    suite.write(
        "conftest.py",
        """
def pytest_bizbench_judge(field, expected, actual):
    raise TimeoutError("judge model did not answer")
""",
    )
    suite.cases(
        "a.ground-truth.jsonl",
        [
            doc(
                "u",
                {"name": "Ann", "colour": "crimson"},
                extracted_fields={"name": "Ann", "colour": "dark red"},
            ),
        ],
    )
    result = suite.pytester.runpytest()
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        [
            "u scored 0.50 on field-accuracy (model default): fields not scored: colour",
            "  colour  expected 'crimson', got 'dark red'  "
            "(judge 0.00*judge-error: TimeoutError: judge model did not answer)",
        ]
    )


def test_a_model_whose_name_holds_a_colon_can_be_gated(suite: Suite) -> None:
    """`llama3:8b` (an Ollama tag) scores 1 of 2 fields: 0.5, under the 0.9 asked."""
    suite.cases("a.ground-truth.jsonl", [doc("c", {"a": "x", "b": "y"})])
    suite.write("p.jsonl", '{"id": "c", "extracted_fields": {"a": "x", "b": "z"}}\n')
    result = suite.pytester.runpytest(
        "--bizbench-predictions",
        "llama3:8b=p.jsonl",
        "--bizbench-threshold",
        "field-accuracy:llama3:8b:accuracy>=0.9",
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    gate = suite.report()["gate"]
    assert gate["reasons"][0] == (
        "threshold not met: field-accuracy:llama3:8b:accuracy = 0.5000, needs >= 0.9"
    )
