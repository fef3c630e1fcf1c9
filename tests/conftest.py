"""Fixtures of the test suite."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest
import yaml  # noqa: F401 - loaded once per process, see below
from bizhelpers import Suite
from llmstub import Stub, serve

import pytest_bizbench.cases.model  # loaded once per process, see below
import pytest_bizbench.sdk  # noqa: F401 - loaded once per process, see below

# Extensions load once per process: import them now, or an in-process pytester run
# that first imports one drops its module from sys.modules on the way out, and the
# next run's fresh import mixes new Python classes with the old extension's (numpy:
# rapidfuzz's cdist fails; yaml: the C loader's nodes are not the new module's, so a
# golden-assessment file reads as "got a scalar"). The plugin imports neither at start.
# The SDK likewise: a conftest's benchmark class must subclass the `BenchmarkPlugin`
# the registry checks against, not a second copy imported by a later run; and the
# case model: a loader's `CaseError` must be the class collection checks for.
with contextlib.suppress(ImportError):
    import numpy  # noqa: F401

# Case files that tests read as data, not cases of this repository's own run.
collect_ignore = ["data"]


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs made by a test see a wide terminal: a test of what the bizbench section
    says reads whole lines; the tests of its width set their own."""
    monkeypatch.setenv("COLUMNS", "240")


@pytest.fixture
def suite(pytester: pytest.Pytester) -> Suite:
    return Suite(pytester)


@pytest.fixture
def stub() -> Iterator[Stub]:
    """A fresh OpenAI-compatible stub server on 127.0.0.1 (see `llmstub`)."""
    with serve(Stub()) as running:
        yield running
