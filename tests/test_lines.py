"""A line's placements of a set of tiles: the same answer however it is found, in bounded memory.

:meth:`Line.placements <reference_engine.engine.ends.Line.placements>` answers
from what the line remembers, from its per-byte parts, or tile by tile; the
answer must always be every placement of each tile in the mask, tile by tile
in canonical order, and what a line remembers must stay bounded however many
hands ask (a simulation asks millions of times).
"""

from __future__ import annotations

import random

from reference_engine.engine.compiled import compiled
from reference_engine.engine.ends import KNOWN_LIMIT, Line
from reference_engine.rules import Catalog


def _tile_by_tile(line: Line, mask: int) -> tuple[object, ...]:
    return tuple(
        play for index in range(len(line.plays)) if mask >> index & 1 for play in line.plays[index]
    )


def test_placements_are_each_tiles_placements_in_order_however_found() -> None:
    for variant in ("pagat", "german", "polish", "britannica-1911"):
        table = compiled(Catalog.shipped().resolve(variant))
        rng = random.Random(variant)
        lines = [table.line((low, high)) for low in range(7) for high in range(7)]
        for line in lines:
            for _ in range(60):
                mask = rng.getrandbits(len(line.plays)) & rng.getrandbits(len(line.plays))
                first = line.placements(mask)
                assert first == _tile_by_tile(line, mask)
                assert line.placements(mask) == first  # again, now remembered or rebuilt


def test_what_a_line_remembers_is_bounded() -> None:
    table = compiled(Catalog.shipped().resolve("pagat"))
    line = table.line((3, 5))
    rng = random.Random(1)
    for _ in range(10 * KNOWN_LIMIT):
        line.placements(rng.getrandbits(len(line.plays)))
    # every single tile and the empty mask, and at most KNOWN_LIMIT others
    assert len(line.known) <= len(line.plays) + 1 + KNOWN_LIMIT


def test_the_line_before_the_opening_remembers_no_whole_hand() -> None:
    table = compiled(Catalog.shipped().resolve("pagat"))
    line = table.opening_line
    before = len(line.known)
    rng = random.Random(2)
    for _ in range(200):
        hand = sum(1 << index for index in rng.sample(range(28), 7))
        assert line.placements(hand) == _tile_by_tile(line, hand)
    assert len(line.known) == before
