"""Fixtures of the test suite."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest
from bizhelpers import Suite
from llmstub import Stub, serve

# numpy's core extension loads once per process: import it now, or an in-process
# pytester run that first imports it drops it from sys.modules on the way out and
# the next `import numpy` (rapidfuzz's cdist) fails.
with contextlib.suppress(ImportError):
    import numpy  # noqa: F401

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
