"""Baselines end to end: save, compare, verdicts in the gate, refusals to save."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest
from bizhelpers import Suite, doc, glob_escape

CONFTEST = """
from pytest_bizbench import BenchmarkPlugin, ScoredDocument

class Direct(BenchmarkPlugin):
    name = "direct"
    version = "{version}"
    description = "the prediction is the score"
    target_labels = ["*"]
    group_by = "{group_by}"
    min_score = 0.0  # the baseline judges these scores here, not a pass mark

    def score(self, document):
        if document.extracted_fields.get("crash"):
            raise RuntimeError("boom")
        s = float(document.extracted_fields["s"])
        return ScoredDocument(document, s, {{"s": {{"score": s, "actual": s}}}})

def pytest_bizbench_add_benchmarks(config):
    return [Direct]
"""
INI = "[pytest]\nbizbench_builtin_benchmarks = false\nbizbench_predictions = preds.json\n"
CASES = "cases/a.ground-truth.jsonl"


def build(
    suite: Suite,
    scores: dict[str, Any],
    *,
    version: str = "1.0.0",
    group_by: str = "country",
    ini: str = "",
) -> None:
    suite.write("conftest.py", CONFTEST.format(version=version, group_by=group_by))
    suite.write("pytest.ini", INI + ini)
    countries = ("DE", "US")
    suite.cases(
        CASES,
        [
            doc(case_id, {"k": case_id, "s": 1.0}, metadata={"country": countries[i % 2]})
            for i, case_id in enumerate(scores)
        ],
    )
    suite.write(
        "preds.json",
        json.dumps({k: v if isinstance(v, dict) else {"s": v} for k, v in scores.items()}),
    )


def comparison(suite: Suite, name: str = "bizbench-report.json") -> dict[str, Any]:
    result: dict[str, Any] = suite.report(name)["benchmarks"]["direct"]["comparison"]["default"]
    return result


FOUR = {"c1": 1.0, "c2": 1.0, "c3": 0.5, "c4": 0.5}  # accuracy 0.75


def save(suite: Suite, scores: dict[str, Any] = FOUR, path: str = "base.json") -> None:
    build(suite, scores)
    result = suite.pytester.runpytest("--bizbench-save-baseline", path)
    assert result.ret == 0, result.stdout.str()
    result.stdout.fnmatch_lines([f"bizbench: baseline saved to *{path}; review the diff*"])


def test_saved_baseline_is_the_report_and_an_unchanged_run_is_neutral(suite: Suite) -> None:
    save(suite)
    saved = json.loads((suite.path / "base.json").read_text())
    assert saved == suite.report()
    assert not [p for p in suite.path.iterdir() if p.name.endswith(".tmp")]
    result = suite.pytester.runpytest("--bizbench-baseline", "base.json")
    assert result.ret == 0
    c = comparison(suite)
    assert c["verdict"] == "neutral"
    assert (c["baseline_accuracy"], c["candidate_accuracy"], c["delta"]) == (0.75, 0.75, 0.0)
    assert c["paired"]["n"] == 4
    assert c["paired"]["ci95"] == [0.0, 0.0]
    assert c["paired"]["seed"] == 20240917
    assert (c["worst"], c["new_cases"], c["removed_cases"], c["stale_cases"]) == ([], [], [], [])
    # groups: c1, c3 are DE (1.0, 0.5), c2, c4 US; labels: all "invoice"
    assert c["groups"]["group"]["DE"] == {
        "n": 2,
        "baseline": 0.75,
        "candidate": 0.75,
        "mean_delta": 0.0,
    }
    assert c["groups"]["label"]["invoice"]["n"] == 4
    result.stdout.fnmatch_lines(["compared with the baseline: 1 neutral"])  # short by default
    result = suite.pytester.runpytest("--bizbench-baseline", "base.json", "-v")
    result.stdout.fnmatch_lines(
        [
            "compared with the baseline:",
            "benchmark*verdict*95% CI*",
            "*",
            "direct*default*neutral*accuracy*0.7500*0.7500*0.0000*4*[[]+0.0000, +0.0000[]]*",
        ]
    )


def test_regression_fails_the_gate_with_worst_cases_unless_allowed(suite: Suite) -> None:
    save(suite)
    # c1 drops 1.0 -> 0.0: accuracy 0.75 -> 0.5, delta -0.25 < -0.02
    build(suite, {**FOUR, "c1": 0.0})
    result = suite.pytester.runpytest("--bizbench-baseline", "base.json")
    assert result.ret == 1
    c = comparison(suite)
    assert c["verdict"] == "regressed"
    assert c["delta"] == -0.25
    # deltas -1, 0, 0, 0: resample means are -K/4 with K ~ Binomial(4, 1/4):
    # P(K=0) = 0.316, P(K=1) = 0.422, P(K>=2) = 0.262, P(K>=3) = 0.051, P(K=4) = 0.004.
    # BCa: the share below -1/4 with ties halved is 0.262 + 0.211 = 0.473, z0 = -0.068;
    # residuals -0.75, 0.25 x3 give a = -0.375 / (6 * 0.75^1.5) = -0.096. The upper
    # level Phi(1.532) = 0.937 falls in K = 0 (the top 0.316): 0. The lower level
    # Phi(-2.589) = 0.0048 sits on the edge of K = 4 (0.0039), so -1 or -0.75.
    low, high = c["paired"]["ci95"]
    assert (low in (-1.0, -0.75), high) == (True, 0.0)
    assert c["paired"]["p_value"] == 1.0  # one case moved: not significant
    assert c["worst"] == [
        {
            "case": CASES,
            "id": "c1",
            "baseline": 1.0,
            "candidate": 0.0,
            "delta": -1.0,
            "fields": {
                "s": {
                    "baseline": 1.0,
                    "candidate": 0.0,
                    "delta": -1.0,
                    "baseline_actual": 1.0,
                    "candidate_actual": 0.0,
                }
            },
        }
    ]
    result.stdout.fnmatch_lines(
        [
            # the reasons under `gate` among the failures, once
            "regression: direct (model default): accuracy 0.7500 -> 0.5000 (delta -0.2500);"
            " paired mean delta -0.2500, 95% CI [[]-*, +0.0000[]] over 4 cases, p (Holm) 1;"
            " accept it with --bizbench-allow-regression or re-baseline",
            "bizbench gate: FAILED (* under 'gate' above)",
            "*",
            "compared with the baseline:",  # the short view keeps the rows that moved
            "benchmark*verdict*",
            "*",
            "direct*default*regressed*accuracy*0.7500*0.5000*-0.2500*",
            "1 regressed",
            "*",
            "*",
            "worst-regressed cases:",
            "*",
            "*",
            "direct*default*c1*1.0000*0.0000*-1.0000*s 1.00→0.00",
        ]
    )
    report = suite.report()
    assert report["gate"]["passed"] is False
    allowed = suite.pytester.runpytest(
        "--bizbench-baseline",
        "base.json",
        "--bizbench-allow-regression",
        "-o",
        "bizbench_worst_cases=0",
    )
    assert allowed.ret == 0
    assert comparison(suite)["verdict"] == "regressed"  # still reported
    assert comparison(suite)["worst"] == []  # none asked for
    assert suite.report()["gate"]["passed"] is True


def test_improvement_passes(suite: Suite) -> None:
    save(suite)
    build(suite, {**FOUR, "c3": 1.0})  # 0.75 -> 0.875
    result = suite.pytester.runpytest("--bizbench-baseline", "base.json")
    assert result.ret == 0
    assert comparison(suite)["verdict"] == "improved"


@pytest.mark.parametrize(
    ("change", "what"),
    [
        ({"version": "1.1.0"}, "version 1.0.0 -> 1.1.0"),
        ({"group_by": "vendor"}, "scoring config fingerprint"),
    ],
)
def test_changed_benchmark_makes_the_baseline_stale(
    suite: Suite, change: dict[str, str], what: str
) -> None:
    save(suite)
    build(suite, FOUR, **change)
    result = suite.pytester.runpytest("--bizbench-baseline", "base.json")
    assert result.ret == 1
    c = comparison(suite)
    assert c["verdict"] == "stale"
    assert what in c["message"]
    result.stdout.fnmatch_lines(
        [
            f"stale baseline: direct (model default): benchmark 'direct' changed since the "
            f"baseline ({glob_escape(what)}*), so its scores are not comparable; re-baseline: run "
            "the whole suite with --bizbench-save-baseline PATH, review the diff of PATH and "
            "commit it",
        ]
    )
    allowed = suite.pytester.runpytest("--bizbench-baseline", "base.json", "--bizbench-allow-stale")
    assert allowed.ret == 0


def test_a_case_whose_content_changed_is_listed_and_not_paired(suite: Suite) -> None:
    save(suite)
    build(suite, {**FOUR, "c5": 1.0})
    lines = (suite.path / CASES).read_text().splitlines()
    edited = json.loads(lines[0])
    edited["ground_truth"]["k"] = "edited"
    lines[0] = json.dumps(edited)
    (suite.path / CASES).write_text("\n".join(lines[:3]) + "\n" + lines[4] + "\n")  # drop c4
    result = suite.pytester.runpytest("--bizbench-baseline", "base.json")
    c = comparison(suite)
    assert c["stale_cases"] == [{"case": CASES, "id": "c1"}]
    assert c["new_cases"] == [{"case": CASES, "id": "c5"}]
    assert c["removed_cases"] == [{"case": CASES, "id": "c4"}]
    assert c["paired"]["n"] == 2  # c2 and c3
    # the headline still moves with every case: (1 + 1 + 0.5 + 1) / 4 = 0.875 against 0.75
    assert c["verdict"] == "improved"
    result.stdout.fnmatch_lines(["direct*default*improved*0.1250*2*0.0000*1*1*1"])


FILTERED = (
    "it ran a filtered selection (-k, -m, --deselect, --lf, --sw, node ids or a "
    "--bizbench-* subset)"
)


@pytest.mark.parametrize(
    ("args", "files", "why", "ret"),
    [
        (["-k", "c1"], {}, FILTERED, 1),
        (["-m", "not slow"], {}, FILTERED, 1),
        (["--deselect", f"{CASES}::c2[direct]"], {}, FILTERED, 1),
        ([f"{CASES}::c1[direct]"], {}, FILTERED, 1),
        (["--lf"], {}, FILTERED, 1),
        (["--sw"], {}, FILTERED, 1),
        # pytest stops after a collection error (exit 2, interrupted), and keeps that status
        ([], {"test_broken.py": "def oops(:\n"}, "it is incomplete (1 error, 2 selected", 2),
        (
            ["-x"],
            {"preds.json": json.dumps({"c1": {"crash": True}})},
            "it is incomplete (1 error, 1 selected items never ran",
            1,
        ),
        (
            [],
            {"preds.json": json.dumps({"c1": {"crash": True}})},
            "it is incomplete (1 error, 1 missing prediction)",
            1,
        ),
    ],
    ids=[
        "k",
        "m",
        "deselect",
        "nodeid",
        "lf",
        "sw",
        "collection-error",
        "stopped",
        "crash-missing",
    ],
)
def test_saving_refuses_a_filtered_or_incomplete_run(
    suite: Suite, args: list[str], files: dict[str, str], why: str, ret: int
) -> None:
    build(suite, {"c1": 1.0, "c2": 1.0})
    for path, content in files.items():
        suite.write(path, content)
    result = suite.pytester.runpytest(*args, "--bizbench-save-baseline", "base.json")
    assert result.ret == ret
    result.stdout.fnmatch_lines(
        [
            f"refusing to save the baseline *base.json: {glob_escape(why)}*"
            "--bizbench-force-baseline to save it anyway"
        ]
    )
    assert not (suite.path / "base.json").exists()


def test_a_missing_prediction_refuses_and_force_saves(suite: Suite) -> None:
    build(suite, {"c1": 1.0, "c2": 1.0})
    suite.write("preds.json", json.dumps({"c1": {"s": 1}}))
    # the session already fails (c2 has no prediction), and saving is refused
    refused = suite.pytester.runpytest("--bizbench-save-baseline", "base.json")
    assert refused.ret == 1
    refused.stdout.fnmatch_lines(["*refusing*it is incomplete (1 missing prediction)*"])
    forced = suite.pytester.runpytest(
        "--bizbench-save-baseline", "base.json", "--bizbench-force-baseline"
    )
    forced.stdout.fnmatch_lines(["bizbench: baseline saved to *base.json (forced)*"])
    assert (suite.path / "base.json").exists()


def test_filtered_but_passing_run_exits_1_only_for_the_refusal(suite: Suite) -> None:
    build(suite, {"c1": 1.0, "c2": 1.0})
    assert suite.pytester.runpytest("-k", "c1").ret == 0
    assert suite.report()["gate"] == {"passed": True, "reasons": []}
    assert suite.pytester.runpytest("-k", "c1", "--bizbench-save-baseline", "b.json").ret == 1
    # the report is written once the refusal is known: its gate says what the exit says
    gate = suite.report()["gate"]
    assert gate["passed"] is False
    assert len(gate["reasons"]) == 1
    assert gate["reasons"][0].startswith("refusing to save the baseline ")
    forced = suite.pytester.runpytest(
        "-k", "c1", "--bizbench-save-baseline", "b.json", "--bizbench-force-baseline"
    )
    assert forced.ret == 0
    assert suite.report()["gate"] == {"passed": True, "reasons": []}


def test_unwritable_baseline_path_is_a_clear_error(suite: Suite) -> None:
    build(suite, FOUR)
    suite.write("blocker", "a file, not a directory")
    result = suite.pytester.runpytest("--bizbench-save-baseline", "blocker/base.json")
    assert result.ret == 1
    result.stdout.fnmatch_lines(["cannot write baseline *blocker/base.json: *"])
    assert "INTERNALERROR" not in result.stdout.str()
    reasons = suite.report()["gate"]["reasons"]
    assert [r for r in reasons if r.startswith("cannot write baseline ")] == reasons[-1:]


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (None, "cannot read report *missing.json* (create it with --bizbench-save-baseline PATH)"),
        ("{not json", "not a bizbench report: malformed JSON*"),
        ('{"schema_version": 1}', "not a bizbench report: benchmarks is missing"),
    ],
)
def test_unreadable_baseline_is_a_usage_error(suite: Suite, content: str | None, why: str) -> None:
    build(suite, FOUR)
    if content is not None:
        suite.write("missing.json", content)
    result = suite.pytester.runpytest("--bizbench-baseline", "missing.json")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: --bizbench-baseline: *{why}"])


def test_nothing_ran_refuses_to_save(suite: Suite) -> None:
    suite.write("test_plain.py", "def test_ok():\n    pass\n")
    result = suite.pytester.runpytest("--bizbench-save-baseline", "base.json")
    assert result.ret == 1
    result.stdout.fnmatch_lines(["bizbench: refusing to save the baseline *base.json: no case ran"])


def test_ini_baseline_is_relative_to_the_ini_file_and_saving_accepts_verdicts(
    suite: Suite, monkeypatch: pytest.MonkeyPatch
) -> None:
    ini = "bizbench_baseline = baseline/b.json\n"
    build(suite, FOUR, ini=ini)
    # no baseline yet: a run that saves one is fine, a run that only compares is not
    assert suite.pytester.runpytest().ret == pytest.ExitCode.USAGE_ERROR
    first = suite.pytester.runpytest("--bizbench-save-baseline", "baseline/b.json")
    assert first.ret == 0
    build(suite, {**FOUR, "c1": 0.0}, ini=ini)
    with monkeypatch.context() as m:
        # started from another directory, the ini path still resolves next to pytest.ini
        m.chdir(suite.path / "cases")
        assert suite.pytester.runpytest(str(suite.path)).ret == 1
    # saving the regressed run as the new baseline accepts it, like a snapshot update
    update = suite.pytester.runpytest("--bizbench-save-baseline", "baseline/b.json")
    assert update.ret == 0
    assert comparison(suite)["verdict"] == "regressed"
    update.stdout.fnmatch_lines(["bizbench gate: passed", "*baseline saved to*"])
    assert suite.pytester.runpytest().ret == 0
    assert comparison(suite)["verdict"] == "neutral"


# A noisy candidate: every baseline case scores 0.5; the
# candidate scores 1.0 on 94 cases and 0.0 on 106. Accuracy 0.5 -> 0.47 (-0.03, past
# the -0.02 bound), but per-case deltas of +-0.5 give a standard error of 0.035 and a
# 95% CI of about [-0.10, +0.04], which contains 0.
NOISY_BASE = {f"q{i:03d}": 0.5 for i in range(200)}
NOISY_CAND = {f"q{i:03d}": 1.0 if i < 94 else 0.0 for i in range(200)}


def test_noisy_three_point_drop_needs_significance_to_be_ignored(suite: Suite) -> None:
    save(suite, NOISY_BASE)
    build(suite, NOISY_CAND)
    plain = suite.pytester.runpytest("--bizbench-baseline", "base.json")
    assert plain.ret == 1
    c = comparison(suite)
    assert c["verdict"] == "regressed"
    assert c["delta"] == pytest.approx(-0.03)
    low, high = c["paired"]["ci95"]
    assert low < 0 < high
    strict = suite.pytester.runpytest(
        "--bizbench-baseline", "base.json", "--bizbench-require-significance"
    )
    assert strict.ret == 0
    c = comparison(suite)
    assert c["verdict"] == "inconclusive"  # reported, not failing
    assert c["significance_required"] is True
    strict.stdout.fnmatch_lines(
        [
            "direct (default): regressed on the headline, but not a significant drop: its p "
            "(Holm) "
            "0.4357 is not below 0.05, so the change may be noise: inconclusive*"
        ]
    )
    build(suite, NOISY_CAND, ini="bizbench_require_significance = true\n")
    assert suite.pytester.runpytest("--bizbench-baseline", "base.json").ret == 0


def test_step_summary_has_verdicts_worst_cases_and_thresholds(
    suite: Suite, monkeypatch: pytest.MonkeyPatch
) -> None:
    save(suite)
    build(suite, {**FOUR, "c1": 0.0})
    summary = suite.path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    suite.pytester.runpytest(
        "--bizbench-baseline", "base.json", "--bizbench-threshold", "direct:accuracy>=0.6"
    )
    text = summary.read_text()
    assert "### Compared with the baseline" in text
    assert (
        "| direct | default | regressed (not significant, p 1; under 6 paired cases (4) can "
        "never be significant) | accuracy | 0.7500 | 0.5000 | -0.2500 | 4 |"
    ) in text
    assert "### Worst-regressed cases" in text
    assert "| direct | default | c1 | 1.0000 | 0.0000 | -1.0000 | s 1.00→0.00 |" in text
    assert "| direct:accuracy >= 0.6 | default | 0.5000 | FAIL |" in text
    assert "- regression: direct (model default)" in text


def test_comparisons_are_identical_serially_and_under_xdist(suite: Suite) -> None:
    save(suite, {f"x{i:02d}": 1.0 for i in range(12)})
    build(suite, {f"x{i:02d}": 1.0 if i % 3 else 0.5 for i in range(12)})  # 4 cases lose 0.5
    reports = []
    for mode in (["-p", "no:xdist"], ["-n", "2"]):
        name = f"r{mode[-1].replace(':', '')}.json"
        suite.pytester.runpytest_subprocess(
            "--bizbench-baseline", "base.json", "--bizbench-report", name, *mode
        )
        report = suite.report(name)
        report.pop("run")
        reports.append(json.dumps(report, sort_keys=True))
    assert reports[0] == reports[1]
    assert '"verdict": "regressed"' in reports[0]


def test_models_side_by_side_get_a_confidence_interval(suite: Suite) -> None:
    build(suite, FOUR)
    suite.write("v2.json", json.dumps({k: {"s": 1.0} for k in FOUR}))
    result = suite.pytester.runpytest(
        "--bizbench-predictions", "v1=preds.json", "--bizbench-predictions", "v2=v2.json"
    )
    assert result.ret == 0
    cases = suite.report()["benchmarks"]["direct"]["paired"]["v2-vs-v1"]["cases"]
    # deltas 0, 0, 0.5, 0.5: resample means K/8 with K ~ Binomial(4, 1/2);
    # P(K=0) = P(K=4) = 1/16 = 6.25% > 2.5%, so the interval is [0, 0.5]
    assert cases["mean_delta"] == 0.25
    assert cases["ci95"] == [0.0, 0.5]
    assert (cases["n"], cases["b_better"], cases["ties"]) == (4, 2, 2)
    # two cases moved, both up by 0.5: 2 of 4 sign patterns; the only pair of the run
    assert (cases["p_value"], cases["p_holm"], cases["significant"]) == (0.5, 0.5, False)
    # sd = sqrt(4 * 0.25^2 / 3), se = sd / 2, t with 3 df: 3.1824 + 0.9785 (the table)
    assert cases["mde"] == pytest.approx((3.1824 + 0.9785) * (0.5 / math.sqrt(3)) / 2, rel=1e-4)
    result.stdout.fnmatch_lines(
        ["*direct*v2-vs-v1*improved (not significant, p 0.5; under 6 paired cases (4) *"]
    )


REGENERATE = (
    "pytest golden_cases -p no:cacheprovider "
    "--bizbench-save-baseline golden_cases/baseline/bizbench-baseline.json"
)


def test_golden_suite_shows_verdicts_against_its_committed_baseline(suite: Suite) -> None:
    golden = Path(__file__).resolve().parent.parent / "golden_cases"
    shutil.copytree(golden, suite.path / "golden_cases")
    result = suite.pytester.runpytest("golden_cases", "-p", "no:cacheprovider")
    report = suite.report()
    comparisons = {
        (name, model): c["verdict"]
        for name, entry in report["benchmarks"].items()
        for model, c in (entry.get("comparison") or {}).items()
    }
    assert comparisons, "golden_cases/pytest.ini names no baseline"
    stale = {key: verdict for key, verdict in comparisons.items() if verdict != "neutral"}
    assert not stale, f"the golden baseline is out of date; regenerate it with: {REGENERATE}"
    assert result.ret == 0
    result.stdout.fnmatch_lines(["compared with the baseline: 13 neutral"])


def test_update_baseline_saves_over_the_configured_baseline(suite: Suite) -> None:
    """As a snapshot update: no path to repeat, the first run creates the baseline, and
    a later run that regressed is accepted and becomes the baseline (review the diff).
    Each run is its own process: the conftest is written again between them."""
    build(suite, FOUR, ini="bizbench_baseline = base.json\n")
    first = suite.pytester.runpytest_subprocess("--bizbench-update-baseline")
    assert first.ret == 0, first.stdout.str()
    first.stdout.fnmatch_lines(["bizbench: baseline saved to *base.json; review the diff*"])
    build(suite, {**FOUR, "c1": 0.0}, ini="bizbench_baseline = base.json\n")
    assert suite.pytester.runpytest_subprocess().ret == 1  # a regression against the saved baseline
    updated = suite.pytester.runpytest_subprocess("--bizbench-update-baseline")
    assert updated.ret == 0
    assert comparison(suite)["verdict"] == "regressed"  # reported, accepted
    saved = suite.report("base.json")["benchmarks"]["direct"]["models"]["default"]
    assert {d["id"]: d["score"] for d in saved["documents"]} == {**FOUR, "c1": 0.0}
    assert suite.pytester.runpytest_subprocess().ret == 0  # now the baseline


@pytest.mark.parametrize(
    ("args", "ini", "why"),
    [
        (
            [],
            "",
            "--bizbench-update-baseline: no baseline is configured; set ini bizbench_baseline*",
        ),
        (
            ["--bizbench-save-baseline", "other.json"],
            "bizbench_baseline = base.json\n",
            "*--bizbench-save-baseline PATH saves to PATH: give one of them",
        ),
    ],
    ids=["no-baseline", "both"],
)
def test_update_baseline_without_one_place_to_save_is_a_usage_error(
    suite: Suite, args: list[str], ini: str, why: str
) -> None:
    build(suite, FOUR, ini=ini)
    result = suite.pytester.runpytest("--bizbench-update-baseline", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: {why}"])
    assert not (suite.path / "base.json").exists()
    assert not (suite.path / "other.json").exists()


def test_a_report_written_over_the_baseline_is_a_usage_error(suite: Suite) -> None:
    """Every run writes its report: at the baseline's path a filtered run would have
    replaced the baseline past the save's refusals."""
    save(suite)
    before = (suite.path / "base.json").read_bytes()
    result = suite.pytester.runpytest(
        "-k", "c1", "--bizbench-baseline", "base.json", "--bizbench-report", "base.json"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --bizbench-report *base.json is the baseline the run*"])
    assert (suite.path / "base.json").read_bytes() == before


def test_a_shard_refuses_to_become_the_baseline(suite: Suite) -> None:
    build(suite, FOUR)
    result = suite.pytester.runpytest("--bizbench-shard", "--bizbench-save-baseline", "s.json")
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        ["refusing to save the baseline *s.json: it is one shard of a run*"]
    )
    assert not (suite.path / "s.json").exists()


