"""Stopping a conformance run cleanly on SIGINT, SIGTERM or SIGHUP.

Within :func:`stop_on_signals`, the first of these signals raises
:class:`Interrupted` where the runner is, so it can stop the engine, write
what it has and exit with the conventional status (128 + the signal). A
second signal while that clean-up runs (an in-process engine that will not
let go, say) does not wait for it: every engine process group still alive is
killed and the process exits at once with the same status.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator

from ...exits import ExitStatus

#: The signals that stop a run.
STOPPING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

#: Process groups of the engine programs now running (ProcessEngine keeps this up to date).
LIVE_GROUPS: set[int] = set()

_owner = threading.local()


class Interrupted(KeyboardInterrupt):
    """The run was stopped by a signal; ``signum`` says which."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def name(self) -> str:
        """The signal's name, e.g. ``SIGTERM``."""
        return signal.Signals(self.signum).name

    @property
    def status(self) -> int:
        """The conventional exit status: 128 + the signal number."""
        return ExitStatus.INTERRUPTED if self.signum == signal.SIGINT else 128 + self.signum


def owns_signals() -> bool:
    """Whether a run in this thread turns signals into :class:`Interrupted`.

    While it does, a plain KeyboardInterrupt can only come from code under test.
    """
    return bool(getattr(_owner, "active", False))


def kill_engines() -> None:
    """Kill every engine process group still running, at once (a last resort)."""
    for group in list(LIVE_GROUPS):
        with contextlib.suppress(OSError):
            os.killpg(group, signal.SIGKILL)
        LIVE_GROUPS.discard(group)


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, the first stopping signal raises Interrupted; a second one exits."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def again(signum: int, frame: object) -> None:
        kill_engines()
        with contextlib.suppress(Exception):
            sys.stderr.write(f"matador: {signal.Signals(signum).name} again: stopped at once\n")
            sys.stderr.flush()
        os._exit(Interrupted(signum).status)

    def first(signum: int, frame: object) -> None:
        for other in STOPPING:
            signal.signal(other, again)
        raise Interrupted(signum)

    previous = {signum: signal.signal(signum, first) for signum in STOPPING}
    _owner.active = True
    try:
        yield
    finally:
        _owner.active = False
        for signum, action in previous.items():
            signal.signal(signum, action)


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Within the block, a stopping signal waits until the block ends (then raises as usual)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []
    handlers = {signum: signal.getsignal(signum) for signum in STOPPING}

    def hold(signum: int, frame: object) -> None:
        pending.append(signum)

    for signum in STOPPING:
        signal.signal(signum, hold)
    try:
        yield
    finally:
        for signum, action in handlers.items():
            signal.signal(signum, action)
        if pending:
            signal.raise_signal(pending[0])
