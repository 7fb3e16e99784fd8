"""Driving an engine program over the JSON-lines protocol, with a deadline on everything.

The engine runs in a session and process group of its own. Every request is
written and its one reply read with a deadline (``selectors`` over the pipes,
never a blocking ``readline``), so nothing the engine does can hang the
runner. Reply lines are capped at :data:`MAX_LINE` bytes and only a bounded
tail of the engine's standard error is kept, so memory stays bounded whatever
the engine prints. An engine that exits, hangs, prints something that is not
a JSON object of the expected shape, prints an over-long line, or answers with
the wrong id raises :class:`EngineFailure` with a :class:`FailureKind` and the
tail of its standard error; it is then stopped.

Stopping (:meth:`ProcessEngine.stop`) signals the whole process group, so
children that inherited the pipes go too: SIGTERM first, SIGKILL after
:data:`GRACE` seconds for whatever is left, then the pipes are closed without
waiting for end of file. A process that puts itself in a new session on
purpose leaves the group and cannot be followed; its pipes are closed all the
same, so it cannot hold the runner.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import selectors
import shlex
import signal
import subprocess
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from . import replies
from .engine import (
    PROTOCOL_VERSION,
    EngineFailure,
    EngineInfo,
    EngineRefusal,
    FailureKind,
)
from .replies import BadReply, printable, short, strict_json
from .signals import LIVE_GROUPS, deferred

T = TypeVar("T")

#: The longest reply line accepted, in bytes (the protocol's limit).
MAX_LINE = 1 << 20
#: How much of the engine's standard error is kept, in bytes (the last part).
STDERR_TAIL = 8 << 10
#: Seconds between SIGTERM and SIGKILL when an engine is stopped.
GRACE = 0.5
#: The default deadline of the handshake, which includes the engine's start-up.
START_TIMEOUT = 10.0
#: Seconds an engine's output is still read after the engine has exited.
AFTER_EXIT = 0.1


class ProcessEngine:
    """An engine program under test, started from a command line."""

    def __init__(
        self,
        command: str,
        *,
        timeout: float = 5.0,
        start_timeout: float | None = None,
        cwd: str | None = None,
    ) -> None:
        for name, value in (("timeout", timeout), ("start_timeout", start_timeout)):
            if value is None and name == "start_timeout":
                continue
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
                raise ValueError(f"the {name} must be a finite positive number, not {value!r}")
        self.command = command
        self.timeout = float(timeout)
        #: The deadline of the handshake, which includes the engine's start-up.
        self.start_timeout = max(
            self.timeout, START_TIMEOUT if start_timeout is None else float(start_timeout)
        )
        self._next_id = 0
        self._stderr = bytearray()
        self._stdout = bytearray()
        self._info: EngineInfo | None = None
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise EngineFailure(
                FailureKind.CANNOT_START, f"cannot read the engine command {command!r}: {error}"
            ) from None
        if not argv:
            raise EngineFailure(FailureKind.CANNOT_START, "the engine command is empty")
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

    # ---- one request, one reply

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
            if exited_at is None and self._process.poll() is not None:
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
            self._wait_readable(min(left, AFTER_EXIT) if exited_at is not None else min(left, 0.25))

    def _wait_readable(self, seconds: float) -> None:
        """Wait up to ``seconds`` for output on either stream and take what comes."""
        if not self._open:
            time.sleep(min(seconds, 0.01))
            return
        for key, _ in self._selector.select(seconds):
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

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send one request and return its reply; raise on refusal or failure."""
        if self._stopped or self._stopping:
            raise EngineFailure(FailureKind.EXITED, "the engine has been stopped")
        self._next_id += 1
        request_id = self._next_id
        line = json.dumps({"id": request_id, "type": kind, **fields}, allow_nan=False) + "\n"
        seconds = self.start_timeout if kind == "hello" else self.timeout
        deadline = time.monotonic() + seconds
        self._write(line.encode("utf-8"), kind, deadline, seconds)
        raw = self._read_line(kind, deadline, seconds)
        try:
            reply = strict_json(raw)
        except ValueError as error:
            shown = raw[:80].decode("utf-8", errors="replace").strip()
            raise self._fail(
                FailureKind.NOT_JSON,
                f"the reply to {kind!r} is not strict JSON ({error}): {printable(shown)!r}",
            ) from None
        if not isinstance(reply, dict):
            raise self._fail(FailureKind.BAD_REPLY, f"the reply to {kind!r} is not a JSON object")
        reply_id = reply.get("id")
        if type(reply_id) is not int or reply_id != request_id:  # not a bool, not 1.0
            raise self._fail(
                FailureKind.WRONG_ID,
                f"reply out of order: expected id {request_id}, got {short(reply_id)}",
            )
        if reply.get("type") == "error":
            code, message = reply.get("code"), reply.get("message", "")
            if not isinstance(code, str):
                raise self._fail(
                    FailureKind.BAD_REPLY, f"an error reply to {kind!r} without a string code"
                )
            raise EngineRefusal(printable(code[:100]), printable(str(message)[:500]))
        return reply

    # ---- the Engine interface

    def hello(self) -> EngineInfo:
        if self._info is None:
            reply = self.request("hello", protocol=PROTOCOL_VERSION)
            self._info = info_from_hello(reply, self._fail)
        return self._info

    def new_match(self, variant: str, options: Mapping[str, str], players: int) -> None:
        self._answer("new_match", ("ok",), variant=variant, options=dict(options), players=players)

    def new_hand(self, deal: Mapping[str, Any]) -> None:
        self._answer("new_hand", ("ok",), deal=dict(deal))

    def _answer(self, kind: str, expected: tuple[str, ...], **fields: Any) -> dict[str, Any]:
        """The reply to ``kind``, which must be of one of the ``expected`` types."""
        reply = self.request(kind, **fields)
        if reply.get("type") not in expected:
            raise self._fail(
                FailureKind.BAD_REPLY,
                f"expected a {' or '.join(map(repr, expected))} reply to {kind!r}, "
                f"got {short(reply)}",
            )
        return reply

    def _checked(self, check: Callable[..., T], *args: Any, **keywords: Any) -> T:
        try:
            return check(*args, **keywords)
        except BadReply as bad:
            raise self._fail(FailureKind.BAD_REPLY, str(bad)) from None

    def legal(self) -> list[str]:
        reply = self._answer("legal", ("legal",))
        return self._checked(replies.strings, reply.get("actions"), "the legal actions", once=True)

    def ends(self) -> list[str]:
        reply = self._answer("ends", ("ends",))
        return self._checked(replies.strings, reply.get("ends"), "the open ends")

    def to_act(self) -> int | None:
        reply = self._answer("to_act", ("to_act",))
        if "seat" not in reply:
            raise self._fail(FailureKind.BAD_REPLY, "the to_act reply has no 'seat'")
        return self._checked(replies.seat_or_none, reply["seat"], "the seat to act")

    def apply(self, action: str, player: int | None) -> str | None:
        reply = self._answer("apply", ("applied", "refused"), action=action, player=player)
        if reply["type"] == "applied":
            return None
        refused = self._checked(replies.reason, reply.get("reason"))
        if refused is None:
            raise self._fail(FailureKind.BAD_REPLY, "a refused reply without its 'reason'")
        return refused

    def result(self) -> Mapping[str, Any] | None:
        reply = self._answer("result", ("result",))
        if "result" not in reply:
            raise self._fail(FailureKind.BAD_REPLY, "the result reply has no 'result'")
        return self._checked(replies.hand_result, reply["result"])

    def match_state(self) -> Mapping[str, Any]:
        reply = self._answer("match", ("match",))
        return self._checked(replies.match_totals, reply)

    def close(self) -> None:
        """Say goodbye (briefly), then stop the engine's whole process group."""
        if not (self._stopped or self._stopping) and self._process.poll() is None:
            self.timeout = min(self.timeout, 1.0)
            with contextlib.suppress(EngineFailure, EngineRefusal):
                self.request("quit")
        self.stop()

    def stop(self) -> None:
        """Stop the engine and every process of its group: TERM, then KILL; close the pipes."""
        if self._stopped:
            return
        self._stopping = True
        stop_group(self._pgid, self._process)
        LIVE_GROUPS.discard(self._pgid)
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


