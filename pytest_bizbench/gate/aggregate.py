"""Test reports -> per benchmark x model documents and metrics, on the controller.

Everything here is fed from `pytest_runtest_logreport` (or, for merged shards,
from saved report documents), never from worker state, so a serial run and an
xdist run aggregate the same data the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

from pytest_bizbench.maths.figures import is_number
from pytest_bizbench.maths.stats import ALPHA, holm
from pytest_bizbench.report.records import FAILED, PASSED, RERUN, XFAILED, XPASSED, ReportDocument
from pytest_bizbench.run.payload import (
    ERROR,
    MISSING,
    DocumentPayload,
)
from pytest_bizbench.run.registry import Registry
from pytest_bizbench.run.usercode import UserCodeError, call, checked, plain
from pytest_bizbench.scoring.passk import sample_metrics
from pytest_bizbench.sdk import (
    BenchmarkPlugin,
    ScoredDocument,
    ScoredDocuments,
)


@dataclass(slots=True)
class Aggregator:
    """Collects one outcome per item from its test reports."""

    documents: dict[str, ReportDocument] = field(default_factory=dict)
    errors: dict[str, dict[str, Any]] = field(default_factory=dict)
    reported: set[str] = field(default_factory=set)
    # the payload of an item known only by its node id (a crashed worker's)
    identify: Callable[[str, str], DocumentPayload | None] | None = None
    # documents kept before details are compressed: 10k texts hold ~20 MB
    COMPRESS_AFTER: ClassVar[int] = 10_000

    def add_report(
        self,
        nodeid: str,
        when: str,
        outcome: str,
        data: Mapping[str, Any] | None,
        longrepr: str,
        *,
        wasxfail: bool = False,
    ) -> None:
        """Take the setup, call or crash report of an item, with the payload it
        carries (`payload.payload_of`); teardown adds nothing.

        The last report of an item wins: an attempt that a rerun plugin retries
        (outcome `rerun`) is dropped, and a later attempt replaces what an earlier
        one left. An xfail-marked case that fails stays `failed`, with pytest's
        `xfailed` beside it; one that passes stays `passed`, with `xpassed`.
        """
        if when == "teardown" or outcome == RERUN or (when == "setup" and outcome != FAILED):
            return
        self.reported.add(nodeid)
        self.errors.pop(nodeid, None)
        self.documents.pop(nodeid, None)
        if when == "call" and data is not None and data["status"] != ERROR:
            if wasxfail and outcome in (PASSED, "skipped"):  # pytest's word beside ours
                xpassed = outcome == PASSED
                word, said = (PASSED, XPASSED) if xpassed else (FAILED, XFAILED)
                self.documents[nodeid] = ReportDocument.received(
                    nodeid, word, data, said, compress=self._large()
                )
                return
            if outcome in (PASSED, FAILED):
                self.documents[nodeid] = ReportDocument.received(
                    nodeid, outcome, data, compress=self._large()
                )
                return
        if outcome == "skipped":
            return
        if data is None:
            # a worker that crashed, or a failure outside our items' control
            message = last_line(longrepr) or f"item did not finish ({when})"
            self.errors[nodeid] = {"nodeid": nodeid, "message": message}
            crashed = self.identify(nodeid, message) if self.identify else None
            if crashed is not None:
                self.documents[nodeid] = ReportDocument.of(nodeid, ERROR, crashed)
            return
        document = ReportDocument.received(nodeid, ERROR, data)
        self.errors[nodeid] = _error_entry(nodeid, document.payload)
        if document.payload.benchmark is not None:
            self.documents[nodeid] = document

    def _large(self) -> bool:
        return len(self.documents) >= self.COMPRESS_AFTER

    def add_collect_error(self, nodeid: str, longrepr: str) -> None:
        self.errors[f"collect:{nodeid}"] = {
            "nodeid": nodeid,
            "message": last_line(longrepr) or "collection failed",
        }

    def add_document(self, doc: ReportDocument) -> None:
        """A document from a saved report (shard merge)."""
        self.documents[doc.nodeid] = doc
        self.reported.add(doc.nodeid)

    def by_benchmark(self) -> dict[tuple[str, str], list[ReportDocument]]:
        """Documents per (benchmark, model), each list sorted by (case, id)."""
        groups: dict[tuple[str, str], list[ReportDocument]] = {}
        for doc in self.documents.values():
            p = doc.payload
            if p.benchmark is not None and p.model is not None:
                groups.setdefault((p.benchmark, p.model), []).append(doc)
        for docs in groups.values():
            docs.sort(key=lambda d: (d.payload.case, d.payload.id or "", d.nodeid))
        return dict(sorted(groups.items()))

    def missing(self) -> list[dict[str, Any]]:
        rows = [
            {
                "benchmark": d.payload.benchmark,
                "model": d.payload.model,
                "id": d.payload.id,
                "case": d.payload.case,
                "nodeid": d.nodeid,
                "message": d.payload.message,
            }
            for d in self.documents.values()
            if d.payload.status == MISSING
        ]
        return sorted(rows, key=lambda r: (r["case"], r["id"] or "", r["nodeid"]))

    def error_list(self) -> list[dict[str, Any]]:
        return sorted(self.errors.values(), key=lambda e: (e["nodeid"], e.get("line") or 0))


def last_line(text: str) -> str:
    """The last non-blank line of a report's text: in a traceback, the exception
    itself (`E   ValueError: ...`), which says more than where it began."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""


