import pytest

from invoice_tools.amounts import parse_amount


@pytest.mark.parametrize(
    ("text", "expected"),
    [("Total: 42.50", 42.5), ("€ 12.00", 12.0), ("$7", 7.0)],
)
def test_amounts(text, expected):
    assert parse_amount(text) == expected
