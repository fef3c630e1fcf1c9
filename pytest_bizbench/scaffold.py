"""`bizbench scaffold benchmark NAME`: a benchmark project that passes at once.

The templates are string constants here rather than package data: they are small,
and a reader sees the whole project a new user starts from in one file.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from string import Template

_NAME = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")

BENCHMARK = Template('''\
"""The $name benchmark: how many expected fields the system got exactly right."""

from __future__ import annotations

from pytest_bizbench import (
    BenchmarkPlugin,
    ExtendedDocument,
    MatchCondition,
    MatchRule,
    ScoredDocument,
)


def _same(expected: object, actual: object) -> bool:
    if isinstance(expected, str) and isinstance(actual, str):
        return expected.strip().casefold() == actual.strip().casefold()
    return expected == actual


class $cls(BenchmarkPlugin):
    name = "$name"
    version = "0.1.0"
    description = "Share of ground-truth fields extracted exactly (strings case-insensitive)."
    target_labels = ["invoice"]
    metric_unit = "share of fields"
    group_by = "currency"
    min_score = 0.5
    MATCH_RULES = [MatchRule("large", [MatchCondition("total", "gt", 1000)])]

    def score(self, document: ExtendedDocument) -> ScoredDocument:
        details = {}
        for field, expected in document.ground_truth.items():
            actual = document.extracted_fields.get(field)
            details[field] = {
                "score": 1.0 if _same(expected, actual) else 0.0,
                "expected": expected,
                "actual": actual,
            }
        score = sum(d["score"] for d in details.values()) / len(details) if details else 0.0
        return ScoredDocument(document, score, details)
''')

CASES = [
    {
        "id": "inv-001",
        "labels": ["invoice"],
        "metadata": {"currency": "EUR"},
        "ground_truth": {"vendor": "Acme GmbH", "total": 1250.0, "date": "2024-03-01"},
    },
    {
        "id": "inv-002",
        "labels": ["invoice"],
        "metadata": {"currency": "USD"},
        "ground_truth": {"vendor": "Globex Inc", "total": 99.5, "date": "2024-03-04"},
    },
    {
        "id": "inv-003",
        "labels": ["invoice"],
        "metadata": {"currency": "USD"},
        "ground_truth": {"vendor": "Initech", "total": 410.0, "date": "2024-03-09"},
    },
]

# What the system under test produced: inv-003 has the wrong date (2 of 3 fields right).
PREDICTIONS = {
    "inv-001": {"vendor": "ACME GmbH", "total": 1250.0, "date": "2024-03-01"},
    "inv-002": {"vendor": "Globex Inc", "total": 99.5, "date": "2024-03-04"},
    "inv-003": {"vendor": "Initech", "total": 410.0, "date": "2024-03-19"},
}

PYTEST_INI = Template("""\
[pytest]
# benchmark.py is imported from this directory
pythonpath = .
testpaths = cases test_$module.py
bizbench_benchmarks = benchmark:$cls
bizbench_builtin_benchmarks = false
bizbench_predictions = predictions
# mean score (1 + 1 + 2/3) / 3 = 0.889 on the sample
bizbench_thresholds = $name:accuracy >= 0.8
""")

TEST = Template('''\
"""Unit tests of the $name benchmark's scoring, next to the cases pytest collects."""

from __future__ import annotations

import pytest
from benchmark import $cls

from pytest_bizbench import ExtendedDocument


def document(extracted: dict[str, object]) -> ExtendedDocument:
    return ExtendedDocument(
        id="t",
        labels=["invoice"],
        ground_truth={"vendor": "Acme", "total": 10.0},
        extracted_fields=extracted,
    )


def test_all_fields_right_scores_one() -> None:
    assert $cls().score(document({"vendor": "ACME ", "total": 10.0})).score == 1.0


def test_one_field_of_two_wrong_scores_a_half() -> None:
    scored = $cls().score(document({"vendor": "Acme", "total": 11.0}))
    assert scored.score == pytest.approx(1 / 2)
    assert scored.details["total"]["score"] == 0.0
''')

README = Template("""\
# $name

A benchmark project made by `bizbench scaffold benchmark $name`.

- `benchmark.py`: the `$cls` benchmark (registered in `pytest.ini`).
- `cases/sample.ground-truth.jsonl`: ground truth, one document per line.
- `predictions/<case id>.json`: what the system under test extracted.
- `test_$module.py`: unit tests of the scoring.

Run it:

    pytest                              # scores every case, checks the threshold
    bizbench validate benchmark.py      # checks the benchmark class
    bizbench validate cases             # checks the case files

Replace the sample cases and predictions with your own, and `score()` with your
measure. The JSON report is written to `bizbench-report.json`.
""")


class ScaffoldError(Exception):
    """The project cannot be created (it exists); nothing was written."""


def _json(data: object) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def project_files(name: str) -> dict[str, str]:
    """Relative path -> content of the project for benchmark NAME."""
    cls = "".join(part.capitalize() for part in name.split("-")) + "Benchmark"
    module = name.replace("-", "_")
    fields = {"name": name, "cls": cls, "module": module}
    files = {
        "benchmark.py": BENCHMARK.substitute(fields),
        "cases/sample.ground-truth.jsonl": "".join(json.dumps(c) + "\n" for c in CASES),
        f"test_{module}.py": TEST.substitute(fields),
        "pytest.ini": PYTEST_INI.substitute(fields),
        "README.md": README.substitute(fields),
    }
    files.update({f"predictions/{key}.json": _json(value) for key, value in PREDICTIONS.items()})
    return files


def scaffold_benchmark(parent: Path, name: str) -> Path:
    """Create `parent/NAME`; ValueError for a bad name, ScaffoldError when it exists."""
    if not _NAME.match(name):
        raise ValueError(f"{name!r} is not a kebab-case name starting with a letter")
    root = parent / name
    if root.exists() or root.is_symlink():  # a dangling link exists too
        raise ScaffoldError(f"{root} already exists; nothing was changed")
    files = project_files(name)
    root.mkdir()
    for relpath, content in files.items():
        target = root / relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
    return root
