"""The case types the plugin collects, and how each meets its prediction (SPEC §2, §3).

A case kind says which files it reads, how it loads them into cases, under which
key a case's prediction is filed, and how a case and its prediction become the
`ExtendedDocument` every benchmark scores. Adding a case type means adding a kind
here; collection, evaluation and aggregation stay as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from pytest_bizbench.cases import CaseError, GroundTruthCase, load_ground_truth
from pytest_bizbench.cases.agent import AgentTaskKind
from pytest_bizbench.cases.golden import GoldenAssessmentKind
from pytest_bizbench.cases.model import PredictionShapeError as PredictionShapeError  # noqa: PLC0414
from pytest_bizbench.cases.qa import QAKind
from pytest_bizbench.sdk import ExtendedDocument
from pytest_bizbench.settings import Settings


class Case(Protocol):
    """What collection, evaluation and the report need of any case."""

    @property
    def id(self) -> str: ...
    @property
    def line(self) -> int | None: ...
    @property
    def labels(self) -> tuple[str, ...]: ...
    @property
    def metadata(self) -> dict[str, Any]: ...
    @property
    def filename(self) -> str: ...
    @property
    def min_score(self) -> float | None: ...
    @property
    def case_hash(self) -> str: ...


class CaseKind(Protocol):
    """One case type: its files, its loader, and its side of the prediction lookup."""

    @property
    def name(self) -> str:
        """The `case_type` of the benchmarks that score these cases."""
        ...

    @property
    def suffixes(self) -> tuple[str, ...]:
        """File name endings of this kind (`.ground-truth.jsonl`)."""
        ...

    def load(self, path: Path, settings: Settings) -> Sequence[Case | CaseError]: ...

    def prediction_key(self, case: Any) -> str:
        """The id the case's prediction is filed under in prediction sources."""
        ...

    def inline_prediction(self, case: Any) -> Any:
        """A prediction carried in the case file itself, or None."""
        ...

    def fields(self, case: Any, raw: Any) -> dict[str, Any] | None:
        """The case's prediction from a raw one: None when it holds nothing for this
        case; PredictionShapeError when its shape is wrong."""
        ...

    def document(
        self, case: Any, model: str, fields: dict[str, Any], source: str
    ) -> ExtendedDocument: ...


class GroundTruthKind:
    """`*.ground-truth.json[l]`: documents with expected fields (SPEC §2)."""

    name = "ground-truth"
    suffixes = (".ground-truth.json", ".ground-truth.jsonl")

    def load(self, path: Path, settings: Settings) -> Sequence[GroundTruthCase | CaseError]:
        return load_ground_truth(path, settings.max_case_bytes)

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
        return inner if isinstance(inner, dict) else raw

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


CASE_KINDS: tuple[CaseKind, ...] = (
    GroundTruthKind(),
    AgentTaskKind(),
    GoldenAssessmentKind(),
    QAKind(),
)


def kind_for(path: Path) -> CaseKind | None:
    """The kind that reads this file, by its name's ending."""
    name = path.name
    return next((k for k in CASE_KINDS if name.endswith(k.suffixes)), None)
