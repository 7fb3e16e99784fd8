"""Holding an in-process Python engine to the same terms as a program: deadlines and shapes.

:class:`GuardedEngine` wraps any object with the methods of
:class:`~reference_engine.conformance.engine.Engine`. Each call runs under a
deadline (a real-time interval timer, where the runner owns the main thread),
an exception other than :class:`EngineRefusal` becomes an
:class:`EngineFailure` of kind ``raised``, and every answer is checked for the
shape the protocol gives it, so a Python engine that loops, raises or returns
nonsense is judged exactly as a program that hangs, crashes or prints garbage.
"""

from __future__ import annotations

import contextlib
import math
import signal
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any, NoReturn, TypeVar

from .engine import (
    Engine,
    EngineFailure,
    EngineInfo,
    EngineRefusal,
    FailureKind,
    missing_methods,
)
from .process import declared_variants_problem

T = TypeVar("T")


class _Deadline(Exception):
    pass


def _alarm(signum: int, frame: object) -> NoReturn:
    raise _Deadline


@contextlib.contextmanager
def _deadline(seconds: float | None) -> Iterator[None]:
    """Raise :class:`_Deadline` in the block after ``seconds`` (main thread only; else no limit)."""
    usable = (
        seconds is not None
        and math.isfinite(seconds)
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return
    assert seconds is not None
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class GuardedEngine:
    """An in-process engine whose every call is bounded in time and checked for shape."""

    def __init__(self, factory: Callable[[], Any], *, timeout: float | None = None) -> None:
        self.timeout = timeout
        self._engine: Any = self._call("start the engine", factory)
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
        try:
            with _deadline(self.timeout):
                return function(*args)
        except (EngineRefusal, EngineFailure):
            raise
        except _Deadline:
            raise EngineFailure(
                FailureKind.TIMEOUT, f"no answer to {what} within {self.timeout:g} s"
            ) from None
        except (KeyboardInterrupt, GeneratorExit):
            raise
        except BaseException as error:  # the engine under test may raise anything
            kind = FailureKind.CANNOT_START if what == "start the engine" else FailureKind.RAISED
            raise EngineFailure(
                kind, f"the engine raised {type(error).__name__}: {error} (in {what})"
            ) from None

    @staticmethod
    def _bad(what: str, got: Any) -> EngineFailure:
        shown = repr(got)
        shown = shown if len(shown) <= 200 else shown[:197] + "..."
        return EngineFailure(FailureKind.BAD_REPLY, f"{what}, got {shown}")

    def hello(self) -> EngineInfo:
        info = self._call("hello", self._engine.hello)
        if not isinstance(info, EngineInfo):
            raise EngineFailure(
                FailureKind.HANDSHAKE, f"hello() must return an EngineInfo, got {info!r:.200}"
            )
        if not isinstance(info.name, str) or not info.name.strip():
            raise EngineFailure(FailureKind.HANDSHAKE, "hello() gives no engine name")
        if info.variants is not None:
            problem = declared_variants_problem(
                {k: dict(v) if isinstance(v, Mapping) else v for k, v in info.variants.items()}
                if isinstance(info.variants, Mapping)
                else info.variants
            )
            if problem:
                raise EngineFailure(FailureKind.HANDSHAKE, f"hello().variants: {problem}")
        return info

    def new_match(self, variant: str, options: Mapping[str, str], players: int) -> None:
        self._call("new_match", self._engine.new_match, variant, options, players)

    def new_hand(self, deal: Mapping[str, Any]) -> None:
        self._call("new_hand", self._engine.new_hand, deal)

    def _strings(self, what: str, function: Callable[[], Any]) -> list[str]:
        items = self._call(what, function)
        if not isinstance(items, (list, tuple)) or not all(isinstance(i, str) for i in items):
            raise self._bad(f"{what}() must return a list of strings", items)
        return list(items)

    def legal(self) -> list[str]:
        return self._strings("legal", self._engine.legal)

    def ends(self) -> list[str]:
        return self._strings("ends", self._engine.ends)

    def to_act(self) -> int | None:
        seat = self._call("to_act", self._engine.to_act)
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise self._bad("to_act() must return a seat number or None", seat)
        return seat

    def apply(self, action: str, player: int | None) -> str | None:
        reason = self._call("apply", self._engine.apply, action, player)
        if reason is not None and not isinstance(reason, str):
            raise self._bad("apply() must return None or a reason code (a string)", reason)
        return reason

    def result(self) -> Mapping[str, Any] | None:
        result = self._call("result", self._engine.result)
        if result is not None and not isinstance(result, Mapping):
            raise self._bad("result() must return a mapping or None", result)
        return result

    def match_state(self) -> Mapping[str, Any]:
        state = self._call("match", self._engine.match_state)
        if not isinstance(state, Mapping):
            raise self._bad("match_state() must return a mapping", state)
        return state

    def close(self) -> None:
        self._call("close", self._engine.close)
