"""Strict, position-keeping YAML reading.

Variant and case files are read with PyYAML's safe composer, then built into
plain Python data by hand so that nothing is lost or silently accepted:
duplicate keys, merge keys, non-standard tags, non-string keys, recursive
aliases, documents that expand past a fixed budget (alias bombs) and text that
is not UTF-8 are all reported, each with its line and column. Plain anchors and
aliases are allowed: variant files use them to repeat a citation.
Every node's position is kept, keyed by its document path, so that later checks
(the JSON Schema, semantic checks) can say where a problem is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .errors import Problem, ProblemCode

Path = tuple[str | int, ...]

_PLAIN_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}


@dataclass
class Document:
    """A YAML document as plain data, with the position of every node."""

    name: str
    data: Any
    positions: dict[Path, tuple[int, int]] = field(default_factory=dict)

    def where(self, path: Path) -> tuple[int | None, int | None]:
        """Line and column (1-based) of ``path``, or of its nearest ancestor that has one."""
        probe = tuple(path)
        while True:
            if probe in self.positions:
                return self.positions[probe]
            if not probe:
                return None, None
            probe = probe[:-1]

    def problem(
        self, code: ProblemCode, path: Path, message: str, fix: str | None = None
    ) -> Problem:
        """A problem located at ``path`` in this document."""
        line, column = self.where(path)
        return Problem(
            code=code,
            message=message,
            file=self.name,
            line=line,
            column=column,
            path=tuple(path),
            fix=fix,
        )


#: The most values one document may expand to once aliases are followed. Real
#: files hold a few thousand; an alias bomb expands to billions.
MAX_VALUES = 200_000


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader; only its composer and scalar constructor are used."""


def _mark(node: Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Builder:
    def __init__(self, name: str, loader: _Loader) -> None:
        self.name = name
        self.loader = loader
        self.positions: dict[Path, tuple[int, int]] = {}
        self.problems: list[Problem] = []
        self.count = 0
        self.active: set[int] = set()

    def _problem(self, code: ProblemCode, node: Node, path: Path, message: str, fix: str) -> None:
        line, column = _mark(node)
        self.problems.append(
            Problem(
                code=code,
                message=message,
                file=self.name,
                line=line,
                column=column,
                path=path,
                fix=fix,
            )
        )

    def build(self, node: Node, path: Path) -> Any:
        """Build ``node`` into plain data, recording its position under ``path``."""
        self.count += 1
        if self.count > MAX_VALUES:
            raise _TooLarge(node)
        if id(node) in self.active:
            self._problem(
                ProblemCode.YAML_ALIAS,
                node,
                path,
                "an alias refers to a node that contains it (recursive alias)",
                "write the value out instead of aliasing its container",
            )
            return None
        self.positions[path] = _mark(node)
        self.active.add(id(node))
        try:
            return self._build(node, path)
        finally:
            self.active.discard(id(node))

    def _build(self, node: Node, path: Path) -> Any:
        if node.tag not in _PLAIN_TAGS:
            self._problem(
                ProblemCode.YAML_TAG,
                node,
                path,
                f"tag {node.tag!r} is not allowed",
                "use plain YAML scalars, mappings and lists only",
            )
            return None
        if isinstance(node, MappingNode):
            return self._mapping(node, path)
        if isinstance(node, SequenceNode):
            return [self.build(item, (*path, index)) for index, item in enumerate(node.value)]
        assert isinstance(node, ScalarNode)
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.YAMLError as error:
            self._problem(
                ProblemCode.YAML_SYNTAX, node, path, f"bad scalar: {error}", "fix the value"
            )
            return None

    def _mapping(self, node: MappingNode, path: Path) -> dict[str, Any]:
        result: dict[str, Any] = {}
        first_seen: dict[str, tuple[int, int]] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                self._problem(
                    ProblemCode.YAML_ALIAS,
                    key_node,
                    path,
                    "merge keys (<<) are not allowed",
                    "write the keys out in full",
                )
                continue
            key = self._key(key_node, path)
            if not isinstance(key, str):
                self._problem(
                    ProblemCode.NON_STRING_KEY,
                    key_node,
                    path,
                    f"key {key!r} is not a string",
                    "quote the key",
                )
                continue
            if key in first_seen:
                line, column = first_seen[key]
                self._problem(
                    ProblemCode.DUPLICATE_KEY,
                    key_node,
                    (*path, key),
                    f"duplicate key {key!r} (first given at line {line}, column {column})",
                    "remove one of the two; nothing is merged or overwritten",
                )
                continue
            first_seen[key] = _mark(key_node)
            result[key] = self.build(value_node, (*path, key))
        return result

    def _key(self, node: Node, path: Path) -> Any:
        if not isinstance(node, ScalarNode) or node.tag not in _PLAIN_TAGS:
            return None
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.YAMLError:
            return None


class _TooLarge(Exception):
    def __init__(self, node: Node) -> None:
        self.node = node


def read_text(raw: bytes, name: str) -> tuple[str | None, list[Problem]]:
    """Decode ``raw`` as UTF-8 (a BOM is allowed), or report where it is not."""
    start = 3 if raw.startswith(b"\xef\xbb\xbf") else 0
    try:
        return raw[start:].decode("utf-8"), []
    except UnicodeDecodeError as error:
        offset = start + error.start
        line_start = raw.rfind(b"\n", start, offset) + 1 or start
        line = raw.count(b"\n", start, offset) + 1
        column = len(raw[line_start:offset].decode("utf-8", errors="replace")) + 1
        return None, [
            Problem(
                code=ProblemCode.NOT_UTF8,
                message=f"not UTF-8: byte 0x{raw[offset]:02x} at offset {offset}",
                file=name,
                line=line,
                column=column,
                fix="save the file as UTF-8",
            )
        ]


def parse_yaml(raw: bytes, name: str) -> tuple[Document | None, list[Problem]]:
    """Read one YAML document strictly. Returns the document, or None and the problems."""
    text, problems = read_text(raw, name)
    if text is None:
        return None, problems
    try:
        loader = _Loader(text)
    except yaml.reader.ReaderError as error:
        before = text[: error.position]
        return None, [
            Problem(
                code=ProblemCode.YAML_SYNTAX,
                message=f"character {error.character!r} is not allowed in YAML",
                file=name,
                line=before.count("\n") + 1,
                column=error.position - (before.rfind("\n") + 1) + 1,
                fix="remove the control character",
            )
        ]
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        message = " ".join(part for part in (error.context, error.problem) if part)
        return None, [
            Problem(
                code=ProblemCode.YAML_SYNTAX,
                message=message or "not valid YAML",
                file=name,
                line=mark.line + 1 if mark else None,
                column=mark.column + 1 if mark else None,
                fix="fix the YAML syntax at this point",
            )
        ]
    except yaml.YAMLError as error:
        return None, [
            Problem(code=ProblemCode.YAML_SYNTAX, message=str(error), file=name, fix="fix the YAML")
        ]
    finally:
        loader.dispose()
    if node is None:
        return Document(name=name, data=None, positions={(): (1, 1)}), []
    builder = _Builder(name, loader)
    try:
        data = builder.build(node, ())
    except _TooLarge as error:
        line, column = _mark(error.node)
        return None, [
            Problem(
                code=ProblemCode.YAML_ALIAS,
                message=f"the document expands to more than {MAX_VALUES} values "
                "through its aliases (an alias bomb?)",
                file=name,
                line=line,
                column=column,
                fix="write the values out instead of nesting aliases",
            )
        ]
    if builder.problems:
        return None, builder.problems
    return Document(name=name, data=data, positions=builder.positions), []
