"""What the plugin keeps per item and per document is compact (issue 17, part 3):
items keep their case pickled, the controller of a large run keeps long details
compressed, and the
plugin's own `compute()` reads the documents one at a time. The figures are in
benchmarks/README.md; these tests pin the mechanisms and that no result changes."""

from __future__ import annotations

import dataclasses
import functools
import json
from pathlib import Path
from typing import Any, ClassVar

import pytest
from bizhelpers import Suite, doc, jsonl

from pytest_bizbench.benchmarks.field_accuracy import FieldAccuracy
from pytest_bizbench.collect.items import CaseItem, pack
from pytest_bizbench.gate.aggregate import (
    Aggregator,
    compute_metrics,
    reads_lazily,
    scored_documents,
)
from pytest_bizbench.options.settings import PredictionSpec
from pytest_bizbench.predict.sources import PredictionSource
from pytest_bizbench.report.records import COMPRESS_FROM, ReportDocument
from pytest_bizbench.run.payload import (
    MAX_ITEMS,
    SCORED,
    DocumentPayload,
    bounded_json,
    read_payload,
)
from pytest_bizbench.sdk import (
    BenchmarkPlugin,
    ExtendedDocument,
    ScoredDocument,
    ScoredDocuments,
    by_id,
)


def test_items_keep_their_case_pickled_and_read_it_back_whole(suite: Suite) -> None:
    case = doc("c1", {"total": 12.5, "vendor": "Acme"}, min_score=0.75)
    suite.cases("a.ground-truth.jsonl", [case, doc("c2", {"k": "v"})])
    items, _ = suite.pytester.inline_genitems()
    first = next(i for i in items if isinstance(i, CaseItem) and i.name.startswith("c1"))
    assert isinstance(first._case, bytes)
    assert getattr(first.case, "ground_truth", None) == {"total": 12.5, "vendor": "Acme"}
    assert first.case.id == "c1"
    assert first.case.line == 1
    # what an item reads of its case on every run needs no unpickling
    assert (first.case_line, first.case_min_score) == (1, 0.75)
    assert first.pass_mark() == (0.75, "case min_score")
    # each item unpickles its own copy: a benchmark that changes it changes no other item
    assert first.case is not first.case
    changed = dataclasses.replace(first.case, min_score=0.5)  # type: ignore[type-var]
    first.case = changed  # a conftest may set it: kept as it is
    assert first.case is changed
    assert first.pass_mark() == (0.5, "case min_score")


def test_a_case_that_does_not_pickle_is_kept_as_it_is() -> None:
    class Local:  # a class defined in a function does not pickle
        line = 3

    assert pack(Local()) is None  # type: ignore[arg-type]


def payload(details: dict[str, Any], doc_id: str = "d1") -> dict[str, Any]:
    """A payload as it travels on a report."""
    return DocumentPayload(
        status=SCORED,
        benchmark="field-accuracy",
        model="m",
        id=doc_id,
        case="c.jsonl",
        case_hash="h",
        score=0.5,
        details=details,
    ).to_property()


def test_long_details_are_kept_compressed_and_read_back_unchanged() -> None:
    long = {"note": "x" * COMPRESS_FROM, "flip": True, "n": 1.25}
    kept = ReportDocument.received("c.jsonl::d1", "passed", payload(long), compress=True)
    assert isinstance(kept.packed_details, bytes)
    assert len(kept.packed_details) < COMPRESS_FROM // 4
    assert kept.details == long
    assert kept.has_samples

    short = ReportDocument.received("c.jsonl::d2", "passed", payload({"k": 1}), compress=True)
    assert short.packed_details == '{"k":1}'
    assert short.details == {"k": 1}
    assert not short.has_samples


