"""The verdicts of a conformance run, and the record of one case run under one variant.

Each case runs once per variant it applies to, with one of these verdicts:

- ``pass``: every expectation held;
- ``fail``: an expectation did not hold (the first is reported, with the
  action history that led there);
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

from dataclasses import dataclass, field
from typing import Any

from ..rules.vocabulary import TextEnum
from .cases import Target
from .engine import FailureKind


class Verdict(TextEnum):
    """A case run's verdict."""

    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"
    SKIP = "skip"
    BROKEN = "broken"
    NOT_RUN = "not_run"


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

    @property
    def variant(self) -> str:
        """The variant id the case ran under."""
        return self.target.variant


class EngineUnavailable(Exception):
    """The engine cannot be judged: it does not start, fails its handshake, or keeps dying."""

    def __init__(self, message: str, *, stderr: str = "") -> None:
        self.message = message
        self.stderr = stderr
        super().__init__(message)
