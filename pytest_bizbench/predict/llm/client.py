"""HTTP calls to an OpenAI-compatible endpoint: retries, backoff, the key kept secret.

Built on httpx (the `llm` extra): one thread-safe connection pool per process, real
timeouts, and no SDK between us and the two JSON shapes we use
(`/chat/completions`, `/embeddings`), so vLLM, Ollama, llama.cpp server and TEI
answer the same way as OpenAI. A semaphore keeps at most `concurrency` requests in
flight per process, whichever thread asks (prefetched answers, judge, embeddings).
"""

from __future__ import annotations

import base64
import email.utils
import hashlib
import json
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timezone
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

import httpcore
import httpx

from pytest_bizbench.options.llm import LLMOptions
from pytest_bizbench.predict.cache import PredictionCache

MAX_WAIT = 60.0  # seconds: no Retry-After or backoff waits longer than this
RETRIED = frozenset({408, 409, 429})  # and every 5xx
_BODY_SHOWN = 200
MIN_SECRET = 4  # a shorter credential is not blotted out of replies: it would mangle them


class LLMError(Exception):
    """A call that failed for good: the item that needed it fails with this message."""


class LLMStop(LLMError):
    """No later call can succeed: the run stops with this one message."""


class LLMAuthError(LLMStop):
    """The endpoint refused the key (401/403)."""


class LLMUnreachable(LLMStop):
    """The endpoint could not be reached (refused, DNS, TLS) before any call succeeded:
    a wrong base URL or a server that is down, which retrying every call only hides."""


class _Deadline(Exception):
    """A call ran past `bizbench_llm_timeout` as a whole."""


@dataclass(frozen=True, slots=True)
class ChatReply:
    text: str
    usage: dict[str, int] | None
    latency_ms: float


