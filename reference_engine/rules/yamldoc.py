"""Strict, position-keeping YAML reading.

Variant and case files are read with PyYAML's safe composer, then built into
plain Python data by hand so that nothing is lost or silently accepted:
duplicate keys, merge keys, non-standard tags, non-string keys, recursive
aliases, documents that expand past a fixed budget (alias bombs) and text that
is not UTF-8 are all reported, each with its line and column. Plain anchors and
aliases are allowed: variant files use them to repeat a citation.
Every node's position is kept, keyed by its document path, so that later checks
(the JSON Schema, semantic checks) can say where a problem is.

Plain scalars that YAML 1.1 and YAML 1.2 readers read differently, or that are
easily misread (``yes``, ``on``, ``017``, ``1:30``, ``1_000``, ``.nan``), are
refused rather than guessed at, and nesting is limited to :data:`MAX_DEPTH`
levels so that no document can exhaust the stack. Files are read through
:func:`reference_engine.safeio.read_input` (:func:`read_yaml_file`), which
refuses anything that is not a regular file of reasonable size before parsing.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.events import MappingStartEvent, SequenceStartEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

# A module import, not ``from ..safeio import``: safeio imports this package's
# vocabulary, so either module may be the first one imported.
from .. import safeio
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

#: The deepest nesting of lists and mappings one document may have. Real files
#: nest six levels; PyYAML's composer recurses once per level and would exhaust
#: the stack on a few thousand.
MAX_DEPTH = 100

#: The most digits a number may have (Python refuses to read more than 4300).
MAX_DIGITS = 100


class _TooDeep(Exception):
    def __init__(self, mark: yaml.Mark) -> None:
        self.mark = mark


class _Loader(yaml.SafeLoader):
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
                raise _TooDeep(self.current_event.start_mark)
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


def _mark(node: Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Builder:
    def __init__(self, name: str, loader: Any) -> None:
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
        except (yaml.YAMLError, ValueError) as error:
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
        if len(node.value) > MAX_DIGITS and node.tag == "tag:yaml.org,2002:int":
            return None
        try:
            return self.loader.construct_object(node, deep=True)
        except (yaml.YAMLError, ValueError):
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


#: libyaml's composer, where PyYAML was built with it: about ten times faster than
#: the pure-Python one. Used only for the project's own shipped files (``trusted``),
#: whose nesting is known; the builder's checks (keys, tags, scalars, aliases)
#: apply to its nodes all the same.
_FAST_LOADER: Any = getattr(yaml, "CSafeLoader", None)


def parse_yaml(
    raw: bytes, name: str, *, trusted: bool = False
) -> tuple[Document | None, list[Problem]]:
    """Read one YAML document strictly. Returns the document, or None and the problems.

    ``trusted`` files (the ones the project ships) are composed by libyaml when it
    is there; every other file by the depth-limited pure-Python composer.
    """
    text, problems = read_text(raw, name)
    if text is None:
        return None, problems
    try:
        loader = _FAST_LOADER(text) if trusted and _FAST_LOADER is not None else _Loader(text)
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
    except _TooDeep as error:
        return None, [
            Problem(
                code=ProblemCode.YAML_DEPTH,
                message=f"lists and mappings nest more than {MAX_DEPTH} levels deep",
                file=name,
                line=error.mark.line + 1,
                column=error.mark.column + 1,
                fix="flatten the document; no variant or case needs this much nesting",
            )
        ]
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


#: How to put right a file that cannot be read, where safeio's message gives no
#: advice, by :class:`safeio.FileProblem` value (safeio may not be fully imported yet).
_INPUT_FIXES = {
    "not_found": "check the path",
    "symlink_loop": "point the link at a file",
    "unreadable": "check the file's permissions",
}


def input_problem(error: safeio.InputError) -> Problem:
    """The located problem for a file that :func:`safeio.read_input` refused."""
    what, _, advice = error.message.partition("; ")
    return Problem(
        code=ProblemCode(error.code.value),
        message=f"cannot read the file: {what}",
        file=error.path,
        fix=advice or _INPUT_FIXES.get(error.code.value),
    )


def read_yaml_file(
    path: str | os.PathLike[str], *, trusted: bool = False
) -> tuple[Document | None, list[Problem]]:
    """Read and parse one YAML file, refusing what is not a regular file within the size limit.

    Problems name the file as ``path`` is written; ``trusted`` is for the
    project's own shipped files (see :func:`parse_yaml`).
    """
    try:
        raw = safeio.read_input(path, safeio.FileKind.YAML)
    except safeio.InputError as error:
        return None, [input_problem(error)]
    return parse_yaml(raw, str(path), trusted=trusted)
