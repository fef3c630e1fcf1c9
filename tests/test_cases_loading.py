"""Ground-truth loading: every bad input gives a located CaseError and never costs
the other documents in the file."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from pytest_bizbench.cases import (
    MAX_DEPTH,
    CaseError,
    GroundTruthCase,
    InputError,
    iter_jsonl,
    load_ground_truth,
    parse_json,
    read_text,
)

CAP = 50_000_000
GOOD_1 = b'{"id": "inv-001", "ground_truth": {"total": 10}}'
GOOD_3 = b'{"id": "inv-003", "ground_truth": {"total": 30}}'


def write(tmp_path: Path, data: bytes, name: str = "cases.ground-truth.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def load(path: Path, max_bytes: int = CAP) -> list[GroundTruthCase | CaseError]:
    return load_ground_truth(path, max_bytes)


def load_middle(tmp_path: Path, middle: bytes) -> list[GroundTruthCase | CaseError]:
    """A JSONL file whose line 2 is `middle`, between two good documents."""
    return load(write(tmp_path, b"\n".join([GOOD_1, middle, GOOD_3]) + b"\n"))


def single_error(results: list[GroundTruthCase | CaseError]) -> CaseError:
    assert len(results) == 1
    error = results[0]
    assert isinstance(error, CaseError)
    return error


def assert_middle_error(
    results: list[GroundTruthCase | CaseError], message: str, case_id: str | None = None
) -> None:
    """Line 2 is an error with `message`; lines 1 and 3 still load."""
    assert len(results) == 3
    first, error, last = results
    assert isinstance(first, GroundTruthCase)
    assert first.id == "inv-001"
    assert first.line == 1
    assert isinstance(last, GroundTruthCase)
    assert last.id == "inv-003"
    assert last.line == 3
    assert isinstance(error, CaseError)
    assert message in error.message
    assert error.line == 2
    assert error.case_id == case_id


# --- syntax and number hazards -------------------------------------------------


def test_malformed_json_file_is_one_error_with_its_line(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        b'{\n  "id": "inv-001",\n  "ground_truth": {"total": 1,}\n}\n',
        "a.ground-truth.json",
    )
    error = single_error(load(path))
    assert error.message == "malformed JSON: trailing comma at column 30 (remove it)"
    assert error.line == 3
    assert error.path == str(path)


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ('{\n  "id": "a",\n  "ground_truth": {"x": 1},\n}\n', 3, 27),
        ('{"id": "a", "ground_truth": {"x": [1, 2,\n  ]}}', 1, 40),
        ('{"id": "a", "ground_truth": {"x": 1} , }', 1, 38),
    ],
)
def test_trailing_comma_points_at_the_comma(
    tmp_path: Path, text: str, line: int, column: int
) -> None:
    error = single_error(load(write(tmp_path, text.encode(), "a.ground-truth.json")))
    assert error.message == f"malformed JSON: trailing comma at column {column} (remove it)"
    assert error.line == line


def test_malformed_jsonl_middle_line(tmp_path: Path) -> None:
    results = load_middle(tmp_path, b'{"id": "inv-002", "ground_truth": {')
    assert_middle_error(results, "malformed JSON: ")


def test_malformed_message_names_column(tmp_path: Path) -> None:
    results = load_middle(tmp_path, b'{"id": "inv-002" "ground_truth": {}}')
    assert_middle_error(results, "malformed JSON: ")
    assert isinstance(results[1], CaseError)
    assert results[1].message.endswith(" at column 18")


def test_duplicate_key_in_jsonl_line(tmp_path: Path) -> None:
    results = load_middle(tmp_path, b'{"id": "inv-002", "ground_truth": {"total": 1, "total": 2}}')
    assert_middle_error(results, 'duplicate key "total"')


def test_duplicate_key_in_json_file(tmp_path: Path) -> None:
    path = write(tmp_path, b'{"id": "a", "id": "b", "ground_truth": {}}', "a.ground-truth.json")
    assert single_error(load(path)).message == 'duplicate key "id"'


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_rejected(tmp_path: Path, constant: str) -> None:
    line = f'{{"id": "inv-002", "ground_truth": {{"total": {constant}}}}}'.encode()
    assert_middle_error(load_middle(tmp_path, line), f"{constant} is not allowed")


@pytest.mark.parametrize("literal", ["1e400", "-1e400", "1.5E+999"])
def test_float_overflow_rejected(tmp_path: Path, literal: str) -> None:
    line = f'{{"id": "inv-002", "ground_truth": {{"total": {literal}}}}}'.encode()
    assert_middle_error(load_middle(tmp_path, line), f"number {literal} is out of range")


def test_integer_too_large_for_float(tmp_path: Path) -> None:
    line = b'{"id": "inv-002", "ground_truth": {"total": ' + str(10**400).encode() + b"}}"
    assert_middle_error(
        load_middle(tmp_path, line), "integer 10000000000000000000...(401 characters) is too large"
    )


def test_integer_over_python_conversion_limit(tmp_path: Path) -> None:
    line = b'{"id": "inv-002", "ground_truth": {"total": ' + b"9" * 5000 + b"}}"
    assert_middle_error(load_middle(tmp_path, line), "(5,000 characters) is too large for a float")


def test_largest_float_sized_integers_accepted(tmp_path: Path) -> None:
    big = str(10**308)  # 309 digits, still below the float maximum
    path = write(tmp_path, f'{{"id": "a", "ground_truth": {{"n": {big}, "m": -{big}}}}}\n'.encode())
    (case,) = load(path)
    assert isinstance(case, GroundTruthCase)
    assert case.ground_truth == {"n": 10**308, "m": -(10**308)}


# --- bytes and encodings -------------------------------------------------------


def test_bom_is_accepted_in_jsonl(tmp_path: Path) -> None:
    path = write(tmp_path, b"\xef\xbb\xbf" + GOOD_1 + b"\n" + GOOD_3 + b"\n")
    results = load(path)
    assert [(r.id, r.line) for r in results if isinstance(r, GroundTruthCase)] == [
        ("inv-001", 1),
        ("inv-003", 2),
    ]


def test_bom_is_accepted_in_json(tmp_path: Path) -> None:
    (case,) = load(write(tmp_path, b"\xef\xbb\xbf" + GOOD_1, "a.ground-truth.json"))
    assert isinstance(case, GroundTruthCase)
    assert case.id == "inv-001"


def test_non_utf8_byte_names_line_and_byte_and_costs_that_line_only(tmp_path: Path) -> None:
    data = GOOD_1 + b'\n{"id": "inv-002"}\n{"id": "\xff"}\n'
    first, second, third = load(write(tmp_path, data))
    assert isinstance(first, GroundTruthCase)
    assert first.id == "inv-001"
    assert isinstance(second, CaseError)
    assert second.line == 2  # no ground_truth
    assert isinstance(third, CaseError)
    assert (third.line, third.message) == (
        3,
        "not UTF-8: invalid byte 0xff at line 3, byte 9 (save the file as UTF-8)",
    )


def test_non_utf8_byte_offset_ignores_the_bom(tmp_path: Path) -> None:
    error = single_error(load(write(tmp_path, b'\xef\xbb\xbf{"id": "\xe9"}\n')))
    assert "invalid byte 0xe9 at line 1, byte 9" in error.message
    assert error.line == 1


@pytest.mark.parametrize("name", ["a.ground-truth.json", "a.ground-truth.jsonl"])
def test_empty_file(tmp_path: Path, name: str) -> None:
    error = single_error(load(write(tmp_path, b"", name)))
    assert error.message == "empty file"
    assert error.line is None


def test_bom_only_file_is_empty(tmp_path: Path) -> None:
    assert single_error(load(write(tmp_path, b"\xef\xbb\xbf"))).message == "empty file"


@pytest.mark.parametrize("name", ["a.ground-truth.json", "a.ground-truth.jsonl"])
def test_whitespace_only_file(tmp_path: Path, name: str) -> None:
    error = single_error(load(write(tmp_path, b" \n\r\n\t\n", name)))
    assert error.message == "empty file (whitespace only)"
    assert error.line is None


def test_truncated_last_jsonl_line(tmp_path: Path) -> None:
    data = GOOD_1 + b"\n" + GOOD_3 + b'\n{"id": "inv-004", "ground_truth": {"to'
    results = load(write(tmp_path, data))
    assert [r.id for r in results if isinstance(r, GroundTruthCase)] == ["inv-001", "inv-003"]
    error = results[2]
    assert isinstance(error, CaseError)
    assert error.message.startswith("truncated last line: malformed JSON: ")
    assert error.line == 3


def test_malformed_last_line_with_newline_is_not_called_truncated(tmp_path: Path) -> None:
    results = load(write(tmp_path, GOOD_1 + b"\n{oops\n"))
    error = results[1]
    assert isinstance(error, CaseError)
    assert error.message.startswith("malformed JSON:")
    assert error.line == 2


def test_unreadable_path_is_an_error_not_an_exception(tmp_path: Path) -> None:
    path = tmp_path / "dir.ground-truth.json"
    path.mkdir()
    assert single_error(load(path)).message.startswith("cannot read file:")


def test_size_cap_checked_before_reading(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD_1 + b"\n" + GOOD_3 + b"\n")
    size = path.stat().st_size
    error = single_error(load(path, max_bytes=size - 1))
    assert error.message == (
        f"file is {size} bytes, over the {size - 1}-byte cap (ini bizbench_max_case_bytes)"
    )
    assert error.line is None


def test_size_cap_message_groups_digits(tmp_path: Path) -> None:
    path = write(tmp_path, b" " * 1_234_567)
    with pytest.raises(InputError, match=r"file is 1,234,567 bytes, over the 1,000,000-byte cap"):
        read_text(path, 1_000_000)


def test_file_exactly_at_cap_is_read(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD_1)
    (case,) = load(path, max_bytes=len(GOOD_1))
    assert isinstance(case, GroundTruthCase)


# --- nesting -------------------------------------------------------------------


def test_nesting_bomb_in_json_file_is_rejected_fast(tmp_path: Path) -> None:
    path = write(tmp_path, b"[" * 100_000 + b"]" * 100_000, "bomb.ground-truth.json")
    started = time.perf_counter()
    error = single_error(load(path))
    assert time.perf_counter() - started < 1.0
    assert error.message == "nesting deeper than 64 levels"


def test_unclosed_nesting_bomb_in_jsonl_line(tmp_path: Path) -> None:
    line = b'{"id": "inv-002", "ground_truth": {"x": ' + b"[" * 100_000
    started = time.perf_counter()
    results = load_middle(tmp_path, line)
    assert time.perf_counter() - started < 1.0
    assert_middle_error(results, "nesting deeper than 64 levels")


def nested_document(depth: int) -> bytes:
    """A document nested `depth` levels deep: the object, ground_truth, then lists."""
    lists = depth - 2
    return f'{{"id": "a", "ground_truth": {{"x": {"[" * lists}{"]" * lists}}}}}\n'.encode()


def test_nesting_at_the_limit_is_accepted(tmp_path: Path) -> None:
    (case,) = load(write(tmp_path, nested_document(MAX_DEPTH)))
    assert isinstance(case, GroundTruthCase)


def test_nesting_one_past_the_limit_is_rejected(tmp_path: Path) -> None:
    error = single_error(load(write(tmp_path, nested_document(MAX_DEPTH + 1))))
    assert error.message == "nesting deeper than 64 levels"
    assert error.line == 1


def test_brackets_inside_strings_do_not_count_as_nesting(tmp_path: Path) -> None:
    text = "[{" * 50 + '\\"'
    doc = {"id": "a", "ground_truth": {"note": text}, "content": "]" * 200}
    (case,) = load(write(tmp_path, json.dumps(doc).encode() + b"\n"))
    assert isinstance(case, GroundTruthCase)
    assert case.ground_truth == {"note": text}


def test_escaped_quotes_do_not_make_the_depth_scan_quadratic() -> None:
    hostile = '{"s": "' + '\\"[' * 200_000  # unterminated, full of escapes
    started = time.perf_counter()
    with pytest.raises(InputError, match=r"^malformed JSON: .* at column 7$"):
        parse_json(hostile)
    assert time.perf_counter() - started < 1.0


# --- schema --------------------------------------------------------------------


def test_duplicate_id_names_both_lines(tmp_path: Path) -> None:
    data = b"\n".join(
        [GOOD_1, b'{"id": "inv-002", "ground_truth": {}}', GOOD_3, GOOD_1.replace(b"10", b"11")]
    )
    results = load(write(tmp_path, data))
    assert [r.id for r in results if isinstance(r, GroundTruthCase)] == [
        "inv-001",
        "inv-002",
        "inv-003",
    ]
    error = results[3]
    assert isinstance(error, CaseError)
    assert error.message == 'duplicate id "inv-001" (first at line 1)'
    assert error.line == 4
    assert error.case_id == "inv-001"


def test_duplicate_of_an_invalid_document_is_still_a_duplicate(tmp_path: Path) -> None:
    data = b'{"id": "x"}\n{"id": "x", "ground_truth": {}}\n'
    first, second = load(write(tmp_path, data))
    assert isinstance(first, CaseError)
    assert first.message == 'missing required key "ground_truth"'
    assert isinstance(second, CaseError)
    assert second.message == 'duplicate id "x" (first at line 1)'


def test_missing_id(tmp_path: Path) -> None:
    results = load_middle(tmp_path, b'{"ground_truth": {"total": 1}}')
    assert_middle_error(results, 'missing required key "id"')


@pytest.mark.parametrize(
    ("value", "shown"), [('""', '""'), ('"  "', '"  "'), ("7", "7"), ("null", None), ("[]", "list")]
)
def test_bad_id(tmp_path: Path, value: str, shown: str | None) -> None:
    results = load_middle(tmp_path, f'{{"id": {value}, "ground_truth": {{}}}}'.encode())
    if shown is None:
        assert_middle_error(results, 'missing required key "id"')
    else:
        assert_middle_error(results, f'"id" must be a non-empty string, got {shown}')


def test_missing_ground_truth(tmp_path: Path) -> None:
    results = load_middle(tmp_path, b'{"id": "inv-002", "labels": ["invoice"]}')
    assert_middle_error(results, 'missing required key "ground_truth"', "inv-002")


def test_ground_truth_a_list(tmp_path: Path) -> None:
    results = load_middle(tmp_path, b'{"id": "inv-002", "ground_truth": [1, 2]}')
    assert_middle_error(results, '"ground_truth" must be an object, got list', "inv-002")


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        ('"invoice"', '"labels" must be a list of strings, got string'),
        ("{}", '"labels" must be a list of strings, got object'),
        ('["invoice", 3]', '"labels"[1] must be a string, got number'),
    ],
)
def test_labels_wrong_type(tmp_path: Path, labels: str, message: str) -> None:
    line = f'{{"id": "inv-002", "labels": {labels}, "ground_truth": {{}}}}'.encode()
    assert_middle_error(load_middle(tmp_path, line), message, "inv-002")


@pytest.mark.parametrize(
    ("value", "shown"),
    [('"high"', '"high"'), ("1.5", "1.5"), ("-0.1", "-0.1"), ("true", "boolean"), ("[]", "list")],
)
def test_min_score_wrong(tmp_path: Path, value: str, shown: str) -> None:
    line = f'{{"id": "inv-002", "min_score": {value}, "ground_truth": {{}}}}'.encode()
    message = f'"min_score" must be a number in [0, 1], got {shown}'
    assert_middle_error(load_middle(tmp_path, line), message, "inv-002")


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("filename", "3", '"filename" must be a string, got number'),
        ("metadata", "[]", '"metadata" must be an object, got list'),
        ("content", "{}", '"content" must be a string or null, got object'),
        ("extracted_fields", '"x"', '"extracted_fields" must be an object, got string'),
    ],
)
def test_optional_keys_wrong_type(tmp_path: Path, key: str, value: str, message: str) -> None:
    line = f'{{"id": "inv-002", "{key}": {value}, "ground_truth": {{}}}}'.encode()
    assert_middle_error(load_middle(tmp_path, line), message, "inv-002")


def test_all_problems_of_a_document_are_reported_together(tmp_path: Path) -> None:
    line = b'{"id": "inv-002", "labels": "x", "min_score": 2}'
    assert_middle_error(
        load_middle(tmp_path, line),
        'missing required key "ground_truth"; "labels" must be a list of strings, got string; '
        '"min_score" must be a number in [0, 1], got 2',
        "inv-002",
    )


@pytest.mark.parametrize(
    ("value", "kind"), [("[1, 2]", "list"), ('"inv"', "string"), ("3", "number")]
)
def test_document_not_an_object(tmp_path: Path, value: str, kind: str) -> None:
    results = load_middle(tmp_path, value.encode())
    assert_middle_error(results, f"document must be an object, got {kind}")


# --- accepted forms --------------------------------------------------------------


def test_full_document_fields(tmp_path: Path) -> None:
    doc: dict[str, Any] = {
        "id": "inv-001",
        "filename": "inv.pdf",
        "labels": ["invoice", "en"],
        "metadata": {"vendor": "Acme"},
        "content": "Total: 10",
        "ground_truth": {"total": 10},
        "extracted_fields": {"total": "10.00"},
        "min_score": 1,
        "notes": "unknown keys are allowed",
    }
    (case,) = load(write(tmp_path, json.dumps(doc).encode() + b"\n"))
    assert isinstance(case, GroundTruthCase)
    assert case == GroundTruthCase(
        id="inv-001",
        line=1,
        filename="inv.pdf",
        labels=("invoice", "en"),
        metadata={"vendor": "Acme"},
        content="Total: 10",
        ground_truth={"total": 10},
        extracted_fields={"total": "10.00"},
        min_score=1.0,
        case_hash=case.case_hash,
    )
    assert isinstance(case.min_score, float)


def test_optional_keys_absent_or_null_take_defaults(tmp_path: Path) -> None:
    data = (
        b'{"id": "a", "ground_truth": {}}\n'
        b'{"id": "b", "ground_truth": {}, "filename": null, "labels": null, "metadata": null,'
        b' "content": null, "extracted_fields": null, "min_score": null}\n'
    )
    first, second = load(write(tmp_path, data))
    for case in (first, second):
        assert isinstance(case, GroundTruthCase)
        assert (case.filename, case.labels, case.metadata) == ("", (), {})
        assert (case.content, case.extracted_fields, case.min_score) == (None, None, None)


def test_empty_extracted_fields_differs_from_absent(tmp_path: Path) -> None:
    (case,) = load(write(tmp_path, b'{"id": "a", "ground_truth": {}, "extracted_fields": {}}'))
    assert isinstance(case, GroundTruthCase)
    assert case.extracted_fields == {}


def test_single_document_json_form(tmp_path: Path) -> None:
    path = write(tmp_path, b"\n\n" + GOOD_1 + b"\n", "one.ground-truth.json")
    (case,) = load(path)
    assert isinstance(case, GroundTruthCase)
    assert (case.id, case.line, case.ground_truth) == ("inv-001", 3, {"total": 10})


def test_single_document_with_a_documents_key_stays_one_document(tmp_path: Path) -> None:
    data = b'{"id": "a", "ground_truth": {}, "documents": []}'
    (case,) = load(write(tmp_path, data, "one.ground-truth.json"))
    assert isinstance(case, GroundTruthCase)
    assert case.id == "a"


def test_single_document_json_error_has_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, b'\n{"id": "a"}', "one.ground-truth.json")
    error = single_error(load(path))
    assert (error.line, error.case_id) == (2, "a")
    assert error.message == 'missing required key "ground_truth"'


def test_documents_json_form(tmp_path: Path) -> None:
    docs = [
        {"id": "inv-001", "ground_truth": {"total": 1}},
        {"id": "inv-002"},
        ["not", "a", "document"],
        {"id": "inv-001", "ground_truth": {}},
        {"id": "inv-003", "ground_truth": {"total": 3}},
    ]
    path = write(
        tmp_path, json.dumps({"documents": docs}, indent=2).encode(), "d.ground-truth.json"
    )
    results = load(path)
    assert [r.id for r in results if isinstance(r, GroundTruthCase)] == ["inv-001", "inv-003"]
    assert [r.describe() for r in results if isinstance(r, CaseError)] == [
        f'{path}: documents[1]: missing required key "ground_truth"',
        f"{path}: documents[2]: document must be an object, got list",
        f'{path}: documents[3]: duplicate id "inv-001" (first at documents[0])',
    ]


def test_documents_must_be_a_list(tmp_path: Path) -> None:
    path = write(tmp_path, b'{"documents": {"id": "a"}}', "d.ground-truth.json")
    assert single_error(load(path)).message == '"documents" must be a list, got object'


def test_top_level_must_be_an_object(tmp_path: Path) -> None:
    path = write(tmp_path, b"[" + GOOD_1 + b"]", "d.ground-truth.json")
    assert single_error(load(path)).message == (
        'top level must be a document object or {"documents": [...]}, got list'
    )


def test_empty_documents_list_loads_nothing(tmp_path: Path) -> None:
    assert load(write(tmp_path, b'{"documents": []}', "d.ground-truth.json")) == []


def test_jsonl_blank_lines_and_crlf(tmp_path: Path) -> None:
    data = b"\r\n" + GOOD_1 + b"\r\n   \r\n\n" + GOOD_3 + b"\r\n"
    results = load(write(tmp_path, data))
    assert [(r.id, r.line) for r in results if isinstance(r, GroundTruthCase)] == [
        ("inv-001", 2),
        ("inv-003", 5),
    ]


def test_line_separator_inside_a_string_does_not_split_a_line(tmp_path: Path) -> None:
    doc = '{"id": "a", "ground_truth": {"note": "x\u2028y\u0085z"}}\n'
    (case,) = load(write(tmp_path, doc.encode()))
    assert isinstance(case, GroundTruthCase)
    assert case.ground_truth["note"] == "x\u2028y\u0085z"


# --- case hash -----------------------------------------------------------------


def hash_of(tmp_path: Path, name: str, doc: str) -> str:
    (case,) = load(write(tmp_path, doc.encode(), name))
    assert isinstance(case, GroundTruthCase)
    return case.case_hash


def test_case_hash_is_stable_under_key_order_and_formatting(tmp_path: Path) -> None:
    a = hash_of(tmp_path, "a.ground-truth.jsonl", '{"id": "x", "ground_truth": {"a": 1, "b": 2}}')
    b = hash_of(
        tmp_path, "b.ground-truth.json", '{\n "ground_truth": {"b": 2,\n "a": 1},\n "id": "x"\n}'
    )
    assert a == b
    assert len(a) == 16
    assert int(a, 16) >= 0


def test_case_hash_changes_with_content(tmp_path: Path) -> None:
    a = hash_of(tmp_path, "a.ground-truth.jsonl", '{"id": "x", "ground_truth": {"a": 1}}')
    b = hash_of(tmp_path, "b.ground-truth.jsonl", '{"id": "x", "ground_truth": {"a": 2}}')
    c = hash_of(tmp_path, "c.ground-truth.jsonl", '{"id": "x", "ground_truth": {"a": 1}, "k": 0}')
    assert len({a, b, c}) == 3


def test_case_hash_survives_a_lone_surrogate_escape(tmp_path: Path) -> None:
    digest = hash_of(
        tmp_path, "a.ground-truth.jsonl", '{"id": "x", "ground_truth": {"a": "\\ud800"}}'
    )
    assert len(digest) == 16


# --- the readers on their own ----------------------------------------------------


def test_describe_formats() -> None:
    assert CaseError("a.jsonl", 3, "bad").describe() == "a.jsonl:3: bad"
    assert CaseError("a.jsonl", None, "bad").describe() == "a.jsonl: bad"


def test_parse_json_line_offset_applies_to_syntax_errors() -> None:
    with pytest.raises(InputError) as info:
        parse_json('{\n"a": }', line_offset=10)
    assert info.value.line == 12
    assert re.fullmatch("malformed JSON: .* at column 6", info.value.message)


def test_parse_json_errors_are_input_errors_only() -> None:
    for text in ("NaN", "1e999", "[" * 10_000, '{"a": 1, "a": 1}', "9" * 10_000, "", "{} {}"):
        with pytest.raises(InputError):
            parse_json(text)


def test_iter_jsonl_yields_errors_in_place() -> None:
    results = list(iter_jsonl('1\n\n{"a": NaN}\n[2]'))
    assert results[0] == (1, 1)
    assert results[2] == (4, [2])
    line, error = results[1]
    assert line == 3
    assert isinstance(error, InputError)
    assert (error.line, error.message) == (3, "NaN is not allowed (JSON has no NaN or Infinity)")
