"""The hook specifications: documented as pytest documents its own, and each hook
given the config, so an implementation can read the run's options."""

from __future__ import annotations

import inspect

import pytest
from bizhelpers import Suite, doc

from pytest_bizbench import hookspecs

SPECS = [getattr(hookspecs, name) for name in dir(hookspecs) if name.startswith("pytest_")]


def test_there_are_four_hooks() -> None:
    assert sorted(spec.__name__ for spec in SPECS) == [
        "pytest_bizbench_add_benchmarks",
        "pytest_bizbench_embed",
        "pytest_bizbench_judge",
        "pytest_bizbench_predict",
    ]


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.__name__)
def test_each_hook_documents_every_parameter_and_its_return(spec: object) -> None:
    doc = inspect.getdoc(spec) or ""
    parameters = list(inspect.signature(spec).parameters)  # type: ignore[arg-type]
    assert "config" in parameters
    for name in parameters:
        assert f":param {name}:" in doc
    assert ":return:" in doc
    assert "NotImplementedError" not in inspect.getsource(spec)  # type: ignore[arg-type]


def test_embed_and_judge_hooks_are_given_the_config(suite: Suite) -> None:
    suite.write(
        "conftest.py",
        """
def pytest_addoption(parser):
    parser.addini("vectors_for", "which word points along x")
    parser.addini("grade", "what the judge says")

def pytest_bizbench_embed(texts, config):
    along_x = config.getini("vectors_for")
    return [[1.0, 0.0] if t in (along_x, "car") else [0.0, 0.0] for t in texts]

def pytest_bizbench_judge(field, expected, actual, config):
    return float(config.getini("grade")) if field == "colour" else None
""",
    )
    suite.write("pytest.ini", "[pytest]\nvectors_for = automobile\ngrade = 30\n")
    suite.cases(
        "a.ground-truth.jsonl",
        [
            doc(
                "e",
                {"vehicle": "car", "colour": "crimson"},
                extracted_fields={"vehicle": "automobile", "colour": "dark red"},
            )
        ],
    )
    suite.pytester.runpytest()
    details = suite.documents()["e"]["details"]
    assert (details["vehicle"]["rung"], details["vehicle"]["score"]) == ("embedding", 1.0)
    assert (details["colour"]["rung"], details["colour"]["score"]) == ("judge", 0.3)
