"""Command-line options and ini keys, read once into a frozen `Settings`."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_bizbench.gate import Threshold, parse_threshold
from pytest_bizbench.scoring import LadderConfig

DEFAULT_CASE_PATTERNS = (
    "*.ground-truth.json",
    "*.ground-truth.jsonl",
    "*.golden-assessment.yml",
    "*.golden-assessment.yaml",
    "*.qa.jsonl",
    "*.agent-tasks.jsonl",
    "*.agent-runs.jsonl",
)
DEFAULT_MODEL = "default"
DEFAULT_REPORT = "bizbench-report.json"


@dataclass(frozen=True, slots=True)
class PredictionSpec:
    model: str
    path: Path


@dataclass(frozen=True, slots=True)
class Settings:
    predictions: tuple[PredictionSpec, ...]
    models: tuple[str, ...]
    min_score: float | None
    thresholds: tuple[Threshold, ...]
    report_path: Path
    case_patterns: tuple[str, ...]
    max_case_bytes: int
    regex_timeout: float
    ladder: LadderConfig
    benchmark_specs: tuple[str, ...]
    builtin_benchmarks: bool


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("bizbench", "bizbench: evaluate systems against ground truth")
    group.addoption(
        "--bizbench-predictions",
        action="append",
        default=[],
        metavar="[MODEL=]PATH",
        help="predictions of the system under test: a directory of <case_id>.json|.yml, "
        "a JSON object keyed by case id or a JSONL file of rows with 'id'. "
        "Repeat with MODEL= names to compare models side by side.",
    )
    group.addoption(
        "--bizbench-min-score",
        type=float,
        default=None,
        metavar="SCORE",
        help="per-case pass mark for cases without their own min_score.",
    )
    group.addoption(
        "--bizbench-threshold",
        action="append",
        default=[],
        metavar="BENCH[:MODEL]:METRIC OP VALUE",
        help="aggregate gate, e.g. 'field-accuracy:accuracy>=0.9' (repeatable).",
    )
    group.addoption(
        "--bizbench-report",
        default=None,
        metavar="PATH",
        help=f"where to write the JSON report (default {DEFAULT_REPORT}).",
    )
    ini = parser.addini
    ini("bizbench_predictions", "[MODEL=]PATH lines, like --bizbench-predictions.", "linelist")
    ini("bizbench_min_score", "per-case pass mark, like --bizbench-min-score.", default="")
    ini("bizbench_thresholds", "threshold lines, like --bizbench-threshold.", "linelist")
    ini("bizbench_report", "JSON report path, relative to the rootdir.", default="")
    ini(
        "bizbench_case_patterns",
        "glob patterns of case files to collect.",
        "linelist",
        default=list(DEFAULT_CASE_PATTERNS),
    )
    ini("bizbench_max_case_bytes", "size cap of one case file (bytes).", default="50000000")
    ini("bizbench_regex_timeout", "seconds one regex rule match may take.", default="1.0")
    ini("bizbench_strictness", "similarity that counts as a match (0-1).", default="0.90")
    ini("bizbench_rel_tol", "relative tolerance of number fields.", default="0.01")
    ini("bizbench_abs_tol", "absolute tolerance of number fields.", default="0.01")
    ini("bizbench_date_order", "DMY or MDY for ambiguous dates.", default="DMY")
    ini("bizbench_numeric_fields", "fields always compared as numbers.", "linelist")
    ini("bizbench_date_fields", "fields always compared as dates.", "linelist")
    ini("bizbench_free_text_fields", "fields given similarity as partial credit.", "linelist")
    ini("bizbench_benchmarks", "benchmark classes as pkg.module:ClassName.", "linelist")
    ini("bizbench_builtin_benchmarks", "register the built-in benchmarks.", "bool", default=True)


def _ini_base(config: pytest.Config) -> Path:
    return config.inipath.parent if config.inipath else config.rootpath


def _number(config: pytest.Config, key: str, low: float, high: float) -> float:
    raw = str(config.getini(key)).strip()
    try:
        value = float(raw)
    except ValueError:
        raise pytest.UsageError(f"ini {key} = {raw!r} is not a number") from None
    if not (math.isfinite(value) and low <= value <= high):
        raise pytest.UsageError(f"ini {key} = {raw!r} must be between {low:g} and {high:g}")
    return value


def _predictions(config: pytest.Config) -> tuple[PredictionSpec, ...]:
    given: list[str] = config.getoption("bizbench_predictions")
    base = config.invocation_params.dir
    if not given:
        given, base = list(config.getini("bizbench_predictions")), _ini_base(config)
    specs: list[PredictionSpec] = []
    for raw in given:
        model, sep, path_text = raw.partition("=")
        if not sep or not model.strip() or any(c in model for c in "/\\"):
            model, path_text = DEFAULT_MODEL, raw
        model, path_text = model.strip(), path_text.strip()
        path = (base / path_text).resolve()
        if not path.exists():
            raise pytest.UsageError(f"--bizbench-predictions {raw}: {path} does not exist")
        if any(spec.model == model for spec in specs):
            raise pytest.UsageError(
                f"--bizbench-predictions: model {model!r} is given twice; name each "
                "source MODEL=PATH"
            )
        specs.append(PredictionSpec(model, path))
    return tuple(specs)


def _thresholds(config: pytest.Config) -> tuple[Threshold, ...]:
    lines = [*config.getini("bizbench_thresholds"), *config.getoption("bizbench_threshold")]
    try:
        return tuple(parse_threshold(line) for line in lines if line.strip())
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None


def _min_score(config: pytest.Config) -> float | None:
    value: float | None = config.getoption("bizbench_min_score")
    if value is None:
        if not str(config.getini("bizbench_min_score")).strip():
            return None
        return _number(config, "bizbench_min_score", 0.0, 1.0)
    if not (math.isfinite(value) and 0.0 <= value <= 1.0):
        raise pytest.UsageError(f"--bizbench-min-score {value} must be between 0 and 1")
    return value


def _report_path(config: pytest.Config) -> Path:
    option: str | None = config.getoption("bizbench_report")
    if option:
        return config.invocation_params.dir / option
    ini = str(config.getini("bizbench_report")).strip()
    if ini:
        return config.rootpath / ini
    return config.invocation_params.dir / DEFAULT_REPORT


def read_settings(config: pytest.Config) -> Settings:
    """Read and check every option once; a bad value is a `pytest.UsageError`."""
    date_order = str(config.getini("bizbench_date_order")).strip().upper()
    if date_order not in ("DMY", "MDY"):
        raise pytest.UsageError(f"ini bizbench_date_order = {date_order!r} must be DMY or MDY")
    ladder = LadderConfig(
        strictness=_number(config, "bizbench_strictness", 0.0, 1.0),
        rel_tol=_number(config, "bizbench_rel_tol", 0.0, math.inf),
        abs_tol=_number(config, "bizbench_abs_tol", 0.0, math.inf),
        date_order=date_order,
        numeric_fields=frozenset(config.getini("bizbench_numeric_fields")),
        date_fields=frozenset(config.getini("bizbench_date_fields")),
        free_text_fields=frozenset(config.getini("bizbench_free_text_fields")),
    )
    predictions = _predictions(config)
    return Settings(
        predictions=predictions,
        models=tuple(spec.model for spec in predictions) or (DEFAULT_MODEL,),
        min_score=_min_score(config),
        thresholds=_thresholds(config),
        report_path=_report_path(config),
        case_patterns=tuple(config.getini("bizbench_case_patterns")),
        max_case_bytes=int(_number(config, "bizbench_max_case_bytes", 1, math.inf)),
        regex_timeout=_number(config, "bizbench_regex_timeout", 0.001, 3600.0),
        ladder=ladder,
        benchmark_specs=tuple(config.getini("bizbench_benchmarks")),
        builtin_benchmarks=bool(config.getini("bizbench_builtin_benchmarks")),
    )
