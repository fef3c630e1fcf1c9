"""Item names and their inverse, used for items known only by node id."""

from __future__ import annotations

import pytest

from pytest_bizbench.collect.items import item_name, parse_item_name


@pytest.mark.parametrize(
    ("case_id", "bench", "model", "models", "name"),
    [
        ("inv-1", "field-accuracy", "default", ["default"], "inv-1[field-accuracy]"),
        ("inv-1", "field-accuracy", "v2", ["v1", "v2"], "inv-1[field-accuracy-v2]"),
        (
            "dpa/SEC-01",
            "review-assessment",
            "a-b",
            ["a", "a-b"],
            "dpa/SEC-01[review-assessment-a-b]",
        ),
        ("x[1]", "qa-answer", "default", ["default"], "x[1][qa-answer]"),
    ],
)
def test_names_round_trip(
    case_id: str, bench: str, model: str, models: list[str], name: str
) -> None:
    assert item_name(case_id, bench, model, models) == name
    benches = ["field-accuracy", "review-assessment", "review", "qa-answer"]
    assert parse_item_name(name, benches, models) == (case_id, bench, model)


@pytest.mark.parametrize(
    "name", ["line-3[invalid]", "inv-1[no-benchmark]", "file-error", "x[other]"]
)
def test_other_names_are_not_case_items(name: str) -> None:
    assert parse_item_name(name, ["field-accuracy"], ["default"]) is None
