"""Open ends of the line: the values an end shows, what it accepts, which matadors.

An :class:`OpenEnd` is one kind of end (SPEC section 1): the compiled tables
give every kind that can arise under the rules an id. A :class:`Line` is the
open ends of a hand at one moment, as those ids, with what the engine looks
up on them; the hand keeps the line it is at. :func:`orientations` lists the
ways a tile can face an end.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..rules.vocabulary import MatadorAccess, MatchRule
from .actions import DRAW, PASS, Play
from .tiles import Tile


@dataclass(frozen=True)
class OpenEnd:
    """An open end of the line: the values it shows, what it accepts, which matadors."""

    values: tuple[int, ...]
    match: MatchRule
    access: MatadorAccess

    @classmethod
    def plain(cls, value: int) -> OpenEnd:
        """The end an ordinary tile leaves: one value, the sum rule, matadors free."""
        return cls((value,), MatchRule.SUM, MatadorAccess.FREE)

    @property
    def is_plain(self) -> bool:
        """Whether this is a plain end (SPEC section 1)."""
        return (
            len(self.values) == 1
            and self.match is MatchRule.SUM
            and (self.access is MatadorAccess.FREE)
        )

    def admits(self, half: int, line_sum: int) -> bool:
        """Whether a tile may be laid against this end by ``half`` (the end's match rule)."""
        if self.match is MatchRule.SUM:
            return line_sum - half in self.values
        if self.match is MatchRule.IDENTICAL:
            return half in self.values
        if self.match is MatchRule.BLANK:
            return half == 0
        return self.match is MatchRule.ANY

    @property
    def notation(self) -> str:
        """The end as spec/protocol.md writes it: ``5``, or ``2/5 identical free``."""
        shown = "/".join(map(str, self.values))
        if self.is_plain:
            return shown
        return f"{shown} {self.match.value} {self.access.value}"

    def __str__(self) -> str:
        shown = "/".join(map(str, self.values))
        if self.is_plain:
            return shown
        return f"{shown} ({self.match.value}, matadors {self.access.value})"


@cache
def orientations(tile: Tile) -> tuple[tuple[int, int], ...]:
    """(attaching half, outer half) for each way the tile can face: one for a double
    (remembered: building the tables asks for each tile on every kind of end)."""
    if tile.is_double:
        return ((tile.low, tile.high),)
    return ((tile.low, tile.high), (tile.high, tile.low))


#: What an action offered on a line does: the bit of the tile it puts down and the
#: line it leads to; a pass has :data:`PASS_BIT` and a draw :data:`DRAW_BIT`, and both
#: stay on the line.
Step = tuple[int, "Line"]
#: The bits of a pass and a draw: above every tile's (a set has at most 190 tiles).
PASS_BIT = 1 << 256
DRAW_BIT = PASS_BIT << 1
#: How many masks of several tiles a line remembers the placements of (the
#: hands a line meets repeat: a simulation asks for the same few again and
#: again, and memory stays bounded however many hands are played).
KNOWN_LIMIT = 256


class Line:
    """The open ends of a hand at one moment, as end kinds, and what goes on them.

    The compiled tables build one Line per combination of end kinds the rules
    reach (:meth:`~reference_engine.engine.compiled.Compiled.line`) and every hand
    that reaches it shares it. What it holds is a function of the kinds alone:

    * ``kinds``: the kind of end 0 (L), end 1 (R), then any later end;
    * ``fit``: the tiles with at least one placement on some end, as a bitmask;
    * ``plays``: per tile index, its placements on these ends, in canonical order
      (the compiled table's Play objects);
    * ``after``: id() of an action offered here -> its :data:`Step` (filled as
      placements are made; a pass and a draw leave the line as it is);
    * ``known``: a mask of tiles -> their placements, as :meth:`placements`
      answers: every single tile and no tile from the start, and the first
      ``remember`` other masks asked for, as they are asked (the line before
      the opening remembers none: it is asked for whole hands, which seldom
      repeat).
    """

    __slots__ = ("_octets", "_room", "after", "fit", "kinds", "known", "plays")

    def __init__(
        self,
        kinds: tuple[int, ...],
        fit: int,
        plays: tuple[tuple[Play, ...], ...],
        remember: int = KNOWN_LIMIT,
    ):
        self.kinds = kinds
        self.fit = fit
        self.plays = plays
        self.after: dict[int, Step] = {id(PASS): (PASS_BIT, self), id(DRAW): (DRAW_BIT, self)}
        self.known: dict[int, tuple[Play, ...]] = {1 << i: p for i, p in enumerate(plays)}
        self.known[0] = ()
        self._room = len(self.known) + remember
        self._octets: tuple[dict[int, tuple[Play, ...]], ...] = tuple(
            {} for _ in range(0, len(plays), 8)
        )

    def placements(self, mask: int) -> tuple[Play, ...]:
        """Every placement of the tiles in ``mask``, in canonical order (by tile, end,
        shape, open value); tiles with no placement add nothing."""
        found = self.known.get(mask)
        if found is not None:
            return found
        # Eight tiles at a time: the placements of each byte of the mask are kept
        # per byte (at most 256 of them for each), and joined in order.
        found = ()
        rest, base = mask, 0
        for octet in self._octets:
            part = rest & 255
            if part:
                got = octet.get(part)
                if got is None:
                    got = octet[part] = self._collect(part << base)
                found += got
            rest >>= 8
            if not rest:
                break
            base += 8
        if len(self.known) < self._room:
            self.known[mask] = found
        return found

    def _collect(self, mask: int) -> tuple[Play, ...]:
        """The placements of the tiles in ``mask``, tile by tile."""
        plays = self.plays
        collected: list[Play] = []
        while mask:
            low = mask & -mask
            collected += plays[low.bit_length() - 1]
            mask ^= low
        return tuple(collected)

    def __repr__(self) -> str:
        return f"Line(kinds={self.kinds!r}, fit={self.fit:#x})"
