"""Strict, position-keeping YAML reading: a file or text into a located :class:`Document`.

Files are parsed (:mod:`.yamlparse`) by libyaml where PyYAML has it, else
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
the nodes, and finding what is refused, is :mod:`.yamlbuild`; :mod:`.yamlparse`
decodes the text, composes it and turns every failure into a located problem;
this module is the front door, and needs PyYAML only when a file must be parsed.

Files are read through :func:`reference_engine.safeio.read_input`
(:func:`read_yaml_file`), which refuses anything that is not a regular file of
reasonable size before parsing. What the project's own files were read into is
remembered between runs (:func:`_remembered`), with their bytes.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import marshal
import os
import sys
import zlib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path as FilePath
from typing import TYPE_CHECKING, Any

# A module import, not ``from ..safeio import``: safeio imports this package's
# vocabulary, so either module may be the first one imported.
from .. import safeio
from .errors import Problem, ProblemCode

if TYPE_CHECKING:
    from .yamlbuild import MAX_DEPTH as MAX_DEPTH
    from .yamlbuild import MAX_DIGITS as MAX_DIGITS
    from .yamlbuild import MAX_VALUES as MAX_VALUES
    from .yamlparse import DEFAULT_LOADER as DEFAULT_LOADER
    from .yamlparse import HAVE_LIBYAML as HAVE_LIBYAML
    from .yamlparse import LOADERS as LOADERS
    from .yamlparse import LibyamlLoader as LibyamlLoader
    from .yamlparse import libyaml_agrees as libyaml_agrees

#: Where a value is in a document: its keys and indices from the top.
Path = tuple[str | int, ...]

#: Names of the parser (:mod:`.yamlparse`) and builder (:mod:`.yamlbuild`) given here
#: too, imported with PyYAML the first time one is asked for (PEP 562).
_LAZY = {
    "MAX_DEPTH": ".yamlbuild",
    "MAX_DIGITS": ".yamlbuild",
    "MAX_VALUES": ".yamlbuild",
    "DEFAULT_LOADER": ".yamlparse",
    "HAVE_LIBYAML": ".yamlparse",
    "LOADERS": ".yamlparse",
    "LibyamlLoader": ".yamlparse",
    "libyaml_agrees": ".yamlparse",
}


def __getattr__(name: str) -> Any:
    """One of :data:`_LAZY`'s names, from its module."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module, __package__), name)


@dataclass
class Document:
    """A YAML document as plain data, with the position of every node."""

    name: str
    data: Any
    positions: dict[Path, tuple[int, int]] = field(default_factory=dict)

    if not TYPE_CHECKING:  # to type checkers, ``positions`` is a plain field

        def __getattr__(self, name: str) -> Any:
            """``positions`` of a remembered reading (:func:`_remembered`), read back
            from its packed form when first asked for (none, should that form be
            damaged: problems are then told without a line)."""
            packed = self.__dict__.get("_packed_positions") if name == "positions" else None
            if packed is None:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            try:
                positions = marshal.loads(packed)
            except (EOFError, ValueError, TypeError):
                positions = {}
            if type(positions) is not dict:
                positions = {}
            self.__dict__["positions"] = positions
            del self.__dict__["_packed_positions"]
            return positions

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
    from .yamlparse import parse_text

    return parse_text(raw, name, loader)


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
def _reader() -> tuple[str | int, ...]:
    """What a reading depends on besides the bytes: this reader, PyYAML, Python.

    The reader's modules and PyYAML's own ``__init__`` (its version is written
    there, found without importing it) by size and time of change, as Python
    tells whether a module's ``__pycache__`` entry is still good.
    """
    spec = importlib.util.find_spec("yaml")
    here = FilePath(__file__)
    readers = [here, here.with_name("yamlparse.py"), here.with_name("yamlbuild.py")]
    stamps: list[str | int] = [sys.version, marshal.version]
    for module in [*readers, *([FilePath(spec.origin)] if spec and spec.origin else [])]:
        found = os.stat(module)
        stamps += [str(module), found.st_size, found.st_mtime_ns]
    return tuple(stamps)


def _entry(raw: bytes) -> FilePath:
    """Where the reading of ``raw`` is kept (the entry also holds ``raw`` itself,
    so that two texts that share a checksum are never taken for each other)."""
    key = zlib.crc32(repr(_reader()).encode() + raw) ^ len(raw) << 32
    return _cache_folder() / f"{key:016x}.marshal"


def _remembered(raw: bytes, name: str) -> Document | None:
    """The document these very bytes were read into before, or None.

    Kept as :mod:`marshal` data (plain values only: the format and the trust of
    Python's own ``__pycache__``) with the bytes it was read from and what the
    reading depends on (:func:`_reader`), so that a change to either is read
    afresh; a damaged entry (its checksum is kept too) is ignored. The positions
    are kept packed and read back only when a problem asks where it is.
    """
    try:
        stored = _entry(raw).read_bytes()
        if zlib.crc32(stored[4:]) != int.from_bytes(stored[:4], "little"):
            return None
        reader, text, data, positions = marshal.loads(stored[4:])
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if reader != _reader() or text != raw or type(positions) is not bytes:
        return None
    document: Document = Document.__new__(Document)
    document.__dict__.update(name=name, data=data, _packed_positions=positions)
    return document


def _remember(raw: bytes, document: Document) -> None:
    """Keep ``document``, read from ``raw``, for :func:`_remembered` (if the folder is writable)."""
    with contextlib.suppress(OSError, ValueError, safeio.OutputError):
        positions = marshal.dumps(document.positions)
        payload = marshal.dumps((_reader(), raw, document.data, positions))
        entry = _entry(raw)
        entry.parent.mkdir(parents=True, exist_ok=True)
        safeio.write_atomically(entry, zlib.crc32(payload).to_bytes(4, "little") + payload)
        kept = sorted(entry.parent.glob("*.marshal"), key=lambda path: path.stat().st_mtime)
        for old in kept[:-KEEP_READINGS]:
            old.unlink(missing_ok=True)
