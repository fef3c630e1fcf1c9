"""Hostile input, second round: names that try to leave their directory, files that
are not files, bad lines in prediction files, text that tries to escape its medium,
and reports of the wrong shape.

Every input is built in the test's own directory. Each test asserts the clear error,
that the other cases keep their exact scores, and that a canary planted outside the
paths the run was given never shows up in any output (stdout, stderr, the report,
the step summary, JUnit XML). Anything that could block (a FIFO, /dev/zero) runs in
a subprocess under a timeout, so a regression fails instead of hanging the suite.
"""

from __future__ import annotations

import contextlib
import html
import itertools
import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from bizhelpers import REPORT, Suite, doc, jsonl
from test_baseline_compare import Direct

from pytest_bizbench.cli import main
from pytest_bizbench.gate.baseline import Judge, Side, compare_sides
from pytest_bizbench.options.settings import BaselineOptions, PredictionSpec
from pytest_bizbench.predict.cache import CachedPrediction, PredictionCache
from pytest_bizbench.predict.sources import PredictionSource
from pytest_bizbench.report.html import cumulative_best
from pytest_bizbench.report.json_report import write_json
from pytest_bizbench.sdk import compare_headlines

CANARY = "CANARY-13-never-shown"
TIMEOUT = 60  # seconds; a blocking read would exceed it and fail the test
OUTPUTS = (REPORT, "summary.md", "junit.xml")
GT = {"a": "alpha", "b": "beta"}
RIGHT = {"a": "alpha", "b": "beta"}
HALF = {"a": "alpha"}  # one of two fields: score 0.5


@pytest.fixture
def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder next to, not inside, the suite: what the run must never read."""
    folder = tmp_path_factory.mktemp("outside")
    (folder / "secret.json").write_text(json.dumps({"a": CANARY, "b": CANARY}), "utf-8")
    (folder / "secret.yml").write_text(f"a: {CANARY}\n", "utf-8")
    (folder / "only-outside.txt").write_text(CANARY, "utf-8")
    return folder


def run(suite: Suite, *args: str, subprocess_timeout: bool = False) -> pytest.RunResult:
    """pytest over the suite with a step summary and JUnit XML, so every output exists."""
    argv = ["-p", "no:cacheprovider", "--junitxml", "junit.xml", *args]
    os.environ["GITHUB_STEP_SUMMARY"] = str(suite.path / "summary.md")
    try:
        if subprocess_timeout:
            return suite.pytester.runpytest_subprocess(*argv, timeout=TIMEOUT)
        return suite.pytester.runpytest(*argv)
    finally:
        del os.environ["GITHUB_STEP_SUMMARY"]


def assert_no_canary(suite: Suite, *texts: str) -> None:
    for name in OUTPUTS:
        path = suite.path / name
        if path.exists():
            assert CANARY not in path.read_text(encoding="utf-8"), name
    for text in texts:
        assert CANARY not in text


def outputs(result: pytest.RunResult) -> str:
    return result.stdout.str() + result.stderr.str()


def two_good_cases(suite: Suite, *hostile_ids: str) -> None:
    """`right` (score 1.0) and `half` (0.5) beside the hostile ids, predictions in preds/."""
    ids = ["right", "half", *hostile_ids]
    suite.cases("cases.ground-truth.jsonl", [doc(i, GT) for i in ids])
    suite.write("preds/right.json", json.dumps(RIGHT))
    suite.write("preds/half.json", json.dumps(HALF))


def assert_isolated(suite: Suite, docs: dict[str, dict[str, Any]]) -> None:
    assert (docs["right"]["outcome"], docs["right"]["score"]) == ("passed", 1.0)
    assert docs["half"]["score"] == 0.5
    assert suite.report()["gate"]["passed"] is False


def ours(message: object) -> str:
    """A message with the json module's own words between our prefix and column put
    as a placeholder: they are the interpreter's and change between its releases."""
    return re.sub(r"(malformed JSON: ).+( at column \d+)$", r"\1<json's words>\2", str(message))


# --- 1, 2, 7: a case id is one file name inside the predictions directory ----------


def test_case_ids_that_leave_the_predictions_directory_are_refused(
    suite: Suite, outside: Path
) -> None:
    (suite.path / "preds").mkdir()
    traversal = os.path.relpath(outside / "secret", suite.path / "preds")
    hostile = {
        traversal: "it holds a path separator",
        str(outside / "secret"): "it holds a path separator",
        "..\\secret": "it holds a path separator",
        "..": "empty or a relative directory name",
        "nul\u0000secret": "it holds a control character",
        "C:secret": "it is an absolute path",
        "x" * 300: "the file name would be over 255 bytes",
        "linked": "is a link that leaves",
        "linked-dir": "is a link that leaves",
    }
    two_good_cases(suite, *hostile)
    os.symlink(outside / "secret.json", suite.path / "preds" / "linked.json")
    os.symlink(outside, suite.path / "preds" / "linked-dir")
    result = run(suite, "--bizbench-predictions", "preds")
    docs = suite.documents()
    for case_id, reason in hostile.items():
        assert docs[case_id]["outcome"] == "error", case_id
        assert reason in docs[case_id]["message"], docs[case_id]["message"]
    assert_isolated(suite, docs)
    assert "OSError" not in outputs(result)
    assert "Traceback" not in outputs(result)
    assert_no_canary(suite, outputs(result))


