"""Driving an engine program over the JSON-lines protocol: one request, one reply.

:class:`ProcessEngine` is the :class:`~.engine.Engine` interface for a program:
each request is written as one JSON line and its one reply read back over
:class:`~.pipes.EnginePipes`, with a deadline on both. The runner may write the
requests it is about to make before it reads their replies
(:meth:`ProcessEngine.plan`, spec/protocol.md "Transport"); each is
still asked for and checked one at a time, in order. A reply that is not a
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
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from ...sinks import inline, one_line, printable
from ..protocol import replies, requests
from ..protocol.declarations import DeclarationError, read_plays
from ..protocol.interface import (
    PROTOCOL_VERSION,
    REFUSED,
    EngineFailure,
    EngineInfo,
    EngineRefusal,
    FailureKind,
    Opening,
)
from ..protocol.replies import BadReply, short, strict_json
from ..protocol.requests import CHANGES, Request
from .latency import Latency
from .pipes import EnginePipes

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
        #: Requests planned and not yet written (see :meth:`plan`).
        self._plan: deque[Request] = deque()
        #: Requests written ahead and not yet asked for: (id, type, fields), oldest first.
        self._ahead: deque[tuple[int, str, Mapping[str, Any]]] = deque()
        #: The id of the request whose reply is being waited for, if any.
        self._owed: int | None = None
        #: How many replies to requests written ahead were read and dropped because the
        #: runner did not ask for them (its case stopped first).
        self.dropped = 0
        #: The action the engine said it carried out, for the last action it accepted
        #: (None when it did not say).
        self.laid: str | None = None
        #: Whether the match in progress is of a variant the engine plays without
        #: refusal reasons (``plays``: ``reasons: false``).
        self._reasonless = False
        #: Whether the engine answered ``held`` with ``unknown_request``.
        self._no_held = False
        #: How close each reply came to its deadline (a runner shares its own).
        self.latency = Latency()
        super().__init__(command, cwd=cwd)

    def meanwhile(self, work: Callable[[], object]) -> None:
        """Do ``work`` during the next request, once it is written and while the engine
        answers it, instead of before or after: the runner's own work for a check (the
        rules behind it) then overlaps the engine's. The request, its bytes and its
        deadline are the same (the deadline is moved on by the time ``work`` took). An
        exception from ``work`` is not the engine's: it is dropped here, and ``work``
        keeps it for whoever asks for its result (:class:`~.ahead.Ahead`)."""
        self._meanwhile = work

    # ---- requests written ahead

    def plan(self, planned: Sequence[Request]) -> None:
        """The requests the runner is about to make, in order, if all goes as it expects.

        From now on, when the runner asks for the next planned request, the
        requests after it that change nothing (:data:`~.requests.CHANGES`) are
        written with it, up to the next one that changes the game: the engine
        answers them in order without waiting for the runner in between, which
        saves a round trip each. Every reply is still read and checked only when
        the runner asks for its request, one at a time, by its deadline. When the
        runner asks for something else (its case stopped), the replies to what
        was written and not asked for are read and dropped (:meth:`settle`), and
        the rest of the plan is forgotten.
        """
        self.settle()
        self._plan = deque(planned)

    def settle(self) -> None:
        """Forget the plan; read and drop the replies to requests written and not asked for.

        Each such reply must still come in time, in order and as a JSON object,
        or the engine fails here; what it says is not checked.
        """
        self._plan.clear()
        while self._ahead:
            request_id, kind, _ = self._ahead.popleft()
            self.dropped += 1
            self._reply(kind, request_id, time.monotonic() + self.timeout, self.timeout)

    def nothing_unasked(self) -> None:
        """Fail if the engine has already written a line no request asked for (a reply
        written twice, say), looking without waiting: called as a case ends, so that
        the case whose requests it answered is the one that fails, not the next."""
        if self._stopped or self._stopping or self._ahead or self._owed is not None:
            return
        self._wait_readable(0)
        end = self._stdout.find(b"\n")
        if end >= 0:
            shown = bytes(self._stdout[: min(end, 80)]).decode("utf-8", errors="replace")
            raise self._fail(
                FailureKind.WRONG_ID,
                f"the engine wrote a line no request asked for: {printable(shown)!r}",
            )

    def _planned(self, kind: str, fields: Mapping[str, Any]) -> int | None:
        """The id of the request ``kind`` with ``fields`` if it was planned (and is now
        written, with the requests after it that change nothing); None if it was not."""
        if self._ahead:
            request_id, written_kind, written_fields = self._ahead[0]
            if written_kind == kind and written_fields == fields:
                self._ahead.popleft()
                return request_id
            self.settle()
            return None
        plan = self._plan
        if not plan:
            return None
        if plan[0][0] != kind or plan[0][1] != fields:
            plan.clear()
            return None
        group = [plan.popleft()]
        while plan and plan[0][0] not in CHANGES:
            group.append(plan.popleft())
        lines = []
        for written_kind, written_fields in group:
            lines.append(self._numbered(written_kind, written_fields))
            self._ahead.append((self._next_id, written_kind, written_fields))
        deadline = time.monotonic() + self.timeout
        self._write("".join(lines).encode("utf-8"), kind, deadline, self.timeout)
        return self._ahead.popleft()[0]

    def _numbered(self, kind: str, fields: Mapping[str, Any]) -> str:
        """The line of a request, under the next id (``_next_id`` is then its id)."""
        self._next_id += 1
        return _WRITER.encode({"id": self._next_id, "type": kind, **fields}) + "\n"

    # ---- one request, one reply

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send one request and return its reply; raise on refusal or failure."""
        work, self._meanwhile = self._meanwhile, None
        if self._stopped or self._stopping:
            raise EngineFailure(FailureKind.EXITED, "the engine has been stopped")
        seconds = self.start_timeout if kind == "hello" else self.timeout
        if self._ahead or self._plan:
            planned = self._planned(kind, fields)
            if planned is not None:
                return self._answered(kind, planned, work, seconds)
        line = self._numbered(kind, fields)
        request_id = self._next_id
        deadline = time.monotonic() + seconds
        self._write(line.encode("utf-8"), kind, deadline, seconds)
        return self._answered(kind, request_id, work, seconds, deadline)

    def _answered(
        self,
        kind: str,
        request_id: int,
        work: Callable[[], object] | None,
        seconds: float,
        deadline: float | None = None,
    ) -> dict[str, Any]:
        """The reply to a written request, ``work`` done while the engine answers.

        A request written ahead gets its ``seconds`` from when it is asked for:
        the engine answers in order, so it has had the time since the reply before.
        """
        if deadline is None:
            deadline = time.monotonic() + seconds
        self._owed = request_id  # until its reply is read (see close)
        if work is not None:
            started = time.monotonic()
            with contextlib.suppress(Exception):
                work()
            deadline += time.monotonic() - started
        reply = self._reply(kind, request_id, deadline, seconds)
        self.latency.add(kind, seconds - (deadline - time.monotonic()), seconds)
        self._owed = None
        if reply.get("type") == "error":
            code, message = reply.get("code"), reply.get("message", "")
            if not isinstance(code, str):
                raise self._fail(
                    FailureKind.BAD_REPLY, f"an error reply to {kind!r} without a string code"
                )
            if code == "internal_error":
                raise self._fail(
                    FailureKind.INTERNAL_ERROR,
                    f"the engine answered internal_error to {kind!r}: {inline(str(message)[:300])}",
                )
            raise EngineRefusal(inline(code[:100]), inline(str(message)[:500]))
        return reply

    def _reply(self, kind: str, request_id: int, deadline: float, seconds: float) -> dict[str, Any]:
        """The next reply line, which must be a JSON object answering ``request_id``."""
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
        return reply

    # ---- the Engine interface

    def hello(self) -> EngineInfo:
        if self._info is None:
            reply = self.request("hello", protocol=PROTOCOL_VERSION)
            self._info = info_from_hello(reply, self._fail)
        return self._info

    def new_match(self, variant: str, options: Mapping[str, str], players: int) -> None:
        info = self._info
        self._reasonless = info is not None and not info.declaration(variant).reasons
        self._answer(requests.new_match(variant, options, players), ("ok",))

    def new_hand(self, deal: Mapping[str, Any]) -> Opening | None:
        reply = self._answer(requests.new_hand(deal), ("ok",))
        opened = self._checked(replies.opening, reply)
        return None if opened is None else Opening(*opened)

    def new_position(self, position: str) -> None:
        """Start the next hand at ``position`` (``new_hand`` with ``position``)."""
        self._answer(requests.new_position(position), ("ok",))

    def _answer(self, request: Request, expected: tuple[str, ...]) -> dict[str, Any]:
        """The reply to ``request``, which must be of one of the ``expected`` types."""
        kind, fields = request
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
        reply = self._answer(requests.query("legal"), ("legal",))
        return self._checked(replies.strings, reply.get("actions"), "the legal actions", once=True)

    def ends(self) -> list[str]:
        reply = self._answer(requests.query("ends"), ("ends",))
        return self._checked(replies.strings, reply.get("ends"), "the open ends")

    def to_act(self) -> int | None:
        reply = self._answer(requests.query("to_act"), ("to_act",))
        if "seat" not in reply:
            raise self._fail(FailureKind.BAD_REPLY, "the to_act reply has no 'seat'")
        return self._checked(replies.seat_or_none, reply["seat"], "the seat to act")

    def apply(self, action: str, player: int | None) -> str | None:
        reply = self._answer(requests.apply(action, player), ("applied", "refused"))
        if reply["type"] == "applied":
            laid = reply.get("laid")
            self.laid = None if laid is None else self._checked(replies.action_text, laid, "laid")
            return None
        refused = self._checked(replies.reason, reply.get("reason"))
        if refused is None:
            if self._reasonless:
                return REFUSED
            raise self._fail(FailureKind.BAD_REPLY, "a refused reply without its 'reason'")
        return refused

    def result(self) -> Mapping[str, Any] | None:
        reply = self._answer(requests.query("result"), ("result",))
        if "result" not in reply:
            raise self._fail(FailureKind.BAD_REPLY, "the result reply has no 'result'")
        return self._checked(replies.hand_result, reply["result"])

    def match_state(self) -> Mapping[str, Any]:
        reply = self._answer(requests.query("match"), ("match",))
        return self._checked(replies.match_totals, reply)

    def ask(self, kind: str) -> dict[str, Any]:
        """Send a request of any ``kind`` with no fields (a case checks an unknown one is
        answered ``unknown_request``): its reply, or EngineRefusal for an error reply."""
        return self.request(kind)

    def held(self, seat: int) -> list[str] | None:
        """The tiles ``seat`` holds, or None from an engine that does not say (it answers
        ``held`` with ``unknown_request``, and is not asked again)."""
        if self._no_held:
            return None
        try:
            reply = self._answer(requests.held(seat), ("held",))
        except EngineRefusal as refusal:
            if refusal.code != "unknown_request":
                raise
            self._no_held = True
            return None
        return self._checked(replies.strings, reply.get("tiles"), "the tiles held")

    def stop(self) -> None:
        """Stop the engine (see :meth:`EnginePipes.stop`); nothing is written ahead any more."""
        self._plan.clear()
        self._ahead.clear()
        super().stop()

    def close(self) -> None:
        """Say goodbye (briefly), then stop the engine's whole process group.

        Not while replies are still due (a run stopped by a signal while it waited
        for one, perhaps because the engine hangs, or with requests written ahead):
        reading them first could hold the stop up by a deadline each, so the engine
        is just stopped.
        """
        if self._ahead or self._owed is not None:
            self.stop()
            return
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
    try:
        plays = read_plays(reply.get("plays"), variants)
    except DeclarationError as error:
        raise fail(FailureKind.HANDSHAKE, f"hello.plays: {error}") from None
    return EngineInfo(
        name=one_line(name[:200]),
        version=one_line(version[:100]),
        protocol=one_line(protocol[:100]),
        variants=variants,
        plays=plays,
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
