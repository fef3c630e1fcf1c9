"""QA rows end to end: prediction files, the live hook, subset and limit, runs, the cache."""

from __future__ import annotations

import json
from typing import Any

import pytest
from bizhelpers import Suite, doc, jsonl

FIN = [
    {"financebench_id": "fb-1", "company": "Norvale", "question_type": "metrics-generated",
     "question": "What is Norvale's FY2022 capex (in USD millions)?", "answer": "$412.00",
     "evidence": [{"evidence_text": "Purchases of PP&E (412)"}]},
    {"financebench_id": "fb-2", "company": "Norvale", "question_type": "domain-relevant",
     "question": "What is the FY2022 quick ratio?", "answer": "0.96",
     "evidence": "Quick assets 960; current liabilities 1,000."},
    {"financebench_id": "fb-3", "company": "Ostra", "question_type": "novel-generated",
     "question": "Did Ostra's gross margin improve in FY2022?", "answer": "Yes, from 31% to 34%."},
    {"financebench_id": "fb-4", "company": "Ostra", "question_type": "metrics-generated",
     "question": "What was Ostra's FY2022 revenue growth?", "answer": "-3.2%"},
]  # fmt: skip
LEGAL = [
    {"index": "0", "text": "The mark 'Ivory' for soap.", "answer": "arbitrary"},
    {"index": "1", "text": "The mark 'Salty' for crackers.", "answer": "descriptive"},
]
# m1: fb-1 right (scale), fb-2 refusal, fb-3 right (yes), fb-4 wrong sign;
#     legal 0 right, legal 1 wrong
M1 = {
    "fb-1.json": {"answer": "Capex was $0.41 billion."},
    "fb-2.json": {"answer": "The context does not contain the quick ratio."},
    "fb-3.yml": "answer: 'Yes, it improved.'\n",
    "fb-4.json": {"answer": "Revenue grew 3.2%."},
    "legal-0.json": {"answer": "Arbitrary."},
    "legal-1.json": {"answer": "suggestive"},
}
# m2: FinanceBench result rows and samples; fb-4 has no prediction
M2 = [
    {"financebench_id": "fb-1", "model_answer": "$412 million"},
    {"id": "fb-2", "answers": ["0.96", "The quick ratio is 1.2.", "I do not know."]},
    {"id": "fb-3", "answer": "No."},
    {"id": "legal-0", "answer": "arbitrary"},
    {"id": "legal-1", "answer": "descriptive"},
]


def write_suite(suite: Suite) -> None:
    suite.write("qa/fin.qa.jsonl", jsonl(FIN))
    suite.write("qa/legal.qa.jsonl", jsonl(LEGAL))
    for name, content in M1.items():
        text = content if isinstance(content, str) else json.dumps(content)
        suite.write(f"preds/m1/{name}", text)
    suite.write("preds/m2.jsonl", jsonl(M2))
    suite.write("pytest.ini", "[pytest]\nbizbench_pass_at_k = 1,2\n")


ARGS = ("--bizbench-predictions", "m1=preds/m1", "--bizbench-predictions", "m2=preds/m2.jsonl")


