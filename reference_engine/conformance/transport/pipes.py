"""An engine program's process and pipes: reading and writing with a deadline on everything.

:class:`EnginePipes` starts the program in a session and process group of its
own. A request line is written and its reply line read with a deadline
(``selectors`` over the pipes, never a blocking ``readline``), so nothing the
engine does can hang the runner. Reply lines are capped at :data:`MAX_LINE`
bytes and only a bounded tail of the engine's standard error is kept, so memory
stays bounded whatever the engine prints. An engine that exits, hangs or
prints an over-long line raises :class:`~.engine.EngineFailure` with a
:class:`~.engine.FailureKind` and the tail of its standard error; it is then
stopped. What the lines say is the protocol client's business
(:class:`~.process.ProcessEngine`).

Stopping (:meth:`EnginePipes.stop`) signals the whole process group, so
children that inherited the pipes go too: SIGTERM first, SIGKILL after
:data:`GRACE` seconds for whatever is left, then the pipes are closed without
waiting for end of file. A process that puts itself in a new session on
purpose leaves the group and cannot be followed; its pipes are closed all the
same, so it cannot hold the runner.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shlex
import signal
import subprocess
import time

from ...orphans import adopt_orphans, before_exec, descendants, end, end_adopted
from ...sinks import printable
from ..protocol.interface import EngineFailure, FailureKind
from .signals import LIVE_GROUPS, deferred

#: The longest reply line accepted, in bytes (the protocol's limit).
MAX_LINE = 1 << 20
#: How much of the engine's standard error is kept, in bytes (the last part).
STDERR_TAIL = 8 << 10
#: Seconds between SIGTERM and SIGKILL when an engine is stopped.
GRACE = 0.5
#: Seconds an engine's output is still read after the engine has exited.
AFTER_EXIT = 0.1
#: Seconds between two looks at whether an engine that has not answered yet has exited.
POLL_EVERY = 0.05


class EnginePipes:
    """An engine program started from ``command``, and the pipes to and from it."""

    def __init__(self, command: str, *, cwd: str | None = None) -> None:
        self._stderr = bytearray()
        self._stdout = bytearray()
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise EngineFailure(
                FailureKind.CANNOT_START, f"cannot read the engine command {command!r}: {error}"
            ) from None
        if not argv:
            raise EngineFailure(FailureKind.CANNOT_START, "the engine command is empty")
        adopt_orphans()  # (what the engine's processes leave behind is the judge's)
        try:
            # A signal between the start and the bookkeeping must not orphan the engine.
            with deferred():
                self._process = subprocess.Popen(
                    argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    cwd=cwd,
                    start_new_session=True,
                    bufsize=0,
                    # (the engine ends with the judge, even one ended by SIGKILL)
                    preexec_fn=before_exec(),
                )
                LIVE_GROUPS.add(self._process.pid)
        except (OSError, ValueError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            raise EngineFailure(
                FailureKind.CANNOT_START, f"cannot start {command!r}: {printable(reason)}"
            ) from None
        assert self._process.stdin and self._process.stdout and self._process.stderr
        self._pgid = self._process.pid
        self._in = self._process.stdin.fileno()
        self._out = self._process.stdout.fileno()
        self._err = self._process.stderr.fileno()
        for descriptor in (self._in, self._out, self._err):
            os.set_blocking(descriptor, False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._out, selectors.EVENT_READ, "out")
        self._selector.register(self._err, selectors.EVENT_READ, "err")
        self._open = {"out", "err"}
        self._stopped = False
        self._stopping = False

    # ---- what the engine printed

    @property
    def stderr_tail(self) -> str:
        """The last lines the engine wrote to its standard error (bounded, control characters
        shown as escapes so nothing the engine wrote can drive a terminal)."""
        text = bytes(self._stderr).decode("utf-8", errors="replace")
        lines = [printable(line.rstrip()) for line in text.splitlines() if line.strip()]
        return "\n".join(lines[-10:])

    def _fail(self, kind: FailureKind, message: str) -> EngineFailure:
        """Stop the engine and make the failure, with the tail of its stderr."""
        self._drain_stderr()
        self.stop()
        return EngineFailure(kind, message, stderr=self.stderr_tail)

    def _keep_stderr(self, chunk: bytes) -> None:
        self._stderr.extend(chunk)
        if len(self._stderr) > STDERR_TAIL:
            del self._stderr[: len(self._stderr) - STDERR_TAIL]

    def _drain_stderr(self) -> None:
        """Read what stderr holds now, without waiting."""
        if "err" not in self._open:
            return
        for _ in range(64):
            try:
                chunk = os.read(self._err, 65536)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self._close_stream("err")
                return
            self._keep_stderr(chunk)

    def _close_stream(self, name: str) -> None:
        if name in self._open:
            self._open.discard(name)
            with contextlib.suppress(KeyError, ValueError, OSError):
                self._selector.unregister(self._out if name == "out" else self._err)

    # ---- a line out, a line back, each by a deadline

    def _write(self, data: bytes, kind: str, deadline: float, seconds: float) -> None:
        view = memoryview(data)
        while view:
            try:
                written = os.write(self._in, view)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, OSError, ValueError):
                raise self._fail(
                    FailureKind.EXITED, f"the engine closed its input before {kind!r}"
                ) from None
            view = view[written:]
            if view:
                if time.monotonic() > deadline:
                    raise self._fail(
                        FailureKind.TIMEOUT,
                        f"the engine did not read the {kind!r} request within {seconds:g} s",
                    )
                self._wait_readable(min(0.01, max(0.0, deadline - time.monotonic())))

    def _read_line(self, kind: str, deadline: float, seconds: float) -> bytes:
        exited_at: float | None = None
        # Whether the engine has exited is asked only once it is slow to answer (a wait
        # that brought nothing, or every POLL_EVERY seconds): an answer usually comes
        # first, and asking on every reply costs a system call and a lock each time.
        polled_at = time.monotonic()
        quiet = False
        while True:
            newline = self._stdout.find(b"\n")
            if newline >= 0:
                if newline > MAX_LINE:
                    raise self._fail(
                        FailureKind.TOO_LONG,
                        f"the reply to {kind!r} is longer than {MAX_LINE} bytes",
                    )
                line = bytes(self._stdout[:newline])
                del self._stdout[: newline + 1]
                return line
            if len(self._stdout) > MAX_LINE:
                raise self._fail(
                    FailureKind.TOO_LONG, f"the reply to {kind!r} is longer than {MAX_LINE} bytes"
                )
            if "out" not in self._open:
                code = self._process.poll()
                if code is None:
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        code = self._process.wait(timeout=min(0.2, seconds))
                status = "closed its output" if code is None else f"exited (status {code})"
                raise self._fail(
                    FailureKind.EXITED, f"the engine {status} before answering {kind!r}"
                )
            now = time.monotonic()
            if exited_at is None and (quiet or now - polled_at >= POLL_EVERY):
                polled_at = now
                if self._process.poll() is not None:
                    # The engine is gone, though a child of it may hold its output open:
                    # take what is already written, then stop waiting.
                    exited_at = now
            if exited_at is not None and now - exited_at > AFTER_EXIT:
                raise self._fail(
                    FailureKind.EXITED,
                    f"the engine exited (status {self._process.returncode}) before answering "
                    f"{kind!r}",
                )
            left = deadline - now
            if left <= 0:
                raise self._fail(FailureKind.TIMEOUT, f"no reply to {kind!r} within {seconds:g} s")
            wait = AFTER_EXIT if exited_at is not None else POLL_EVERY
            quiet = not self._wait_readable(min(left, wait))

    def _wait_readable(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for output on either stream and take what comes.

        False when the wait brought nothing (no output, no end of a stream).
        """
        if not self._open:
            time.sleep(min(seconds, 0.01))
            return False
        ready = self._selector.select(seconds)
        for key, _ in ready:
            name = key.data
            descriptor = self._out if name == "out" else self._err
            try:
                chunk = os.read(descriptor, 65536)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                self._close_stream(name)
            elif name == "out":
                self._stdout.extend(chunk)
            else:
                self._keep_stderr(chunk)
        return bool(ready)

    # ---- stopping

    def stop(self) -> None:
        """Stop the engine and every process of its group: TERM, then KILL; close the pipes."""
        if self._stopped:
            return
        self._stopping = True
        # (found first: a process the engine started in a session of its own is not
        # in its group, and once the engine is gone it is nobody's child)
        spawned = descendants(self._process.pid)
        stop_group(self._pgid, self._process)
        LIVE_GROUPS.discard(self._pgid)
        end(spawned)
        end_adopted(LIVE_GROUPS)
        with contextlib.suppress(OSError, ValueError):
            self._selector.close()
        for stream in (self._process.stdin, self._process.stdout, self._process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()
        self._stopped = True


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stop_group(pgid: int, leader: subprocess.Popen[bytes], grace: float = GRACE) -> None:
    """Stop a process group: SIGTERM, up to ``grace`` seconds, then SIGKILL; reap the leader."""
    if _group_alive(pgid):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGTERM)
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            leader.poll()
            if not _group_alive(pgid):
                break
            time.sleep(0.01)
        if _group_alive(pgid):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pgid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        leader.wait(timeout=5)