def test_a_300_character_id_is_a_clear_error_in_the_gate_reason(suite: Suite) -> None:
    long_id = "y" * 300
    two_good_cases(suite, long_id)
    result = run(suite, "--bizbench-predictions", "preds")
    reasons = suite.report()["gate"]["reasons"]
    assert [r for r in reasons if "error:" in r] == [
        f"  error: prediction for '{'y' * 78}…: case id '{'y' * 78}… cannot name a file in "
        f"{suite.path / 'preds'}: the file name would be over 255 bytes (model default)"
    ]
    assert "pathlib" not in outputs(result)
    assert_isolated(suite, suite.documents())


@pytest.mark.parametrize(
    ("twins", "named"),
    [
        (("twin.json", "twin.yml"), "twin.json, twin.yml"),
        (("twin.yaml", "twin/"), "twin.yaml, twin/"),
    ],
)
def test_twin_prediction_files_are_an_error_for_that_case(
    suite: Suite, twins: tuple[str, ...], named: str
) -> None:
    two_good_cases(suite, "twin")
    for name in twins:
        if name.endswith("/"):
            (suite.path / "preds" / name).mkdir()
        else:
            suite.write(f"preds/{name}", json.dumps(RIGHT))
    run(suite, "--bizbench-predictions", "preds")
    docs = suite.documents()
    assert docs["twin"]["outcome"] == "error"
    assert (
        f"is given twice in {suite.path / 'preds'}: {named} (keep one)" in (docs["twin"]["message"])
    )
    assert_isolated(suite, docs)


@pytest.mark.parametrize("bomb", ["[" * 100_000, "- " * 100_000 + "x\n"], ids=["flow", "block"])
def test_a_yaml_prediction_nested_too_deep_is_an_error_for_that_case(
    suite: Suite, bomb: str
) -> None:
    """The same message as for a case file, whichever YAML parser's cap fires first."""
    two_good_cases(suite, "bomb")
    suite.write("preds/bomb.yml", bomb)
    run(suite, "--bizbench-predictions", "preds")
    docs = suite.documents()
    assert docs["bomb"]["outcome"] == "error"
    assert "bomb.yml" in docs["bomb"]["message"]
    assert "nesting deeper than 64 levels" in docs["bomb"]["message"]
    assert_isolated(suite, docs)


# --- 3: an agent workspace and its run folders stay inside the predictions ---------


def test_run_folders_and_task_folders_that_link_outside_are_never_graded(
    suite: Suite, outside: Path
) -> None:
    tasks = [
        {"task_id": tid, "verifiable_assertions": [{"kind": "file_exists", "path": path}]}
        for tid, path in (
            ("good", "done.txt"),
            ("run-link", "only-outside.txt"),
            ("task-link", "only-outside.txt"),
        )
    ]
    suite.write("cases/a.agent-tasks.jsonl", jsonl(tasks))
    suite.write("ws/good/done.txt", "ok")
    (suite.path / "ws" / "run-link").mkdir(parents=True)
    os.symlink(outside, suite.path / "ws" / "run-link" / "run-1")
    os.symlink(outside, suite.path / "ws" / "task-link")
    result = run(suite, "--bizbench-predictions", "ws")
    docs = suite.documents("agent-fs")
    assert (docs["good"]["outcome"], docs["good"]["score"]) == ("passed", 1.0)
    assert docs["run-link"]["score"] == 0.0
    (check,) = docs["run-link"]["details"]["assertions"]
    assert (check["passed"], check["reason"]) == (
        False,
        "run folder escapes the workspace: run-1",
    )
    assert docs["task-link"]["outcome"] == "error"
    assert "task-link is a link that leaves" in docs["task-link"]["message"]
    assert_no_canary(suite, outputs(result))


# --- 4: nothing blocks, nothing is read without a cap ------------------------------


@pytest.mark.parametrize(
    ("fifo", "given", "shown"),
    [
        ("preds.jsonl", "preds.jsonl", "preds.jsonl"),
        ("preds/p1.json", "preds", "preds/p1.json"),
    ],
)
def test_a_fifo_as_predictions_is_an_error_per_case_not_a_hang(
    suite: Suite, fifo: str, given: str, shown: str
) -> None:
    suite.cases("cases.ground-truth.jsonl", [doc("p1", GT), doc("p2", GT, extracted_fields=HALF)])
    (suite.path / "preds").mkdir()
    os.mkfifo(suite.path / fifo)
    result = run(suite, "--bizbench-predictions", given, subprocess_timeout=True)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    docs = suite.documents()
    assert docs["p1"]["message"] == (
        f"prediction file {suite.path / shown}: cannot read file: "
        "not a regular file (a FIFO) (model default)"
    )
    # a directory source has no file for p2, so its inline prediction is scored; an
    # unreadable file source is an error for every case it should have served
    p2 = docs["p2"]["score"] if given == "preds" else docs["p2"]["message"]
    assert p2 == (0.5 if given == "preds" else docs["p1"]["message"])


