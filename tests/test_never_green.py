"""A run never looks healthy when its input is wrong or its machinery failed: pass
marks above 0, usage errors for empty options and for nothing to score."""

from __future__ import annotations

import json
import sys

import pytest
from bizhelpers import Suite, doc, jsonl

from pytest_bizbench.benchmarks.agent_fs import AgentFs
from pytest_bizbench.benchmarks.field_accuracy import FieldAccuracy
from pytest_bizbench.benchmarks.qa_answer import QAAnswer
from pytest_bizbench.benchmarks.review_assessment import ReviewAssessment
from pytest_bizbench.benchmarks.review_retrieval import ReviewRetrieval
from pytest_bizbench.cli import main
from pytest_bizbench.sdk import BenchmarkPlugin

USAGE = pytest.ExitCode.USAGE_ERROR


def test_every_builtin_pass_mark_is_above_zero() -> None:
    assert BenchmarkPlugin.min_score == 0.5
    assert FieldAccuracy.min_score == 0.5
    assert ReviewAssessment.min_score == 0.5
    assert ReviewRetrieval.min_score == 0.5
    assert QAAnswer.min_score == 0.5  # an answer passes only when it is correct
    assert AgentFs.min_score == 1.0  # a task passes only when every assertion holds


def test_a_case_scoring_zero_fails_by_default(suite: Suite) -> None:
    suite.cases(
        "a.ground-truth.jsonl",
        [doc("inv-001", {"vendor": "Acme"}), doc("inv-002", {"vendor": "Globex"})],
    )
    suite.write(
        "preds.json",
        json.dumps(
            {
                "inv-001": {"extracted_fields": {"vendor": "Acme"}},
                "inv-002": {"extracted_fields": {"vendor": "Zebra Holdings"}},
            }
        ),
    )
    result = suite.pytester.runpytest("--bizbench-predictions", "preds.json", "-v")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "*::inv-001[[]field-accuracy[]] PASSED 1.00*",
            "*::inv-002[[]field-accuracy[]] FAILED 0.00*",
            "inv-002 scored 0.00 on field-accuracy (model default): "
            "below the pass mark 0.50 (field-accuracy min_score)",
        ]
    )
    assert suite.documents()["inv-002"]["outcome"] == "failed"


def test_a_wrong_qa_answer_fails(suite: Suite) -> None:
    suite.write(
        "q.qa.jsonl",
        jsonl(
            [
                {"id": "q-01", "question": "Capital of France?", "expected": "Paris"},
                {"id": "q-02", "question": "Capital of Italy?", "expected": "Rome"},
            ]
        ),
    )
    suite.write("answers.json", json.dumps({"q-01": "Paris", "q-02": "Madrid"}))
    result = suite.pytester.runpytest("--bizbench-predictions", "answers.json", "-v")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "*::q-01[[]qa-answer[]] PASSED 1.00*",
            "*::q-02[[]qa-answer[]] FAILED 0.00*",
            "q-02 scored 0.00 on qa-answer (model default): "
            "below the pass mark 0.50 (qa-answer min_score)",
        ]
    )


def _basic(suite: Suite) -> None:
    suite.cases("a.ground-truth.jsonl", [doc("inv-001", {"vendor": "Acme"})])
    suite.write("preds.json", json.dumps({"inv-001": {"extracted_fields": {"vendor": "Acme"}}}))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bizbench-predictions="], "--bizbench-predictions is empty: expected [MODEL=]PATH"),
        (
            ["--bizbench-predictions", "m="],
            "--bizbench-predictions 'm=': the path is empty: expected m=PATH",
        ),
        (
            ["--bizbench-predictions", "preds.json", "--bizbench-baseline="],
            "--bizbench-baseline is empty: expected PATH",
        ),
        (
            ["--bizbench-predictions", "preds.json", "--bizbench-report= "],
            "--bizbench-report is empty: expected PATH",
        ),
        (
            ["--bizbench-predictions", "preds.json", "--bizbench-save-baseline="],
            "--bizbench-save-baseline is empty: expected PATH",
        ),
    ],
)
def test_an_empty_option_value_is_a_usage_error(
    suite: Suite, args: list[str], message: str
) -> None:
    _basic(suite)
    # a planted prediction in the current directory must never be read
    suite.write("inv-001.json", json.dumps({"extracted_fields": {"vendor": "Acme"}}))
    result = suite.pytester.runpytest(*args)
    assert result.ret == USAGE
    assert f"ERROR: {message}" in result.stderr.lines
    assert not (suite.path / "bizbench-report.json").exists()


