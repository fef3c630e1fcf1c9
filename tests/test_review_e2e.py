"""Review golden assessments end to end: items, scores, report, models, bad input."""

from __future__ import annotations

import json
from typing import Any

import pytest
from bizhelpers import Suite, glob_escape, jsonl

GOLDEN = """\
schema_version: "0.4"
bundle_id: acme-dpa
template_id: saas-security-v2
assumptions: [The customer is in the EU.]
question_answers: {stores_personal_data: yes}
requirements:
  R1:
    assessment: yes
    primary_evidence:
      p1:
        document: dpa.pdf
        title: 7.1 Encryption
        text: All customer data is encrypted at rest using AES-256.
    supporting_evidence:
      s1:
        document: annex.pdf
        title: Annex II
        text: Encryption keys are rotated every twelve months.
  R2:
    assessment: partial
    primary_evidence:
      p2:
        document: dpa.pdf
        title: 9 Breaches
        text: The processor notifies the customer of a breach within 72 hours.
    supporting_evidence: {}
  R3:
    assessment: no
    primary_evidence: {}
    supporting_evidence: {}
  R4:
    assessment: not_applicable
"""
P1 = {"title": "7.1 Encryption", "text": "All customer data is encrypted at rest using AES-256."}
UNRELATED = {"title": "Governing law", "text": "0000 1111 2222"}

# v1, a YAML file per bundle. R3's `no` must stay the string "no" (YAML 1.1 would
# read False); R4 is left out, so it has no prediction.
V1 = """\
requirements:
  R1:
    assessment: yes
    primary_evidence: [p1]
    supporting_evidence: {s1: null}
    retrieved:
      - {title: "Governing law", text: "0000 1111 2222"}
      - {title: "7.1 Encryption", text: "All customer data is encrypted at rest using AES-256."}
  R2:
    assessment: partial
    supporting_evidence: [p2]
  R3:
    assessment: no
"""
# v2, JSONL rows keyed by bundle_id
V2_ROW = {
    "id": "acme-dpa",
    "requirements": {
        "R1": {
            "assessment": "partial",
            "primary_evidence": ["p1", "s1"],
            "retrieved": [P1, UNRELATED],
        },
        "R2": {"assessment": "no", "primary_evidence": {"p2": None}},
        "R3": {"assessment": "Partial"},
        "R4": {"assessment": "not applicable"},
    },
}
CASE_FILE = "review/dpa.golden-assessment.yml"
NODE = f"{CASE_FILE}::acme-dpa"


def write_suite(suite: Suite) -> None:
    suite.write(CASE_FILE, GOLDEN)
    suite.write("preds/v1/acme-dpa.yml", V1)
    suite.write("preds/v2.jsonl", jsonl([V2_ROW]))


TWO_MODELS = (
    "--bizbench-predictions",
    "v1=preds/v1",
    "--bizbench-predictions",
    "v2=preds/v2.jsonl",
)


