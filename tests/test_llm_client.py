"""The endpoint client against a real HTTP stub: replies, retries and their waits, secrets."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import pytest
from llmstub import Failure, Stub

from pytest_bizbench.options.llm import LLMOptions
from pytest_bizbench.predict.cache import PredictionCache
from pytest_bizbench.predict.llm.client import (
    LLMAuthError,
    LLMClient,
    LLMError,
    retry_after,
    shown_url,
)

KEY = "sk-test-SECRET-0042"


def make(
    stub: Stub, *, key: str | None = KEY, cache: Path | None = None, **options: Any
) -> tuple[LLMClient, list[float]]:
    """A client of the stub whose waits are recorded, not slept."""
    sleeps: list[float] = []
    settings = LLMOptions(base_url=stub.base_url, api_key_env="BIZBENCH_TEST_KEY", **options)
    made = LLMClient(
        settings, key, cache=PredictionCache(cache) if cache else None, sleep=sleeps.append
    )
    return made, sleeps


def test_chat_reply_usage_and_request(stub: Stub) -> None:
    stub.answers = {"capital of France": "Paris, of course."}
    llm, _ = make(stub)
    reply = llm.chat("stub-model", "What is the capital of France?")
    assert reply.text == "Paris, of course."
    # the stub counts words: 6 in the prompt, 3 in the answer
    assert reply.usage == {"prompt_tokens": 6, "completion_tokens": 3}
    assert reply.latency_ms > 0
    (request,) = stub.requests
    assert request["path"] == "/v1/chat/completions"
    assert request["auth"] == f"Bearer {KEY}"
    assert request["body"] == {
        "model": "stub-model",
        "messages": [{"role": "user", "content": "What is the capital of France?"}],
        "temperature": 0,
    }


def test_embeddings_in_input_order(stub: Stub) -> None:
    stub.vectors = {"a": [1.0, 0.0], "b": [0.0, 2.0]}
    llm, _ = make(stub)
    # the stub lists rows in reverse; the client orders them by index
    assert llm.embed("embedder", ["a", "b"]) == [[1.0, 0.0], [0.0, 2.0]]
    assert stub.requests[0]["body"] == {"model": "embedder", "input": ["a", "b"]}


def test_retries_wait_as_retry_after_says_else_back_off(stub: Stub) -> None:
    stub.failures = [
        Failure("flaky", 429, retry_after="7"),
        Failure("flaky", 503),
        Failure("flaky", 500),
    ]
    llm, sleeps = make(stub, backoff=0.5)
    assert llm.chat("m", "flaky question").text == "I do not know."
    assert len(stub.requests) == 4
    # Retry-After 7 s, then 0.5 * 2**1 and 0.5 * 2**2 without the header
    assert sleeps == [7.0, 1.0, 2.0]


def test_last_retry_fails_with_the_status_and_body(stub: Stub) -> None:
    stub.failures = [Failure("doomed", 502, times=10, body="upstream down")]
    llm, sleeps = make(stub, retries=2, backoff=0.25)
    with pytest.raises(LLMError) as caught:
        llm.chat("m", "doomed question")
    assert str(caught.value) == (
        f"HTTP 502 from {stub.base_url}/chat/completions: upstream down (gave up after 3 attempts)"
    )
    assert len(stub.requests) == 3
    assert sleeps == [0.25, 0.5]


def test_a_client_error_is_not_retried(stub: Stub) -> None:
    stub.failures = [Failure("bad", 400, body="bad request")]
    llm, sleeps = make(stub)
    with pytest.raises(LLMError, match="HTTP 400"):
        llm.chat("m", "bad question")
    assert (len(stub.requests), sleeps) == (1, [])


def test_a_timeout_is_retried(stub: Stub) -> None:
    stub.slow = {"slow": 0.5}
    llm, sleeps = make(stub, timeout=0.05, retries=1, backoff=0.0)
    with pytest.raises(LLMError) as caught:
        llm.chat("m", "slow question")
    assert str(caught.value) == (
        f"no reply from {stub.base_url}/chat/completions within 0.05 s (gave up after 2 attempts)"
    )
    assert (len(stub.requests), sleeps) == (2, [0.0])


def test_a_refused_key_stops_every_later_call(stub: Stub) -> None:
    stub.key = "the-right-key"
    llm, sleeps = make(stub)
    with pytest.raises(LLMAuthError) as caught:
        llm.chat("m", "one")
    message = str(caught.value)
    assert "HTTP 401" in message
    assert "environment variable BIZBENCH_TEST_KEY" in message
    assert KEY not in message
    assert llm.stop_reason == message
    with pytest.raises(LLMAuthError):
        llm.embed("e", ["two"])
    assert (len(stub.requests), sleeps) == (1, [])


def test_no_key_is_sent_when_the_variable_is_unset(stub: Stub) -> None:
    stub.key = "needed"
    llm, _ = make(stub, key=None)
    with pytest.raises(LLMAuthError, match=r"BIZBENCH_TEST_KEY .* is not set"):
        llm.chat("m", "q")
    assert stub.requests[0]["auth"] == ""


def test_the_key_never_shows(stub: Stub) -> None:
    stub.echo_auth = True  # a server that quotes the header back in its error body
    stub.failures = [Failure("q", 500, times=5)]
    llm, _ = make(stub, retries=0)
    with pytest.raises(LLMError) as caught:
        llm.chat("m", "q")
    assert "Bearer ***" in str(caught.value)
    assert KEY not in str(caught.value)
    assert KEY not in repr(llm)
    assert repr(llm) == f"LLMClient({stub.base_url!r})"


def test_the_cache_answers_a_second_client(stub: Stub, tmp_path: Path) -> None:
    stub.answers = {"q": "forty-two"}
    first, _ = make(stub, cache=tmp_path)
    reply = first.chat("m", "q")
    assert first.embed("e", ["x"]) == [[0.0, 0.0, 1.0]]
    assert len(stub.requests) == 2
    second, _ = make(stub, cache=tmp_path)
    again = second.chat("m", "q")
    assert (again.text, again.usage, again.latency_ms) == (
        reply.text,
        reply.usage,
        reply.latency_ms,
    )
    assert second.embed("e", ["x"]) == [[0.0, 0.0, 1.0]]
    assert len(stub.requests) == 2  # no new request
    # another prompt or model is another entry
    second.chat("m2", "q")
    assert len(stub.requests) == 3
    for path in tmp_path.iterdir():
        assert KEY not in path.read_text(encoding="utf-8")


def test_retry_after_header_forms() -> None:
    now = datetime(2026, 1, 1, tzinfo=timezone.utc)
    later = format_datetime(now + timedelta(seconds=30), usegmt=True)
    assert retry_after(later, now.timestamp()) == 30.0
    assert retry_after("2.5", 0.0) == 2.5
    assert retry_after("-3", 0.0) == 0.0
    assert retry_after("soon", 0.0) is None
    assert retry_after(None, 0.0) is None


def test_shown_url_drops_credentials() -> None:
    assert shown_url("https://user:pw@host:8443/v1/x?key=s") == "https://host:8443/v1/x"
