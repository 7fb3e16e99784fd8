"""The exit statuses of every ``matador`` command, in one table (the README lists them)."""

from __future__ import annotations

from enum import IntEnum


class ExitStatus(IntEnum):
    """How a ``matador`` command ended."""

    #: Everything asked for was done, and nothing was wrong.
    OK = 0
    #: What was asked about is invalid or deviates: an unknown name (variant, rule,
    #: option, case), an input file that is missing, a directory or unreadable, a
    #: broken variant or record, an engine that fails or errors on cases, an output
    #: whose write failed after the file was made (a full disk).
    INVALID = 1
    #: The command line is malformed: an unknown flag, a bad value, an output path
    #: that cannot be written (whatever the reason).
    USAGE = 2
    #: ``conform``: a case of the suite itself is broken (its deal breaks its
    #: variant, its option or notation is bad); the engine is not blamed.
    BROKEN_CASE = 3
    #: ``conform``: the engine could not be judged: it does not start, dies
    #: again and again, fails the handshake, or declares no variant the suite knows.
    ENGINE_UNAVAILABLE = 4
    #: Standard output was closed by the reader (``matador list | head -1``).
    BROKEN_PIPE = 141
    #: Stopped by SIGINT (Ctrl-C); what was finished is kept.
    INTERRUPTED = 130
    #: Stopped by SIGTERM; what was finished is kept.
    TERMINATED = 143
    #: Stopped by SIGHUP (the terminal went away); what was finished is kept.
    HUNG_UP = 129