def test_requirements_are_items_scored_by_both_benchmarks(suite: Suite) -> None:
    write_suite(suite)
    result = suite.pytester.runpytest("-v", "-rs", "--bizbench-predictions", "preds/v1")
    result.stdout.fnmatch_lines(
        [
            f"{glob_escape(NODE)}/R1[[]review-assessment[]] PASSED 1.00 "
            "(verdict yes, expected yes, evidence 1.00)*",
            f"{glob_escape(NODE)}/R1[[]review-retrieval[]] PASSED 0.50 (p1 EXACT, s1 MISS)*",
            f"{glob_escape(NODE)}/R2[[]review-assessment[]] PASSED 0.75 *",
            f"{glob_escape(NODE)}/R2[[]review-retrieval[]] SKIPPED*",
            f"{glob_escape(NODE)}/R3[[]review-assessment[]] PASSED 1.00 (verdict no, expected no)*",
            f"{glob_escape(NODE)}/R4[[]review-assessment[]] FAILED*",
        ]
    )
    result.stdout.fnmatch_lines(
        [
            "*no prediction for acme-dpa/R4 (model default)*",
            "SKIPPED * acme-dpa/R2: the prediction of model default has no 'retrieved' parts*",
            "SKIPPED * acme-dpa/R3: the prediction of model default has no 'retrieved' parts*",
        ]
    )
    assert result.ret == 1  # the missing prediction fails R4 and the gate
    docs = suite.documents("review-assessment")
    assert sorted(docs) == ["acme-dpa/R1", "acme-dpa/R2", "acme-dpa/R3", "acme-dpa/R4"]
    r2 = docs["acme-dpa/R2"]
    assert r2["nodeid"] == f"{NODE}/R2[review-assessment]"
    assert r2["case"] == CASE_FILE
    # partial = partial: compliance 1; p2 (primary) cited as supporting: evidence 0.5
    assert (r2["details"]["compliance"], r2["details"]["evidence"]) == (1.0, 0.5)
    assert r2["score"] == 0.75  # 0.5 x 1 + 0.5 x 0.5
    r4 = docs["acme-dpa/R4"]
    assert (r4["outcome"], r4["score"]) == ("failed", 0.0)
    assert (r4["details"]["compliance"], r4["details"]["evidence"]) == (0.0, None)
    metrics = suite.metrics("review-assessment")
    assert metrics["mean_combined_score"] == pytest.approx((1 + 0.75 + 1 + 0) / 4)
    assert metrics["mean_compliance_score"] == pytest.approx((1 + 1 + 1 + 0) / 4)
    assert metrics["mean_evidence_score"] == pytest.approx((1 + 0.5) / 2)  # R1, R2 have parts
    assert metrics["accuracy"] == pytest.approx(3 / 4)
    assert metrics["total_requirements"] == 4
    assert metrics["per_requirement"]["acme-dpa/R1"]["parts"] == {"p1": 1.0, "s1": 1.0}
    retrieval = suite.documents("review-retrieval")
    # R1 scored; R2 and R3 skipped (no list); R4 has no prediction at all
    assert sorted(retrieval) == ["acme-dpa/R1", "acme-dpa/R4"]
    assert retrieval["acme-dpa/R1"]["details"]["categories"] == {"p1": "EXACT", "s1": "MISS"}
    assert retrieval["acme-dpa/R4"]["details"] == {"recall": None, "categories": {}}
    rmetrics = suite.metrics("review-retrieval")
    assert rmetrics["recall"] == 0.5  # R1 only: R4 has nothing to find
    assert rmetrics["category_counts"] == {
        "EXACT": 1,
        "BROAD": 0,
        "NARROW": 0,
        "WEAK": 0,
        "MISS": 1,
    }
    assert (rmetrics["mrr"], rmetrics["recall_at_1"], rmetrics["recall_at_5"]) == (0.5, 0.0, 0.5)
    report = suite.report()
    assert report["benchmarks"]["review-assessment"]["headline_metric"] == "mean_combined_score"
    assert [m["id"] for m in report["completeness"]["missing"]] == ["acme-dpa/R4"] * 2