def test_the_aggregator_compresses_only_in_a_large_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Compressing costs time a small run need not pay: only documents after the first
    COMPRESS_AFTER are kept compressed, and every one reads back the same."""
    monkeypatch.setattr(Aggregator, "COMPRESS_AFTER", 2)
    aggregator = Aggregator()
    long = {"note": "y" * COMPRESS_FROM}
    for n in range(4):
        data = payload({**long, "n": n}, f"d{n}")
        aggregator.add_report(f"c.jsonl::d{n}", "call", "passed", data, "")
    kept = list(aggregator.documents.values())
    assert [type(d.packed_details) for d in kept] == [str, str, bytes, bytes]
    assert [d.details["n"] for d in kept] == [0, 1, 2, 3]


def report_docs() -> list[ReportDocument]:
    """Three documents in the aggregator's order (case, id), not by id's."""
    rows = [("b", 0.5, 1.0), ("a", 1.0, 0.0), ("c", 0.25, 0.5)]
    docs = []
    for doc_id, score, field in rows:
        details = {"f": {"score": field, "rung": "exact"}, "completeness": field}
        data = {**payload(details, doc_id), "score": score}
        docs.append(ReportDocument.received(f"c.jsonl::{doc_id}", "passed", data))
    return docs


def test_the_builtin_compute_reads_lazily_and_gives_the_metrics_of_a_list() -> None:
    seen: list[type] = []

    class Watched(FieldAccuracy):
        pass  # compute() is the plugin's own: it is handed the lazy sequence

    assert reads_lazily(Watched(), "compute")
    assert isinstance(scored_documents(report_docs(), lazy=True), ScoredDocuments)

    class Overridden(FieldAccuracy):
        def compute(self, scored: list[ScoredDocument]) -> dict[str, Any]:
            seen.append(type(scored))
            return super().compute(scored)

    lazy, problem = compute_metrics("field-accuracy", Watched(), report_docs())
    assert problem is None
    listed, _ = compute_metrics("field-accuracy", Overridden(), report_docs())
    assert seen == [list]  # an override gets the list the SDK promises
    assert lazy == listed
    # by hand: scores 0.5, 1.0, 0.25; field f 1.0, 0.0, 0.5; completeness the same
    assert lazy["accuracy"] == pytest.approx(1.75 / 3)
    assert lazy["median_score"] == 0.5
    assert lazy["per_field_accuracy"] == {"f": 0.5}
    assert lazy["completeness"] == 0.5
    assert lazy["correctness"] == 0.0  # absent from every document: counted as 0


class Audited(BenchmarkPlugin):
    """A user's mix-in whose compute() sorts the list in place."""

    name = "audited"
    version = "1.0.0"
    description = "d"
    target_labels: ClassVar[list[str]] = ["*"]

    def score(self, document: ExtendedDocument) -> ScoredDocument:
        return ScoredDocument(document, 1.0)

    def compute(self, scored: list[ScoredDocument]) -> dict[str, Any]:
        scored.sort(key=lambda s: s.score)
        return super().compute(scored)


def test_a_users_compute_anywhere_in_the_chain_gets_a_list() -> None:
    """`super()` from the plugin's compute() can reach a user's; a decorator may copy
    a built-in's name and module: both get the list."""

    class Mixed(FieldAccuracy, Audited):
        pass

    def logged(method: Any) -> Any:
        @functools.wraps(method)
        def wrapper(self: Any, scored: list[ScoredDocument]) -> Any:
            assert isinstance(scored, list)
            return method(self, scored)

        return wrapper

    class Decorated(FieldAccuracy):
        compute = logged(FieldAccuracy.compute)

    assert not reads_lazily(Mixed(), "compute")
    assert not reads_lazily(Decorated(), "compute")
    assert reads_lazily(Mixed(), "compare_models")  # nobody overrode that one
    for benchmark in (Mixed(), Decorated()):
        metrics, problem = compute_metrics("field-accuracy", benchmark, report_docs())
        assert problem is None
        assert metrics["accuracy"] == pytest.approx(1.75 / 3)


def test_sample_metrics_read_what_a_users_compute_read() -> None:
    """An override's compute() may change the documents it is given; the sample
    metrics are computed from those same documents, as before."""

    class Forgetful(FieldAccuracy):
        def compute(self, scored: list[ScoredDocument]) -> dict[str, Any]:
            for s in scored:
                s.details.pop("flip", None)
            return {"accuracy": 1.0}

    flipping = {"flip": True, "samples": {"n": 2, "passed": 1}}
    docs = [ReportDocument.received("c.jsonl::d1", "passed", payload(flipping))]
    assert docs[0].has_samples
    metrics, _ = compute_metrics("field-accuracy", Forgetful(), docs)
    assert metrics == {"accuracy": 1.0}


class Source:
    """A document source that records each time a document is made (parsed)."""

    def __init__(self, doc: ReportDocument, made: list[str]) -> None:
        self.doc, self.made = doc, made

    def scored(self) -> ScoredDocument:
        self.made.append(self.doc.payload.id or "")
        return self.doc.scored()

    def id_order(self) -> tuple[str, str]:
        return self.doc.id_order()


def test_field_accuracy_compute_reads_each_document_once() -> None:
    """Its sub-scores' means come from the base compute()'s one pass: each lazily read
    document is parsed once, in id order."""
    made: list[str] = []
    metrics = FieldAccuracy().compute(
        ScoredDocuments([Source(d, made) for d in report_docs()])  # type: ignore[arg-type]
    )
    assert made == ["a", "b", "c"]
    assert metrics["completeness"] == 0.5  # (1.0 + 0.0 + 0.5) / 3, by hand
    assert metrics["quality"] == 0.0  # absent everywhere: counted as 0
    assert FieldAccuracy().compute([]) == {
        "accuracy": 0.0,
        "total_documents": 0,
        "completeness": 0.0,
        "correctness": 0.0,
        "quality": 0.0,
        # no field counted: every rate has a zero denominator
        "fields": {
            "total": {
                "tp": 0,
                "fd": 0,
                "fn": 0,
                "fa": 0,
                "tn": 0,
                "precision": None,
                "recall": None,
                "f1": None,
            },
        },
        "field_f1": None,
    }


