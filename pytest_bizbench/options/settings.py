"""Command-line options and ini keys, read once into a frozen `Settings`."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_bizbench.options.llm import DEFAULT_KEY_ENV, LLM_PREFIX, LiveModel, LLMOptions
from pytest_bizbench.options.table import (
    DEFAULT_CASE_PATTERNS,
    DEFAULT_MAX_CASE_BYTES,
    DEFAULT_REPORT,
    INI_KEYS,
    UNSET_INI,
)
from pytest_bizbench.options.types import (
    REVIEW_KEYS,
    AgentConfig,
    LadderConfig,
    LoadOptions,
    ReviewConfig,
    TrajectoryConfig,
)

if TYPE_CHECKING:  # read lazily: a threshold or rules file is parsed only when one is set
    from pytest_bizbench.options.field_rules import FieldRules
    from pytest_bizbench.options.thresholds import Threshold

DEFAULT_MODEL = "default"


@dataclass(frozen=True, slots=True)
class PredictionSpec:
    model: str
    path: Path


@dataclass(frozen=True, slots=True)
class BaselineOptions:
    """Comparison with a baseline report and saving one."""

    path: Path | None = None
    save_path: Path | None = None
    force: bool = False
    allow_regression: bool = False
    allow_stale: bool = False
    require_significance: bool = False
    worst_cases: int = 10
    #: (model of this run, model of the baseline) pairs: a renamed model's baseline
    models: tuple[tuple[str, str], ...] = ()

    def baseline_model(self, model: str) -> str:
        """The baseline's name for this run's `model`."""
        return dict(self.models).get(model, model)


@dataclass(frozen=True, slots=True)
class QAOptions:
    """QA rows: which rows run, how answers are graded, what the model sees."""

    subset: tuple[str, ...] = ()  # question types kept; empty keeps all
    limit: int | None = None  # first N questions kept, after the subset
    scorer: str = "auto"  # auto, exact, contains or numeric
    pass_at_k: tuple[int, ...] = (1,)
    open_book: bool | None = None  # None: when the row has evidence


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
    requirements: tuple[str, ...] = ()  # --bizbench-requirement: review requirement ids
    review: ReviewConfig = field(default_factory=ReviewConfig)
    baseline: BaselineOptions = BaselineOptions()
    agent: AgentConfig = field(default_factory=AgentConfig)
    qa: QAOptions = QAOptions()
    prediction_cache: Path | None = None
    shard: bool = False  # --bizbench-shard: the gate judges completeness only
    allow_missing: bool = False  # --bizbench-allow-missing: baseline coverage reported only
    llm: LLMOptions = field(default_factory=LLMOptions)
    cluster_by: str | None = None  # case field whose value clusters paired deltas
    flaky: str = "fail"  # fail or xfail: how a failing case whose samples flip ends
    trajectory: TrajectoryConfig = field(default_factory=TrajectoryConfig)
    field_rules: FieldRules | None = None  # ini bizbench_field_rules, read

    def load_options(self) -> LoadOptions:
        return LoadOptions(
            self.max_case_bytes,
            frozenset(self.requirements),
            self.qa.open_book,
            self.trajectory,
        )


def default_settings() -> Settings:
    """Every option at its default, for reading case files outside a pytest run
    (`bizbench validate`), where there is no config to read."""
    from pytest_bizbench.sdk import DEFAULT_REGEX_TIMEOUT

    return Settings(
        predictions=(),
        models=(DEFAULT_MODEL,),
        min_score=None,
        thresholds=(),
        report_path=Path(DEFAULT_REPORT),
        case_patterns=DEFAULT_CASE_PATTERNS,
        max_case_bytes=DEFAULT_MAX_CASE_BYTES,
        regex_timeout=DEFAULT_REGEX_TIMEOUT,
        ladder=LadderConfig(),
        benchmark_specs=(),
        builtin_benchmarks=True,
    )


def _ini_base(config: pytest.Config) -> Path:
    return config.inipath.parent if config.inipath else config.rootpath


def _number(config: pytest.Config, key: str) -> float:
    """A number ini key, inside the bounds the option table gives it."""
    raw = str(config.getini(key)).strip()
    low, high = INI_KEYS[key].bounds or (-math.inf, math.inf)
    try:
        value = float(raw)
    except ValueError:
        raise pytest.UsageError(f"ini {key} = {raw!r} is not a number") from None
    if not (math.isfinite(value) and low <= value <= high):
        raise pytest.UsageError(f"ini {key} = {raw!r} must be between {low:g} and {high:g}")
    return value


def _choice(config: pytest.Config, key: str) -> str:
    """A word ini key, one of the choices the option table gives it (any case)."""
    choices = INI_KEYS[key].choices
    raw = str(config.getini(key)).strip()
    for choice in choices:
        if raw.lower() == choice.lower():
            return choice
    *head, last = choices
    raise pytest.UsageError(f"ini {key} = {raw!r} must be {', '.join(head)} or {last}")


def _flag(config: pytest.Config, key: str) -> bool:
    """A bool ini key; pytest's own error does not say which key it read."""
    try:
        return bool(config.getini(key))
    except (ValueError, pytest.UsageError) as exc:  # pytest raises either, by version
        raise pytest.UsageError(f"ini {key}: {exc} (use true or false)") from None


