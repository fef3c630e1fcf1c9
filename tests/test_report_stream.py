"""The end of a run streams (issue 17): the report is written a document at a time from
the aggregator's compact store, and the terminal and step summary build no table with
a row per document. The bytes themselves are pinned by tests/test_report_pin.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

from pytest_bizbench.report.json_report import RunResult, build_report
from pytest_bizbench.report.model import RunInfo
from pytest_bizbench.report.records import Completeness, ReportDocument
from pytest_bizbench.report.stream import Documents, pieces
from pytest_bizbench.report.view import Detail, report_view
from pytest_bizbench.run.payload import SCORED, DocumentPayload
from pytest_bizbench.run.registry import Registry


class Seen(Sequence[ReportDocument]):
    """Documents that record which of them were read, and in what order."""

    def __init__(self, docs: list[ReportDocument]) -> None:
        self.docs = docs
        self.read: list[int] = []

    def __len__(self) -> int:
        return len(self.docs)

    @overload
    def __getitem__(self, index: int) -> ReportDocument: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[ReportDocument]: ...

    def __getitem__(self, index: int | slice) -> ReportDocument | Sequence[ReportDocument]:
        if isinstance(index, slice):
            raise AssertionError("the writer slices no list of documents")
        doc = self.docs[index]  # IndexError ends an iteration: not a read
        self.read.append(index)
        return doc


def document(i: int) -> ReportDocument:
    payload = DocumentPayload(
        status=SCORED,
        benchmark="field-accuracy",
        model="m",
        id=f"d{i}",
        case="c.jsonl",
        case_hash="h",
        score=0.5,
        details={"z": 1, "a": "é"},  # unsorted, not ASCII: written sorted, as is
    )
    return ReportDocument.of(f"c.jsonl::d{i}", "passed", payload)


def written(i: int) -> str:
    return (
        '{"case":"c.jsonl","case_hash":"h","details":{"a":"é","z":1},"filename":"",'
        f'"group":null,"id":"d{i}","labels":[],"metadata":{{}},"nodeid":"c.jsonl::d{i}",'
        '"outcome":"passed","rules":[],"score":0.5}'
    )


def test_the_writer_encodes_one_document_at_a_time() -> None:
    docs = Seen([document(i) for i in range(3)])
    report = {"z": {"documents": Documents(docs), "b": []}, "a": {}, "n": 1.5}
    text = ""
    for piece in pieces(report):
        text += piece
        for i in range(3):
            if f'"id":"d{i}"' in piece:  # read when its own piece is made, not before
                assert docs.read == list(range(i + 1))
    assert text == (
        f'{{"a":{{}},"n":1.5,"z":{{"b":[],"documents":[{written(0)},{written(1)},{written(2)}]}}}}'
    )
    assert docs.read == [0, 1, 2]  # each document read once


def test_terminal_and_step_summary_views_build_no_row_per_document() -> None:
    docs = [document(i) for i in range(3)]
    completeness = Completeness(False, 3, 0, False, 3, (), ())
    run = RunInfo(None, 0.0)
    result = RunResult({("field-accuracy", "m"): docs}, {}, [], completeness, [], run)
    report = build_report(result, Registry())

    def titles(detail: Detail) -> list[str]:
        view = report_view(report, detail)
        return [block.title for section in view.sections for block in section.blocks]

    page = "field-accuracy (m): 3 documents"
    assert page in titles(Detail.PAGE)
    assert page not in titles(Detail.FULL)
    assert page not in titles(Detail.SHORT)
    # the headline table still counts every document's outcome
    headline = report_view(report, Detail.SHORT).sections[1].blocks[0]
    assert headline.rows[0][5:9] == ("3", "3", "0", "0")
