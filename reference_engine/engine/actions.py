"""Actions and their text notation (spec/notation.md).

=============  ===================================================
``6-6``        open the hand with [6-6]
``2-5@R:5``    put [2-5] on the right end, in line, leaving 5 open
``2-5@Lx``     put [2-5] across the left end (both halves, or T)
``2-5@R^5``    put [2-5] across the right end with its 5 standing out (L)
``draw``       take a tile from the boneyard
``pass``       end the turn without playing
=============  ===================================================

Actions are small hashable values with a text round trip:
``Action.parse(str(action)) == action``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..errors import NotationError
from ..notation import PLAY_PATTERN, WORDS
from ..rules.vocabulary import Shape
from .tiles import Tile

END_NAMES = ("L", "R")


def end_name(end: int) -> str:
    """How the notation writes end number ``end``: ``L``, ``R``, then ``E2``, ``E3``..."""
    return END_NAMES[end] if end < 2 else f"E{end}"


def end_number(name: str) -> int:
    """The end a written end names (``L``, ``R``, ``E2``...; ``E0`` and ``E1`` are L and R)."""
    return END_NAMES.index(name) if name in END_NAMES else int(name[1:])


_SHAPE_ORDER = {Shape.INLINE: 0, Shape.CROSSWISE: 1, Shape.CROSSWISE_OFFSET: 2}


@dataclass(frozen=True, slots=True)
class Play:
    """Put a tile down: the opening tile (``end`` None) or a placement on an end."""

    tile: Tile
    end: int | None = None
    shape: Shape = Shape.INLINE
    open: int | None = None

    kind: ClassVar[str] = "play"

    def __post_init__(self) -> None:
        if self.end is None:
            if self.shape is not Shape.INLINE or self.open is not None:
                raise NotationError("the opening tile has no end, shape or open value")
            return
        if isinstance(self.end, bool) or not isinstance(self.end, int) or not 0 <= self.end < 100:
            raise NotationError(f"end {self.end!r} is not an end number (0 is L, 1 is R)")
        if (self.shape is Shape.CROSSWISE) != (self.open is None):
            raise NotationError("a crosswise play has no open value; other plays have one")
        if self.open is not None and self.open not in self.tile:
            raise NotationError(f"{self.open} is not a half of {self.tile}")

    @property
    def is_opening(self) -> bool:
        """Whether this puts down the first tile of the hand."""
        return self.end is None

    def sort_key(self) -> tuple[int, ...]:
        """The canonical order of actions: plays by tile, end, shape, open; then draw, pass."""
        return (
            0,
            self.tile.low,
            self.tile.high,
            -1 if self.end is None else self.end,
            _SHAPE_ORDER[self.shape],
            -1 if self.open is None else self.open,
        )

    def __str__(self) -> str:
        if self.end is None:
            return str(self.tile)
        end = end_name(self.end)
        if self.shape is Shape.INLINE:
            return f"{self.tile}@{end}:{self.open}"
        if self.shape is Shape.CROSSWISE:
            return f"{self.tile}@{end}x"
        return f"{self.tile}@{end}^{self.open}"

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the next tile from the boneyard."""

    kind: ClassVar[str] = "draw"

    def sort_key(self) -> tuple[int, ...]:
        """Draw sorts after every play."""
        return (1,)

    def __str__(self) -> str:
        return "draw"

    def __repr__(self) -> str:
        return "Action.parse('draw')"


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without playing (knock)."""

    kind: ClassVar[str] = "pass"

    def sort_key(self) -> tuple[int, ...]:
        """Pass sorts last."""
        return (2,)

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "Action.parse('pass')"


AnyAction = Play | Draw | Pass

DRAW = Draw()
PASS = Pass()


class Action:
    """Namespace for reading actions: ``Action.parse("2-5@R:5")``."""

    @staticmethod
    def parse(text: str) -> AnyAction:
        """Read one action in the project's notation; raises :class:`NotationError`.

        Actions read before are remembered by their text (an engine's legal lists
        repeat the same few dozen actions thousands of times in a run)."""
        if type(text) is not str:
            return _parse(text)
        known = _PARSED.get(text)
        if known is not None:
            return known
        found = _parse(text)
        if len(_PARSED) >= _PARSED_MOST:
            _PARSED.clear()
        _PARSED[text] = found
        return found


#: Actions already read, by their text; at most this many are kept.
_PARSED: dict[str, AnyAction] = {}
_PARSED_MOST = 4096


def _parse(text: str) -> AnyAction:
    cleaned = text.strip() if isinstance(text, str) else ""
    word = WORDS.get(cleaned.lower())
    if word is not None:
        return DRAW if word == "draw" else PASS
    found = PLAY_PATTERN.match(cleaned)
    if not found:
        raise NotationError(
            f"{text!r} is not an action (examples: 6-6, 2-5@R:5, 2-5@Lx, 2-5@R^5, draw, pass)"
        )
    tile = Tile.parse(found["tile"])
    if found["end"] is None:
        return Play(tile)
    end = end_number(found["end"])
    if found["cross"]:
        return Play(tile, end, Shape.CROSSWISE, None)
    if found["offset"] is not None:
        return Play(tile, end, Shape.CROSSWISE_OFFSET, int(found["offset"]))
    return Play(tile, end, Shape.INLINE, int(found["inline"]))


#: The opening plays of each set of tiles (the same for every table of that set).
_OPENINGS: dict[tuple[Tile, ...], tuple[Play, ...]] = {}


def opening_plays(tiles: tuple[Tile, ...]) -> tuple[Play, ...]:
    """Each tile of ``tiles`` as the opening tile, built once per set of tiles."""
    found = _OPENINGS.get(tiles)
    if found is None:
        found = _OPENINGS[tiles] = tuple(Play(tile) for tile in tiles)
    return found


def sort_actions(actions: list[AnyAction]) -> list[AnyAction]:
    """Actions in canonical order."""
    return sorted(actions, key=lambda action: action.sort_key())
