"""A corpus of hostile case files, one per kind of bad input (tests/data/hostile/).

Each file runs in a suite next to a good case file: the bad file is a clear error
naming the file (and line), the good case is still scored, the report is written,
and the gate fails because the run is incomplete. The bombs are refused before they
expand: the alias bomb would be 9**12 strings and the nesting bomb 100,000 levels,
so a reader that expanded them would not finish this test at all.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from bizhelpers import REPORT, Suite, doc, jsonl

HOSTILE = Path(__file__).parent / "data" / "hostile"
OVER_CAP = "over-cap.ground-truth.jsonl"
NOT_JSON = "is not allowed: case data is JSON data"

# file -> (line or None, the problem its error names)
EXPECTED: dict[str, tuple[int | None, str]] = {
    "malformed.ground-truth.jsonl": (2, "malformed JSON: trailing comma at column 60"),
    "malformed.golden-assessment.yml": (7, "malformed YAML"),
    "duplicate-key.ground-truth.jsonl": (2, 'duplicate key "k"'),
    "duplicate-key.ground-truth.json": (None, 'duplicate key "documents"'),
    "duplicate-key.golden-assessment.yml": (6, "duplicate key 'bundle_id' (first at line 2)"),
    "python-tag.golden-assessment.yml": (6, f"tag !!python/object/apply:os.system {NOT_JSON}"),
    "set-tag.golden-assessment.yml": (6, f"tag !!set {NOT_JSON}"),
    # `on` stays the string "on" (YAML 1.1 would read True), so it is named as given
    "yaml11-bool.golden-assessment.yml": (7, '"assessment" must be one of yes, partial, no, '),
    "alias-bomb.golden-assessment.yml": (11, "aliases expand the data by more than 100,000"),
    "nesting-bomb.golden-assessment.yml": (6, "nesting deeper than 64 levels"),
    "nesting-bomb.ground-truth.json": (None, "nesting deeper than 64 levels"),
    "nan.ground-truth.jsonl": (2, "NaN is not allowed"),
    "nan.agent-tasks.jsonl": (1, "NaN is not allowed"),
    "infinity.ground-truth.jsonl": (2, "-Infinity is not allowed"),
    "float-overflow.ground-truth.jsonl": (2, "number 1e400 is out of range"),
    "huge-int.ground-truth.jsonl": (2, "(400 characters) is too large for a float"),
    "truncated.ground-truth.jsonl": (2, "truncated last line"),
    "empty.ground-truth.jsonl": (None, "empty file"),
    "empty.golden-assessment.yml": (None, "empty file"),
    "whitespace-only.ground-truth.json": (None, "empty file (whitespace only)"),
    "schema-version.golden-assessment.yml": (1, 'unsupported schema_version "0.3"'),
    "unknown-assessment.golden-assessment.yml": (7, "must be one of yes, partial, no, "),
    "duplicate-part.golden-assessment.yml": (7, 'part "p1" is in both primary_evidence'),
    "duplicate-id.ground-truth.jsonl": (2, 'duplicate id "ok" (first at line 1)'),
    "duplicate-id.qa.jsonl": (2, "duplicate id 'q1' (first at line 1)"),
    "not-utf8.ground-truth.jsonl": (2, "not UTF-8: invalid byte 0xff"),
    "not-utf8.golden-assessment.yml": (1, "not UTF-8: invalid byte 0xff"),
    "over-cap.ground-truth.jsonl": (None, "bizbench_max_case_bytes"),
}


@dataclass(frozen=True)
class Run:
    stdout: str
    ret: int
    report: dict[str, Any]


@pytest.fixture(scope="module")
def corpus_run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """One pytest session over every hostile file and a good case file (one session
    rather than one per file keeps this fast; each file is still asserted apart)."""
    root = tmp_path_factory.mktemp("hostile")
    (root / "good.ground-truth.jsonl").write_text(
        jsonl([doc("good-1", {"k": "v"}, extracted_fields={"k": "v"})])
    )
    for name in EXPECTED:
        if name != OVER_CAP:
            shutil.copy(HOSTILE / name, root / name)
    (root / "pytest.ini").write_text("[pytest]\n")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rE"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (root / REPORT).exists(), proc.stdout + proc.stderr
    report = json.loads((root / REPORT).read_text(encoding="utf-8"))
    return Run(proc.stdout, proc.returncode, report)


def test_the_corpus_and_the_table_agree() -> None:
    files = {p.name for p in HOSTILE.iterdir()} - {"bom.ground-truth.jsonl"}
    assert files == set(EXPECTED)


def test_the_good_case_is_scored_and_the_gate_fails_as_incomplete(corpus_run: Run) -> None:
    assert corpus_run.ret == 1
    assert "Traceback" not in corpus_run.stdout
    docs = corpus_run.report["benchmarks"]["field-accuracy"]["models"]["default"]["documents"]
    good = next(d for d in docs if d["id"] == "good-1")
    assert (good["outcome"], good["score"]) == ("passed", 1.0)
    assert corpus_run.report["completeness"]["complete"] is False
    assert corpus_run.report["gate"]["passed"] is False
    assert any("incomplete" in reason for reason in corpus_run.report["gate"]["reasons"])


@pytest.mark.parametrize("name", sorted(set(EXPECTED) - {OVER_CAP}))
def test_a_hostile_file_is_a_clear_error_naming_it(corpus_run: Run, name: str) -> None:
    line, problem = EXPECTED[name]
    where = name if line is None else f"{name}:{line}"
    messages = [e["message"] for e in corpus_run.report["completeness"]["errors"]]
    assert any(m.startswith(f"{where}: ") and problem in m for m in messages), messages
    assert f"{where}: " in corpus_run.stdout
    shown = [ln for ln in corpus_run.stdout.splitlines() if f"{where}: " in ln]
    assert any(problem in ln for ln in shown), shown


def test_a_file_over_the_size_cap(suite: Suite) -> None:
    # the good file (~120 bytes) fits under a 1000-byte cap, the over-cap file (~4 kB) not
    suite.write("pytest.ini", "[pytest]\nbizbench_max_case_bytes = 1000\n")
    suite.cases("good.ground-truth.jsonl", [doc("good-1", {"k": "v"}, extracted_fields={"k": "v"})])
    shutil.copy(HOSTILE / OVER_CAP, suite.path / OVER_CAP)
    result = suite.pytester.runpytest("-rE")
    assert result.ret == 1
    result.stdout.fnmatch_lines([f"*{OVER_CAP}: *bizbench_max_case_bytes*"])
    report = suite.report()
    assert suite.documents()["good-1"]["score"] == 1.0
    assert report["completeness"]["complete"] is False
    assert report["gate"]["passed"] is False


def test_a_bom_is_read_not_refused(suite: Suite) -> None:
    shutil.copy(HOSTILE / "bom.ground-truth.jsonl", suite.path / "bom.ground-truth.jsonl")
    result = suite.pytester.runpytest()
    assert result.ret == 0
    assert suite.documents()["ok"]["score"] == 1.0
    assert suite.report()["completeness"]["complete"] is True
