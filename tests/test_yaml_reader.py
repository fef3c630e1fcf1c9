"""The safe YAML reader: JSON data only, every trap an error with its line."""

from __future__ import annotations

import pytest
import yaml
from yaml.scanner import ScannerError

from pytest_bizbench.io import yamlio
from pytest_bizbench.io.jsonio import MAX_DEPTH, InputError
from pytest_bizbench.io.yamlio import (
    MAX_ALIAS_NODES,
    compose_yaml,
    construct,
    load_yaml,
    mapping_entries,
)


def error_of(text: str) -> InputError:
    with pytest.raises(InputError) as excinfo:
        load_yaml(text)
    return excinfo.value


def test_yaml_1_1_booleans_and_dates_stay_strings() -> None:
    data = load_yaml(
        "a: no\nb: yes\nc: on\nd: off\ne: Y\nf: 2024-01-05\ng: 12:30:00\nh: true\ni: FALSE\n"
    )
    assert data == {
        "a": "no",
        "b": "yes",
        "c": "on",
        "d": "off",
        "e": "Y",
        "f": "2024-01-05",  # no implicit timestamps: dates are strings, as in JSON
        "g": "12:30:00",  # no sexagesimal numbers
        "h": True,  # only true/false are booleans (YAML 1.2 core)
        "i": False,
    }


def test_numbers_follow_the_yaml_1_2_core_schema() -> None:
    data = load_yaml("a: 012\nb: 0o17\nc: 0x1F\nd: -3\ne: 1.5\nf: .5\ng: 1e3\nh: ~\ni:\nj: null\n")
    # 012 is twelve, not YAML 1.1 octal ten; 0o17 = 15; 0x1F = 31
    assert data == {
        "a": 12,
        "b": 15,
        "c": 31,
        "d": -3,
        "e": 1.5,
        "f": 0.5,
        "g": 1000.0,
        "h": None,
        "i": None,
        "j": None,
    }


def test_explicit_json_tags_and_aliases_are_fine() -> None:
    data = load_yaml("a: !!str 12\nb: !!int '7'\nc: !!bool yes\nd: &x [1, {k: v}]\ne: *x\n")
    assert data == {"a": "12", "b": 7, "c": True, "d": [1, {"k": "v"}], "e": [1, {"k": "v"}]}
    assert load_yaml("[!!bool Off, !!bool TRUE, !!bool no]") == [False, True, False]


@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [
        ("a: 1\nb: 2\na: 3\n", 3, "duplicate key 'a' (first at line 1)"),
        ("x:\n  k: 1\n  k: 1\n", 3, "duplicate key 'k' (first at line 2)"),
        ("a: !!set {x, y}\n", 1, "tag !!set is not allowed"),
        ("a: !!binary aGVsbG8=\n", 1, "tag !!binary is not allowed"),
        ("a: !!timestamp 2024-01-05\n", 1, "tag !!timestamp is not allowed"),
        ("a: !!omap [{k: v}]\n", 1, "tag !!omap is not allowed"),
        ("\na: !!python/object/apply:os.system [ls]\n", 2, "tag !!python/object/apply:os.system"),
        ("a: !custom x\n", 1, "tag !custom is not allowed"),
        ("a: .nan\n", 1, ".nan is not allowed (JSON has no NaN or Infinity)"),
        ("a: -.inf\n", 1, "-.inf is not allowed"),
        ("a: 1e400\n", 1, "number 1e400 is out of range"),
        ("a: !!float 1e999\n", 1, "number 1e999 is out of range"),
        ("a: " + "9" * 400 + "\n", 1, "is too large for a float"),
        ("a: !!int 12x\n", 1, "'12x' is not an integer"),
        # PyYAML's own constructor raised KeyError here, past every YAML error handler
        ("a: 1\nflag: !!bool maybe\n", 2, "'maybe' is not true or false"),
        ("a: !!bool ''\n", 1, "'' is not true or false"),
        ("1.1: x\n", 1, "mapping key 1.1 must be a string (quote it)"),
        ("true: x\n", 1, "mapping key true must be a string (quote it)"),
        ("? [a, b]\n: x\n", 1, "mapping key of a sequence must be a string"),
        ("base: &b {k: 1}\nx:\n  <<: *b\n", 3, "merge keys (<<) are not supported"),
        # PyYAML's own words follow the prefix; they are its, and change between releases
        ("a: [1, 2\nb: 3\n", 2, "malformed YAML: "),
        ("a: b\n---\nc: d\n", 2, "malformed YAML: "),
        ("a: &r [1, *r]\n", 1, "alias *r refers to a node that contains it"),
    ],
)
def test_bad_yaml_is_an_error_with_its_line(text: str, line: int, problem: str) -> None:
    error = error_of(text)
    assert error.line == line
    assert problem in error.message