def shown_url(url: str) -> str:
    """The URL without user info or query, which may hold credentials."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def secrets_of(base_url: str, key: str | None) -> tuple[str, ...]:
    """Every form of a credential a server may quote back: the key, and the URL's
    user info (as written, decoded, and as the Basic authorization it is sent as)."""
    parts = urlsplit(base_url)
    found = [key or ""]
    if parts.password:
        user, password = unquote(parts.username or ""), unquote(parts.password)
        basic = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
        found += [parts.password, password, f"{user}:{password}", basic]
    # longest first, so no part of a longer secret survives a shorter one's replacing
    return tuple(sorted({s for s in found if len(s) >= MIN_SECRET}, key=len, reverse=True))


def retry_after(value: str | None, now: float) -> float | None:
    """Seconds a `Retry-After` header asks for (delta seconds or an HTTP date)."""
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        seconds = when.timestamp() - now
    return max(0.0, seconds) if math.isfinite(seconds) else None


class LLMClient:
    """Chat and embedding calls to one endpoint, each retried and optionally cached.

    Replies are cached (with `bizbench_prediction_cache`) keyed by the URL and the
    request body, which holds the model and the prompt but never the key, so a
    second identical run makes no request.
    """

    __slots__ = (
        "_cache",
        "_http",
        "_key",
        "_options",
        "_reached",
        "_secrets",
        "_sleep",
        "_slots",
        "_stop",
    )

    def __init__(
        self,
        options: LLMOptions,
        key: str | None,
        *,
        cache: PredictionCache | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        assert options.base_url is not None, "settings require a base URL with a model"
        self._options = options
        self._key = key
        self._cache = cache
        self._sleep = sleep
        self._slots = threading.BoundedSemaphore(options.concurrency)
        self._stop: LLMStop | None = None
        self._reached = False  # whether a call has had a reply (then a connect error is retried)
        self._secrets = secrets_of(options.base_url, key)
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        limit = options.concurrency
        self._http = httpx.Client(
            base_url=options.base_url.rstrip("/") + "/",
            headers=headers,
            timeout=options.timeout,
            limits=httpx.Limits(max_connections=limit, max_keepalive_connections=limit),
            trust_env=False,
        )

    def __repr__(self) -> str:
        return f"LLMClient({shown_url(self._options.base_url or '')!r})"

    @property
    def stop_reason(self) -> str | None:
        """Why this client stopped (a 401/403, an endpoint never reached), if it did."""
        return None if self._stop is None else str(self._stop)

    def scrub(self, text: str) -> str:
        """Text from the endpoint with every credential blotted out (`***`)."""
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text

    def _scrubbed(self, value: Any) -> Any:
        """A parsed reply with every credential blotted out of its strings, before it
        is cached, scored, reported or shown."""
        if isinstance(value, str):
            return self.scrub(value)
        if isinstance(value, list):
            return [self._scrubbed(v) for v in value]
        if isinstance(value, dict):
            return {self.scrub(k): self._scrubbed(v) for k, v in value.items()}
        return value

    def close(self) -> None:
        self._http.close()

    def chat(self, model: str, prompt: str) -> ChatReply:
        """The model's reply to one user message (temperature 0), with its token usage."""
        body = {
            "model": model,
            "messages": [{"role": "user", "content": prompt}],
            "temperature": 0,
        }
        data, latency = self._post("chat/completions", body)
        try:
            text = data["choices"][0]["message"]["content"]
            if not isinstance(text, str):
                raise TypeError("content is not a string")
        except (KeyError, IndexError, TypeError) as exc:
            raise LLMError(f"chat reply from model {model!r} has no message text ({exc})") from None
        return ChatReply(text, _usage(data.get("usage")), latency)

    def embed(self, model: str, texts: list[str]) -> list[list[float]]:
        """One vector per text, in the order given."""
        data, _ = self._post("embeddings", {"model": model, "input": texts})
        try:
            rows = sorted(data["data"], key=lambda row: int(row["index"]))
            vectors = [[float(x) for x in row["embedding"]] for row in rows]
        except (KeyError, TypeError, ValueError, OverflowError) as exc:
            raise LLMError(f"embedding reply from model {model!r} is malformed ({exc})") from None
        if not all(math.isfinite(x) for vector in vectors for x in vector):
            raise LLMError(
                f"embedding reply from model {model!r} holds a value that is not a finite number"
            )
        if len(vectors) != len(texts):
            raise LLMError(
                f"model {model!r} returned {len(vectors)} vectors for {len(texts)} texts"
            )
        return vectors

    def _post(self, path: str, body: dict[str, Any]) -> tuple[dict[str, Any], float]:
        """(JSON reply, latency in ms of the attempt that answered), from the cache if there."""
        url = str(self._http.base_url.join(path))
        text = json.dumps(body, sort_keys=True, ensure_ascii=False)
        key = hashlib.sha256(f"{url}\n{text}".encode()).hexdigest()
        cache_model = f"llm:{body['model']}"
        if self._cache is not None:
            cached = self._cache.get(cache_model, key)
            if cached is not None and isinstance(cached.prediction, dict):
                return cached.prediction, cached.latency_ms or 0.0
        data, latency = self._send(path, url, text)
        if self._cache is not None:
            self._cache.put(cache_model, path, key, data, latency)
        return data, latency

    def _send(self, path: str, url: str, text: str) -> tuple[dict[str, Any], float]:
        where = shown_url(url)
        attempts = self._options.retries + 1
        for attempt in range(attempts):
            wait: float | None = None
            with self._slots:
                # checked once a slot is ours: a call queued behind the one that
                # stopped the client must not be sent after it
                if self._stop is not None:
                    raise type(self._stop)(str(self._stop))
                start = time.perf_counter()
                try:
                    status, headers, body = self._exchange(path, text, start)
                    latency = (time.perf_counter() - start) * 1000.0
                    self._reached = True
                    problem = self._problem(status, body, where)
                # httpx maps httpcore's errors, except those raised while it closes a
                # failed response (seen under load), so both kinds are caught
                except (httpx.TimeoutException, httpcore.TimeoutException, _Deadline):
                    problem = f"no reply from {where} within {self._options.timeout:g} s"
                except (httpx.ConnectError, httpcore.ConnectError) as exc:
                    problem = f"cannot reach {where}: {type(exc).__name__}"
                    if not self._reached:
                        self._stop = LLMUnreachable(
                            f"cannot reach the endpoint {shown_url(self._options.base_url or '')}"
                            f" ({type(exc).__name__}) and no call to it has succeeded: check "
                            "ini bizbench_llm_base_url and that the server is up"
                        )
                        raise self._stop from None
                except (httpx.TransportError, httpcore.NetworkError, httpcore.ProtocolError) as exc:
                    problem = f"cannot reach {where}: {type(exc).__name__}"
                else:
                    if problem is None:
                        return self._json(body, where), latency
                    if status not in RETRIED and status < 500:
                        raise LLMError(problem)
                    wait = retry_after(headers.get("Retry-After"), time.time())
            if attempt + 1 < attempts:
                backoff = self._options.backoff * 2**attempt
                self._sleep(min(MAX_WAIT, backoff if wait is None else wait))
        tries = f"{attempts} attempts" if attempts > 1 else "1 attempt"
        raise LLMError(f"{problem} (gave up after {tries})")

    def _exchange(self, path: str, text: str, start: float) -> tuple[int, httpx.Headers, str]:
        """(status, headers, body) of one request, the whole call bounded by the
        timeout: httpx bounds each read alone, and a server sending a byte at a time
        would otherwise never be cut off.

        httpcore reads the status line and headers before the reply is ours to read,
        so the request runs in a thread of its own and is given up at the deadline
        whatever it waits on; the abandoned thread ends with its connection (a daemon,
        it never holds up the process's exit).
        """
        outcome: list[tuple[int, httpx.Headers, str] | BaseException] = []
        done = threading.Event()

        def run() -> None:
            try:
                outcome.append(self._read(path, text, start))
            except BaseException as exc:  # handed to the caller's thread
                outcome.append(exc)
            finally:
                done.set()

        threading.Thread(target=run, name="bizbench-llm-call", daemon=True).start()
        if not done.wait(max(0.0, start + self._options.timeout - time.perf_counter())):
            raise _Deadline
        result = outcome[0]
        if isinstance(result, BaseException):
            raise result
        return result

    def _read(self, path: str, text: str, start: float) -> tuple[int, httpx.Headers, str]:
        """One request, its body read up to the call's deadline: a call given up by
        `_exchange` stops reading then too, and frees its connection for the next."""
        deadline = start + self._options.timeout
        headers = {"Content-Type": "application/json"}
        with self._http.stream("POST", path, content=text, headers=headers) as response:
            chunks = []
            for chunk in response.iter_bytes():
                chunks.append(chunk)
                if time.perf_counter() > deadline:
                    raise _Deadline
            body = b"".join(chunks).decode(response.encoding or "utf-8", errors="replace")
            return response.status_code, response.headers, body

    def _problem(self, status: int, body: str, where: str) -> str | None:
        """None for a success, else what went wrong, with every credential blotted out."""
        if status < 400:
            return None
        if status in (401, 403):
            env = self._options.api_key_env
            state = "holds a key it refused" if self._key else "is not set"
            self._stop = LLMAuthError(
                f"the endpoint {where} answered HTTP {status}: the API key is missing or "
                f"wrong; the environment variable {env} (ini bizbench_llm_api_key_env) {state}"
            )
            raise self._stop
        # scrubbed before cutting, so no part of a credential survives the cut
        return f"HTTP {status} from {where}: {self.scrub(body)[:_BODY_SHOWN].strip()}"

    def _json(self, body: str, where: str) -> dict[str, Any]:
        try:
            data = json.loads(body)
        except RecursionError:
            raise LLMError(f"reply from {where} is nested deeper than JSON can be read") from None
        except ValueError:
            raise LLMError(f"reply from {where} is not JSON") from None
        if not isinstance(data, dict):
            raise LLMError(f"reply from {where} is not a JSON object")
        return dict(self._scrubbed(data))


def _usage(raw: Any) -> dict[str, int] | None:
    """`{prompt_tokens, completion_tokens}` when the endpoint reported them."""
    if not isinstance(raw, dict):
        return None
    usage = {
        key: raw[key]
        for key in ("prompt_tokens", "completion_tokens")
        if isinstance(raw.get(key), int) and not isinstance(raw.get(key), bool)
    }
    return usage or None
