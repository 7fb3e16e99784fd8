"""Holding an in-process Python engine to the same terms as a program: deadlines and shapes.

:class:`GuardedEngine` wraps any object with the methods of
:class:`~reference_engine.conformance.protocol.interface.Engine`. Each call runs under a
deadline (a real-time interval timer, where the runner owns the main thread),
an exception other than :class:`EngineRefusal` becomes an
:class:`EngineFailure` of kind ``raised``, and every answer is checked for the
shape the protocol gives it, so a Python engine that loops, raises or returns
nonsense is judged exactly as a program that hangs, crashes or prints garbage.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import math
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, NoReturn, TypeVar

from ...sinks import inline, one_line
from ..protocol import replies
from ..protocol.codes import ErrorCode
from ..protocol.declarations import DeclarationError, read_plays
from ..protocol.interface import (
    Engine,
    EngineFailure,
    EngineInfo,
    EngineRefusal,
    FailureKind,
    Opening,
    missing_methods,
)
from ..protocol.replies import BadReply, short
from .latency import Latency
from .process import declared_variants_problem
from .signals import Interrupted, owns_signals

T = TypeVar("T")


class _Deadline(BaseException):
    """Raised into an engine past its deadline; not an Exception, so ``except Exception``
    in the engine does not swallow it, and raised again every :data:`REPEAT` seconds
    until the call gives up."""


#: Seconds between repeated deadline signals into an engine that swallowed one.
REPEAT = 0.2


def _alarm(signum: int, frame: object) -> NoReturn:
    raise _Deadline


def _armed(seconds: float | None) -> object:
    """Arm the deadline: from now, raise :class:`_Deadline` after ``seconds``, and again
    every REPEAT seconds; the SIGALRM handler it replaced, for :func:`_disarm`
    (:data:`_UNARMED` where there is no limit).

    Only where the runner owns the main thread (signals go to it); elsewhere no limit.
    Two plain calls rather than a context manager: every call of an in-process
    engine goes through them, ten thousand in a conformance run.
    """
    if (
        seconds is None
        or not math.isfinite(seconds)
        or not _HAS_TIMER
        or threading.current_thread() is not threading.main_thread()
    ):
        return _UNARMED
    previous = _set_handler(_SIGALRM, _alarm)
    _setitimer(_ITIMER_REAL, seconds, REPEAT)
    return previous


def _disarm(previous: object) -> None:
    """Undo :func:`_armed`: stop the timer and put the previous handler back."""
    if previous is not _UNARMED:
        _setitimer(_ITIMER_REAL, 0)
        _set_handler(_SIGALRM, previous)


#: What _armed() answers when it set no deadline.
_UNARMED = object()
_HAS_TIMER = hasattr(signal, "setitimer")
#: The C function ``signal.signal`` wraps (where there is one): the wrapper turns the
#: handlers given and returned into enum members, raising and catching a ValueError
#: for a function, which made a pair of calls 7 microseconds instead of 1 (twice per
#: call of the engine, ten thousand calls a run). The handler it returns is given
#: back to it as it came.
# (Another Python without _signal: the wrapper does the same, more slowly.)
_SIGNAL_MODULE: Any = (
    importlib.import_module("_signal") if importlib.util.find_spec("_signal") else signal
)
_set_handler: Callable[[int, Any], Any] = _SIGNAL_MODULE.signal
if _HAS_TIMER:
    _setitimer, _ITIMER_REAL, _SIGALRM = signal.setitimer, signal.ITIMER_REAL, int(signal.SIGALRM)


class GuardedEngine:
    """An in-process engine whose every call is bounded in time and checked for shape."""

    def __init__(
        self,
        factory: Callable[[], Any],
        *,
        timeout: float | None = None,
        start_timeout: float | None = None,
        latency: Latency | None = None,
    ) -> None:
        self.timeout = timeout
        #: The action the engine said it carried out, for the last action it accepted.
        self.laid: str | None = None
        #: How close each call came to its deadline (a runner shares its own).
        self.latency: Latency | None = latency
        self._engine: Any = self._bounded(
            start_timeout if timeout else None,
            "start the engine",
            factory,
            raised=FailureKind.CANNOT_START,
        )
        missing = missing_methods(self._engine)
        if missing:
            raise EngineFailure(
                FailureKind.CANNOT_START,
                f"the factory made a {type(self._engine).__name__}, which lacks the engine "
                f"method(s) {', '.join(missing)} (see the Engine interface)",
            )

    @property
    def engine(self) -> Engine:
        """The wrapped engine."""
        return self._engine  # type: ignore[no-any-return]

    def _call(self, what: str, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` under the engine's deadline, its failures made typed."""
        return self._bounded(self.timeout, what, function, *args)

    def _bounded(
        self,
        limit: float | None,
        what: str,
        function: Callable[..., T],
        *args: Any,
        raised: FailureKind = FailureKind.RAISED,
    ) -> T:
        # What the engine prints must not land in the report on standard output
        # (as contextlib.redirect_stdout, written out: this runs for every call).
        stdout, sys.stdout = sys.stdout, sys.stderr
        try:
            previous = _armed(limit)
            started = time.monotonic()
            try:
                return function(*args)
            finally:
                _disarm(previous)
                latency = getattr(self, "latency", None)
                if latency is not None and limit:
                    latency.add(what, time.monotonic() - started, limit)
        except EngineRefusal as refusal:  # (its words shown inside the judge's lines)
            raise EngineRefusal(inline(refusal.code)[:100], inline(refusal.message)[:500]) from None
        except EngineFailure:
            raise
        except _Deadline:
            raise EngineFailure(
                FailureKind.TIMEOUT, f"no answer to {what} within {limit:g} s"
            ) from None
        except KeyboardInterrupt as interrupt:
            # A signal the runner turned into Interrupted, or Ctrl-C where the runner
            # does not own the signals, stops the run; any other is the engine's own.
            if isinstance(interrupt, Interrupted) or not owns_signals():
                raise
            raise self._raised(raised, what, interrupt) from None
        except BaseException as error:  # the engine under test may raise anything
            raise self._raised(raised, what, error) from None
        finally:
            sys.stdout = stdout

    @staticmethod
    def _raised(kind: FailureKind, what: str, error: BaseException) -> EngineFailure:
        try:
            detail = inline(str(error))[:300]
        except Exception:  # an exception whose str() raises
            detail = "(its message cannot be shown)"
        if kind is FailureKind.CANNOT_START:
            return EngineFailure(kind, f"the factory raised {type(error).__name__}: {detail}")
        return EngineFailure(
            kind, f"the engine raised {type(error).__name__}: {detail} (in {what})"
        )

    def _checked(self, check: Callable[..., T], *args: Any, **keywords: Any) -> T:
        try:
            return check(*args, **keywords)
        except BadReply as bad:
            raise EngineFailure(FailureKind.BAD_REPLY, str(bad)) from None
        except Exception as error:  # an engine's odd object may raise while it is read
            raise EngineFailure(
                FailureKind.BAD_REPLY,
                f"an answer that cannot be read: {type(error).__name__}: {inline(error)}",
            ) from None

    def hello(self) -> EngineInfo:
        info = self._call("hello", self._engine.hello)
        if not isinstance(info, EngineInfo):
            raise EngineFailure(
                FailureKind.HANDSHAKE, f"hello() must return an EngineInfo, got {short(info)}"
            )
        if not isinstance(info.name, str) or not info.name.strip():
            raise EngineFailure(FailureKind.HANDSHAKE, "hello() gives no engine name")
        if not isinstance(info.version, str) or not isinstance(info.protocol, str):
            raise EngineFailure(FailureKind.HANDSHAKE, "hello()'s version and protocol are strings")
        if info.variants is not None:
            problem = declared_variants_problem(
                {k: dict(v) if isinstance(v, Mapping) else v for k, v in info.variants.items()}
                if isinstance(info.variants, Mapping)
                else info.variants
            )
            if problem:
                raise EngineFailure(FailureKind.HANDSHAKE, f"hello().variants: {problem}")
        try:
            plays = read_plays(info.plays, info.variants)
        except DeclarationError as error:
            raise EngineFailure(FailureKind.HANDSHAKE, f"hello().plays: {error}") from None
        return dataclasses.replace(
            info,
            plays=plays,
            name=one_line(info.name[:200]),
            version=one_line(info.version[:100]),
            protocol=one_line(info.protocol[:100]),
        )

    def new_match(self, variant: str, options: Mapping[str, str], players: int) -> None:
        self._call("new_match", self._engine.new_match, variant, options, players)

    def new_hand(self, deal: Mapping[str, Any]) -> Opening | None:
        answer = self._call("new_hand", self._engine.new_hand, deal)
        if answer is None:
            return None
        if not isinstance(answer, Mapping):
            raise EngineFailure(
                FailureKind.BAD_REPLY,
                f"new_hand() returns None, or what it laid as {{'opened', 'opener'}}, "
                f"not {short(answer)}",
            )
        opened = self._checked(replies.opening, answer)
        return None if opened is None else Opening(*opened)

    def legal(self) -> list[str]:
        actions = self._call("legal", self._engine.legal)
        return self._checked(replies.strings, actions, "legal()", once=True)

    def ends(self) -> list[str]:
        return self._checked(replies.strings, self._call("ends", self._engine.ends), "ends()")

    def to_act(self) -> int | None:
        seat = self._call("to_act", self._engine.to_act)
        return self._checked(replies.seat_or_none, seat, "to_act()")

    def apply(self, action: str, player: int | None) -> str | None:
        answer = self._call("apply", self._engine.apply, action, player)
        self.laid = None
        if isinstance(answer, Mapping) and set(answer) == {"laid"}:
            self.laid = self._checked(replies.action_text, answer["laid"], "apply()'s laid")
            return None
        return self._checked(replies.reason, answer)

    def result(self) -> Mapping[str, Any] | None:
        return self._checked(replies.hand_result, self._call("result", self._engine.result))

    def match_state(self) -> Mapping[str, Any]:
        return self._checked(replies.match_totals, self._call("match", self._engine.match_state))

    def new_position(self, position: str) -> None:
        """Start the next hand at ``position``, on an engine with a ``new_position`` method
        (one that declares ``positions``; another is refused as unsupported)."""
        method = getattr(self._engine, "new_position", None)
        if not callable(method):
            raise EngineRefusal(ErrorCode.UNSUPPORTED, "this engine does not start at positions")
        self._call("new_position", method, position)

    def held(self, seat: int) -> list[str] | None:
        """The tiles ``seat`` holds, from an engine with a ``held`` method (else None)."""
        method = getattr(self._engine, "held", None)
        if not callable(method):
            return None
        tiles = self._call("held", method, seat)
        return None if tiles is None else self._checked(replies.strings, tiles, "held()")

    def close(self) -> None:
        self._call("close", self._engine.close)