def test_an_empty_baseline_option_is_refused_where_the_ini_sets_one(suite: Suite) -> None:
    """An unset CI variable must not switch the ini's baseline off."""
    _basic(suite)
    suite.write("pytest.ini", "[pytest]\nbizbench_baseline = base.json\n")
    result = suite.pytester.runpytest(
        "--bizbench-predictions", "preds.json", "--bizbench-baseline="
    )
    assert result.ret == USAGE
    assert "ERROR: --bizbench-baseline is empty: expected PATH" in result.stderr.lines


@pytest.mark.parametrize(
    ("ini", "message"),
    [
        ("bizbench_predictions =\n", "ini bizbench_predictions is empty: expected [MODEL=]PATH"),
        (
            "bizbench_predictions =\n    m=\n",
            "ini bizbench_predictions 'm=': the path is empty: expected m=PATH",
        ),
        ("bizbench_baseline =\n", "ini bizbench_baseline is empty: expected PATH"),
        ("bizbench_report =\n", "ini bizbench_report is empty: expected PATH"),
    ],
)
def test_an_empty_ini_value_is_a_usage_error(suite: Suite, ini: str, message: str) -> None:
    _basic(suite)
    suite.write("pytest.ini", "[pytest]\n" + ini)
    args = [] if "predictions" in ini else ["--bizbench-predictions", "preds.json"]
    result = suite.pytester.runpytest(*args)
    assert result.ret == USAGE
    assert f"ERROR: {message}" in result.stderr.lines


NOTHING = (
    "nothing to score: no prediction for any of the 2 collected case(s); "
    "pass --bizbench-predictions [MODEL=]PATH (or set ini bizbench_predictions)"
)


@pytest.mark.parametrize("xdist", [False, True])
def test_nothing_to_score_is_one_usage_error(suite: Suite, xdist: bool) -> None:
    suite.cases(
        "a.ground-truth.jsonl",
        [doc("inv-001", {"vendor": "Acme"}), doc("inv-002", {"vendor": "Globex"})],
    )
    run = suite.pytester.runpytest_subprocess if xdist else suite.pytester.runpytest
    result = run(*(["-n", "2"] if xdist else []))
    assert result.ret == USAGE
    assert "no prediction for inv-001" not in result.stdout.str()
    assert NOTHING in result.stdout.str() + result.stderr.str()
    assert not (suite.path / "bizbench-report.json").exists()


@pytest.mark.parametrize("xdist", [False, True])
def test_inline_predictions_or_a_nested_predict_hook_are_something_to_score(
    suite: Suite, xdist: bool
) -> None:
    suite.cases(
        "a/a.ground-truth.jsonl",
        [doc("inv-001", {"vendor": "Acme"}, extracted_fields={"vendor": "Acme"})],
    )
    suite.cases("b/b.ground-truth.jsonl", [doc("inv-002", {"vendor": "Globex"})])
    suite.write(
        "b/conftest.py",
        "def pytest_bizbench_predict(case, model, config):\n"
        "    return {'extracted_fields': {'vendor': 'Globex'}}\n",
    )
    for folder in ("a", "b"):
        run = suite.pytester.runpytest_subprocess if xdist else suite.pytester.runpytest
        result = run(folder, *(["-n", "2"] if xdist else []))
        assert result.ret == pytest.ExitCode.OK, result.stdout.str()


WRONG = (
    "prediction for inv-00{n} has none of the expected fields (vendor, total, ...); "
    'it has fields, id; did you mean "extracted_fields"? (model default)'
)  # the row's keys, its id included
GT = {"vendor": "Acme", "total": 1.0, "invoice_date": "2024-03-05"}


