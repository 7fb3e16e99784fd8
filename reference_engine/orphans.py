"""No process of the judge's outlives it: a worker or an engine ends when the judge does.

A judge ended by a signal it can catch stops its workers and engines itself.
One it cannot catch (SIGKILL, the machine's out-of-memory killer) leaves them
orphaned, still playing or waiting for a request that will never come. On
Linux, :func:`die_with_parent` asks the kernel to send the process SIGKILL
when its parent ends (``prctl(PR_SET_DEATHSIG)``), which holds across the
``exec`` of an engine program; where there is no such call, a daemon thread
watches the parent and ends the process when it is gone.
"""

from __future__ import annotations

import functools
import os
import signal
import sys
import threading
import time
from collections.abc import Callable

#: ``prctl``'s option that sets the signal sent when the parent ends (linux/prctl.h).
_PR_SET_PDEATHSIG = 1

#: How often the watching thread looks for the parent, where the kernel cannot be asked.
WATCH_EVERY = 0.5


def die_with_parent(parent: int | None = None) -> None:
    """End this process (SIGKILL) when its parent ends: for a worker process, called as it
    starts, with the pid its parent gave it (a worker that starts after its parent
    ended is ended at once)."""
    parent = os.getppid() if parent is None else parent
    ask = _deathsig()
    asked = ask is not None and bool(ask())
    if os.getppid() != parent:  # the parent ended before the kernel was asked
        os.kill(os.getpid(), signal.SIGKILL)
    if not asked:
        threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def before_exec() -> Callable[[], None] | None:
    """A ``preexec_fn`` that makes a program started from this thread end when this process
    does (Linux), or None where that cannot be asked. Only for a program started by
    the main thread: the kernel's signal follows the thread that started it."""
    ask = _deathsig()
    if ask is None or threading.current_thread() is not threading.main_thread():
        return None
    parent = os.getpid()

    def preexec() -> None:
        ask()
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)

    return preexec


@functools.cache
def _deathsig() -> Callable[[], int] | None:
    """The call that asks the kernel for SIGKILL at the parent's end, loaded once (in the
    parent: a ``preexec_fn`` must not import), or None off Linux."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return lambda: int(prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_EVERY)
    os.kill(os.getpid(), signal.SIGKILL)
