"""Parsing YAML text strictly: the two loaders, composing, and every failure as a located problem.

Files are parsed by libyaml where PyYAML has it (:class:`LibyamlLoader`), else
by PyYAML's own parser, composed into nodes with nesting limited to
:data:`MAX_DEPTH` levels, then built into plain data by :mod:`.yamlbuild`.
Both loaders (:data:`LOADERS`) read every document alike and refuse the same,
in the same words. This is the part of reading YAML that needs PyYAML:
:mod:`.yamldoc`, the reading's front door, imports it only when a file must
really be parsed (not when the project's own file was read before).
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    MappingEndEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .errors import Problem, ProblemCode
from .yamlbuild import MAX_DEPTH, MAX_VALUES, Builder, DepthLimitedLoader, TooDeep, TooLarge
from .yamldoc import Document, read_text

#: Whether PyYAML was built with libyaml (``yaml.CSafeLoader``).
HAVE_LIBYAML: bool = hasattr(yaml, "CSafeLoader")

# Without libyaml the class below is still defined (over PyYAML's own parser, which
# it reads just as well) but not offered: DepthLimitedLoader is the tried one.
_EVENTS_FROM: Any = yaml.CSafeLoader if HAVE_LIBYAML else yaml.SafeLoader


class _PyYamlReads(Exception):
    """libyaml met what only PyYAML's own reader reads as the loaders promise."""


class LibyamlLoader(_EVENTS_FROM):  # type: ignore[misc]
    """libyaml's scanner and parser, composed here into the very nodes PyYAML's composer makes.

    libyaml's own composer recurses in C with no depth limit that every build
    has, and marks plain scalars with style ``''`` where PyYAML writes ``None``
    (which :mod:`.yamlbuild`'s scalar checks rely on); so only its events are
    used. This composer reads only what it knows libyaml and PyYAML read alike;
    anything else raises :class:`_PyYamlReads`, and PyYAML's reader reads the
    document again (:func:`_compose`): an error, a tag, an alias it cannot place,
    nesting past :data:`MAX_DEPTH`, and in a flow collection a plain scalar with
    a ``?`` (where PyYAML ends it) or an empty value (which PyYAML places elsewhere).
    """

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.anchors: dict[str, Node] = {}
        self.depth = 0
        self.flow = 0

    def get_single_node(self) -> Node | None:
        """The root node of the stream's only document (None for an empty stream)."""
        self.get_event()  # the stream starts
        node = None
        if not self.check_event(StreamEndEvent):
            self.get_event()  # the document starts
            node = self._compose()
            self.get_event()  # the document ends
        if not self.check_event(StreamEndEvent):
            raise _PyYamlReads  # a second document
        return node

    def _compose(self) -> Node:
        event = self.get_event()
        kind = type(event)
        anchor = event.anchor
        if kind is AliasEvent:
            if anchor not in self.anchors:
                raise _PyYamlReads
            return self.anchors[anchor]
        if event.tag is not None or anchor in self.anchors:
            raise _PyYamlReads  # libyaml reads tags otherwise (``!`` alone, odd handles)
        node: Node
        if kind is ScalarEvent:
            if self.flow and not event.style and (not event.value or "?" in event.value):
                raise _PyYamlReads  # a null in a flow collection: PyYAML places it elsewhere
            tag = self.resolve(ScalarNode, event.value, event.implicit)
            style = event.style or None  # libyaml's '' for a plain scalar is PyYAML's None
            node = ScalarNode(tag, event.value, event.start_mark, event.end_mark, style=style)
            if anchor is not None:
                self.anchors[anchor] = node
            return node
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _PyYamlReads
        flow = 1 if event.flow_style else 0
        self.flow += flow
        if kind is SequenceStartEvent:
            tag = self.resolve(SequenceNode, None, event.implicit)
            node = SequenceNode(tag, [], event.start_mark, None, flow_style=event.flow_style)
            if anchor is not None:
                self.anchors[anchor] = node
            while not self.check_event(SequenceEndEvent):
                node.value.append(self._compose())
        else:
            tag = self.resolve(MappingNode, None, event.implicit)
            node = MappingNode(tag, [], event.start_mark, None, flow_style=event.flow_style)
            if anchor is not None:
                self.anchors[anchor] = node
            while not self.check_event(MappingEndEvent):
                key = self._compose()
                node.value.append((key, self._compose()))
        node.end_mark = self.get_event().end_mark
        self.depth -= 1
        self.flow -= flow
        return node


#: The strict loaders by name; both read every document alike and refuse exactly
#: the same, at the same places. ``python`` is PyYAML's pure-Python reader;
#: ``libyaml`` is about ten times faster and is there when PyYAML was built with it.
LOADERS: tuple[str, ...] = ("python", "libyaml") if HAVE_LIBYAML else ("python",)