def test_two_models_side_by_side(suite: Suite) -> None:
    write_suite(suite)
    result = suite.pytester.runpytest(*TWO_MODELS, "-v")
    result.stdout.fnmatch_lines(
        [
            "review-assessment  v1 *mean_combined_score  0.6875*",
            "review-assessment  v2 *mean_combined_score  0.7396*",
            "review-assessment: models side by side:",
            "metric *v1 *v2",
            "*",
            "mean_combined_score *0.6875 *0.7396",
            "*",
            "mean_compliance_score *0.7500 *0.6250",
            "*",
            "review-assessment v2-vs-v1: by requirements (a = v1, b = v2):",
            "requirements  a        a_score  b               b_score  delta    expected",
            "*",
            # worst first: R3 fell by 0.5, R1 by 0.29; R4 gained (v1 gave no verdict)
            "acme-dpa/R3   no       1.0000   partial         0.5000   -0.5000  no",
            "acme-dpa/R1   yes      1.0000   partial         0.7083   -0.2917  yes",
            "*",
            "acme-dpa/R4   —        0.0000   not_applicable  1.0000   1.0000   not_applicable",
        ]
    )
    report = suite.report()
    bench = report["benchmarks"]["review-assessment"]
    assert sorted(bench["models"]) == ["v1", "v2"]
    # v1: R1 1.0, R2 0.75, R3 1.0, R4 missing 0 -> mean 2.75 / 4 = 0.6875
    # v2: R1 partial vs yes 0.5; p1 primary as primary (2 x 1.0), s1 supporting cited
    #     as primary (1 x 0.75): evidence 2.75 / 3; combined 0.25 + 0.5 x 2.75/3 = 0.7083
    #     R2 no vs partial 0.5, p2 as primary 1.0: 0.75; R3 0.5; R4 1.0
    #     -> mean (0.7083 + 0.75 + 0.5 + 1) / 4 = 0.7396
    v2 = {d["id"]: d for d in bench["models"]["v2"]["documents"]}
    assert v2["acme-dpa/R1"]["details"]["evidence"] == pytest.approx(2.75 / 3)
    assert v2["acme-dpa/R1"]["score"] == pytest.approx(0.5 * 0.5 + 0.5 * 2.75 / 3)
    assert v2["acme-dpa/R2"]["score"] == pytest.approx(0.5 * 0.5 + 0.5 * 1.0)  # partial vs no
    assert v2["acme-dpa/R3"]["score"] == 0.5  # "Partial" read as partial, vs no
    assert v2["acme-dpa/R4"]["score"] == 1.0  # "not applicable" read as not_applicable
    paired = bench["paired"]["v2-vs-v1"]
    assert paired["models"] == {"a": "v1", "b": "v2"}
    assert paired["requirements"]["acme-dpa/R2"]["delta"] == pytest.approx(-0.0)
    assert paired["cases"]["n"] == 4
    retrieval = report["benchmarks"]["review-retrieval"]["models"]["v2"]["documents"]
    # v2 retrieved p1 first: EXACT at rank 1, s1 missed
    assert retrieval[0]["details"]["recall_at"] == {"1": 0.5, "5": 0.5, "10": 0.5}


def without_run(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k != "run"}


def test_two_models_give_the_same_report_serially_and_with_xdist(suite: Suite) -> None:
    write_suite(suite)
    suite.write("review/other.golden-assessment.yaml", GOLDEN.replace("acme-dpa", "beta-msa"))
    suite.write("preds/v1/beta-msa.yml", V1.replace("assessment: yes", "assessment: partial"))
    reports = {}
    for mode in (["-p", "no:xdist"], ["-n", "2"]):
        name = f"r{mode[-1].replace(':', '')}.json"
        result = suite.pytester.runpytest_subprocess(
            *TWO_MODELS, *mode, "--bizbench-report", name, "-p", "no:cacheprovider"
        )
        assert result.ret == 1  # v1 misses R4 of both bundles; v2 misses beta-msa
        reports[name] = without_run(suite.report(name))
    serial, parallel = reports.values()
    assert json.dumps(serial, sort_keys=True) == json.dumps(parallel, sort_keys=True)
    assert len(serial["benchmarks"]["review-assessment"]["models"]["v1"]["documents"]) == 8


def test_requirement_option_keeps_the_named_requirements(suite: Suite) -> None:
    write_suite(suite)
    result = suite.pytester.runpytest(
        "--bizbench-predictions",
        "preds/v1",
        "--bizbench-requirement",
        "R2",
        "--bizbench-requirement",
        "acme-dpa/R3",
    )
    assert result.ret == 0
    assert sorted(suite.documents("review-assessment")) == ["acme-dpa/R2", "acme-dpa/R3"]
    assert suite.report()["completeness"]["filtered"] is True