@pytest.mark.parametrize(
    ("make", "kind"),
    [
        (os.mkfifo, "a FIFO"),
        (lambda path: os.symlink("/dev/zero", path), "a character device"),
    ],
)
def test_a_baseline_that_is_not_a_file_is_a_usage_error(suite: Suite, make: Any, kind: str) -> None:
    suite.cases("cases.ground-truth.jsonl", [doc("p1", GT, extracted_fields=RIGHT)])
    make(suite.path / "base.json")
    result = run(suite, "--bizbench-baseline", "base.json", subprocess_timeout=True)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [f"ERROR: --bizbench-baseline: cannot read report *base.json: not a regular file ({kind})"]
    )
    assert "MemoryError" not in outputs(result)


def test_case_and_run_files_that_are_fifos_never_block_and_the_cases_are_scored(
    suite: Suite,
) -> None:
    two_good_cases(suite)
    task = {"task_id": "t", "verifiable_assertions": [{"kind": "file_exists", "path": "a"}]}
    suite.write("tasks.agent-tasks.jsonl", jsonl([task]))
    suite.write("preds/t/a", "")
    os.mkfifo(suite.path / "pipe.ground-truth.jsonl")  # pytest itself collects no FIFO
    os.mkfifo(suite.path / "pipe.agent-runs.jsonl")  # found by the controller's walk
    result = run(suite, "--bizbench-predictions", "preds", subprocess_timeout=True)
    errors = suite.report()["completeness"]["errors"]
    assert [e["message"] for e in errors] == [
        "pipe.agent-runs.jsonl: cannot read file: not a regular file (a FIFO)"
    ]
    assert_isolated(suite, suite.documents())
    assert suite.documents("agent-fs")["t"]["score"] == 1.0
    assert "Traceback" not in outputs(result)