def _error_entry(nodeid: str, payload: DocumentPayload) -> dict[str, Any]:
    entry: dict[str, Any] = {"nodeid": nodeid, "case": payload.case, "message": payload.message}
    if payload.line is not None:
        entry["line"] = payload.line
    if payload.id is not None:
        entry["id"] = payload.id
    return entry


def scored_documents(docs: Iterable[ReportDocument], *, lazy: bool) -> list[ScoredDocument]:
    """What compute() and compare_models() see: every document that has a score,
    read lazily (`ScoredDocuments`, one parsed document at a time) for `lazy`."""
    kept = [d for d in docs if d.outcome != ERROR]
    if lazy:
        return cast(list[ScoredDocument], ScoredDocuments(kept))  # read as a sequence only
    return [d.scored() for d in kept]


def reads_lazily(benchmark: BenchmarkPlugin, method: str) -> bool:
    """Whether `method` may get the lazy sequence: when every definition of it along
    the benchmark's MRO is the plugin's own code (the module its function was compiled
    in: a decorator's `functools.wraps` copies `__module__`, not the globals). A user's
    override anywhere, even one that `super()` reaches from ours, gets the list the
    SDK promises."""
    for klass in type(benchmark).__mro__:
        found = klass.__dict__.get(method)
        if found is None:
            continue
        module = getattr(found, "__globals__", {}).get("__name__", "")
        if not isinstance(module, str) or not module.startswith("pytest_bizbench."):
            return False
    return True


def compute_metrics(
    name: str, benchmark: BenchmarkPlugin | None, docs: Iterable[ReportDocument]
) -> tuple[dict[str, Any], str | None]:
    """The benchmark's compute() over its scored documents (errors left out).

    Returns (metrics, problem); a compute() that raises gives empty metrics and a
    problem the gate reports, instead of a crashed session. Documents with several
    samples add `flip_rate` and `pass_hat_<k>` (and `pass_at_<k>`) where compute()
    did not give them, so every benchmark's repeated runs are measured alike.
    """
    if benchmark is None:
        return {}, f"benchmark {name!r} scored cases but is not registered on the controller"
    docs = list(docs)
    lazy = reads_lazily(benchmark, "compute")
    scored = scored_documents(docs, lazy=lazy)
    try:
        metrics: object = call(benchmark, "compute", scored)
        if not isinstance(metrics, Mapping):
            return (
                {},
                f"benchmark {name!r}: compute() returned {type(metrics).__name__}, not a dict",
            )
        if lazy:  # only a document whose details name "flip" has samples: the rest unparsed
            samples = sample_metrics(
                d.details for d in docs if d.outcome != ERROR and d.has_samples
            )
        else:  # the very documents an override's compute() read (and may have changed)
            samples = sample_metrics(s.details for s in scored)
        return plain(benchmark, "compute", {**samples, **metrics}), None
    except UserCodeError as exc:
        return {}, str(exc)


def metrics_by_benchmark(
    documents: Mapping[tuple[str, str], list[ReportDocument]], registry: Registry
) -> tuple[dict[tuple[str, str], dict[str, Any]], list[str]]:
    results: dict[tuple[str, str], dict[str, Any]] = {}
    problems: list[str] = []
    for (name, model), docs in documents.items():
        metrics, problem = compute_metrics(name, registry.get(name), docs)
        results[name, model] = metrics
        if problem and problem not in problems:  # said once for every model it failed
            problems.append(problem)
    return results, problems


def paired_by_benchmark(
    documents: Mapping[tuple[str, str], list[ReportDocument]],
    metrics: Mapping[tuple[str, str], Mapping[str, Any]],
    registry: Registry,
    models: Sequence[str],
) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Each later model against the first one given (A), per benchmark: `"<B>-vs-<A>"`."""
    paired: dict[str, dict[str, Any]] = {}
    problems: list[str] = []
    for name in sorted({name for name, _ in documents}):
        benchmark = registry.get(name)
        present = [m for m in models if (name, m) in documents]
        if benchmark is None or len(present) < 2:
            continue
        a = present[0]
        lazy = reads_lazily(benchmark, "compare_models")
        a_scored = scored_documents(documents[name, a], lazy=lazy)
        for b in present[1:]:
            b_scored = scored_documents(documents[name, b], lazy=lazy)
            try:
                result = checked(
                    benchmark,
                    "compare_models",
                    metrics[name, a],
                    metrics[name, b],
                    a_scored,
                    b_scored,
                )
            except UserCodeError as exc:
                problems.append(str(exc))
                continue
            paired.setdefault(name, {})[f"{b}-vs-{a}"] = result
    _holm_over_pairs(paired)
    return paired, problems


def _holm_over_pairs(paired: Mapping[str, Mapping[str, Any]]) -> None:
    """`cases.p_holm` and `cases.significant` on every model pair with a sign-flip p:
    like comparisons with a baseline, a pair is significant when its p, adjusted
    over all the run's pairs, is below ALPHA."""
    tested = [
        cases
        for pairs in paired.values()
        for result in pairs.values()
        if isinstance(cases := result.get("cases"), dict) and is_number(cases.get("p_value"))
    ]
    for cases, adjusted in zip(tested, holm([c["p_value"] for c in tested]), strict=True):
        cases["p_holm"] = adjusted
        cases["significant"] = adjusted < ALPHA
