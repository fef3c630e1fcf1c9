"""Ground-truth cases end to end: collection, predictions, scores, report, gate."""

from __future__ import annotations

import json
import math

import pytest
from bizhelpers import Suite, doc, jsonl

# Three invoices whose field-accuracy scores are easy to work out by hand:
#   inv-1: vendor exact after case folding, total "$100.00" parses to 100,
#          date 05/01/2024 read day-first is 2024-01-05           -> 3/3 = 1.0
#   inv-2: vendor "Initech" vs "Globex" far apart, total 250 vs 200 (25% off) -> 0/2 = 0.0
#   inv-3: vendor and total right, po_number missing                -> 2/3
CASES = [
    doc("inv-2", {"vendor": "Globex", "total": 200}),
    doc("inv-1", {"vendor": "Acme", "total": 100, "date": "2024-01-05"}),
    doc("inv-3", {"vendor": "Umbrella", "total": 50, "po_number": "X1"}),
]
PREDICTIONS = {
    "inv-1": {"vendor": "ACME", "total": "$100.00", "date": "05/01/2024"},
    "inv-2": {"vendor": "Initech", "total": 250},
    "inv-3": {"vendor": "Umbrella", "total": 50},
}


def write_basic(suite: Suite) -> None:
    suite.cases("cases/a.ground-truth.jsonl", CASES)
    suite.write("preds.json", json.dumps(PREDICTIONS))


def test_items_named_sorted_and_scored(suite: Suite) -> None:
    write_basic(suite)
    result = suite.pytester.runpytest("-v", "--bizbench-predictions", "preds.json")
    result.stdout.fnmatch_lines(
        [
            "cases/a.ground-truth.jsonl::inv-1[[]field-accuracy[]] PASSED 1.00*",
            "cases/a.ground-truth.jsonl::inv-2[[]field-accuracy[]] FAILED 0.00*",
            "cases/a.ground-truth.jsonl::inv-3[[]field-accuracy[]] PASSED 0.67*",
        ]
    )
    assert result.ret == 1  # a case that scores 0 never passes
    docs = suite.documents()
    assert docs["inv-1"]["score"] == 1.0
    assert docs["inv-2"]["score"] == 0.0
    assert docs["inv-3"]["score"] == pytest.approx(2 / 3)
    assert docs["inv-3"]["nodeid"] == "cases/a.ground-truth.jsonl::inv-3[field-accuracy]"
    assert docs["inv-3"]["case"] == "cases/a.ground-truth.jsonl"
    assert docs["inv-3"]["labels"] == ["invoice"]
    assert docs["inv-3"]["details"]["po_number"]["reason"] == "missing"
    metrics = suite.metrics()
    assert metrics["accuracy"] == pytest.approx((1.0 + 0.0 + 2 / 3) / 3)
    assert metrics["total_documents"] == 3
    # completeness: inv-1 3/3, inv-2 2/2, inv-3 2/3 present
    assert metrics["completeness"] == pytest.approx((1 + 1 + 2 / 3) / 3)
    # correctness over present fields: 1, 0, 1
    assert metrics["correctness"] == pytest.approx(2 / 3)
    # vendor 1,0,1; total 1,0,1; date 1; po_number 0
    assert metrics["per_field_accuracy"] == {
        "date": 1.0,
        "po_number": 0.0,
        "total": pytest.approx(2 / 3),
        "vendor": pytest.approx(2 / 3),
    }


def test_min_score_fails_with_a_field_diff(suite: Suite) -> None:
    write_basic(suite)
    result = suite.pytester.runpytest(
        "--bizbench-predictions", "preds.json", "--bizbench-min-score", "0.5"
    )
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        [
            "*inv-2 scored 0.00 on field-accuracy (model default): below the pass mark 0.50 "
            "(--bizbench-min-score)",
            "  vendor  expected 'Globex', got 'Initech'  "
            "(fuzzy 0.00, similarity 0.15, below-strictness)",
            "  total   expected 200, got 250  (number 0.00, out-of-tolerance)",
        ]
    )
    result.assert_outcomes(passed=3, failed=1)  # the gate passes: no threshold
    assert suite.documents()["inv-2"]["outcome"] == "failed"


def test_case_min_score_beats_the_option(suite: Suite) -> None:
    suite.cases(
        "a.ground-truth.jsonl",
        [
            doc(
                "x",
                {"vendor": "Acme", "total": 1},
                min_score=0.9,
                extracted_fields={"vendor": "Acme", "total": 2},
            ),
        ],
    )
    result = suite.pytester.runpytest("--bizbench-min-score", "0.1")
    result.stdout.fnmatch_lines(["*x scored 0.50 * below the pass mark 0.90 (case min_score)"])
    assert result.ret == 1


