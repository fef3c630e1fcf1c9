"""The `bizbench` terminal section follows pytest's habits: -q makes it one line,
the terminal's width bounds it, and the gate's reasons are printed once."""

from __future__ import annotations

import pytest
from bizhelpers import Suite, doc

LONG = "a-benchmark-with-a-remarkably-long-name-that-no-terminal-column-holds"
LONG_BENCHMARK = f"""
from pytest_bizbench import BenchmarkPlugin, ScoredDocument

class Long(BenchmarkPlugin):
    name = "{LONG}"
    version = "1.0.0"
    description = "a name wider than the terminal"
    target_labels = ["invoice"]

    def score(self, document):
        if document.id == "bad":
            raise ValueError("no score for this one")
        return ScoredDocument(document, 1.0, {{}})

def pytest_bizbench_add_benchmarks(config):
    return [Long]
"""


@pytest.fixture
def long_suite(suite: Suite, monkeypatch: pytest.MonkeyPatch) -> Suite:
    monkeypatch.setenv("COLUMNS", "60")
    suite.write("conftest.py", LONG_BENCHMARK)
    suite.write("pytest.ini", "[pytest]\nbizbench_builtin_benchmarks = false\n")
    suite.cases(
        "a.ground-truth.jsonl", [doc(i, {"k": 1}, extracted_fields={"k": 1}) for i in "abc"]
    )
    return suite


def section(result: pytest.RunResult) -> list[str]:
    """The lines of the bizbench section, its path line left out."""
    lines = result.outlines
    start = next(i for i, line in enumerate(lines) if " bizbench =" in line)
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("bizbench report:"))
    return lines[start:end]


def test_quiet_gives_one_line_and_the_path(
    long_suite: Suite, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    result = long_suite.pytester.runpytest("-q")
    assert section(result)[1:] == ["bizbench gate: passed (3 items, 3 scored, 0 errors, 0 missing)"]
    result.stdout.fnmatch_lines(["bizbench report: *bizbench-report.json"])


def test_no_line_is_wider_than_the_terminal_and_v_shows_it_whole(long_suite: Suite) -> None:
    result = long_suite.pytester.runpytest()
    lines = section(result)
    assert lines
    assert all(len(line) <= 60 for line in lines), lines
    assert any(line.startswith("a-bench…") for line in lines)
    assert LONG not in "\n".join(lines)
    verbose = long_suite.pytester.runpytest("-v")
    assert any(line.startswith(LONG) for line in section(verbose))


def test_the_gates_reasons_are_printed_once(long_suite: Suite) -> None:
    long_suite.cases(
        "a.ground-truth.jsonl", [doc(i, {"k": 1}, extracted_fields={"k": 1}) for i in ("a", "bad")]
    )
    reason = "incomplete run: 1 error"
    result = long_suite.pytester.runpytest("-p", "no:cacheprovider")
    shown = [line for line in result.outlines if reason in line and not line.startswith("FAILED")]
    assert shown == [reason]  # under `gate` among the failures; the short summary is pytest's
    # one reason: the error line under it details it and is not counted
    result.stdout.fnmatch_lines(["bizbench gate: FAILED (1 reason under 'gate' above)"])
    # --tb=no lists no failure: the section lists the reasons
    quiet_tb = long_suite.pytester.runpytest("-p", "no:cacheprovider", "--tb=no")
    shown = [line for line in quiet_tb.outlines if reason in line and not line.startswith("FAILED")]
    assert shown == [f"  {reason}"]
    quiet_tb.stdout.fnmatch_lines(
        ["bizbench gate: FAILED", f"  {reason}", "  error: benchmark 'a-benchmark-*…"]
    )
