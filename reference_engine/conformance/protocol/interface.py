"""The interface every engine under test presents to the runner, and the reference adapter.

An engine is anything with the methods of :class:`Engine`. Process engines
(any language) speak the JSON-lines protocol of spec/protocol.md through
:class:`~reference_engine.conformance.transport.process.ProcessEngine`; Python engines
can implement :class:`Engine` directly and be loaded in-process with
``--engine python:MODULE:FACTORY`` (:mod:`reference_engine.pyload`); docs/python-engines.md
documents this interface and tests/test_engine_authors.py holds the two together.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, cast, runtime_checkable

from ...engine.actions import Action
from ...engine.deal import Deal
from ...engine.hand import Hand
from ...engine.match import Match
from ...engine.record import outcome_data
from ...engine.state import parse_position
from ...errors import DealError, EngineProblem, IllegalActionError, MatadorError, NotationError
from ...pyload import PythonSpecError, load_callable
from ...rules import Catalog, RulesError
from ...rules.vocabulary import TextEnum
from .codes import ErrorCode
from .declarations import EVERY_VARIANT, Declaration, read_plays

PROTOCOL_VERSION = "matador-engine/1"

#: The reason of a refusal from an engine that gives none (``plays``: ``reasons: false``).
REFUSED = "refused"


class EngineRefusal(MatadorError):
    """The engine declined a request (unsupported variant, bad deal, ...): a typed code.

    The reference engine's codes are :class:`~reference_engine.conformance.protocol.codes.ErrorCode`
    members; a refusal read from another engine's reply keeps whatever code it sent.
    """

    def __init__(self, code: str, message: str = "") -> None:
        self.code = code
        self.message = message
        super().__init__(f"{code}: {message}" if message else code)


class FailureKind(TextEnum):
    """How an engine under test broke the protocol (spec/protocol.md, "What the runner reports")."""

    #: The engine program could not be started, or its factory failed.
    CANNOT_START = "cannot_start"
    #: The handshake failed: no hello, a malformed one, another protocol version,
    #: or no variant the suite knows.
    HANDSHAKE = "handshake"
    #: The engine exited or closed its output before answering.
    EXITED = "exited"
    #: No reply within the deadline.
    TIMEOUT = "timeout"
    #: A reply line longer than the protocol allows.
    TOO_LONG = "too_long"
    #: A reply that is not strict JSON (or not UTF-8).
    NOT_JSON = "not_json"
    #: A reply with another request's id.
    WRONG_ID = "wrong_id"
    #: JSON of the wrong shape for the request.
    BAD_REPLY = "bad_reply"
    #: An in-process engine raised an exception.
    RAISED = "raised"
    #: The engine answered a request it should have carried out with ``internal_error``
    #: (a bug it reports in itself): no rule is judged on it.
    INTERNAL_ERROR = "internal_error"


class EngineFailure(EngineProblem):
    """The engine broke the protocol: crashed, hung, or answered nonsense.

    ``kind`` says how (a :class:`FailureKind`); ``stderr`` holds the last lines
    the engine wrote to its standard error, when it is a program.
    """

    def __init__(self, kind: FailureKind, message: str, *, stderr: str = "") -> None:
        self.kind = kind
        self.message = message
        self.stderr = stderr
        super().__init__(message)


@dataclass(frozen=True)
class EngineInfo:
    """What an engine says about itself in the handshake.

    ``variants`` maps each supported variant id to the option values supported
    (option name -> list of values, the default always included); None means every
    shipped variant and option. ``plays`` says more of each variant (or of every
    variant, under ``"*"``): the :class:`~.declarations.Declaration` of what the
    engine deals and keeps.
    """

    name: str
    version: str
    protocol: str = PROTOCOL_VERSION
    variants: Mapping[str, Mapping[str, list[str]]] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    plays: Mapping[str, Declaration | Mapping[str, Any]] = field(default_factory=dict)

    def declaration(self, variant: str) -> Declaration:
        """What the engine declares it plays of ``variant`` (the rules', where it says nothing)."""
        plays = self.plays
        if not all(isinstance(value, Declaration) for value in plays.values()):
            plays = read_plays(plays, None)  # plain data, as a Python engine may give it
        general = plays.get(EVERY_VARIANT, Declaration())
        specific = plays.get(variant, Declaration())
        assert isinstance(general, Declaration) and isinstance(specific, Declaration)
        return general.merged(specific)

    def supports(
        self,
        variant: str,
        options: Mapping[str, str],
        *,
        players: int | None = None,
        defaults: Mapping[str, str] | None = None,
    ) -> str | None:
        """None when the engine declares it plays ``variant`` with ``options`` (the others at
        their ``defaults``) for ``players``; otherwise why it does not."""
        if self.variants is not None and variant not in self.variants:
            return f"the engine does not declare variant {variant!r}"
        declared = {} if self.variants is None else self.variants[variant]
        declaration = self.declaration(variant)
        counts = declaration.players
        if players is not None and counts is not None and players not in counts:
            played = ", ".join(map(str, sorted(counts)))
            return f"the engine plays {variant!r} with {played} players, not {players}"
        for name, value in options.items():
            exact = declaration.options.get(name)
            if (
                (value not in exact)
                if exact is not None
                else (self.variants is not None and value not in declared.get(name, []))
            ):
                return f"the engine does not declare option {name}={value} of {variant!r}"
        for name, exact in declaration.options.items():
            default = (defaults or {}).get(name)
            if name not in options and default is not None and default not in exact:
                return (
                    f"the engine plays only {name}={'/'.join(exact)} of {variant!r}, "
                    f"not the default {name}={default}"
                )
        return None


@dataclass(frozen=True)
class Opening:
    """What an engine that lays the opening tile itself (``opens_itself``) laid while dealing.

    ``action`` is None when it laid nothing: the hand was void and is dealt again.
    """

    action: str | None
    seat: int | None


@runtime_checkable
class Engine(Protocol):
    """What the runner asks of an engine under test (spec/protocol.md, one method a request)."""

    def hello(self) -> EngineInfo:
        """The handshake: who the engine is and what it supports."""

    def new_match(self, variant: str, options: Mapping[str, str], players: int) -> None:
        """Start a match; raise :class:`EngineRefusal` if it cannot."""

    def new_hand(self, deal: Mapping[str, Any]) -> Any:
        """Start the next hand of the match from an explicit deal.

        An engine that lays the opening tile itself returns what it laid,
        ``{"opened": "6-6", "opened_by": 1}``; every other engine returns None.
        """

    def legal(self) -> list[str]:
        """The legal actions of the player to act, in the notation."""

    def ends(self) -> list[str]:
        """The open ends, L first, in the protocol's end notation."""

    def to_act(self) -> int | None:
        """The seat to act, or None when the hand is over."""

    def apply(self, action: str, player: int | None) -> Any:
        """Apply ``action``: None when accepted, else the refusal's reason code.

        An engine that says which action it carried out returns ``{"laid": ACTION}``
        when it accepts (the runner compares it with the one asked).
        """

    def result(self) -> Mapping[str, Any] | None:
        """The hand's result once over (termination, winner, pips, points)."""

    def match_state(self) -> Mapping[str, Any]:
        """The match totals: scores, hands_won, winner."""

    def close(self) -> None:
        """Release the engine."""


class ReferenceEngine:
    """The bundled reference engine behind the :class:`Engine` interface."""

    def __init__(self, catalog: Catalog | None = None) -> None:
        self.catalog = catalog or Catalog.shipped()
        self._match: Match | None = None
        self._hand: Hand | None = None

    def hello(self) -> EngineInfo:
        from ... import __version__

        return EngineInfo(
            name="matador reference engine",
            version=__version__,
            variants=None,
            plays={EVERY_VARIANT: Declaration(positions=True)},
        )

    def new_match(self, variant: str, options: Mapping[str, str], players: int) -> None:
        try:
            rules = self.catalog.resolve(variant, dict(options))
        except RulesError as error:
            raise EngineRefusal(ErrorCode.UNSUPPORTED, str(error)) from None
        if players not in rules.players:
            allowed = ", ".join(map(str, rules.players))
            raise EngineRefusal(
                ErrorCode.UNSUPPORTED, f"{variant} is played by {allowed} players, not {players}"
            )
        self._match = Match(rules, players)
        self._hand = None

    def _next_hand(self) -> Match:
        """The match, ready for its next hand: the one before over and counted."""
        match = self._need_match()
        if self._hand is not None:
            if not self._hand.is_over:
                raise EngineRefusal(
                    ErrorCode.HAND_IN_PROGRESS, "the current hand is not over: play it out first"
                )
            match.close_hand()
        if match.is_over:
            raise EngineRefusal(ErrorCode.MATCH_OVER, f"side {match.winner} has won the match")
        return match

    def new_hand(self, deal: Mapping[str, Any]) -> None:
        match = self._next_hand()
        data = dict(deal) if isinstance(deal, Mapping) else deal
        hands = data.get("hands") if isinstance(data, dict) else None
        if isinstance(hands, list) and len(hands) != match.players:
            raise EngineRefusal(
                ErrorCode.BAD_DEAL,
                f"the deal has {len(hands)} hands; the match has {match.players} players",
            )
        try:
            self._hand = match.new_hand(Deal.from_data(data, match.rules))
        except (DealError, ValueError) as error:
            raise EngineRefusal(ErrorCode.BAD_DEAL, str(error)) from None

    def new_position(self, position: str) -> None:
        """Start the next hand at ``position`` (spec/notation.md, "Positions")."""
        match = self._next_hand()
        try:
            self._hand = match.new_at(parse_position(position))
        except (DealError, NotationError, ValueError) as error:
            raise EngineRefusal(ErrorCode.BAD_DEAL, str(error)) from None

    def legal(self) -> list[str]:
        return [str(action) for action in self._need_hand().legal_actions()]

    def ends(self) -> list[str]:
        return [end.notation for end in self._need_hand().ends]

    def to_act(self) -> int | None:
        hand = self._need_hand()
        return None if hand.is_over else hand.current

    def held(self, seat: int) -> list[str]:
        """The tiles ``seat`` holds (the optional ``held`` request)."""
        hand = self._need_hand()
        if not 0 <= seat < hand.players:
            raise EngineRefusal(ErrorCode.NO_SUCH_SEAT, f"seat {seat} is not a seat of this match")
        return [str(tile) for tile in hand.hand_of(seat)]

    def apply(self, action: str, player: int | None) -> str | None:
        hand = self._need_hand()
        seat = isinstance(player, int) and not isinstance(player, bool)
        if player is not None and not (seat and 0 <= player < hand.players):
            raise EngineRefusal(
                ErrorCode.NO_SUCH_SEAT,
                f"player {player!r} is not a seat of this match (seats 0..{hand.players - 1})",
            )
        try:
            parsed = Action.parse(action)
        except NotationError as error:
            raise EngineRefusal(ErrorCode.BAD_NOTATION, str(error)) from None
        try:
            hand.apply(parsed, player)
        except IllegalActionError as error:
            return error.reason.value
        return None

    def result(self) -> Mapping[str, Any] | None:
        outcome = self._need_hand().outcome
        return None if outcome is None else outcome_data(outcome)

    def match_state(self) -> Mapping[str, Any]:
        match = self._need_match()
        if self._hand is not None and self._hand.is_over:
            match.close_hand()
        return {"scores": match.scores, "hands_won": match.hands_won, "winner": match.winner}

    def close(self) -> None:
        self._match = None
        self._hand = None

    def _need_match(self) -> Match:
        if self._match is None:
            raise EngineRefusal(ErrorCode.NO_MATCH, "no match yet: start one with new_match")
        return self._match

    def _need_hand(self) -> Hand:
        self._need_match()
        if self._hand is None:
            raise EngineRefusal(
                ErrorCode.NO_HAND, "no hand in this match yet: start one with new_hand"
            )
        return self._hand


EngineFactory = Callable[[], Engine]


#: The methods every engine under test must have (the :class:`Engine` interface).
ENGINE_METHODS = (
    "hello",
    "new_match",
    "new_hand",
    "legal",
    "ends",
    "to_act",
    "apply",
    "result",
    "match_state",
    "close",
)


def missing_methods(engine: object) -> list[str]:
    """The :class:`Engine` methods ``engine`` lacks (empty when it has them all)."""
    return [name for name in ENGINE_METHODS if not callable(getattr(engine, name, None))]


#: A ``python:`` engine spec that names no factory (the message is one line).
EngineSpecError = PythonSpecError


def load_python_engine(spec: str, *, search: Sequence[Path] = ()) -> EngineFactory:
    """The engine factory ``spec`` names (``MODULE:FACTORY`` or ``FILE.py:FACTORY``),
    looked for first in ``search`` (by default, the current folder)."""
    return cast("EngineFactory", load_callable(spec, search=search))
