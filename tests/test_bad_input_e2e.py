"""Bad input end to end: an error item naming file and line, nothing else lost."""

from __future__ import annotations

import json
from typing import Any

import pytest
from bizhelpers import Suite, doc, glob_escape

GOOD = doc("good-1", {"k": "v"}, extracted_fields={"k": "v"})


def run_with(
    suite: Suite, name: str, content: str | bytes
) -> tuple[pytest.RunResult, dict[str, Any]]:
    """Run a suite of one good file plus one bad file; return the result and report."""
    suite.cases("good.ground-truth.jsonl", [GOOD])
    suite.write(name, content)
    result = suite.pytester.runpytest("-rE")
    return result, suite.report()


def assert_error_kept_others(
    result: pytest.RunResult,
    report: dict[str, Any],
    where: str,
    problem: str,
    *,
    others: tuple[str, ...] = ("good-1",),
) -> None:
    """The bad input is one error naming file (and line), every other case is scored."""
    assert result.ret == 1
    errors = report["completeness"]["errors"]
    assert any(where in e["message"] and problem in e["message"] for e in errors), errors
    result.stdout.fnmatch_lines([f"*{where}*{glob_escape(problem)}*"])
    docs = {
        d["id"]: d for d in report["benchmarks"]["field-accuracy"]["models"]["default"]["documents"]
    }
    for case_id in others:
        assert docs[case_id]["outcome"] == "passed"
        assert docs[case_id]["score"] == 1.0
    assert report["completeness"]["complete"] is False
    assert report["gate"]["passed"] is False
    assert "Traceback" not in result.stdout.str()


GOOD_LINE = json.dumps(doc("ok-2", {"k": "v"}, extracted_fields={"k": "v"})) + "\n"


@pytest.mark.parametrize(
    ("content", "where", "problem"),
    [
        (
            GOOD_LINE + '{"id": "x", "ground_truth": {"k": 1},}\n',
            "bad.ground-truth.jsonl:2",
            "malformed JSON",
        ),
        (
            GOOD_LINE + '{"id": "x", "ground_truth": {"k": 1, "k": 2}}\n',
            "bad.ground-truth.jsonl:2",
            'duplicate key "k"',
        ),
        (
            GOOD_LINE + '{"id": "x", "ground_truth": {"k": NaN}}\n',
            "bad.ground-truth.jsonl:2",
            "NaN is not allowed",
        ),
        (
            GOOD_LINE + '{"id": "x", "ground_truth": {"k": Infinity}}\n',
            "bad.ground-truth.jsonl:2",
            "Infinity is not allowed",
        ),
        (
            GOOD_LINE + '{"id": "x", "ground_truth": {"k": 1e400}}\n',
            "bad.ground-truth.jsonl:2",
            "out of range",
        ),
        (
            GOOD_LINE + '{"id": "x", "ground_truth": {"k": ' + "9" * 400 + "}}\n",
            "bad.ground-truth.jsonl:2",
            "too large for a float",
        ),
        (
            GOOD_LINE + '{"id": "x", "ground_truth": {"k": 1',
            "bad.ground-truth.jsonl:2",
            "truncated last line",
        ),
        (
            GOOD_LINE + GOOD_LINE,
            "bad.ground-truth.jsonl:2",
            'duplicate id "ok-2" (first at line 1)',
        ),
        (
            GOOD_LINE + '{"ground_truth": {"k": 1}}\n',
            "bad.ground-truth.jsonl:2",
            'missing required key "id"',
        ),
        (
            GOOD_LINE + '{"id": "x"}\n',
            "bad.ground-truth.jsonl:2",
            'missing required key "ground_truth"',
        ),
        (
            GOOD_LINE + '{"id": "x", "ground_truth": [1]}\n',
            "bad.ground-truth.jsonl:2",
            '"ground_truth" must be an object, got list',
        ),
        (
            GOOD_LINE + '{"id": "x", "labels": "invoice", "ground_truth": {}}\n',
            "bad.ground-truth.jsonl:2",
            '"labels" must be a list of strings',
        ),
        (
            GOOD_LINE + '{"id": "x", "min_score": 2, "ground_truth": {}}\n',
            "bad.ground-truth.jsonl:2",
            '"min_score" must be a number in [0, 1]',
        ),
        (GOOD_LINE + "[1, 2]\n", "bad.ground-truth.jsonl:2", "document must be an object"),
        (
            GOOD_LINE + "[" * 5000 + "]" * 5000 + "\n",
            "bad.ground-truth.jsonl:2",
            "nesting deeper than 64 levels",
        ),
    ],
    ids=[
        "malformed",
        "duplicate-key",
        "nan",
        "infinity",
        "1e400",
        "huge-int",
        "truncated",
        "duplicate-id",
        "missing-id",
        "missing-ground-truth",
        "ground-truth-list",
        "labels-type",
        "min-score-range",
        "not-an-object",
        "nesting-bomb",
    ],
)
def test_bad_jsonl_line(suite: Suite, content: str, where: str, problem: str) -> None:
    result, report = run_with(suite, "bad.ground-truth.jsonl", content)
    assert_error_kept_others(result, report, where, problem, others=("good-1", "ok-2"))