def cli(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_bizbench.cli", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


def test_the_cli_refuses_fifos_without_blocking(tmp_path: Path) -> None:
    for name in ("r.json", "x.ground-truth.jsonl", "bench.py"):
        os.mkfifo(tmp_path / name)
    report = cli("report", "r.json", cwd=tmp_path)
    assert (report.returncode, report.stdout) == (2, "")
    assert report.stderr == (
        "bizbench report: cannot read report r.json: not a regular file (a FIFO)\n"
    )
    validate = cli("validate", "x.ground-truth.jsonl", "bench.py", cwd=tmp_path)
    assert validate.returncode == 1
    assert validate.stdout.splitlines() == [
        "✗ x.ground-truth.jsonl: cannot read file: not a regular file (a FIFO)",
        "✗ module imports: bench.py: cannot read file: not a regular file (a FIFO)",
    ]


# --- 5: a predictions file is parsed once; a bad line costs that line -------------


def test_bad_prediction_lines_are_one_error_each_and_the_other_rows_are_scored(
    suite: Suite,
) -> None:
    ids = ["right", "malformed", "nan", "bytes", "dup", "half"]
    suite.cases("cases.ground-truth.jsonl", [doc(i, GT) for i in ids])
    lines = [
        json.dumps({"id": "right", "extracted_fields": RIGHT}).encode(),
        b'{"id": "malformed", "extracted_fields": ',
        b'{"id": "nan", "extracted_fields": {"a": NaN}}',
        b'{"id": "bytes", "extracted_fields": {"a": "\xff"}}',
        json.dumps({"id": "dup", "extracted_fields": RIGHT}).encode(),
        json.dumps({"id": "dup", "extracted_fields": HALF}).encode(),
        json.dumps({"extracted_fields": RIGHT}).encode(),
        json.dumps({"id": "half", "extracted_fields": HALF}).encode(),
    ]
    suite.write("preds.jsonl", b"\n".join(lines) + b"\n")
    result = run(suite, "--bizbench-predictions", "preds.jsonl")
    errors = {e["nodeid"]: e["message"] for e in suite.report()["completeness"]["errors"]}
    line_errors = {k: ours(v) for k, v in errors.items() if k.startswith("preds.jsonl:")}
    assert line_errors == {
        "preds.jsonl:2": "prediction file preds.jsonl:2: malformed JSON: <json's words> "
        "at column 41",
        "preds.jsonl:3": "prediction file preds.jsonl:3: NaN is not allowed (JSON has no "
        "NaN or Infinity)",
        "preds.jsonl:4": "prediction file preds.jsonl:4: not UTF-8: invalid byte 0xff",
        "preds.jsonl:7": "prediction file preds.jsonl:7: a row needs an 'id' (a string)",
    }
    docs = suite.documents()
    assert (docs["right"]["score"], docs["half"]["score"]) == (1.0, 0.5)
    assert docs["dup"]["outcome"] == "error"
    assert "preds.jsonl:6: duplicate id 'dup' (first at line 5)" in docs["dup"]["message"]
    missing = [m["id"] for m in suite.report()["completeness"]["missing"]]
    assert missing == ["bytes", "malformed", "nan"]
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    serial = {k: v for k, v in suite.report().items() if k != "run"}
    parallel = run(
        suite, "--bizbench-predictions", "preds.jsonl", "-n", "2", subprocess_timeout=True
    )
    assert parallel.ret == pytest.ExitCode.TESTS_FAILED
    assert {k: v for k, v in suite.report().items() if k != "run"} == serial


def test_a_utf16_predictions_file_is_one_clear_error(suite: Suite) -> None:
    two_good_cases(suite)
    suite.write("preds.jsonl", jsonl([{"id": "right", **RIGHT}]).encode("utf-16"))
    run(suite, "--bizbench-predictions", "preds.jsonl")
    docs = suite.documents()
    assert {d["message"] for d in docs.values()} == {
        f"prediction file {suite.path / 'preds.jsonl'}: UTF-16 text (save the file as UTF-8)"
        " (model default)"
    }


def test_a_prediction_file_is_read_once_however_many_cases_ask(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[Path] = []
    from pytest_bizbench.io import files as safeio
    from pytest_bizbench.predict import sources as predictions

    original = safeio.read_regular

    def counting(path: Path, max_bytes: int, hint: str) -> bytes:
        reads.append(path)
        return original(path, max_bytes, hint)

    monkeypatch.setattr(safeio, "read_regular", counting)  # imported where a file is read
    good, bad = tmp_path / "good.jsonl", tmp_path / "bad.jsonl"
    good.write_text('{"id": "a", "k": 1}\n{"id": \n', "utf-8")
    bad.write_bytes("\n".encode("utf-16"))
    for path in (good, bad):
        source = PredictionSource(PredictionSpec("m", path), 1000)
        for case_id in ("a", "b", "c"):
            with contextlib.suppress(predictions.PredictionError):
                source.get(case_id)
        assert [{**e, "message": ours(e["message"])} for e in source.line_errors(tmp_path)] == (
            [
                {
                    "nodeid": "good.jsonl:2",
                    "case": "good.jsonl",
                    "line": 2,
                    "message": "prediction file good.jsonl:2: malformed JSON: <json's words> "
                    "at column 8",
                }
            ]
            if path == good
            else []
        )
    assert reads == [good, bad]


# --- rows that match no case are one note per source ------------------------------


def test_prediction_rows_that_match_no_case_are_one_note_per_source(suite: Suite) -> None:
    suite.cases("cases.ground-truth.jsonl", [doc("right", GT)])
    rows = [{"id": "right", "extracted_fields": RIGHT}]
    rows += [{"id": f"u{n}", "extracted_fields": RIGHT} for n in range(7, 0, -1)]
    suite.write("preds.jsonl", jsonl(rows))
    suite.write("other.json", json.dumps({"right": RIGHT}))
    result = run(suite, "--bizbench-predictions", "preds.jsonl")
    note = (
        "predictions preds.jsonl (model default): 7 rows match no case: "
        "'u1', 'u2', 'u3', 'u4', 'u5' and 2 more"
    )
    assert suite.report()["completeness"]["notes"] == [note]
    assert suite.report()["gate"]["passed"] is True
    assert result.ret == pytest.ExitCode.OK
    assert result.stdout.str().count(note) == 1
    filtered = run(suite, "--bizbench-predictions", "preds.jsonl", "-k", "right")
    assert filtered.ret == pytest.ExitCode.OK
    assert suite.report()["completeness"]["notes"] == []


# --- 8, 9: every output escapes what it prints -----------------------------------

HOSTILE_TEXT = [
    "cr\rsplit",
    "a\\|b",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    "ansi\x1b[2J\x1b[31mred",
]


def _unescaped_pipes(line: str) -> int:
    return len(re.findall(r"(?<!\\)(?:\\\\)*\|", line))


def test_markdown_and_terminal_output_escape_ids_and_model_names(suite: Suite) -> None:
    model = "m|x<img src onerror>"  # no "=", "/" or "\\": those end a model name
    suite.cases("cases.ground-truth.jsonl", [doc(i, GT) for i in ["right", *HOSTILE_TEXT]])
    suite.write("preds.json", json.dumps({"right": RIGHT}))
    result = run(suite, "--bizbench-predictions", f"{model}=preds.json")
    summary = (suite.path / "summary.md").read_text(encoding="utf-8")
    assert "\r" not in summary
    assert "\x1b" not in summary
    for raw in ("<script", "<img"):
        assert raw not in summary
    grouped = itertools.groupby(summary.splitlines(), key=lambda line: line.startswith("|"))
    tables = [list(lines) for is_table, lines in grouped if is_table]
    assert len(tables) == 3  # the headline table, the metrics, the worst failed documents
    for table in tables:  # every row as many cells as its header
        assert {_unescaped_pipes(line) for line in table} == {_unescaped_pipes(table[0])}, table
    assert r"| m\|x&lt;img src onerror> |" in summary
    assert r"- missing: no prediction for cr\x0dsplit (model " in summary
    section = result.stdout.str().split(" bizbench ", 1)[1]
    assert "\x1b" not in section
    assert "\r" not in section
    assert "no prediction for ansi\\x1b[2J\\x1b[31mred" in section
    docs = suite.documents(model=model)
    assert (docs["right"]["outcome"], docs["right"]["score"]) == ("passed", 1.0)
    junit = (suite.path / "junit.xml").read_text(encoding="utf-8")
    assert "\x1b" not in junit


DELETE = object()  # a `minimal_report` change that removes the key


THRESHOLD = {
    "benchmark": "x",
    "model": "m",
    "metric": "accuracy",
    "op": ">=",
    "value": 0.9,
    "actual": 1.0,
    "passed": True,
}


def minimal_report(**changes: Any) -> dict[str, Any]:
    report: dict[str, Any] = {
        "schema_version": 1,
        "tool": {"name": "pytest-bizbench", "version": "1"},
        "benchmarks": {
            "x": {
                "version": "1",
                "fingerprint": "f",
                "headline_metric": "accuracy",
                "models": {
                    "m": {
                        "metrics": {"accuracy": 1.0, "per_field_accuracy": {"a": 1.0}},
                        "documents": [
                            {
                                "id": "d1",
                                "case": "c.ground-truth.jsonl",
                                "nodeid": "c.ground-truth.jsonl::d1[x]",
                                "outcome": "passed",
                                "score": 1.0,
                                "details": {},
                            }
                        ],
                    }
                },
            }
        },
        "thresholds": [],
        "gate": {"passed": True, "reasons": []},
        "completeness": {"collected": 1, "scored": 1, "errors": [], "missing": []},
        "run": {"started_at": "2026-01-01T00:00:00"},
    }
    for path, value in changes.items():
        *parents, last = path.split("__")
        target = report
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if value is DELETE:
            del target[last]
        else:
            target[last] = value
    return report


def test_html_and_markdown_from_a_crafted_report_escape_every_value(tmp_path: Path) -> None:
    hostile = [f"<script>alert({n})</script>" for n in range(10)]
    report = minimal_report(
        tool__name=hostile[0],
        run__started_at=hostile[1],
        gate__reasons=[hostile[2]],
        gate__passed=False,
        completeness__notes=[hostile[3]],
    )
    entry = report["benchmarks"].pop("x")
    entry["description"] = hostile[4]
    entry["version"] = hostile[5]
    model = entry["models"].pop("m")
    model["metrics"]["per_field_accuracy"] = {hostile[6]: 1.0}
    model["documents"][0].update(id=hostile[7], message=hostile[8], outcome="failed")
    entry["models"][hostile[9]] = model
    report["benchmarks"]["<img src=x onerror=alert(10)>"] = entry
    (tmp_path / "r.json").write_text(json.dumps(report), encoding="utf-8")
    for form in ("html", "markdown"):
        out = tmp_path / f"out.{form}"
        assert main(["report", str(tmp_path / "r.json"), "--format", form, "-o", str(out)]) == 0
        page = out.read_text(encoding="utf-8")
        assert "<script" not in page, form
        assert "<img" not in page, form
    page = (tmp_path / "out.html").read_text(encoding="utf-8")
    for text in [*hostile, "<img src=x onerror=alert(10)>"]:
        assert html.escape(text) in page, text


# --- 10: a report of the wrong shape is one line naming the key, exit 2 ------------


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"benchmarks__x__models": []}, "benchmarks.x.models must be an object"),
        (
            {"benchmarks__x__models__m__documents__0__score": "1"},
            "benchmarks.x.models.m.documents[0].score must be a number or null",
        ),
        (
            {"benchmarks__x__models__m__metrics__per_field_accuracy": ["a"]},
            "benchmarks.x.models.m.metrics.per_field_accuracy must be an object",
        ),
        ({"thresholds": {}}, "thresholds must be a list"),
        ({"thresholds": [{"value": "0.9"}]}, "thresholds[0].benchmark is missing"),
        (
            {"thresholds": [{**THRESHOLD, "value": "0.9"}]},
            "thresholds[0].value must be a number",
        ),
        (
            {"benchmarks__x__models__m__documents__0__score": 1.5},
            "benchmarks.x.models.m.documents[0].score must be from 0 to 1",
        ),
        ({"gate__reasons": 5}, "gate.reasons must be a list"),
        ({"completeness__collected": "<script>"}, "completeness.collected must be an integer"),
        ({"completeness__errors": [1]}, "completeness.errors[0] must be an object"),
        ({"run": []}, "run must be an object"),
        (
            {"benchmarks__x__comparison": {"m": {"verdict": "neutral", "paired": {"ci95": [1]}}}},
            "benchmarks.x.comparison.m.paired.ci95 must hold 2 items",
        ),
        ({"benchmarks__x__version": 2}, "benchmarks.x.version must be a string"),
        # a merge sorts and names errors by node id
        ({"completeness__errors": [{}]}, "completeness.errors[0].nodeid is missing"),
        (
            {"completeness__errors": [{"nodeid": "a", "line": "1"}]},
            "completeness.errors[0].line must be an integer or null",
        ),
        # a text headline such as "nan" would compare as a number that never moves
        (
            {"benchmarks__x__models__m__metrics__accuracy": "nan"},
            "benchmarks.x.models.m.metrics.accuracy must be a number or null",
        ),
        ({"schema_version": True}, "schema_version must be 1"),
        # a merge read this key without asking, and its KeyError ended in exit 0
        (
            {"benchmarks__x__models__m__documents__0__score": DELETE},
            "benchmarks.x.models.m.documents[0].score is missing",
        ),
        (
            {"benchmarks__x__paired": {"a-vs-b": "oops"}},
            "benchmarks.x.paired.a-vs-b must be an object",
        ),
        (
            {"benchmarks__x__paired": {"p": {"cases": {"ci95": "[0, 1]"}}}},
            "benchmarks.x.paired.p.cases.ci95 must be a list or null",
        ),
    ],
)
def test_a_report_of_the_wrong_shape_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], changes: dict[str, Any], problem: str
) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(minimal_report()), encoding="utf-8")
    bad.write_text(json.dumps(minimal_report(**changes)), encoding="utf-8")
    commands = [
        ["report", str(bad)],
        ["report", str(bad), "--format", "html"],
        ["compare", str(good), str(bad)],
        ["compare", str(bad), str(good)],
        ["merge", str(good), str(bad), "-o", str(tmp_path / "out.json")],
    ]
    for argv in commands:
        command = argv[0]
        capsys.readouterr()
        assert main(argv) == 2, command
        out, err = capsys.readouterr()
        assert err == f"bizbench {command}: {bad}: not a bizbench report: {problem}\n"
        assert out == ""


