"""A bare bitmask playout of one Matador configuration: the near-limit figure.

The engine plays any variant from its rules object; this module plays exactly one
configuration, written out by hand, the way one would write a fast playout for a
single game. It is the yardstick for how close the engine gets to the limit of
plain Python: the benchmark times both on the same hands and prints the ratio.

The configuration is ``pagat`` (SPEC section 7.5, example A) with the deal made
like the peer's: ``players`` seats of ``hand_size`` tiles from the double-six
set, the rest out of play, nobody draws.

* The deal: the 28 tiles in canonical order are shuffled with ``rng.shuffle``;
  seat 0 takes the first ``hand_size``, seat 1 the next, and so on; then the
  designated opener is drawn by lot, ``rng.randrange(players)``.
* The opening: the designated seat puts down any tile of its hand. End 0 shows
  the low half, end 1 the high half.
* An ordinary tile goes on an end by a half that makes seven with it, leaving
  its other half. A matador ([0-0], or a tile of seven pips) goes on any end
  either way round, leaving the half turned out. A blank end takes only matadors.
* A seat with no placement passes; ``players`` passes in a row block the hand.
  A seat that puts down its last tile wins (a domino). A blocked hand goes to
  the lowest pips, nobody on a tie. The winner scores the others' pips less
  their own (never below zero).

Every decision is a uniform choice among the legal moves
(``moves[rng.randrange(len(moves))]``), the moves listed in the engine's
canonical order (by tile, then end, then the value left open); a decision with
one legal move (a pass, or a single placement) draws no random number, as in
the engine's simulations. The engine draws the same numbers from
``getrandbits`` directly (reference_engine/engine/draws.py). With the same
seeded generator this plays the very hand the engine plays, step for step:
tests/test_benchmark_baseline.py holds the two to that.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

MAX_PIP = 6
LINE_SUM = MAX_PIP + 1
#: The double-six set in canonical order (low half, high half); a tile is its index.
TILES = tuple((low, high) for low in range(MAX_PIP + 1) for high in range(low, MAX_PIP + 1))
PIPS = tuple(low + high for low, high in TILES)
BITS = tuple(1 << tile for tile in range(len(TILES)))
MATADOR = tuple(low + high == LINE_SUM or low == high == 0 for low, high in TILES)

#: A placement: (tile, end, value left open).
Placement = tuple[int, int, int]
#: A move as the trace writes it: a placement, an opening tile (tile, None, None), or PASS.
Move = tuple[int, int | None, int | None]
PASS: Move = (-1, None, None)


def _opens(value: int, tile: int) -> tuple[int, ...]:
    """The values ``tile`` can leave open on an end showing ``value``, ascending."""
    low, high = TILES[tile]
    if MATADOR[tile]:
        return tuple(sorted({low, high}))
    return tuple(
        sorted({outer for inner, outer in ((low, high), (high, low)) if inner + value == LINE_SUM})
    )


#: FITS[value]: the tiles that go on an end showing ``value``, as a bitmask.
FITS = tuple(
    sum(1 << tile for tile in range(len(TILES)) if _opens(value, tile))
    for value in range(MAX_PIP + 1)
)
#: MOVES[end][value][tile]: the placements of ``tile`` on end ``end`` showing ``value``.
MOVES: tuple[tuple[tuple[tuple[Placement, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            tuple((tile, end, outer) for outer in _opens(value, tile)) for tile in range(len(TILES))
        )
        for value in range(MAX_PIP + 1)
    )
    for end in (0, 1)
)


def _pips(hand: int) -> int:
    """The pips of the tiles in ``hand``."""
    total = 0
    while hand:
        low = hand & -hand
        total += PIPS[low.bit_length() - 1]
        hand ^= low
    return total


class Result(NamedTuple):
    """How one hand ended."""

    termination: str  # "domino" or "blocked"
    winner: int | None
    pips: tuple[int, ...]
    points: tuple[int, ...]
    placed: int  # tiles put down, the opening tile included
    actions: int  # every decision, passes included


def play_hand(
    rng: random.Random, players: int, hand_size: int, trace: list[Sequence[Move]] | None = None
) -> Result:
    """Play one random hand to its end; ``trace``, if given, gets every step's legal moves."""
    randrange = rng.randrange
    order = list(range(len(TILES)))
    rng.shuffle(order)
    hands = [
        sum(map(BITS.__getitem__, order[seat * hand_size : (seat + 1) * hand_size]))
        for seat in range(players)
    ]
    seat = randrange(players)

    # The opening: any tile of the designated seat's hand.
    hand = hands[seat]
    openings: list[Move] = []
    rest = hand
    while rest:
        low = rest & -rest
        openings.append((low.bit_length() - 1, None, None))
        rest ^= low
    if trace is not None:
        trace.append(openings)
    tile = openings[randrange(len(openings))][0] if len(openings) > 1 else openings[0][0]
    hand ^= 1 << tile
    hands[seat] = hand
    ends = list(TILES[tile])
    placed = actions = 1
    passes = 0
    went_out = seat if not hand else None

    moves_left, moves_right = MOVES
    while went_out is None:
        seat = (seat + 1) % players
        hand = hands[seat]
        left, right = ends
        playable = hand & (FITS[left] | FITS[right])
        if playable:
            moves: list[Placement] = []
            on_left, on_right = moves_left[left], moves_right[right]
            while playable:
                low = playable & -playable
                tile = low.bit_length() - 1
                moves += on_left[tile]
                moves += on_right[tile]
                playable ^= low
            if trace is not None:
                trace.append(moves)
            tile, end, outer = moves[randrange(len(moves))] if len(moves) > 1 else moves[0]
            hand ^= 1 << tile
            hands[seat] = hand
            ends[end] = outer
            placed += 1
            actions += 1
            passes = 0
            if not hand:
                went_out = seat
        else:
            if trace is not None:
                trace.append([PASS])
            actions += 1
            passes += 1
            if passes == players:
                break

    pips = tuple(map(_pips, hands))
    winner: int | None = went_out
    termination = "domino"
    if went_out is None:
        lowest = min(pips)
        holders = [seat for seat, count in enumerate(pips) if count == lowest]
        termination, winner = "blocked", holders[0] if len(holders) == 1 else None
    points = [0] * players
    if winner is not None:
        points[winner] = max(0, sum(pips) - 2 * pips[winner])
    return Result(termination, winner, pips, tuple(points), placed, actions)
