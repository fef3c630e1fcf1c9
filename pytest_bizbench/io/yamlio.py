"""Safe YAML reading for case and prediction files: JSON data only.

YAML can say far more than JSON, and most of the extra is a trap for data files:
`no` read as False, `2024-01-05` as a date, `!!set`/`!!binary`/`!!python/...` tags,
last-wins duplicate keys, aliases that expand a few lines into gigabytes, nesting
deep enough to crash libyaml's composer. This reader lets none of it through:

- libyaml (`CSafeLoader`'s parser) when PyYAML has it, else PyYAML's pure-Python
  safe parser; never an unsafe constructor.
- The YAML 1.2 core schema: only `true`/`false` are booleans, `null`/`~`/empty are
  null, numbers are decimal (or `0o`/`0x`) with no sexagesimal or leading-zero
  octal; everything else, dates included, stays a string.
- Explicit tags may only build JSON types (`!!str`, `!!int`, `!!float`, `!!bool`,
  `!!null`, `!!seq`, `!!map`); any other tag is an error naming it.
- Mapping keys must be strings (an unquoted `1.1:` is an error asking for quotes,
  rather than silently becoming the number 1.1), duplicate keys are an error naming
  both lines, and merge keys (`<<`) are not supported.
- NaN, infinities and numbers that overflow a float are errors, as in `jsonio`.
- Before anything is built, one pass over the parser's events rejects nesting
  deeper than `MAX_DEPTH` and aliases that would expand the data by more than
  `MAX_ALIAS_NODES` nodes (or refer to themselves), so bombs fail fast.

Every problem is an `InputError` with the 1-based line where it was found.
"""

from __future__ import annotations

import math
import re
from typing import Any, ClassVar

import yaml
from yaml.constructor import ConstructorError, SafeConstructor

from .jsonio import MAX_DEPTH, TOO_DEEP, InputError

try:
    from yaml import CSafeLoader as _Parser
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    from yaml import SafeLoader as _Parser  # type: ignore[assignment]

MAX_ALIAS_NODES = 100_000
_YAML_TAG = "tag:yaml.org,2002:"
_INT = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
_FLOAT = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)
_NOT_FINITE = re.compile(r"^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$")


class _DataError(ConstructorError):
    """A YAML value that is well formed but not JSON data (ours, not PyYAML's)."""

    def __init__(self, problem: str, node: yaml.Node) -> None:
        super().__init__(None, None, problem, node.start_mark)


def _short_tag(tag: str) -> str:
    return "!!" + tag.removeprefix(_YAML_TAG) if tag.startswith(_YAML_TAG) else tag


def _number_text(text: str) -> str:
    return text if len(text) <= 40 else f"{text[:20]}...({len(text):,} characters)"


class _Loader(_Parser):
    """The parser and composer of libyaml, resolving plain scalars by YAML 1.2 core."""

    yaml_implicit_resolvers: dict[Any, Any] = {}  # noqa: RUF012 - PyYAML's registry, ours alone


for _tag, _pattern, _first in (
    ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("int", _INT.pattern, "-+0123456789"),
    ("float", _FLOAT.pattern, "-+0123456789."),
):
    _Loader.add_implicit_resolver(_YAML_TAG + _tag, re.compile(_pattern), list(_first))


