"""The interface every engine under test presents to the runner, and the reference adapter.

An engine is anything with the methods of :class:`Engine`. Process engines
(any language) speak the JSON-lines protocol of spec/protocol.md through
:class:`~reference_engine.conformance.process.ProcessEngine`; Python engines
can implement :class:`Engine` directly and be loaded in-process with
``--engine python:MODULE:FACTORY``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from ..actions import Action
from ..deal import Deal
from ..errors import DealError, IllegalActionError, NotationError
from ..hand import Hand
from ..match import Match
from ..record import outcome_data
from ..rules import Catalog, RulesError

PROTOCOL_VERSION = "matador-engine/1"


class EngineRefusal(Exception):
    """The engine declined a request (unsupported variant, bad deal, ...): a typed code."""

    def __init__(self, code: str, message: str = "") -> None:
        self.code = code
        self.message = message
        super().__init__(f"{code}: {message}" if message else code)


class EngineFailure(Exception):
    """The engine broke the protocol: crashed, hung, or answered nonsense."""


@dataclass(frozen=True)
class EngineInfo:
    """What an engine says about itself in the handshake.

    ``variants`` maps each supported variant id to the option values supported
    (option name -> list of values); None means every shipped variant and option.
    """

    name: str
    version: str
    protocol: str = PROTOCOL_VERSION
    variants: Mapping[str, Mapping[str, list[str]]] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def supports(self, variant: str, options: Mapping[str, str]) -> str | None:
        """None when the engine declares support; otherwise why it does not."""
        if self.variants is None:
            return None
        if variant not in self.variants:
            return f"the engine does not declare variant {variant!r}"
        declared = self.variants[variant]
        for name, value in options.items():
            if value not in declared.get(name, []):
                return f"the engine does not declare option {name}={value} of {variant!r}"
        return None


@runtime_checkable
class Engine(Protocol):
    """What the runner asks of an engine under test (spec/protocol.md, one method a request)."""

    def hello(self) -> EngineInfo:
        """The handshake: who the engine is and what it supports."""

    def new_match(self, variant: str, options: Mapping[str, str], players: int) -> None:
        """Start a match; raise :class:`EngineRefusal` if it cannot."""

    def new_hand(self, deal: Mapping[str, Any]) -> None:
        """Start the next hand of the match from an explicit deal."""

    def legal(self) -> list[str]:
        """The legal actions of the player to act, in the notation."""

    def ends(self) -> list[str]:
        """The open ends, L first, in the protocol's end notation."""

    def to_act(self) -> int | None:
        """The seat to act, or None when the hand is over."""

    def apply(self, action: str, player: int | None) -> str | None:
        """Apply ``action``: None when accepted, else the refusal's reason code."""

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
        from .. import __version__

        return EngineInfo(name="matador reference engine", version=__version__, variants=None)

    def new_match(self, variant: str, options: Mapping[str, str], players: int) -> None:
        try:
            rules = self.catalog.resolve(variant, dict(options))
        except RulesError as error:
            raise EngineRefusal("unsupported", str(error)) from None
        if players not in rules.players:
            raise EngineRefusal("unsupported", f"{variant} is not played by {players}")
        self._match = Match(rules, players)
        self._hand = None

    def new_hand(self, deal: Mapping[str, Any]) -> None:
        match = self._need_match()
        if self._hand is not None and self._hand.is_over:
            match.close_hand()
        try:
            self._hand = match.new_hand(Deal.from_data(dict(deal), match.rules))
        except (DealError, ValueError) as error:
            raise EngineRefusal("bad_deal", str(error)) from None

    def legal(self) -> list[str]:
        return [str(action) for action in self._need_hand().legal_actions()]

    def ends(self) -> list[str]:
        return [end.notation for end in self._need_hand().ends]

    def to_act(self) -> int | None:
        hand = self._need_hand()
        return None if hand.is_over else hand.current

    def apply(self, action: str, player: int | None) -> str | None:
        hand = self._need_hand()
        try:
            hand.apply(Action.parse(action), player)
        except NotationError:
            return "bad_notation"
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
            raise EngineRefusal("no_match", "start a match first")
        return self._match

    def _need_hand(self) -> Hand:
        if self._hand is None:
            raise EngineRefusal("no_hand", "start a hand first")
        return self._hand


EngineFactory = Callable[[], Engine]


def load_python_engine(spec: str) -> EngineFactory:
    """``MODULE:FACTORY`` -> a factory of in-process engines."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"{spec!r} is not MODULE:FACTORY")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"cannot import {module_name!r}: {error}") from None
    factory = getattr(module, attribute, None)
    if not callable(factory):
        raise ValueError(f"{module_name!r} has no callable {attribute!r}")
    return factory  # type: ignore[no-any-return]
