"""Every line fitted to the width: a stream that breaks the lines written to it.

The commands lay out their tables to the width (:mod:`.tables`); what they print
besides (a failure's explanation, an answer of ``explain``) is free text that an
engine's or a record's words can make long. :class:`Fitted` breaks any line whose
visible length passes the width at spaces, its continuation lines indented two
more than the line,
so nothing a person reads runs off an 80-column terminal; a word is never broken
(an id or a path longer than the width stands alone on its line, whole, so it
can be copied). A line that fits, a table's or a coloured one, passes untouched.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, TextIO

#: An SGR sequence (colour): it takes no column.
_SGR = re.compile(r"\x1b\[[0-9;]*m")


def visible_length(line: str) -> int:
    """The columns ``line`` takes on a terminal (colour sequences take none)."""
    return len(_SGR.sub("", line))


def fit_line(line: str, width: int) -> list[str]:
    """``line`` as lines of at most ``width`` columns: unchanged when it fits, else broken,
    each continuation indented two columns more than the line."""
    if visible_length(line) <= width:
        return [line]
    indent = len(line) - len(line.lstrip(" "))
    room = max(width - indent - 2, 20)
    pieces: list[str] = []
    for word in line.split():  # never inside a word: an id or a path is copied whole
        if pieces and len(pieces[-1]) + 1 + len(word) <= room:
            pieces[-1] += " " + word
        else:
            pieces.append(word)
    first, *rest = pieces or [""]
    return [" " * indent + first, *(" " * (indent + 2) + piece for piece in rest)]


class Fitted:
    """A text stream writing to ``stream`` with every line fitted to ``width``."""

    def __init__(self, stream: TextIO, width: int) -> None:
        self._stream = stream
        #: The width lines are fitted to (what a table written here is laid out to).
        self.width = width
        self._pending = ""

    def write(self, text: str) -> int:
        self._pending += text
        *lines, self._pending = self._pending.split("\n")
        for line in lines:
            self._stream.write("\n".join(fit_line(line, self.width)) + "\n")
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for text in lines:
            self.write(text)

    def flush(self) -> None:
        """Write an unfinished last line as it is, fitted, and flush the stream."""
        if self._pending:
            self._stream.write("\n".join(fit_line(self._pending, self.width)))
            self._pending = ""
        self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
