"""The `bizbench` command."""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from pytest_bizbench import __version__
from pytest_bizbench.collect.validate import ValidateUsageError, validate
from pytest_bizbench.gate.baseline import compare_reports
from pytest_bizbench.gate.coverage import coverage_reasons, missing_from_run
from pytest_bizbench.gate.merge import MergeCommand, Shard
from pytest_bizbench.io.escape import terminal_text
from pytest_bizbench.io.files import require_writable_target
from pytest_bizbench.options.settings import BaselineOptions
from pytest_bizbench.report.html import render_html
from pytest_bizbench.report.json_report import write_text_atomic
from pytest_bizbench.report.markdown import markdown_table, render_markdown
from pytest_bizbench.report.reader import ReportError, read_report
from pytest_bizbench.report.tables import comparison_notes, comparison_table, worst_table
from pytest_bizbench.report.terminal import text_table
from pytest_bizbench.scaffold import ScaffoldError, scaffold_benchmark

USAGE_ERROR = 2
CLOSED_PIPE = 128 + 13  # killed by SIGPIPE, as a shell reports it


def _with_plugin(pytest_args: Sequence[str]) -> list[str]:
    """pytest arguments that load the plugin, also where plugin autoloading is off."""
    args = list(pytest_args)
    if os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD"):
        args = ["-p", "pytest_bizbench.plugin", *args]
    return args


class _Prog:
    """Names the command in pytest's usage and errors (`bizbench run`, not `pytest.main()`)."""

    def __init__(self, prog: str) -> None:
        self.prog = prog

    def pytest_addoption(self, parser: pytest.Parser) -> None:
        parser.prog = self.prog


def _pytest_main(command: str, pytest_args: Sequence[str], *plugins: object) -> int:
    return int(
        pytest.main(_with_plugin(pytest_args), plugins=[_Prog(f"bizbench {command}"), *plugins])
    )


def _run(pytest_args: Sequence[str]) -> int:
    return _pytest_main("run", pytest_args)


def _fail(command: str, message: object) -> int:
    print(f"bizbench {command}: {terminal_text(message)}", file=sys.stderr)
    return USAGE_ERROR


def _compare(args: argparse.Namespace) -> int:
    """Verdicts of CANDIDATE against BASELINE; exit 1 on a regressed or stale verdict."""
    try:
        baseline = read_report(Path(args.baseline))
        candidate = read_report(Path(args.candidate))
    except ReportError as exc:
        return _fail("compare", exc)
    options = BaselineOptions(
        allow_regression=args.allow_regression,
        allow_stale=args.allow_stale,
        require_significance=args.require_significance,
        worst_cases=args.worst,
    )
    comparisons = compare_reports(baseline, candidate, options)
    if not comparisons.results and not comparisons.problems:
        return _fail("compare", "the reports share no benchmark and model to compare")
    scored = {(name, model) for name, model, _, _ in candidate.entries()}
    missing = missing_from_run(baseline, scored)
    filtered = candidate.completeness.filtered
    headlines = {name: entry.headline for name, entry in candidate.benchmarks.items()}
    sections = [
        (
            "Compared with the baseline",
            comparison_table({**comparisons.results, **missing}, headlines),
        ),
        ("Worst-regressed cases", worst_table(comparisons.results)),
    ]
    markdown = args.format == "markdown"
    lines: list[str] = []
    for title, table in sections:
        if table is not None:
            heading = [f"### {title}", ""] if markdown else [f"{title}:"]
            lines += ["", *heading, *(markdown_table(table) if markdown else text_table(table))]
    lines += [f"- {terminal_text(note)}" for note in comparison_notes(comparisons.results)]
    reasons = [
        *comparisons.reasons(options, allow_flag="--allow-regression"),
        *coverage_reasons(missing, judged=not (filtered or args.allow_missing)),
    ]
    lines += [
        "",
        "verdict: FAILED" if reasons else "verdict: passed",
        *(f"- {terminal_text(r)}" for r in reasons),
    ]
    print("\n".join(lines).lstrip("\n"))
    return 1 if reasons else 0


def _merge(args: argparse.Namespace, pytest_args: Sequence[str]) -> int:
    """Shard reports -> one report, judged with the configuration of the current directory."""
    try:
        shards = [Shard(Path(path), read_report(Path(path))) for path in args.shards]
    except ReportError as exc:
        return _fail("merge", exc)
    try:  # a place no report can go is a usage error, as for `bizbench report -o`
        require_writable_target(Path(args.output))
    except OSError as exc:
        return _fail("merge", f"cannot write {args.output}: {exc.strerror or exc}")
    command = MergeCommand(shards, Path(args.output))
    # pytest's own terminal output would only say that no tests ran
    code = _pytest_main("merge", ["-p", "no:terminal", *pytest_args], command)
    print(
        "\n".join(map(terminal_text, command.lines)),
        file=sys.stdout if code in (0, 1) else sys.stderr,
    )
    return int(code) if code in (0, 1) else USAGE_ERROR


def _report(args: argparse.Namespace) -> int:
    """A saved report as markdown or one self-contained HTML page."""
    try:
        report = read_report(Path(args.report))
    except ReportError as exc:
        return _fail("report", exc)
    render = render_html if args.format == "html" else render_markdown
    text = render(report)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        write_text_atomic(Path(args.output), text)
    except OSError as exc:
        return _fail("report", f"cannot write {args.output}: {exc.strerror or exc}")
    return 0


