"""The tables every command prints: fitted to a width, split into column blocks, or Markdown.

A command builds a :class:`Table` of :class:`Cell` values and hands it to
:func:`render` (plain text that fits :attr:`Style.width`, colour only when
:attr:`Style.colour`) or :func:`markdown`. A matrix too wide for the width
(every variant side by side) is cut by :func:`column_blocks` into blocks of
columns that each fit, the first columns repeated in every block. How wide
and whether in colour is decided once, by :func:`style_for`: the terminal's
width (``COLUMNS`` respected) on a terminal, 80 columns in a file or a pipe,
``--width N`` over both; colour only on a terminal and never when ``NO_COLOR``
is set. The options that choose the format and width are
:func:`~reference_engine.cli.arguments.format_arguments`: building the parsers imports none of this.

Why not rich, which the progress bars use: a table here must come out the same
in a pipe as on a terminal (tests read exactly what users see), be cut into
column blocks, which rich does not do, and ``matador list`` must start in under
0.1 s, which importing rich's console and table alone would take a quarter of.
"""

from __future__ import annotations

import os
import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TextIO

from .width import DEFAULT_WIDTH, NARROWEST, terminal_columns

#: Between two columns.
GAP = "  "

#: Before a marked cell in plain text (on a terminal the cell is coloured instead).
MARK = "*"


class Format(str, Enum):
    """What a command with a table prints."""

    TABLE = "table"
    JSON = "json"
    MARKDOWN = "markdown"


@dataclass(frozen=True)
class Cell:
    """One cell: its text (lines may break at ``\\n``), and whether it is marked (it differs)."""

    text: str
    marked: bool = False
    #: Whether Markdown shows it as code (an id, a rule name) rather than prose.
    code: bool = False


@dataclass(frozen=True)
class Column:
    """A column: its header, its alignment, and the widest it may be before its cells wrap."""

    header: str
    right: bool = False
    widest: int | None = None
    narrowest: int = 6


@dataclass(frozen=True)
class Table:
    """Columns and rows of cells; a row has a cell for every column. A ``spaced`` table
    has a blank line between rows (for rows of several lines)."""

    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell, ...], ...] = field(default=())
    spaced: bool = False

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(f"a row of {len(row)} cells in a table of {len(self.columns)}")


def table(
    columns: Sequence[Column | str], rows: Sequence[Sequence[Cell | str]], spaced: bool = False
) -> Table:
    """A :class:`Table`, each header or cell given as a :class:`Column`/:class:`Cell` or text."""
    return Table(
        tuple(c if isinstance(c, Column) else Column(c) for c in columns),
        tuple(tuple(c if isinstance(c, Cell) else Cell(c) for c in row) for row in rows),
        spaced,
    )


# --------------------------------------------------------------------------- width and colour


@dataclass(frozen=True)
class Style:
    """How wide a command's output may be, and whether it may be coloured."""

    width: int = DEFAULT_WIDTH
    colour: bool = False

    def strong(self, text: str) -> str:
        """A heading: bold on a terminal."""
        return _sgr("1", text) if self.colour and text else text

    def alarm(self, text: str) -> str:
        """A failure or a broken rule: bold red on a terminal."""
        return _sgr("1;31", text) if self.colour and text else text


def marked_as(style: Style) -> str:
    """How a marked cell looks, for a legend: ``*`` before it, or its colour on a terminal."""
    return "in bold yellow" if style.colour else MARK


def _sgr(code: str, text: str) -> str:
    return f"\x1b[{code}m{text}\x1b[0m"


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def style_for(
    stream: TextIO, width: int | None = None, environ: Mapping[str, str] | None = None
) -> Style:
    """The style of output written to ``stream``: ``width`` when given, else the terminal's
    (``COLUMNS`` respected) on a terminal and 80 elsewhere; colour only on a terminal
    when ``NO_COLOR`` is not set (whatever its value) and the terminal is not ``dumb``."""
    env = os.environ if environ is None else environ
    terminal = _is_terminal(stream)
    if width is None:
        width = DEFAULT_WIDTH
        if terminal:
            width = terminal_columns(env.get("COLUMNS", ""))
    colour = terminal and "NO_COLOR" not in env and env.get("TERM") != "dumb"
    return Style(width=max(width, NARROWEST), colour=colour)