def test_inline_extracted_fields_and_json_documents_form(suite: Suite) -> None:
    suite.write(
        "b.ground-truth.json",
        json.dumps(
            {
                "documents": [
                    doc("d1", {"name": "Ann"}, extracted_fields={"name": "ann"}),
                    doc(
                        "d2",
                        {"name": "Bob", "age": 40},
                        extracted_fields={"name": "Bob", "age": "41"},
                    ),
                ]
            }
        ),
    )
    result = suite.pytester.runpytest()
    assert result.ret == 0
    docs = suite.documents()
    assert docs["d1"]["score"] == 1.0
    # 41 vs 40 is 2.5% off, outside the 1% tolerance
    assert docs["d2"]["score"] == 0.5


def test_single_document_json_file(suite: Suite) -> None:
    suite.write(
        "one.ground-truth.json", json.dumps(doc("solo", {"a": True}, extracted_fields={"a": "yes"}))
    )
    result = suite.pytester.runpytest("-v")
    result.stdout.fnmatch_lines(["one.ground-truth.json::solo[[]field-accuracy[]] PASSED 1.00*"])


def test_prediction_directory_and_jsonl_side_by_side(suite: Suite) -> None:
    write_basic(suite)
    for case_id, fields in PREDICTIONS.items():
        suite.write(f"v1/{case_id}.json", json.dumps(fields))
    suite.write("v1/inv-2.json", json.dumps({"vendor": "Globex", "total": 200}))
    suite.write("v2.jsonl", jsonl({"id": k, "extracted_fields": v} for k, v in PREDICTIONS.items()))
    result = suite.pytester.runpytest(
        "-v", "--bizbench-predictions", "v1=v1", "--bizbench-predictions", "v2=v2.jsonl"
    )
    result.stdout.fnmatch_lines(
        [
            "*::inv-1[[]field-accuracy-v1[]] PASSED 1.00*",
            "*::inv-1[[]field-accuracy-v2[]] PASSED 1.00*",
            "*::inv-2[[]field-accuracy-v1[]] PASSED 1.00*",
            "*::inv-2[[]field-accuracy-v2[]] FAILED 0.00*",
        ]
    )
    assert suite.metrics(model="v1")["accuracy"] == pytest.approx((1 + 1 + 2 / 3) / 3)
    assert suite.metrics(model="v2")["accuracy"] == pytest.approx((1 + 0 + 2 / 3) / 3)
    result.stdout.fnmatch_lines(["field-accuracy: models side by side:", "metric*v1*v2"])
    # B against A (the first model given): only inv-2 differs, by 0 - 1
    paired = suite.report()["benchmarks"]["field-accuracy"]["paired"]["v2-vs-v1"]
    assert paired["delta"] == pytest.approx(-1 / 3)
    assert paired["verdict"] == "regressed"
    # resampling the deltas (0, -1, 0): the mirror image of 0, 0, 1, whose BCa
    # interval is [0, 1] (test_baseline_stats), so [-1, 0]. One case moved: p 1.
    # sd = sqrt(1/3), se = 1/3, t with 2 df: 0.95 / sqrt(0.04875) + 0.6 / sqrt(0.32)
    assert paired["cases"] == {
        "n": 3,
        "mean_delta": pytest.approx(-1 / 3),
        "b_better": 0,
        "a_better": 1,
        "ties": 2,
        "ci95": [-1.0, 0.0],
        "p_value": 1.0,
        "p_holm": 1.0,
        "significant": False,
        "mde": pytest.approx((0.95 / math.sqrt(0.04875) + 0.6 / math.sqrt(0.32)) / 3),
    }
    # -k selects by model naturally
    result = suite.pytester.runpytest(
        "-k", "v2", "--bizbench-predictions", "v1=v1", "--bizbench-predictions", "v2=v2.jsonl"
    )
    result.assert_outcomes(passed=3, failed=1)  # three items (inv-2 scores 0) and the gate
    assert list(suite.report()["benchmarks"]["field-accuracy"]["models"]) == ["v2"]
    assert suite.report()["completeness"]["filtered"] is True


def test_yaml_prediction_file_in_directory(suite: Suite) -> None:
    suite.cases("a.ground-truth.jsonl", [doc("y1", {"answer": "no", "n": 3})])
    suite.write("preds/y1.yml", "answer: 'no'\nn: 3\n")
    result = suite.pytester.runpytest("--bizbench-predictions", "preds")
    assert result.ret == 0
    assert suite.documents()["y1"]["score"] == 1.0