@pytest.mark.parametrize(
    ("name", "pair", "shown"),
    [
        ("agent-fs", {"tasks": {"t1": {"n": 1}}}, "| t1 | 1 |"),  # a task's deltas missing
        ("agent-fs", {"runs": {"turns": {"n": "1", "a": "x"}}}, "| turns | x | 1 |"),
        ("review-assessment", {"requirements": {"r1": "yes"}}, None),  # a row not an object
        ("mine", {"groups": "oops", "kinds": {"k": {"delta": "<b>"}}}, "| k | &lt;b"),
    ],
)
def test_a_model_pair_of_any_shape_renders_its_rows_of_objects(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    pair: dict[str, Any],
    shown: str | None,
) -> None:
    """A pair's tables are read from the report alone: each key holding objects of
    rows is a table, whatever wrote it; anything else is left out, never an error."""
    report = minimal_report()
    report["benchmarks"][name] = report["benchmarks"].pop("x") | {"paired": {"a-vs-b": pair}}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    assert main(["report", str(path), "--format", "html"]) == 0
    assert "<b>" not in capsys.readouterr().out
    assert main(["report", str(path)]) == 0
    markdown = capsys.readouterr().out
    titles = [line for line in markdown.splitlines() if "a-vs-b: by" in line]
    if shown is None:
        assert titles == []
    else:
        assert len(titles) == 1
        assert shown in markdown
        assert "<b>" not in markdown


