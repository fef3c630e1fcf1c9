from invoice_tools.amounts import parse_amount


def test_plain_number():
    assert parse_amount("Total: 42.50") == 42.5


def test_accounting_brackets_are_negative():
    assert parse_amount("(300.00)") == -300.0
