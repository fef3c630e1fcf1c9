"""The endpoint at work in one process: calls fetched ahead, the model rungs, the stop.

Every call goes through one table of requests in flight, keyed by the exact
request (`prefetch.Request`). When an item starts, the calls of the items this
process will run next are sent to a thread pool (at most
`bizbench_llm_concurrency` in flight): the live answers (`MODEL=llm:<name>`), and
for the built-ins that score with the endpoint's judge and embedding models, the
requests their scoring will make (`prefetch.Planner`). Each item is then scored on
the main thread as before, and each call it makes takes its reply from the table,
or asks now. Serially the items ahead are the session's; under xdist a worker
knows only what it was scheduled, so the items ahead are the ones queued on it.
A reply belongs to its request, never to an order of arrival, so the report is
the same whatever finishes first.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import suppress
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_bizbench.options.llm import INSTALL_HINT, LLMOptions
from pytest_bizbench.predict.cache import PredictionCache
from pytest_bizbench.predict.llm.prefetch import CHAT, EMBEDDINGS, Pending, Planner, Request, Waits
from pytest_bizbench.predict.prediction import PredictHook, TimedPrediction
from pytest_bizbench.predict.sources import Predictions
from pytest_bizbench.scoring.judge import Judge

if TYPE_CHECKING:
    from pytest_bizbench.predict.llm.client import ChatReply, LLMClient
    from pytest_bizbench.scoring.ladder import Embedder, JudgeFn  # rapidfuzz: types only

PLUGIN_NAME = "bizbench-llm"
LOOKAHEAD = 2  # items submitted ahead, per call allowed in flight
PromptOf = Callable[[str, Any, Any], str]


class LLMRuntime:
    """The run's endpoint client with its prefetch pool; registered as a plugin."""

    def __init__(self, options: LLMOptions, client: LLMClient, predictions: Predictions) -> None:
        self._options = options
        self._client = client
        self._live = {entry.model: entry.endpoint_model for entry in options.live}
        self._pool = ThreadPoolExecutor(options.concurrency, thread_name_prefix="bizbench-llm")
        self._inflight: dict[Request, Future[Any]] = {}
        self._planner = Planner(predictions)
        self._planning = threading.local()  # `waits` set while a plan pass scores
        self._positions: dict[str, int] | None = None

    @property
    def stop_reason(self) -> str | None:
        return self._client.stop_reason

    def serves(self, model: str) -> bool:
        return model in self._live

    def prefetch_for(self, benchmark: object) -> None:
        """Plan the endpoint calls of this built-in's items ahead (its model rungs are
        this runtime's, and its scoring pure)."""
        self._planner.add(benchmark)

    def answer(self, case: Any, model: str) -> TimedPrediction:
        """The reply to the case's prompt: the prefetched one, or asked now."""
        reply: ChatReply = self._ask(self._live_request(case, model))
        return TimedPrediction({"answer": reply.text}, reply.latency_ms, reply.usage)

    def judge(self, prompt_of: PromptOf) -> JudgeFn | None:
        """The judge rung on the judge model: `prompt_of` builds the prompt,
        `Judge.grade_reply` reads the grade (an unreadable reply raises)."""
        model = self._options.judge_model
        if model is None:
            return None

        def judge(field: str, expected: Any, actual: Any) -> float | None:
            reply: ChatReply = self._ask(Request(CHAT, model, prompt_of(field, expected, actual)))
            return Judge.grade_reply(reply.text)

        return judge

    def embedder(self) -> Embedder | None:
        model = self._options.embedding_model
        if model is None:
            return None

        def embed(texts: list[str]) -> list[list[float]]:
            vectors: list[list[float]] = self._ask(Request(EMBEDDINGS, model, tuple(texts)))
            return vectors

        return embed

    def stop_if_refused(self, session: pytest.Session) -> None:
        """After a 401/403, or an endpoint never reached, no call can succeed: stop the
        run, saying what to fix."""
        if self.stop_reason is not None:
            session.shouldstop = self.stop_reason

    def _live_request(self, case: Any, model: str) -> Request:
        prompt = getattr(case, "prompt", None)
        if not isinstance(prompt, str):
            raise TypeError(f"an llm: model answers QA rows only, not {type(case).__name__}")
        return Request(CHAT, self._live[model], prompt)

    def _fetch(self, request: Request) -> Any:
        if request.path == EMBEDDINGS:
            return self._client.embed(request.model, list(request.payload))
        assert isinstance(request.payload, str)
        return self._client.chat(request.model, request.payload)

    def _submit(self, request: Request) -> Future[Any]:
        future = self._inflight.get(request)
        if future is None:
            future = self._inflight[request] = self._pool.submit(self._fetch, request)
        return future

    def _ask(self, request: Request) -> Any:
        """The reply to `request`: its prefetched future's (whose error raises here, as
        the call would), else asked now. In a plan pass it never waits: a reply not
        in yet raises `Pending`, after sending the request if it was not sent."""
        waits: set[Future[Any]] | None = getattr(self._planning, "waits", None)
        if waits is None:
            future = self._inflight.pop(request, None)
            return self._fetch(request) if future is None else future.result()
        future = self._submit(request)
        if not future.done():
            waits.add(future)
            raise Pending(request.path)
        return future.result()

    def _dry_run(self, score: Callable[[], object]) -> Waits:
        """Run `score` as a plan pass; the replies it waited on."""
        waits: set[Future[Any]] = set()
        self._planning.waits = waits
        try:
            with suppress(Exception):  # the real scoring reports what went wrong
                score()
        finally:
            del self._planning.waits
        return frozenset(waits)

    def _asks_live(self, case: Any, model: str) -> bool:
        """Whether `model` answers `case` live: an `llm:` model and a QA row's prompt."""
        return self.serves(model) and isinstance(getattr(case, "prompt", None), str)

    def _live_hook(self, case: Any, model: str) -> PredictHook | Future[Any] | None:
        """For the plan pass: an `llm:` answer that is in as a predict callable (its
        future stays for the item), the future while it is not; None for no answer."""
        if not self._asks_live(case, model):
            return None
        future = self._inflight.get(self._live_request(case, model))
        if future is None or not future.done():
            return future
        if future.exception() is not None:
            return None
        reply: ChatReply = future.result()
        return lambda _case, _model: TimedPrediction({"answer": reply.text}, reply.latency_ms)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None) -> None:
        if (not self._live and not self._planner.active) or self.stop_reason is not None:
            return
        window = list(
            islice(self._items_ahead(item, nextitem), LOOKAHEAD * self._options.concurrency)
        )
        for ahead in window:
            model = getattr(ahead, "model", None)
            if not (isinstance(model, str) and self.serves(model)):
                continue  # read no case (it is unpickled on each read) for other models
            case = getattr(ahead, "case", None)
            if self._asks_live(case, model):
                self._submit(self._live_request(case, model))
        if self._planner.active:
            self._planner.plan(window, self._live_hook, self._dry_run)
            self._planner.forget(item.nodeid)  # it runs now

    def _items_ahead(
        self, item: pytest.Item, nextitem: pytest.Item | None
    ) -> Iterator[pytest.Item]:
        """This item and those this process runs after it, in order."""
        session = item.session
        queue = _xdist_queue(item.config)
        if queue is not None:
            yield item
            if nextitem is not None:
                yield nextitem
            yield from (session.items[i] for i in queue if isinstance(i, int))
            return
        if self._positions is None:
            self._positions = {each.nodeid: i for i, each in enumerate(session.items)}
        start = self._positions.get(item.nodeid)
        if start is None:
            yield item
            return
        yield from islice(session.items, start, None)

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._client.close()
        config.pluginmanager.unregister(self)