@pytest.mark.parametrize("name", ["bad\x00name", "x\ud800", "x\x1b[31m"])
def test_benchmark_names_a_python_name_cannot_hold_are_shown_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """A report's benchmark name became a class name, which refuses NUL and surrogates."""
    report = minimal_report()
    report["benchmarks"][name] = report["benchmarks"].pop("x")
    path = tmp_path / "r.json"
    write_json(report, path)
    shown = name.encode("unicode_escape").decode("ascii").replace("\\u", "\\u")
    for form in ("markdown", "html"):
        capsys.readouterr()
        assert main(["report", str(path), "--format", form]) == 0
        out, err = capsys.readouterr()
        assert err == ""
        # markdown escapes a bracket too, so it shows literally (`\[` reads as `[`)
        assert (shown.replace("[", "\\[") if form == "markdown" else shown) in out, form
        assert name not in out, form
    capsys.readouterr()
    assert main(["compare", str(path), str(path)]) == 0
    assert capsys.readouterr().err == ""


def test_a_merge_that_fails_inside_never_exits_0(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pytest's INTERNALERROR status stands: the merge no longer overwrote it with 0."""
    shard = tmp_path / "a.json"
    shard.write_text(json.dumps(minimal_report()), encoding="utf-8")

    def broken(*args: object) -> object:
        raise RuntimeError("a bug inside the merge")

    monkeypatch.setattr("pytest_bizbench.gate.merge.merge", broken)
    monkeypatch.chdir(tmp_path)
    assert main(["merge", str(shard), "-o", str(tmp_path / "m.json")]) == 2
    assert not (tmp_path / "m.json").exists()


def test_the_failed_gate_shows_a_baselines_text_escaped() -> None:
    """A baseline's versions and names reach the gate's reasons: its failure section
    and the short summary line show them as the bizbench section does."""
    from io import StringIO

    from _pytest._io import TerminalWriter

    from pytest_bizbench.gate.outcome import GateFailure

    failure = GateFailure(("version 1.0\x1b[2K\r\x1b[32mALL GOOD\x1b[0m\nforged", "b/m\u202e"))
    out = StringIO()
    failure.toterminal(TerminalWriter(out))
    text = out.getvalue()
    assert text == ("version 1.0\\x1b[2K\\x0d\\x1b[32mALL GOOD\\x1b[0m\\x0aforged\nb/m\\u202e\n")
    assert failure.reprcrash.message == (
        "version 1.0\\x1b[2K\\x0d\\x1b[32mALL GOOD\\x1b[0m\\x0aforged"
    )


def test_html_shows_controls_and_direction_overrides_as_escapes() -> None:
    from pytest_bizbench.io.escape import html_text

    assert html_text("m\x1b[31m\u202eevil\x00<b>\n") == ("m\\x1b[31m\\u202eevil\\x00&lt;b&gt;\\x0a")


def test_a_step_summary_that_is_a_fifo_is_one_line_not_a_hang(suite: Suite) -> None:
    two_good_cases(suite)
    os.mkfifo(suite.path / "summary.md")  # run() points GITHUB_STEP_SUMMARY here
    result = run(suite, "--bizbench-predictions", "preds", subprocess_timeout=True)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["FAILED bizbench::gate - cannot append step summary: *"])
    gate = suite.report()["gate"]  # the report, written last, holds the reason too
    assert gate["passed"] is False
    assert [r for r in gate["reasons"] if r.startswith("cannot append step summary: ")]
    assert "summary.md" in gate["reasons"][-1]
    assert suite.documents()["half"]["score"] == 0.5