# --------------------------------------------------------------------------- plain text


_PIECE = re.compile(r"[^_\-/,;:=]+[_\-/,;:=]*|[_\-/,;:=]+")


def wrap(text: str, width: int) -> list[str]:
    """``text`` broken into lines of at most ``width``: at ``\\n`` and at spaces; a word
    longer than a line after ``_ - / , ; : =``, inside a piece only if it still does not fit."""
    width = max(width, 1)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split():
            space = " " if current else ""
            if len(current) + len(space) + len(word) <= width:
                current += space + word
                continue
            if len(word) <= width:
                lines.append(current)
                current = word
                continue
            for number, piece in enumerate(_PIECE.findall(word)):
                space = " " if number == 0 and current else ""
                if current and len(current) + len(space) + len(piece) > width:
                    lines.append(current)
                    current, space = "", ""
                while len(current) + len(space) + len(piece) > width:
                    room = width - len(current) - len(space)
                    lines.append(current + space + piece[:room])
                    current, space, piece = "", "", piece[room:]
                current += space + piece
        lines.append(current)
    return lines


def prose(text: str, width: int, indent: str = "", first: str | None = None) -> list[str]:
    """A paragraph wrapped to ``width``: its first line led by ``first`` (``indent`` when
    not given), the others by ``indent``; words are never broken unless longer than a line."""
    return textwrap.wrap(
        " ".join(text.split()),
        width,
        initial_indent=indent if first is None else first,
        subsequent_indent=indent,
        break_on_hyphens=False,
    ) or [(indent if first is None else first).rstrip()]


def _shown(cell: Cell, colour: bool) -> str:
    return MARK + cell.text if cell.marked and not colour else cell.text


def _natural(column: Column, cells: Sequence[Cell]) -> int:
    """The widest line of the column's header and cells (a marked cell led by ``*``)."""
    texts = [column.header] + [MARK + c.text if c.marked else c.text for c in cells]
    natural = max(len(line) for text in texts for line in text.split("\n"))
    return min(natural, column.widest) if column.widest else natural


def widths(source: Table, width: int) -> list[int]:
    """The width of each column: as wide as its cells (up to :attr:`Column.widest`), the
    widest narrowed until the table fits ``width``, none below :attr:`Column.narrowest`."""
    natural = [
        _natural(column, [row[n] for row in source.rows]) for n, column in enumerate(source.columns)
    ]
    room = width - len(GAP) * (len(natural) - 1)
    if sum(natural) <= room:
        return natural
    floor = [min(n, c.narrowest) for n, c in zip(natural, source.columns, strict=True)]
    low, high = 0, max(natural)
    while low < high:  # the largest cap under which the table fits
        cap = (low + high + 1) // 2
        if sum(max(f, min(n, cap)) for f, n in zip(floor, natural, strict=True)) <= room:
            low = cap
        else:
            high = cap - 1
    return [max(f, min(n, low)) for f, n in zip(floor, natural, strict=True)]


def render(source: Table, style: Style) -> list[str]:
    """The table as lines of plain text that fit ``style.width``: a header, a rule, the rows
    (their cells wrapped); marked cells coloured on a terminal, else led by ``*``. When even
    its narrowest columns cannot stand side by side in the width, each row is written as
    a record instead (:func:`records`)."""
    sizes = widths(source, style.width)
    if sum(sizes) + len(GAP) * (len(sizes) - 1) > style.width:
        return records(source, style)
    lines = _row([Cell(c.header) for c in source.columns], source.columns, sizes, style, True)
    lines.append(GAP.join("-" * size for size in sizes))
    for number, row in enumerate(source.rows):
        if source.spaced and number:
            lines.append("")
        lines.extend(_row(row, source.columns, sizes, style, False))
    return lines


