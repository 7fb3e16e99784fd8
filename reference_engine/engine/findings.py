"""What replaying a game record finds wrong: the kinds of finding, a finding, and the report.

:class:`FindingKind` is the closed vocabulary of ``matador replay``; a
:class:`Finding` says what is wrong, where (a JSON Pointer into the record) and
by which rule; a :class:`ReplayReport` collects them, in record order, up to
:data:`FINDING_LIMIT`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..rules import Citation
from ..rules.vocabulary import TextEnum
from .match import Match
from .scoring import Outcome


class FindingKind(TextEnum):
    """What is wrong with a game record: the closed vocabulary of ``matador replay``.

    The description of spec/record.schema.json lists the same codes.
    """

    BAD_RECORD = "bad_record"
    """Not a game record by spec/record.schema.json: a field missing, unknown or mistyped."""

    BAD_VARIANT = "bad_variant"
    """The variant is unknown, or an option or option value is not one the variant offers."""

    BAD_PLAYERS = "bad_players"
    """The variant is not played by the record's number of players (rule ``players``)."""

    BAD_DEAL = "bad_deal"
    """A deal does not fit: its number of hands, a hand's size, its tiles (each tile of the set
    exactly once, boneyard included) or its designated seat (a seat that exists, and the one
    the rules fix for that hand)."""

    BAD_LOT = "bad_lot"
    """The lot a hand keeps (``lot``) is not a lot by drawing of the rules, or names another
    seat than the deal's designated opener (rule ``designated_opener``)."""

    MATCH_OVER = "match_over"
    """A hand is recorded after a side had reached the target (rule ``target``)."""

    BAD_NOTATION = "bad_notation"
    """An action is not written in the notation of spec/notation.md."""

    ILLEGAL_ACTION = "illegal_action"
    """The rules refuse an action: the wrong seat opens, a tile played out of turn, a tile that
    does not fit, an action after the hand ended; the reason code says which."""

    UNFINISHED_HAND = "unfinished_hand"
    """The actions stop before the hand ends, yet the record gives its result or another hand
    follows."""

    WRONG_RESULT = "wrong_result"
    """A hand's result is not what the rules make of its actions."""

    WRONG_MATCH_RESULT = "wrong_match_result"
    """The match totals are not what the rules make of the hands."""


#: A message longer than this is cut when shown (a record can hold a string of megabytes).
MESSAGE_LIMIT = 400
#: Findings kept per report; the rest are counted in :attr:`ReplayReport.omitted`.
FINDING_LIMIT = 100


def json_pointer(path: Iterable[str | int]) -> str:
    """The JSON Pointer (RFC 6901) of ``path``: ``("hands", 1, "deal")`` -> ``/hands/1/deal``."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


def shown(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, unprintable characters (controls) escaped."""
    if len(text) > limit:
        text = f"{text[:limit]}… ({len(text):,} characters)"
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


@dataclass(frozen=True, kw_only=True)
class Finding:
    """One thing wrong with a record: what (``kind``), where (``pointer``), and the rule.

    ``pointer`` is a JSON Pointer into the record (``/hands/1/deal/hands/2``,
    ``/hands/0/actions/17``; empty for the record as a whole). ``hand`` and
    ``action`` are the same place as indices, for the message. ``reason`` is the
    :class:`~reference_engine.errors.Reason` code of an illegal action; ``rule``
    is the rule parameter that decides the problem, when one does, and
    ``citations`` are that rule's sources.
    """

    kind: FindingKind
    message: str
    pointer: str = ""
    hand: int | None = None
    action: int | None = None
    reason: str | None = None
    rule: str | None = None
    citations: tuple[Citation, ...] = ()

    def __post_init__(self) -> None:
        if len(self.message) > MESSAGE_LIMIT:
            object.__setattr__(self, "message", shown(self.message))

    def __str__(self) -> str:
        parts = [shown(self.pointer, 120)] if self.pointer else []
        where = []
        if self.hand is not None:
            where.append(f"hand {self.hand + 1}")
        if self.action is not None:
            where.append(f"action {self.action + 1}")
        if where:
            parts.append(", ".join(where))
        parts.append(shown(self.message))
        code = f"{self.kind}: {self.reason}" if self.reason else str(self.kind)
        return f"{': '.join(parts)} [{code}]"


@dataclass
class ReplayReport:
    """What replaying a record found: nothing (it is valid) or every problem, in record order."""

    findings: list[Finding] = field(default_factory=list)
    #: Findings past :data:`FINDING_LIMIT`, counted but not kept.
    omitted: int = 0
    hands: int = 0
    actions: int = 0
    outcomes: list[Outcome] = field(default_factory=list)
    match: Match | None = None

    @property
    def finding(self) -> Finding | None:
        """The first problem in the record, if any."""
        return self.findings[0] if self.findings else None

    @property
    def ok(self) -> bool:
        """Whether the record is legal and its results agree with the rules."""
        return not self.findings and not self.omitted

    def add(self, finding: Finding) -> None:
        """Keep ``finding`` (or count it, past the limit)."""
        if len(self.findings) < FINDING_LIMIT:
            self.findings.append(finding)
        else:
            self.omitted += 1
