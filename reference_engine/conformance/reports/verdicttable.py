"""The compliance table of ``matador conform``: a row per variant, a column per verdict.

It is drawn as rich draws a table with a heavy head (rich's default), 80
columns wide, its title centred above it. Where the table is plain text (not
on a terminal), in ASCII, and fits with its title, this module draws those
very characters itself (:func:`plain_lines`): importing rich costs a
conformance run a twentieth of its time. Anywhere else (colour and bold on a
terminal, wide characters, a table to be wrapped) rich draws it. Either way
no text is read as rich markup: an engine's name comes from the engine, and
``[/x]`` in it must be printed, not obeyed. tests/test_reports.py holds the
two drawings to the same characters.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

#: The width the table is drawn to.
WIDTH = 80


def write_verdict_table(
    stream: TextIO, title: str, header: Sequence[str], rows: Sequence[Sequence[str]]
) -> None:
    """Draw the table: the first column left-aligned, the others (counts) right-aligned;
    the last row is the total, in bold where there is bold."""
    plain = None if stream.isatty() else plain_lines(title, header, rows)
    if plain is not None:
        stream.write("\n".join(plain) + "\n")
        return
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    # (one line, cut to the table's width: a wrapped line of an engine's name could
    # stand alone and pass for one of the report's own)
    table = Table(title=Text(title, no_wrap=True, overflow="ellipsis"))
    table.add_column(Text(header[0]))
    for name in header[1:]:
        table.add_column(Text(name), justify="right")
    for number, row in enumerate(rows):
        style = "bold" if number == len(rows) - 1 else None
        table.add_row(*(Text(cell) for cell in row), style=style)
    Console(file=stream, width=WIDTH, no_color=not stream.isatty()).print(table)


def plain_lines(
    title: str, header: Sequence[str], rows: Sequence[Sequence[str]]
) -> list[str] | None:
    """The table's lines as rich draws it off a terminal, or None where this cannot tell
    (text that is not printable ASCII, a table wider than :data:`WIDTH` or narrower
    than its title, no title, a title with spaces at an end or two together)."""
    cells = [header, *rows]
    texts = [title, *(cell for row in cells for cell in row)]
    if not all(text.isascii() and text.isprintable() for text in texts):
        return None
    widths = [max(len(row[column]) for row in cells) for column in range(len(header))]
    width = sum(widths) + 3 * len(widths) + 1
    if width > WIDTH or len(title) > width or title != " ".join(title.split()) or not title:
        return None  # (rich strips and wraps a title's spaces its own way)

    def line(row: Sequence[str], bar: str) -> str:
        shown = (
            cell.ljust(size) if column == 0 else cell.rjust(size)
            for column, (cell, size) in enumerate(zip(row, widths, strict=True))
        )
        return bar + bar.join(f" {cell} " for cell in shown) + bar

    def rule(left: str, line: str, middle: str, right: str) -> str:
        return left + middle.join(line * (size + 2) for size in widths) + right

    before = (width - len(title)) // 2
    return [
        " " * before + title + " " * (width - len(title) - before),
        rule("┏", "━", "┳", "┓"),
        line(header, "┃"),
        rule("┡", "━", "╇", "┩"),
        *(line(row, "│") for row in rows),
        rule("└", "─", "┴", "┘"),
    ]