def records(source: Table, style: Style) -> list[str]:
    """The table as records, for a width too narrow for its columns: each row's first cell
    on a line of its own, then each other cell after its column's header, wrapped."""
    lines: list[str] = []
    for number, row in enumerate(source.rows):
        if number:
            lines.append("")
        head, *rest = row
        lines += [style.strong(line) for line in prose(_shown(head, style.colour), style.width)]
        for column, cell in zip(source.columns[1:], rest, strict=True):
            text = _shown(cell, style.colour).replace("\n", " ")
            if text:
                lines += prose(text, style.width, "    ", f"  {column.header}: ")
    return lines


def _row(
    cells: Sequence[Cell],
    columns: Sequence[Column],
    sizes: Sequence[int],
    style: Style,
    header: bool,
) -> list[str]:
    wrapped = [wrap(_shown(c, style.colour), size) for c, size in zip(cells, sizes, strict=True)]
    height = max(len(lines) for lines in wrapped)
    out = []
    for number in range(height):
        parts = []
        for cell, column, size, lines in zip(cells, columns, sizes, wrapped, strict=True):
            text = lines[number] if number < len(lines) else ""
            padded = text.rjust(size) if column.right else text.ljust(size)
            if style.colour and text and (cell.marked or header):
                padded = padded.replace(text, _sgr("1;33" if cell.marked else "1", text), 1)
            parts.append(padded)
        out.append(GAP.join(parts).rstrip())
    return out


def column_blocks(source: Table, width: int, keep: int = 1) -> list[Table]:
    """``source`` cut into tables that each fit ``width``: its first ``keep`` columns in
    every one, then as many of the other columns, in order, as fit (at least one)."""
    sizes = [
        _natural(column, [row[n] for row in source.rows]) for n, column in enumerate(source.columns)
    ]
    kept = sum(sizes[:keep]) + len(GAP) * (keep - 1)
    groups: list[list[int]] = []
    used = width + 1
    for index in range(keep, len(source.columns)):
        need = max(sizes[index], source.columns[index].narrowest) + len(GAP)
        if groups and used + need <= width:
            groups[-1].append(index)
            used += need
        else:
            groups.append([index])
            used = kept + need if keep else need - len(GAP)
    blocks = []
    for group in groups or [[]]:
        chosen = list(range(keep)) + group
        blocks.append(
            Table(
                tuple(source.columns[i] for i in chosen),
                tuple(tuple(row[i] for i in chosen) for row in source.rows),
                source.spaced,
            )
        )
    return blocks


def key_lines(pairs: Sequence[tuple[str, str]], width: int, indent: str = "  ") -> list[str]:
    """A legend: each ``short  meaning``, the meanings aligned and wrapped to ``width``
    (a meaning's lines, at ``\n``, each begin a line)."""
    if not pairs:
        return []
    room = max(len(short) for short, _ in pairs)
    lines = []
    for short, meaning in pairs:
        lead = f"{indent}{short.ljust(room)}  "
        for paragraph in meaning.split("\n"):
            lines.extend(prose(paragraph, width, " " * len(lead), lead))
            lead = " " * len(lead)
    return lines


def narrowed(column: Column, widest: int | None) -> Column:
    """``column`` with another widest width."""
    return replace(column, widest=widest)


# --------------------------------------------------------------------------- Markdown


def _escape(text: str) -> str:
    from ..sinks import markdown as literal  # (only a Markdown table needs it)

    return literal(text)


def _markdown_cell(cell: Cell) -> str:
    """A cell's text as literal Markdown (or a code span), bold when marked."""
    if cell.code and cell.text:
        from ..sinks import markdown_code

        return markdown_code(cell.text, cell=True)
    return f"**{_escape(cell.text)}**" if cell.marked and cell.text else _escape(cell.text)


def markdown(source: Table) -> list[str]:
    """The table in Markdown (GitHub's pipe tables), marked cells in bold."""
    lines = ["| " + " | ".join(_escape(c.header) for c in source.columns) + " |"]
    lines.append("|" + "".join("---:|" if c.right else "---|" for c in source.columns))
    for row in source.rows:
        texts = [_markdown_cell(c) for c in row]
        lines.append("| " + " | ".join(texts) + " |")
    return lines
