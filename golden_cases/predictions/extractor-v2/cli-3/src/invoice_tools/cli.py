"""Command line: `invoice-tools FILE` prints the amount of each line."""

import argparse
from pathlib import Path

from invoice_tools.amounts import parse_amount


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="invoice-tools")
    parser.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    lines = args.file.read_text(encoding="utf-8").splitlines()
    for line in lines:
        print(f"{parse_amount(line):.2f}")
    return 0