class _JsonConstructor(SafeConstructor):
    """Builds plain JSON data from composed nodes; anything else is a `_DataError`."""

    yaml_constructors: ClassVar[dict[str | None, Any]] = {}  # filled in below

    def construct_json_int(self, node: yaml.ScalarNode) -> int:
        text = str(self.construct_scalar(node))
        if not _INT.match(text):
            raise _DataError(f"{text!r} is not an integer", node)
        sign, digits = (-1, text[1:]) if text.startswith("-") else (1, text.lstrip("+"))
        base = {"0o": 8, "0x": 16}.get(digits[:2], 10)
        try:
            value = sign * int(digits[2:] if base != 10 else digits, base)
            float(value)
        except (OverflowError, ValueError):  # ValueError: the int-string conversion limit
            raise _DataError(
                f"integer {_number_text(text)} is too large for a float", node
            ) from None
        return value

    def construct_json_bool(self, node: yaml.ScalarNode) -> bool:
        """PyYAML's, which raises KeyError for an explicit `!!bool` on another word."""
        text = str(self.construct_scalar(node))
        value: bool | None = self.bool_values.get(text.lower())
        if value is None:
            raise _DataError(f"{text!r} is not true or false", node)
        return value

    def construct_json_float(self, node: yaml.ScalarNode) -> float:
        text = str(self.construct_scalar(node))
        if _NOT_FINITE.match(text):
            raise _DataError(f"{text} is not allowed (JSON has no NaN or Infinity)", node)
        try:
            value = float(text)
        except ValueError:
            raise _DataError(f"{text!r} is not a number", node) from None
        if not math.isfinite(value):
            raise _DataError(f"number {_number_text(text)} is out of range", node)
        return value

    def construct_not_json(self, node: yaml.Node) -> None:
        raise _DataError(
            f"tag {_short_tag(node.tag)} is not allowed: case data is JSON data "
            "(strings, numbers, true/false, null, lists, mappings)",
            node,
        )

    def construct_key(self, node: yaml.Node) -> str:
        key = self.construct_object(node, deep=True)
        if not isinstance(key, str):
            shown = node.value if isinstance(node, yaml.ScalarNode) else f"of a {node_kind(node)}"
            hint = " (quote it)" if isinstance(node, yaml.ScalarNode) else ""
            raise _DataError(f"mapping key {shown} must be a string{hint}", node)
        if key == "<<" and isinstance(node, yaml.ScalarNode) and not node.style:
            raise _DataError("merge keys (<<) are not supported: write the keys out", node)
        return key

    def construct_mapping(self, node: yaml.Node, deep: bool = False) -> dict[Any, Any]:
        if not isinstance(node, yaml.MappingNode):
            raise _DataError(f"expected a mapping, found a {node_kind(node)}", node)
        mapping: dict[str, Any] = {}
        lines: dict[str, int] = {}
        for key_node, value_node in node.value:
            key = self.construct_key(key_node)
            if key in mapping:
                raise _DataError(f"duplicate key {key!r} (first at line {lines[key]})", key_node)
            mapping[key] = self.construct_object(value_node, deep=deep)
            lines[key] = node_line(key_node)
        return mapping


_JsonConstructor.yaml_constructors = {
    _YAML_TAG + "str": SafeConstructor.construct_yaml_str,
    _YAML_TAG + "null": SafeConstructor.construct_yaml_null,
    _YAML_TAG + "bool": _JsonConstructor.construct_json_bool,
    _YAML_TAG + "int": _JsonConstructor.construct_json_int,
    _YAML_TAG + "float": _JsonConstructor.construct_json_float,
    _YAML_TAG + "seq": SafeConstructor.construct_yaml_seq,
    _YAML_TAG + "map": SafeConstructor.construct_yaml_map,
    None: _JsonConstructor.construct_not_json,  # every other tag
}


def _input_error(exc: yaml.YAMLError) -> InputError:
    if not isinstance(exc, yaml.MarkedYAMLError):
        return InputError(f"malformed YAML: {exc}".replace("\n", " "))
    mark = exc.problem_mark or exc.context_mark
    line = int(mark.line) + 1 if mark is not None else None
    problem = exc.problem or exc.context or "unreadable YAML"
    if "nesting depth" in problem:
        # libyaml (from PyYAML 6.0.4) has a depth cap of its own, and its scanner
        # reads a run of open brackets ahead of the events our own cap counts
        return InputError(TOO_DEEP, line)
    if isinstance(exc, _DataError):
        return InputError(problem, line)
    if exc.context and exc.problem:  # PyYAML's pairs read "while X: Y" or "expected X, but Y"
        sep = ", " if exc.problem.startswith("but ") else ": "
        problem = f"{exc.context}{sep}{exc.problem}"
    return InputError(f"malformed YAML: {problem}", line)


