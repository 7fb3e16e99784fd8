"""Open ends of the line: the values an end shows, what it accepts, which matadors.

An :class:`OpenEnd` is one kind of end (SPEC section 1): the compiled tables
give every kind that can arise under the rules an id, and the hand keeps the
ids of its open ends. :func:`orientations` lists the ways a tile can face an end.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.vocabulary import MatadorAccess, MatchRule
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
            return any(half + value == line_sum for value in self.values)
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


def orientations(tile: Tile) -> tuple[tuple[int, int], ...]:
    """(attaching half, outer half) for each way the tile can face: one for a double."""
    if tile.is_double:
        return ((tile.low, tile.high),)
    return ((tile.low, tile.high), (tile.high, tile.low))
