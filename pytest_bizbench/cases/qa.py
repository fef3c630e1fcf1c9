"""Loading `*.qa.jsonl` question-answer rows, and the `qa` case kind.

Never raises on bad input: a file that cannot be read gives one `CaseError`, a bad
row (no question, no gold answer, a wrong type, a repeated id) gives a `CaseError`
at its line, and every other row is still returned, in file order.

A file's format is read from its first JSON object row and every row is then
checked against it:
- FinanceBench: the row has `financebench_id`. `question` and `answer` required;
  `evidence` optional (a string, or a list of strings or of objects with
  `evidence_text`); every other key (`company`, `question_type`, `doc_period`,
  `doc_name`, ...) is kept as a tag.
- generic: the row has `expected` (or neither of the other formats' keys). `id`,
  `question` and `expected` required; `tags` an optional object; `evidence` optional
  as above.
- LegalBench: the row has `answer` and `question` or `text`. The question is
  `question`, else `text`; when both are there, `text` is the passage the question
  is about. Rows carry no id of their own, so the id is the row's `id` if it has
  one, else `<file stem>-<index>` from its `index` column, else
  `<file stem>-<line>` (the stem is the file name without `.qa.jsonl`), which is
  unique across files in one prediction source. Other keys are kept as tags.
Gold answers and ids may be numbers (read as written); every format takes an
optional `min_score`.

The prompt a live system is asked (`QACase.prompt`, for `pytest_bizbench_predict`):
`Evidence:` and the evidence texts when open book, the LegalBench passage, then
`Question: <question>` and `Answer:`. Open book (ini `bizbench_open_book`) is on
by default whenever the row has evidence, as FinanceBench rows do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_bizbench.options.types import LoadOptions
from pytest_bizbench.sdk import ExtendedDocument

from .checks import describe, min_score_of, type_name
from .model import CaseError, PredictionShapeError, content_hash
from .reading import jsonl_rows, read_case_file

SUFFIX = ".qa.jsonl"
SIGNAL_KEYS = ("refusal", "finish_reason")  # a provider's own word that it withheld the answer
FINANCEBENCH, LEGALBENCH, GENERIC = "financebench", "legalbench", "generic"
_REQUIRED = {
    FINANCEBENCH: ("financebench_id", "question", "answer"),
    GENERIC: ("id", "question", "expected"),
    LEGALBENCH: ("answer",),
}
_STRUCTURAL = {
    FINANCEBENCH: {"financebench_id", "question", "answer", "evidence", "min_score"},
    LEGALBENCH: {"id", "index", "question", "text", "answer", "min_score"},
}


@dataclass(frozen=True, slots=True)
class QACase:
    """One question with its gold answer; `prompt` is what a live system is asked."""

    id: str
    line: int | None
    format: str
    question: str
    answer: str
    evidence: tuple[str, ...]
    passage: str | None  # the LegalBench `text` a question is about
    tags: dict[str, Any]
    prompt: str
    min_score: float | None
    case_hash: str
    labels: tuple[str, ...] = ()
    filename: str = ""

    @property
    def metadata(self) -> dict[str, Any]:
        return self.tags

    @property
    def question_type(self) -> str | None:
        value = self.tags.get("question_type")
        return None if value is None else str(value)


def build_prompt(
    question: str, evidence: Sequence[str], passage: str | None, open_book: bool
) -> str:
    parts = []
    if open_book and evidence:
        parts.append("Evidence:\n" + "\n\n".join(evidence))
    if passage:
        parts.append(passage)
    parts.append(f"Question: {question}\nAnswer:")
    return "\n\n".join(parts)


def detect_format(row: dict[str, Any]) -> str:
    if "financebench_id" in row:
        return FINANCEBENCH
    if "expected" not in row and "answer" in row and ("question" in row or "text" in row):
        return LEGALBENCH
    return GENERIC


def load_qa(path: Path, max_bytes: int, open_book: bool | None = None) -> list[QACase | CaseError]:
    """Load one QA file; see the module docstring for formats and the error contract."""
    source, text = str(path), read_case_file(path, max_bytes)
    if isinstance(text, CaseError):
        return [text]
    stem = path.name.removesuffix(SUFFIX)
    fmt: tuple[str, int] | None = None  # (format, line it was read from)
    seen: dict[str, int] = {}
    results: list[QACase | CaseError] = []
    for row in jsonl_rows(source, text):
        if isinstance(row, CaseError):
            results.append(row)
            continue
        line, value = row
        if not isinstance(value, dict):
            problem = f"row must be an object, got {type_name(value)}"
            results.append(CaseError(source, line, problem))
            continue
        if fmt is None:
            fmt = (detect_format(value), line)
        results.append(
            _row(source, line, value, stem=stem, fmt=fmt, seen=seen, open_book=open_book)
        )
    return results


def _row(
    source: str,
    line: int,
    raw: dict[str, Any],
    *,
    stem: str,
    fmt: tuple[str, int],
    seen: dict[str, int],
    open_book: bool | None,
) -> QACase | CaseError:
    kind, detected_at = fmt
    problems: list[str] = []
    missing = [key for key in _REQUIRED[kind] if raw.get(key) is None]
    if kind == LEGALBENCH and raw.get("question") is None and raw.get("text") is None:
        missing.insert(0, "question")
    if missing:
        keys = ", ".join(f'"{key}"' for key in missing)
        return CaseError(
            source,
            line,
            f"row lacks {keys} (the file is read as {kind} QA rows, from line {detected_at}; "
            f"{kind} rows need {_needs(kind)})",
            _plain_id(raw, kind),
        )
    case_id = _case_id(raw, kind, stem, line, problems)
    asks = raw.get("question") is not None
    question = _text(raw, "question" if asks or kind != LEGALBENCH else "text")
    passage = _text(raw, "text") if kind == LEGALBENCH and asks else None
    gold_key = "expected" if kind == GENERIC else "answer"
    gold = _gold(raw.get(gold_key))
    if question is None or not question.strip():
        shown = describe(raw.get("question"))
        problems.append(f'"question" must be a non-empty string, got {shown}')
    if gold is None:
        problems.append(
            f'"{gold_key}" must be a non-empty string or a number, got {describe(raw[gold_key])}'
        )
    if kind == LEGALBENCH and asks and raw.get("text") is not None and passage is None:
        problems.append(f'"text" must be a string, got {type_name(raw["text"])}')
    evidence = _evidence(raw.get("evidence"), problems)
    tags = _tags(raw, kind, problems)
    min_score = min_score_of(raw, problems)
    if case_id is not None and case_id in seen and not problems:
        return CaseError(
            source, line, f"duplicate id {case_id!r} (first at line {seen[case_id]})", case_id
        )
    if problems or case_id is None or question is None or gold is None:
        return CaseError(source, line, "; ".join(problems), case_id)
    seen[case_id] = line
    book = bool(evidence) if open_book is None else open_book
    doc_name = tags.get("doc_name")
    return QACase(
        id=case_id,
        line=line,
        format=kind,
        question=question,
        answer=gold,
        evidence=evidence,
        passage=passage,
        tags=tags,
        prompt=build_prompt(question, evidence, passage, book),
        min_score=min_score,
        case_hash=content_hash(raw),
        filename=doc_name if isinstance(doc_name, str) else "",
    )


def _needs(kind: str) -> str:
    if kind == LEGALBENCH:
        return '"question" or "text", and "answer"'
    return ", ".join(f'"{key}"' for key in _REQUIRED[kind])


def _plain_id(raw: dict[str, Any], kind: str) -> str | None:
    value = raw.get("financebench_id" if kind == FINANCEBENCH else "id")
    return value if isinstance(value, str) and value.strip() else None


def _case_id(
    raw: dict[str, Any], kind: str, stem: str, line: int, problems: list[str]
) -> str | None:
    key = "financebench_id" if kind == FINANCEBENCH else "id"
    value = raw.get(key)
    if value is None and kind == LEGALBENCH:
        index = raw.get("index")
        suffix = index if isinstance(index, (str, int)) and not isinstance(index, bool) else line
        return f"{stem}-{suffix}"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, str) and value.strip():
        return value
    problems.append(f'"{key}" must be a non-empty string or an integer, got {describe(value)}')
    return None


def _text(raw: dict[str, Any], key: str) -> str | None:
    value = raw.get(key)
    return value if isinstance(value, str) else None


def _gold(value: Any) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str) and value.strip():
        return value
    return None


def _evidence(value: Any, problems: list[str]) -> tuple[str, ...]:
    """Evidence texts: a string, or a list of strings or `{evidence_text: ...}` objects."""
    if value is None:
        return ()
    items = [value] if isinstance(value, str) else value
    if isinstance(items, list):
        texts = [item.get("evidence_text") if isinstance(item, dict) else item for item in items]
        strings = [text for text in texts if isinstance(text, str)]
        if len(strings) == len(texts):
            return tuple(text for text in strings if text.strip())
    problems.append(
        '"evidence" must be a string or a list of strings or {"evidence_text": ...} objects'
    )
    return ()


def _tags(raw: dict[str, Any], kind: str, problems: list[str]) -> dict[str, Any]:
    if kind != GENERIC:
        return {k: v for k, v in raw.items() if k not in _STRUCTURAL[kind]}
    tags = raw.get("tags")
    if tags is None:
        return {}
    if not isinstance(tags, dict):
        problems.append(f'"tags" must be an object, got {type_name(tags)}')
        return {}
    return tags


class QAKind:
    """`*.qa.jsonl`: questions with gold answers, graded by `qa-answer`."""

    name = "qa"
    suffixes = (SUFFIX,)

    def load(self, path: Path, options: LoadOptions) -> Sequence[QACase | CaseError]:
        return load_qa(path, options.max_case_bytes, options.open_book)

    def prediction_key(self, case: QACase) -> str:
        return case.id

    def inline_prediction(self, case: QACase) -> Any:
        return None

    def fields(self, case: QACase, raw: Any) -> dict[str, Any] | None:
        """`{"answers": [str, ...]}` from `{"answer": str}`, `{"answers": [...]}`, a
        string, or a list of strings (several samples); None when the answer is null
        or the list empty (the system gave nothing). A dict's provider signals
        (`refusal`: the provider's refusal text, `finish_reason`) are kept per answer
        as `signals`, and a null answer with a signal is an empty answer so the signal
        is graded, not lost."""
        value = raw
        signal: dict[str, str] = {}
        if isinstance(raw, dict):
            signal = {
                key: raw[key] for key in SIGNAL_KEYS if isinstance(raw.get(key), str) and raw[key]
            }
            if signal and raw.get("answer", raw.get("answers")) is None:
                raw = {**raw, "answer": ""}
            keys = [key for key in ("answers", "answer") if key in raw]
            if not keys:
                raise PredictionShapeError(
                    f'prediction for question {case.id!r} has no "answer" or "answers" '
                    f"(keys: {', '.join(sorted(map(str, raw))) or 'none'})"
                )
            value = raw[keys[0]]
        if value is None:
            return None
        answers = value if isinstance(value, list) else [value]
        if not answers:
            return None
        texts: list[str] = []
        for answer in answers:
            if isinstance(answer, bool) or not isinstance(answer, (str, int, float)):
                raise PredictionShapeError(
                    f"prediction for question {case.id!r}: an answer is "
                    f'{type_name(answer)}, not a string; give {{"answer": str}}, '
                    f'{{"answers": [str, ...]}}, a string or a list of strings'
                )
            texts.append(str(answer))
        if signal:
            return {"answers": texts, "signals": [signal] * len(texts)}
        return {"answers": texts}

    def merge_runs(self, case: QACase, runs: list[dict[str, Any]]) -> dict[str, Any]:
        """Several runs of a question are its samples: `{"runs": [{"answer": a}, ...]}`
        grades like `{"answers": [a, ...]}`, so pass@k counts every run."""
        merged: dict[str, Any] = {
            "answers": [answer for fields in runs for answer in fields["answers"]]
        }
        if any("signals" in fields for fields in runs):
            merged["signals"] = [
                signal
                for fields in runs
                for signal in fields.get("signals") or [{}] * len(fields["answers"])
            ]
        return merged

    def document(
        self, case: QACase, model: str, fields: dict[str, Any], source: str
    ) -> ExtendedDocument:
        return ExtendedDocument(
            id=case.id,
            filename=case.filename,
            labels=list(case.labels),
            metadata=case.tags,
            content="\n\n".join(case.evidence) or None,
            ground_truth={"question": case.question, "answer": case.answer, "format": case.format},
            extracted_fields=fields,
            model=model,
            source=source,
        )
