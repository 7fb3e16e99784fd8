"""The one way out, per kind of output, for text the project does not write itself.

An engine under test, a strategy, a record or a user's file can put any text
in a field the judge reports: its name, a refusal message, a legal action, a
line of its standard error. Such text is somebody else's, and may have been
written to act on whatever shows it. Before it reaches an output it passes
through exactly one function here, the one for that output:

=====================  ==================================================
:func:`printable`      a terminal, a log, any plain text: every control
                       character, escape sequence introducer, C1 control,
                       bidirectional mark and lone surrogate written as a
                       visible escape (``\\x1b``, ``\\u202e``)
:func:`inline`         engine text inside a line of the judge's: line
                       breaks and tabs shown as ``\\n`` and ``\\t`` too
:func:`markdown`       Markdown prose or a table cell: every character
                       that starts a construct backslash-escaped, so no
                       emphasis, link, HTML, entity or block can start
:func:`markdown_code`  a Markdown code span whose fence the text cannot close
:func:`markdown_fence` a fenced Markdown block whose fence the lines cannot close
:func:`html`           HTML text or an attribute value: escaped, and
                       :func:`printable` first
:func:`xml`            XML text or an attribute value (ElementTree escapes the
                       markup): :func:`printable`, then what XML 1.0 cannot
                       carry replaced
:func:`json_text`      JSON text: what :func:`printable` escapes, lone
                       surrogates included, written as ``\\uXXXX`` escapes
:class:`Terminal`      a stream every write to which is :func:`printable`,
                       the project's own colours on a terminal excepted
=====================  ==================================================

Each function is idempotent in effect (what it returns is safe for its sink)
and total: it accepts any ``str``. Imports nothing heavy.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

#: Control characters (C0 but tab and newline, DEL, C1), the invisible and
#: line-separating ones, the bidirectional marks, overrides and isolates, the
#: interlinear annotation marks, the byte order mark, and lone surrogates.
_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f"
    "\ud800-\udfff\ufeff\ufff9-\ufffb]"
)

#: The characters that start or end an inline Markdown construct anywhere in a
#: line: an escape, a code span, emphasis, a link or image, raw HTML or an
#: autolink, an entity, a table cell, a strikethrough. A backslash makes each
#: literal (CommonMark lets it escape any ASCII punctuation). An underscore
#: between two letters or digits (``nobody_has_double``) starts nothing.
_INLINE = re.compile(r"[\\`*\[\]<>&|~]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")
#: What starts a block when a line begins with it: a heading, a list item (also
#: numbered), a setext underline, a quote, a thematic break, a fence.
_BLOCK_START = re.compile(r"^(?:[#+=>-]|[0-9]{1,9}(?=[.)]))")


def _escape(found: re.Match[str]) -> str:
    code = ord(found[0])
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: object) -> str:
    """``text`` with every control character written as an escape (``\\x1b``, ``\\u202e``):
    also the invisible ones, the line separators, the marks that turn text around,
    and a lone surrogate (which no output stream could even write). Tab and newline
    stay."""
    return _UNPRINTABLE.sub(_escape, str(text))


def inline(text: object) -> str:
    """:func:`printable` ``text`` on one line, every line break and tab shown as ``\\n`` and
    ``\\t``: for what an engine says that is shown inside a line of the judge's own (a
    refusal reason, a message, a legal action), so it cannot start a line that looks
    like the judge's."""
    return printable(text).replace("\n", "\\n").replace("\t", "\\t")


def one_line(text: object) -> str:
    """:func:`printable` ``text`` on one line: every run of white space (a line break,
    a tab) one space, none at either end."""
    return " ".join(printable(text).split())


def markdown(text: object) -> str:
    """``text`` as literal Markdown prose on one line (also in a table cell, also at the
    start of a line): nothing in it can start emphasis, a link, an image, raw HTML, an
    autolink, an entity, a cell, a heading, a list or a quote."""
    escaped = _INLINE.sub(lambda found: "\\" + found[0], one_line(text))
    start = _BLOCK_START.match(escaped)
    if start is None:
        return escaped
    if start[0][0].isdigit():  # "1." starts a list: its dot (or parenthesis) escaped
        end = start.end()
        return escaped[:end] + "\\" + escaped[end:]
    return "\\" + escaped