def test_by_id_orders_the_lazy_sequence_without_reading_it() -> None:
    made: list[str] = []
    lazy = ScoredDocuments([Source(d, made) for d in report_docs()])
    ordered = by_id(lazy)
    assert made == []
    assert [s.document.id for s in ordered] == ["a", "b", "c"]
    assert made == ["a", "b", "c"]  # one document made per read
    assert [s.document.id for s in by_id([d.scored() for d in report_docs()])] == ["a", "b", "c"]
    assert ordered[1].score == 0.5
    assert [s.document.id for s in ordered[1:]] == ["b", "c"]


def test_a_run_reports_the_same_with_compressed_details(suite: Suite) -> None:
    """Details long enough to be compressed reach the report unchanged, serially."""
    fields = {f"field_{n:02d}": f"value number {n}" for n in range(40)}
    suite.cases("a.ground-truth.jsonl", [doc("c1", fields)])
    suite.write("preds.jsonl", jsonl([{"id": "c1", **fields}]))
    result = suite.pytester.runpytest("--bizbench-predictions", "preds.jsonl")
    assert result.ret == pytest.ExitCode.OK
    details = suite.documents()["c1"]["details"]
    assert len(json.dumps(details)) > COMPRESS_FROM
    assert details["field_07"]["score"] == 1.0
    assert details["field_07"]["actual"] == "value number 7"


def test_a_jsonl_prediction_is_kept_as_its_line_and_a_financebench_row_as_its_answer(
    tmp_path: Path,
) -> None:
    evidence = "page text " * 200
    path = tmp_path / "p.jsonl"
    path.write_text(
        '{"id": "a",  "fields": {"total": 1.5, "n": [1, 2]}}\r\n'
        + json.dumps({"financebench_id": "fb-1", "model_answer": "$5", "evidence": evidence})
        + "\n",
        "utf-8",
    )
    source = PredictionSource(PredictionSpec("m", path), 100_000)
    assert source.get("a") == (True, {"fields": {"total": 1.5, "n": [1, 2]}})
    assert source.get("fb-1") == (True, {"answer": "$5"})
    kept = source.table().rows
    assert kept["a"] == '{"id": "a",  "fields": {"total": 1.5, "n": [1, 2]}}\r'  # as read
    assert kept["fb-1"] == '{"answer":"$5"}'  # not the evidence


def test_a_payload_sent_as_text_reads_back_as_the_same_property() -> None:
    """A worker's payload crosses xdist as its compact JSON text; the controller's
    reader gives the mapping the serial path hands over (details and metadata already
    travel as JSON text, so their lone surrogate is escaped inside them)."""
    payload = DocumentPayload(
        status="scored",
        benchmark="b",
        model="m",
        id="c1",
        case="a.ground-truth.jsonl",
        case_hash="h",
        score=0.5,
        details={"fields": {"k": {"score": 0.5, "actual": "é\ud800"}}},
        labels=("x",),
    )
    text = payload.travelling(as_text=True)
    assert isinstance(text, str)
    assert text.isascii()
    assert read_payload(text) == read_payload(payload.travelling()) == payload.to_property()


def test_only_a_payload_of_ours_is_read_from_our_report_attribute() -> None:
    """Another plugin's text or mapping under the same attribute is passed over, not
    parsed into an internal error."""
    ours = DocumentPayload(status="scored", benchmark="b", model="m", id="c1", case="a",
                           case_hash="h", score=1.0)  # fmt: skip
    foreign: list[Any] = [
        "tagged by CI",
        {"status": "green"},
        '{"status": "green"}',
        "[" * 100_000,  # deeper than the JSON reader's recursion
        None,
    ]
    assert [read_payload(value) for value in foreign] == [None] * len(foreign)
    assert read_payload(ours.travelling(as_text=True)) == ours.to_property()


def test_details_keep_a_series_of_numbers_whole_and_cut_other_long_lists() -> None:
    """A list of plain numbers (a series) is small per item and useless cut short;
    other lists keep MAX_ITEMS entries and say how many more there were."""
    series = [float(i) for i in range(300)]
    words = [f"w{i}" for i in range(300)]
    mixed = [*range(299), True]  # a bool is not a plain number
    filler = "x" * 9000  # past the size under which plain JSON passes as it is
    kept = json.loads(bounded_json({"s": series, "w": words, "m": mixed, "f": filler}))
    assert kept["s"] == series
    assert kept["w"] == [*words[:MAX_ITEMS], f"… {300 - MAX_ITEMS} more items"]
    assert kept["m"][-1] == f"… {300 - MAX_ITEMS} more items"
