"""Where the system's outputs come from: prediction files per model (SPEC §3).

Sources are opened lazily and cached per process, so each worker reads a
prediction file at most once, and a directory source reads only the files of the
cases that worker runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_bizbench.cases.jsonio import InputError, iter_jsonl, parse_json, read_text
from pytest_bizbench.cases.model import Workspace
from pytest_bizbench.settings import PredictionSpec

_ID_KEYS = ("id", "financebench_id")


class PredictionError(Exception):
    """A prediction file that cannot be read; the items that need it are errors."""


def _read_document(path: Path, max_bytes: int) -> Any:
    try:
        if path.suffix in (".yml", ".yaml"):
            from pytest_bizbench.cases.yamlio import load_yaml

            return load_yaml(read_text(path, max_bytes))
        return parse_json(read_text(path, max_bytes))
    except InputError as exc:
        where = f"{path}:{exc.line}" if exc.line else str(path)
        raise PredictionError(f"prediction file {where}: {exc.message}") from None


def _row_prediction(row: Mapping[str, Any]) -> Any:
    """A JSONL row's prediction: the row without its id (FinanceBench: the answer)."""
    if "financebench_id" in row and "model_answer" in row:
        return {"answer": row["model_answer"]}
    return {k: v for k, v in row.items() if k not in _ID_KEYS}


@dataclass(slots=True)
class PredictionSource:
    """One model's predictions at one path: a directory, a JSON/YAML object or JSONL."""

    spec: PredictionSpec
    max_bytes: int
    _table: dict[str, Any] | None = field(default=None, init=False)

    def get(self, case_id: str) -> tuple[bool, Any]:
        """(found, prediction) for one case id; in a directory source, a sub-directory
        named after the id is found as a `Workspace` (an agent task's post-state)."""
        path = self.spec.path
        if path.is_dir():
            for suffix in (".json", ".yml", ".yaml"):
                candidate = path / f"{case_id}{suffix}"
                if candidate.is_file():
                    return True, _read_document(candidate, self.max_bytes)
            workspace = path / case_id
            if workspace.is_dir():
                return True, Workspace(workspace)
            return False, None
        table = self._load()
        return (case_id in table), table.get(case_id)

    def _load(self) -> dict[str, Any]:
        if self._table is None:
            self._table = self._read_table()
        return self._table

    def _read_table(self) -> dict[str, Any]:
        path = self.spec.path
        if path.suffix != ".jsonl":
            data = _read_document(path, self.max_bytes)
            if not isinstance(data, dict):
                raise PredictionError(
                    f"prediction file {path}: expected an object keyed by case id, "
                    f"got {type(data).__name__}"
                )
            return data
        try:
            text = read_text(path, self.max_bytes)
        except InputError as exc:
            raise PredictionError(f"prediction file {path}: {exc.message}") from None
        table: dict[str, Any] = {}
        for line, row in iter_jsonl(text):
            if isinstance(row, InputError):
                raise PredictionError(f"prediction file {path}:{line}: {row.message}")
            key = next((row[k] for k in _ID_KEYS if isinstance(row, dict) and k in row), None)
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                raise PredictionError(f"prediction file {path}:{line}: a row needs an 'id'")
            if str(key) in table:
                raise PredictionError(f"prediction file {path}:{line}: duplicate id {key!r}")
            table[str(key)] = _row_prediction(row)
        return table


@dataclass(slots=True)
class Predictions:
    """Every model's prediction sources, looked up per case and model; a model with
    several sources is looked up in them in the order given, the first find wins."""

    sources: dict[str, list[PredictionSource]]

    @classmethod
    def open(cls, specs: tuple[PredictionSpec, ...], max_bytes: int) -> Predictions:
        sources: dict[str, list[PredictionSource]] = {}
        for spec in specs:
            sources.setdefault(spec.model, []).append(PredictionSource(spec, max_bytes))
        return cls(sources)

    def lookup(self, model: str, case_id: str) -> tuple[bool, Any]:
        for source in self.sources.get(model, ()):
            found, prediction = source.get(case_id)
            if found:
                return True, prediction
        return False, None
