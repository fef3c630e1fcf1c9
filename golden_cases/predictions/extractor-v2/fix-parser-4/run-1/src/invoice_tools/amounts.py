"""Money amounts as printed on invoices."""

import re

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_CURRENCY_SIGNS = "€$£"


def _strip_currency(text: str) -> str:
    return text.strip().strip(_CURRENCY_SIGNS).strip()


def parse_amount(text: str) -> float:
    """The first number in `text`, as a float; a leading or trailing € $ £ is dropped."""
    match = _NUMBER.search(_strip_currency(text))
    if match is None:
        raise ValueError(f"no amount in {text!r}")
    return float(match.group(0))