def _empty(name: str, expected: str) -> pytest.UsageError:
    """An option or ini key given an empty value, e.g. from a CI variable that was not
    set: refused, so it never reads the current directory or switches a gate off."""
    return pytest.UsageError(f"{name} is empty: expected {expected}")


def _option_text(config: pytest.Config, dest: str, expected: str) -> str | None:
    """A path option's value; None when not given, a usage error when given empty."""
    value: str | None = config.getoption(dest)
    if value is not None and not value.strip():
        raise _empty("--" + dest.replace("_", "-"), expected)
    return value


def _ini_text(config: pytest.Config, key: str, expected: str) -> str | None:
    """A path ini key's value; None when the ini does not set it, a usage error when it
    sets it to nothing."""
    value = config.getini(key)
    if value is UNSET_INI:
        return None
    text = str(value).strip()
    if not text:
        raise _empty(f"ini {key}", expected)
    return text


def _predictions(
    config: pytest.Config,
) -> tuple[tuple[PredictionSpec, ...], tuple[LiveModel, ...], tuple[str, ...]]:
    """(file sources, `llm:` models, every model in the order named)."""
    expected = "[MODEL=]PATH"
    given: list[str] = config.getoption("bizbench_predictions")
    origin, base = "--bizbench-predictions", config.invocation_params.dir
    if not given:
        origin, base = "ini bizbench_predictions", _ini_base(config)
        lines = config.getini("bizbench_predictions")
        given = [] if lines is UNSET_INI else list(lines)
        if lines is not UNSET_INI and not given:
            raise _empty(origin, expected)
    specs: list[PredictionSpec] = []
    live: list[LiveModel] = []
    models: list[str] = []
    unnamed = 0
    for raw in given:
        if not raw.strip():
            raise _empty(origin, expected)
        model, sep, path_text = raw.partition("=")
        if not sep or not model.strip() or any(c in model for c in "/\\"):
            model, path_text = DEFAULT_MODEL, raw
            unnamed += 1
        model, path_text = model.strip(), path_text.strip()
        if not path_text:
            raise _empty(f"{origin} {raw.strip()!r}: the path", f"{model}=PATH")
        models.append(model)
        if path_text.startswith(LLM_PREFIX):
            live.append(LiveModel(model, path_text.removeprefix(LLM_PREFIX).strip()))
            continue
        path = (base / path_text).resolve()
        if not path.exists():
            raise pytest.UsageError(f"--bizbench-predictions {raw}: {path} does not exist")
        # A model named twice has several sources, tried in order; two unnamed
        # sources are more likely two models whose names were forgotten.
        if unnamed > 1:
            raise pytest.UsageError(
                "--bizbench-predictions: two sources without a model name; name each "
                "source MODEL=PATH (a model named twice is looked up in its sources in order)"
            )
        specs.append(PredictionSpec(model, path))
    for entry in live:
        others = [spec.model for spec in specs] + [e.model for e in live if e is not entry]
        if not entry.endpoint_model or entry.model in others:
            raise pytest.UsageError(
                f"--bizbench-predictions {entry.model}={LLM_PREFIX}{entry.endpoint_model}: "
                "name an endpoint model, and give an llm: model no other source"
            )
    return tuple(specs), tuple(live), tuple(dict.fromkeys(models))


def _thresholds(config: pytest.Config) -> tuple[Threshold, ...]:
    given = config.getoption("bizbench_threshold")
    if any(not value.strip() for value in given):  # e.g. a CI variable that was not set
        raise pytest.UsageError(
            "--bizbench-threshold is empty: expected BENCH[:MODEL]:METRIC OP VALUE"
        )
    lines = [*config.getini("bizbench_thresholds"), *given]
    if not any(line.strip() for line in lines):
        return ()
    from pytest_bizbench.options.thresholds import parse_threshold

    try:
        return tuple(parse_threshold(line) for line in lines if line.strip())
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None


def _min_score(config: pytest.Config) -> float | None:
    value: float | None = config.getoption("bizbench_min_score")
    if value is None:
        if not str(config.getini("bizbench_min_score")).strip():
            return None
        return _number(config, "bizbench_min_score")
    if not (math.isfinite(value) and 0.0 <= value <= 1.0):
        raise pytest.UsageError(f"--bizbench-min-score {value} must be between 0 and 1")
    return value


