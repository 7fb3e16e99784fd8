"""Actions for adapters: made from what an engine knows, written in the project's notation.

An engine knows a move its own way: a tile and a side, which half it turns
inward, whether it lies across. :class:`Move` makes the project's action from
that (an :data:`~reference_engine.engine.actions.AnyAction`, whose ``str`` is
the notation), and reads one back for the engine (``move.tile``, ``move.end``,
``move.open``, ``move.shape``). :func:`candidates` lists every action a seat
could try, for an engine that can say whether one action is legal but cannot
list them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

from ..engine.actions import DRAW, PASS, AnyAction, Play
from ..engine.tiles import Tile
from ..rules.vocabulary import Shape

#: A tile as an engine gives it: a pair of numbers, in either order.
Pair = tuple[int, int]

#: The end numbers: 0 is L, 1 is R.
LEFT, RIGHT = 0, 1


def tile_of(text: str) -> Pair:
    """A tile written in the notation (``"2-5"``), as the pair ``(2, 5)``."""
    tile = Tile.parse(text)
    return (tile.low, tile.high)


class Move:
    """Makers of actions from what an engine knows of a move (each returns an action)."""

    draw = DRAW
    pass_ = PASS

    @staticmethod
    def opening(a: int, b: int) -> Play:
        """Put down the first tile of the hand."""
        return Play(Tile.of(a, b))

    @staticmethod
    def inline(a: int, b: int, end: int, open_half: int) -> Play:
        """Lay [a-b] along the line on ``end`` (0 L, 1 R), leaving ``open_half`` open."""
        return Play(Tile.of(a, b), end, Shape.INLINE, open_half)

    @staticmethod
    def attach(a: int, b: int, end: int, inward: int) -> Play:
        """Lay [a-b] along the line on ``end`` with its half ``inward`` against the end."""
        tile = Tile.of(a, b)
        return Play(tile, end, Shape.INLINE, tile.high if inward == tile.low else tile.low)

    @staticmethod
    def across(a: int, b: int, end: int) -> Play:
        """Lay [a-b] across ``end`` (a T)."""
        return Play(Tile.of(a, b), end, Shape.CROSSWISE, None)

    @staticmethod
    def offset(a: int, b: int, end: int, open_half: int) -> Play:
        """Lay [a-b] across ``end`` with ``open_half`` standing out along the line (an L)."""
        return Play(Tile.of(a, b), end, Shape.CROSSWISE_OFFSET, open_half)


class _Seated(Protocol):
    """What :func:`candidates` asks of an adapter."""

    def seat(self) -> int | None: ...

    def tiles(self, seat: int) -> Iterable[Pair]: ...

    def open_ends(self) -> Iterable[int | str]: ...


def candidates(adapter: _Seated) -> Iterator[AnyAction]:
    """Every action the seat to act could try: each tile held as the opening or on each end
    in each shape, then draw and pass (for an engine that can only say yes or no)."""
    seat = adapter.seat()
    if seat is None:
        return
    ends = len(list(adapter.open_ends()))
    for pair in adapter.tiles(seat):
        tile = Tile.of(*pair)
        if not ends:
            yield Play(tile)
            continue
        for end in range(ends):
            for half in dict.fromkeys((tile.low, tile.high)):
                yield Play(tile, end, Shape.INLINE, half)
            yield Play(tile, end, Shape.CROSSWISE, None)
            for half in dict.fromkeys((tile.low, tile.high)):
                yield Play(tile, end, Shape.CROSSWISE_OFFSET, half)
    yield DRAW
    yield PASS
