"""The compliance table of ``matador conform`` (a row per variant, a column per verdict),
and the colour of a failure's heading (:func:`alarmed`).

It is drawn as every command draws its tables (:mod:`reference_engine.text.tables`):
fitted to the width (``--width``, else the terminal's, else 80), its title
above it in bold on a terminal. A count of failed, errored or broken case runs
that is not zero is marked: in colour on a terminal (never with ``NO_COLOR``),
led by ``*`` elsewhere. The title holds the engine's name, which comes from the
engine: it is cut to the width, never wrapped (a wrapped piece could stand
alone and pass for a line of the report's own).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from ...text.fit import fit_line
from ...text.tables import GAP, MARK, Cell, Column, Style, render, style_for, table
from ..session.runner import Verdict

#: The columns whose counts, when not zero, say something went wrong.
ALARMING = frozenset({"fail", "error", "broken"})


def write_verdict_table(
    stream: TextIO, title: str, header: Sequence[str], rows: Sequence[Sequence[str]]
) -> None:
    """Draw the table: the first column left-aligned, the counts right-aligned, the
    alarming counts that are not zero marked; the last row is the total."""
    style = style_for(stream, getattr(stream, "width", None))
    cells = [
        [
            Cell(text, marked=number > 0 and header[number] in ALARMING and text != "0")
            for number, text in enumerate(row)
        ]
        for row in rows
    ]
    # (a variant's id is never broken; a count neither, with its mark, nor a header's word)
    columns = [
        Column(
            name,
            right=number > 0,
            narrowest=max(
                *(len(word) for word in name.split()),
                *(len(row[number].text) + row[number].marked for row in cells),
            ),
        )
        for number, name in enumerate(header)
    ]
    if len(title) > style.width:
        title = title[: style.width - 3] + "..."
    floors = sum(column.narrowest for column in columns) + len(GAP) * (len(columns) - 1)
    if floors <= style.width:
        body = render(table(columns, cells), style)
    else:  # too narrow for the columns: a line per variant, its counts named
        body = [
            f"{row[0].text}: "
            + ", ".join(
                f"{_shown(cell, style)} {name}"
                for name, cell in zip(header[1:], row[1:], strict=True)
            )
            for row in cells
        ]
        body = [piece for line in body for piece in fit_line(line, style.width)]
    stream.write("\n".join([style.strong(title), *body]) + "\n")


def _shown(cell: Cell, style: Style) -> str:
    """A count, marked as the table marks it."""
    if not cell.marked:
        return cell.text
    return style.alarm(cell.text) if style.colour else MARK + cell.text


def alarmed(text: str, style: Style) -> str:
    """``text`` with its heading in colour on a terminal where it tells of a failure (``FAIL
    case...``, ``ERROR``, ``BROKEN``) or a broken rule (``RULE name ...: broken``)."""
    head, _, rest = text.partition(" ")
    if head in _ALARMS or (head == "RULE" and ": broken" in text.split("\n", 1)[0]):
        return style.alarm(head) + " " + rest
    return text


#: The headings of a failed, errored or broken case run.
_ALARMS = frozenset(
    verdict.value.upper() for verdict in (Verdict.FAIL, Verdict.ERROR, Verdict.BROKEN)
)
