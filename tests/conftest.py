"""Fixtures of the test suite."""

from __future__ import annotations

import pytest
from bizhelpers import Suite

# Case files that tests read as data, not cases of this repository's own run.
collect_ignore = ["data"]


@pytest.fixture
def suite(pytester: pytest.Pytester) -> Suite:
    return Suite(pytester)