def _validate(args: argparse.Namespace) -> int:
    """One ✓/✗ line per check; exit 1 on any ✗, 2 on a path that is not there."""
    try:
        lines, ok = validate(args.paths)
    except ValidateUsageError as exc:
        return _fail("validate", exc)
    print("\n".join(map(terminal_text, lines)))
    return 0 if ok else 1


def _scaffold(args: argparse.Namespace) -> int:
    """A new benchmark project in ./NAME; exit 1, touching nothing, when it exists."""
    try:
        created = scaffold_benchmark(Path.cwd(), args.name)
    except ValueError as exc:
        return _fail("scaffold", exc)
    except ScaffoldError as exc:
        print(f"bizbench scaffold: {exc}", file=sys.stderr)
        return 1
    print(f"created {created}/ — run `pytest` inside it")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bizbench", description="Evaluate systems against ground truth with pytest."
    )
    parser.add_argument(
        "--version", action="version", version=f"bizbench (pytest-bizbench) {__version__}"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    run = commands.add_parser(
        "run",
        help="run pytest with the bizbench plugin",
        add_help=False,
        description="Run pytest with the bizbench plugin; every argument goes to pytest.",
    )
    run.add_argument("pytest_args", nargs=argparse.REMAINDER)
    compare = commands.add_parser(
        "compare",
        help="compare a report with a baseline report (exit 1 on regression)",
        description="Verdict per benchmark and model of CANDIDATE against BASELINE, with "
        "paired per-case deltas; exit 1 on a regressed or stale verdict, 2 on an "
        "unreadable report.",
    )
    compare.add_argument("baseline", metavar="BASELINE")
    compare.add_argument("candidate", metavar="CANDIDATE")
    compare.add_argument("--format", choices=("text", "markdown"), default="text")
    compare.add_argument("--worst", type=int, default=10, metavar="N", help="worst cases listed")
    compare.add_argument("--require-significance", action="store_true")
    compare.add_argument("--allow-regression", action="store_true")
    compare.add_argument("--allow-stale", action="store_true")
    compare.add_argument(
        "--allow-missing",
        action="store_true",
        help="do not fail on a benchmark or model of BASELINE that CANDIDATE lacks",
    )
    merge = commands.add_parser(
        "merge",
        help="merge reports of CI shards into the report of one run",
        description="Merge shard reports (disjoint cases, same benchmarks) into the report "
        "a single run would give. Run it where the shards ran; pytest arguments after -- "
        "(the shards' options, ini and conftests) decide benchmarks, thresholds and baseline.",
    )
    merge.add_argument("shards", nargs="+", metavar="SHARD")
    merge.add_argument("-o", "--output", required=True, metavar="OUT")
    report = commands.add_parser(
        "report",
        help="render a report as markdown or a self-contained HTML page",
        description="Render a saved report; exit 2 when it cannot be read.",
    )
    report.add_argument("report", metavar="REPORT")
    report.add_argument("--format", choices=("markdown", "html"), default="markdown")
    report.add_argument("-o", "--output", default=None, metavar="FILE", help="default: stdout")
    validate = commands.add_parser(
        "validate",
        help="check benchmark modules and case files",
        description="Check benchmark modules (.py: import, class, base class, methods, "
        "identity fields, match rules) and case files (the collector's schema checks, "
        "file:line per problem; a directory means its case files). Exit 1 on any failed "
        "check, 2 on a path that does not exist.",
    )
    validate.add_argument("paths", nargs="+", metavar="PATH")
    scaffold = commands.add_parser(
        "scaffold",
        help="create a new benchmark project",
        description="Create ./NAME with a benchmark, sample ground truth, predictions, a "
        "test and a README; its tests pass straight away. Exit 1 if ./NAME exists.",
    )
    what = scaffold.add_subparsers(dest="what", metavar="WHAT", required=True)
    benchmark = what.add_parser("benchmark", help="a benchmark project")
    benchmark.add_argument("name", metavar="NAME", help="kebab-case benchmark name")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; a reader that closes the pipe early (`| head -1`) ends it
    quietly with the status a process killed by SIGPIPE has, as Unix tools do."""
    for stream in (sys.stdout, sys.stderr):
        # an output that cannot spell a character (PYTHONIOENCODING=ascii, a legacy
        # console) shows its escape rather than ending the command in a traceback
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    try:
        return _command(list(sys.argv[1:] if argv is None else argv))
    except BrokenPipeError:
        # Python flushes stdout again at exit: point it at nothing, so that flush
        # cannot print a second traceback
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return CLOSED_PIPE


def _command(argv: list[str]) -> int:
    if argv[:1] == ["run"]:  # everything after `run` is pytest's, options included
        return _run(argv[1:])
    pytest_args: list[str] = []
    if argv[:1] == ["merge"] and "--" in argv:  # what follows `--` is pytest's
        cut = argv.index("--")
        argv, pytest_args = argv[:cut], argv[cut + 1 :]
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "compare":
        return _compare(args)
    if args.command == "merge":
        return _merge(args, pytest_args)
    if args.command == "report":
        return _report(args)
    if args.command == "validate":
        return _validate(args)
    if args.command == "scaffold":
        return _scaffold(args)
    parser.print_help(sys.stderr)
    return USAGE_ERROR


if __name__ == "__main__":
    sys.exit(main())