def test_prediction_files_two_models(suite: Suite) -> None:
    write_suite(suite)
    result = suite.pytester.runpytest("-v", *ARGS, "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(
        [
            "qa/fin.qa.jsonl::fb-1[[]qa-answer-m1[]] PASSED 1.00*",
            "qa/fin.qa.jsonl::fb-2[[]qa-answer-m2[]] FAILED 0.33*",
            "qa/fin.qa.jsonl::fb-4[[]qa-answer-m2[]] FAILED 0.00*",
            "qa/legal.qa.jsonl::legal-0[[]qa-answer-m1[]] PASSED 1.00*",
        ]
    )
    assert result.ret == 1  # fb-4 has no m2 prediction
    m1 = suite.documents("qa-answer", "m1")
    assert m1["fb-1"]["details"]["answer"]["rung"] == "numeric"
    assert m1["fb-2"]["details"]["refusal"] is True
    assert m1["fb-3"]["details"]["answer"]["rung"] == "yes-no"
    assert m1["fb-4"]["details"]["answer"]["reason"] == "out-of-tolerance"
    assert m1["legal-0"]["details"]["scorer"] == "exact"  # auto: exact for LegalBench
    metrics = suite.metrics("qa-answer", "m1")
    # right: fb-1, fb-3, legal-0; refused: fb-2; wrong: fb-4, legal-1
    assert metrics["accuracy"] == pytest.approx(3 / 6)
    assert metrics["refusal_rate"] == pytest.approx(1 / 6)
    assert metrics["incorrect_rate"] == pytest.approx(2 / 6)
    assert metrics["pass_at_1"] == pytest.approx(3 / 6)
    assert metrics["pass_at_2"] is None  # every question has one sample
    assert metrics["groups"]["question_type"]["metrics-generated"] == {
        "count": 2, "accuracy": 0.5, "refusal_rate": 0.0, "incorrect_rate": 0.5,
        "attempted_rate": 1.0, "accuracy_given_attempted": 0.5, "f_score": 0.5,
    }  # fmt: skip
    # m2: fb-1 right; fb-2 samples right, wrong, refused; fb-3 wrong; fb-4 missing;
    # legal-0 and legal-1 right
    m2 = suite.documents("qa-answer", "m2")
    assert m2["fb-2"]["details"]["samples"]["n"] == 3
    # pass@2 of fb-2 = 1 - C(2,2)/C(3,2) = 1 - 1/3
    assert m2["fb-2"]["details"]["pass_at_k"] == {
        "1": pytest.approx(1 / 3),
        "2": pytest.approx(2 / 3),
    }
    assert m2["fb-4"]["outcome"] == "failed"
    assert m2["fb-4"]["details"] == {"refusal": False}
    metrics = suite.metrics("qa-answer", "m2")
    # accuracy (1 + 1/3 + 0 + 0 + 1 + 1) / 6; refusals (1/3) / 6; wrong (1/3 + 1 + 1) / 6
    assert metrics["accuracy"] == pytest.approx((10 / 3) / 6)
    assert metrics["refusal_rate"] == pytest.approx((1 / 3) / 6)
    assert metrics["incorrect_rate"] == pytest.approx((7 / 3) / 6)
    # pass@2 over questions with two samples or more: fb-2 only
    assert metrics["pass_at_2"] == pytest.approx(2 / 3)
    report = suite.report()
    assert "qa-answer" in report["benchmarks"]
    assert "m2-vs-m1" in report["benchmarks"]["qa-answer"]["paired"]


def test_scorer_from_ini(suite: Suite) -> None:
    write_suite(suite)
    suite.write("pytest.ini", "[pytest]\nbizbench_qa_scorer = contains\n")
    suite.pytester.runpytest(*ARGS, "-p", "no:cacheprovider")
    m1 = suite.documents("qa-answer", "m1")
    # contains everywhere: "Arbitrary." still holds "arbitrary"; "$0.41 billion" not "$412.00"
    assert m1["legal-0"]["score"] == 1.0
    assert m1["fb-1"]["score"] == 0.0
    assert suite.report()["benchmarks"]["qa-answer"]["config"]["scorer"] == "contains"


HOOK = """
import json, pathlib

def pytest_bizbench_predict(case, model, config):
    with open("calls.jsonl", "a") as log:
        log.write(json.dumps({"id": case.id, "prompt": case.prompt}) + "\\n")
    if case.id == "fb-4":
        raise RuntimeError("model timed out")
    answers = {"fb-1": "$412 million", "fb-2": ["0.96", "N/A"], "fb-3": {"answer": "Yes."},
               "legal-0": "arbitrary", "legal-1": {"answers": ["generic"]}}
    return answers[case.id]
"""


def calls(suite: Suite) -> list[dict[str, Any]]:
    path = suite.path / "calls.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def test_live_hook_prompt_latency_and_a_raising_hook(suite: Suite) -> None:
    write_suite(suite)
    suite.write("conftest.py", HOOK)
    result = suite.pytester.runpytest("-p", "no:cacheprovider")
    assert result.ret == 1
    result.stdout.fnmatch_lines(["*prediction hook failed for fb-4 (model default): RuntimeError*"])
    prompts = {c["id"]: c["prompt"] for c in calls(suite)}
    # open book by default when the row has evidence
    assert prompts["fb-1"] == (
        "Evidence:\nPurchases of PP&E (412)\n\n"
        "Question: What is Norvale's FY2022 capex (in USD millions)?\nAnswer:"
    )
    assert prompts["fb-3"] == "Question: Did Ostra's gross margin improve in FY2022?\nAnswer:"
    assert prompts["legal-0"] == "Question: The mark 'Ivory' for soap.\nAnswer:"
    docs = suite.documents("qa-answer")
    failed = docs["fb-4"]
    assert failed["outcome"] == "failed"
    assert failed["score"] == 0.0
    assert failed["details"] == {"error": "RuntimeError: model timed out", "refusal": False}
    assert all("latency_ms" in d for d in docs.values())
    metrics = suite.metrics("qa-answer")
    # right: fb-1, fb-3, legal-0 and half of fb-2; refused: half of fb-2;
    # wrong: legal-1 and fb-4, whose hook raised
    assert metrics["accuracy"] == pytest.approx(3.5 / 6)
    assert metrics["refusal_rate"] == pytest.approx(0.5 / 6)
    assert metrics["incorrect_rate"] == pytest.approx(2 / 6)
    latencies = sorted(d["latency_ms"] for d in docs.values())
    assert metrics["latency_p50_ms"] == pytest.approx((latencies[2] + latencies[3]) / 2, abs=2e-3)
    assert metrics["latency_mean_ms"] == pytest.approx(sum(latencies) / 6, abs=2e-3)
    assert metrics["latency_p95_ms"] >= metrics["latency_p50_ms"]
    assert suite.report()["completeness"]["missing"][0]["id"] == "fb-4"


