"""The plan pass: which endpoint requests the scoring of the items ahead will make.

A built-in benchmark is pure, so the runtime can score an upcoming item ahead of
time, on the main thread, with rungs that never wait: a request whose reply is in
is answered, one still on its way raises `Pending` (an exception, so the scoring
records that branch as unscored and goes on to the next field or answer), and a
new one is sent first. The result is thrown away; what the pass leaves behind is
requests in flight. The real scoring, later and serial, asks the same requests
and finds their replies. A branch that waited (the judge after an embedding, the
QA judge after the non-answer judge) is planned again once what it waited for is
in, at the next item's start.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from pytest_bizbench.predict.prediction import PredictHook, predict
from pytest_bizbench.predict.sources import Predictions

CHAT = "chat/completions"
EMBEDDINGS = "embeddings"


@dataclass(frozen=True, slots=True)
class Request:
    """One endpoint request, exactly: the body is made from these alone, so two equal
    keys are the same call (and the same cache entry)."""

    path: str  # CHAT or EMBEDDINGS
    model: str
    payload: str | tuple[str, ...]  # the prompt, or the texts to embed


class Pending(Exception):
    """A reply still on its way: the plan pass stops this branch of the scoring here."""


Waits = frozenset[Future[Any]]
LiveHook = Callable[[Any, str], "PredictHook | Future[Any] | None"]
"""(case, model) to the predict callable of an `llm:` answer that is in, the reply's
future while it is on its way, or None for a model answered by files."""


class Planner:
    """The plan state of the items ahead: which were planned, which wait on replies."""

    __slots__ = ("_benchmarks", "_predictions", "_state")

    def __init__(self, predictions: Predictions) -> None:
        self._predictions = predictions
        self._benchmarks: dict[int, object] = {}  # by id; the value keeps the id taken
        # nodeid -> replies its plan waits on (empty: planned to the end)
        self._state: dict[str, Waits] = {}

    def add(self, benchmark: object) -> None:
        self._benchmarks[id(benchmark)] = benchmark

    @property
    def active(self) -> bool:
        return bool(self._benchmarks)

    def forget(self, nodeid: str) -> None:
        """The item runs now: its plan is no longer needed."""
        self._state.pop(nodeid, None)

    def plan(
        self,
        items: Iterable[Any],
        live: LiveHook,
        dry_run: Callable[[Callable[[], object]], Waits],
    ) -> None:
        """Plan each item of a planned benchmark that was not planned yet, or whose
        plan waits on a reply that has come in since."""
        for item in items:
            benchmark = getattr(item, "benchmark", None)
            if id(benchmark) not in self._benchmarks:
                continue
            waits = self._state.get(item.nodeid)
            if waits is not None and not any(future.done() for future in waits):
                continue  # planned to the end (empty), or still waiting
            self._state[item.nodeid] = self._plan_one(item, benchmark, live, dry_run)

    def _plan_one(
        self,
        item: Any,
        benchmark: Any,
        live: LiveHook,
        dry_run: Callable[[Callable[[], object]], Waits],
    ) -> Waits:
        kind = getattr(item.parent, "kind", None)
        case, model = item.case, item.model
        if kind is None:
            return frozenset()
        hook = live(case, model)
        if isinstance(hook, Future):  # the item's own answer is still on its way
            return frozenset({hook})
        try:
            prediction = predict(kind, case, model, self._predictions, hook)
            source = item.parent.nodeid
            documents = [kind.document(case, model, fields, source) for fields in prediction.runs]
        except Exception:  # the real run reports it
            return frozenset()
        if not prediction.found or prediction.error is not None:
            return frozenset()
        return dry_run(lambda: [benchmark.score(document) for document in documents])
