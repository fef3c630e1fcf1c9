"""Review golden records (`*.golden-assessment.yml`, schema 0.4) as cases, one per
requirement, and the case kind that meets them with their predictions.

Never raises on bad input. A problem with the whole file (unreadable, malformed or
hostile YAML, a bad header) gives one `CaseError`; a problem inside one requirement
(an unknown assessment, a part cited in both blocks, a duplicate key, a non-JSON
tag) gives a `CaseError` for that requirement while the others load: each
requirement's YAML is built on its own from the composed node tree.

Choices the format leaves open, and what we chose:
- A case's id is `<bundle_id>/<req_id>`, the report's document id; items are named
  `<bundle_id>/<req_id>[<benchmark>]`, so `-k <req_id>` or `-k <bundle_id>/<req_id>`
  select a requirement and node ids match the report.
- `schema_version` is the string "0.4"; the unquoted YAML number 0.4 is read as it.
- Ids (bundle, template, requirement, part) are strings; YAML keys that are not
  (an unquoted `1.1:`) are errors asking for quotes, never silently converted.
- A part has a non-empty `document` and `text` and a string `title` (may be
  empty); other keys of a part or requirement are kept and ignored.
- A requirement id repeated in `requirements`: the first is loaded, every later
  one is an error naming the first line.
- `case_hash` covers the requirement and the frame its verdict was given in:
  schema version, template, bundle, assumptions and question answers. Editing an
  assumption marks every requirement of the bundle as changed for baselines.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pytest_bizbench.io.jsonio import InputError, read_text
from pytest_bizbench.io.yamlio import compose_yaml, construct, mapping_entries, node_kind, node_line
from pytest_bizbench.options.types import LoadOptions
from pytest_bizbench.sdk import ExtendedDocument

from .checks import describe, type_name
from .model import CaseError, PredictionShapeError, content_hash

SCHEMA_VERSION = "0.4"
ASSESSMENTS = ("yes", "partial", "no", "not_applicable")
PRIMARY, SUPPORTING = "primary_evidence", "supporting_evidence"
BLOCKS = (PRIMARY, SUPPORTING)  # the order of `evidence_parts`: primary, then supporting
SUFFIXES = (".golden-assessment.yml", ".golden-assessment.yaml")
_NULL_TAG = "tag:yaml.org,2002:null"


@dataclass(frozen=True, slots=True)
class GoldenRequirementCase:
    """One requirement of a golden record, with its bundle's identity.

    `requirement` is the golden requirement with both evidence blocks present
    (`{}` when missing or null); `warnings` say which blocks were filled in, for
    `bizbench validate`.
    """

    id: str
    line: int | None
    bundle_id: str
    template_id: str
    req_id: str
    requirement: dict[str, Any]
    case_hash: str
    warnings: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    filename: str = ""
    min_score: float | None = None
    metadata: dict[str, Any] = field(default_factory=dict)


Loaded = list[GoldenRequirementCase | CaseError]


def load_golden(path: Path, max_bytes: int, only: frozenset[str] = frozenset()) -> Loaded:
    """Load one golden record; `only` keeps the requirements whose id or
    `<bundle_id>/<req_id>` it names (all when empty)."""
    source = str(path)
    try:
        header, requirements = _header(compose_yaml(read_text(path, max_bytes)))
    except InputError as err:
        return [CaseError(source, err.line, err.message)]
    bundle_id = header["bundle_id"]
    context = {
        "schema_version": SCHEMA_VERSION,
        "bundle_id": bundle_id,
        "template_id": header["template_id"],
        "assumptions": header.get("assumptions"),
        "question_answers": header.get("question_answers"),
    }
    results: Loaded = []
    lines: dict[str, list[int]] = {}
    for req_id, line, _ in requirements:
        lines.setdefault(req_id, []).append(line)
    for req_id, line, node in requirements:
        case_id = f"{bundle_id}/{req_id}"
        if only and req_id not in only and case_id not in only:
            continue
        where = lines[req_id]
        if len(where) > 1:  # which copy is right is unknown: neither is scored
            if line == where[0]:
                shown = ", ".join(str(n) for n in where[:-1]) + f" and {where[-1]}"
                message = (
                    f"requirement {req_id!r} is defined {len(where)} times (lines {shown}); "
                    "neither copy is scored"
                )
                results.append(CaseError(source, line, message, case_id))
            continue
        results.append(_requirement(source, context, req_id, line, node))
    return results


def _header(root: yaml.Node) -> tuple[dict[str, Any], list[tuple[str, int, yaml.Node]]]:
    """The top-level keys but `requirements` as data, and the requirements' nodes;
    InputError at the first problem's line, naming every problem."""
    if not isinstance(root, yaml.MappingNode):
        raise InputError(
            f"top level must be a mapping (a golden record), got a {node_kind(root)}",
            node_line(root),
        )
    header: dict[str, Any] = {}
    lines: dict[str, int] = {}
    requirements: yaml.Node | None = None
    for key, line, node in mapping_entries(root):
        if key in lines:
            raise InputError(f"duplicate key {key!r} (first at line {lines[key]})", line)
        lines[key] = line
        if key == "requirements":
            requirements = node
        else:
            header[key] = construct(node)
    problems = _header_problems(header)
    if requirements is None or requirements.tag == _NULL_TAG:
        problems.append(("requirements", 'missing required key "requirements"'))
    elif not isinstance(requirements, yaml.MappingNode):
        problems.append(
            (
                "requirements",
                '"requirements" must be a mapping of requirement id to requirement, '
                f"got a {node_kind(requirements)}",
            )
        )
    elif not requirements.value:
        problems.append(("requirements", '"requirements" is empty: nothing to score'))
    if problems:
        raise InputError("; ".join(why for _, why in problems), lines.get(problems[0][0]))
    assert isinstance(requirements, yaml.MappingNode)
    return header, mapping_entries(requirements)


