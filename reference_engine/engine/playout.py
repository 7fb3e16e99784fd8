"""Playing a hand to its end with uniform random choices, fast: what simulations run.

:func:`play_out` plays exactly the hand the public loop plays::

    while not hand.is_over:
        legal = hand.legal_actions()
        hand.apply(legal[0] if len(legal) == 1 else legal[rng.randrange(len(legal))])

with the same random numbers drawn, leaving the hand in the same state (its
history, hands, line and outcome), but an ordinary turn (after the opening, no
single draw pending, the opener's second tile laid) is written out as one loop
over local variables instead of two method calls per action. The turn rules
come from the same place as :meth:`Hand.legal_actions
<reference_engine.engine.hand.Hand.legal_actions>`: the placements from the
line's tables, the draw or pass beside them from the turn's predicates'
answers for an ordinary turn (:func:`~.turn.ordinary`);
anything else (the opening, a single draw and its aftermath, the opener's
second tile) goes through the public methods. tests/test_playout.py holds the
two loops to the same hands over every shipped variant and player count.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import cast

from .actions import DRAW, AnyAction, Play
from .draws import Bits, below, bits_source
from .ends import PASS_BIT
from .hand import Hand
from .phase import Phase
from .scoring import Termination

_OPENING, _PLAY = Phase.OPENING, Phase.PLAY
#: ``rng.randrange``: a number below the one given.
Choose = Callable[[int], int]


def play_out(hand: Hand, rng: random.Random) -> None:
    """Play ``hand`` to its end, every choice uniform among the legal actions
    (a single legal action draws no random number)."""
    randrange = rng.randrange
    bits = bits_source(rng)
    if hand.phase is _OPENING and not hand._draw_for_double and not hand.is_over:
        # The opening tile: one of those the opener may open with, as legal_actions()
        # offers them (their opening plays, in canonical order), laid as apply() lays it.
        tiles = hand._opening_tiles
        count = tiles.bit_count()
        if count > 1:
            place = randrange(count) if bits is None else below(bits, count)
            for _ in range(place):  # the chosen one's place
                tiles &= tiles - 1
        play = hand.table.opening_plays[(tiles & -tiles).bit_length() - 1]
        hand._legal = None
        hand.history.append(play)
        hand._open(play)
    while not hand.is_over:
        if hand.phase is _PLAY and hand._single_drawn is None and not hand._forced_play:
            _ordinary_turns(hand, randrange, bits)
            continue
        legal = hand.legal_actions()
        hand.apply(legal[0] if len(legal) == 1 else legal[randrange(len(legal))])


def _ordinary_turns(hand: Hand, randrange: Choose, bits: Bits | None) -> None:
    """Play ordinary turns until the hand ends or a turn needs the public methods.

    A choice among several actions is ``randrange(count)``, or, the same number
    when ``bits`` is the generator's ``getrandbits`` (:func:`~.draws.below`,
    written out), drawn from it directly.
    """
    table = hand.table
    # The draw or pass beside the placements, as the turn's predicates allow it.
    turn = hand._ordinary
    optional, beside, without_play = turn.optional, turn.beside, turn.without_play
    matadors = table.matador_mask
    one_draw = table.one_draw_per_turn
    hands = hand._hands
    players = hand.players
    following = _following(players)
    boneyard = hand._boneyard
    append = hand.history.append
    seat = hand.current
    line = hand._line
    passes = hand._passes
    drawn = hand._drawn
    limit = hand._draw_limit
    hand._legal = None
    hand._offer = 0
    while True:
        held = hands[seat]
        playable = held & line.fit
        if playable:
            plays: tuple[AnyAction, ...] | None = line.known.get(playable)
            if plays is None:  # tiles not yet held together on this line
                plays = line.placements(playable)
            if optional:
                extra = beside[2 * (not playable & ~matadors) + (drawn < limit)]
                if extra is not None:
                    plays = (*plays, extra)
            count = len(plays)
            if count == 1:
                choice = plays[0]
            elif bits is None:
                choice = plays[randrange(count)]
            else:  # below(bits, count)
                size = count.bit_length()
                number = bits(size)
                while number >= count:
                    number = bits(size)
                choice = plays[number]
            append(choice)
            try:
                bit, after = line.after[id(choice)]
            except KeyError:  # a placement first made on this line
                bit, after = table.step(line, cast(Play, choice))
            if bit < PASS_BIT:
                line = after
                held ^= bit
                hands[seat] = held
                passes = 0
                if not held:
                    hand.current, hand._line, hand._passes, hand._drawn = seat, line, passes, drawn
                    hand._finish(Termination.DOMINO, went_out=seat)
                    return
                seat = following[seat]
                continue
        else:  # nothing to place: draw while the boneyard allows, else pass
            choice = without_play[drawn < limit][0]
            append(choice)
        if choice is DRAW:
            bit = boneyard[drawn]
            drawn += 1
            hands[seat] = held | bit
            passes = 0
            if one_draw:
                hand.current, hand._line, hand._passes, hand._drawn = seat, line, passes, drawn
                hand._single_drawn = bit.bit_length() - 1
                return
        else:
            passes += 1
            if passes >= players:
                hand.current, hand._line, hand._passes, hand._drawn = seat, line, passes, drawn
                hand._finish(Termination.BLOCKED)
                return
            seat = following[seat]


@cache
def _following(players: int) -> tuple[int, ...]:
    """The seat after each seat."""
    return tuple((seat + 1) % players for seat in range(players))
