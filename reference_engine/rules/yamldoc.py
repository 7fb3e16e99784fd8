"""Strict, position-keeping YAML reading: a file or text into a located :class:`Document`.

Variant and case files are read with PyYAML's safe composer, then built into
plain Python data by hand so that nothing is lost or silently accepted:
duplicate keys, merge keys, non-standard tags, non-string keys, recursive
aliases, documents that expand past a fixed budget (alias bombs) and text that
is not UTF-8 are all reported, each with its line and column. Plain anchors and
aliases are allowed: variant files use them to repeat a citation.
Every node's position is kept, keyed by its document path, so that later checks
(the JSON Schema, semantic checks) can say where a problem is. Building the
nodes, and finding what is refused, is :mod:`.yamlbuild`; this module decodes
the text, composes it and turns every failure into a located problem.

Plain scalars that YAML 1.1 and YAML 1.2 readers read differently, or that are
easily misread (``yes``, ``on``, ``017``, ``1:30``, ``1_000``, ``.nan``), are
refused rather than guessed at, and nesting is limited to :data:`MAX_DEPTH`
levels so that no document can exhaust the stack. Files are read through
:func:`reference_engine.safeio.read_input` (:func:`read_yaml_file`), which
refuses anything that is not a regular file of reasonable size before parsing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import yaml

# A module import, not ``from ..safeio import``: safeio imports this package's
# vocabulary, so either module may be the first one imported.
from .. import safeio
from .errors import Problem, ProblemCode
from .yamlbuild import MAX_DEPTH as MAX_DEPTH
from .yamlbuild import MAX_DIGITS as MAX_DIGITS
from .yamlbuild import MAX_VALUES as MAX_VALUES
from .yamlbuild import Builder, DepthLimitedLoader, TooDeep, TooLarge, node_mark
from .yamlbuild import Path as Path


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
        loader = (
            _FAST_LOADER(text) if trusted and _FAST_LOADER is not None else DepthLimitedLoader(text)
        )
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
    except TooDeep as error:
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
    builder = Builder(name, loader)
    try:
        data = builder.build(node, ())
    except TooLarge as error:
        line, column = node_mark(error.node)
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
