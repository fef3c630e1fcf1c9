"""Every command-line option and ini key, declared once: its name, type, default,
help, the values it accepts and what the README's table says of it.

`pytest --help`, the settings reader, the defaults and the README's table all read
this table, so a key cannot be added, renamed or given a new default in one place
and forgotten in another (a test keeps the README's table equal to
`markdown_table()`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import pytest

from pytest_bizbench.options.llm import DEFAULT_KEY_ENV
from pytest_bizbench.options.types import (
    DEFAULT_GROUP_PATTERN,
    DEFAULT_MAX_FILE_BYTES,
    DEFAULT_MAX_LIST_ITEMS,
    DEFAULT_MAX_TEXT_CHARS,
    DEFAULT_TRAJECTORY_SCORE,
)

DEFAULT_CASE_PATTERNS = (
    "*.ground-truth.json",
    "*.ground-truth.jsonl",
    "*.golden-assessment.yml",
    "*.golden-assessment.yaml",
    "*.qa.jsonl",
    "*.agent-tasks.jsonl",
    "*.agent-runs.jsonl",
    "*.trajectory.jsonl",
)
DEFAULT_REPORT = "bizbench-report.json"
DEFAULT_MAX_CASE_BYTES = 50_000_000
# The default of the ini keys whose empty value is an error: pytest 8 returns ""
# for an unset key registered with None, so only a value of our own tells unset
# from set to nothing.
UNSET_INI: Any = object()


@dataclass(frozen=True, slots=True)
class Flag:
    """A command-line option. `action` "append" collects a repeated option into a
    list; "store_true" is a switch, off by default, or None when `unset_is_none`
    (so an ini key can decide when the switch is not given)."""

    name: str
    help: str
    metavar: str | None = None
    action: Literal["append", "store_true"] | None = None
    kind: type[int] | type[float] | None = None
    unset_is_none: bool = False

    @property
    def dest(self) -> str:
        return self.name.removeprefix("--").replace("-", "_")

    def add_to(self, group: pytest.OptionGroup) -> None:
        if self.action == "append":
            group.addoption(
                self.name, action="append", default=[], metavar=self.metavar, help=self.help
            )
        elif self.action == "store_true":
            default = None if self.unset_is_none else False
            group.addoption(self.name, action="store_true", default=default, help=self.help)
        else:
            group.addoption(
                self.name, type=self.kind, default=None, metavar=self.metavar, help=self.help
            )


@dataclass(frozen=True, slots=True)
class Ini:
    """An ini key; a number's `bounds` and a word's `choices` are checked when read."""

    name: str
    help: str
    kind: Literal["string", "linelist", "bool"] = "string"
    default: Any = ""
    bounds: tuple[float, float] | None = None
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Setting:
    """One thing a user sets: on the command line, in the ini file, or both.
    `doc` and `shown` are the README table's meaning and default columns."""

    doc: str
    shown: str
    flag: Flag | None = None
    ini: Ini | None = None