def test_a_quoted_merge_key_is_an_ordinary_key() -> None:
    assert load_yaml("'<<': 1\n") == {"<<": 1}


def test_comments_only_is_no_document() -> None:
    error = error_of("# nothing here\n")
    assert error.message == "no YAML document in the file (only comments?)"


def billion_laughs(levels: int = 9) -> str:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, levels + 1):
        refs = ", ".join([f"*a{level - 1}"] * 9)
        lines.append(f"a{level}: &a{level} [{refs}]")
    return "\n".join(lines) + "\n"


def test_an_alias_bomb_is_refused_before_it_expands() -> None:
    # 9 levels of 9 aliases would be 9**10 (3.5 billion) strings. a0..a4 expand to
    # 10, 91, 820, 7381 and 66430 nodes; the aliases of a1..a4 add 9 x the level below:
    # 90 + 819 + 7380 + 66429 = 74,718 nodes, and a5's add 597,870 more: over the cap.
    error = error_of(billion_laughs())
    assert f"aliases expand the data by more than {MAX_ALIAS_NODES:,} nodes" in error.message
    assert error.line == 6  # a5's aliases cross the cap


def test_aliases_under_the_cap_expand() -> None:
    data = load_yaml(billion_laughs(levels=2))
    assert data["a2"] == [[["lol"] * 9] * 9] * 9  # 9 x 9 x 9 strings


@pytest.mark.parametrize(
    ("text", "line"),
    [
        # libyaml's composer would overflow the C stack on this, and from PyYAML
        # 6.0.4 libyaml's scanner stops it first with a cap of its own
        ("[" * 100_000, 1),
        ("- " * 100_000 + "x\n", 1),  # block sequences nest on one line
        # the mapping one level too deep is the value of line 64's key: line 65
        (
            "".join(" " * i + "k:\n" for i in range(MAX_DEPTH + 1)) + " " * (MAX_DEPTH + 1) + "v\n",
            65,
        ),
    ],
    ids=["flow", "block-sequence", "block-mapping"],
)
def test_a_nesting_bomb_is_refused(text: str, line: int) -> None:
    error = error_of(text)
    assert error.message == f"nesting deeper than {MAX_DEPTH} levels"
    assert error.line == line


def test_a_parsers_own_depth_cap_is_worded_as_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whichever cap fires first, ours or the parser's, the user reads one message
    (libyaml's, as PyYAML 6.0.4 raises it, is put in the parser's place here)."""
    mark = yaml.Mark("<unicode string>", 0, 3, 0, None, None)

    def capped(self: object) -> bool:
        raise ScannerError(
            "while increasing flow level", mark, "exceeded maximum nesting depth", mark
        )

    monkeypatch.setattr(yamlio._Loader, "check_event", capped)
    error = error_of("[[[]]]\n")
    assert (error.message, error.line) == (f"nesting deeper than {MAX_DEPTH} levels", 4)


def test_nesting_at_the_limit_is_read() -> None:
    text = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    value = load_yaml(text)
    for _ in range(MAX_DEPTH - 1):
        value = value[0]
    assert value == []


def test_nodes_are_built_one_by_one_so_one_bad_value_stays_local() -> None:
    root = compose_yaml("good: {k: 1}\nbad: {k: 1, k: 2}\n")
    entries = mapping_entries(root)  # type: ignore[arg-type]
    assert [(key, line) for key, line, _ in entries] == [("good", 1), ("bad", 2)]
    assert construct(entries[0][2]) == {"k": 1}
    with pytest.raises(InputError, match="duplicate key 'k'") as excinfo:
        construct(entries[1][2])
    assert excinfo.value.line == 2


def test_mapping_entries_keep_duplicates_for_the_caller() -> None:
    entries = mapping_entries(compose_yaml("R1: a\nR1: b\n"))  # type: ignore[arg-type]
    assert [(key, line) for key, line, _ in entries] == [("R1", 1), ("R1", 2)]