def markdown_code(text: object, *, cell: bool = False) -> str:
    """``text`` as a Markdown code span on one line, fenced with more backticks than any
    run in it (so it cannot close the span); in a table ``cell``, its pipes escaped
    (a pipe splits a cell even inside a code span)."""
    shown = one_line(text)
    longest = max((len(run) for run in re.findall("`+", shown)), default=0)
    fence = "`" * (longest + 1)
    padded = f" {shown} " if shown.startswith("`") or shown.endswith("`") else shown
    if cell:
        padded = padded.replace("|", "\\|")
    return f"{fence}{padded}{fence}" if shown else "` `"


def markdown_fence(lines: list[str], info: str = "text") -> str:
    """``lines`` as a fenced Markdown block (with its final newline): the fence is longer
    than any run of backticks in them, so no line can close it; each line
    :func:`printable`."""
    shown = [printable(line).replace("\n", " ") for line in lines]
    longest = max((len(run) for line in shown for run in re.findall("`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n" + "".join(f"{line}\n" for line in shown) + f"{fence}\n"


def html(text: object) -> str:
    """``text`` as HTML text or a quoted attribute value: :func:`printable`, then ``&``,
    ``<``, ``>``, and both quotes escaped."""
    return (
        printable(text)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&#34;")
        .replace("'", "&#39;")
    )


@cache
def _not_xml() -> re.Pattern[str]:
    """Characters XML 1.0 cannot carry, of those :func:`printable` leaves (compiled when
    first needed)."""
    return re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml(text: object) -> str:
    """``text`` for an XML element's text or attribute (the writer escapes ``<`` and
    ``&``; ``>`` is escaped too, so no ``]]>`` appears): :func:`printable`, then any
    character XML 1.0 forbids replaced by U+FFFD."""
    return _not_xml().sub("\ufffd", printable(text))


def json_text(data: Any, **options: Any) -> str:
    """``data`` as JSON text (``options`` as for :func:`json.dumps`; NaN refused) in which
    every character :func:`printable` would escape, a lone surrogate included, is a
    ``\\uXXXX`` escape: the same value to any reader, no control character in the text,
    and text any UTF-8 stream can write. Letters of any script stay as they are."""
    import json  # (here: the terminal sinks need no JSON)

    options.setdefault("allow_nan", False)
    text = json.dumps(data, ensure_ascii=False, **options)
    # (outside its strings JSON is ASCII with no control character: only strings change)
    return _UNPRINTABLE.sub(lambda found: f"\\u{ord(found[0]):04x}", text)


#: A colour or style sequence (SGR), the only escape sequence a terminal is sent.
_STYLE = re.compile("(\x1b\\[[0-9;]{0,32}m)")


class Terminal:
    """A text stream for a terminal, a log or a pipe: every write :func:`printable`.

    Installed around standard output and standard error of every command, so no
    text, whoever wrote it and whichever path it took, reaches a terminal as a
    control sequence. The project's own styling passes where the stream is a
    terminal (``styles``): a well-formed SGR sequence (colour, bold), nothing
    else. Anything a stream has besides ``write`` (``flush``, ``isatty``,
    ``buffer`` for binary output) is the stream's own; ``unguarded`` is the
    stream itself, for the progress bars that redraw a terminal line.
    """

    def __init__(self, stream: Any) -> None:
        self.unguarded = stream
        try:
            self._styles = bool(stream.isatty())
        except (AttributeError, ValueError, OSError):
            self._styles = False

    def write(self, text: str) -> int:
        if _UNPRINTABLE.search(text) is not None:
            if self._styles:
                text = "".join(
                    part if _STYLE.fullmatch(part) else printable(part)
                    for part in _STYLE.split(text)
                )
            else:
                text = printable(text)
        self.unguarded.write(text)
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.unguarded, name)