SETTINGS: tuple[Setting, ...] = (
    Setting(
        doc=(
            "prediction sources; several `MODEL=` evaluate models side by side; a model named"
            " twice is looked up in its sources in the order given; CLI paths are relative to"
            " the current directory, ini paths to the ini file"
        ),
        shown="none",
        flag=Flag(
            "--bizbench-predictions",
            help=(
                "predictions of the system under test: a directory of <case_id>.json|.yml, a "
                "JSON object keyed by case id or a JSONL file of rows with 'id'. Repeat with "
                "MODEL= names to compare models side by side."
            ),
            metavar="[MODEL=]PATH",
            action="append",
        ),
        ini=Ini(
            "bizbench_predictions",
            "[MODEL=]PATH lines, like --bizbench-predictions.",
            kind="linelist",
            default=UNSET_INI,
        ),
    ),
    Setting(
        doc="per-case pass mark when the case has no `min_score`",
        shown="benchmark's `min_score` (0.5; `agent-fs` 1.0)",
        flag=Flag(
            "--bizbench-min-score",
            help="per-case pass mark for cases without their own min_score.",
            metavar="SCORE",
            kind=float,
        ),
        ini=Ini(
            "bizbench_min_score",
            "per-case pass mark, like --bizbench-min-score.",
            bounds=(0.0, 1.0),
        ),
    ),
    Setting(
        doc=(
            "aggregate gates; OP is `>= > <= <`; METRIC a dotted path "
            "(`per_field_accuracy.total`); VALUE a finite number in ASCII digits (`0.9`, "
            "`.5`, `1e-2`; not `0_5`, `nan`); without MODEL every model is checked (a "
            "MODEL may hold `:`, as `llama3:8b`); a "
            "per-field metric no document scored fails with `per_field_accuracy.total has no "
            'value: no document scored "total"`; an empty value is a usage error (an unset CI'
            " variable must not turn the gate off)"
        ),
        shown="none",
        flag=Flag(
            "--bizbench-threshold",
            help="aggregate gate, e.g. 'field-accuracy:accuracy>=0.9' (repeatable).",
            metavar="BENCH[:MODEL]:METRIC OP VALUE",
            action="append",
        ),
        ini=Ini(
            "bizbench_thresholds",
            "threshold lines, like --bizbench-threshold.",
            kind="linelist",
        ),
    ),
    Setting(
        doc=(
            "JSON report; the option is relative to the current directory, the ini key to the"
            " rootdir"
        ),
        shown="`bizbench-report.json`",
        flag=Flag(
            "--bizbench-report",
            help="where to write the JSON report (default bizbench-report.json).",
            metavar="PATH",
        ),
        ini=Ini(
            "bizbench_report",
            "JSON report path, relative to the rootdir.",
            default=UNSET_INI,
        ),
    ),
    Setting(
        doc="case files to collect; a file's type is read from its name's ending",
        shown=(
            "`*.ground-truth.json`, `*.ground-truth.jsonl`, "
            "`*.golden-assessment.yml`/`.yaml`, `*.qa.jsonl`, `*.agent-tasks.jsonl`, "
            "`*.agent-runs.jsonl`, `*.trajectory.jsonl`"
        ),
        ini=Ini(
            "bizbench_case_patterns",
            "glob patterns of case files to collect.",
            kind="linelist",
            default=list(DEFAULT_CASE_PATTERNS),
        ),
    ),
    Setting(
        doc="size cap of one case file",
        shown="`50000000`",
        ini=Ini(
            "bizbench_max_case_bytes",
            "size cap of one case file (bytes).",
            default=str(DEFAULT_MAX_CASE_BYTES),
            bounds=(1, math.inf),
        ),
    ),
    Setting(
        doc="seconds one `regex` rule match may take",
        shown="`1.0`",
        ini=Ini(
            "bizbench_regex_timeout",
            "seconds one regex rule match may take.",
            default="1.0",
            bounds=(0.001, 3600.0),
        ),
    ),
    Setting(
        doc="similarity that counts as a match (fuzzy and embedding rungs)",
        shown="`0.90`",
        ini=Ini(
            "bizbench_strictness",
            "similarity that counts as a match (0-1).",
            default="0.90",
            bounds=(0.0, 1.0),
        ),
    ),
    Setting(
        doc="relative number tolerance: `abs(a-e) <= max(rel_tol*abs(e), abs_tol)`",
        shown="`0.01`",
        ini=Ini(
            "bizbench_rel_tol",
            "relative tolerance of number fields.",
            default="0.01",
            bounds=(0.0, math.inf),
        ),
    ),
    Setting(
        doc="absolute number tolerance (see `bizbench_rel_tol`)",
        shown="`0.01`",
        ini=Ini(
            "bizbench_abs_tol",
            "absolute tolerance of number fields.",
            default="0.01",
            bounds=(0.0, math.inf),
        ),
    ),
    Setting(
        doc="how `05/03/2024` is read (`DMY` or `MDY`)",
        shown="`DMY`",
        ini=Ini(
            "bizbench_date_order",
            "DMY or MDY for ambiguous dates.",
            default="DMY",
            choices=("DMY", "MDY"),
        ),
    ),
    Setting(
        doc=(
            "a YAML or JSON file of rules per field path (how each field is compared, its "
            "threshold, tolerance and weight, a list's match threshold), relative to the "
            'rootdir; see "Field rules"'
        ),
        shown="none",
        ini=Ini(
            "bizbench_field_rules",
            "YAML or JSON file of rules per field path.",
            default=UNSET_INI,
        ),
    ),
    Setting(
        doc="fields always compared as numbers",
        shown="none",
        ini=Ini(
            "bizbench_numeric_fields",
            "fields always compared as numbers.",
            kind="linelist",
        ),
    ),
    Setting(
        doc="fields always compared as dates",
        shown="none",
        ini=Ini(
            "bizbench_date_fields",
            "fields always compared as dates.",
            kind="linelist",
        ),
    ),
    Setting(
        doc="fields given similarity as partial credit",
        shown="none",
        ini=Ini(
            "bizbench_free_text_fields",
            "fields given similarity as partial credit.",
            kind="linelist",
        ),
    ),
    Setting(
        doc=(
            "work budget: a list field with more items on either side is matched in order "
            "(item k with item k, exact and fuzzy rungs only) instead of as a set; its "
            "details say so in `budget`"
        ),
        shown="`2000`",
        ini=Ini(
            "bizbench_max_list_items",
            "list items per side matched as a set; longer lists are matched in order.",
            default=str(DEFAULT_MAX_LIST_ITEMS),
            bounds=(1, math.inf),
        ),
    ),
    Setting(
        doc=(
            "work budget: text longer than this (normalised), when not an exact match, gets "
            "the similarity of its first N characters; flagged in `budget`"
        ),
        shown="`20000`",
        ini=Ini(
            "bizbench_max_text_chars",
            "characters of text compared by similarity; longer text is cut.",
            default=str(DEFAULT_MAX_TEXT_CHARS),
            bounds=(1, math.inf),
        ),
    ),
    Setting(
        doc="benchmark classes as `pkg.module:ClassName`",
        shown="none",
        ini=Ini(
            "bizbench_benchmarks",
            "benchmark classes as pkg.module:ClassName.",
            kind="linelist",
        ),
    ),
    Setting(
        doc="register the built-in benchmarks",
        shown="`true`",
        ini=Ini(
            "bizbench_builtin_benchmarks",
            "register the built-in benchmarks.",
            kind="bool",
            default=True,
        ),
    ),
    Setting(
        doc=(
            "score only these review requirements (`ID` or `<bundle_id>/ID`); marks the run "
            "filtered"
        ),
        shown="all",
        flag=Flag(
            "--bizbench-requirement",
            help="score only this review requirement (its id or <bundle_id>/<id>; repeatable).",
            metavar="ID",
            action="append",
        ),
    ),
    Setting(
        doc=(
            "review passages: similarity from which a retrieved or cited part is the same "
            "part (EXACT)"
        ),
        shown="`0.95`",
        ini=Ini(
            "bizbench_retrieval_exact",
            "similarity from which two evidence passages are the same (EXACT).",
            default="0.95",
        ),
    ),
    Setting(
        doc="review passages: containment from which one part holds the other (BROAD, NARROW)",
        shown="`0.90`",
        ini=Ini(
            "bizbench_retrieval_contain",
            "containment from which one passage holds another (BROAD/NARROW).",
            default="0.90",
        ),
    ),
    Setting(
        doc="review passages: containment from which parts overlap (WEAK); below it, MISS",
        shown="`0.60`",
        ini=Ini(
            "bizbench_retrieval_weak",
            "containment from which passages overlap (WEAK).",
            default="0.60",
        ),
    ),
    Setting(
        doc="the k of `review-retrieval`'s `recall_at_<k>` metrics",
        shown="`1,5,10`",
        ini=Ini(
            "bizbench_recall_at",
            "ranks k of the recall@k metrics, e.g. 1,5,10.",
            default="1,5,10",
        ),
    ),
    Setting(
        doc=(
            "compare every benchmark and model with this report; regressed and stale verdicts"
            " fail the gate; the option is relative to the current directory, the ini key to "
            "the ini file"
        ),
        shown="none",
        flag=Flag(
            "--bizbench-baseline",
            help="compare every benchmark and model with this report (verdicts gate the run).",
            metavar="PATH",
        ),
        ini=Ini(
            "bizbench_baseline",
            "baseline report, relative to the ini file.",
            default=UNSET_INI,
        ),
    ),
    Setting(
        doc=(
            "write this run's report as the new baseline (atomically); refused, exit 1, after"
            " a filtered or incomplete run"
        ),
        shown="none",
        flag=Flag(
            "--bizbench-save-baseline",
            help=(
                "save this run's report as the new baseline; refused after an incomplete or "
                "filtered run."
            ),
            metavar="PATH",
        ),
    ),
    Setting(
        doc=(
            "save this run's report over the baseline it compares with (`--bizbench-baseline`"
            " or ini `bizbench_baseline`), as a snapshot update does; same refusals as "
            "saving; a usage error without a baseline or beside `--bizbench-save-baseline`"
        ),
        shown="off",
        flag=Flag(
            "--bizbench-update-baseline",
            help=(
                "save this run's report over the baseline it compares with (ini "
                "bizbench_baseline or --bizbench-baseline), as a snapshot update does."
            ),
            action="store_true",
        ),
    ),
    Setting(
        doc=(
            "compare this run's model NEW with the baseline's model OLD (a renamed model); "
            "repeatable; a model mapped twice, a value without both names or an OLD the "
            "baseline lacks is a usage error, a NEW this run lacks fails the gate"
        ),
        shown="none",
        flag=Flag(
            "--bizbench-baseline-model",
            help=(
                "compare this run's model NEW with the baseline's model OLD (repeatable; "
                "ini bizbench_baseline_models)."
            ),
            metavar="NEW=OLD",
            action="append",
        ),
        ini=Ini(
            "bizbench_baseline_models",
            "NEW=OLD lines, like --bizbench-baseline-model.",
            kind="linelist",
        ),
    ),
    Setting(
        doc="save the baseline even after a filtered or incomplete run",
        shown="off",
        flag=Flag(
            "--bizbench-force-baseline",
            help="save the baseline even after an incomplete or filtered run.",
            action="store_true",
        ),
    ),
    Setting(
        doc="report `regressed` verdicts without failing the gate",
        shown="off",
        flag=Flag(
            "--bizbench-allow-regression",
            help="report regressed verdicts without failing the gate.",
            action="store_true",
        ),
    ),
    Setting(
        doc="report `stale` verdicts without failing the gate",
        shown="off",
        flag=Flag(
            "--bizbench-allow-stale",
            help=("report stale verdicts (benchmark changed since the baseline) without failing."),
            action="store_true",
        ),
    ),
    Setting(
        doc=(
            "report benchmarks and models of the baseline that this run did not score "
            "(verdict `missing`) without failing the gate"
        ),
        shown="off",
        flag=Flag(
            "--bizbench-allow-missing",
            help=(
                "report benchmarks and models of the baseline that this run did not score "
                "without failing the gate."
            ),
            action="store_true",
        ),
    ),
    Setting(
        doc=(
            "this run is one CI shard: its gate judges only its own completeness; `bizbench "
            'merge` judges thresholds, verdicts and coverage (see "What CI sees")'
        ),
        shown="off",
        flag=Flag(
            "--bizbench-shard",
            help=(
                "this run is one CI shard: its gate judges only the completeness of its own "
                "items; thresholds, baseline verdicts and coverage are judged by `bizbench "
                "merge`."
            ),
            action="store_true",
        ),
    ),
    Setting(
        doc=(
            "a regression counts only when it is significant (the sign-flip p of the paired "
            "deltas, Holm-adjusted over the run, below 0.05, and the clustered interval "
            "excluding 0 where cases are clustered), else it is `inconclusive` (reported, not"
            " failing); an improvement that is not is `neutral`"
        ),
        shown="off",
        flag=Flag(
            "--bizbench-require-significance",
            help=(
                "a regression (or improvement) counts only when it is significant: the "
                "sign-flip p of the paired deltas, Holm-adjusted over the run, below 0.05."
            ),
            action="store_true",
            unset_is_none=True,
        ),
        ini=Ini(
            "bizbench_require_significance",
            "like --bizbench-require-significance.",
            kind="bool",
            default=False,
        ),
    ),
    Setting(
        doc=(
            "a case field (e.g. `company`) whose cases move together: comparisons add a "
            "clustered standard error and use it for the MDE; without it a benchmark's "
            "`group_by` clusters; a field no scored case has (a misspelt name) fails the gate"
        ),
        shown="none",
        ini=Ini(
            "bizbench_cluster_by",
            "case field (e.g. company) whose cases move together: clustered errors.",
        ),
    ),
    Setting(
        doc="worst-regressed cases listed per benchmark and model",
        shown="`10`",
        ini=Ini(
            "bizbench_worst_cases",
            "worst-regressed cases listed per comparison.",
            default="10",
            bounds=(0, 10000),
        ),
    ),
    Setting(
        doc=(
            "agent tasks: bytes an assertion may read of one workspace file; a larger file "
            "fails the assertion"
        ),
        shown="`10000000`",
        ini=Ini(
            "bizbench_agent_max_file_bytes",
            "bytes an agent-task assertion reads of one file.",
            default=str(DEFAULT_MAX_FILE_BYTES),
        ),
    ),
    Setting(
        doc=(
            "agent tasks: regex whose first group (or whole match) is a task's group; a task "
            "id it does not match is its own group"
        ),
        shown="`^(.+?)-\\d+$`",
        ini=Ini(
            "bizbench_agent_group_pattern",
            "regex whose first group is an agent task's group.",
            default=DEFAULT_GROUP_PATTERN,
        ),
    ),
    Setting(
        doc=(
            "run only QA rows of this `question_type` (case-insensitive); the others are "
            "deselected, never asked; marks the run filtered"
        ),
        shown="all",
        flag=Flag(
            "--bizbench-subset",
            help="run only QA rows of this question_type (repeatable).",
            metavar="QUESTION_TYPE",
            action="append",
        ),
    ),
    Setting(
        doc=(
            "run only the first N QA questions in item order (files in path order, after "
            "`--bizbench-subset`), every benchmark and model item of each; marks the run "
            "filtered"
        ),
        shown="all",
        flag=Flag(
            "--bizbench-limit",
            help="run only the first N QA questions (after --bizbench-subset).",
            metavar="N",
            kind=int,
        ),
    ),
    Setting(
        doc=(
            "how QA answers are graded: `exact`, `contains`, `numeric`; `auto` is numeric for"
            " FinanceBench files, exact for the others"
        ),
        shown="`auto`",
        ini=Ini(
            "bizbench_qa_scorer",
            (
                "QA answer scorer: auto (numeric for FinanceBench, else exact), exact, "
                "contains, numeric."
            ),
            default="auto",
            choices=("auto", "exact", "contains", "numeric"),
        ),
    ),
    Setting(
        doc=(
            'the k of pass@k and pass^k (`1,3,5`) over QA samples, agent runs and `{"runs": '
            "[...]}` predictions"
        ),
        shown="`1`",
        ini=Ini(
            "bizbench_pass_at_k",
            "k of pass@k over QA samples and agent runs, e.g. 1,3,5.",
            default="1",
        ),
    ),
    Setting(
        doc=(
            '`xfail`: a failing case whose samples disagree is an expected failure ("flaky: c'
            ' of n samples passed"), still counted in the metrics'
        ),
        shown="`fail`",
        ini=Ini(
            "bizbench_flaky",
            "fail or xfail: a failing case whose samples disagree fails, or is xfail.",
            default="fail",
            choices=("fail", "xfail"),
        ),
    ),
    Setting(
        doc=(
            "put a QA row's evidence into `case.prompt`: `auto` (when the row has evidence), "
            "`true`, `false`"
        ),
        shown="`auto`",
        ini=Ini(
            "bizbench_open_book",
            (
                "put a QA row's evidence into the prompt: auto (when the row has evidence), "
                "true, false."
            ),
            default="auto",
            choices=("auto", "true", "false"),
        ),
    ),
    Setting(
        doc=(
            "directory keeping live predictions by model and case hash, so a re-run does not "
            "call the hook again (relative to the ini file)"
        ),
        shown="none",
        ini=Ini(
            "bizbench_prediction_cache",
            (
                "directory caching live predictions by model and case hash (relative to the "
                "ini file)."
            ),
        ),
    ),
    Setting(
        doc=(
            "OpenAI-compatible endpoint (`.../v1`) for `llm:` models, the judge and the "
            "embedding rung; needs `pip install 'pytest-bizbench[llm]'`"
        ),
        shown="none",
        ini=Ini(
            "bizbench_llm_base_url",
            "OpenAI-compatible endpoint, e.g. http://localhost:8000/v1.",
        ),
    ),
    Setting(
        doc=(
            "*name* of the environment variable holding the endpoint's key (unset: no key is sent)"
        ),
        shown="`OPENAI_API_KEY`",
        ini=Ini(
            "bizbench_llm_api_key_env",
            "name of the environment variable holding the endpoint's API key.",
            default=DEFAULT_KEY_ENV,
        ),
    ),
    Setting(
        doc="endpoint model for the judge rung (a conftest hook wins)",
        shown="none",
        ini=Ini(
            "bizbench_judge_model",
            "endpoint model for the judge rung (a conftest hook wins).",
        ),
    ),
    Setting(
        doc="endpoint model for the embedding rung (a conftest hook wins)",
        shown="none",
        ini=Ini(
            "bizbench_embedding_model",
            "endpoint model for the embedding rung (a hook wins).",
        ),
    ),
    Setting(
        doc="endpoint calls in flight per process",
        shown="`8`",
        ini=Ini(
            "bizbench_llm_concurrency",
            "endpoint calls in flight per process.",
            default="8",
            bounds=(1, 1024),
        ),
    ),
    Setting(
        doc="seconds one endpoint call may take, headers and body included",
        shown="`60`",
        ini=Ini(
            "bizbench_llm_timeout",
            "seconds one endpoint call may take.",
            default="60",
            bounds=(0.001, 86400.0),
        ),
    ),
    Setting(
        doc="retries of a call after 429, 5xx or a timeout",
        shown="`4`",
        ini=Ini(
            "bizbench_llm_retries",
            "retries of a call after 429, 5xx or a timeout.",
            default="4",
            bounds=(0, 100),
        ),
    ),
    Setting(
        doc="seconds before the first retry, doubled each time (`Retry-After` wins)",
        shown="`1`",
        ini=Ini(
            "bizbench_llm_backoff",
            "seconds before the first retry, doubled each retry.",
            default="1",
            bounds=(0.0, 3600.0),
        ),
    ),
    Setting(
        doc=(
            "agent runs: `name = value` lines: dotted paths `model`, `task_id`, `status`, "
            "`wall_seconds`, `turns`, and inside a turn `action`, `tokens`; values `success`,"
            " `tool_call`, `tool_format_error` (comma lists)"
        ),
        shown="the layout below",
        ini=Ini(
            "bizbench_agent_run_fields",
            ("'name = path' lines: where agent-run records keep status, wall_seconds, turns, ..."),
            kind="linelist",
        ),
    ),
    Setting(
        doc="trajectories: dotted path of a record's score",
        shown="`val_bpb`",
        ini=Ini(
            "bizbench_trajectory_score",
            "dotted path of a trajectory record's score.",
            default=DEFAULT_TRAJECTORY_SCORE,
        ),
    ),
    Setting(
        doc="trajectories: a lower score is the better one (`false`: higher)",
        shown="`true`",
        ini=Ini(
            "bizbench_trajectory_lower_is_better",
            "a lower trajectory score is the better one.",
            kind="bool",
            default=True,
        ),
    ),
    Setting(
        doc=(
            "trajectories: `name = dotted.path` lines for `knobs`, `mode`, `status` and `baseline`"
        ),
        shown="`knobs = config`, `mode = mode`, `status = status`, no `baseline`",
        ini=Ini(
            "bizbench_trajectory_fields",
            ("'name = path' lines: where trajectory records keep knobs, mode, status, baseline."),
            kind="linelist",
        ),
    ),
)