#: What libyaml reads otherwise than PyYAML: tabs as separators (PyYAML refuses
#: them outside quotes), a byte order mark after the start (it counts one more
#: column), a comment right after a block scalar's header (``|#``, which PyYAML
#: refuses); and, to be safe, the line breaks only YAML 1.1 has (NEL, LS, PS).
#: Tags, and a flow collection's ``?`` and empty values, are the other
#: differences; :class:`LibyamlLoader` hands those documents back.
_LIBYAML_DIFFERS = re.compile(r"[\t\x85\u2028\u2029\ufeff]|[|>][-+0-9]*#")


def libyaml_agrees(text: str) -> bool:
    """Whether libyaml reads ``text`` exactly as PyYAML does, marks included.

    Not where :data:`_LIBYAML_DIFFERS` finds something, nor at the end of a last
    line without a line break (libyaml places the empty values there on the next
    line). The differential tests, tests/test_yaml_loaders.py, keep this true.
    """
    return (not text or text.endswith("\n")) and _LIBYAML_DIFFERS.search(text) is None


#: The loader :func:`parse_yaml` uses unless told otherwise.
DEFAULT_LOADER = "libyaml" if HAVE_LIBYAML else "python"


def _unprintable(text: str, name: str) -> list[Problem]:
    """A character YAML does not allow (a control character), located; [] if there is none.

    Checked here, with PyYAML's own pattern, for both loaders alike.
    """
    found = yaml.reader.Reader.NON_PRINTABLE.search(text)
    if found is None:
        return []
    offset = found.start()
    return [
        Problem(
            code=ProblemCode.YAML_SYNTAX,
            message=f"character {found.group()!r} is not allowed in YAML",
            file=name,
            line=text.count("\n", 0, offset) + 1,
            column=offset - text.rfind("\n", 0, offset),
            fix="remove the control character",
        )
    ]


def _compose(text: str, loader: str) -> tuple[Node | None, Any]:
    """The document's root node, and the loader whose constructor builds its scalars.

    libyaml's reading is used only for text where it agrees with PyYAML's to the
    character (:func:`libyaml_agrees`), and only when it succeeds: on any failure
    PyYAML's own reader reads the text again, so what is refused, where and in
    which words, is always what the pure-Python loader says.
    """
    if loader == "libyaml" and libyaml_agrees(text):
        fast = LibyamlLoader(text)
        try:
            return fast.get_single_node(), fast
        except (yaml.YAMLError, _PyYamlReads):
            pass
        finally:
            fast.dispose()
    strict = DepthLimitedLoader(text)
    try:
        return strict.get_single_node(), strict
    finally:
        strict.dispose()


def parse_text(
    raw: bytes, name: str, loader: str | None = None
) -> tuple[Document | None, list[Problem]]:
    """Read one YAML document strictly, afresh (:func:`.yamldoc.parse_yaml` says how)."""
    text, problems = read_text(raw, name)
    if text is None:
        return None, problems
    problems = _unprintable(text, name)
    if problems:
        return None, problems
    if (loader or DEFAULT_LOADER) not in LOADERS:
        raise ValueError(f"no YAML loader {loader!r}; there are: {', '.join(LOADERS)}")
    try:
        node, composer = _compose(text, loader or DEFAULT_LOADER)
    except TooDeep as error:
        message = f"lists and mappings nest more than {MAX_DEPTH} levels deep"
        fix = "flatten the document; no variant or case needs this much nesting"
        return None, [_at(ProblemCode.YAML_DEPTH, name, error.mark, message, fix)]
    except yaml.MarkedYAMLError as error:
        message = " ".join(part for part in (error.context, error.problem) if part)
        mark = error.problem_mark or error.context_mark
        fix = "fix the YAML syntax at this point"
        return None, [_at(ProblemCode.YAML_SYNTAX, name, mark, message or "not valid YAML", fix)]
    except yaml.YAMLError as error:
        return None, [_at(ProblemCode.YAML_SYNTAX, name, None, str(error), "fix the YAML")]
    if node is None:
        return Document(name=name, data=None, positions={(): (1, 1)}), []
    builder = Builder(name, composer)
    try:
        data = builder.build(node, ())
    except TooLarge as error:
        message = (
            f"the document expands to more than {MAX_VALUES} values "
            "through its aliases (an alias bomb?)"
        )
        fix = "write the values out instead of nesting aliases"
        return None, [_at(ProblemCode.YAML_ALIAS, name, error.node.start_mark, message, fix)]
    if builder.problems:
        return None, builder.problems
    return Document(name=name, data=data, positions=builder.positions), []


def _at(code: ProblemCode, name: str, mark: Any, message: str, fix: str) -> Problem:
    """A problem of the file ``name`` at a YAML ``mark`` (0-based), or at none."""
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
    return Problem(code=code, message=message, file=name, line=line, column=column, fix=fix)
