"""Building composed YAML nodes into plain data, strictly, keeping every node's position.

The node-level half of strict YAML reading (:mod:`.yamldoc` is the document
level): :class:`DepthLimitedLoader` composes nodes but stops at
:data:`MAX_DEPTH` levels of nesting, and :class:`Builder` turns nodes into
plain Python data, recording each position under its document path and
reporting what is refused, each at its line and column: duplicate keys, merge
keys, non-standard tags, non-string keys, recursive aliases, more than
:data:`MAX_VALUES` values once aliases are followed (:class:`TooLarge`), and
plain scalars that YAML 1.1 and YAML 1.2 readers read differently, or that are
easily misread (``yes``, ``on``, ``017``, ``1:30``, ``1_000``, ``.nan``).
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.events import MappingStartEvent, SequenceStartEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .errors import Problem, ProblemCode
from .yamldoc import Path

_PLAIN_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}


#: The most values one document may expand to once aliases are followed. Real
#: files hold a few thousand; an alias bomb expands to billions.
MAX_VALUES = 200_000

#: The deepest nesting of lists and mappings one document may have. Real files
#: nest six levels; PyYAML's composer recurses once per level and would exhaust
#: the stack on a few thousand.
MAX_DEPTH = 100

#: The most digits a number may have (Python refuses to read more than 4300).
MAX_DIGITS = 100


class TooDeep(Exception):
    """Lists and mappings nest past :data:`MAX_DEPTH`, at ``mark``."""

    def __init__(self, mark: yaml.Mark) -> None:
        self.mark = mark


class DepthLimitedLoader(yaml.SafeLoader):
    """PyYAML's safe loader; only its composer and scalar constructor are used.

    The composer counts how deeply lists and mappings nest and stops at
    :data:`MAX_DEPTH`, before Python's own recursion limit is reached.
    """

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.depth = 0

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        nests = self.check_event(SequenceStartEvent, MappingStartEvent)
        if nests:
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise TooDeep(self.current_event.start_mark)
        try:
            return super().compose_node(parent, index)
        finally:
            if nests:
                self.depth -= 1


# --------------------------------------------------------------------------- plain scalars

_TAG_BOOL = "tag:yaml.org,2002:bool"
_TAG_INT = "tag:yaml.org,2002:int"
_TAG_FLOAT = "tag:yaml.org,2002:float"
_TAG_STR = "tag:yaml.org,2002:str"

#: The only spellings of a boolean.
_BOOLEANS = frozenset({"true", "false"})
#: Plain words, compared in lower case, that some YAML reader takes for a boolean.
_WORD_BOOLEANS = frozenset({"yes", "no", "on", "off", "y", "n", "true", "false"})
#: An integer as it must be written: decimal, no leading zero, no underscore.
_DECIMAL_INTEGER = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
#: Plain text that YAML 1.1 reads as a string but YAML 1.2 as a number:
#: ``0o17``, ``089``, ``1e3``, ``1.5E3``.
_YAML12_NUMBER = re.compile(
    r"[-+]?(?:0o[0-7]+|[0-9]+|(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)[eE][-+]?[0-9]+)"
)

_FIX_BOOLEAN = "write true or false, or quote it if you mean the text"
_FIX_NUMBER = "write the number in plain decimal, or quote it if you mean the text"


def _scalar_rule(node: ScalarNode) -> tuple[str, str] | None:
    """What is wrong with a scalar YAML readers disagree on, and its fix; None if nothing."""
    text = node.value
    if node.tag == _TAG_BOOL or (
        node.tag == _TAG_STR and node.style is None and text.lower() in _WORD_BOOLEANS
    ):
        if text in _BOOLEANS and node.tag == _TAG_BOOL:
            return None
        return (
            f"{text!r} is a boolean to some YAML readers and text to others; "
            "booleans are written true or false",
            _FIX_BOOLEAN,
        )
    if node.tag == _TAG_STR:
        if node.style is None and _YAML12_NUMBER.fullmatch(text):
            return f"{text!r} is a number to some YAML readers and text to others", _FIX_NUMBER
        return None
    if node.tag not in (_TAG_INT, _TAG_FLOAT):
        return None
    lowered = text.lower()
    if "nan" in lowered or "inf" in lowered:
        return (
            f"{text!r}: not-a-number and infinity are not allowed",
            "write a finite number, or quote it if you mean the text",
        )
    if "_" in text:
        return f"{text!r}: underscores are not allowed in numbers", _FIX_NUMBER
    if ":" in text:
        return (
            f"{text!r} is a base-60 number to YAML 1.1 readers and text to others",
            _FIX_NUMBER,
        )
    if node.tag == _TAG_INT and not _DECIMAL_INTEGER.fullmatch(text):
        return (
            f"{text!r} is an octal, hexadecimal or binary number to some YAML readers",
            _FIX_NUMBER,
        )
    return None


def node_mark(node: Node) -> tuple[int, int]:
    """The line and column (1-based) where ``node`` starts."""
    return node.start_mark.line + 1, node.start_mark.column + 1


class Builder:
    """Builds the nodes of one document (``name``) composed by ``loader`` into plain data.

    Positions are recorded in :attr:`positions` and what is refused in
    :attr:`problems`; :class:`TooLarge` stops a document past :data:`MAX_VALUES`.
    """

    def __init__(self, name: str, loader: Any) -> None:
        self.name = name
        self.loader = loader
        self.positions: dict[Path, tuple[int, int]] = {}
        self.problems: list[Problem] = []
        self.count = 0
        self.active: set[int] = set()

    def _problem(self, code: ProblemCode, node: Node, path: Path, message: str, fix: str) -> None:
        line, column = node_mark(node)
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
            raise TooLarge(node)
        if id(node) in self.active:
            self._problem(
                ProblemCode.YAML_ALIAS,
                node,
                path,
                "an alias refers to a node that contains it (recursive alias)",
                "write the value out instead of aliasing its container",
            )
            return None
        self.positions[path] = node_mark(node)
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
        wrong = _scalar_rule(node)
        if wrong is not None:
            self._problem(ProblemCode.YAML_AMBIGUOUS, node, path, *wrong)
            return None
        if node.tag == "tag:yaml.org,2002:int" and len(node.value) > MAX_DIGITS:
            self._problem(
                ProblemCode.YAML_SYNTAX,
                node,
                path,
                f"a number of {len(node.value):,} digits; no value here has more than {MAX_DIGITS}",
                "fix the value",
            )
            return None
        try:
            return self.loader.construct_object(node, deep=True)
        except Exception as error:  # PyYAML's constructors raise IndexError, KeyError... too
            reason = (
                str(error)
                if isinstance(error, (yaml.YAMLError, ValueError))
                else (
                    f"{node.value!r} is not a value of the type {node.tag.rsplit(':', 1)[-1]} "
                    "it is tagged with"
                )
            )
            self._problem(
                ProblemCode.YAML_SYNTAX, node, path, f"bad scalar: {reason}", "fix the value"
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
            first_seen[key] = node_mark(key_node)
            result[key] = self.build(value_node, (*path, key))
        return result

    def _key(self, node: Node, path: Path) -> Any:
        if not isinstance(node, ScalarNode) or node.tag not in _PLAIN_TAGS:
            return None
        if len(node.value) > MAX_DIGITS and node.tag == "tag:yaml.org,2002:int":
            return None
        try:
            return self.loader.construct_object(node, deep=True)
        except Exception:  # PyYAML's constructors raise IndexError, KeyError... on odd scalars
            return None


class TooLarge(Exception):
    """The document expands past :data:`MAX_VALUES` values, at ``node``."""

    def __init__(self, node: Node) -> None:
        self.node = node
