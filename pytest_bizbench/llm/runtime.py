"""The endpoint at work in one process: live answers fetched ahead, the model rungs, the stop.

Live answers (`MODEL=llm:<name>`) are asked before their items run: when an item
starts, the calls for the items this process will run next are submitted to a
thread pool (at most `bizbench_llm_concurrency` in flight), and each item then
waits for its own reply. Serially the items ahead are the session's; under xdist a
worker knows only what it was scheduled, so the items ahead are the ones queued on
it. Each reply belongs to its (model, prompt), never to an order of arrival, so the
report is the same whatever finishes first.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_bizbench.evaluate import TimedPrediction
from pytest_bizbench.llm.options import INSTALL_HINT, LLMOptions
from pytest_bizbench.predcache import PredictionCache
from pytest_bizbench.scoring.judge import Judge

if TYPE_CHECKING:
    from pytest_bizbench.llm.client import ChatReply, LLMClient
    from pytest_bizbench.scoring.ladder import Embedder, JudgeFn  # rapidfuzz: types only

PLUGIN_NAME = "bizbench-llm"
LOOKAHEAD = 2  # items submitted ahead, per call allowed in flight
PromptOf = Callable[[str, Any, Any], str]


class LLMRuntime:
    """The run's endpoint client with its prefetch pool; registered as a plugin."""

    def __init__(self, options: LLMOptions, client: LLMClient) -> None:
        self._options = options
        self._client = client
        self._live = {entry.model: entry.endpoint_model for entry in options.live}
        self._pool = ThreadPoolExecutor(options.concurrency, thread_name_prefix="bizbench-llm")
        self._pending: dict[tuple[str, str], Future[ChatReply]] = {}
        self._positions: dict[str, int] | None = None

    @property
    def auth_failure(self) -> str | None:
        return self._client.auth_failure

    def serves(self, model: str) -> bool:
        return model in self._live

    def answer(self, case: Any, model: str) -> TimedPrediction:
        """The reply to the case's prompt: the prefetched one, or asked now."""
        prompt = getattr(case, "prompt", None)
        if not isinstance(prompt, str):
            raise TypeError(f"an llm: model answers QA rows only, not {type(case).__name__}")
        key = (model, prompt)
        future = self._pending.pop(key, None) or self._submit(key)
        reply = future.result()
        return TimedPrediction({"answer": reply.text}, reply.latency_ms, reply.usage)

    def judge(self, prompt_of: PromptOf) -> JudgeFn | None:
        """The judge rung on the judge model: `prompt_of` builds the prompt,
        `Judge.grade_reply` reads the grade (an unreadable reply raises)."""
        model = self._options.judge_model
        if model is None:
            return None
        chat = self._client.chat

        def judge(field: str, expected: Any, actual: Any) -> float | None:
            return Judge.grade_reply(chat(model, prompt_of(field, expected, actual)).text)

        return judge

    def embedder(self) -> Embedder | None:
        model = self._options.embedding_model
        if model is None:
            return None
        embed = self._client.embed
        return lambda texts: embed(model, texts)

    def stop_if_refused(self, session: pytest.Session) -> None:
        """After a 401/403 no call can succeed: stop the run, saying which variable to fix."""
        if self.auth_failure is not None:
            session.shouldstop = self.auth_failure

    def _submit(self, key: tuple[str, str]) -> Future[ChatReply]:
        model, prompt = key
        return self._pool.submit(self._client.chat, self._live[model], prompt)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None) -> None:
        if not self._live or self.auth_failure is not None:
            return
        window = LOOKAHEAD * self._options.concurrency
        for ahead in islice(self._items_ahead(item, nextitem), window):
            model, case = getattr(ahead, "model", None), getattr(ahead, "case", None)
            prompt = getattr(case, "prompt", None)
            if isinstance(model, str) and self.serves(model) and isinstance(prompt, str):
                key = (model, prompt)
                if key not in self._pending:
                    self._pending[key] = self._submit(key)

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
    config: pytest.Config, options: LLMOptions, cache: Path | None
) -> LLMRuntime | None:
    """The endpoint client when a model needs one; without the `llm` extra, a UsageError."""
    if not options.needed:
        return None
    try:
        from pytest_bizbench.llm.client import LLMClient
    except ImportError:
        raise pytest.UsageError(
            f"a judge, embedding or llm: model is set, which needs the llm extra: {INSTALL_HINT}"
        ) from None
    key = os.environ.get(options.api_key_env) or None
    client = LLMClient(options, key, cache=PredictionCache(cache) if cache else None)
    runtime = LLMRuntime(options, client)
    config.pluginmanager.register(runtime, PLUGIN_NAME)
    return runtime
