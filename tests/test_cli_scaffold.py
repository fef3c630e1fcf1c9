"""`bizbench scaffold benchmark NAME`: a project that validates and passes at once."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from pytest_bizbench.cli import main


def test_the_scaffold_validates_and_its_tests_pass(
    pytester: pytest.Pytester,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert main(["scaffold", "benchmark", "invoice-totals"]) == 0
    root = pytester.path / "invoice-totals"
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()) == [
        "README.md",
        "benchmark.py",
        "cases/sample.ground-truth.jsonl",
        "predictions/inv-001.json",
        "predictions/inv-002.json",
        "predictions/inv-003.json",
        "pytest.ini",
        "test_invoice_totals.py",
    ]
    capsys.readouterr()
    assert main(["validate", "invoice-totals/benchmark.py", "invoice-totals/cases"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 16  # 15 module checks and the case file
    assert all(line.startswith("✓") for line in lines), lines
    # pytest inside the project, as a user runs it
    monkeypatch.chdir(root)
    result = pytester.run(sys.executable, "-m", "pytest", "-p", "no:cacheprovider")
    assert result.ret == 0, result.stdout.str()
    result.stdout.fnmatch_lines(["*6 passed*"])  # with bizbench::gate
    report = json.loads((root / "bizbench-report.json").read_text())
    metrics = report["benchmarks"]["invoice-totals"]["models"]["default"]["metrics"]
    # inv-001 and inv-002 all right, inv-003 2 of 3 fields: (1 + 1 + 2/3) / 3
    assert metrics["accuracy"] == pytest.approx((1 + 1 + 2 / 3) / 3)
    assert metrics["rule_large"]["count"] == 1  # only inv-001's total 1250 > 1000
    assert report["gate"]["passed"] is True
    assert report["completeness"]["complete"] is True


def test_an_existing_directory_is_left_alone(
    pytester: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    existing = pytester.path / "mine"
    existing.mkdir()
    (existing / "keep.txt").write_text("mine")
    assert main(["scaffold", "benchmark", "mine"]) == 1
    assert "already exists; nothing was changed" in capsys.readouterr().err
    assert [p.name for p in existing.iterdir()] == ["keep.txt"]


def test_a_bad_name_is_a_usage_error(
    pytester: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["scaffold", "benchmark", "Bad_Name"]) == 2
    assert "not a kebab-case name" in capsys.readouterr().err
    assert not Path(pytester.path / "Bad_Name").exists()