def test_ground_truth_file_as_its_own_prediction(suite: Suite) -> None:
    suite.cases("a.ground-truth.jsonl", [doc("z", {"k": "v"})])
    suite.write("self.json", json.dumps({"z": {"extracted_fields": {"k": "V"}}}))
    suite.pytester.runpytest("--bizbench-predictions", "self.json")
    assert suite.documents()["z"]["score"] == 1.0


def test_missing_prediction_fails_counts_zero_and_is_listed(suite: Suite) -> None:
    write_basic(suite)
    suite.write("preds.json", json.dumps({"inv-1": PREDICTIONS["inv-1"]}))
    result = suite.pytester.runpytest("--bizbench-predictions", "preds.json")
    assert result.ret == 1
    result.stdout.fnmatch_lines(["*no prediction for inv-2 (model default)*"])
    result.assert_outcomes(passed=1, failed=3)  # two missing, and the gate
    report = suite.report()
    assert suite.metrics()["accuracy"] == pytest.approx(1 / 3)
    assert [m["id"] for m in report["completeness"]["missing"]] == ["inv-2", "inv-3"]
    assert report["completeness"]["complete"] is False
    assert report["gate"]["passed"] is False
    assert "incomplete run: 2 missing predictions" in report["gate"]["reasons"]


def test_predict_hook_with_latency(suite: Suite) -> None:
    suite.cases("a.ground-truth.jsonl", [doc("h1", {"k": "v"}), doc("h2", {"k": "w"})])
    suite.write(
        "conftest.py",
        """
def pytest_bizbench_predict(case, model, config):
    if case.id == "h2":
        raise RuntimeError("model timed out")
    return {"k": "v"}
""",
    )
    result = suite.pytester.runpytest()
    assert result.ret == 1
    docs = suite.documents()
    assert docs["h1"]["score"] == 1.0
    assert docs["h1"]["latency_ms"] >= 0
    assert docs["h2"]["outcome"] == "failed"
    assert docs["h2"]["details"]["error"] == "RuntimeError: model timed out"
    result.stdout.fnmatch_lines(
        ["*prediction hook failed for h2 (model default): RuntimeError: model timed out*"]
    )


def test_thresholds_gate_exit_code(suite: Suite) -> None:
    write_basic(suite)
    # the thresholds alone decide here: inv-2, scoring 0, passes a pass mark of 0
    args = ["--bizbench-predictions", "preds.json", "--bizbench-min-score", "0"]
    # accuracy = 5/9 = 0.5556
    result = suite.pytester.runpytest(*args, "--bizbench-threshold", "field-accuracy:accuracy>=0.5")
    assert result.ret == 0
    result = suite.pytester.runpytest(
        *args,
        "--bizbench-threshold",
        "field-accuracy:accuracy >= 0.6",
        "--bizbench-threshold",
        "field-accuracy:default:per_field_accuracy.date>=1",
    )
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        [
            "*threshold not met: field-accuracy:default:accuracy = 0.5556, needs >= 0.6",
        ]
    )
    thresholds = suite.report()["thresholds"]
    assert thresholds == [
        {
            "benchmark": "field-accuracy",
            "model": "default",
            "metric": "accuracy",
            "op": ">=",
            "value": 0.6,
            "actual": pytest.approx(5 / 9),
            "passed": False,
            # the cases that pull it down most, lowest first
            "cases": [
                {"case": "cases/a.ground-truth.jsonl", "id": "inv-2", "score": 0.0},
                {
                    "case": "cases/a.ground-truth.jsonl",
                    "id": "inv-3",
                    "score": pytest.approx(2 / 3),
                },
            ],
        },
        {
            "benchmark": "field-accuracy",
            "model": "default",
            "metric": "per_field_accuracy.date",
            "op": ">=",
            "value": 1.0,
            "actual": 1.0,
            "passed": True,
        },
    ]


def test_threshold_from_ini_and_bad_syntax_is_usage_error(suite: Suite) -> None:
    write_basic(suite)
    suite.write(
        "pytest.ini",
        "[pytest]\nbizbench_thresholds =\n"
        "    field-accuracy:accuracy > 0.99\nbizbench_predictions = preds.json\n",
    )
    result = suite.pytester.runpytest()
    assert result.ret == 1
    result = suite.pytester.runpytest("--bizbench-threshold", "accuracy>=0.9")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*bad threshold 'accuracy>=0.9'*BENCH[[]:MODEL[]]:METRIC OP VALUE*"]
    )
    # an empty value (a CI variable that was not set) must not turn the gate off
    result = suite.pytester.runpytest("--bizbench-threshold= ")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*--bizbench-threshold is empty: expected BENCH[[]:MODEL[]]:METRIC OP VALUE"]
    )


