"""In-process Python engines that misbehave, for ``--engine python:hostile_engines:NAME``.

The hostile runner tests put this folder on PYTHONPATH. Each factory or class
breaks the Engine interface one way: it is not an engine, its factory raises,
its handshake is wrong, or one of its methods hangs, raises, exits or answers
with the wrong type.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from typing import Any

from reference_engine.conformance.protocol.interface import ReferenceEngine


def not_an_engine() -> object:
    """A factory that makes an object without the engine methods."""
    return object()


def factory_raises() -> ReferenceEngine:
    """A factory that fails."""
    raise RuntimeError("no tables")


class _HelloText(ReferenceEngine):
    def hello(self) -> Any:
        return "hello, I am an engine"


def hello_returns_text() -> ReferenceEngine:
    """An engine whose handshake is a string."""
    return _HelloText()


class HangsInLegal(ReferenceEngine):
    """Loops for ever when asked for the legal actions."""

    def legal(self) -> list[str]:
        while True:
            time.sleep(0.01)


class RaisesInLegal(ReferenceEngine):
    """Divides by zero when asked for the legal actions."""

    def legal(self) -> list[str]:
        return [str(1 / 0)]


class LegalIsNotAList(ReferenceEngine):
    """Answers the legal actions with a number."""

    def legal(self) -> Any:
        return 42


class ExitsInApply(ReferenceEngine):
    """Calls sys.exit when asked to apply an action."""

    def apply(self, action: str, player: int | None) -> str | None:
        sys.exit(9)


class SwallowsTheDeadline(ReferenceEngine):
    """Sleeps in legal() and swallows every Exception that interrupts it."""

    def legal(self) -> list[str]:
        while True:
            with contextlib.suppress(Exception):  # the deadline must not be an Exception
                time.sleep(60)


class RaisesGeneratorExit(ReferenceEngine):
    """Raises GeneratorExit from legal()."""

    def legal(self) -> list[str]:
        raise GeneratorExit


class RaisesKeyboardInterrupt(ReferenceEngine):
    """Raises KeyboardInterrupt from legal(), as if Ctrl-C had been pressed."""

    def legal(self) -> list[str]:
        raise KeyboardInterrupt


class _Unreadable(list[str]):
    def __iter__(self) -> Any:
        raise RuntimeError("cannot list my items")


class LegalThatCannotBeRead(ReferenceEngine):
    """Answers legal() with a list that raises when it is read."""

    def legal(self) -> Any:
        return _Unreadable()


class LeavesAThreadRunning(ReferenceEngine):
    """Starts a thread that never ends, and prints to standard output."""

    def hello(self) -> Any:
        threading.Thread(target=lambda: time.sleep(3600), daemon=False).start()
        print("engine chatter that must not reach the report")
        return super().hello()