def test_a_cluster_field_no_case_has_fails_the_gate(suite: Suite) -> None:
    """A misspelt `bizbench_cluster_by` would put every case in one cluster, where no
    comparison can be significant; said, not left silent."""
    build(suite, FOUR, ini="bizbench_cluster_by = countyr\n")
    result = suite.pytester.runpytest_subprocess()
    assert result.ret == 1
    reasons = suite.report()["gate"]["reasons"]
    assert reasons == [
        "ini bizbench_cluster_by = 'countyr': no scored case has that field, so every case "
        "is one cluster and no comparison can be significant (check the name)"
    ]
    build(suite, FOUR, ini="bizbench_cluster_by = country\n")
    assert suite.pytester.runpytest_subprocess().ret == 0


def test_a_filtered_run_is_compared_with_the_baseline_of_its_own_cases(suite: Suite) -> None:
    """`-k c3` scores c3 as the baseline did (0.5); the whole baseline's accuracy is
    0.75, so comparing with it would call an unchanged case a regression."""
    save(suite)
    result = suite.pytester.runpytest_subprocess("-k", "c3", "--bizbench-baseline", "base.json")
    assert result.ret == 0, result.stdout.str()
    c = comparison(suite)
    assert (c["verdict"], c["baseline_accuracy"], c["candidate_accuracy"]) == ("neutral", 0.5, 0.5)
    assert c["delta"] == 0.0


def test_a_filtered_run_fails_when_the_baseline_cases_metrics_cannot_be_computed(
    suite: Suite,
) -> None:
    """A baseline whose details its benchmark cannot read: judged without those
    metrics, the comparison would read as a gain or a loss that is not there."""
    save(suite)
    saved = json.loads((suite.path / "base.json").read_text())
    documents = saved["benchmarks"]["direct"]["models"]["default"]["documents"]
    c3 = next(d for d in documents if d["id"] == "c3")
    c3["details"]["s"] = "x"  # not the object this benchmark's compute() reads
    (suite.path / "base.json").write_text(json.dumps(saved))
    strict = """
    def compute(self, scored):
        for s in scored:
            float(s.details["s"]["score"])  # raises on the edited baseline case
        return super().compute(scored)
"""
    conftest = CONFTEST.format(version="1.0.0", group_by="country")
    suite.write(
        "conftest.py", conftest.replace("\ndef pytest_bizbench", strict + "\ndef pytest_bizbench")
    )
    result = suite.pytester.runpytest_subprocess("-k", "c3", "--bizbench-baseline", "base.json")
    assert result.ret == 1
    reasons = suite.report()["gate"]["reasons"]
    assert [r for r in reasons if r.startswith("baseline: ")], reasons