def _line(event: yaml.Event) -> int | None:
    mark = event.start_mark
    return int(mark.line) + 1 if mark is not None else None


def _check_events(text: str) -> None:
    """Reject depth bombs and alias bombs from the event stream, before composing.

    Each open collection tracks its expanded size; an anchor remembers the size of
    its node, and an alias adds that size, so the count is what a reader walking
    the data would visit.
    """
    loader = _Loader(text)
    try:
        stack: list[list[Any]] = [[None, 0]]  # [anchor, expanded size] per open collection
        sizes: dict[str, int] = {}
        open_anchors: set[str] = set()
        added = 0
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.AliasEvent):
                anchor = str(event.anchor)
                if anchor in open_anchors:
                    raise InputError(
                        f"alias *{anchor} refers to a node that contains it "
                        "(recursive data is not JSON)",
                        _line(event),
                    )
                size = sizes.get(anchor, 1)
                added += size
                stack[-1][1] += size
                if added > MAX_ALIAS_NODES:
                    raise InputError(
                        f"aliases expand the data by more than {MAX_ALIAS_NODES:,} nodes "
                        "(an alias bomb?)",
                        _line(event),
                    )
            elif isinstance(event, yaml.ScalarEvent):
                stack[-1][1] += 1
                if event.anchor:
                    sizes[event.anchor] = 1
            elif isinstance(event, yaml.CollectionStartEvent):
                if len(stack) > MAX_DEPTH:
                    raise InputError(TOO_DEEP, _line(event))
                stack.append([event.anchor, 1])
                if event.anchor:
                    open_anchors.add(event.anchor)
            elif isinstance(event, yaml.CollectionEndEvent):
                anchor, size = stack.pop()
                if anchor:
                    sizes[anchor] = size
                    open_anchors.discard(anchor)
                stack[-1][1] += size
    except yaml.YAMLError as exc:
        raise _input_error(exc) from None
    finally:
        loader.dispose()


def compose_yaml(text: str) -> yaml.Node:
    """The node tree of a one-document YAML text, checked for bombs first."""
    _check_events(text)
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
    except yaml.YAMLError as exc:
        raise _input_error(exc) from None
    finally:
        loader.dispose()
    if node is None:
        raise InputError("no YAML document in the file (only comments?)")
    return node


def construct(node: yaml.Node) -> Any:
    """The JSON data of a composed node (or of any node inside it)."""
    try:
        return _JsonConstructor().construct_document(node)
    except yaml.YAMLError as exc:
        raise _input_error(exc) from None


def mapping_entries(node: yaml.MappingNode) -> list[tuple[str, int, yaml.Node]]:
    """(key, line, value node) of a mapping's entries, in order, keys checked as in
    `construct`; duplicates are kept, for callers that report them entry by entry."""
    constructor = _JsonConstructor()
    try:
        return [(constructor.construct_key(k), node_line(k), v) for k, v in node.value]
    except yaml.YAMLError as exc:
        raise _input_error(exc) from None


def load_yaml(text: str) -> Any:
    """Parse YAML text into JSON data; an `InputError` with a line for any problem."""
    return construct(compose_yaml(text))


def node_kind(node: yaml.Node) -> str:
    """`scalar`, `sequence` or `mapping`, for messages."""
    if isinstance(node, yaml.MappingNode):
        return "mapping"
    return "sequence" if isinstance(node, yaml.SequenceNode) else "scalar"


def node_line(node: yaml.Node) -> int:
    """The 1-based line a node starts on."""
    return int(node.start_mark.line) + 1