def _header_problems(header: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(key, problem) for each problem of the header."""
    problems: list[tuple[str, str]] = []
    version = header.get("schema_version")
    if version is None:
        problems.append(
            (
                "schema_version",
                f'missing required key "schema_version" (expected "{SCHEMA_VERSION}")',
            )
        )
    elif version != SCHEMA_VERSION and version != float(SCHEMA_VERSION):
        problems.append(
            (
                "schema_version",
                f'unsupported schema_version {describe(version)} (expected "{SCHEMA_VERSION}")',
            )
        )
    for key in ("bundle_id", "template_id"):
        value = header.get(key)
        if value is None:
            problems.append((key, f'missing required key "{key}"'))
        elif not isinstance(value, str) or not value.strip():
            problems.append((key, f'"{key}" must be a non-empty string, got {describe(value)}'))
        elif key == "bundle_id" and any(c in value for c in ("/", "\\", "::")):
            problems.append(
                (
                    key,
                    f'"bundle_id" {_quote(value)} must not contain "/", "\\" or "::" '
                    "(it names prediction files and report ids)",
                )
            )
    for key in ("assumptions", "question_answers"):
        value = header.get(key)
        if value is not None and not isinstance(value, (list, dict)):
            problems.append((key, f'"{key}" must be a list or a mapping, got {type_name(value)}'))
    return problems


def _requirement(
    source: str, context: Mapping[str, Any], req_id: str, line: int, node: yaml.Node
) -> GoldenRequirementCase | CaseError:
    bundle_id = str(context["bundle_id"])
    case_id = f"{bundle_id}/{req_id}"
    prefix = f"requirement {req_id!r}: "
    if not req_id.strip() or "::" in req_id:  # "::" would split its items' node ids
        message = f'requirement id {_quote(req_id)} must be non-empty, without "::"'
        return CaseError(source, line, message, case_id)
    try:
        raw = construct(node)
    except InputError as err:
        return CaseError(source, err.line or line, prefix + err.message, case_id)
    if not isinstance(raw, dict):
        return CaseError(source, line, f"{prefix}must be a mapping, got {type_name(raw)}", case_id)
    problems: list[str] = []
    warnings: list[str] = []
    assessment = raw.get("assessment")
    if assessment is None:
        problems.append('missing required key "assessment"')
    elif assessment not in ASSESSMENTS:
        problems.append(
            f'"assessment" must be one of {", ".join(ASSESSMENTS)}; got {describe(assessment)}'
        )
    blocks: dict[str, dict[str, Any]] = {}
    for block in BLOCKS:
        value = raw.get(block)
        if value is None:
            state = "null" if block in raw else "missing"
            warnings.append(f"{prefix}{block} is {state}; read as empty")
            value = {}
        if not isinstance(value, dict):
            problems.append(
                f'"{block}" must be a mapping of part id to part, got {type_name(value)}'
            )
            value = {}
        problems.extend(_part_problems(block, value))
        blocks[block] = value
    both = sorted(set(blocks[PRIMARY]) & set(blocks[SUPPORTING]))
    problems.extend(
        f"part {_quote(part_id)} is in both {PRIMARY} and {SUPPORTING} (a part has one role)"
        for part_id in both
    )
    rationale = raw.get("rationale")
    if rationale is not None and not isinstance(rationale, str):
        problems.append(f'"rationale" must be a string, got {type_name(rationale)}')
    if problems:
        return CaseError(source, line, prefix + "; ".join(problems), case_id)
    requirement = {**raw, **blocks, "rationale": rationale}
    return GoldenRequirementCase(
        id=case_id,
        line=line,
        bundle_id=bundle_id,
        template_id=str(context["template_id"]),
        req_id=req_id,
        requirement=requirement,
        case_hash=content_hash({**context, "requirement_id": req_id, "requirement": raw}),
        warnings=tuple(warnings),
        metadata={
            "bundle_id": bundle_id,
            "template_id": context["template_id"],
            "requirement_id": req_id,
        },
    )


def _part_problems(block: str, parts: Mapping[str, Any]) -> list[str]:
    problems: list[str] = []
    for part_id, part in parts.items():
        where = f"part {_quote(part_id)} in {block}"
        if not isinstance(part, dict):
            problems.append(
                f"{where} must be a mapping with document, title and text, got {type_name(part)}"
            )
            continue
        for key, empty_ok in (("document", False), ("title", True), ("text", False)):
            value = part.get(key)
            if value is None:
                problems.append(f'{where}: missing "{key}"')
            elif not isinstance(value, str) or (not empty_ok and not value.strip()):
                problems.append(
                    f'{where}: "{key}" must be a {"" if empty_ok else "non-empty "}string, '
                    f"got {describe(value)}"
                )
    return problems


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def evidence_parts(requirement: Mapping[str, Any]) -> list[tuple[str, str, Mapping[str, Any]]]:
    """(part id, block, part) of a golden or predicted requirement's evidence: primary,
    then supporting."""
    return [
        (part_id, block, part if isinstance(part, Mapping) else {})
        for block in BLOCKS
        for part_id, part in (requirement.get(block) or {}).items()
    ]


# --- predictions ---------------------------------------------------------------


def _shape(case: GoldenRequirementCase, problem: str) -> PredictionShapeError:
    return PredictionShapeError(f"prediction for {case.id}: {problem}")


def _cited_block(case: GoldenRequirementCase, block: str, value: Any) -> dict[str, Any]:
    """A predicted evidence block as `{part_id: part}`: a mapping as it is (a null
    part reads as `{}`), a list of part ids as parts without text."""
    if value is None:
        return {}
    if isinstance(value, list):
        ids: dict[str, Any] = {}
        for position, part_id in enumerate(value):
            if not isinstance(part_id, str):
                raise _shape(
                    case, f"{block}[{position}] must be a part id, got {type_name(part_id)}"
                )
            ids[part_id] = {}
        return ids
    if not isinstance(value, dict):
        raise _shape(
            case,
            f"{block} must be a mapping of part id to part or a list of part ids, "
            f"got {type_name(value)}",
        )
    parts = {}
    for part_id, part in value.items():
        if part is not None and not isinstance(part, dict):
            raise _shape(case, f"{block}.{part_id} must be a mapping, got {type_name(part)}")
        parts[part_id] = part or {}
    return parts


def _retrieved(case: GoldenRequirementCase, value: Any) -> list[dict[str, Any]] | None:
    if value is None:
        return None
    if not isinstance(value, list):
        raise _shape(case, f"retrieved must be a ranked list of parts, got {type_name(value)}")
    for rank, part in enumerate(value, start=1):
        if not isinstance(part, dict):
            raise _shape(case, f"retrieved part {rank} must be a mapping, got {type_name(part)}")
        for key in ("text", "title", "document", "part_id"):
            piece = part.get(key)
            if (piece is not None or key == "text") and not isinstance(piece, str):
                raise _shape(
                    case, f'retrieved part {rank}: "{key}" must be a string, got {describe(piece)}'
                )
    return value


class GoldenAssessmentKind:
    """`*.golden-assessment.yml|.yaml`: requirements of a review golden record.

    Predictions are filed per bundle (`bundle_id`), each holding
    `{"requirements": {req_id: {...}}}`; a bundle without the requirement has no
    prediction for it.
    """

    name = "golden-assessment"
    suffixes = SUFFIXES

    def load(self, path: Path, options: LoadOptions) -> Sequence[GoldenRequirementCase | CaseError]:
        return load_golden(path, options.max_case_bytes, options.requirements)

    def prediction_key(self, case: GoldenRequirementCase) -> str:
        return case.bundle_id

    def inline_prediction(self, case: GoldenRequirementCase) -> Any:
        return None

    def fields(self, case: GoldenRequirementCase, raw: Any) -> dict[str, Any] | None:
        """The predicted requirement, blocks as `{part_id: part}` and `retrieved`
        a list of parts or None; PredictionShapeError when it cannot be read so."""
        if not isinstance(raw, dict):
            raise _shape(case, f'expected an object with "requirements", got {type_name(raw)}')
        requirements = raw.get("requirements")
        if not isinstance(requirements, dict):
            raise _shape(
                case,
                '"requirements" must be an object keyed by requirement id, '
                f"got {type_name(requirements)}",
            )
        predicted = requirements.get(case.req_id)
        if predicted is None:
            return None
        if not isinstance(predicted, dict):
            raise _shape(case, f"expected an object with an assessment, got {type_name(predicted)}")
        blocks = {block: _cited_block(case, block, predicted.get(block)) for block in BLOCKS}
        return {**predicted, **blocks, "retrieved": _retrieved(case, predicted.get("retrieved"))}

    def document(
        self, case: GoldenRequirementCase, model: str, fields: dict[str, Any], source: str
    ) -> ExtendedDocument:
        return ExtendedDocument(
            id=case.id,
            filename=case.filename,
            labels=list(case.labels),
            metadata=case.metadata,
            ground_truth=case.requirement,
            extracted_fields=fields,
            model=model,
            source=source,
        )
