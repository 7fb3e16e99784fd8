"""The tile set as bitmasks: indices in canonical order, and the pips of any mask.

The pips of a mask are looked up 14 tiles at a time (engine/tiletable.py); the
expected sums here are worked out by hand, and for random masks against the
plain sum over the tiles.
"""

from __future__ import annotations

import random

import pytest

from reference_engine.engine.tiles import Tile
from reference_engine.engine.tiletable import TileTable


def test_indices_follow_the_canonical_order() -> None:
    table = TileTable(6)
    assert len(table.tiles) == 28
    assert table.tiles[0] == Tile(0, 0) and table.tiles[-1] == Tile(6, 6)
    assert all(table.index[tile] == number for number, tile in enumerate(table.tiles))
    assert table.mask([Tile(0, 0), Tile(6, 6)]) == 1 | 1 << 27
    assert table.tiles_of(1 | 1 << 27) == (Tile(0, 0), Tile(6, 6))


@pytest.mark.parametrize(
    ("max_pip", "whole_set"),
    # Each number is on max_pip + 2 tiles (its double counts it twice):
    # (n + 2) * (0 + 1 + ... + n).
    [(3, 5 * 6), (4, 6 * 10), (6, 8 * 21), (9, 11 * 45), (12, 14 * 78), (18, 20 * 171)],
)
def test_the_pips_of_the_whole_set(max_pip: int, whole_set: int) -> None:
    table = TileTable(max_pip)
    everything = (1 << len(table.tiles)) - 1
    assert table.pips_of(everything) == whole_set
    assert table.pips_of(0) == 0
    assert table.pips_each([everything, 0]) == (whole_set, 0)


def test_the_pips_of_a_hand_worked_by_hand() -> None:
    table = TileTable(6)
    hand = table.mask([Tile(6, 6), Tile(0, 0), Tile(3, 4), Tile(1, 5)])
    assert table.pips_of(hand) == 12 + 0 + 7 + 6
    # Tiles on both sides of the 14-tile boundary: [1-6] is index 12, [2-2] is 13, [2-3] 14.
    across = table.mask([Tile(1, 6), Tile(2, 2), Tile(2, 3)])
    assert table.pips_of(across) == 7 + 4 + 5
    assert table.pips_each([hand, across, 0]) == (25, 16, 0)


@pytest.mark.parametrize("max_pip", [3, 4, 6, 9, 12, 18])
def test_the_pips_of_random_masks_are_the_sum_over_their_tiles(max_pip: int) -> None:
    table = TileTable(max_pip)
    rng = random.Random(max_pip)
    masks = [rng.getrandbits(len(table.tiles)) for _ in range(300)]
    expected = tuple(
        sum(tile.pips for number, tile in enumerate(table.tiles) if mask >> number & 1)
        for mask in masks
    )
    assert tuple(map(table.pips_of, masks)) == expected
    assert table.pips_each(masks) == expected
