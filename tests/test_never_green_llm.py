"""An endpoint that is down, slow, leaky or wrong never makes a run look healthy:
every call has one deadline, a dead endpoint stops the run at once, credentials
never reach a file or an output, and a broken vector or reply is an error."""

from __future__ import annotations

import base64
import json
import secrets
import socket
from pathlib import Path

import pytest
from bizhelpers import Suite, doc, jsonl
from llmstub import Stub

ENV = "BIZBENCH_TEST_KEY"
LIVE = ("--bizbench-predictions", "gpt=llm:stub-chat")


def questions(n: int) -> list[dict[str, str]]:
    return [{"id": f"q{i:02d}", "question": f"Question {i}?", "expected": "yes"} for i in range(n)]


def write_ini(suite: Suite, base_url: str, **extra: str) -> None:
    keys = {"bizbench_llm_base_url": base_url, "bizbench_llm_api_key_env": ENV, **extra}
    suite.write("pytest.ini", "[pytest]\n" + "".join(f"{k} = {v}\n" for k, v in keys.items()))


def closed_port() -> int:
    """A port on 127.0.0.1 nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@pytest.mark.parametrize("head", [False, True], ids=["body", "status-and-headers"])
def test_a_reply_trickling_in_is_cut_at_the_timeout(suite: Suite, stub: Stub, head: bool) -> None:
    suite.write("q.qa.jsonl", jsonl(questions(1)))
    write_ini(suite, stub.base_url, bizbench_llm_timeout="1", bizbench_llm_retries="0")
    stub.trickle = 0.25  # one byte every 0.25 s: every read is quick, the call is not
    stub.trickle_head = head  # the status line and headers come before the body is ours
    # a call not cut at the deadline would take a minute: the guard ends the test first
    result = suite.pytester.runpytest_subprocess("-p", "no:cacheprovider", *LIVE, timeout=30)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert len(stub.requests) == 1  # not retried: a call past the deadline is cut
    details = suite.documents("qa-answer", "gpt")["q00"]["details"]
    assert details["error"] == (
        f"LLMError: no reply from {stub.base_url}/chat/completions within 1 s "
        "(gave up after 1 attempt)"
    )


@pytest.mark.parametrize("workers", [0, 2])
def test_an_endpoint_never_reached_stops_the_run_without_retrying(
    suite: Suite, workers: int
) -> None:
    base = f"http://127.0.0.1:{closed_port()}/v1"
    suite.write("q.qa.jsonl", jsonl(questions(10)))
    write_ini(suite, base, bizbench_llm_retries="4", bizbench_llm_backoff="30")
    run = suite.pytester.runpytest_subprocess if workers else suite.pytester.runpytest
    result = run("-p", "no:cacheprovider", *LIVE, *(["-n", "2"] if workers else []))
    assert result.ret == pytest.ExitCode.INTERRUPTED
    message = (
        f"cannot reach the endpoint {base} (ConnectError) and no call to it has succeeded: "
        "check ini bizbench_llm_base_url and that the server is up"
    )
    result.stdout.fnmatch_lines([f"*Interrupted: {message}*"])
    errors = {d["details"].get("error") for d in suite.documents("qa-answer", "gpt").values()}
    assert errors <= {f"LLMUnreachable: {message}", None}  # None: not run, or missing
    assert "gave up after" not in result.stdout.str()  # no call was retried


@pytest.mark.parametrize("userinfo", [False, True])
def test_credentials_quoted_back_reach_no_file(
    suite: Suite, stub: Stub, monkeypatch: pytest.MonkeyPatch, userinfo: bool
) -> None:
    key, password = f"sk-{secrets.token_hex(16)}", secrets.token_hex(12)
    monkeypatch.setenv(ENV, key)
    # credentials in the URL are sent as Basic authorization, in place of the key
    base = (
        stub.base_url.replace("http://", f"http://bob:{password}@") if userinfo else stub.base_url
    )
    basic = base64.b64encode(f"bob:{password}".encode()).decode()
    suite.write("q.qa.jsonl", jsonl(questions(2)))
    write_ini(suite, base, bizbench_prediction_cache=".cache", bizbench_llm_retries="0")
    stub.quote_auth = True  # every answer quotes the Authorization header back
    result = suite.pytester.runpytest("-p", "no:cacheprovider", "-v", "--junitxml=j.xml", *LIVE)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    sent = f"Basic {basic}" if userinfo else f"Bearer {key}"
    assert stub.requests[0]["auth"] == sent
    answer = suite.documents("qa-answer", "gpt")["q00"]["details"]["answer"]["actual"]
    assert answer == f"I do not know. (Authorization: {sent.split(maxsplit=1)[0]} ***)"
    written = [p for p in Path(suite.path).rglob("*") if p.is_file() and p.name != "pytest.ini"]
    assert any(".cache" in p.parts for p in written)
    shown = result.stdout.str() + result.stderr.str()
    for secret in (key, password, basic):
        assert secret not in shown
        for path in written:
            assert secret.encode() not in path.read_bytes(), path


def test_a_non_finite_vector_is_the_fields_error_never_a_match(suite: Suite, stub: Stub) -> None:
    write_ini(suite, stub.base_url, bizbench_embedding_model="stub-embed")
    stub.vectors = {"Acme Corporation": [float("nan"), 1.0], "Zebra Holdings Ltd": [0.0, 1.0]}
    case = doc("inv-1", {"vendor": "Acme Corporation"})
    suite.cases("a.ground-truth.jsonl", [case])
    suite.write("p.json", json.dumps({"inv-1": {"vendor": "Zebra Holdings Ltd"}}))
    result = suite.pytester.runpytest("-p", "no:cacheprovider", "--bizbench-predictions", "p.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    vendor = suite.documents()["inv-1"]["details"]["vendor"]
    assert vendor["score"] == 0.0
    assert vendor["rung"] == "embedding"
    assert vendor["unscored"] is True
    assert "not a finite number" in vendor["reason"]


def test_a_reply_nested_past_the_json_limit_is_a_clear_error(suite: Suite, stub: Stub) -> None:
    suite.write("q.qa.jsonl", jsonl(questions(1)))
    write_ini(suite, stub.base_url, bizbench_llm_retries="0")
    stub.raw = '{"a":' * 200_000 + "1" + "}" * 200_000
    result = suite.pytester.runpytest("-p", "no:cacheprovider", *LIVE)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert "RecursionError" not in result.stdout.str()
    details = suite.documents("qa-answer", "gpt")["q00"]["details"]
    assert details["error"] == (
        f"LLMError: reply from {stub.base_url}/chat/completions is nested deeper than JSON "
        "can be read"
    )
