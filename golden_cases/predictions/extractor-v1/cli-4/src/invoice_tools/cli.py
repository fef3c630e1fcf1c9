"""Command line: `invoice-tools FILE` prints the amount of each line."""

import argparse
from pathlib import Path

from invoice_tools.amounts import parse_amount
from invoice_tools.legacy import legacy_totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="invoice-tools")
    parser.add_argument("file", type=Path)
    parser.add_argument("--legacy", action="store_true", help="deprecated: old output format")
    args = parser.parse_args(argv)
    lines = args.file.read_text(encoding="utf-8").splitlines()
    if args.legacy:
        print(legacy_totals(lines))
        return 0
    for line in lines:
        print(f"{parse_amount(line):.2f}")
    return 0
