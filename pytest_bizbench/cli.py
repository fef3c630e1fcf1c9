"""The `bizbench` command (SPEC §12)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

import pytest

USAGE_ERROR = 2


def _run(pytest_args: Sequence[str]) -> int:
    """pytest with the plugin loaded, also where plugin autoloading is turned off."""
    args = list(pytest_args)
    if os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD"):
        args = ["-p", "pytest_bizbench.plugin", *args]
    return int(pytest.main(args))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bizbench", description="Evaluate systems against ground truth with pytest."
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    run = commands.add_parser(
        "run",
        help="run pytest with the bizbench plugin",
        add_help=False,
        description="Run pytest with the bizbench plugin; every argument goes to pytest.",
    )
    run.add_argument("pytest_args", nargs=argparse.REMAINDER)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["run"]:  # everything after `run` is pytest's, options included
        return _run(argv[1:])
    parser = build_parser()
    parser.parse_args(argv)
    parser.print_help(sys.stderr)
    return USAGE_ERROR


if __name__ == "__main__":
    sys.exit(main())
