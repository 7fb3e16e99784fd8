"""The rules compiled into lookup tables, once per variant and choice of options.

Everything that differs between sources is read from the :class:`Rules` object
here, and only here, following spec/SPEC.md section 7 ("Placement"). The hot
path of the engine (:mod:`reference_engine.hand`) then only indexes tables:

* every tile of the set gets an index; hands are bitmasks over those indices;
* every kind of open end that can arise under the rules gets an id
  (:class:`OpenEnd`: its values, its match rule, its matador access), found by
  closing the plain ends under every placement the rules allow;
* for each end kind and each tile, the placements it allows on end 0 and on
  end 1, each as a ready :class:`~reference_engine.actions.Play` with the id
  of the end it leaves.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .actions import Play
from .rules.model import MatadorMode, Rules
from .rules.vocabulary import EndFilter, Fit, MatadorAccess, Match, OpenValues, Shape
from .tiles import Tile, full_set


@dataclass(frozen=True)
class OpenEnd:
    """An open end of the line: the values it shows, what it accepts, which matadors."""

    values: tuple[int, ...]
    match: Match
    access: MatadorAccess

    @classmethod
    def plain(cls, value: int) -> OpenEnd:
        """The end an ordinary tile leaves: one value, the sum rule, matadors free."""
        return cls((value,), Match.SUM, MatadorAccess.FREE)

    @property
    def is_plain(self) -> bool:
        """Whether this is a plain end (SPEC section 1)."""
        return (
            len(self.values) == 1
            and self.match is Match.SUM
            and (self.access is MatadorAccess.FREE)
        )

    def admits(self, half: int, line_sum: int) -> bool:
        """Whether a tile may be laid against this end by ``half`` (the end's match rule)."""
        if self.match is Match.SUM:
            return any(half + value == line_sum for value in self.values)
        if self.match is Match.IDENTICAL:
            return half in self.values
        if self.match is Match.BLANK:
            return half == 0
        return self.match is Match.ANY

    def __str__(self) -> str:
        shown = "/".join(map(str, self.values))
        if self.is_plain:
            return shown
        return f"{shown} ({self.match.value}, matadors {self.access.value})"


def orientations(tile: Tile) -> tuple[tuple[int, int], ...]:
    """(attaching half, outer half) for each way the tile can face: one for a double."""
    if tile.is_double:
        return ((tile.low, tile.high),)
    return ((tile.low, tile.high), (tile.high, tile.low))


class Compiled:
    """Lookup tables for one resolved variant (see the module docstring)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.line_sum = rules.line_sum
        self.tiles: tuple[Tile, ...] = full_set(rules.max_pip)
        self.index: dict[Tile, int] = {tile: i for i, tile in enumerate(self.tiles)}
        self.pips: tuple[int, ...] = tuple(tile.pips for tile in self.tiles)
        self.matador_mask = self.mask(t for t in self.tiles if rules.is_matador(*t))
        self.opening_doubles: tuple[int, ...] = tuple(
            self.index[tile]
            for tile in self.tiles
            if tile.is_double and (rules.double_blank_opens or tile.high > 0)
        )
        self.kinds: list[OpenEnd] = []
        self.kind_id: dict[OpenEnd, int] = {}
        # moves[end][kind][tile] -> ((Play, new kind id), ...), in canonical order
        self.moves: tuple[list[list[tuple[tuple[Play, int], ...]]], ...] = ([], [])
        self.fits: list[int] = []
        self.opening_plays: tuple[Play, ...] = tuple(Play(tile) for tile in self.tiles)
        for value in range(rules.max_pip + 1):
            self.kind(OpenEnd.plain(value))
        self._close()

    # ---- tiles

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

    def is_matador(self, index: int) -> bool:
        """Whether the tile with this index is a matador."""
        return bool(self.matador_mask >> index & 1)

    # ---- end kinds

    def kind(self, end: OpenEnd) -> int:
        """The id of an end kind, registering it if new."""
        found = self.kind_id.get(end)
        if found is None:
            found = len(self.kinds)
            self.kinds.append(end)
            self.kind_id[end] = found
        return found

    def _close(self) -> None:
        """Register every end kind reachable from plain ends, with its placements."""
        done = 0
        while done < len(self.kinds):
            kind = done
            end = self.kinds[kind]
            fits = 0
            per_tile: list[tuple[tuple[Play, int], ...]] = []
            per_tile_right: list[tuple[tuple[Play, int], ...]] = []
            for index, tile in enumerate(self.tiles):
                left: list[tuple[Play, int]] = []
                right: list[tuple[Play, int]] = []
                for (shape, open_value), new_end in self.placements(end, tile).items():
                    new_kind = self.kind(new_end)
                    left.append((Play(tile, 0, shape, open_value), new_kind))
                    right.append((Play(tile, 1, shape, open_value), new_kind))
                if left:
                    fits |= 1 << index
                order = sorted(range(len(left)), key=lambda i: left[i][0].sort_key())
                per_tile.append(tuple(left[i] for i in order))
                per_tile_right.append(tuple(right[i] for i in order))
            self.moves[0].append(per_tile)
            self.moves[1].append(per_tile_right)
            self.fits.append(fits)
            done += 1

    # ---- placement (SPEC section 7.4)

    def placements(self, end: OpenEnd, tile: Tile) -> dict[tuple[Shape, int | None], OpenEnd]:
        """Every placement of ``tile`` on ``end``: (shape, open value) -> the end it leaves."""
        found: dict[tuple[Shape, int | None], OpenEnd] = {}
        if not self.rules.is_matador(*tile) or end.access is MatadorAccess.MATCH_ONLY:
            for half, outer in orientations(tile):
                if end.admits(half, self.line_sum):
                    found[(Shape.INLINE, outer)] = OpenEnd.plain(outer)
            return found
        if end.access is MatadorAccess.NEVER:
            return found
        for mode in self.rules.matador_modes:
            for key, new_end in self._by_mode(mode, end, tile):
                found.setdefault(key, new_end)
        return found

    def _by_mode(
        self, mode: MatadorMode, end: OpenEnd, tile: Tile
    ) -> list[tuple[tuple[Shape, int | None], OpenEnd]]:
        if not mode.applies_to_tile(tile == (0, 0)):
            return []
        if mode.ends is EndFilter.BLANK and not (end.is_plain and end.values == (0,)):
            return []
        if mode.ends is EndFilter.NON_BLANK and not (end.is_plain and end.values != (0,)):
            return []
        eligible = [
            (half, outer)
            for half, outer in orientations(tile)
            if mode.fit is Fit.FREE or end.admits(half, self.line_sum)
        ]
        if not eligible:
            return []
        leaves = mode.leaves
        if mode.shape is Shape.CROSSWISE:
            values = (
                tuple(sorted({tile.low, tile.high}))
                if mode.open is OpenValues.BOTH_HALVES
                else end.values
            )
            return [((Shape.CROSSWISE, None), OpenEnd(values, leaves.match, leaves.matadors))]
        return [
            ((mode.shape, outer), OpenEnd((outer,), leaves.match, leaves.matadors))
            for _, outer in eligible
        ]

    def opening_ends(self, tile: Tile) -> tuple[int, int]:
        """The two end kinds the opening tile leaves: low half on end 0, high on end 1."""
        return self.kind(OpenEnd.plain(tile.low)), self.kind(OpenEnd.plain(tile.high))


_COMPILED: dict[int, tuple[Rules, Compiled]] = {}


def compiled(rules: Rules) -> Compiled:
    """The tables for ``rules``, built once per resolved rules object."""
    entry = _COMPILED.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_COMPILED) > 256:
            _COMPILED.clear()
        entry = (rules, Compiled(rules))
        _COMPILED[id(rules)] = entry
    return entry[1]