def test_report_output_to_a_fifo_or_a_link_is_refused_not_replaced(tmp_path: Path) -> None:
    """A rename over a FIFO, a device or a link would replace it (as root, `/dev/full`
    or the `/dev/stdout` link for the rest of a CI job): refused, neither replaced nor
    written into, which could block."""
    (tmp_path / "r.json").write_text(json.dumps(minimal_report()), encoding="utf-8")
    os.mkfifo(tmp_path / "out.md")
    (tmp_path / "target.md").write_text("kept", encoding="utf-8")
    os.symlink(tmp_path / "target.md", tmp_path / "link.md")
    done = cli("report", "r.json", "-o", "out.md", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (
        2,
        "bizbench report: cannot write out.md: not a regular file (a FIFO) is there\n",
    )
    linked = cli("report", "r.json", "-o", "link.md", cwd=tmp_path)
    assert linked.returncode == 2
    assert "a symbolic link is there" in linked.stderr
    assert stat.S_ISFIFO(os.lstat(tmp_path / "out.md").st_mode)
    assert (tmp_path / "link.md").is_symlink()
    assert (tmp_path / "target.md").read_text(encoding="utf-8") == "kept"


@pytest.mark.parametrize("option", ["--bizbench-report", "--bizbench-save-baseline"])
def test_a_run_never_replaces_a_link_with_its_report_or_baseline(suite: Suite, option: str) -> None:
    two_good_cases(suite)
    (suite.path / "elsewhere.json").write_text("kept", encoding="utf-8")
    os.symlink(suite.path / "elsewhere.json", suite.path / "out.json")
    result = run(suite, "--bizbench-predictions", "preds", option, "out.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*cannot write *out.json: a symbolic link is there*"])
    assert (suite.path / "out.json").is_symlink()
    assert (suite.path / "elsewhere.json").read_text(encoding="utf-8") == "kept"


