"""A ``python:`` engine in a process of its own: the judge talks to it as to any program.

    python -c "...; main(sys.argv[1:])" [--search DIR]... SPEC     (see command)

An engine written in Python is somebody else's code. Run inside the judge, its
import could hang the judge past every deadline, its prints land in a report on
standard output, a process it starts outlive the run, a module it ships named
like a library (``jinja2.py``) replace that library. So by default the judge
starts this host as an engine program (:class:`~.process.ProcessEngine`), under
the same deadlines, process-group stopping and standard-error capture as any
other engine, and the host serves the protocol (:mod:`.server`) for the engine
its SPEC names (:mod:`reference_engine.pyload`), found in the ``--search``
folders (by default the current folder).

The host keeps the protocol's channel to itself: the file descriptor of its
standard output is moved aside before the engine's code is loaded, and
descriptor 1 then points at standard error, so nothing the engine prints,
from Python or from C, can reach the judge as a reply. Everything the host
imports of the judge is imported before the engine's folder is searched, so
the engine's modules cannot stand in for the judge's. When the engine cannot
be loaded, the host says why in one line on standard error and exits with
:data:`CANNOT_LOAD`; the judge reports the engine unavailable, with that line.
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

# (imported before anything of the engine's is: see the module's docstring)
from ... import pyload
from ..protocol.interface import load_python_engine, missing_methods
from ..protocol.server import serve

#: The exit status of a host whose engine cannot be loaded or made.
CANNOT_LOAD = 3

#: What begins the one line a host writes on standard error when its engine cannot be
#: loaded or made: the judge reads the reason after it (:func:`not_started`).
MARK = "matador pyhost: the engine did not start: "


def not_started(stderr: str) -> str | None:
    """Why a hosted engine did not start, read from its standard error, or None."""
    lines = stderr.rstrip("\n").splitlines()
    last = lines[-1].strip() if lines else ""
    return last[len(MARK) :] if last.startswith(MARK) else None


#: How the host starts: the current folder taken off the module path before anything
#: is imported (``python -c`` puts it first), then this module's :func:`main`.
_BOOT = (
    "import sys; del sys.path[0]; "
    "from reference_engine.conformance.transport.pyhost import main; sys.exit(main(sys.argv[1:]))"
)


def command(spec: str, search: Sequence[Path] = ()) -> str:
    """The command line that hosts the engine ``spec`` names (``MODULE:FACTORY`` or
    ``FILE.py:FACTORY``), looked for in ``search`` first (by default the current folder)."""
    folders = [arg for folder in search for arg in ("--search", str(folder))]
    return shlex.join([sys.executable, "-c", _BOOT, *folders, spec])


def main(argv: Sequence[str]) -> int:
    """Serve the engine named by ``argv`` over standard input and output."""
    *options, spec = argv or [""]
    pairs = zip(options[::2], options[1::2], strict=False)
    search = [Path(folder) for flag, folder in pairs if flag == "--search"]
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n")
    os.dup2(2, 1)  # what the engine prints goes to standard error
    sys.stdout = sys.stderr
    pyload.FOLDERS_FIRST = True  # (the engine's own code, alone here, finds its folder first)
    try:
        factory = load_python_engine(spec, search=search)
    except BaseException as error:  # the engine's own code may raise anything, exit included
        return _cannot(pyload.error_line(error))
    try:
        engine = factory()
    except BaseException as error:
        return _cannot(f"the factory raised {pyload.error_line(error)}")
    missing = missing_methods(engine)
    if missing:
        return _cannot(
            f"the factory made a {type(engine).__name__}, which lacks the engine method(s) "
            f"{', '.join(missing)} (see the Engine interface)"
        )
    # (an exit or an interrupt the engine raises is answered as its failure, as any error)
    return serve(sys.stdin, channel, engine, stderr=sys.stderr, failures=BaseException)


def _cannot(why: str) -> int:
    sys.stderr.write(f"{MARK}{why}\n")
    sys.stderr.flush()
    return CANNOT_LOAD


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