def test_the_predict_hook_answers_per_bundle(suite: Suite) -> None:
    suite.write(CASE_FILE, GOLDEN)
    suite.write(
        "conftest.py",
        """
def pytest_bizbench_predict(case, model, config):
    return {"requirements": {case.req_id: {"assessment": "yes", "primary_evidence": ["p1"]}}}
""",
    )
    result = suite.pytester.runpytest()
    assert result.ret == 1  # R2 to R4 score under the pass mark 0.5
    docs = suite.documents("review-assessment")
    # R1: yes = yes, p1 primary (2 of 3): 0.5 + 0.5 x 2/3
    assert docs["acme-dpa/R1"]["score"] == pytest.approx(0.5 + 1 / 3)
    assert docs["acme-dpa/R4"]["score"] == 0.0  # yes vs not_applicable, no evidence
    assert docs["acme-dpa/R1"]["latency_ms"] >= 0


def test_a_failing_requirement_shows_verdict_and_parts(suite: Suite) -> None:
    write_suite(suite)
    result = suite.pytester.runpytest(
        "--bizbench-predictions", "preds/v2.jsonl", "--bizbench-min-score", "0.8"
    )
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        [
            "acme-dpa/R1 scored 0.71 on review-assessment (model default): below the pass "
            "mark 0.80 (--bizbench-min-score)",
            "  verdict            expected 'yes', got 'partial'  (compliance 0.50)",
            "  evidence_parts.s1  expected 'supporting', got 'primary'  (evidence 0.75)",
        ]
    )


def test_retrieval_thresholds_and_ranks_are_ini_keys(suite: Suite) -> None:
    write_suite(suite)
    suite.write(
        "pytest.ini",
        "[pytest]\nbizbench_retrieval_exact = 1.0\nbizbench_retrieval_contain = 1.0\n"
        "bizbench_recall_at = 2\n",
    )
    result = suite.pytester.runpytest("--bizbench-predictions", "preds/v1")
    assert result.ret == 1
    metrics = suite.metrics("review-retrieval")
    assert "recall_at_1" not in metrics
    assert metrics["recall_at_2"] == 0.5  # p1 is still identical: EXACT at rank 2
    config = suite.report()["benchmarks"]["review-retrieval"]["config"]
    assert config["passage_thresholds"] == {"exact": 1.0, "contain": 1.0, "weak": 0.6}


@pytest.mark.parametrize(
    ("ini", "problem"),
    [
        ("bizbench_retrieval_weak = 0.95", "weak threshold 0.95 must not exceed"),
        ("bizbench_recall_at = five", "ini bizbench_recall_at = 'five' must list positive"),
    ],
)
def test_bad_retrieval_ini_is_a_usage_error(suite: Suite, ini: str, problem: str) -> None:
    write_suite(suite)
    suite.write("pytest.ini", f"[pytest]\n{ini}\n")
    result = suite.pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{problem}*"])


def test_a_prediction_of_the_wrong_shape_is_an_error_item(suite: Suite) -> None:
    suite.write(CASE_FILE, GOLDEN)
    suite.write("preds.json", json.dumps({"acme-dpa": {"requirements": ["R1"]}}))
    result = suite.pytester.runpytest("--bizbench-predictions", "preds.json")
    result.stdout.fnmatch_lines(
        [
            '*prediction for acme-dpa/R1: "requirements" must be an object keyed by '
            "requirement id, got list (model default)*"
        ]
    )
    assert suite.documents("review-assessment")["acme-dpa/R1"]["outcome"] == "error"


# --- bad YAML: one error item naming file and problem, everything else scored ------

GOOD_FILE = "good.golden-assessment.yml"
GOOD = GOLDEN.replace("acme-dpa", "good-bundle")
KEEP = "  OK:\n    assessment: no\n"  # a requirement of a bad file that is still scored
PART = "{document: d, title: t, text: x}"


def header(name: str, version: str = '"0.4"') -> str:
    return f"schema_version: {version}\nbundle_id: bad-{name}\ntemplate_id: t\n"


