"""Golden assessment records (schema 0.4): loading, validation and prediction shapes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_bizbench.cases import CaseError
from pytest_bizbench.cases.golden import GoldenAssessmentKind, GoldenRequirementCase, load_golden
from pytest_bizbench.cases.model import PredictionShapeError

GOOD = """\
schema_version: "0.4"
bundle_id: acme-dpa
template_id: saas-security-v2
assumptions:
  - The customer is established in the EU.
question_answers:
  hosts_personal_data: yes
requirements:
  R1:
    assessment: yes
    primary_evidence:
      p1: {document: dpa.pdf, title: "7.1 Encryption", text: "Data is encrypted at rest."}
    supporting_evidence:
      p2: {document: annex.pdf, title: "", text: "Keys rotate yearly."}
    rationale: Clause 7.1 says so.
  R2:
    assessment: not_applicable
    primary_evidence: {}
    supporting_evidence:
  R3:
    assessment: no
"""


def load(tmp_path: Path, text: str, only: frozenset[str] = frozenset()) -> list[Any]:
    path = tmp_path / "a.golden-assessment.yml"
    path.write_text(text, encoding="utf-8")
    return list(load_golden(path, 1_000_000, only))


def cases_of(loaded: list[Any]) -> dict[str, GoldenRequirementCase]:
    return {c.req_id: c for c in loaded if isinstance(c, GoldenRequirementCase)}


def errors_of(loaded: list[Any]) -> list[CaseError]:
    return [e for e in loaded if isinstance(e, CaseError)]


def test_every_requirement_is_a_case(tmp_path: Path) -> None:
    loaded = load(tmp_path, GOOD)
    assert not errors_of(loaded)
    cases = cases_of(loaded)
    assert list(cases) == ["R1", "R2", "R3"]
    r1 = cases["R1"]
    assert r1.id == "acme-dpa/R1"
    assert r1.line == 9
    assert r1.metadata == {
        "bundle_id": "acme-dpa",
        "template_id": "saas-security-v2",
        "requirement_id": "R1",
    }
    assert r1.requirement["assessment"] == "yes"  # YAML 1.1 `yes`, read as the string
    assert r1.requirement["primary_evidence"]["p1"]["text"] == "Data is encrypted at rest."
    assert r1.requirement["rationale"] == "Clause 7.1 says so."
    assert r1.warnings == ()


def test_missing_or_null_blocks_read_as_empty_with_a_warning(tmp_path: Path) -> None:
    cases = cases_of(load(tmp_path, GOOD))
    assert cases["R2"].requirement["supporting_evidence"] == {}
    assert cases["R2"].warnings == ("requirement 'R2': supporting_evidence is null; read as empty",)
    assert cases["R3"].requirement["primary_evidence"] == {}
    assert cases["R3"].requirement["supporting_evidence"] == {}
    assert cases["R3"].warnings == (
        "requirement 'R3': primary_evidence is missing; read as empty",
        "requirement 'R3': supporting_evidence is missing; read as empty",
    )


def test_case_hash_ignores_formatting_but_not_content_or_context(tmp_path: Path) -> None:
    base = cases_of(load(tmp_path, GOOD))["R1"].case_hash
    reformatted = GOOD.replace('"0.4"', "'0.4'").replace("assessment: yes", "assessment: 'yes'")
    assert cases_of(load(tmp_path, reformatted))["R1"].case_hash == base
    changed = GOOD.replace("Data is encrypted at rest.", "Data is encrypted.")
    assert cases_of(load(tmp_path, changed))["R1"].case_hash != base
    # the verdict was given under the bundle's assumptions: changing them changes it
    assumption = GOOD.replace("established in the EU", "established in the US")
    assert cases_of(load(tmp_path, assumption))["R1"].case_hash != base


def test_an_unquoted_schema_version_reads_as_0_4(tmp_path: Path) -> None:
    assert len(cases_of(load(tmp_path, GOOD.replace('"0.4"', "0.4")))) == 3


@pytest.mark.parametrize(
    ("old", "new", "line", "problem"),
    [
        (
            'schema_version: "0.4"\n',
            'schema_version: "0.3"\n',
            1,
            'unsupported schema_version "0.3"',
        ),
        ('schema_version: "0.4"\n', "", None, 'missing required key "schema_version"'),
        ("bundle_id: acme-dpa\n", "", None, 'missing required key "bundle_id"'),
        ("bundle_id: acme-dpa\n", "bundle_id: 1234\n", 2, '"bundle_id" must be a non-empty string'),
        ("bundle_id: acme-dpa\n", "bundle_id: a/b\n", 2, 'must not contain "/"'),
        ("template_id: saas-security-v2\n", "", None, 'missing required key "template_id"'),
        (
            "assumptions:\n",
            "assumptions: one\nx:\n",
            4,
            '"assumptions" must be a list or a mapping',
        ),
        ("requirements:\n", "requirements: []\nx:\n", 8, '"requirements" must be a mapping'),
        ("bundle_id: acme-dpa\n", "bundle_id: acme-dpa\nbundle_id: b\n", 3, "duplicate key"),
    ],
)
def test_a_bad_header_is_one_error_for_the_file(
    tmp_path: Path, old: str, new: str, line: int | None, problem: str
) -> None:
    loaded = load(tmp_path, GOOD.replace(old, new, 1))
    assert len(loaded) == 1
    error = loaded[0]
    assert isinstance(error, CaseError)
    assert problem in error.message
    assert error.line == line
    assert error.case_id is None


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            'schema_version: "0.4"\nbundle_id: b\ntemplate_id: t\n',
            'missing required key "requirements"',
        ),
        ('schema_version: "0.4"\nbundle_id: b\ntemplate_id: t\nrequirements: {}\n', "is empty"),
        ("- a\n- b\n", "top level must be a mapping (a golden record), got a sequence"),
    ],
)
def test_a_record_without_requirements_is_an_error(tmp_path: Path, text: str, problem: str) -> None:
    [error] = load(tmp_path, text)
    assert isinstance(error, CaseError)
    assert problem in error.message


HEADER = 'schema_version: "0.4"\nbundle_id: b\ntemplate_id: t\nrequirements:\n'
PART = "{document: d.pdf, title: T, text: some text}"


def bad(*lines: str) -> str:
    """Requirement BAD (line 7 of the file) with these lines, indented under it."""
    return "  BAD:\n" + "".join(f"    {line}\n" for line in lines)


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (
            bad("assessment: on"),
            '"assessment" must be one of yes, partial, no, not_applicable; got "on"',
        ),
        (bad("assessment: maybe"), 'got "maybe"'),
        (bad("assessment: true"), "got boolean"),
        (bad("primary_evidence: {}"), 'missing required key "assessment"'),
        ("  BAD: just text\n", "must be a mapping, got string"),
        (
            bad("assessment: yes", "primary_evidence: [p1]"),
            '"primary_evidence" must be a mapping of part id to part, got list',
        ),
        (
            bad("assessment: yes", "primary_evidence:", "  p1: {document: d, title: T}"),
            'part "p1" in primary_evidence: missing "text"',
        ),
        (
            bad(
                "assessment: yes", "supporting_evidence:", "  p1: {document: '', title: T, text: x}"
            ),
            '"document" must be a non-empty string',
        ),
        (
            bad("assessment: yes", "primary_evidence:", "  p1: {document: d, title: 3, text: x}"),
            '"title" must be a string, got 3',
        ),
        (
            bad("assessment: yes", "primary_evidence:", "  p1: text"),
            'part "p1" in primary_evidence must be a mapping',
        ),
        (
            bad(
                "assessment: yes",
                "primary_evidence:",
                f"  p7: {PART}",
                "supporting_evidence:",
                f"  p7: {PART}",
            ),
            'part "p7" is in both primary_evidence and supporting_evidence',
        ),
        (
            bad("assessment: yes", "primary_evidence:", f"  p1: {PART}", f"  p1: {PART}"),
            "duplicate key 'p1' (first at line 10)",
        ),
        (bad("assessment: !!set {yes}"), "tag !!set is not allowed"),
        (bad("assessment: yes", "rationale: [a]"), '"rationale" must be a string, got list'),
    ],
)
def test_a_bad_requirement_is_an_error_and_the_others_load(
    tmp_path: Path, body: str, problem: str
) -> None:
    loaded = load(
        tmp_path,
        HEADER + "  OK1:\n    assessment: partial\n" + body + "  OK2:\n    assessment: no\n",
    )
    assert sorted(cases_of(loaded)) == ["OK1", "OK2"]
    [error] = errors_of(loaded)
    assert error.case_id == "b/BAD"
    assert error.message.startswith("requirement 'BAD': ")
    assert problem in error.message
    assert (error.line or 0) >= 7  # the requirement (line 7) or a line inside it


def test_a_repeated_requirement_id_scores_neither_copy(tmp_path: Path) -> None:
    loaded = load(
        tmp_path,
        HEADER
        + "  R1:\n    assessment: yes\n  R1:\n    assessment: no\n  R2:\n    assessment: no\n",
    )
    assert sorted(cases_of(loaded)) == ["R2"]  # neither R1 is scored
    [error] = errors_of(loaded)
    assert (error.line, error.case_id, error.message) == (
        5,
        "b/R1",
        "requirement 'R1' is defined 2 times (lines 5 and 7); neither copy is scored",
    )


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (HEADER + "  R1: {assessment: yes\n", "malformed YAML"),
        (HEADER + "  R1: {assessment: yes}\n" + "x: " + "[" * 200 + "\n", "nesting deeper than"),
        ("", "empty file"),
    ],
)
def test_unreadable_yaml_is_one_error_for_the_file(tmp_path: Path, text: str, problem: str) -> None:
    [error] = load(tmp_path, text)
    assert isinstance(error, CaseError)
    assert problem in error.message


def test_a_requirement_id_must_fit_a_node_id(tmp_path: Path) -> None:
    loaded = load(tmp_path, HEADER + "  'a::b':\n    assessment: yes\n  ' ': {assessment: no}\n")
    assert [e.message for e in errors_of(loaded)] == [
        'requirement id "a::b" must be non-empty, without "::"',
        'requirement id " " must be non-empty, without "::"',
    ]


def test_only_keeps_the_named_requirements(tmp_path: Path) -> None:
    loaded = load(tmp_path, GOOD, frozenset({"R3", "acme-dpa/R1", "other/R2"}))
    assert sorted(cases_of(loaded)) == ["R1", "R3"]


# --- predictions ---------------------------------------------------------------

KIND = GoldenAssessmentKind()


def case(tmp_path: Path) -> GoldenRequirementCase:
    return cases_of(load(tmp_path, GOOD))["R1"]


def test_prediction_key_is_the_bundle(tmp_path: Path) -> None:
    assert KIND.prediction_key(case(tmp_path)) == "acme-dpa"
    assert KIND.inline_prediction(case(tmp_path)) is None


def test_prediction_fields_normalise_the_evidence_blocks(tmp_path: Path) -> None:
    raw = {
        "requirements": {
            "R1": {
                "assessment": "yes",
                "primary_evidence": ["p1", "x2"],
                "supporting_evidence": {"p2": None, "p9": {"title": "t", "text": "x"}},
                "retrieved": [{"title": "t", "text": "x", "part_id": "p1"}],
                "confidence": 0.7,
            }
        }
    }
    fields = KIND.fields(case(tmp_path), raw)
    assert fields == {
        "assessment": "yes",
        "primary_evidence": {"p1": {}, "x2": {}},
        "supporting_evidence": {"p2": {}, "p9": {"title": "t", "text": "x"}},
        "retrieved": [{"title": "t", "text": "x", "part_id": "p1"}],
        "confidence": 0.7,
    }


def test_a_requirement_absent_from_the_bundle_has_no_prediction(tmp_path: Path) -> None:
    assert KIND.fields(case(tmp_path), {"requirements": {"R2": {"assessment": "no"}}}) is None
    assert KIND.fields(case(tmp_path), {"requirements": {"R1": None}}) is None
    fields = KIND.fields(case(tmp_path), {"requirements": {"R1": {}}})
    assert fields == {"primary_evidence": {}, "supporting_evidence": {}, "retrieved": None}


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        (["R1"], 'expected an object with "requirements", got list'),
        ({"R1": {}}, '"requirements" must be an object keyed by requirement id, got null'),
        ({"requirements": {"R1": "yes"}}, "expected an object with an assessment, got string"),
        (
            {"requirements": {"R1": {"primary_evidence": "p1"}}},
            "primary_evidence must be a mapping",
        ),
        (
            {"requirements": {"R1": {"primary_evidence": [1]}}},
            "primary_evidence[0] must be a part id",
        ),
        (
            {"requirements": {"R1": {"supporting_evidence": {"p": 1}}}},
            "supporting_evidence.p must be",
        ),
        ({"requirements": {"R1": {"retrieved": {"a": 1}}}}, "retrieved must be a ranked list"),
        ({"requirements": {"R1": {"retrieved": ["text"]}}}, "retrieved part 1 must be a mapping"),
        ({"requirements": {"R1": {"retrieved": [{"title": "t"}]}}}, 'retrieved part 1: "text"'),
        ({"requirements": {"R1": {"retrieved": [{"text": "t", "title": 2}]}}}, '"title" must be'),
    ],
)
def test_a_prediction_of_the_wrong_shape_says_what_is_wrong(
    tmp_path: Path, raw: Any, problem: str
) -> None:
    with pytest.raises(PredictionShapeError) as excinfo:
        KIND.fields(case(tmp_path), raw)
    assert str(excinfo.value).startswith("prediction for acme-dpa/R1: ")
    assert problem in str(excinfo.value)


def test_document_carries_golden_prediction_and_bundle(tmp_path: Path) -> None:
    the_case = case(tmp_path)
    doc = KIND.document(the_case, "m1", {"assessment": "no"}, "a.golden-assessment.yml")
    assert doc.id == "acme-dpa/R1"
    assert doc.ground_truth["assessment"] == "yes"
    assert doc.extracted_fields == {"assessment": "no"}
    assert doc.metadata["template_id"] == "saas-security-v2"
    assert (doc.model, doc.source) == ("m1", "a.golden-assessment.yml")
