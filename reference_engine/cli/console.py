"""The console entry point: ``run`` on the process's real streams, then exit with its status.

The process's streams may be missing or failing: standard output closed by the
shell (``matador list >&-``), standard error that cannot be written, a reader
that went away before the last flush, Ctrl-C, or a thread left running by an
in-process engine. None of these may end in a traceback or a hang.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from typing import TextIO, cast

from ..exits import ExitStatus
from ..orphans import own_children
from .app import run


class ClosedStream(io.StringIO):
    """A standard stream the shell closed (``matador list >&-``): writing to it fails."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


class QuietErrors(io.TextIOBase):
    """Standard error that never fails a command: a message that cannot be shown is dropped."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        if self._stream is not None:
            with contextlib.suppress(OSError, ValueError):
                self._stream.write(text)
                self._stream.flush()
        return len(text)

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()


def main() -> None:
    """Console entry point."""
    own_children()  # (every child of this process is the judge's: see orphans)
    # The judge never imports from the folder it is run in (``python -m`` puts it first):
    # a jinja2.py or statistics.py there must not stand in for the library. A python:
    # engine or strategy is looked for there explicitly (reference_engine.pyload).
    # (kept when the package itself comes from there, a checkout run with python -m:
    # the worker processes a simulation spawns must find it where the parent did)
    here = os.getcwd() if os.path.isdir(os.curdir) else None
    package_home = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if here is not None and os.path.realpath(here) != os.path.realpath(package_home):
        sys.path[:] = [entry for entry in sys.path if entry not in ("", os.curdir, here)]
    stdout: TextIO = sys.stdout if sys.stdout is not None else ClosedStream()
    stderr = cast(TextIO, QuietErrors(sys.stderr))
    try:
        status = run(sys.argv[1:], stdout, stderr)
    except KeyboardInterrupt:
        # Ctrl-C outside a command that handles it (conform does): end quietly.
        status = ExitStatus.INTERRUPTED
    if sys.stdout is None:
        sys.exit(status)
    threading = sys.modules.get("threading")  # (never imported: no thread was started)
    if threading is not None and threading.active_count() > 1:
        # Code under test (an in-process engine) left a thread running: do not wait
        # for it at exit, which could be for ever.
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.flush()
        os._exit(status)
    try:
        sys.stdout.flush()
    except OSError:
        # The reader went away or the disk is full, and run() has said so. Send
        # what is still buffered to the null device, or the interpreter's last
        # flush fails again and prints "Exception ignored".
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    sys.exit(status)