def _report_path(config: pytest.Config) -> Path:
    option = _option_text(config, "bizbench_report", "PATH")
    ini = _ini_text(config, "bizbench_report", "PATH")
    if option is not None:
        return config.invocation_params.dir / option
    if ini is not None:
        return config.rootpath / ini
    return config.invocation_params.dir / DEFAULT_REPORT


def _baseline_options(config: pytest.Config) -> BaselineOptions:
    invoked = config.invocation_params.dir
    option = _option_text(config, "bizbench_baseline", "PATH")
    ini = _ini_text(config, "bizbench_baseline", "PATH")
    path = invoked / option if option else (_ini_base(config) / ini if ini else None)
    save = _option_text(config, "bizbench_save_baseline", "PATH")
    significance: bool | None = config.getoption("bizbench_require_significance")
    return BaselineOptions(
        path=path,
        save_path=_save_path(config, invoked / save if save else None, path),
        force=bool(config.getoption("bizbench_force_baseline")),
        allow_regression=bool(config.getoption("bizbench_allow_regression")),
        allow_stale=bool(config.getoption("bizbench_allow_stale")),
        require_significance=bool(
            _flag(config, "bizbench_require_significance") if significance is None else True
        ),
        worst_cases=int(_number(config, "bizbench_worst_cases")),
        models=_baseline_models(config),
    )


def _baseline_models(config: pytest.Config) -> tuple[tuple[str, str], ...]:
    """`NEW=OLD` lines (ini, then options): this run's model NEW is compared with the
    baseline's OLD. A model mapped twice, or a line without both names, is a usage error."""
    pairs: dict[str, str] = {}
    for line in [
        *config.getini("bizbench_baseline_models"),
        *config.getoption("bizbench_baseline_model"),
    ]:
        new, equals, old = (part.strip() for part in str(line).partition("="))
        if not (equals and new and old):
            raise pytest.UsageError(f"--bizbench-baseline-model {line!r}: expected NEW=OLD")
        if pairs.get(new, old) != old:
            raise pytest.UsageError(
                f"--bizbench-baseline-model: model {new!r} is mapped to both "
                f"{pairs[new]!r} and {old!r}"
            )
        pairs[new] = old
    return tuple(sorted(pairs.items()))


def _check_report_is_not_the_baseline(report: Path, baseline: BaselineOptions) -> None:
    """Every run writes its report: at the baseline's path it would replace the
    baseline whatever the run was (filtered, incomplete), past the save's refusals."""
    if baseline.path is not None and report.resolve() == baseline.path.resolve():
        raise pytest.UsageError(
            f"--bizbench-report {report} is the baseline the run compares with: every run "
            "would overwrite it; write the report elsewhere and save a baseline with "
            "--bizbench-update-baseline"
        )


def _save_path(config: pytest.Config, given: Path | None, baseline: Path | None) -> Path | None:
    """Where the baseline is saved: the path given, or with `--bizbench-update-baseline`
    the baseline the run compares with."""
    if not config.getoption("bizbench_update_baseline"):
        return given
    if given is not None:
        raise pytest.UsageError(
            "--bizbench-update-baseline saves over the configured baseline and "
            "--bizbench-save-baseline PATH saves to PATH: give one of them"
        )
    if baseline is None:
        raise pytest.UsageError(
            "--bizbench-update-baseline: no baseline is configured; set ini "
            "bizbench_baseline (or pass --bizbench-save-baseline PATH)"
        )
    return baseline


def _agent_config(config: pytest.Config) -> AgentConfig:
    try:
        return AgentConfig.from_ini(
            str(config.getini("bizbench_agent_max_file_bytes")),
            str(config.getini("bizbench_agent_group_pattern")),
            config.getini("bizbench_agent_run_fields"),
        )
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None


def _trajectory_config(config: pytest.Config) -> TrajectoryConfig:
    try:
        return TrajectoryConfig.from_ini(
            str(config.getini("bizbench_trajectory_score")),
            _flag(config, "bizbench_trajectory_lower_is_better"),
            config.getini("bizbench_trajectory_fields"),
        )
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None


def _qa_options(config: pytest.Config) -> QAOptions:
    limit: int | None = config.getoption("bizbench_limit")
    if limit is not None and limit < 1:
        raise pytest.UsageError(f"--bizbench-limit {limit}: must be at least 1")
    scorer = _choice(config, "bizbench_qa_scorer")
    raw_k = str(config.getini("bizbench_pass_at_k"))
    try:
        ks = tuple(sorted({int(part) for part in raw_k.replace(",", " ").split()}))
    except ValueError:
        ks = ()
    if not ks or ks[0] < 1:
        raise pytest.UsageError(
            f"ini bizbench_pass_at_k = {raw_k!r} must be whole numbers >= 1, e.g. 1,3,5"
        )
    open_book = _choice(config, "bizbench_open_book")
    books = {"auto": None, "true": True, "false": False}
    subset: list[str] = config.getoption("bizbench_subset")
    return QAOptions(
        subset=tuple(s.strip() for s in subset if s.strip()),
        limit=limit,
        scorer=scorer,
        pass_at_k=ks,
        open_book=books[open_book],
    )


