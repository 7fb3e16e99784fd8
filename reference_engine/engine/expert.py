"""The ``expert`` strategy: a player that decides from what its seat may know, and searches.

At each decision it takes the seat's :class:`View` of the hand, which is all it
ever reads: its own tiles, the tiles on the line, how many tiles every seat
holds, the boneyard's size, and what the passes and draws said (a seat that
passed or drew where the rules let it only when it could not play held nothing
that fitted the ends then, until it drew again). It deals the tiles it cannot
see at random, consistently with that (:func:`sample`), searches each such
deal to the end of the hand with every tile known (:class:`~.search.Search`),
and plays the action that did best over the samples. Its budget is the number
of samples and how deep each search goes; it is deterministic for the ``rng``
it is given, and it knows no rule: the rules object's compiled turn tables say
what a pass or a draw reveals, the hand's own step API does the rest.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .actions import DRAW, PASS, AnyAction, Play
from .hand import Hand
from .phase import Phase
from .search import Search

#: Samples per decision, and the actions each search looks ahead (None: to the end).
SAMPLES, DEPTH = 8, 6


@dataclass(frozen=True)
class View:
    """What the seat to act may know of a hand (tiles as the compiled table's bits)."""

    seat: int
    own: int
    #: The tiles of the set not on the line and not the seat's: where the others' are.
    unseen: int
    #: How many tiles each seat holds.
    counts: tuple[int, ...]
    boneyard: int
    #: Per seat, tiles it cannot hold (what fitted the ends when it last passed or drew).
    voids: tuple[int, ...]


def view_of(hand: Hand) -> View:
    """The seat to act's view of ``hand``: its own tiles and what every seat saw happen."""
    table = hand.table
    seat = hand.current
    own = hand._hands[seat]
    on_line = table.mask(action.tile for action in hand.history if isinstance(action, Play))
    voids = _voids(hand)
    full = (1 << len(table.tiles)) - 1
    return View(
        seat=seat,
        own=own,
        unseen=full & ~own & ~on_line,
        counts=tuple(mask.bit_count() for mask in hand._hands),
        boneyard=hand.boneyard_count,
        voids=tuple(void & ~own for void in voids),
    )


def _voids(hand: Hand) -> list[int]:
    """Per seat, the tiles its last pass or draw showed it did not hold, until it drew.

    The public actions are replayed from the hand's start: only where the ends stood
    matters, and that follows from the actions alone, whatever the hidden tiles are."""
    revealing = _revealing(hand)
    replay = Hand(hand.rules, hand.deal)
    matadors = replay.table.matador_mask
    voids = [0] * hand.players
    for action in hand.history:
        seat = replay.current
        shown = revealing.get(action.kind)
        if replay.phase is Phase.PLAY and shown is not None:
            fits = replay._line.fit
            voids[seat] = fits & ~matadors if shown else fits
        replay.apply(action)
        if action.kind == DRAW.kind:
            voids[seat] = 0  # (the tile drawn is unseen: it may be one that fitted)
    return voids


def _revealing(hand: Hand) -> dict[str, bool]:
    """What a draw or a pass says under these rules (the turn predicates' answers for an
    ordinary turn): absent when it may come beside a play; False when it says the seat
    could play nothing; True when it could play nothing but a matador."""
    beside = hand._ordinary.beside  # by 2 * only_matadors + can_draw: the extra action
    found: dict[str, bool] = {}
    for action in (DRAW, PASS):
        if action not in (beside[0], beside[1]):
            found[action.kind] = action in (beside[2], beside[3])
    return found


def sample(hand: Hand, view: View, rng: random.Random) -> Hand:
    """A copy of ``hand`` whose unseen tiles are dealt again at random, consistently with
    ``view``: each other seat gets as many as it holds, none it is void in, the rest is
    the boneyard in a random order. Nothing of the hidden tiles is read."""
    tiles = _bits(view.unseen)
    seats = [s for s in range(len(view.counts)) if s != view.seat]
    dealt: dict[int, int] = {}
    for attempt in range(40):
        rng.shuffle(tiles)
        dealt = _deal(tiles, seats, view, rng, strict=attempt < 39)
        if dealt:
            break
    twin = hand.copy()
    hands = list(twin._hands)
    taken = 0
    for seat in seats:
        hands[seat] = dealt[seat]
        taken |= dealt[seat]
    twin._hands = hands
    rest = [1 << bit for bit in tiles if not taken >> bit & 1]
    rng.shuffle(rest)
    twin._boneyard = tuple(hand._boneyard[: hand._drawn]) + tuple(rest)
    return twin


def _deal(
    tiles: Sequence[int], seats: Sequence[int], view: View, rng: random.Random, strict: bool
) -> dict[int, int]:
    """The unseen ``tiles`` (bit indexes, shuffled) shared out to ``seats``; {} when the
    voids leave no room (``strict``; else they are ignored)."""
    need = {seat: view.counts[seat] for seat in seats}
    held = dict.fromkeys(seats, 0)
    # the most constrained seats first
    for seat in sorted(seats, key=lambda s: -view.voids[s].bit_count()):
        allowed = [b for b in tiles if not (view.voids[seat] >> b & 1 and strict)]
        allowed = [b for b in allowed if not any(held[o] >> b & 1 for o in seats)]
        if len(allowed) < need[seat]:
            if strict:
                return {}
            allowed = [b for b in tiles if not any(held[o] >> b & 1 for o in seats)]
        for bit in allowed[: need[seat]]:
            held[seat] |= 1 << bit
    return held


def _bits(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def expert(
    hand: Hand,
    legal: Sequence[AnyAction],
    rng: random.Random,
    samples: int = SAMPLES,
    depth: int | None = DEPTH,
) -> AnyAction:
    """The action that does best, on average over ``samples`` deals of the unseen tiles,
    for the seat to act, each searched ``depth`` actions ahead."""
    if len(legal) == 1:
        return legal[0]
    view = view_of(hand)
    totals = [0.0] * len(legal)
    for _ in range(samples):
        guess = sample(hand, view, rng)
        search = Search(view.seat, depth)
        values = dict(search.action_values(guess))
        for number, action in enumerate(legal):
            totals[number] += values.get(action, 0.0)
    best = max(range(len(legal)), key=lambda number: totals[number])
    return legal[best]


__all__ = ["DEPTH", "SAMPLES", "View", "expert", "sample", "view_of"]
