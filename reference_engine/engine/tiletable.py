"""A tile set indexed for bitmasks: hands as ints, and the sums the engine takes of them.

Every tile of the set (spec/SPEC.md section 1) gets an index in canonical
order; a hand, a boneyard's worth or a line's fit is a bitmask over those
indices. :class:`TileTable` holds the indices and turns masks back into tiles
or pips. The pips of a mask are summed 14 tiles at a time, from a table of
the sums of every mask of each run of 14 tiles (built once per set), as every
finished hand is scored.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, cached_property

from .tiles import Tile, full_set


class TileTable:
    """The tiles of the set up to ``max_pip``, indexed for bitmasks.

    What depends on the set alone is made once per set and shared by every
    table of that set (the conformance cases compile some eighty rule sets).
    """

    tiles: tuple[Tile, ...]
    tile_set: frozenset[Tile]
    index: dict[Tile, int]
    bit: dict[Tile, int]
    #: The bit of each tile index.
    bits: tuple[int, ...]
    pips: tuple[int, ...]
    #: Every tile's index, heaviest first: most pips, then the higher high half.
    heaviest_first: tuple[int, ...]

    def __init__(self, max_pip: int) -> None:
        self.__dict__.update(_set_indices(max_pip))

    @cached_property
    def _chunk_pips(self) -> tuple[tuple[int, ...], ...]:
        """Per 14 bits of a mask (tiles 0-13, 14-27, ...): the pips of each value
        (made when first asked for, once per set)."""
        return _chunk_pips(self.pips)

    def mask(self, tiles: Iterable[Tile]) -> int:
        """The bitmask of ``tiles``."""
        result = 0
        for tile in tiles:
            result |= 1 << self.index[tile]
        return result

    def tiles_of(self, mask: int) -> tuple[Tile, ...]:
        """The tiles of a bitmask, in canonical order."""
        out = []
        while mask:
            low = mask & -mask
            out.append(self.tiles[low.bit_length() - 1])
            mask ^= low
        return tuple(out)

    def pips_of(self, mask: int) -> int:
        """The hand points of the tiles of a bitmask (of this set's tiles only)."""
        chunks = self._chunk_pips
        total = chunks[0][mask & _CHUNK_MASK]
        mask >>= _CHUNK
        index = 1
        while mask:  # (a double-six set has two runs of 14 tiles: at most once round)
            total += chunks[index][mask & _CHUNK_MASK]
            mask >>= _CHUNK
            index += 1
        return total

    def pips_each(self, masks: Iterable[int]) -> tuple[int, ...]:
        """:meth:`pips_of` of each mask (one call for all: every finished hand asks)."""
        chunks = self._chunk_pips
        if len(chunks) == 2:  # a set of 15 to 28 tiles (a double-six set has 28)
            low, high = chunks
            each = []
            for mask in masks:  # (a loop: a comprehension costs a call more)
                each.append(low[mask & _CHUNK_MASK] + high[mask >> _CHUNK])
            return tuple(each)
        return tuple(map(self.pips_of, masks))


_CHUNK = 14
_CHUNK_MASK = (1 << _CHUNK) - 1


@cache
def _set_indices(max_pip: int) -> dict[str, object]:
    """The fields of :class:`TileTable` for the set up to ``max_pip`` (made once per set)."""
    tiles = full_set(max_pip)
    weight = {index: (tile.pips, tile.high) for index, tile in enumerate(tiles)}
    return {
        "tiles": tiles,
        "tile_set": frozenset(tiles),
        "index": {tile: i for i, tile in enumerate(tiles)},
        "bit": {tile: 1 << i for i, tile in enumerate(tiles)},
        "bits": tuple(1 << i for i in range(len(tiles))),
        "pips": tuple(tile.pips for tile in tiles),
        "heaviest_first": tuple(sorted(weight, key=weight.__getitem__, reverse=True)),
    }


@cache
def _chunk_pips(pips: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """For each run of 14 tiles, the pips of every mask of them (built once per set,
    from the sums of its two runs of 7)."""
    half = _CHUNK // 2
    chunks = []
    for base in range(0, len(pips), _CHUNK):
        low, high = _sums(pips[base : base + half]), _sums(pips[base + half : base + _CHUNK])
        size = min(_CHUNK, len(pips) - base)  # (the last run may be shorter)
        chunks.append(tuple([low[value & 127] + high[value >> half] for value in range(1 << size)]))
    return tuple(chunks)


def _sums(pips: tuple[int, ...]) -> list[int]:
    """The pips of every mask of up to 7 tiles (128 of them; the missing tiles count 0)."""
    sums = [0] * 128
    for value in range(1, 128):
        low = value & -value
        index = low.bit_length() - 1
        sums[value] = sums[value ^ low] + (pips[index] if index < len(pips) else 0)
    return sums
