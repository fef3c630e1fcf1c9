from invoice_tools.amounts import parse_amount


def test_plain_number():
    assert parse_amount("Total: 42.50") == 42.5