def test_closed_book(suite: Suite) -> None:
    write_suite(suite)
    suite.write("conftest.py", HOOK)
    suite.write("pytest.ini", "[pytest]\nbizbench_open_book = false\n")
    suite.pytester.runpytest("-p", "no:cacheprovider", "qa/fin.qa.jsonl")
    prompts = {c["id"]: c["prompt"] for c in calls(suite)}
    assert prompts["fb-1"] == (
        "Question: What is Norvale's FY2022 capex (in USD millions)?\nAnswer:"
    )


def test_subset_and_limit_never_ask_the_rows_left_out(suite: Suite) -> None:
    write_suite(suite)
    suite.write("conftest.py", HOOK)
    suite.write("qa/bad.qa.jsonl", jsonl([{"id": "g1", "question": "Q?"}]))
    result = suite.pytester.runpytest(
        "-p", "no:cacheprovider", "--bizbench-subset", "metrics-generated", "qa/fin.qa.jsonl"
    )
    result.assert_outcomes(passed=1, failed=2, deselected=2)  # fb-4 and the gate
    assert [c["id"] for c in calls(suite)] == ["fb-1", "fb-4"]
    assert suite.report()["completeness"]["filtered"] is True
    (suite.path / "calls.jsonl").unlink()
    # the first two questions in item order across files (bad, fin, legal); the bad
    # row is an error item, reported, never dropped
    result = suite.pytester.runpytest("-p", "no:cacheprovider", "--bizbench-limit", "2")
    result.assert_outcomes(passed=2, failed=1, errors=1, deselected=4)  # failed: the gate
    assert [c["id"] for c in calls(suite)] == ["fb-1", "fb-2"]
    report = suite.report()
    assert report["completeness"]["filtered"] is True
    assert len(report["completeness"]["errors"]) == 1


def test_subset_with_models_keeps_every_item_of_a_question(suite: Suite) -> None:
    write_suite(suite)
    result = suite.pytester.runpytest(*ARGS, "-p", "no:cacheprovider", "--bizbench-limit", "1")
    result.assert_outcomes(passed=3, deselected=10)  # two items and the gate
    assert set(suite.documents("qa-answer", "m1")) == {"fb-1"}
    assert set(suite.documents("qa-answer", "m2")) == {"fb-1"}


