"""Invoice dates."""

import datetime as dt


def parse_date(text: str) -> dt.date:
    """An ISO date (`2024-03-05`) or a day-first one (`05/03/2024`)."""
    text = text.strip()
    if "/" in text:
        return dt.datetime.strptime(text, "%d/%m/%Y").date()
    return dt.date.fromisoformat(text)