def test_compare_escapes_ids_read_back_from_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    evil = "\x1b[2Jevil|<script>alert(1)</script>"
    before = minimal_report(benchmarks__x__models__m__documents__0__id=evil)
    after = minimal_report(
        benchmarks__x__models__m__documents__0__id=evil,
        benchmarks__x__models__m__documents__0__score=0.0,
        benchmarks__x__models__m__metrics__accuracy=0.0,
    )
    for name, report in (("a.json", before), ("b.json", after)):
        (tmp_path / name).write_text(json.dumps(report), encoding="utf-8")
    for form in ("text", "markdown"):
        capsys.readouterr()
        code = main(
            ["compare", str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--format", form]
        )
        out, _ = capsys.readouterr()
        assert code == 1
        assert "\x1b" not in out
        if form == "text":
            assert "\\x1b[2Jevil" in out
        else:
            assert "<script" not in out
            assert r"\x1b\[2Jevil\|&lt;script>alert(1)&lt;/script>" in out


def test_error_item_names_escape_control_characters(suite: Suite) -> None:
    # a `{"documents": [...]}` file has no lines: the bad document's item is named
    # by its id, which must not carry a raw escape sequence into the terminal
    bad = {"id": "bad\x1b[2Jid", "ground_truth": "not an object"}
    good = {"id": "fine", "ground_truth": GT, "extracted_fields": RIGHT}
    suite.write("c.ground-truth.json", json.dumps({"documents": [good, bad]}))
    result = run(suite, "-v")
    text = outputs(result)
    assert "\x1b" not in text
    assert "bad\\x1b[2Jid[invalid]" in text
    docs = suite.documents()
    assert (docs["fine"]["outcome"], docs["fine"]["score"]) == ("passed", 1.0)


@pytest.mark.parametrize(
    "latency", ["NaN", "Infinity", "-Infinity", "1e999", "1" + "0" * 400, "true", '"12.5"']
)
def test_a_cache_entry_whose_latency_is_no_number_keeps_its_answer_without_one(
    tmp_path: Path, latency: str
) -> None:
    """An edited cache entry's NaN latency, or an integer beyond a float, would reach
    the report, which cannot hold it."""
    cache = PredictionCache(tmp_path)
    cache.put("m", "c1", "h1", {"total": 1}, 12.5)
    (entry,) = tmp_path.glob("*.json")
    entry.write_text(entry.read_text(encoding="utf-8").replace("12.5", latency), "utf-8")
    assert cache.get("m", "h1") == CachedPrediction({"total": 1}, None)


def test_the_report_writer_takes_strings_utf8_cannot_hold(tmp_path: Path) -> None:
    """A lone surrogate is written as its JSON escape and a pair as its character,
    what reading the text back gives; the file is UTF-8 throughout."""
    path = tmp_path / "r.json"
    write_json({"a": "pair \ud83d\ude00", "b": ["lone \udfff"]}, path)
    text = path.read_bytes().decode("utf-8")
    assert text == '{"a":"pair \U0001f600","b":["lone \\udfff"]}\n'
    assert json.loads(text) == {"a": "pair \U0001f600", "b": ["lone \udfff"]}


def test_a_report_with_surrogates_renders_as_html_and_markdown_to_stdout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The report writer keeps a lone surrogate (as its JSON escape); the pages show it
    as `\\udfff` text, which any output stream can carry."""
    report = minimal_report()
    report["benchmarks"]["x"]["models"]["m"]["metrics"]["per_field_accuracy"] = {"odd\udfff<": 1}
    write_json(report, tmp_path / "r.json")
    for form in ("html", "markdown"):
        assert main(["report", str(tmp_path / "r.json"), "--format", form]) == 0
        page = capsys.readouterr().out
        page.encode("utf-8")  # no surrogate left to fail a UTF-8 stream
        assert "odd\\udfff&lt;" in page, form  # markdown writes `<` as an entity too


def test_ids_that_are_shown_alike_are_two_items_and_two_documents(suite: Suite) -> None:
    """An escape character and the text that shows it give the same item name; the
    second is numbered, so neither case's document replaces the other's."""
    rows = [
        {"id": "a\x1b", "ground_truth": GT, "extracted_fields": RIGHT},
        {"id": "a\\x1b", "ground_truth": GT, "extracted_fields": HALF},
    ]
    suite.write("c.ground-truth.jsonl", jsonl(rows))
    assert run(suite).ret == pytest.ExitCode.OK
    docs = suite.documents()
    assert {(i, d["score"]) for i, d in docs.items()} == {("a\x1b", 1.0), ("a\\x1b", 0.5)}
    assert sorted(d["nodeid"].split("::")[1] for d in docs.values()) == [
        "a\\x1b[field-accuracy-2]",
        "a\\x1b[field-accuracy]",
    ]


def test_a_whole_number_near_the_float_limit_renders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """10**307 is a float, but times 100 as an integer it is not: the views format
    every number as a float."""
    comparison = {"verdict": "neutral", "mde": 10**307, "regression_threshold": 0.02}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(minimal_report(benchmarks__x__comparison={"m": comparison})))
    assert main(["report", str(path)]) == 0
    out = capsys.readouterr().out
    assert (
        "x (m): this suite cannot detect a change of any size: the smallest it could, 1e+307,"
        in out
    )


def test_a_null_per_field_accuracy_compares_as_nothing_scored() -> None:
    """Null is what a field no document scored reads as; text is an error, never a
    number that cannot move."""
    base = {"accuracy": 0.5, "per_field_accuracy": {"a": None, "b": 0.5}}
    cand = {"accuracy": 0.75, "per_field_accuracy": {"a": 1.0, "b": None}}
    result = compare_headlines("accuracy", 0.02, 0.01, base, cand)
    assert result["delta"] == 0.25
    assert result["per_field_deltas"]["a"]["delta"] == 1.0  # 0 -> 1
    assert result["per_field_deltas"]["b"]["delta"] == -0.5  # 0.5 -> 0
    with pytest.raises(ValueError, match="metric 'accuracy' is 'nan', not a finite number"):
        compare_headlines("accuracy", 0.02, 0.01, {"accuracy": "nan"}, cand)


def test_paired_values_too_large_for_the_statistics_are_left_unpaired() -> None:
    """A detail of ±1e308 would make an infinite delta; such a case is not paired."""
    docs = [
        {
            "id": f"c{i}",
            "case": "a.trajectory.jsonl",
            "score": 1.0,
            "outcome": "passed",
            "details": {"best": best},
        }
        for i, best in enumerate([1.0, 2.0, 1e308])
    ]
    far = [dict(d, details={"best": -d["details"]["best"]}) for d in docs]
    config = {"paired_on": "best"}
    base = Side("1", "fp", {"accuracy": 1.0}, docs, config)
    cand = Side("1", "fp", {"accuracy": 1.0}, far, config)
    result = compare_sides(Judge.of(Direct()), base, cand, BaselineOptions())
    assert result["paired"]["n"] == 2  # c0 and c1: -2 and -4
    assert result["paired"]["mean_delta"] == -3.0


def test_a_chart_of_far_apart_values_has_finite_coordinates() -> None:
    svg = cumulative_best([("t", [1e308, -1e308, 0.0])])
    assert "nan" not in svg
    assert "inf" not in svg
    assert 'points="64.0,10.0 304.0,190.0 544.0,100.0"' in svg


def test_a_merge_into_a_place_no_report_can_go_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(minimal_report()), encoding="utf-8")
    (tmp_path / "out").mkdir()
    assert main(["merge", str(good), "-o", str(tmp_path / "out")]) == 2
    _, err = capsys.readouterr()
    where = tmp_path / "out"
    assert (
        err == f"bizbench merge: cannot write {where}: not a regular file (a directory) is there\n"
    )


def test_a_report_to_an_output_that_cannot_spell_its_characters(tmp_path: Path) -> None:
    """`✅` and `—` on an ASCII stdout show as escapes, never a traceback."""
    path = tmp_path / "r.json"
    path.write_text(json.dumps(minimal_report()), encoding="utf-8")
    code = "import sys; from pytest_bizbench.cli import main; sys.exit(main(sys.argv[1:]))"
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run(
        [sys.executable, "-c", code, "report", str(path)],
        capture_output=True,
        text=True,
        encoding="ascii",
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Gate: **passed \\u2705**" in done.stdout
