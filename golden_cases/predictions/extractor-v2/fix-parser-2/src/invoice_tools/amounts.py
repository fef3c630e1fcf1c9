"""Money amounts as printed on invoices."""

import re

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def parse_amount(text: str) -> float:
    """The first number in `text`, as a float; `(300.00)` is -300."""
    text = text.strip()
    sign = -1.0 if text.startswith("(") and text.endswith(")") else 1.0
    match = _NUMBER.search(text)
    if match is None:
        raise ValueError(f"no amount in {text!r}")
    return sign * float(match.group(0))
