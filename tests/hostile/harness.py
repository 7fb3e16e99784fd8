"""Running the real ``matador`` command in a subprocess, as a user would, and judging how it ends.

:func:`run_matador` starts ``python -m reference_engine.cli`` in a session of its
own with a marker in its environment, waits at most a hard timeout, and checks
what a trusted tool must always do: finish, print no traceback, and leave no
process behind (every process carrying the marker, even one that left the
session, is found through ``/proc`` and counted).
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest
from fitting import flat, unfitted

HERE = Path(__file__).resolve().parent
FAKE_ENGINE = HERE / "fake_engine.py"
MARKER = "MATADOR_HOSTILE_TEST"


@dataclass(frozen=True)
class Finished:
    """How a command ended."""

    status: int
    stdout: str
    stderr: str
    seconds: float

    @property
    def output(self) -> str:
        """Both streams together, for messages that may go to either."""
        return self.stdout + self.stderr

    @property
    def said(self) -> str:
        """Both streams as one line of words, whatever the width made of their lines."""
        return flat(self.output)

    @property
    def messages(self) -> list[str]:
        """Standard error's messages, each whole (its fitted continuations joined)."""
        return unfitted(self.stderr)

    @property
    def out_lines(self) -> list[str]:
        """Standard output's lines, each whole (its fitted continuations joined)."""
        return unfitted(self.stdout)


def _tagged(tag: str) -> list[int]:
    """The processes whose environment carries ``tag``."""
    found = []
    needle = f"{MARKER}={tag}".encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            environ = Path("/proc", entry, "environ").read_bytes()
        except OSError:
            continue
        if needle in environ.split(b"\0"):
            found.append(int(entry))
    return found


def _kill(pids: Sequence[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def leftovers(tag: str, grace: float = 3.0) -> list[int]:
    """Processes still carrying ``tag`` after ``grace`` seconds (zombies are not counted)."""
    deadline = time.monotonic() + grace
    while True:
        alive = [pid for pid in _tagged(tag) if not _is_zombie(pid)]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.05)


def _is_zombie(pid: int) -> bool:
    try:
        status = Path("/proc", str(pid), "stat").read_text()
    except OSError:
        return True
    return status.rsplit(")", 1)[-1].split()[0] == "Z"


def matador_argv(*args: str) -> list[str]:
    """The command line that runs ``matador ARGS`` from this checkout's package."""
    return [sys.executable, "-m", "reference_engine.cli", *args]


def fake_engine(mode: str, *extra: str) -> str:
    """An ``--engine`` command running the fake engine in ``mode``."""
    return " ".join([sys.executable, str(FAKE_ENGINE), mode, *extra])


class Signal:
    """Deliver ``signum`` to the command once ``ready(stdout so far)`` is true (checked often)."""

    def __init__(
        self, signum: int, ready: Callable[[str], bool], *, again: float | None = None
    ) -> None:
        self.signum = signum
        self.ready = ready
        #: Send the signal a second time, this many seconds after the first.
        self.again = again
        self.sent: float | None = None
        self.repeated = False


def _reader(stream: IO[bytes], into: bytearray) -> threading.Thread:
    # Popen's pipes are buffered readers: read1 returns what has arrived, without waiting.
    assert isinstance(stream, io.BufferedIOBase)

    def read() -> None:
        for chunk in iter(lambda: stream.read1(65536), b""):
            into.extend(chunk)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def run_matador(
    *args: str,
    stdin: bytes | str | None = None,
    timeout: float = 30.0,
    cwd: Path | None = None,
    send: Signal | None = None,
    env: dict[str, str] | None = None,
) -> Finished:
    """Run ``matador ARGS``; fail the test if it hangs, prints a traceback or leaves a process.

    ``send`` delivers a signal when the output shows the command has got far enough.
    """
    tag = uuid.uuid4().hex
    environment = {**os.environ, MARKER: tag, "PYTHONUNBUFFERED": "1", **(env or {})}
    environment.pop("COLUMNS", None)
    data = stdin.encode() if isinstance(stdin, str) else stdin
    started = time.monotonic()
    process = subprocess.Popen(
        matador_argv(*args),
        stdin=subprocess.PIPE if data is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=environment,
        start_new_session=True,
    )
    out, err = bytearray(), bytearray()
    assert process.stdout is not None and process.stderr is not None
    readers = [_reader(process.stdout, out), _reader(process.stderr, err)]
    if data is not None:
        assert process.stdin is not None
        with contextlib.suppress(BrokenPipeError, OSError):
            process.stdin.write(data)
        with contextlib.suppress(BrokenPipeError, OSError):
            process.stdin.close()
    deadline = started + timeout
    while process.poll() is None:
        if time.monotonic() > deadline:
            _kill(_tagged(tag))
            process.kill()
            process.wait()
            pytest.fail(
                f"matador {' '.join(args)} did not finish within {timeout} s\n"
                f"stdout: {bytes(out[-2000:])!r}\nstderr: {bytes(err[-2000:])!r}"
            )
        if send is not None and send.sent is None and send.ready(out.decode("utf-8", "replace")):
            process.send_signal(send.signum)
            send.sent = time.monotonic()
        elif (
            send is not None
            and send.sent is not None
            and send.again is not None
            and not send.repeated
            and time.monotonic() - send.sent >= send.again
        ):
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(send.signum)
            send.repeated = True
        time.sleep(0.02)
    for reader in readers:
        reader.join(timeout=5)
    seconds = time.monotonic() - started
    stdout = out.decode("utf-8", errors="replace")
    stderr = err.decode("utf-8", errors="replace")
    left = leftovers(tag)
    _kill(left)
    assert not left, f"matador {' '.join(args)} left processes behind: {left}\nstderr: {stderr}"
    assert "Traceback" not in stderr, f"a traceback from matador {' '.join(args)}:\n{stderr}"
    return Finished(process.returncode, stdout, stderr, seconds)