@pytest.mark.parametrize(
    ("args", "ini", "message"),
    [
        (["--bizbench-limit", "0"], "", "--bizbench-limit 0: must be at least 1"),
        (
            [],
            "bizbench_qa_scorer = fuzzy",
            "ini bizbench_qa_scorer = 'fuzzy' must be auto, exact, contains or numeric",
        ),
        ([], "bizbench_pass_at_k = 1,0", "ini bizbench_pass_at_k = '1,0' must be whole numbers"),
        ([], "bizbench_pass_at_k = one", "ini bizbench_pass_at_k = 'one' must be whole numbers"),
        ([], "bizbench_open_book = maybe", "ini bizbench_open_book = 'maybe' must be auto"),
    ],
)
def test_bad_qa_options(suite: Suite, args: list[str], ini: str, message: str) -> None:
    write_suite(suite)
    suite.write("pytest.ini", f"[pytest]\n{ini}\n")
    result = suite.pytester.runpytest("-p", "no:cacheprovider", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{message}*"])


def test_judge_hook_turns_on_the_rung(suite: Suite) -> None:
    suite.write(
        "qa/g.qa.jsonl",
        jsonl([{"id": "g1", "question": "Who audits Norvale?", "expected": "Smith & Lowe LLP"}]),
    )
    suite.write(
        "conftest.py",
        "from pytest_bizbench import Judge\n"
        "def pytest_bizbench_predict(case, model, config):\n"
        "    return 'Their auditor is the Smith and Lowe partnership.'\n"
        "def pytest_bizbench_judge(field, expected, actual):\n"
        "    return Judge.parse_score('```json\\n{\"score\": 90}\\n```')\n",
    )
    suite.pytester.runpytest("-p", "no:cacheprovider")
    entry = suite.report()["benchmarks"]["qa-answer"]
    assert entry["config"]["rungs_available"][-1] == "judge"
    assert "scoring_note" not in entry["config"]
    answer = entry["models"]["default"]["documents"][0]["details"]["answer"]
    assert (answer["rung"], answer["score"]) == ("judge", 0.9)


def test_the_cache_answers_a_rerun(suite: Suite) -> None:
    write_suite(suite)
    suite.write("conftest.py", HOOK)
    suite.write("pytest.ini", "[pytest]\nbizbench_prediction_cache = .answers\n")
    suite.pytester.runpytest("-p", "no:cacheprovider")
    first = suite.documents("qa-answer")
    assert len(calls(suite)) == 6
    suite.pytester.runpytest("-p", "no:cacheprovider")
    # only fb-4, whose hook raised, is asked again
    assert [c["id"] for c in calls(suite)[6:]] == ["fb-4"]
    second = suite.documents("qa-answer")
    for case_id in ("fb-1", "fb-2", "legal-1"):
        assert second[case_id]["score"] == first[case_id]["score"]
        assert second[case_id]["latency_ms"] == first[case_id]["latency_ms"]
    # a changed row is a new entry
    changed = [dict(FIN[0], answer="$413.00"), *FIN[1:]]
    suite.write("qa/fin.qa.jsonl", jsonl(changed))
    suite.pytester.runpytest("-p", "no:cacheprovider", "qa/fin.qa.jsonl")
    assert [c["id"] for c in calls(suite)[7:]] == ["fb-1", "fb-4"]


def test_runs_of_any_case_type(suite: Suite) -> None:
    suite.cases(
        "cases/a.ground-truth.jsonl",
        [doc("inv-1", {"vendor": "Acme", "total": 100}), doc("inv-2", {"total": 5})],
    )
    runs = {
        # runs score 1.0, 0.5, 0.0: mean 0.5, shown the median (run 1)
        "inv-1": {
            "runs": [
                {"vendor": "Acme", "total": 100},
                {"vendor": "Acme", "total": 90},
                {"vendor": "Initech", "total": 1},
            ]
        },
        "inv-2": {"runs": [{"total": 5}, 7]},
    }
    suite.write("preds.json", json.dumps(runs))
    result = suite.pytester.runpytest(
        "-p", "no:cacheprovider", "--bizbench-predictions", "preds.json"
    )
    assert result.ret == 1
    result.stdout.fnmatch_lines(["*prediction for 'inv-2' is int, not an object of fields*"])
    docs = suite.documents()
    assert docs["inv-1"]["score"] == 0.5
    # the pass mark is field-accuracy's min_score 0.5: the run scoring 0 fails, a flip
    assert docs["inv-1"]["details"]["runs"] == {
        "n": 3, "passed": 2, "mean": 0.5, "min": 0.0, "max": 1.0, "shown": 1,
        "scores": [1.0, 0.5, 0.0],
    }  # fmt: skip
    assert docs["inv-1"]["details"]["flip"] is True
    assert docs["inv-1"]["details"]["total"]["actual"] == 90  # the shown run's details
    assert docs["inv-2"]["outcome"] == "error"


def test_qa_runs_are_samples(suite: Suite) -> None:
    suite.write("qa/fin.qa.jsonl", jsonl(FIN[:1]))
    suite.write("qa/gen.qa.jsonl", jsonl([{"id": "g1", "question": "Q?", "expected": "A"}]))
    runs = {
        "fb-1": {"runs": [{"answer": "$412 million"}, {"answers": ["$1 million", "412"]}]},
        "g1": {"runs": [{"answer": "A"}, {"answer": None}]},
    }
    suite.write("preds.json", json.dumps(runs))
    result = suite.pytester.runpytest(
        "-p", "no:cacheprovider", "--bizbench-predictions", "preds.json"
    )
    result.stdout.fnmatch_lines(["*prediction for 'g1': run 2 of 2 holds no prediction*"])
    details = suite.documents("qa-answer")["fb-1"]["details"]
    assert details["samples"]["scores"] == [1.0, 0.0, 1.0]
    assert "runs" not in details


def test_serial_and_xdist_reports_agree(suite: Suite) -> None:
    write_suite(suite)
    reports = []
    for mode, name in ((["-p", "no:xdist"], "serial.json"), (["-n", "2"], "n2.json")):
        suite.pytester.runpytest_subprocess(
            *ARGS, *mode, "-p", "no:cacheprovider", "--bizbench-limit", "5",
            "--bizbench-report", name,
        )  # fmt: skip
        report = suite.report(name)
        report.pop("run")
        reports.append(report)
    assert reports[0] == reports[1]
    assert len(reports[0]["benchmarks"]["qa-answer"]["models"]["m1"]["documents"]) == 5