def test_a_jsonl_line_that_is_not_utf8_costs_that_line_only(suite: Suite) -> None:
    """As a malformed line does; a JSON file, one document, stays one error."""
    content = b'{"id": "x", "ground_truth": {"k": "caf\xff"}}\n' + GOOD_LINE.encode()
    result, report = run_with(suite, "bad.ground-truth.jsonl", content)
    problem = "not UTF-8: invalid byte 0xff at line 1, byte 39 (save the file as UTF-8)"
    assert_error_kept_others(
        result, report, "bad.ground-truth.jsonl:1", problem, others=("good-1", "ok-2")
    )


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"", "empty file"),
        (b"   \n\n", "empty file"),
        (b'{"id": "x", "ground_truth": {"k": "caf\xff"}}\n', "not UTF-8: invalid byte 0xff"),
        (b'{"documents": {"id": "x"}}', '"documents" must be a list'),
        (b'{"id": "x", "ground_truth": {"a": 1}, ', "malformed JSON"),
        (b"[1, 2]", "top level must be a document object"),
    ],
    ids=["empty", "whitespace", "non-utf8", "documents-not-list", "malformed", "top-level-list"],
)
def test_bad_json_file(suite: Suite, content: bytes, problem: str) -> None:
    result, report = run_with(suite, "bad.ground-truth.json", content)
    assert_error_kept_others(result, report, "bad.ground-truth.json", problem)
    result.stdout.fnmatch_lines(["*ERROR*bad.ground-truth.json::*"])


def test_bom_is_accepted(suite: Suite) -> None:
    suite.write("bom.ground-truth.jsonl", b"\xef\xbb\xbf" + GOOD_LINE.encode())
    result = suite.pytester.runpytest()
    assert result.ret == 0
    assert suite.documents()["ok-2"]["score"] == 1.0


def test_size_cap(suite: Suite) -> None:
    suite.cases("good.ground-truth.jsonl", [GOOD])
    suite.write("big.ground-truth.jsonl", GOOD_LINE * 50)
    suite.write("pytest.ini", "[pytest]\nbizbench_max_case_bytes = 1000\n")
    result = suite.pytester.runpytest()
    report = suite.report()
    assert_error_kept_others(result, report, "big.ground-truth.jsonl", "over the 1,000-byte cap")


def test_case_no_benchmark_targets(suite: Suite) -> None:
    suite.cases("good.ground-truth.jsonl", [GOOD])
    suite.write("pytest.ini", "[pytest]\nbizbench_builtin_benchmarks = false\n")
    suite.write(
        "conftest.py",
        """
from pytest_bizbench import BenchmarkPlugin, ScoredDocument

class OnlyContracts(BenchmarkPlugin):
    name = "only-contracts"
    version = "1.0.0"
    description = "scores contracts"
    target_labels = ["contract"]

    def score(self, document):
        return ScoredDocument(document, 1.0, {})

def pytest_bizbench_add_benchmarks(config):
    return [OnlyContracts]
""",
    )
    suite.cases(
        "mixed.ground-truth.jsonl",
        [
            doc("c1", {"k": 1}, labels=["contract"], extracted_fields={}),
            doc("i1", {"k": 1}, labels=["invoice", "scan"], extracted_fields={}),
        ],
    )
    result = suite.pytester.runpytest("-v")
    result.stdout.fnmatch_lines(
        [
            "*mixed.ground-truth.jsonl::c1[[]only-contracts[]] PASSED 1.00*",
            "*i1[[]no-benchmark[]]*ERROR*",
        ]
    )
    errors = suite.report()["completeness"]["errors"]
    assert any(
        "no benchmark targets case 'i1' with labels ['invoice', 'scan']" in e["message"]
        for e in errors
    )
    assert result.ret == 1


BAD_BENCHMARKS = """
import math
from pytest_bizbench import BenchmarkPlugin, ScoredDocument

class Base(BenchmarkPlugin):
    version = "1.0.0"
    description = "misbehaves"
    target_labels = ["invoice"]

class Raises(Base):
    name = "raises"
    def score(self, document):
        if document.id == "b":
            raise KeyError("vendor")
        return ScoredDocument(document, 1.0, {})

class Garbage(Base):
    name = "garbage"
    def score(self, document):
        if document.id == "b":
            return {"score": 1.0}
        return ScoredDocument(document, 1.0, {})

class OutOfRange(Base):
    name = "out-of-range"
    def score(self, document):
        return ScoredDocument(document, 1.5 if document.id == "b" else 0.5, {})

class NotANumber(Base):
    name = "not-a-number"
    def score(self, document):
        return ScoredDocument(document, math.nan if document.id == "b" else 0.5, {})

def pytest_bizbench_add_benchmarks(config):
    return [Raises, Garbage, OutOfRange, NotANumber]
"""


