"""`bizbench validate`: one ✓/✗ line per check of a module, file:line per case problem."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bizhelpers import doc, jsonl

from pytest_bizbench.cli import main

GOOD_MODULE = """
from pytest_bizbench import BenchmarkPlugin, MatchCondition, MatchRule, ScoredDocument

class Totals(BenchmarkPlugin):
    name = "totals"
    version = "1.0.0"
    description = "is the total right"
    target_labels = ["invoice"]
    metric_unit = "share"
    group_by = None
    MATCH_RULES = [MatchRule("big", [MatchCondition("total", "gt", 100)])]

    def score(self, document):
        return ScoredDocument(document, 1.0, {})
"""


def run(capsys: pytest.CaptureFixture[str], *paths: Path | str) -> tuple[int, list[str], str]:
    code = main(["validate", *map(str, paths)])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_a_good_module_is_all_ticks_in_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = tmp_path / "bench.py"
    module.write_text(GOOD_MODULE)
    code, lines, _ = run(capsys, module)
    assert code == 0
    assert lines == [
        f"✓ module imports: {module}",
        "✓ class found: Totals",
        "✓ base class: Totals subclasses BenchmarkPlugin",
        "✓ required methods: score, compute, compare",
        "✓ name = 'totals'",
        "✓ version = '1.0.0'",
        "✓ description = 'is the total right'",
        "✓ target_labels = ['invoice']",
        "✓ metric_unit = 'share'",
        "✓ group_by = None",
        "✓ headline_metric = 'accuracy'",
        "✓ min_score = 0.5",
        "✓ REGRESSION_THRESHOLD = 0.02",
        "✓ IMPROVEMENT_THRESHOLD = 0.01",
        "✓ match rule 'big': total gt 100 (mean)",
    ]


def test_bad_identity_and_rules_are_crosses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = tmp_path / "bench.py"
    module.write_text(
        GOOD_MODULE.replace('"1.0.0"', '"one"')
        .replace('"totals"', '"Totals Bench"')
        .replace(
            'MATCH_RULES = [MatchRule("big", [MatchCondition("total", "gt", 100)])]',
            'MATCH_RULES = [MatchRule("bad-re", [MatchCondition("x", "regex", "(")]),\n'
            '        MatchRule("bad-op", [MatchCondition("x", "like", 1)]),\n'
            '        MatchRule("fine", [MatchCondition("x", "eq", "a")])]',
        )
    )
    code, lines, _ = run(capsys, module)
    assert code == 1
    assert "✗ name must be a kebab-case string, got 'Totals Bench'" in lines
    assert "✗ version must be a semver string, got 'one'" in lines
    assert "✓ description = 'is the total right'" in lines
    rules = [line for line in lines if "match rule" in line]
    assert rules[0].startswith("✗ match rule 'bad-re': ")
    assert "invalid regex" in rules[0]
    assert rules[1].startswith("✗ match rule 'bad-op': field 'x': unknown operator 'like'")
    assert rules[2] == "✓ match rule 'fine': x eq 'a' (mean)"


def test_a_class_without_the_base_and_without_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = tmp_path / "bench.py"
    module.write_text(
        "from pytest_bizbench import BenchmarkPlugin\n"
        "class Loose:\n    name = 'loose'\n    def score(self, d):\n        return None\n"
        "class Empty(BenchmarkPlugin):\n    name = 'empty'\n"
    )
    code, lines, _ = run(capsys, module)
    assert code == 1
    assert "✗ base class: Loose is not a subclass of BenchmarkPlugin" in lines
    assert "✗ required methods: missing compute, compare" in lines
    assert "✗ required methods: missing score (not implemented)" in lines
    assert "✗ version is missing" in lines


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("class X(:\n", "✗ module imports: SyntaxError at {path}:1: "),
        ("import no_such_module_xyz\n", "✗ module imports: ModuleNotFoundError at {path}:1: "),
        (
            "x = 1\n\nraise RuntimeError('boom')\n",
            "✗ module imports: RuntimeError at {path}:3: boom",
        ),
        ("x = 1\n", "✗ class found: no subclass of BenchmarkPlugin in {path}"),
    ],
)
def test_a_module_that_does_not_import_or_has_no_class(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, expected: str
) -> None:
    module = tmp_path / "bench.py"
    module.write_text(source)
    code, lines, err = run(capsys, module)
    assert code == 1
    assert lines[-1].startswith(expected.format(path=module))
    assert "Traceback" not in "\n".join(lines) + err


def test_case_files_report_file_line_and_duplicate_ids(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.ground-truth.jsonl"
    good.write_text(jsonl([doc("a", {"k": 1}), doc("b", {"k": 2})]))
    bad = tmp_path / "bad.ground-truth.jsonl"
    bad.write_text(jsonl([doc("a", {"k": 1}), doc("a", {"k": 2})]) + "{oops\n")
    code, lines, _ = run(capsys, good, bad)
    assert code == 1
    assert lines[0] == f"✓ {good}: 2 cases"
    assert lines[1] == f'✗ {bad}:2: duplicate id "a" (first at line 1)'
    assert lines[2].startswith(f"✗ {bad}:3: ")


def test_golden_missing_blocks_are_warnings_and_a_directory_is_its_case_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden = tmp_path / "cases" / "a.golden-assessment.yml"
    golden.parent.mkdir()
    golden.write_text(
        'schema_version: "0.4"\nbundle_id: b\ntemplate_id: t\nassumptions: []\n'
        "question_answers: {}\nrequirements:\n  R1:\n    assessment: no\n"
        "    primary_evidence: {}\n"
    )
    (tmp_path / "cases" / "notes.txt").write_text("not a case file")
    code, lines, _ = run(capsys, tmp_path / "cases")
    assert code == 0  # a warning does not fail validation
    assert lines == [
        f"! {golden}:7: requirement 'R1': supporting_evidence is missing; read as empty",
        f"✓ {golden}: 1 case",
    ]


@pytest.mark.parametrize(
    ("path", "problem"),
    [("nowhere.py", "no such file or directory"), ("notes.txt", "neither a benchmark module")],
)
def test_a_path_that_is_not_there_or_not_checkable_is_a_usage_error(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    path: str,
    problem: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("hi")
    code, lines, err = run(capsys, path)
    assert code == 2
    assert lines == []
    assert f"bizbench validate: {path}: {problem}" in err


def test_json_case_file_and_qa_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    single = tmp_path / "one.ground-truth.json"
    single.write_text(json.dumps(doc("x", {"k": 1})))
    qa = tmp_path / "q.qa.jsonl"
    qa.write_text(jsonl([{"id": "q1", "question": "2+2?", "expected": "4"}, {"id": "q1"}]))
    code, lines, _ = run(capsys, single, qa)
    assert code == 1
    assert lines[0] == f"✓ {single}: 1 case"
    assert lines[1].startswith(f"✗ {qa}:2: ")
