"""Work the runner does while an engine program answers, and the requests it writes ahead.

A check needs two things: the engine's answer, and what the runner knows
without it (the rules behind the check, read from the reference engine at the
same position; the reference's own deal). The second need not wait for the
first: :class:`Ahead` hands it to a program's driver, which does it once the
request is written and while the engine works on its reply
(:meth:`~.process.ProcessEngine.meanwhile`). The engine sees the same requests
in the same order, each with the same deadline; only the runner's waiting
overlaps its own work.

:func:`plan` gives a program's driver the requests a case will make if all
goes as scripted (:func:`~.requests.case_requests`), so it can write those that
change nothing together with the request before them
(:meth:`~.process.ProcessEngine.plan`); :func:`settle` ends that when the case
ends. Any other engine is called as before: both do nothing for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from ..protocol.interface import Engine
from ..protocol.requests import Request
from .process import ProcessEngine

T = TypeVar("T")


class Ahead(Generic[T]):
    """Work of the runner's that needs nothing from the engine's next answer (the rules
    behind a check, the reference's new hand): an engine program does it while it
    answers (:meth:`~.process.ProcessEngine.meanwhile`), any other engine when it is
    first asked for. It is done once either way, at the same position; an exception
    it raised is raised again where its value is asked for, as if it were done there.
    """

    def __init__(self, engine: Engine, work: Callable[[], T]) -> None:
        self._work = work
        self._done: tuple[T] | None = None
        self._error: Exception | None = None
        if isinstance(engine, ProcessEngine):
            engine.meanwhile(self.run)

    def run(self) -> None:
        """Do the work, unless it is done."""
        if self._done is None and self._error is None:
            try:
                self._done = (self._work(),)
            except Exception as error:  # raised again by __call__, where it was asked for
                self._error = error

    def __call__(self) -> T:
        self.run()
        if self._error is not None:
            raise self._error
        assert self._done is not None
        return self._done[0]


def plan(engine: Engine, requests: Sequence[Request]) -> None:
    """Tell a program's driver what the runner will ask next, if all goes as expected."""
    if isinstance(engine, ProcessEngine):
        engine.plan(requests)


def settle(engine: Engine) -> None:
    """End the plan as a case ends: a program's driver reads and drops what it wrote and
    was not asked for, and fails if the engine wrote a line nothing asked for."""
    if isinstance(engine, ProcessEngine):
        engine.settle()
        engine.nothing_unasked()
