"""Fixtures of the test suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from bizhelpers import Suite
from llmstub import Stub, serve

# Case files that tests read as data, not cases of this repository's own run.
collect_ignore = ["data"]


@pytest.fixture
def suite(pytester: pytest.Pytester) -> Suite:
    return Suite(pytester)


@pytest.fixture
def stub() -> Iterator[Stub]:
    """A fresh OpenAI-compatible stub server on 127.0.0.1 (see `llmstub`)."""
    with serve(Stub()) as running:
        yield running
