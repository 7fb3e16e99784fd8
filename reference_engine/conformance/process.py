"""Driving an engine program over the JSON-lines protocol, robustly.

Every request waits at most ``timeout`` seconds for its one reply. An engine
that exits, hangs, prints something that is not a JSON object, prints a line
longer than :data:`MAX_LINE`, or answers with the wrong id raises
:class:`EngineFailure`; the process is then killed (its whole process group),
so the runner never hangs and never leaves a process behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
from collections import deque
from collections.abc import Mapping
from typing import IO, Any

from .engine import PROTOCOL_VERSION, EngineFailure, EngineInfo, EngineRefusal

#: The longest reply line accepted, in bytes.
MAX_LINE = 1 << 20


class ProcessEngine:
    """An engine program under test, started from a command line."""

    def __init__(self, command: str, *, timeout: float = 5.0, cwd: str | None = None) -> None:
        self.command = command
        self.timeout = timeout
        self._next_id = 0
        self._stderr: deque[str] = deque(maxlen=20)
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise EngineFailure(f"cannot read the engine command {command!r}: {error}") from None
        if not argv:
            raise EngineFailure("the engine command is empty")
        try:
            self._process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                start_new_session=True,
            )
        except OSError as error:
            raise EngineFailure(f"cannot start {command!r}: {error.strerror or error}") from None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        assert self._process.stdout is not None and self._process.stderr is not None
        threading.Thread(target=self._read, args=(self._process.stdout,), daemon=True).start()
        threading.Thread(target=self._drain, args=(self._process.stderr,), daemon=True).start()
        self._info: EngineInfo | None = None

    # ---- plumbing

    def _read(self, stream: IO[bytes]) -> None:
        try:
            while True:
                line = stream.readline(MAX_LINE + 1)
                if not line:
                    break
                self._lines.put(line)
                if len(line) > MAX_LINE:
                    break
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def _drain(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            for line in stream:
                self._stderr.append(line.decode("utf-8", errors="replace").rstrip())

    def _stderr_tail(self) -> str:
        tail = " | ".join(list(self._stderr)[-3:])
        return f"; stderr: {tail}" if tail else ""

    def _fail(self, message: str) -> EngineFailure:
        self.kill()
        return EngineFailure(message + self._stderr_tail())

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send one request and return its reply; raise on refusal or failure."""
        self._next_id += 1
        request_id = self._next_id
        line = json.dumps({"id": request_id, "type": kind, **fields}) + "\n"
        stdin = self._process.stdin
        try:
            assert stdin is not None
            stdin.write(line.encode("utf-8"))
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._fail(f"the engine closed its input before {kind!r}") from None
        try:
            raw = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise self._fail(f"no reply to {kind!r} within {self.timeout:g} s") from None
        if raw is None:
            code = self._process.poll()
            raise self._fail(f"the engine exited (status {code}) before answering {kind!r}")
        if len(raw) > MAX_LINE:
            raise self._fail(f"the reply to {kind!r} is longer than {MAX_LINE} bytes")
        try:
            reply = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            shown = raw[:80].decode("utf-8", errors="replace").strip()
            raise self._fail(f"the reply to {kind!r} is not JSON: {shown!r}") from None
        if not isinstance(reply, dict):
            raise self._fail(f"the reply to {kind!r} is not a JSON object")
        if reply.get("id") != request_id:
            raise self._fail(
                f"reply out of order: expected id {request_id}, got {reply.get('id')!r}"
            )
        if reply.get("type") == "error":
            raise EngineRefusal(str(reply.get("code", "error")), str(reply.get("message", "")))
        return reply

    def _expect(
        self, reply: Mapping[str, Any], kind: str, key: str, types: type | tuple[type, ...]
    ) -> Any:
        if reply.get("type") != kind or not isinstance(reply.get(key), types):
            raise self._fail(f"expected a {kind!r} reply with {key!r}, got {reply!r:.200}")
        return reply[key]

    # ---- the Engine interface

    def hello(self) -> EngineInfo:
        if self._info is None:
            reply = self.request("hello", protocol=PROTOCOL_VERSION)
            if reply.get("type") != "hello" or not isinstance(reply.get("name"), str):
                raise self._fail(f"not a hello reply: {reply!r:.200}")
            variants = reply.get("variants")
            if variants is not None and not isinstance(variants, dict):
                raise self._fail("hello.variants must be an object or null")
            self._info = EngineInfo(
                name=reply["name"],
                version=str(reply.get("version", "")),
                protocol=str(reply.get("protocol", "")),
                variants=variants,
            )
        return self._info

    def new_match(self, variant: str, options: Mapping[str, str], players: int) -> None:
        self.request("new_match", variant=variant, options=dict(options), players=players)

    def new_hand(self, deal: Mapping[str, Any]) -> None:
        self.request("new_hand", deal=dict(deal))

    def legal(self) -> list[str]:
        actions = self._expect(self.request("legal"), "legal", "actions", list)
        if not all(isinstance(a, str) for a in actions):
            raise self._fail("legal actions must be strings")
        return list(actions)

    def ends(self) -> list[str]:
        ends = self._expect(self.request("ends"), "ends", "ends", list)
        if not all(isinstance(e, str) for e in ends):
            raise self._fail("ends must be strings")
        return list(ends)

    def to_act(self) -> int | None:
        reply = self.request("to_act")
        seat = reply.get("seat")
        if reply.get("type") != "to_act" or not (seat is None or isinstance(seat, int)):
            raise self._fail(f"not a to_act reply: {reply!r:.200}")
        return seat

    def apply(self, action: str, player: int | None) -> str | None:
        reply = self.request("apply", action=action, player=player)
        if reply.get("type") == "applied":
            return None
        if reply.get("type") == "refused" and isinstance(reply.get("reason"), str):
            return str(reply["reason"])
        raise self._fail(f"not an applied or refused reply: {reply!r:.200}")

    def result(self) -> Mapping[str, Any] | None:
        reply = self.request("result")
        if reply.get("type") != "result" or not (
            reply.get("result") is None or isinstance(reply.get("result"), dict)
        ):
            raise self._fail(f"not a result reply: {reply!r:.200}")
        return reply["result"]  # type: ignore[no-any-return]

    def match_state(self) -> Mapping[str, Any]:
        reply = self.request("match")
        if reply.get("type") != "match":
            raise self._fail(f"not a match reply: {reply!r:.200}")
        return {key: reply.get(key) for key in ("scores", "hands_won", "winner")}

    def close(self) -> None:
        if self._process.poll() is None:
            with contextlib.suppress(EngineFailure, EngineRefusal):
                self.timeout = min(self.timeout, 1.0)
                self.request("quit")
        self.kill()

    def kill(self) -> None:
        """Stop the engine process and its children, at once."""
        if self._process.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=5)
        for stream in (self._process.stdin, self._process.stdout, self._process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
