"""What commands write to standard output: strict JSON, through a stream that fails clearly.

Standard output that cannot be written (a reader that went away, a full disk)
must end the command with a clear status instead of a traceback:
:class:`GuardedOutput` tells those failures apart for
:func:`~reference_engine.cli.app.run`.
"""

from __future__ import annotations

from typing import Any, TextIO


def json_text(data: object, *, ensure_ascii: bool = True) -> str:
    """``data`` as indented JSON and a newline; NaN and Infinity, which JSON lacks, raise.
    Control characters and lone surrogates in its strings are ``\\u`` escapes
    (:func:`~reference_engine.sinks.json_text`)."""
    from ..sinks import json_text as safe

    if ensure_ascii:
        import json  # (here: most commands print no JSON)

        return json.dumps(data, indent=2, ensure_ascii=True, allow_nan=False) + "\n"
    return safe(data, indent=2) + "\n"


class OutputClosed(Exception):
    """Standard output was closed by its reader (``matador list | head -1``)."""


class OutputFailed(Exception):
    """Standard output could not be written (a full disk, an I/O error)."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error.strerror or str(error))
        self.reason = error.strerror or str(error)


class GuardedOutput:
    """Standard output whose failures are told apart from every other ``OSError``.

    A handler may catch ``OSError`` for the files it reads; a failure to write
    its output must not be mistaken for one of those, so it is raised as
    :class:`OutputClosed` or :class:`OutputFailed`, which only :func:`run` catches.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise OutputClosed from None
        except OSError as error:
            raise OutputFailed(error) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise OutputClosed from None
        except OSError as error:
            raise OutputFailed(error) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
