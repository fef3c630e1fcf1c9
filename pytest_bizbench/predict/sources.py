"""Where the system's outputs come from: prediction files per model.

Sources are opened lazily and cached per process, so each worker reads a
prediction file at most once (a bad line costs that line, a bad file is one cached
failure), and a directory source reads only the files of the cases that worker
runs, each looked up by a name `io.files.child_name` made from the case id.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_bizbench.options.settings import PredictionSpec

_ID_KEYS = ("id", "financebench_id")


class PredictionError(Exception):
    """A prediction that cannot be read; the items that need it are errors."""


_SUFFIXES = (".json", ".yml", ".yaml")
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
NOTE_IDS = 5  # ids named in a note about rows that match no case


def _read_document(path: Path, max_bytes: int) -> Any:
    from pytest_bizbench.io.jsonio import InputError, parse_json, read_text

    try:
        if path.suffix in (".yml", ".yaml"):
            from pytest_bizbench.io.yamlio import load_yaml

            return load_yaml(read_text(path, max_bytes))
        return parse_json(read_text(path, max_bytes))
    except InputError as exc:
        where = f"{path}:{exc.line}" if exc.line else str(path)
        raise PredictionError(f"prediction file {where}: {exc.message}") from None


class RowPrediction(dict[str, Any]):
    """A JSONL row's prediction: the row without its id, which remembers every key
    of the row, so a message about the prediction's shape names what the row holds."""

    __slots__ = ("row_keys",)

    def __init__(self, row: Mapping[str, Any]) -> None:
        super().__init__((k, v) for k, v in row.items() if k not in _ID_KEYS)
        self.row_keys = tuple(row)


def _row_prediction(row: Mapping[str, Any]) -> Any:
    """A JSONL row's prediction: the row without its id (FinanceBench: the answer)."""
    if _is_financebench(row):
        return {"answer": row["model_answer"]}
    return RowPrediction(row)


def _is_financebench(row: Mapping[str, Any]) -> bool:
    """A FinanceBench row: its answer is one of many keys (question, evidence, ...)."""
    return "financebench_id" in row and "model_answer" in row


def _jsonl_text(path: Path, data: bytes, errors: list[tuple[int, str]]) -> str:
    """The file as text with each line that is not UTF-8 blanked (and recorded in
    `errors`), so one bad line costs that line only and line numbers stay true."""
    if data.startswith(_UTF16_BOMS):
        raise PredictionError(f"prediction file {path}: UTF-16 text (save the file as UTF-8)")
    lines = data.removeprefix(b"\xef\xbb\xbf").split(b"\n")
    decoded = []
    for index, raw in enumerate(lines):
        try:
            decoded.append(raw.decode("utf-8"))
        except UnicodeDecodeError as err:
            errors.append((index + 1, f"not UTF-8: invalid byte 0x{raw[err.start]:02x}"))
            decoded.append("")
    return "\n".join(decoded)


@dataclass(frozen=True, slots=True)
class _Table:
    """A file source read once: its rows by id, and what was wrong with the rest.

    A JSONL source keeps each row as its line of text (`packed`), parsed again at each
    lookup: a parsed row took ~3 KB for every document of a run, held until its end;
    as text, a fraction of that. The line passed the safe parser when the file was
    read, so the plain one gives the same value. A FinanceBench row keeps only its
    answer, as compact JSON.
    """

    rows: dict[str, Any]
    line_errors: tuple[tuple[int, str], ...] = ()
    duplicates: Mapping[str, str] = field(default_factory=dict)
    failure: PredictionError | None = None
    packed: bool = False

    def get(self, case_id: str) -> tuple[bool, Any]:
        if case_id not in self.rows:
            return False, None
        row = self.rows[case_id]
        return True, _row_prediction(json.loads(row)) if self.packed else row