INI_KEYS: dict[str, Ini] = {s.ini.name: s.ini for s in SETTINGS if s.ini is not None}


def add_options(parser: pytest.Parser) -> None:
    """Register every option and ini key of the table with pytest."""
    group = parser.getgroup("bizbench", "bizbench: evaluate systems against ground truth")
    for setting in SETTINGS:
        if setting.flag is not None:
            setting.flag.add_to(group)
        if setting.ini is not None:
            ini = setting.ini
            parser.addini(ini.name, ini.help, ini.kind, default=ini.default)


def _cell(setting: Setting) -> tuple[str, str]:
    flag, ini = setting.flag, setting.ini
    option = ""
    if flag is not None:
        metavar = flag.metavar or ""
        if metavar:
            metavar = f' "{metavar}"' if " " in metavar else f" {metavar}"
        option = f"`{flag.name}{metavar}`" + (" (repeatable)" if flag.action == "append" else "")
    key = ""
    if ini is not None:
        key = f"`{ini.name}`" + (" (lines)" if ini.kind == "linelist" else "")
    return option, key


def markdown_table() -> str:
    """The README's table of options and ini keys."""
    lines = ["| option | ini key | default | meaning |", "|---|---|---|---|"]
    for setting in SETTINGS:
        option, key = _cell(setting)
        cells = [option, key, setting.shown, setting.doc]
        lines.append("|" + "|".join(f" {cell} " if cell else " " for cell in cells) + "|")
    return "\n".join(lines) + "\n"
