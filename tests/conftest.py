"""Fixtures of the test suite."""

from __future__ import annotations

import pytest
from bizhelpers import Suite


@pytest.fixture
def suite(pytester: pytest.Pytester) -> Suite:
    return Suite(pytester)