@dataclass(slots=True)
class PredictionSource:
    """One model's predictions at one path: a directory, a JSON/YAML object or JSONL.
    A file is parsed at most once per process, a failure included."""

    spec: PredictionSpec
    max_bytes: int
    _table: _Table | None = field(default=None, init=False)
    # (bad lines, row ids) an xdist worker read, so the controller need not read the file
    _known: tuple[tuple[tuple[int, str], ...], frozenset[str]] | None = field(
        default=None, init=False
    )

    def get(self, case_id: str) -> tuple[bool, Any]:
        """(found, prediction) for one case id; in a directory source, a sub-directory
        named after the id is found as a `Workspace` (an agent task's post-state)."""
        if self._table is None and self.spec.path.is_dir():  # a file source: stat once
            return self._from_directory(case_id)
        table = self.table()
        if table.failure is not None:
            raise table.failure
        if case_id in table.duplicates:
            raise PredictionError(table.duplicates[case_id])
        return table.get(case_id)

    def _from_directory(self, case_id: str) -> tuple[bool, Any]:
        """`<id>.json|.yml|.yaml` or `<id>/`, the name made by `io.files.child_name`
        (nothing outside the directory); two of them for one id are an error."""
        from pytest_bizbench.cases.model import Workspace
        from pytest_bizbench.io.files import UnsafeInputError, child_name, shown

        root = self.spec.path
        try:
            found = [
                candidate
                for suffix in (*_SUFFIXES, "")
                if (candidate := child_name(root, case_id, suffix)).exists()
            ]
        except UnsafeInputError as exc:
            raise PredictionError(f"prediction for {shown(case_id)}: {exc.message}") from None
        except OSError as exc:
            raise PredictionError(
                f"prediction for {shown(case_id)} in {root}: {exc.strerror or exc}"
            ) from None
        if len(found) > 1:
            names = ", ".join(p.name + ("/" if p.is_dir() else "") for p in found)
            raise PredictionError(
                f"prediction for {shown(case_id)} is given twice in {root}: {names} (keep one)"
            )
        if not found:
            return False, None
        if found[0].is_dir():
            return True, Workspace(found[0])
        return True, _read_document(found[0], self.max_bytes)

    def table(self) -> _Table:
        if self._table is None:
            try:
                self._table = self._read_table()
            except PredictionError as exc:
                self._table = _Table({}, failure=exc)
        return self._table

    def summary(self) -> dict[str, Any] | None:
        """What the controller needs of this source, once this process has read it: its
        bad lines and row ids (None before, or when it could not be read)."""
        table = self._table
        if table is None or table.failure is not None:
            return None
        return {
            "model": self.spec.model,
            "path": str(self.spec.path),
            "line_errors": [list(error) for error in table.line_errors],
            "ids": list(table.rows),
        }

    def take(self, summary: Mapping[str, Any]) -> None:
        """A worker's `summary` of this source: the controller's errors and notes read it
        instead of parsing the whole file again at the session's end."""
        if self._known is None:
            errors = tuple((int(line), str(reason)) for line, reason in summary["line_errors"])
            self._known = (errors, frozenset(summary["ids"]))

    def _errors_and_ids(self) -> tuple[tuple[tuple[int, str], ...], AbstractSet[str]]:
        if self._known is not None and self._table is None:
            return self._known
        table = self.table()
        return table.line_errors, table.rows.keys()

    def line_errors(self, rootpath: Path) -> list[dict[str, Any]]:
        """One report error per bad line of a file source (the run's completeness)."""
        if self.spec.path.is_dir():
            return []
        shown_path = self.shown_path(rootpath)
        return [
            {
                "nodeid": f"{shown_path}:{line}",
                "case": shown_path,
                "line": line,
                "message": f"prediction file {shown_path}:{line}: {reason}",
            }
            for line, reason in self._errors_and_ids()[0]
        ]

    def row_ids(self) -> AbstractSet[str]:
        """The ids this source holds a prediction for: a file's rows, a directory's
        entries by name (`<id>.json`, `<id>/`)."""
        path = self.spec.path
        if not path.is_dir():
            return self._errors_and_ids()[1]
        return {c.stem if c.suffix in _SUFFIXES else c.name for c in path.iterdir()}

    def expected_shape(self) -> str:
        """How this source should hold a ground-truth case's prediction."""
        fields = '{"extracted_fields": {"<field>": <value>, ...}}'
        if self.spec.path.is_dir():
            return f"a file <case id>.json holding {fields}"
        if self.spec.path.suffix == ".jsonl":
            return 'rows {"id": "<case id>", "extracted_fields": {"<field>": <value>, ...}}'
        return '{"<case id>": ' + fields + "}"

    def shown_path(self, rootpath: Path) -> str:
        """The path relative to `rootpath` when inside it, so reports compare across runs."""
        path = os.path.abspath(self.spec.path)
        relative = os.path.relpath(path, rootpath)
        return path if relative.startswith("..") else Path(relative).as_posix()

    def unmatched_note(self, case_ids: set[str], rootpath: Path) -> str | None:
        """A note naming the rows of a file source that match no case of the run."""
        if self.spec.path.is_dir():
            return None
        unmatched = sorted(self._errors_and_ids()[1] - case_ids)
        if not unmatched:
            return None
        from pytest_bizbench.io.files import shown

        named = ", ".join(shown(i, 40) for i in unmatched[:NOTE_IDS])
        more = "" if len(unmatched) <= NOTE_IDS else f" and {len(unmatched) - NOTE_IDS} more"
        rows = "row matches" if len(unmatched) == 1 else "rows match"
        return (
            f"predictions {self.shown_path(rootpath)} (model {self.spec.model}): "
            f"{len(unmatched)} {rows} no case: {named}{more}"
        )

    def _read_table(self) -> _Table:
        # the readers: not at start-up, where a session may read no prediction at all
        from pytest_bizbench.io.files import UnsafeInputError, read_regular, shown
        from pytest_bizbench.io.jsonio import InputError, compact_json, iter_jsonl_lines

        path = self.spec.path
        if path.suffix != ".jsonl":
            data = _read_document(path, self.max_bytes)
            if not isinstance(data, dict):
                raise PredictionError(
                    f"prediction file {path}: expected an object keyed by case id, "
                    f"got {type(data).__name__}"
                )
            return _Table(data)
        try:
            raw = read_regular(path, self.max_bytes, "ini bizbench_max_case_bytes")
        except UnsafeInputError as exc:
            raise PredictionError(f"prediction file {path}: {exc.message}") from None
        errors: list[tuple[int, str]] = []
        text = _jsonl_text(path, raw, errors)
        if not text.strip() and not errors:
            raise PredictionError(f"prediction file {path}: empty file")
        lines = text.split("\n")  # read once: kept rows are these lines
        rows: dict[str, Any] = {}
        first_line: dict[str, int] = {}
        duplicates: dict[str, str] = {}
        for line, row in iter_jsonl_lines(lines):
            if isinstance(row, InputError):
                errors.append((line, row.message))
                continue
            key = next((row[k] for k in _ID_KEYS if isinstance(row, dict) and k in row), None)
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                errors.append((line, "a row needs an 'id' (a string)"))
                continue
            key = str(key)
            if key in first_line:
                duplicates.setdefault(
                    key,
                    f"prediction file {path}:{line}: duplicate id {shown(key)} "
                    f"(first at line {first_line[key]})",
                )
                continue
            first_line[key] = line
            # the line as it is; of a FinanceBench row only its answer, not its evidence
            rows[key] = (
                compact_json(_row_prediction(row)) if _is_financebench(row) else lines[line - 1]
            )
        return _Table(rows, tuple(sorted(errors)), duplicates, packed=True)


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

    def line_errors(self, rootpath: Path) -> dict[str, dict[str, Any]]:
        """Every bad line of every file source, keyed for the report's error list."""
        return {
            f"predictions:{error['nodeid']}": error
            for sources in self.sources.values()
            for source in sources
            for error in source.line_errors(rootpath)
        }

    def unmatched_notes(self, case_ids: Mapping[str, set[str]], rootpath: Path) -> list[str]:
        """Per file source, its rows that match no case id of its model."""
        return [
            note
            for model, sources in self.sources.items()
            for source in sources
            if (note := source.unmatched_note(case_ids.get(model, set()), rootpath)) is not None
        ]

    def wrong_shape_reasons(
        self, wrong: Mapping[str, set[str]], keys: Mapping[str, set[str]], rootpath: Path
    ) -> list[str]:
        """A gate reason per source more than half of whose rows for the run's cases
        (`keys` per model) hold none of their case's fields (`wrong` per model): the
        whole source most likely has the wrong shape, which one reason says better
        than a case error per row."""
        reasons = []
        for model, bad in wrong.items():
            for source in self.sources.get(model, ()):
                rows = source.row_ids() & keys.get(model, set())
                hits = len(rows & bad)
                if 2 * hits > len(rows):
                    reasons.append(
                        f"predictions {source.shown_path(rootpath)} (model {model}): {hits} of "
                        f"{len(rows)} rows hold none of their case's fields; expected "
                        f"{source.expected_shape()}"
                    )
        return reasons

    def summaries(self) -> list[dict[str, Any]]:
        """`PredictionSource.summary` of every source this process has read."""
        found = (source.summary() for sources in self.sources.values() for source in sources)
        return [summary for summary in found if summary is not None]

    def take(self, summaries: Iterable[Mapping[str, Any]]) -> None:
        """Summaries an xdist worker sent (`summaries`), matched by model and path."""
        for summary in summaries:
            for source in self.sources.get(summary["model"], ()):
                if str(source.spec.path) == summary["path"]:
                    source.take(summary)

    def lookup(self, model: str, case_id: str) -> tuple[bool, Any]:
        for source in self.sources.get(model, ()):
            found, prediction = source.get(case_id)
            if found:
                return True, prediction
        return False, None