def bomb() -> str:
    lines = ["requirements:", "  R1: {assessment: yes}", 'a0: &a0 ["x", "x", "x", "x", "x"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    return "\n".join(lines) + "\n"


# name -> (content, line of the error, problem, whether the file's OK requirement is kept)
BAD_YAML: dict[str, tuple[str | bytes, int | None, str, bool]] = {
    "malformed": (header("malformed") + "requirements: {R1: [\n", 5, "malformed YAML", False),
    # a0..a4 expand to 6, 55, 496, 4465 and 40186 nodes, their aliases add 45,198; a5's
    # add 361,674 more, past the 100,000 cap, on line 11
    "alias-bomb": (header("alias-bomb") + bomb(), 11, "aliases expand the data by", False),
    "nesting-bomb": (
        header("nesting-bomb") + "requirements: " + "[" * 70 + "\n",
        4,
        "nesting deeper than 64 levels",
        False,
    ),
    "duplicate-key": (
        header("duplicate-key") + "bundle_id: x\nrequirements:\n" + KEEP,
        4,
        "duplicate key 'bundle_id' (first at line 2)",
        False,
    ),
    "python-tag": (
        header("python-tag") + "x: !!python/object/apply:os.system [ls]\nrequirements:\n" + KEEP,
        4,
        "tag !!python/object/apply:os.system is not allowed",
        False,
    ),
    "schema-version": (
        header("schema-version", '"0.3"') + "requirements:\n" + KEEP,
        1,
        'unsupported schema_version "0.3" (expected "0.4")',
        False,
    ),
    "yaml11-bool": (
        "\ufeff" + header("yaml11-bool") + "requirements:\n" + KEEP + "  R1:\n    assessment: on\n",
        7,
        "requirement 'R1': \"assessment\" must be one of yes, partial, no, not_applicable; "
        'got "on"',
        True,
    ),
    "duplicate-key-in-requirement": (
        header("duplicate-key-in-requirement")
        + "requirements:\n"
        + KEEP
        + "  R1:\n    assessment: yes\n    assessment: no\n",
        9,
        "requirement 'R1': duplicate key 'assessment' (first at line 8)",
        True,
    ),
    "binary-tag-in-requirement": (
        header("binary-tag-in-requirement")
        + "requirements:\n"
        + KEEP
        + "  R1:\n    assessment: !!binary eWVz\n",
        8,
        "requirement 'R1': tag !!binary is not allowed",
        True,
    ),
    "part-in-both-blocks": (
        header("part-in-both-blocks")
        + "requirements:\n"
        + KEEP
        + f"  R1:\n    assessment: yes\n    primary_evidence:\n      p: {PART}\n"
        + f"    supporting_evidence:\n      p: {PART}\n",
        7,
        "requirement 'R1': part \"p\" is in both primary_evidence and supporting_evidence",
        True,
    ),
    "nan": (
        header("nan") + "requirements:\n" + KEEP + "  R1:\n    assessment: .nan\n",
        8,
        "requirement 'R1': .nan is not allowed",
        True,
    ),
    "not-utf8": (b"\xff\xfe" + header("not-utf8").encode(), 1, "not UTF-8", False),
    "empty": ("", None, "empty file", False),
}


def test_each_bad_yaml_is_an_error_item_and_the_rest_is_scored(suite: Suite) -> None:
    suite.write(GOOD_FILE, GOOD)
    predictions: dict[str, Any] = {"good-bundle": {"requirements": {"R3": {"assessment": "no"}}}}
    for name, (content, _, _, _) in BAD_YAML.items():
        suite.write(f"bad/{name}.golden-assessment.yml", content)
        predictions[f"bad-{name}"] = {"requirements": {"OK": {"assessment": "no"}}}
    suite.write("preds.json", json.dumps(predictions))
    result = suite.pytester.runpytest("-rE", "--bizbench-predictions", "preds.json")
    assert result.ret == 1
    assert "Traceback" not in result.stdout.str()
    report = suite.report()
    messages = [e["message"] for e in report["completeness"]["errors"]]
    docs = {
        d["id"]: d
        for d in report["benchmarks"]["review-assessment"]["models"]["default"]["documents"]
    }
    assert docs["good-bundle/R3"]["score"] == 1.0  # the good file is scored as ever
    for name, (_, line, problem, kept) in BAD_YAML.items():
        where = f"bad/{name}.golden-assessment.yml" + (f":{line}" if line else "")
        assert any(m.startswith(f"{where}: ") and problem in m for m in messages), (name, messages)
        result.stdout.fnmatch_lines([f"*{glob_escape(where)}: *{glob_escape(problem)}*"])
        ok = docs.get(f"bad-{name}/OK")
        assert (ok is not None and ok["score"] == 1.0) is kept, name


def test_a_golden_file_over_the_size_cap_is_an_error(suite: Suite) -> None:
    suite.write(GOOD_FILE, GOOD)
    suite.write("big.golden-assessment.yml", header("big") + "requirements:\n" + KEEP + "#" * 2000)
    suite.write("pytest.ini", "[pytest]\nbizbench_max_case_bytes = 1500\n")
    (suite.path / "preds").mkdir()
    result = suite.pytester.runpytest("-rE", "--bizbench-predictions", "preds")
    result.stdout.fnmatch_lines(
        [
            "*big.golden-assessment.yml: file is 2,* bytes, over the 1,500-byte cap "
            "(ini bizbench_max_case_bytes)*"
        ]
    )
    assert "good-bundle/R1" in suite.documents("review-assessment")


def test_not_applicable_and_missing_details_serve_any_benchmark(suite: Suite) -> None:
    """The two SDK hooks review benchmarks use, on a custom ground-truth benchmark."""
    suite.write(
        "conftest.py",
        """
from pytest_bizbench import BenchmarkPlugin, NotApplicable, ScoredDocument

class Totals(BenchmarkPlugin):
    name = "totals"
    version = "1.0.0"
    description = "totals only"
    target_labels = ["invoice"]

    def score(self, document):
        if "total" not in document.ground_truth:
            raise NotApplicable(f"{document.id} has no total")
        ok = document.extracted_fields.get("total") == document.ground_truth["total"]
        return ScoredDocument(document, float(ok), {"total": {"score": float(ok)}})

    def missing_details(self, document):
        if document.id == "boom":
            raise RuntimeError("no details")
        return {"total": {"score": 0.0, "expected": document.ground_truth.get("total")}}

def pytest_bizbench_add_benchmarks(config):
    return [Totals]
""",
    )
    suite.cases(
        "a.ground-truth.jsonl",
        [
            {"id": "t1", "labels": ["invoice"], "ground_truth": {"total": 5}},
            {"id": "t2", "labels": ["invoice"], "ground_truth": {"vendor": "x"}},
            {"id": "t3", "labels": ["invoice"], "ground_truth": {"total": 7}},
            {"id": "boom", "labels": ["invoice"], "ground_truth": {"total": 1}},
        ],
    )
    suite.write("preds.json", json.dumps({"t1": {"total": 5}, "t2": {"vendor": "x"}}))
    result = suite.pytester.runpytest("-rs", "--bizbench-predictions", "preds.json", "-k", "totals")
    result.stdout.fnmatch_lines(
        [
            "*benchmark 'totals': missing_details() raised RuntimeError: no details*",
            "SKIPPED [[]1[]] a.ground-truth.jsonl:2: t2 has no total",
        ]
    )
    docs = suite.documents("totals")
    assert sorted(docs) == ["boom", "t1", "t3"]  # t2 skipped: not in the report
    assert docs["t3"]["details"] == {"total": {"score": 0.0, "expected": 7}}
    assert docs["t3"]["outcome"] == "failed"
    assert docs["boom"]["outcome"] == "error"
    assert suite.metrics("totals")["accuracy"] == 0.5  # t1 1.0, t3 missing 0.0; boom an error


def test_prediction_yaml_is_read_by_the_safe_reader(suite: Suite) -> None:
    suite.write(CASE_FILE, GOLDEN)
    suite.write(
        "preds/acme-dpa.yml",
        "requirements:\n  R3:\n    assessment: no\n  R3:\n    assessment: yes\n",
    )
    result = suite.pytester.runpytest("--bizbench-predictions", "preds", "-k", "R3")
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        ["*prediction file *acme-dpa.yml:4: duplicate key 'R3' (first at line 2) (model default)*"]
    )
    assert suite.documents("review-assessment")["acme-dpa/R3"]["outcome"] == "error"
