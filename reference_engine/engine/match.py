"""A match: hands dealt one after another (or started at a position) until a player or side
reaches the target."""

from __future__ import annotations

import random

from ..errors import DealError
from ..rules.model import Rules
from ..rules.vocabulary import DesignatedOpener, TargetUnit
from .deal import Deal, check_players, needs_designated
from .hand import Hand
from .scoring import Termination, sides
from .state import TableState, hand_at


class Match:
    """Hands of one variant with the same players, scored towards the target."""

    def __init__(self, rules: Rules, players: int, *, seed: int | None = None) -> None:
        """A match of ``players`` (a count the rules allow, else :class:`DealError`)."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise DealError(f"the number of players must be a whole number, not {players!r}")
        check_players(rules, players)
        self.rules = rules
        self.players = players
        self.rng = random.Random(seed)
        self.sides = sides(rules, players)
        self.scores = [0] * len(self.sides)
        self.hands_won = [0] * len(self.sides)
        self.hands: list[Hand] = []
        self._designated: int | None = None
        self._closed = 0

    @property
    def winner(self) -> int | None:
        """The side that reached the target, if any."""
        target = self.rules.target
        counts = self.scores if target.unit is TargetUnit.POINTS else self.hands_won
        for side, count in enumerate(counts):
            if count >= target.value:
                return side
        return None

    @property
    def is_over(self) -> bool:
        """Whether a side has reached the target."""
        return self.winner is not None

    def expected_designated(self) -> int | None:
        """The designated opener the rules fix for the next hand (None: chosen by lot)."""
        if not needs_designated(self.rules) or not self.hands:
            return None
        previous = self.hands[-1]
        rule = self.rules.designated_opener
        if previous.outcome is not None and previous.outcome.termination is Termination.REDEAL:
            return self._designated if rule is not None and rule.rotates else None
        if rule is None or not rule.rotates:
            return None
        if rule.rotates_from_designated and self._designated is not None:
            return (self._designated + 1) % self.players
        if rule is DesignatedOpener.BY_LOT_THEN_ROTATE_FROM_OPENER and previous.opener is not None:
            return (previous.opener + 1) % self.players
        return None

    def new_hand(self, deal: Deal | None = None) -> Hand:
        """Start the next hand, from ``deal`` or shuffled from the match's seed.

        A given deal must have a hand for each of the match's players (else
        :class:`DealError`, before anything reads it), name the designated seat
        the rules fix for this hand, and fit the rules (:meth:`Deal.check`).
        """
        if self.hands and not self.hands[-1].is_over:
            raise ValueError("the current hand is not over")
        if self.is_over:
            raise ValueError("the match is over")
        if deal is not None and len(deal.hands) != self.players:
            raise DealError(deal.problems(self.rules, self.players)[0].message)
        expected = self.expected_designated()
        if deal is None:
            deal = Deal.shuffled(self.rules, self.players, self.rng, designated=expected)
        elif expected is not None and deal.designated != expected:
            raise DealError(
                f"the rules make seat {expected} the designated opener of this hand, "
                f"but the deal names {deal.designated}"
            )
        hand = Hand(self.rules, deal)
        self._designated = deal.designated
        self.hands.append(hand)
        return hand

    def new_at(self, state: TableState) -> Hand:
        """Start the next hand at a position (spec/notation.md, "Positions") rather than
        from a deal: raises :class:`DealError` when the position is not one of this match
        (another number of seats, a tile or a value outside the set)."""
        if self.hands and not self.hands[-1].is_over:
            raise ValueError("the current hand is not over")
        if self.is_over:
            raise ValueError("the match is over")
        if len(state.hands) != self.players:
            raise DealError(
                f"the position has {len(state.hands)} seats; the match has {self.players} players"
            )
        largest = self.rules.max_pip
        tiles = [*state.boneyard, *(tile for held in state.hands for tile in held)]
        values = [value for end in state.ends for value in end.values]
        if any(tile.high > largest for tile in tiles) or any(v > largest for v in values):
            raise DealError(
                f"the position holds a tile or a value outside the double-{largest} set"
            )
        hand = hand_at(self.rules, state)
        self._designated = None
        self.hands.append(hand)
        return hand

    def close_hand(self) -> None:
        """Add the finished current hand's points and win to the match totals (once)."""
        if self._closed == len(self.hands):
            return
        hand = self.hands[-1]
        if hand.outcome is None:
            raise ValueError("the current hand is not over")
        self._closed += 1
        for side, points in enumerate(hand.outcome.points):
            self.scores[side] += points
        if hand.outcome.winner is not None:
            self.hands_won[hand.outcome.winner] += 1
