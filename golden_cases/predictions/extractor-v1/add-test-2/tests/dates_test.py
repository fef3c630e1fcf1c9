import datetime as dt

from invoice_tools.dates import parse_date


def test_iso():
    assert parse_date("2024-03-05") == dt.date(2024, 3, 5)
