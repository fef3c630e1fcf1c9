"""Invoice dates."""

import datetime as dt


def parse_date(text: str) -> dt.date:
    """An ISO date (`2024-03-05`)."""
    return dt.date.fromisoformat(text.strip())
