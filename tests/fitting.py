"""The width promise, for the tests: every line a command prints for a person fits.

:func:`too_wide` lists the lines of a command's text output that break the
promise (a line wider than the width that is more than one word: a single word,
an id or a path, stands alone and whole so it can be copied). :func:`unfitted`
undoes the fitting, joining each continuation line to the line it was broken
from, so a test can read a message as one line whatever the width made of it.
"""

from __future__ import annotations

from collections.abc import Sequence

from reference_engine.text.fit import visible_length

#: The width of a command's output in a pipe (a test's StringIO is one).
PIPE_WIDTH = 80

#: ``--format`` (and ``--report``) values that are data for a program, never broken into lines.
DATA_FORMATS = frozenset({"json", "jsonl", "junit", "html", "markdown", "md", "csv", "pdf", "yaml"})

#: Commands whose standard output is data.
DATA_COMMANDS = frozenset({"engine", "completion"})


def width_of(argv: Sequence[str]) -> int:
    """The width a command line asks for (``--width N``), else a pipe's."""
    for index, word in enumerate(argv):
        if word == "--width" and index + 1 < len(argv) and argv[index + 1].isdigit():
            return max(int(argv[index + 1]), 40)
        if word.startswith("--width=") and word[8:].isdigit():
            return max(int(word[8:]), 40)
    return PIPE_WIDTH


def prints_data(argv: Sequence[str]) -> bool:
    """Whether the command line's standard output is data (JSON, Markdown...) or goes to
    a file: not lines for a terminal."""
    words = list(argv)
    if set(words) & DATA_COMMANDS or "--json" in words:
        return True
    for index, word in enumerate(words):
        value = None
        if word in ("--format", "--report") and index + 1 < len(words):
            value = words[index + 1]
        elif word.startswith(("--format=", "--report=")):
            value = word.split("=", 1)[1]
        if value is not None and value in DATA_FORMATS:
            return True
    return False


def too_wide(text: str, width: int) -> list[str]:
    """The lines of ``text`` wider than ``width`` that hold more than one word."""
    return [
        line for line in text.splitlines() if visible_length(line) > width and len(line.split()) > 1
    ]


def unfitted(text: str, width: int = PIPE_WIDTH) -> list[str]:
    """The lines of ``text`` with every continuation joined back to its line.

    :func:`~reference_engine.text.fit.fit_line` breaks a line indented ``own``
    where its next word would pass ``width - own - 2`` columns, and indents the
    rest two more: a line so indented whose first word would not have fitted on
    the piece before it is that piece's continuation.
    """
    lines: list[str] = []
    own = last = 0
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        room = max(width - own - 2, 20)
        if lines and stripped and indent == own + 2 and last + 1 + len(stripped.split()[0]) > room:
            lines[-1] += " " + stripped
        else:
            lines.append(line)
            own = indent
        last = len(stripped)
    return lines


def flat(text: str) -> str:
    """``text`` with every run of whitespace made one space: a message as one line,
    however it was fitted (for tests that read what was said, not how it was laid out)."""
    return " ".join(text.split())


def message_count(text: str) -> int:
    """How many messages ``text`` holds: lines that start at the margin (a fitted
    message's continuations, and a message's own detail lines, are indented)."""
    return sum(1 for line in text.splitlines() if line and not line[0].isspace())
