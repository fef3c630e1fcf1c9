"""The report's documents read one at a time, and the report written as a stream.

A 100k-document run must not hold every document's parsed details at once, nor the
whole report as one string: the report dict holds `Documents` (the aggregator's
compact store behind a sequence) where it used to hold lists of parsed documents,
the views read them through `DocumentView` (details parsed only when asked for), and
`pieces` encodes the report piece by piece, each document parsed, encoded and
dropped before the next. The text is the one `json.dumps(report, sort_keys=True)`
would give, byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pytest_bizbench.report.records import ReportDocument
from pytest_bizbench.sdk import LazySequence


class DocumentView(Mapping[str, Any]):
    """One report document as a read-only mapping over its compact form: details and
    metadata are parsed on each access, so a view that reads only the outcome parses
    nothing, and nothing parsed is kept."""

    __slots__ = ("_doc",)

    def __init__(self, doc: ReportDocument) -> None:
        self._doc = doc

    def __getitem__(self, key: str) -> Any:
        if key == "details":
            return self._doc.details
        if key == "metadata":
            return self._doc.metadata
        return self._doc.fields()[key]

    def __iter__(self) -> Iterator[str]:
        return iter([*self._doc.fields(), "details", "metadata"])

    def __len__(self) -> int:
        return len(self._doc.fields()) + 2


class Documents(LazySequence[ReportDocument, Mapping[str, Any]]):
    """A benchmark x model's report documents, in report order, read lazily."""

    __slots__ = ()

    def _make(self, source: ReportDocument) -> Mapping[str, Any]:
        return DocumentView(source)

    @property
    def sources(self) -> Sequence[ReportDocument]:
        """The documents in their compact form, as the aggregator holds them."""
        return self._sources

    def encoded(self) -> Iterator[str]:
        """The JSON array, one document's text at a time."""
        yield "["
        for i, doc in enumerate(self._sources):
            yield ("," if i else "") + _text(doc.to_json())
        yield "]"


def _text(value: Any) -> str:
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def pieces(value: Any) -> Iterator[str]:
    """`value` as canonical JSON text (sorted keys, compact), in pieces.

    Dicts are walked so the `Documents` inside them stream; anything else is one
    piece from the C encoder. A dict with a key that is not a string is left to the
    encoder whole (it converts and sorts such keys its own way).
    """
    if isinstance(value, Documents):
        yield from value.encoded()
    elif isinstance(value, dict) and all(isinstance(key, str) for key in value):
        if not value:
            yield "{}"
            return
        for i, key in enumerate(sorted(value)):
            yield ("{" if i == 0 else ",") + _text(key) + ":"
            yield from pieces(value[key])
        yield "}"
    else:
        yield _text(value)
