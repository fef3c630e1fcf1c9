"""Loading `*.ground-truth.json` / `*.ground-truth.jsonl` files into validated cases.

Never raises on bad input: a file that cannot be read or parsed gives one
`CaseError`, a bad document gives a `CaseError` in its place, and every other
document is still returned, in file order.

Choices the format leaves open, and what we chose:
- A `.json` top-level object is the `{"documents": [...]}` form when it has a
  `documents` key and no `ground_truth` key; otherwise it is one document.
- An optional key set to null reads as absent.
- Documents inside a `{"documents": [...]}` file have no line (`json` does not
  report positions); their messages name them as `documents[<index>]` instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TypeAlias

from pytest_bizbench.io.jsonio import InputError, parse_json
from pytest_bizbench.options.types import LoadOptions
from pytest_bizbench.sdk import ExtendedDocument

from .checks import describe, id_problem, is_case_id, min_score_of, type_name
from .model import (
    CaseError,
    ForeignFieldsError,
    GroundTruthCase,
    PredictionShapeError,
    content_hash,
)
from .reading import jsonl_rows, read_case_file

_NON_SPACE = re.compile(r"\S")

Loaded: TypeAlias = list[GroundTruthCase | CaseError]


def load_ground_truth(path: Path, max_bytes: int) -> Loaded:
    """Load one ground-truth file; see the module docstring for the error contract."""
    source, text = str(path), read_case_file(path, max_bytes)
    if isinstance(text, CaseError):
        return [text]
    if path.suffix == ".jsonl":
        return _load_jsonl(source, text)
    return _load_json(source, text)


def _load_jsonl(source: str, text: str) -> Loaded:
    seen: dict[str, str] = {}
    return [
        row if isinstance(row, CaseError) else _document(source, row[1], seen, line=row[0])
        for row in jsonl_rows(source, text)
    ]


def _load_json(source: str, text: str) -> Loaded:
    try:
        top = parse_json(text)
    except InputError as err:
        return [CaseError(source, err.line, err.message)]
    if not isinstance(top, dict):
        return [
            CaseError(
                source,
                None,
                'top level must be a document object or {"documents": [...]}, '
                f"got {type_name(top)}",
            )
        ]
    if "documents" not in top or "ground_truth" in top:
        start = _NON_SPACE.search(text)
        line = text.count("\n", 0, start.start() if start else 0) + 1
        return [_document(source, top, {}, line=line)]
    documents = top["documents"]
    if not isinstance(documents, list):
        return [CaseError(source, None, f'"documents" must be a list, got {type_name(documents)}')]
    seen: dict[str, str] = {}
    return [_document(source, raw, seen, index=index) for index, raw in enumerate(documents)]


def _document(
    source: str,
    raw: Any,
    seen: dict[str, str],
    *,
    line: int | None = None,
    index: int | None = None,
) -> GroundTruthCase | CaseError:
    """Validate one document, located by its `line` or by its `index` in a documents
    list; `seen` maps each id met so far in the file to where it was."""
    where = f"line {line}" if index is None else f"documents[{index}]"
    prefix = "" if index is None else f"{where}: "
    if not isinstance(raw, dict):
        return CaseError(source, line, f"{prefix}document must be an object, got {type_name(raw)}")
    case_id = raw.get("id")
    if not is_case_id(case_id):
        return CaseError(source, line, prefix + id_problem(case_id, "id"))
    if case_id in seen:
        return CaseError(
            source,
            line,
            f"{prefix}duplicate id {describe(case_id)} (first at {seen[case_id]})",
            case_id,
        )
    seen[case_id] = where

    problems: list[str] = []
    ground_truth = raw.get("ground_truth")
    if not isinstance(ground_truth, dict):
        problems.append(
            'missing required key "ground_truth"'
            if ground_truth is None
            else f'"ground_truth" must be an object, got {type_name(ground_truth)}'
        )
        ground_truth = {}
    labels = raw.get("labels")
    if labels is None:
        labels = []
    elif not isinstance(labels, list):
        problems.append(f'"labels" must be a list of strings, got {type_name(labels)}')
    else:
        problems.extend(
            f'"labels"[{position}] must be a string, got {type_name(label)}'
            for position, label in enumerate(labels)
            if not isinstance(label, str)
        )
    filename = _optional(raw, "filename", str, "a string", problems) or ""
    metadata = _optional(raw, "metadata", dict, "an object", problems) or {}
    content = _optional(raw, "content", str, "a string or null", problems)
    extracted = _optional(raw, "extracted_fields", dict, "an object", problems)
    min_score = min_score_of(raw, problems)
    if problems:
        return CaseError(source, line, prefix + "; ".join(problems), case_id)

    return GroundTruthCase(
        id=case_id,
        line=line,
        filename=filename,
        labels=tuple(labels),
        metadata=metadata,
        content=content,
        ground_truth=ground_truth,
        extracted_fields=extracted,
        min_score=min_score,
        case_hash=content_hash(raw),
    )


FIELDS_SHOWN = 2  # field names a wrong-shape message names of each side
NAME_CHARS = 40  # characters shown of one such name


def _names(keys: Iterable[str]) -> str:
    names = [name if len(name) <= NAME_CHARS else name[:NAME_CHARS] + "…" for name in keys]
    more = ", ..." if len(names) > FIELDS_SHOWN else ""
    return ", ".join(names[:FIELDS_SHOWN]) + more


def _foreign_fields(case: GroundTruthCase, fields: dict[str, Any]) -> str:
    """Why a prediction holding none of the case's fields is refused, with a hint when
    one of its keys holds an object that does: the key `extracted_fields` misspelt."""
    expected = case.ground_truth.keys()
    nested = any(isinstance(v, dict) and expected & v.keys() for v in fields.values())
    hint = '; did you mean "extracted_fields"?' if nested else ""
    # a JSONL row's prediction names the whole row's keys, its id included
    held = getattr(fields, "row_keys", fields)
    return (
        f"prediction for {case.id} has none of the expected fields "
        f"({_names(map(str, expected))}); it has {_names(sorted(map(str, held)))}{hint}"
    )


def _optional(raw: dict[str, Any], key: str, kind: type, expected: str, problems: list[str]) -> Any:
    value = raw.get(key)
    if value is None or isinstance(value, kind):
        return value
    problems.append(f'"{key}" must be {expected}, got {type_name(value)}')
    return None


class GroundTruthKind:
    """`*.ground-truth.json[l]`: documents with expected fields."""

    name = "ground-truth"
    suffixes = (".ground-truth.json", ".ground-truth.jsonl")

    def load(self, path: Path, options: LoadOptions) -> Loaded:
        return load_ground_truth(path, options.max_case_bytes)

    def prediction_key(self, case: GroundTruthCase) -> str:
        return case.id

    def inline_prediction(self, case: GroundTruthCase) -> Any:
        return case.extracted_fields

    def fields(self, case: GroundTruthCase, raw: Any) -> dict[str, Any] | None:
        """An object of fields; one that carries `extracted_fields` is read from
        there, so a ground-truth file can serve as its own prediction file."""
        if not isinstance(raw, dict):
            raise PredictionShapeError(
                f"prediction for {case.id!r} is {type(raw).__name__}, not an object of fields"
            )
        inner = raw.get("extracted_fields")
        fields = inner if isinstance(inner, dict) else raw
        expected = case.ground_truth.keys()
        if fields and expected and not expected & fields.keys():
            raise ForeignFieldsError(_foreign_fields(case, fields))
        return fields

    def document(
        self, case: GroundTruthCase, model: str, fields: dict[str, Any], source: str
    ) -> ExtendedDocument:
        return ExtendedDocument(
            id=case.id,
            filename=case.filename,
            labels=list(case.labels),
            metadata=case.metadata,
            content=case.content,
            ground_truth=case.ground_truth,
            extracted_fields=fields,
            model=model,
            source=source,
        )