@pytest.mark.parametrize("xdist", [False, True])
def test_predictions_of_the_wrong_shape_are_errors_and_one_gate_reason(
    suite: Suite, xdist: bool
) -> None:
    suite.cases("a.ground-truth.jsonl", [doc(f"inv-00{n}", GT) for n in (1, 2, 3)])
    rows = [{"id": f"inv-00{n}", "fields": GT} for n in (1, 2)]
    suite.write("preds.jsonl", jsonl([*rows, {"id": "inv-003", "extracted_fields": GT}]))
    run = suite.pytester.runpytest_subprocess if xdist else suite.pytester.runpytest
    result = run("--bizbench-predictions", "preds.jsonl", *(["-n", "2"] if xdist else []))
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    docs = suite.documents()
    assert {d: docs[d]["outcome"] for d in docs} == {
        "inv-001": "error",
        "inv-002": "error",
        "inv-003": "passed",
    }
    errors = [e["message"] for e in suite.report()["completeness"]["errors"]]
    assert errors == [WRONG.format(n=1), WRONG.format(n=2)]
    assert suite.report()["gate"]["reasons"][:2] == [
        "incomplete run: 2 errors",
        "predictions preds.jsonl (model default): 2 of 3 rows hold none of their case's "
        'fields; expected rows {"id": "<case id>", "extracted_fields": {"<field>": <value>, ...}}',
    ]


