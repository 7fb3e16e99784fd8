"""One random match played on the engine under test and on the reference, step by step.

:class:`RandomMatch` deals the same hands to both, asks both the same
questions and chooses among the actions both allow. Every way the engine's
state can part from the reference's is a :class:`~.divergences.Divergence`
with the rules behind it, never an error: a different seat to act, a hand
over early or late, a match won early or late, a request the engine refuses
that the reference accepts, an action it offered and then refuses. When the
two can no longer play the same line the hand stops there (:class:`Parted`),
keeping what it found, and the next hand is dealt to both in a match begun
afresh, so every later hand is judged on its own (its result and scoring
too); the match totals are then not compared, being a consequence. A result
field that differs is blamed on the field that decides it (:mod:`.base`);
a match total that differs after a hand that already differed is its
consequence, not recorded; what the engine declares it does not keep
(scoring, matches) is not compared. Only a broken protocol
(:class:`~.engine.EngineFailure`) leaves the match as an error.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, TypeVar

from ...engine.actions import DRAW, Action, AnyAction, Play
from ...engine.deal import Deal
from ...engine.hand import Hand
from ...engine.match import Match
from ...engine.strategies import STRATEGIES
from ...errors import IllegalActionError, NotationError
from ...rules import Rules
from ..judging import attribution, fields
from ..judging.attribution import FixedRule, Position, position_text
from ..judging.canonical import Mismatch, canonical_set
from ..judging.checking import unjudged_key
from ..judging.divergences import Divergence, GameError
from ..judging.verdicts import Check
from ..protocol.codes import ErrorCode
from ..protocol.declarations import Declaration
from ..protocol.interface import Engine, EngineRefusal, Opening
from ..protocol.referenceside import ReferenceSide
from ..suite.casedata import Target

#: At most this many hands in one random match.
MAX_HANDS = 3

T = TypeVar("T")


class Parted(Exception):
    """The engine and the reference can no longer play the same line (already recorded)."""


class Unsupported(Exception):
    """The engine declines the match's player count or options (``unsupported``): not judged."""


def request_rules(rules: Rules, request: str, code: str) -> tuple[str, ...]:
    """The rules behind the engine's refusal of ``request`` with ``code``."""
    if code == ErrorCode.MATCH_OVER:
        return attribution.match_rules(rules, "winner")
    if code == ErrorCode.HAND_IN_PROGRESS:
        return (FixedRule.END_OF_HAND.value,)
    if code == ErrorCode.BAD_DEAL or request == "new_hand":
        return (FixedRule.DEAL.value,)
    return (FixedRule.PROTOCOL.value,)


