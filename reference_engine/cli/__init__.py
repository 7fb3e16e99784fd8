"""The ``matador`` command line, one module per command group.

:func:`run` takes the arguments and the two output streams and returns the exit
status, so tests drive it with ``StringIO``; only :func:`main` exits. Exit 0 on
success, 1 when what was asked about is invalid (a broken file, an unknown
variant or option), 2 on a usage error (:class:`~reference_engine.exits.ExitStatus`
lists them all). A user's mistake never shows a traceback.

Every file a user names is read through :mod:`reference_engine.safeio` (within
the size limit that ``--max-bytes`` raises), every file written is written
atomically, and standard output that cannot be written (a reader that went
away, a full disk) ends the command with a clear status instead of a traceback.

The modules, each with one job:

- :mod:`.app`: :func:`run`, the parser assembly, the dispatch, failures to exit statuses;
- :mod:`.console`: :func:`main`, the console entry point on the process's real streams;
- :mod:`.arguments`: the parser class, usage errors, ``--version``, the options shared by
  commands (``-O``/``--option`` is a rule option and ``-o``/``--output`` the file written,
  in every command);
- :mod:`.output`: strict JSON, and standard output whose failures are told apart;
- :mod:`.progress`: progress bars, on a terminal's standard error only;
- a module per command group, owning its commands' options and handlers:
  :mod:`.variants` (validate, list, show), :mod:`.play` (play, replay),
  :mod:`.conformance` (conform, engine), :mod:`.cases` (cases), :mod:`.identify`
  (identify), :mod:`.sheets` (sheet), :mod:`.disputes` (compare, diff, score,
  odds, explain), :mod:`.simulate` (simulate) and :mod:`.completion` (completion).

This package re-exports the public surface: :func:`run` and :func:`main`.
"""

from __future__ import annotations

from ..exits import ExitStatus
from .app import run
from .arguments import UsageError
from .console import main
from .output import json_text

#: The JSON writer of ``--json`` output, by its old name (tests check it refuses NaN).
_json_text = json_text

EXIT_OK = ExitStatus.OK
EXIT_INVALID = ExitStatus.INVALID
EXIT_USAGE = ExitStatus.USAGE

__all__ = ["EXIT_INVALID", "EXIT_OK", "EXIT_USAGE", "UsageError", "main", "run"]