def test_report_shape_terminal_and_step_summary(
    suite: Suite, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_basic(suite)
    summary = suite.path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    result = suite.pytester.runpytest(
        "--bizbench-predictions", "preds.json", "--bizbench-report", "out/r.json"
    )
    result.stdout.fnmatch_lines(
        [
            "*= bizbench =*",
            "bizbench gate: passed",  # the verdict first, then the tables
            "",
            "benchmark*model*headline*value*",
            "*",
            "field-accuracy*default*accuracy*0.5556*",
            f"bizbench report: {suite.path / 'out' / 'r.json'}",
        ]
    )
    report = suite.report("out/r.json")
    assert set(report) == {
        "schema_version",
        "tool",
        "benchmarks",
        "thresholds",
        "gate",
        "completeness",
        "run",
    }
    bench = report["benchmarks"]["field-accuracy"]
    assert bench["version"] == "1.0.0"
    assert bench["headline_metric"] == "accuracy"
    assert bench["config"]["rungs_available"] == ["exact", "fuzzy"]
    assert bench["config"]["scoring_note"] == "scoring used exact+fuzzy only"
    assert len(bench["fingerprint"]) == 16
    assert report["completeness"] == {
        "complete": True,
        "filtered": False,
        "collected": 3,
        "scored": 3,
        "not_run": 0,
        "interrupted": False,
        "errors": [],
        "missing": [],
        "shard": False,
        "notes": [],
    }
    text = (suite.path / "out" / "r.json").read_text()
    assert (
        text
        == json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        + "\n"
    )
    assert not [p for p in (suite.path / "out").iterdir() if p.name != "r.json"]
    md = summary.read_text()
    assert "## bizbench" in md
    assert "| field-accuracy | default | accuracy | 0.5556 |" in md


def test_junit_properties(suite: Suite) -> None:
    write_basic(suite)
    suite.pytester.runpytest("--bizbench-predictions", "preds.json", "--junitxml", "j.xml")
    xml = (suite.path / "j.xml").read_text()
    assert '<property name="bizbench_score" value="1.0"' in xml
    assert '<property name="bizbench_benchmark" value="field-accuracy"' in xml
    assert '<property name="bizbench_model" value="default"' in xml
    assert '<property name="bizbench" ' not in xml  # the payload stays out of JUnit XML


def test_unwritable_report_is_a_clear_error(suite: Suite) -> None:
    write_basic(suite)
    suite.write("blocker", "a file where a directory should be")
    result = suite.pytester.runpytest(
        "--bizbench-predictions", "preds.json", "--bizbench-report", "blocker/r.json"
    )
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        ["field-accuracy*default*accuracy*", "bizbench: cannot write report *blocker*r.json*"]
    )
    assert "INTERNALERROR" not in result.stdout.str()
    assert "Traceback" not in result.stdout.str()


def test_exit_first_marks_the_run_incomplete(suite: Suite) -> None:
    write_basic(suite)
    result = suite.pytester.runpytest(
        "-x", "--bizbench-predictions", "preds.json", "--bizbench-min-score", "0.5"
    )
    assert result.ret == 1
    completeness = suite.report()["completeness"]
    assert completeness["not_run"] == 1  # inv-3 never ran after inv-2 failed
    assert completeness["complete"] is False


def test_no_cases_no_report(suite: Suite) -> None:
    suite.write("test_plain.py", "def test_ok():\n    pass\n")
    result = suite.pytester.runpytest()
    assert result.ret == 0
    assert not (suite.path / "bizbench-report.json").exists()
    assert "= bizbench =" not in result.stdout.str()


def test_help_lists_options_under_one_group(suite: Suite) -> None:
    result = suite.pytester.runpytest("--help")
    result.stdout.fnmatch_lines(
        [
            "bizbench: evaluate systems against ground truth:",
            "*--bizbench-predictions*",
            "*--bizbench-min-score*",
            "*--bizbench-threshold*",
            "*--bizbench-report*",
        ]
    )


def test_collect_only_writes_no_report_and_passes(suite: Suite) -> None:
    write_basic(suite)
    result = suite.pytester.runpytest("--collect-only", "--bizbench-predictions", "preds.json")
    assert result.ret == 0
    assert not (suite.path / "bizbench-report.json").exists()