class RandomMatch:
    """One random match played on both engines: :meth:`play`, then read :attr:`divergences`."""

    def __init__(
        self,
        engine: Engine,
        oracle: Engine,
        rules: Rules,
        target: Target,
        players: int,
        strategy: str,
        rng: random.Random,
        *,
        seed: int | None = None,
        game: int | None = None,
        declaration: Declaration | None = None,
    ) -> None:
        self.engine, self.rules = engine, rules
        #: The reference's answers: the oracle's, or the mirror's past the engine's opening.
        self.side = ReferenceSide(oracle, rules, players)
        self.declaration = declaration or Declaration()
        #: Whether the match totals still follow the reference's (no hand parted, none
        #: of its results differed).
        self.match_judged = True
        self.target, self.players, self.strategy, self.rng = target, players, strategy, rng
        self.seed, self.game = seed, game
        self.deals: list[Mapping[str, Any]] = []
        self.histories: list[list[str]] = []
        self.divergences: list[Divergence] = []
        self.max_hands = MAX_HANDS
        #: Hands dealt on both engines and compared (the last one perhaps not to its end).
        self.hands = 0
        #: The request last put to the engine (``apply 3-4@L:4``): the one it failed on, if it did.
        self.request = ""

    @property
    def hand(self) -> Hand | None:
        """The reference's hand now being played, if one is."""
        return self.side.hand

    @property
    def mirror(self) -> Match:
        """The reference's match, on this process's package."""
        return self.side.mirror

    def play(self) -> int:
        """Play the match until its end, ``max_hands`` or the engines part; the hands compared.

        Raises :class:`Unsupported` when the engine declines the match.
        """
        self.side.new_match(self.target.variant, self.target.options)
        self.request = "new_match"
        try:
            self.engine.new_match(self.target.variant, self.target.options, self.players)
        except EngineRefusal as refusal:
            if refusal.code == ErrorCode.UNSUPPORTED:
                raise Unsupported(str(refusal)) from None
            self._refused("new_match", refusal, (FixedRule.PROTOCOL.value,))
            return 0
        with contextlib.suppress(Parted):
            self._play_hands()
        return self.hands

    def _play_hands(self) -> None:
        for _ in range(self.max_hands):
            if self.mirror.hands and not self.match_judged:
                # each hand after a difference is dealt in a match of its own
                if not self._begin_again():
                    return
            elif self.mirror.hands:
                self.mirror.close_hand()
                if self.mirror.is_over:
                    return
            deal = Deal.shuffled(
                self.rules, self.players, self.rng, designated=self.mirror.expected_designated()
            )
            data = deal.to_data()
            self.deals.append(data)
            self.histories.append([])
            self.side.new_hand(deal, data)
            opened = self._ask("new_hand", partial(self.engine.new_hand, data))
            self.hands += 1
            try:
                if self.declaration.opens_itself:
                    self._follow_opening(opened)
                self._play_hand()
            except Parted:
                self.match_judged = False
                continue
            if self.match_judged and self.declaration.matches:
                self._compare_match()

    def _begin_again(self) -> bool:
        """After a hand the two did not play alike: a new match on both, for the next hand
        (False when the engine refuses it)."""
        self.side.new_match(self.target.variant, self.target.options)
        try:
            self.engine.new_match(self.target.variant, self.target.options, self.players)
        except EngineRefusal:
            return False
        return True

    def _follow_opening(self, opened: object) -> None:
        """An engine that lays its own opening: the reference draws for a double as the rules
        make it, then lays the same tile, or the two part (the opening rules behind it)."""
        hand = self.mirror.hands[-1]
        laid = opened.action if isinstance(opened, Opening) else None
        seat = opened.seat if isinstance(opened, Opening) else None
        position = Position(self.rules, hand)
        if hand.is_over:
            if laid is not None:
                self._record(Check.RESULT, "", None, laid, fields.redeal_rules(self.rules, hand))
                raise Parted
            return
        action = None if laid is None else _parsed(laid)
        while action is not None and not hand.is_legal(action) and hand.is_legal(DRAW):
            self.side.apply(DRAW)
            self.histories[-1].append("draw")
        if action is None or not hand.is_legal(action):
            rules = attribution.opening_rules(position)
            self._record(Check.LEGAL, "", sorted(self.side.legal()), laid, rules)
            if laid is None or seat is None or not self.side.anchor(seat, laid):
                raise Parted
            self.match_judged = False  # the reference follows the engine's opening from here
            self.histories[-1].append(laid)
            return
        self.side.apply(action)
        self.histories[-1].append(str(action))

    def _ask(
        self, request: str, call: Callable[[], T], rules: tuple[str, ...] = (), detail: str = ""
    ) -> T:
        """The engine's answer to ``request``; a refusal is a divergence that parts the two."""
        self.request = f"{request} {detail}".strip()
        try:
            return call()
        except EngineRefusal as refusal:
            behind = rules or request_rules(self.rules, request, refusal.code)
            self._refused(request, refusal, behind)
            raise Parted from None

    def _refused(self, request: str, refusal: EngineRefusal, rules: tuple[str, ...]) -> None:
        self._record(Check.REQUEST, request, "accepted", str(refusal), rules)

    def _play_hand(self) -> None:
        """Play the hand to its end on both; :class:`Parted` when the engine cannot follow."""
        hand = self.mirror.hands[-1]
        strategy = STRATEGIES[self.strategy]
        while True:
            hand = self.hand or hand
            position = Position(self.rules, hand)
            seat = self.side.to_act()
            theirs = self._ask("to_act", self.engine.to_act)
            if (seat is None) != (theirs is None):  # one of them ended the hand, not both
                ending = attribution.result_rules(position, "termination")
                self._record(Check.TO_ACT, "", seat, theirs, ending)
                raise Parted
            if seat is None:
                result = self._ask("result", self.engine.result)
                self._compare_keys(Check.RESULT, self.side.result(), result, position)
                return
            self._compare(Check.TO_ACT, "", seat, theirs, attribution.to_act_rules(position))
            self._step(hand, position, strategy)

    def _step(self, hand: Hand, position: Position, strategy: Any) -> None:
        """One action both allow, played on both, and the ends compared."""
        expected = canonical_set(self.side.legal(), "the reference")
        try:
            actual = canonical_set(self._ask("legal", self.engine.legal), "the engine")
        except Mismatch as mismatch:
            actual = {mismatch.message}
        disputed = attribution.legal_rules(position, expected ^ actual)
        self._compare(Check.LEGAL, "", sorted(expected), sorted(actual), disputed)
        common = sorted(expected & actual)
        if not common:
            self._open_as_the_engine(hand, actual, strategy)
            return
        choices = [Action.parse(text) for text in common]
        action = str(strategy(hand, choices, self.rng))
        behind = attribution.legal_rules(position, [action])  # read before it is played
        reason = self._ask("apply", lambda: self.engine.apply(action, None), behind, action)
        if reason is not None:  # the engine refuses what it offered
            self._record(Check.ACCEPTED, "", "accepted", reason, behind)
            raise Parted
        self.histories[-1].append(action)
        try:
            self.side.apply(Action.parse(action))
        except (IllegalActionError, NotationError):
            raise Parted from None
        expected_ends = [" ".join(end.split()) for end in self.side.ends()]
        actual_ends = [" ".join(end.split()) for end in self._ask("ends", self.engine.ends)]
        self._compare(Check.ENDS, "", expected_ends, actual_ends, behind)

    def _open_as_the_engine(self, hand: Hand, offered: set[str], strategy: Any) -> None:
        """No action both allow. At the opening, the reference follows the opening the engine
        lays (one of those it offers), and the hand goes on; anywhere else they part."""
        openings = [
            play
            for text in sorted(offered)
            if isinstance(play := _parsed(text), Play) and play.end is None
        ]
        seat = hand.current
        if hand.ends or not openings:
            raise Parted  # no action both allow: the engine cannot follow from here
        chosen = str(strategy(hand, openings, self.rng))
        reason = self._ask("apply", lambda: self.engine.apply(chosen, None), (), chosen)
        if reason is not None or not self.side.anchor(seat, chosen):
            raise Parted
        self.match_judged = False  # the match goes on from another hand than the reference's
        self.histories[-1].append(chosen)
        actual_ends = [" ".join(end.split()) for end in self._ask("ends", self.engine.ends)]
        self._compare(Check.ENDS, "", self.side.ends(), actual_ends, ())

    def _compare_match(self) -> None:
        """The match after a hand; a match over on one side only (or won by another) parts them."""
        expected = self.side.match_state()
        actual = self._ask("match_state", self.engine.match_state)
        self._compare_keys(Check.MATCH, expected, actual, Position(self.rules, self.hand))
        if expected.get("winner") != actual.get("winner"):
            self.match_judged = False
            raise Parted

    def _compare_keys(
        self,
        check: Check,
        expected: Mapping[str, Any] | None,
        actual: Mapping[str, Any] | None,
        position: Position,
    ) -> None:
        if expected is None or actual is None:
            self._compare(check, "", expected, actual, self._key_rules(check, "", position))
            return
        # the rules behind the first field that differs, which the others follow from
        differs = (
            fields.result_rules(position, actual)
            if check is Check.RESULT
            else fields.match_rules(self.mirror, actual)
        )
        for key, value in expected.items():
            if unjudged_key(self.declaration, check, key, self.rules):
                continue
            if actual.get(key) == value:
                continue
            rules = differs or self._key_rules(check, key, position)
            self._compare(check, key, value, actual.get(key), rules)
        if check is Check.RESULT and any(
            actual.get(key) != value
            for key, value in expected.items()
            if not unjudged_key(self.declaration, check, key, self.rules)
        ):
            self.match_judged = False  # the match totals follow from this hand's

    def _key_rules(self, check: Check, key: str, position: Position) -> tuple[str, ...]:
        if check is Check.RESULT:
            return attribution.result_rules(position, key or "termination")
        return attribution.match_rules(self.rules, key or "winner")

    def _compare(
        self, check: Check, key: str, expected: Any, actual: Any, rules: tuple[str, ...]
    ) -> None:
        if expected != actual:
            self._record(check, key, expected, actual, rules)

    def error(self, message: str, failure: str = "") -> GameError:
        """The engine failed in this game: the message, with the game that replays it."""
        return GameError(
            label=self.target.label(),
            message=message,
            target=self.target,
            players=self.players,
            strategy=self.strategy,
            deals=tuple(self.deals),
            histories=tuple(tuple(history) for history in self.histories),
            request=self.request,
            failure=failure,
            seed=self.seed,
            game=self.game,
        )

    def _record(
        self, check: Check, key: str, expected: Any, actual: Any, rules: tuple[str, ...]
    ) -> None:
        self.divergences.append(
            Divergence(
                check=check,
                key=key,
                target=self.target,
                players=self.players,
                strategy=self.strategy,
                deals=tuple(self.deals),
                histories=tuple(tuple(history) for history in self.histories),
                expected=expected,
                actual=actual,
                rules=rules,
                position=position_text(self.hand),
                seed=self.seed,
                game=self.game,
            )
        )


def _parsed(text: str) -> AnyAction | None:
    try:
        return Action.parse(text)
    except NotationError:
        return None