def test_a_few_foreign_predictions_are_errors_without_a_source_reason(suite: Suite) -> None:
    suite.cases("a.ground-truth.jsonl", [doc(f"inv-00{n}", GT) for n in (1, 2, 3)])
    preds = {
        "inv-001": {"seller": "Acme"},  # no hint: no key holds the expected fields
        "inv-002": {"vendor": "Acme", "total": 1.0, "invoice_date": "2024-03-05"},
        "inv-003": {},  # empty: scored, as an extraction that found nothing
    }
    suite.write("preds.json", json.dumps(preds))
    result = suite.pytester.runpytest("--bizbench-predictions", "preds.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    docs = suite.documents()
    assert [docs[d]["outcome"] for d in sorted(docs)] == ["error", "passed", "failed"]
    assert docs["inv-003"]["score"] == 0.0
    assert suite.report()["gate"]["reasons"] == [
        "incomplete run: 1 error",
        "  error: prediction for inv-001 has none of the expected fields (vendor, total, ...); "
        "it has seller (model default)",
    ]


def test_a_threshold_on_a_field_no_document_scored_says_it_is_empty(suite: Suite) -> None:
    cases = [doc(f"inv-00{n}", {"vendor": "Acme", "total": None}) for n in (1, 2)]
    suite.cases("a.ground-truth.jsonl", cases)
    suite.write("preds.json", json.dumps({c["id"]: {"vendor": "Acme"} for c in cases}))
    result = suite.pytester.runpytest(
        "--bizbench-predictions",
        "preds.json",
        "--bizbench-threshold",
        "field-accuracy:per_field_accuracy.total >= 0.9",
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert suite.report()["gate"]["reasons"] == [
        "threshold not met: field-accuracy:default:per_field_accuracy.total >= 0.9: "
        'per_field_accuracy.total has no value: no document scored "total"'
    ]


MISBEHAVING = """
from pytest_bizbench import BenchmarkPlugin, ScoredDocument

class Unrepresentable:
    def __repr__(self):
        raise RuntimeError("no repr")

def loop():
    d = {{"accuracy": 1.0}}
    d["self"] = d
    return d

class Good(BenchmarkPlugin):
    name = "good"
    version = "1.0.0"
    description = "always right"
    target_labels = ["*"]

    def score(self, document):
        return ScoredDocument(document, 1.0, {{}})

class Bad(Good):
    name = "bad"
    description = "misbehaves"

{body}

def pytest_bizbench_add_benchmarks(config):
    return [Good, Bad]
"""
ATTACKS = {
    # a value returned is placed at its method; an exception, where it was raised
    "compute-loop": "    def compute(self, scored):  # HERE\n        return loop()",
    "compute-huge": "    def compute(self, scored):  # HERE\n        return {'accuracy': 10**5000}",
    "compute-exit": "    def compute(self, scored):\n        raise SystemExit(3)  # HERE",
    "compute-genexit": "    def compute(self, scored):\n        raise GeneratorExit()  # HERE",
    "compare_models-loop": (
        "    def compare_models(self, a, b, sa, sb):  # HERE\n        return loop()"
    ),
    "scoring_config-loop": "    def scoring_config(self):  # HERE\n        return loop()",
    "scoring_config-exit": (
        "    def scoring_config(self):\n        raise SystemExit('/usr/bin/python3')  # HERE"
    ),
}
CASE_ATTACKS = {
    "score-exit": "    def score(self, document):\n        raise SystemExit(1)  # HERE",
    "score-repr": (
        "    def score(self, document):  # HERE\n"
        "        return ScoredDocument(document, 1.0, {'x': Unrepresentable()})"
    ),
    "score-huge": (
        "    def score(self, document):  # HERE\n"
        "        return ScoredDocument(document, 1.0, {'x': 10**5000})"
    ),
}


def _misbehaving(suite: Suite, body: str) -> int:
    """Write the suite with two models; the line of `# HERE` in the conftest."""
    text = MISBEHAVING.format(body=body)
    suite.write("conftest.py", text)
    suite.cases("a.ground-truth.jsonl", [doc("c1", {"k": "v"}), doc("c2", {"k": "v"})])
    for model in ("m1", "m2"):
        suite.write(f"{model}.json", json.dumps({"c1": {"k": "v"}, "c2": {"k": "v"}}))
    return next(n for n, line in enumerate(text.splitlines(), 1) if "# HERE" in line)


def _run_models(suite: Suite, *extra: str) -> pytest.RunResult:
    models = ("--bizbench-predictions", "m1=m1.json", "--bizbench-predictions", "m2=m2.json")
    return suite.pytester.runpytest_subprocess(*models, *extra)


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_a_misbehaving_benchmark_method_costs_only_that_benchmark(
    suite: Suite, attack: str
) -> None:
    line = _misbehaving(suite, ATTACKS[attack])
    result = _run_models(suite)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    output = result.stdout.str() + result.stderr.str()
    assert "Traceback" not in output
    assert "cannot write report" not in output
    report = suite.report()
    assert report["benchmarks"]["good"]["models"]["m1"]["metrics"]["accuracy"] == 1.0
    assert report["benchmarks"]["good"]["paired"]["m2-vs-m1"]["delta"] == 0.0
    method = attack.rpartition("-")[0]
    [reason] = [r for r in report["gate"]["reasons"] if "'bad'" in r]
    assert reason.startswith(f"benchmark 'bad': {method}() ")
    assert reason.endswith(f"(at conftest.py:{line})")


@pytest.mark.parametrize("attack", sorted(CASE_ATTACKS))
def test_a_misbehaving_score_costs_only_that_case(suite: Suite, attack: str) -> None:
    line = _misbehaving(suite, CASE_ATTACKS[attack])
    result = _run_models(suite, "-n", "2")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert "Traceback" not in result.stdout.str() + result.stderr.str()
    report = suite.report()
    assert report["benchmarks"]["good"]["models"]["m1"]["metrics"]["accuracy"] == 1.0
    errors = report["completeness"]["errors"]
    assert len(errors) == 4  # c1 and c2 of bad, for each model
    message = errors[0]["message"]
    assert message.startswith("benchmark 'bad'")
    assert message.endswith(f"(at conftest.py:{line})")


BIDI = "\u061c\u200b\u200f\u202a\u202e\u2066\u2069\ufeff"
SPOOF_ID = "img![px](https://tracker.invalid/p.png)" + BIDI


def test_bidi_controls_are_escaped_and_markdown_is_literal_in_every_output(
    suite: Suite, monkeypatch: pytest.MonkeyPatch
) -> None:
    summary = suite.path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    field = "total" + BIDI
    truth = {field: "[x](http://a.invalid)"}
    suite.cases("a.ground-truth.jsonl", [doc(SPOOF_ID, truth), doc("inv-1", truth)])
    # the spoofing case has no prediction: its id is named in the gate's reasons
    suite.write("preds.json", json.dumps({"inv-1": {field: "<b>www.evil.invalid</b>"}}))
    result = suite.pytester.runpytest(
        "-v", "--bizbench-predictions", "preds.json", "--junitxml", "j.xml"
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    report = ("report", "bizbench-report.json", "--format", "html", "-o", "r.html")
    assert suite.pytester.run(sys.executable, "-m", "pytest_bizbench.cli", *report).ret == 0
    md = summary.read_text(encoding="utf-8")
    shown = {
        "terminal": result.stdout.str(),
        "step summary": md,
        "junit": (suite.path / "j.xml").read_text(encoding="utf-8"),
        "html": (suite.path / "r.html").read_text(encoding="utf-8"),
        "report": (suite.path / "bizbench-report.json").read_text(encoding="utf-8"),
    }
    for name, text in shown.items():
        assert not any(c in text for c in BIDI), name
    assert "\\u061c" in shown["terminal"]
    assert SPOOF_ID in suite.documents()  # the report's data is the id itself, escaped
    assert "no prediction for img!\\[px\\](https\\://tracker.invalid/p.png)\\u061c" in md
    assert "| per_field_accuracy.total\\u061c\\u200b\\u200f" in md
    assert "](" not in md.replace("\\](", "")  # no link or image
    assert "https://" not in md
    assert "<b>" not in md


def test_data_cannot_add_lines_to_a_failure_or_raw_controls_to_junit(suite: Suite) -> None:
    """A newline in a case id or a field name is shown as `\\x0a` in the failure text
    (terminal and JUnit), so it cannot forge a line; the model's name in JUnit's
    properties is escaped like every other output."""
    field = "total\n\n## Gate: passed"
    suite.cases("a.ground-truth.jsonl", [doc("c1\nPASSED fake", {field: "x"})])
    model = "m\u202eX"
    suite.write("preds.jsonl", jsonl([{"id": "c1\nPASSED fake", field: "y"}]))
    result = suite.pytester.runpytest(
        "--bizbench-predictions", f"{model}=preds.jsonl", "--junitxml", "j.xml"
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    lines = result.stdout.lines
    assert not any(line.startswith(("PASSED fake", "## Gate")) for line in lines)
    assert any("c1\\x0aPASSED fake scored 0.00" in line for line in lines)
    junit = (suite.path / "j.xml").read_text(encoding="utf-8")
    assert "\u202e" not in junit
    assert 'value="m\\u202eX"' in junit
    assert "\nPASSED fake" not in junit


def test_a_predicted_lone_surrogate_is_cached_and_scored(suite: Suite) -> None:
    suite.write("q.qa.jsonl", jsonl([{"id": "q1", "question": "Q?", "expected": "yes"}]))
    ini = "[pytest]\nbizbench_prediction_cache = .cache\nbizbench_qa_scorer = contains\n"
    suite.write("pytest.ini", ini)
    suite.write(
        "conftest.py",
        "def pytest_bizbench_predict(case, model, config):\n"
        "    with open('calls.txt', 'a') as fh:\n"
        "        fh.write('x')\n"
        "    return {'answer': 'yes \\udfff'}\n",
    )
    for _ in range(2):
        result = suite.pytester.runpytest("-p", "no:cacheprovider")
        assert result.ret == pytest.ExitCode.OK
        assert suite.documents("qa-answer")["q1"]["outcome"] == "passed"
    assert (suite.path / "calls.txt").read_text() == "x"  # the second run read the cache
    cached = [p.name for p in (suite.path / ".cache").rglob("*") if p.is_file()]
    assert len(cached) == 1
    assert not cached[0].endswith(".tmp")


def test_scaffold_over_a_dangling_link_is_refused(
    pytester: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    (pytester.path / "demo").symlink_to(pytester.path / "nowhere")
    assert main(["scaffold", "benchmark", "demo"]) == 1
    err = capsys.readouterr().err
    assert (
        err.strip()
        == f"bizbench scaffold: {pytester.path / 'demo'} already exists; nothing was changed"
    )
    assert not (pytester.path / "nowhere").exists()


def test_a_compare_that_raises_costs_only_that_benchmarks_verdict(suite: Suite) -> None:
    line = _misbehaving(
        suite, "    def compare(self, base, cand):\n        raise SystemExit(2)  # HERE"
    )
    args = ("--bizbench-predictions", "m1.json")
    assert suite.pytester.runpytest(*args, "--bizbench-save-baseline", "base.json").ret == 0
    result = suite.pytester.runpytest(*args, "--bizbench-baseline", "base.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert "Traceback" not in result.stdout.str()
    report = suite.report()
    assert report["benchmarks"]["good"]["comparison"]["default"]["verdict"] == "neutral"
    assert report["gate"]["reasons"] == [
        f"benchmark 'bad': compare() raised SystemExit: 2 (at conftest.py:{line})"
    ]


def test_a_keyboard_interrupt_in_score_still_stops_the_run(suite: Suite) -> None:
    _misbehaving(suite, "    def score(self, document):\n        raise KeyboardInterrupt  # HERE")
    result = suite.pytester.runpytest_subprocess("--bizbench-predictions", "m1.json")
    assert result.ret == pytest.ExitCode.INTERRUPTED
