"""Playing one chunk of a simulation and counting what happened, in mergeable tallies.

A :class:`Tally` holds only counts and histograms (value -> how often), so
tallies of any number of chunks merge exactly, in any order, and the memory a
simulation needs does not grow with the number of hands. :func:`play_chunk`
plays one chunk, seeded by the simulation's seed and the chunk's number
alone: the same chunk gives the same tally in any process, on any machine.

The deals and the players' choices come from two separate generators, so two
variants dealing the same shape of hand are simulated on the same deals
(common random numbers), which makes their comparison sharper.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, fields

from ..engine.actions import DRAW, PASS
from ..engine.deal import Deal
from ..engine.hand import Hand
from ..engine.match import Match
from ..engine.playout import play_out
from ..engine.scoring import Termination, side_of, sides
from ..engine.strategies import Strategy, random_choice
from ..rules.model import Rules

#: A match that has not reached its target after this many hands is stopped
#: and counted as unfinished (no shipped variant comes near it).
MAX_HANDS_PER_MATCH = 1000


@dataclass
class Tally:
    """What the hands of one or more chunks did, as counts and histograms."""

    #: Hands dealt, and those that were dealt again before anyone played.
    hands: int = 0
    redeals: int = 0
    #: Hands played to the end (dealt minus redealt), by how they ended.
    dominoes: int = 0
    blocked: int = 0
    #: Blocked hands with no single lowest total (nobody scores).
    ties: int = 0
    #: Hands won by each side (a seat when everyone plays alone).
    wins: list[int] = field(default_factory=list)
    #: Hands won by the side of the seat that opened.
    opener_wins: int = 0
    #: Seats' hands as dealt, and how many of them held no matador.
    dealt: int = 0
    no_matador: int = 0
    #: Per played hand: actions, draws, passes, points scored (histograms).
    actions: Counter[int] = field(default_factory=Counter)
    draws: Counter[int] = field(default_factory=Counter)
    passes: Counter[int] = field(default_factory=Counter)
    points: Counter[int] = field(default_factory=Counter)
    #: Matches played to the target, unfinished ones, hands per match, and how
    #: many were won by the side of the first hand's opener.
    matches: int = 0
    unfinished: int = 0
    match_hands: Counter[int] = field(default_factory=Counter)
    first_wins: int = 0
    #: Matches won by each side, side 0 first.
    match_wins: list[int] = field(default_factory=list)

    @property
    def played(self) -> int:
        """Hands played to the end."""
        return self.hands - self.redeals

    def merge(self, other: Tally) -> None:
        """Add ``other``'s counts to this tally, field by field."""
        for item in fields(self):
            mine, theirs = getattr(self, item.name), getattr(other, item.name)
            if isinstance(mine, Counter):
                mine.update(theirs)
            elif isinstance(mine, list):  # wins (of hands, of matches) per side
                mine.extend([0] * (len(theirs) - len(mine)))
                for side, won in enumerate(theirs):
                    mine[side] += won
            else:
                setattr(self, item.name, mine + theirs)

    def count_hand(self, hand: Hand) -> None:
        """Count one finished hand."""
        outcome = hand.outcome
        if outcome is None:
            raise ValueError("the hand is not over")
        rules, players = hand.rules, hand.players
        if not self.wins:
            self.wins = [0] * len(sides(rules, players))
        self.hands += 1
        matadors = hand.table.matador_mask
        dealt, _ = hand.deal.packed(rules)  # the seats' tiles as masks, kept with the deal
        self.dealt += len(dealt)
        self.no_matador += sum(1 for tiles in dealt if not tiles & matadors)
        if outcome.termination is Termination.REDEAL:
            self.redeals += 1
            return
        if outcome.termination is Termination.DOMINO:
            self.dominoes += 1
        else:
            self.blocked += 1
        if outcome.winner is None:
            self.ties += 1
        else:
            self.wins[outcome.winner] += 1
            if hand.opener is not None and side_of(rules, players, hand.opener) == outcome.winner:
                self.opener_wins += 1
        history = hand.history
        self.actions[len(history)] += 1
        self.draws[history.count(DRAW)] += 1
        self.passes[history.count(PASS)] += 1
        self.points[sum(outcome.points)] += 1


@dataclass(frozen=True)
class Chunk:
    """One unit of work: ``count`` hands (or matches), seeded by ``seed`` and ``number``."""

    number: int
    count: int
    seed: int


def _generators(chunk: Chunk) -> tuple[random.Random, random.Random]:
    """The chunk's deal and choice generators (string seeds hash the same everywhere)."""
    base = f"matador-simulate/{chunk.seed}/{chunk.number}"
    return random.Random(base + "/deal"), random.Random(base + "/choice")


def play_hand(hand: Hand, strategies: Sequence[Strategy], rng: random.Random) -> None:
    """Play ``hand`` to its end, each seat choosing with its strategy (seat modulo their count).

    A decision with one legal action draws no random number. When every seat
    plays at random, :func:`~reference_engine.engine.playout.play_out` plays the
    hand: the same hand, with the same random numbers, but faster.
    """
    if all(strategy is random_choice for strategy in strategies):
        play_out(hand, rng)
        return
    count = len(strategies)
    while not hand.is_over:
        legal = hand.legal_actions()
        if len(legal) == 1:
            hand.apply(legal[0])
            continue
        if not legal:
            raise RuntimeError(f"{hand.rules.variant}: seat {hand.current} has no legal action")
        hand.apply(strategies[hand.current % count](hand, legal, rng))


def play_chunk(
    rules: Rules, players: int, strategies: Sequence[Strategy], chunk: Chunk, *, matches: bool
) -> Tally:
    """Play one chunk: ``chunk.count`` hands, or matches to the target when ``matches``."""
    deals, choices = _generators(chunk)
    tally = Tally()
    if not matches:
        for _ in range(chunk.count):
            hand = Hand(rules, Deal.shuffled(rules, players, deals))
            play_hand(hand, strategies, choices)
            tally.count_hand(hand)
        return tally
    for _ in range(chunk.count):
        match = Match(rules, players, seed=deals.getrandbits(64))
        first: int | None = None
        while not match.is_over and len(match.hands) < MAX_HANDS_PER_MATCH:
            hand = match.new_hand()
            play_hand(hand, strategies, choices)
            match.close_hand()
            tally.count_hand(hand)
            if first is None:
                first = hand.opener
        if match.winner is None:
            tally.unfinished += 1
            continue
        tally.matches += 1
        tally.match_hands[len(match.hands)] += 1
        if not tally.match_wins:
            tally.match_wins = [0] * len(sides(rules, players))
        tally.match_wins[match.winner] += 1
        if first is not None and side_of(rules, players, first) == match.winner:
            tally.first_wins += 1
    return tally
