"""Checks shared by every loader, so all case types word their problems alike."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeGuard

_TYPE_NAMES: dict[type, str] = {
    dict: "object",
    list: "list",
    str: "string",
    bool: "boolean",
    int: "number",
    float: "number",
    type(None): "null",
}


def type_name(value: Any) -> str:
    """A value's type in JSON's words, as users wrote it."""
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def describe(value: Any) -> str:
    """A scalar shown as itself (`1.5`, `"high"`), anything else by its type."""
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        text = json.dumps(value, ensure_ascii=False) if isinstance(value, str) else repr(value)
        return text if len(text) <= 40 else type_name(value)
    return type_name(value)


def min_score_of(raw: dict[str, Any], problems: list[str]) -> float | None:
    """A case's own pass mark; a value outside [0, 1] is a problem, not clamped."""
    value = raw.get("min_score")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        problems.append(f'"min_score" must be a number in [0, 1], got {describe(value)}')
        return None
    return float(value)


def is_case_id(value: Any) -> TypeGuard[str]:
    return isinstance(value, str) and bool(value.strip())


def id_problem(value: Any, key: str) -> str:
    """Why `value` (which failed `is_case_id`) cannot be the case id under `key`."""
    if value is None:
        return f'missing required key "{key}"'
    return f'"{key}" must be a non-empty string, got {describe(value)}'


def dig(value: Any, path: str) -> Any:
    """The value at a dotted path of nested objects; None when any step is absent."""
    for key in path.split("."):
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value
