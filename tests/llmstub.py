"""A small OpenAI-compatible server on 127.0.0.1 for the client's tests.

Real HTTP, so the tests see what users see: `/v1/chat/completions` answers from a
table of prompt substrings, `/v1/embeddings` gives fixed vectors, and scripted
failures (429 with Retry-After, 5xx, slow replies, a key check giving 401) are
served in order. It counts requests and the most it had in flight at once.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

DEFAULT_ANSWER = "I do not know."


@dataclass
class Failure:
    """Served instead of a reply to a request whose text holds `match`, `times` times."""

    match: str
    status: int
    times: int = 1
    retry_after: str | None = None
    body: str = "stub failure"


@dataclass
class Stub:
    """The server's script and what it saw; change the script between runs."""

    answers: dict[str, str] = field(default_factory=dict)  # prompt substring -> answer
    vectors: dict[str, list[float]] = field(default_factory=dict)  # text -> vector
    failures: list[Failure] = field(default_factory=list)
    latency: float = 0.0  # seconds before each reply
    slow: dict[str, float] = field(default_factory=dict)  # prompt substring -> seconds
    key: str | None = None  # when set, any other bearer token gets 401
    echo_auth: bool = False  # put the Authorization header in failure bodies (a leak test)
    quote_auth: bool = False  # ... and in every chat answer (a 200 reply)
    trickle: float = 0.0  # seconds between the bytes of a 200 reply, sent one at a time
    # with trickle: the status line and headers too, padded to take a minute at 0.25 s
    trickle_head: bool = False
    raw: str | None = None  # the body of every 200 reply, as it is
    requests: list[dict[str, Any]] = field(default_factory=list)
    in_flight: int = 0
    max_in_flight: int = 0
    base_url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def paths(self) -> list[str]:
        return [r["path"] for r in self.requests]

    def prompts(self) -> list[str]:
        return [
            r["body"]["messages"][0]["content"] for r in self.requests if "messages" in r["body"]
        ]

    def span(self) -> float:
        """Seconds from the first request in to the last reply out."""
        if not self.requests:
            return 0.0
        return max(r["end"] for r in self.requests) - min(r["start"] for r in self.requests)

    def reset_counts(self) -> None:
        with self.lock:
            self.requests.clear()
            self.max_in_flight = 0

    def _failure(self, text: str) -> Failure | None:
        with self.lock:
            for failure in self.failures:
                if failure.match in text and failure.times > 0:
                    failure.times -= 1
                    return failure
        return None

    def answer(self, prompt: str) -> str:
        return next((a for key, a in self.answers.items() if key in prompt), DEFAULT_ANSWER)

    def vector(self, text: str) -> list[float]:
        return self.vectors.get(text, [0.0, 0.0, 1.0])


def _handler(stub: Stub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def handle(self) -> None:
            # a client that timed out has gone: its reply has nowhere to go
            with suppress(ConnectionError):
                super().handle()

        def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
            if status == 200 and stub.raw is not None:
                payload = stub.raw
            data = (payload if isinstance(payload, str) else json.dumps(payload)).encode()
            if status == 200 and stub.trickle and stub.trickle_head:
                head = (
                    f"HTTP/1.1 200 OK\r\nX-Padding: {'x' * 200}\r\n"
                    f"Content-Length: {len(data)}\r\n\r\n"
                ).encode()
                for byte in head + data:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(stub.trickle)
                return
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            if status != 200 or not stub.trickle:
                self.wfile.write(data)
                return
            for byte in data:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(stub.trickle)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            auth = self.headers.get("Authorization", "")
            record = {"path": self.path, "body": body, "auth": auth, "start": time.monotonic()}
            with stub.lock:
                stub.requests.append(record)
                stub.in_flight += 1
                stub.max_in_flight = max(stub.max_in_flight, stub.in_flight)
            try:
                reply = self._reply(body, auth)
            finally:
                # counted out before the reply is sent, so a client that has its reply
                # (and may send the next request) is never still counted in flight
                with stub.lock:
                    stub.in_flight -= 1
                    record["end"] = time.monotonic()
            self._send(*reply)

        def _reply(self, body: dict[str, Any], auth: str) -> tuple[int, Any, dict[str, str]]:
            """(status, payload, headers) of the reply."""
            text = json.dumps(body)
            delay = stub.latency + next((s for k, s in stub.slow.items() if k in text), 0.0)
            if delay:
                time.sleep(delay)
            if stub.key is not None and auth != f"Bearer {stub.key}":
                return 401, {"error": {"message": f"bad key {auth}"}}, {}
            failure = stub._failure(text)
            if failure is not None:
                extra = f" {auth}" if stub.echo_auth else ""
                headers = {"Retry-After": failure.retry_after} if failure.retry_after else {}
                return failure.status, failure.body + extra, headers
            if self.path == "/v1/chat/completions":
                prompt = body["messages"][0]["content"]
                answer = stub.answer(prompt) + (
                    f" (Authorization: {auth})" if stub.quote_auth else ""
                )
                usage = {
                    "prompt_tokens": len(prompt.split()),
                    "completion_tokens": len(answer.split()),
                    "total_tokens": len(prompt.split()) + len(answer.split()),
                }
                message = {"role": "assistant", "content": answer}
                return 200, {"choices": [{"index": 0, "message": message}], "usage": usage}, {}
            if self.path == "/v1/embeddings":
                rows = [
                    {"index": i, "embedding": stub.vector(t)} for i, t in enumerate(body["input"])
                ]
                return 200, {"data": rows[::-1]}, {}  # out of order: the index decides
            return 404, {"error": "no such path"}, {}

    return Handler


@contextmanager
def serve(stub: Stub) -> Iterator[Stub]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(stub))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    stub.base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        yield stub
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