def info_from_hello(reply: Mapping[str, Any], fail: Any) -> EngineInfo:
    """Check a hello reply's shape and make the :class:`EngineInfo` (``fail`` makes the error)."""
    if reply.get("type") != "hello":
        raise fail(FailureKind.HANDSHAKE, f"the handshake reply is not a hello: {short(reply)}")
    name, version, protocol = reply.get("name"), reply.get("version"), reply.get("protocol")
    if not isinstance(name, str) or not name.strip():
        raise fail(FailureKind.HANDSHAKE, "the hello reply has no name (a string)")
    if not isinstance(version, str):
        raise fail(
            FailureKind.HANDSHAKE,
            f"the hello reply's version must be a string, not {short(version)}",
        )
    if not isinstance(protocol, str):
        raise fail(
            FailureKind.HANDSHAKE,
            f"the hello reply does not name its protocol version (expected {PROTOCOL_VERSION!r})",
        )
    if "variants" not in reply:
        raise fail(
            FailureKind.HANDSHAKE,
            "the hello reply does not say which variants it plays (variants: null for all)",
        )
    variants = reply.get("variants")
    if variants is not None:
        problem = declared_variants_problem(variants)
        if problem:
            raise fail(FailureKind.HANDSHAKE, f"hello.variants: {problem}")
    return EngineInfo(
        name=printable(name[:200]),
        version=printable(version[:100]),
        protocol=printable(protocol[:100]),
        variants=variants,
    )


def declared_variants_problem(variants: Any) -> str | None:
    """What is wrong with a declared ``variants`` value (None when it is well formed)."""
    if not isinstance(variants, dict):
        return "must be null or an object of variant id -> {option: [values]}"
    for variant, options in variants.items():
        if not isinstance(options, dict):
            return f"{short(variant)} must map to an object of option -> [values]"
        for option, values in options.items():
            if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
                return f"{variant}.{option} must be a list of option values (strings)"
    return None
