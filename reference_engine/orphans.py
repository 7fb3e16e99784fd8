"""No process of the judge's outlives it: a worker or an engine ends when the judge does.

An engine may start processes of its own, and some leave its process group
(a new session, a daemon's double fork), where stopping the group does not
reach them. On Linux the judge adopts such orphans (:func:`adopt_orphans`,
``PR_SET_CHILD_SUBREAPER``: a process whose parent ends becomes the judge's
child, not init's), and when it stops an engine it ends every process
descended from it (:func:`descendants`, found before the engine is stopped)
and every orphan it adopted (:func:`end_adopted`).

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
import time
from collections.abc import Callable

#: ``prctl``'s option that sets the signal sent when the parent ends (linux/prctl.h).
_PR_SET_PDEATHSIG = 1
#: ``prctl``'s option that makes a process the parent of its orphaned descendants.
_PR_SET_CHILD_SUBREAPER = 36

#: How often the watching thread looks for the parent, where the kernel cannot be asked.
WATCH_EVERY = 0.5


def die_with_parent(parent: int | None = None) -> None:
    """End this process (SIGKILL) when its parent ends: for a worker process, called as it
    starts, with the pid its parent gave it (a worker that starts after its parent
    ended is ended at once)."""
    parent = os.getppid() if parent is None else parent
    import threading  # (here: the command's start-up need not load it)

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
    import threading

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
def _prctl() -> Callable[..., int] | None:
    """Linux's ``prctl``, loaded once (in the parent: a ``preexec_fn`` must not import), or
    None where there is none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def _deathsig() -> Callable[[], int] | None:
    """The call that asks the kernel for SIGKILL at the parent's end, or None off Linux."""
    prctl = _prctl()
    if prctl is None:
        return None
    return lambda: int(prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_EVERY)
    os.kill(os.getpid(), signal.SIGKILL)


# --------------------------------------------------------------------------- descendants


#: Whether this process is the ``matador`` command, whose children are all the judge's
#: (set by its entry point). A program that uses the judge as a library (a test suite,
#: the pytest plugin) has children of its own, which an adopting judge must not end:
#: there, only an engine's own descendants are ended.
_COMMAND = False


def own_children() -> None:
    """Say that this process is the ``matador`` command: every child it has is the judge's,
    so it may adopt the orphans its engines leave and end them (:func:`end_adopted`)."""
    global _COMMAND
    _COMMAND = True


@functools.cache
def adopt_orphans() -> bool:
    """Make this process the parent of its descendants' orphans (Linux), when it is the
    ``matador`` command (:func:`own_children`); whether it does. Asked once per process."""
    prctl = _prctl() if _COMMAND else None
    return prctl is not None and prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0


def _parents() -> dict[int, int]:
    """Every process's parent, read from /proc (empty where there is no /proc)."""
    parents: dict[int, int] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return parents
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parents[int(entry)] = int(fields[1])
    return parents


def descendants(root: int) -> list[int]:
    """Every process descended from ``root`` now, whatever its group or session."""
    children: dict[int, list[int]] = {}
    for pid, parent in _parents().items():
        children.setdefault(parent, []).append(pid)
    found, todo = [], list(children.get(root, []))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def end(pids: list[int]) -> None:
    """SIGKILL each of ``pids`` still alive, and reap those that were this process's."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            continue
    _reap(pids)


def end_adopted(keep: set[int]) -> None:
    """End every child of this process that it did not start (an orphan it adopted): all
    but those in ``keep`` (the engines it runs) and multiprocessing's workers and
    resource tracker."""
    if not adopt_orphans():
        return  # (not the command: its other children are not the judge's to end)
    mine = os.getpid()
    keep = set(keep)
    processing = sys.modules.get("multiprocessing")
    if processing is not None:
        keep.update(child.pid for child in processing.active_children() if child.pid)
        tracking = sys.modules.get("multiprocessing.resource_tracker")
        tracker_pid = getattr(getattr(tracking, "_resource_tracker", None), "_pid", None)
        if isinstance(tracker_pid, int):
            keep.add(tracker_pid)
    adopted = [pid for pid, parent in _parents().items() if parent == mine and pid not in keep]
    if adopted:
        end(adopted)


def _reap(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.waitpid(pid, os.WNOHANG)
        except OSError:
            continue
