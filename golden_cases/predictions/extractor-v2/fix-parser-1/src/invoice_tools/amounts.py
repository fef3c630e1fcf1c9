"""Money amounts as printed on invoices."""

import re

_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def parse_amount(text: str) -> float:
    """The first number in `text`, as a float; thousands separators are dropped."""
    match = _NUMBER.search(text)
    if match is None:
        raise ValueError(f"no amount in {text!r}")
    return float(match.group(0).replace(",", ""))
