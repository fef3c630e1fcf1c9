"""Small frictions a newcomer met: each output says what it is and where to look."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_bizbench.cli import main
from pytest_bizbench.gate.aggregate import last_line

README = Path(__file__).resolve().parent.parent / "README.md"
GROUND_TRUTH = '{"id": "%s", "ground_truth": {"x": 1}, "extracted_fields": {"x": 1}}\n'


def test_run_help_names_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: bizbench run [options] [file_or_dir]")
    assert "pytest.main()" not in out


def test_a_bad_bool_ini_value_names_its_key(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nbizbench_builtin_benchmarks = maybe\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["ERROR: ini bizbench_builtin_benchmarks: invalid truth value 'maybe' (use true or false)"]
    )


def test_items_run_by_case_id_not_file_order(pytester: pytest.Pytester) -> None:
    pytester.path.joinpath("a.ground-truth.jsonl").write_text(
        "".join(GROUND_TRUTH % case_id for case_id in ("c", "a", "b"))
    )
    result = pytester.runpytest("--collect-only", "-q", "-p", "no:cacheprovider")
    assert result.stdout.lines[:3] == [
        "a.ground-truth.jsonl::a[field-accuracy]",
        "a.ground-truth.jsonl::b[field-accuracy]",
        "a.ground-truth.jsonl::c[field-accuracy]",
    ]


def test_last_line_is_the_exception_of_a_traceback() -> None:
    text = "ImportError while importing test module 'x.py'.\n  line 3\nE   ValueError: bad\n\n"
    assert last_line(text) == "E   ValueError: bad"
    assert last_line(" \n\n") == ""


def _readme_validate_sample() -> tuple[list[str], list[str]]:
    """(commands, output) of the README's `bizbench validate` sample."""
    text = README.read_text(encoding="utf-8")
    start = text.index("```text\n$ bizbench scaffold benchmark invoice-totals\n") + len("```text\n")
    block = text[start : text.index("```", start)].splitlines()
    commands: list[str] = []
    output: list[str] = []
    pending = ""  # a command continued with a backslash
    for line in block:
        if line.startswith("$ ") or pending:
            pending += line.removeprefix("$ ").strip()
            if pending.endswith("\\"):
                pending = pending.removesuffix("\\")
            else:
                commands.append(pending)
                pending = ""
        else:
            output.append(line)
    return commands, output


def test_readme_validate_sample_is_the_real_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    commands, expected = _readme_validate_sample()
    assert commands[0] == "bizbench scaffold benchmark invoice-totals"
    assert commands[2] == "bizbench validate invoice-totals/benchmark.py invoice-totals/cases"
    monkeypatch.chdir(tmp_path)
    assert main(["scaffold", "benchmark", "invoice-totals"]) == 0
    (tmp_path / "invoice-totals/cases/bad.ground-truth.jsonl").write_text(
        '{"id": "inv-001", "ground_truth": {"total": 1}}\n'
        '{"id": "inv-001", "ground_truth": {"total": 2}}\n'
    )
    capsys.readouterr()
    assert main(["validate", "invoice-totals/benchmark.py", "invoice-totals/cases"]) == 1
    assert capsys.readouterr().out.splitlines() == expected
