"""Driving an engine program over the JSON-lines protocol: one request, one reply.

:class:`ProcessEngine` is the :class:`~.engine.Engine` interface for a program:
each request is written as one JSON line and its one reply read back over
:class:`~.pipes.EnginePipes`, with a deadline on both. A reply that is not a
JSON object of the expected shape, or that answers with the wrong id, raises
:class:`EngineFailure` with a :class:`FailureKind` and the tail of the engine's
standard error, and the engine is stopped; an error reply is a refusal
(:class:`EngineRefusal`). :func:`info_from_hello` checks the handshake.
"""

from __future__ import annotations

import contextlib
import json
import math
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
from .pipes import EnginePipes
from .replies import BadReply, printable, short, strict_json

T = TypeVar("T")

#: The default deadline of the handshake, which includes the engine's start-up.
START_TIMEOUT = 10.0

#: The writer of request lines, made once (``json.dumps`` would make one per request).
_WRITER = json.JSONEncoder(allow_nan=False)


class ProcessEngine(EnginePipes):
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
        self._info: EngineInfo | None = None
        self._meanwhile: Callable[[], object] | None = None
        super().__init__(command, cwd=cwd)

    def meanwhile(self, work: Callable[[], object]) -> None:
        """Do ``work`` during the next request, once it is written and while the engine
        answers it, instead of before or after: the runner's own work for a check (the
        rules behind it) then overlaps the engine's. The request, its bytes and its
        deadline are the same (the deadline is moved on by the time ``work`` took). An
        exception from ``work`` is not the engine's: it is dropped here, and ``work``
        keeps it for whoever asks for its result (:class:`~.ahead.Ahead`)."""
        self._meanwhile = work

    # ---- one request, one reply

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send one request and return its reply; raise on refusal or failure."""
        work, self._meanwhile = self._meanwhile, None
        if self._stopped or self._stopping:
            raise EngineFailure(FailureKind.EXITED, "the engine has been stopped")
        self._next_id += 1
        request_id = self._next_id
        line = _WRITER.encode({"id": request_id, "type": kind, **fields}) + "\n"
        seconds = self.start_timeout if kind == "hello" else self.timeout
        deadline = time.monotonic() + seconds
        self._write(line.encode("utf-8"), kind, deadline, seconds)
        if work is not None:
            started = time.monotonic()
            with contextlib.suppress(Exception):
                work()
            deadline += time.monotonic() - started
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
