"""The loaders' output: a valid case, or an error that collection turns into an error item."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# check_circular off: parsed JSON cannot contain cycles, and hashing runs per case.
_CANONICAL = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, check_circular=False
)


def content_hash(raw: Any) -> str:
    """Content identity of a case, independent of key order and formatting."""
    canonical = _CANONICAL.encode(raw)
    # surrogatepass: a lone "\ud800" escape is valid JSON but not encodable UTF-8.
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()[:16]


class PredictionShapeError(Exception):
    """A prediction exists but does not have the shape its case type needs.

    Defined here, next to `CaseError`, so a loader module that also holds its case
    kind can raise it without importing `casekinds` (which imports the loaders).
    """


class ForeignFieldsError(PredictionShapeError):
    """A prediction object that holds none of its case's fields: most likely the
    fields sit under another key, so scoring it would give a quiet 0."""


#: The detail that marks an error document as a `ForeignFieldsError`, so the
#: controller can count them per prediction source.
WRONG_SHAPE = "wrong_shape"


@dataclass(frozen=True, slots=True)
class CaseError:
    """A problem with a case file or one case in it; becomes an error item.

    It is a value rather than an exception so that one bad case never stops the
    loader from returning the others.
    """

    path: str
    line: int | None
    message: str
    case_id: str | None = None

    def describe(self) -> str:
        """The compiler-style location users can click in an editor or a CI log."""
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.message}"


@dataclass(frozen=True, slots=True)
class GroundTruthCase:
    """One validated ground-truth document.

    `extracted_fields` stays None when the key is absent so predictions can tell
    "no inline output" from "inline output with no fields"; `case_hash` lets a
    baseline notice that a case changed under the same id.
    """

    id: str
    line: int | None
    filename: str
    labels: tuple[str, ...]
    metadata: dict[str, Any]
    content: str | None
    ground_truth: dict[str, Any]
    extracted_fields: dict[str, Any] | None
    min_score: float | None
    case_hash: str


@dataclass(frozen=True, slots=True)
class Workspace:
    """A prediction that is a directory: `DIR/<task_id>/` of a directory source, the
    workspace an agent left behind (or its `run-<n>/` workspaces)."""

    path: Path