def _xdist_queue(config: pytest.Config) -> list[object] | None:
    """A snapshot of the item indices queued on this xdist worker; None when serial.

    pytest-xdist keeps them on its worker plugin (`torun`, locked by `lock()`); that
    is not a public interface, so when it is not found the lookahead is the next item.
    """
    if not hasattr(config, "workerinput"):
        return None
    for plugin in config.pluginmanager.get_plugins():
        torun = getattr(plugin, "torun", None)
        lock = getattr(torun, "lock", None)
        if callable(lock):
            with lock() as queued:
                return list(queued)
    return []


def open_runtime(
    config: pytest.Config,
    options: LLMOptions,
    cache: Path | None,
    predictions: Predictions,
) -> LLMRuntime | None:
    """The endpoint client when a model needs one; without the `llm` extra, a UsageError."""
    if not options.needed:
        return None
    try:
        from pytest_bizbench.predict.llm.client import LLMClient
    except ImportError:
        raise pytest.UsageError(
            f"a judge, embedding or llm: model is set, which needs the llm extra: {INSTALL_HINT}"
        ) from None
    key = os.environ.get(options.api_key_env) or None
    client = LLMClient(options, key, cache=PredictionCache(cache) if cache else None)
    runtime = LLMRuntime(options, client, predictions)
    config.pluginmanager.register(runtime, PLUGIN_NAME)
    return runtime
