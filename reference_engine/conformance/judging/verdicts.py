"""The verdicts of a conformance run, and the record of one case run under one variant.

Each case runs once per variant it applies to, with one of these verdicts:

- ``pass``: every expectation held;
- ``fail``: an expectation did not hold (every one that did not is reported,
  each a :class:`Deviation` with the rule behind it and the line that led there);
- ``error``: the engine broke the protocol or raised; it is stopped and a
  fresh one is started for the next case;
- ``skip``: the engine does not declare the variant or option values;
- ``broken``: the case itself breaks its variant (a deal that does not fit, an
  option the variant lacks, bad notation); the engine is never asked;
- ``not_run``: the engine is unavailable (:class:`EngineUnavailable`): it could
  not be started, failed its handshake, or failed too many times in a row, and
  the runner stopped restarting it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ...errors import EngineProblem
from ...rules.vocabulary import TextEnum
from ..protocol.interface import FailureKind
from ..suite.casedata import Target


class Verdict(TextEnum):
    """A case run's verdict."""

    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"
    SKIP = "skip"
    BROKEN = "broken"
    NOT_RUN = "not_run"


class Check(TextEnum):
    """What kind of expectation a step, a hand or a match makes."""

    TO_ACT = "to_act"
    LEGAL = "legal"
    INCLUDES = "includes"
    EXCLUDES = "excludes"
    ACCEPTED = "accepted"
    REFUSED = "refused"
    ENDS = "ends"
    RESULT = "result"
    MATCH = "match"
    DEAL = "deal"
    NOTATION = "notation"
    REQUEST = "request"
    #: The engine accepted one action and carried out another.
    LAID = "laid"


@dataclass(frozen=True)
class Deviation:
    """One expectation an engine did not meet, where it was, and the rules behind it."""

    check: Check
    message: str
    expected: Any
    actual: Any
    #: The rule parameters (or fixed rules) the expectation tests.
    rules: tuple[str, ...]
    hand: int | None = None
    step: int | None = None
    #: The scripted actions accepted in the hand before the step.
    history: tuple[str, ...] = ()
    #: The position at the step, in the notation (ends, the hand to act, the boneyard).
    position: str = ""
    #: The rules behind each part of the deviation that is a fact of its own (each
    #: action of a legal set in dispute); empty when the deviation is one fact.
    facets: tuple[tuple[str, ...], ...] = ()
    #: What the engine says the seat to act holds, asked when the deviation comes after a
    #: draw (None when it was not asked, or the engine does not say).
    holds: tuple[str, ...] | None = None


@dataclass
class CaseRun:
    """The verdict of one case on one variant, with what went wrong if anything did."""

    case: str
    target: Target
    verdict: Verdict
    message: str = ""
    file: str = ""
    line: int | None = None
    hand: int | None = None
    step: int | None = None
    expected: Any = None
    actual: Any = None
    history: list[str] = field(default_factory=list)
    seconds: float = 0.0
    #: How the engine broke the protocol, for an ``error`` verdict.
    failure: FailureKind | None = None
    #: The last lines of the engine's standard error, when it misbehaved.
    stderr: str = ""
    #: Every expectation that did not hold, in the order they were checked.
    deviations: list[Deviation] = field(default_factory=list)
    #: For each rule, how many of the case's expectations testing it held and failed.
    held: Counter[str] = field(default_factory=Counter)
    failed: Counter[str] = field(default_factory=Counter)
    #: For each rule, how many expectations testing it were not judged, because the
    #: engine declares it does not do what they need (keep a score, a match, reasons).
    not_judged: Counter[str] = field(default_factory=Counter)
    #: How many seats the case deals to (0 when it is not known).
    players: int = 0
    #: The steps (hand, step) the case was played again without, after the engine took
    #: an action it should have refused: what follows is not a consequence of that.
    resumed: list[tuple[int, int | None]] = field(default_factory=list)

    @property
    def variant(self) -> str:
        """The variant id the case ran under."""
        return self.target.variant


class EngineUnavailable(EngineProblem):
    """The engine cannot be judged: it does not start, fails its handshake, or keeps dying."""

    def __init__(self, message: str, *, stderr: str = "") -> None:
        self.message = message
        self.stderr = stderr
        super().__init__(message)