@pytest.mark.parametrize(
    ("bench", "problem"),
    [
        ("raises", "benchmark 'raises' raised KeyError: 'vendor'"),
        ("garbage", "benchmark 'garbage' returned dict, not a ScoredDocument"),
        ("out-of-range", "benchmark 'out-of-range' returned score 1.5, not a finite float"),
        ("not-a-number", "benchmark 'not-a-number' returned score nan, not a finite float"),
    ],
)
def test_misbehaving_benchmark_is_an_error_item(suite: Suite, bench: str, problem: str) -> None:
    suite.write("conftest.py", BAD_BENCHMARKS)
    suite.cases(
        "a.ground-truth.jsonl",
        [doc(x, {"k": 1}, extracted_fields={"k": 1}) for x in ("a", "b", "c")],
    )
    result = suite.pytester.runpytest("-k", bench)
    # the crash happens while the item runs: pytest says failed, the report error
    result.stdout.fnmatch_lines([f"*_ b[[]{bench}[]] _*", f"*{problem}*"])
    result.assert_outcomes(passed=2, failed=2)  # b, and the gate: the run is incomplete
    report = suite.report()
    docs = {d["id"]: d for d in report["benchmarks"][bench]["models"]["default"]["documents"]}
    assert docs["b"]["outcome"] == "error"
    assert docs["b"]["score"] is None
    assert docs["a"]["outcome"] == docs["c"]["outcome"] == "passed"
    # errors are left out of the metrics, and make the run incomplete
    assert report["benchmarks"][bench]["models"]["default"]["metrics"]["total_documents"] == 2
    assert report["completeness"]["complete"] is False
    assert result.ret == 1


def test_hostile_regex_rule_errors_that_item_only(suite: Suite) -> None:
    suite.write("pytest.ini", "[pytest]\nbizbench_regex_timeout = 0.05\n")
    suite.write(
        "conftest.py",
        """
from pytest_bizbench import BenchmarkPlugin, MatchCondition, MatchRule, ScoredDocument

class Evil(BenchmarkPlugin):
    name = "evil"
    version = "1.0.0"
    description = "catastrophic backtracking"
    target_labels = ["invoice"]
    MATCH_RULES = [MatchRule("slow", [MatchCondition("text", "regex", r"(a|aa)+$")])]

    def score(self, document):
        return ScoredDocument(document, 1.0, {})

def pytest_bizbench_add_benchmarks(config):
    return [Evil]
""",
    )
    suite.cases(
        "a.ground-truth.jsonl",
        [
            doc("fast", {"text": "bbb"}, extracted_fields={}),
            doc("slow", {"text": "a" * 40 + "!"}, extracted_fields={}),
        ],
    )
    result = suite.pytester.runpytest("-k", "evil")
    result.stdout.fnmatch_lines(
        ["*match rule 'slow': regex on field 'text' timed out after 0.05s*"]
    )
    result.assert_outcomes(passed=1, failed=2)  # slow, and the gate


def test_a_bad_prediction_line_is_one_error_and_the_good_rows_are_scored(suite: Suite) -> None:
    suite.cases("a.ground-truth.jsonl", [doc("p1", {"k": 1})])
    suite.write("preds.jsonl", '{"id": "p1", "extracted_fields": {"k": 1}}\n{"id": \n')
    result = suite.pytester.runpytest("--bizbench-predictions", "preds.jsonl")
    result.stdout.fnmatch_lines(["*error: prediction file preds.jsonl:2: malformed JSON*"])
    result.assert_outcomes(passed=1, failed=1)  # failed: the gate
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    errors = suite.report()["completeness"]["errors"]
    assert [(e["nodeid"], e["line"]) for e in errors] == [("preds.jsonl:2", 2)]
    assert suite.documents()["p1"]["score"] == 1.0


def test_missing_prediction_path_is_usage_error(suite: Suite) -> None:
    suite.cases("a.ground-truth.jsonl", [GOOD])
    result = suite.pytester.runpytest("--bizbench-predictions", "v1=nowhere")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--bizbench-predictions v1=nowhere: *nowhere does not exist*"])


def test_sorted_report_documents_across_files(suite: Suite) -> None:
    suite.cases("b.ground-truth.jsonl", [doc("z", {"k": 1}, extracted_fields={"k": 1})])
    suite.cases(
        "a.ground-truth.jsonl", [doc(x, {"k": 1}, extracted_fields={"k": 1}) for x in ("m", "c")]
    )
    suite.pytester.runpytest()
    docs = suite.report()["benchmarks"]["field-accuracy"]["models"]["default"]["documents"]
    assert [(d["case"], d["id"]) for d in docs] == [
        ("a.ground-truth.jsonl", "c"),
        ("a.ground-truth.jsonl", "m"),
        ("b.ground-truth.jsonl", "z"),
    ]
