"""How close an engine's replies came to their deadline, for the report to say.

An engine whose every reply comes just under ``--timeout`` passes every case,
and fails the first time the machine is a little busier. :class:`Latency`
keeps, for every reply, the share of its deadline it used (the time from when
the reply was owed to when it came, over the seconds it had: ``--timeout``, or
``--start-timeout`` for the handshake); :class:`Slowness` is what a report
says of it: the slowest replies, and how many used more than
:data:`WARN_SHARE` of their deadline. A run whose replies all came well within
it says nothing.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

#: A reply that used more than this share of its deadline is close to it.
WARN_SHARE = 0.5

#: How many of the slowest replies a report names.
SHOWN = 3


@dataclass(frozen=True)
class SlowReply:
    """One reply: what was asked, how long it took, and the deadline it had."""

    kind: str
    seconds: float
    deadline: float

    @property
    def share(self) -> float:
        """The share of its deadline the reply used."""
        return self.seconds / self.deadline if self.deadline > 0 else 0.0


@dataclass(frozen=True)
class Slowness:
    """The slowest replies of a run, and how many came close to their deadline."""

    replies: int
    close: int
    slowest: tuple[SlowReply, ...]

    def line(self) -> str | None:
        """Two lines for the report when a reply came close to its deadline, or None."""
        if not self.close:
            return None
        worst = self.slowest[0]
        others = ", ".join(f"{reply.seconds:.2f} s" for reply in self.slowest[1:SHOWN])
        replies = f"{self.replies} repl{'y' if self.replies == 1 else 'ies'}"
        return (
            f"SLOW REPLIES: {self.close} of {replies} took over {WARN_SHARE:.0%} of their "
            f"deadline\n  the slowest, to {worst.kind!r}: {worst.seconds:.2f} s of "
            f"{worst.deadline:g} s ({worst.share:.0%})"
            + (f"; then {others}" if others else "")
            + "\n  a busier machine would time them out: raise --timeout, or speed the engine up"
        )


class Latency:
    """The replies' times of every engine one run starts (engines restarted included)."""

    def __init__(self) -> None:
        self.replies = 0
        self.close = 0
        self._slowest: list[tuple[float, int, SlowReply]] = []

    def add(self, kind: str, seconds: float, deadline: float) -> None:
        """A reply to ``kind`` came ``seconds`` after it was owed, of ``deadline``."""
        self.replies += 1
        reply = SlowReply(kind, max(0.0, seconds), deadline)
        if reply.share > WARN_SHARE:
            self.close += 1
        entry = (reply.share, self.replies, reply)
        if len(self._slowest) < SHOWN:
            heapq.heappush(self._slowest, entry)
        elif entry > self._slowest[0]:
            heapq.heapreplace(self._slowest, entry)

    def summary(self) -> Slowness:
        """What the report says: the slowest replies first."""
        slowest = tuple(reply for _, _, reply in sorted(self._slowest, reverse=True))
        return Slowness(self.replies, self.close, slowest)