def _prediction_cache(config: pytest.Config) -> Path | None:
    raw = str(config.getini("bizbench_prediction_cache")).strip()
    return (_ini_base(config) / raw).resolve() if raw else None


def _llm_options(config: pytest.Config, live: tuple[LiveModel, ...]) -> LLMOptions:
    def text(key: str) -> str | None:
        return str(config.getini(key)).strip() or None

    options = LLMOptions(
        base_url=text("bizbench_llm_base_url"),
        api_key_env=text("bizbench_llm_api_key_env") or DEFAULT_KEY_ENV,
        judge_model=text("bizbench_judge_model"),
        embedding_model=text("bizbench_embedding_model"),
        concurrency=int(_number(config, "bizbench_llm_concurrency")),
        timeout=_number(config, "bizbench_llm_timeout"),
        retries=int(_number(config, "bizbench_llm_retries")),
        backoff=_number(config, "bizbench_llm_backoff"),
        live=live,
    )
    if options.needed and options.base_url is None:
        raise pytest.UsageError(
            "a judge, embedding or llm: model is set but ini bizbench_llm_base_url is not "
            "(e.g. https://api.openai.com/v1, or http://localhost:8000/v1 for a local server)"
        )
    return options


def _review_config(config: pytest.Config) -> ReviewConfig:
    try:
        return ReviewConfig.from_ini({key: str(config.getini(key)) for key in REVIEW_KEYS})
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None


def _field_rules(config: pytest.Config) -> FieldRules | None:
    """The rules file of ini `bizbench_field_rules` (relative to the rootdir), read."""
    text = _ini_text(config, "bizbench_field_rules", "a YAML or JSON rules file")
    if text is None:
        return None
    from pytest_bizbench.options.field_rules import RulesError, read_rules_file

    try:
        max_bytes = int(_number(config, "bizbench_max_case_bytes"))
        return read_rules_file(config.rootpath / text, text, max_bytes)
    except RulesError as exc:
        raise pytest.UsageError(f"ini bizbench_field_rules: {exc}") from None


def read_settings(config: pytest.Config) -> Settings:
    """Read and check every option once; a bad value is a `pytest.UsageError`."""
    date_order = _choice(config, "bizbench_date_order")
    ladder = LadderConfig(
        strictness=_number(config, "bizbench_strictness"),
        rel_tol=_number(config, "bizbench_rel_tol"),
        abs_tol=_number(config, "bizbench_abs_tol"),
        date_order=date_order,
        numeric_fields=frozenset(config.getini("bizbench_numeric_fields")),
        date_fields=frozenset(config.getini("bizbench_date_fields")),
        free_text_fields=frozenset(config.getini("bizbench_free_text_fields")),
        max_list_items=int(_number(config, "bizbench_max_list_items")),
        max_text_chars=int(_number(config, "bizbench_max_text_chars")),
    )
    predictions, live, models = _predictions(config)
    report_path = _report_path(config)
    baseline = _baseline_options(config)
    _check_report_is_not_the_baseline(report_path, baseline)
    return Settings(
        predictions=predictions,
        models=models or (DEFAULT_MODEL,),
        min_score=_min_score(config),
        thresholds=_thresholds(config),
        report_path=report_path,
        case_patterns=tuple(config.getini("bizbench_case_patterns")),
        max_case_bytes=int(_number(config, "bizbench_max_case_bytes")),
        regex_timeout=_number(config, "bizbench_regex_timeout"),
        ladder=ladder,
        benchmark_specs=tuple(config.getini("bizbench_benchmarks")),
        builtin_benchmarks=_flag(config, "bizbench_builtin_benchmarks"),
        requirements=tuple(config.getoption("bizbench_requirement")),
        review=_review_config(config),
        baseline=baseline,
        agent=_agent_config(config),
        qa=_qa_options(config),
        prediction_cache=_prediction_cache(config),
        shard=bool(config.getoption("bizbench_shard")),
        allow_missing=bool(config.getoption("bizbench_allow_missing")),
        llm=_llm_options(config, live),
        cluster_by=str(config.getini("bizbench_cluster_by")).strip() or None,
        flaky=_choice(config, "bizbench_flaky"),
        trajectory=_trajectory_config(config),
        field_rules=_field_rules(config),
    )
