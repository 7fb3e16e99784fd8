"""Strict, position-keeping YAML reading: a file or text into a located :class:`Document`.

Files are parsed by libyaml where PyYAML has it (:class:`LibyamlLoader`), else
by PyYAML's own parser, composed into nodes with nesting limited to
:data:`MAX_DEPTH` levels, then built into plain Python data by hand so that
nothing is lost or silently accepted: duplicate keys, merge keys, non-standard
tags, non-string keys, recursive aliases, documents that expand past a fixed
budget (alias bombs), text that is not UTF-8, and plain scalars that YAML 1.1
and YAML 1.2 readers read differently or that are easily misread (``yes``,
``on``, ``017``, ``1:30``, ``1_000``, ``.nan``) are all reported, each with its
line and column. Plain anchors and aliases are allowed: variant files use them
to repeat a citation. Both loaders (:data:`LOADERS`) read every document alike
and refuse the same, in the same words. Every node's position is kept, keyed by
its document path, so that later checks can say where a problem is. Building
the nodes, and finding what is refused, is :mod:`.yamlbuild`; this module
decodes the text, composes it and turns every failure into a located problem.

Files are read through :func:`reference_engine.safeio.read_input`
(:func:`read_yaml_file`), which refuses anything that is not a regular file of
reasonable size before parsing. What the project's own files were read into is
remembered between runs (:func:`_remembered`), keyed by their bytes.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import re
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path as FilePath
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

# A module import, not ``from ..safeio import``: safeio imports this package's
# vocabulary, so either module may be the first one imported.
from .. import safeio
from . import yamlbuild
from .errors import Problem, ProblemCode
from .yamlbuild import MAX_DEPTH as MAX_DEPTH
from .yamlbuild import MAX_DIGITS as MAX_DIGITS
from .yamlbuild import MAX_VALUES as MAX_VALUES
from .yamlbuild import Builder, DepthLimitedLoader, TooDeep, TooLarge
from .yamlbuild import Path as Path

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


def parse_yaml(
    raw: bytes, name: str, *, loader: str | None = None, trusted: bool = False
) -> tuple[Document | None, list[Problem]]:
    """Read one YAML document strictly. Returns the document, or None and the problems.

    ``loader`` names one of :data:`LOADERS` (default :data:`DEFAULT_LOADER`);
    both refuse exactly the same. ``trusted`` marks a file the project ships:
    what reading it gave is remembered (:func:`_remembered`), and read back when
    the same bytes come again; every other file is read afresh every time.
    """
    if trusted:
        document = _remembered(raw, name)
        if document is not None:
            return document, []
        document, problems = parse_yaml(raw, name, loader=loader)
        if document is not None:
            _remember(raw, document)
        return document, problems
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
    path: str | os.PathLike[str], *, loader: str | None = None, trusted: bool = False
) -> tuple[Document | None, list[Problem]]:
    """Read and parse one YAML file, refusing what is not a regular file within the size limit.

    Problems name the file as ``path`` is written; ``loader`` and ``trusted`` are
    as for :func:`parse_yaml`.
    """
    try:
        raw = safeio.read_input(path, safeio.FileKind.YAML)
    except safeio.InputError as error:
        return None, [input_problem(error)]
    return parse_yaml(raw, str(path), loader=loader, trusted=trusted)


# --------------------------------------------------------------------------- remembered readings

#: The most readings remembered; the oldest go first (a few dozen files ship).
KEEP_READINGS = 200


def _cache_folder() -> FilePath:
    """Where readings are kept: ``$XDG_CACHE_HOME/matador/yaml`` (``~/.cache`` by default)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return FilePath(base) / "matador" / "yaml"


@cache
def _reader() -> bytes:
    """A digest of what a reading depends on besides the bytes: this reader, PyYAML, Python."""
    digest = hashlib.sha256(f"{yaml.__version__} {sys.version} {marshal.version}".encode())
    for module in (__file__, yamlbuild.__file__):
        digest.update(FilePath(module).read_bytes())
    return digest.digest()


def _entry(raw: bytes) -> FilePath:
    return _cache_folder() / f"{hashlib.sha256(_reader() + raw).hexdigest()}.marshal"


def _remembered(raw: bytes, name: str) -> Document | None:
    """The document these very bytes were read into before, or None.

    Kept as :mod:`marshal` data (plain values only: the format and the trust of
    Python's own ``__pycache__``) under a digest of the bytes and of the reader,
    so that a change to either is read afresh; a damaged entry is ignored.
    """
    try:
        stored = _entry(raw).read_bytes()
        if hashlib.sha256(stored[32:]).digest() != stored[:32]:
            return None
        data, positions = marshal.loads(stored[32:])
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return Document(name=name, data=data, positions=positions)


def _remember(raw: bytes, document: Document) -> None:
    """Keep ``document``, read from ``raw``, for :func:`_remembered` (if the folder is writable)."""
    payload = marshal.dumps((document.data, document.positions))
    with contextlib.suppress(OSError, ValueError, safeio.OutputError):
        entry = _entry(raw)
        entry.parent.mkdir(parents=True, exist_ok=True)
        safeio.write_atomically(entry, hashlib.sha256(payload).digest() + payload)
        kept = sorted(entry.parent.glob("*.marshal"), key=lambda path: path.stat().st_mtime)
        for old in kept[:-KEEP_READINGS]:
            old.unlink(missing_ok=True)
