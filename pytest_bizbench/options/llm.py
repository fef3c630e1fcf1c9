"""What the run's endpoint is and how hard to lean on it: the `bizbench_llm_*` ini keys."""

from __future__ import annotations

from dataclasses import dataclass

LLM_PREFIX = "llm:"
INSTALL_HINT = "pip install 'pytest-bizbench[llm]'"
DEFAULT_KEY_ENV = "OPENAI_API_KEY"


@dataclass(frozen=True, slots=True)
class LiveModel:
    """`--bizbench-predictions MODEL=llm:<name>`: MODEL answers through endpoint model <name>."""

    model: str
    endpoint_model: str


@dataclass(frozen=True, slots=True)
class LLMOptions:
    """The endpoint and the models it serves; `needed` when any of them is set.

    `api_key_env` is the *name* of the variable holding the key, never the key: the
    key is read from the environment by the client and kept nowhere else.
    """

    base_url: str | None = None
    api_key_env: str = DEFAULT_KEY_ENV
    judge_model: str | None = None
    embedding_model: str | None = None
    concurrency: int = 8
    timeout: float = 60.0
    retries: int = 4
    backoff: float = 1.0  # seconds before the first retry; doubled each retry
    live: tuple[LiveModel, ...] = ()

    @property
    def needed(self) -> bool:
        return bool(self.judge_model or self.embedding_model or self.live)
