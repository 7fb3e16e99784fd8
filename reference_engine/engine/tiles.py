"""Tiles: small hashable values written low-high, like ``2-5``."""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from ..errors import NotationError
from ..notation import halves

#: Tiles read so far, by the very text they were read from: deals and actions name
#: the same few dozen tiles again and again. At most :data:`READ_LIMIT` texts are
#: kept (texts come from users).
_READ: dict[str, Tile] = {}
READ_LIMIT = 4096


class Tile(NamedTuple):
    """A domino tile, always stored with ``low <= high``."""

    low: int
    high: int

    @classmethod
    def of(cls, a: int, b: int) -> Tile:
        """The tile with halves ``a`` and ``b``, in either order."""
        return cls(a, b) if a <= b else cls(b, a)

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read ``"2-5"``, ``"5-2"``, ``"[2-5]"`` or ``"[5|2]"`` (the grammar's ``tile``, with
        space around it); raises :class:`NotationError`."""
        if type(text) is str:
            known = _READ.get(text)
            if known is not None:
                return known
        found = halves(text.strip()) if isinstance(text, str) else None
        if found is None:
            raise NotationError(f"{text!r} is not a tile (write it like 2-5, or [2-5] or [2|5])")
        tile = cls.of(*found)
        if type(text) is str and len(_READ) < READ_LIMIT:
            _READ[text] = tile
        return tile

    @property
    def is_double(self) -> bool:
        """Whether both halves show the same number."""
        return self.low == self.high

    @property
    def pips(self) -> int:
        """The tile's hand points: both halves, a double counting in full."""
        return self.low + self.high

    def other(self, half: int) -> int:
        """The half opposite ``half``."""
        return self.high if half == self.low else self.low

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"


@cache
def full_set(max_pip: int) -> tuple[Tile, ...]:
    """Every tile of the double-``max_pip`` set, in canonical (low, high) order."""
    return tuple(Tile(low, high) for low in range(max_pip + 1) for high in range(low, max_pip + 1))
