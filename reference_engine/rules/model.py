"""The resolved rules of a Matador variant: immutable values the engine takes.

A :class:`Rules` object is what a variant file becomes once its ``extends``
chain is merged and its options are applied. It carries every rule value
(typed with the enums of :mod:`reference_engine.rules.vocabulary`), where each
value comes from (:class:`Provenance`), the gaps the file records and its notes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import Enum
from types import MappingProxyType
from typing import Any

from .parameters import parameter
from .vocabulary import (
    AfterSingleDraw,
    DesignatedOpener,
    DifferenceAmongSeveral,
    DoublesPlacement,
    DrawsPerTurn,
    DrawWhen,
    EndFilter,
    Fit,
    GapKind,
    HandPips,
    MatadorAccess,
    MatadorTiles,
    MatchRule,
    NobodyHasDouble,
    NoteKind,
    Opener,
    OpenerLacksDouble,
    OpeningTile,
    OpenValues,
    Partnership,
    PassWhen,
    Points,
    Shape,
    TargetUnit,
    Tie,
    TurnDirection,
)

PLAYER_COUNT_KEYS: Mapping[int, str] = MappingProxyType({2: "two", 3: "three", 4: "four"})

#: The ``hand_size`` entry that deals every tile of the set out (SPEC 5.3).
ALL_TILES = "all"


@dataclass(frozen=True, kw_only=True)
class Citation:
    """Where a rule value comes from: a publication, read through one source text."""

    publication: str
    text: str
    section: str
    says: str


@dataclass(frozen=True, kw_only=True)
class PerPlayers:
    """A number that depends on how many play (hand size, reserve).

    A hand size may instead be :data:`ALL_TILES`: every tile is dealt out, the
    hands as even as the set allows (see :meth:`seat_sizes`).
    """

    two: int | str | None = None
    three: int | str | None = None
    four: int | str | None = None

    def entry(self, players: int) -> int | str:
        """The entry for ``players`` players as given; KeyError when the variant gives none."""
        value = getattr(self, PLAYER_COUNT_KEYS[players]) if players in PLAYER_COUNT_KEYS else None
        if value is None:
            raise KeyError(players)
        return value if value == ALL_TILES else int(value)

    def for_players(self, players: int) -> int:
        """The number for ``players`` players; KeyError when the variant gives none.

        ValueError for a hand size of :data:`ALL_TILES`, which is no one number.
        """
        value = self.entry(players)
        if isinstance(value, str):
            raise ValueError(f"every tile is dealt to {players} players: see seat_sizes()")
        return value

    def seat_sizes(self, players: int, tiles: int) -> tuple[int, ...]:
        """Tiles dealt to each seat, seat 0 first, from a set of ``tiles`` (SPEC 5.3).

        A number deals it to every seat; :data:`ALL_TILES` shares the whole set
        out, the first seats in turn order taking one tile more when it does
        not divide evenly.
        """
        value = self.entry(players)
        if isinstance(value, str):
            share, extra = divmod(tiles, players)
            return tuple(share + (seat < extra) for seat in range(players))
        return (value,) * players

    def as_dict(self) -> dict[str, int | str]:
        """The defined entries, keyed as in the variant files."""
        return {
            key: self.entry(count)
            for count, key in PLAYER_COUNT_KEYS.items()
            if getattr(self, key) is not None
        }


@dataclass(frozen=True, kw_only=True)
class EndState:
    """What a matador placement leaves for the next tile on that end."""

    match: MatchRule
    matadors: MatadorAccess


PLAIN_END = EndState(match=MatchRule.SUM, matadors=MatadorAccess.FREE)


@dataclass(frozen=True, kw_only=True)
class MatadorMode:
    """One way a matador may be put down (see SPEC.md, "Matador placement modes")."""

    tiles: MatadorTiles
    ends: EndFilter
    fit: Fit
    shape: Shape
    open: OpenValues
    leaves: EndState

    def applies_to_tile(self, tile_is_double_blank: bool) -> bool:
        """Whether this mode may be used for a matador that is (or is not) [0-0]."""
        if self.tiles is MatadorTiles.ALL:
            return True
        if self.tiles is MatadorTiles.DOUBLE_BLANK:
            return tile_is_double_blank
        return not tile_is_double_blank


@dataclass(frozen=True, kw_only=True)
class Target:
    """What ends a match: a number of points or of hands won."""

    unit: TargetUnit
    value: int


@dataclass(frozen=True, kw_only=True)
class Alternative:
    """Another reading of a gap: ``option`` names the option that plays it; else either the
    model cannot play it (``unplayable_because``, and what it ``lacks``), or it could but
    nothing in the source points to it (``not_offered_because``)."""

    description: str
    option: str | None = None
    unplayable_because: str | None = None
    lacks: str | None = None
    not_offered_because: str | None = None

    @property
    def why_not_offered(self) -> str | None:
        """Why the reading is not offered as an option (None when it is)."""
        return self.unplayable_because or self.not_offered_because


@dataclass(frozen=True, kw_only=True)
class Gap:
    """A place where the source is silent, contradicts itself or reads two ways."""

    id: str
    kind: GapKind
    rules: tuple[str, ...]
    about: str
    reading: str
    why: str
    alternatives: tuple[Alternative, ...]
    cite: tuple[Citation, ...]
    variant: str


@dataclass(frozen=True, kw_only=True)
class Note:
    """Advice, custom or background a source gives that is not a rule."""

    kind: NoteKind
    text: str
    cite: tuple[Citation, ...]
    variant: str


@dataclass(frozen=True, kw_only=True)
class Provenance:
    """Where one resolved rule value was set: which file, which option, which citations."""

    rule: str
    variant: str
    option: tuple[str, str] | None
    cite: tuple[Citation, ...]
    gap: str | None


@dataclass(frozen=True, kw_only=True)
class OptionValue:
    """One selectable value of an option."""

    name: str
    summary: str
    cite: tuple[Citation, ...]
    changes: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Option:
    """An alternative the source offers (or a playable reading of a gap)."""

    name: str
    summary: str
    default: str
    values: tuple[OptionValue, ...]
    variant: str

    def value(self, name: str) -> OptionValue:
        """The value called ``name``; KeyError when there is none."""
        for value in self.values:
            if value.name == name:
                return value
        raise KeyError(name)


@dataclass(frozen=True, kw_only=True)
class Rules:
    """The complete, resolved rules of one variant with one choice of options."""

    variant: str
    title: str
    publication: str
    summary: str
    chain: tuple[str, ...]
    options: tuple[Option, ...]
    chosen: Mapping[str, str]

    max_pip: int
    players: tuple[int, ...]
    hand_size: PerPlayers
    reserve: PerPlayers
    partnership: Partnership
    turn_direction: TurnDirection

    opener: Opener
    designated_opener: DesignatedOpener | None
    opening_tile: OpeningTile | None
    double_blank_opens: bool
    opener_lacks_double: OpenerLacksDouble | None
    nobody_has_double: NobodyHasDouble
    opener_plays_again: bool

    doubles: DoublesPlacement
    matador_modes: tuple[MatadorMode, ...]

    draw_when: DrawWhen
    draws_per_turn: DrawsPerTurn | None
    after_single_draw: AfterSingleDraw | None
    pass_when: PassWhen

    hand_pips: HandPips
    points: Points
    difference_among_several: DifferenceAmongSeveral | None
    tie: Tie
    target: Target

    provenance: Mapping[str, Provenance] = field(default_factory=dict)
    gaps: tuple[Gap, ...] = ()
    notes: tuple[Note, ...] = ()

    @property
    def line_sum(self) -> int:
        """The total two touching halves must make: one more than the highest pip."""
        return self.max_pip + 1

    @property
    def tile_count(self) -> int:
        """How many tiles the double-``max_pip`` set has."""
        return (self.max_pip + 1) * (self.max_pip + 2) // 2

    @property
    def teams(self) -> bool:
        """Whether the hand is played two against two (seats 0 and 2 against 1 and 3)."""
        return self.partnership is Partnership.TWO_VS_TWO

    def seat_sizes(self, players: int) -> tuple[int, ...]:
        """Tiles dealt to each seat with ``players``, seat 0 first (SPEC 5.3); KeyError
        when the variant is not played by that many."""
        return self.hand_size.seat_sizes(players, self.tile_count)

    def is_matador(self, low: int, high: int) -> bool:
        """Whether the tile [low-high] is a matador: [0-0] or a tile summing to the line sum."""
        return (low == 0 and high == 0) or low + high == self.line_sum

    def matadors(self) -> tuple[tuple[int, int], ...]:
        """Every matador of the set, written low-high, in ascending order."""
        tiles = [(0, 0)]
        for low in range(1, self.max_pip + 1):
            high = self.line_sum - low
            if low <= high <= self.max_pip:
                tiles.append((low, high))
        return tuple(tiles)

    def applicable(self, rule: str) -> bool:
        """Whether ``rule`` has any effect under the other rules of this variant."""
        return parameter(rule).applies(self)

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        """Pickle as the fields, with the read-only mappings as dicts (worker processes
        of ``matador simulate`` receive the rules this way)."""
        state = {item.name: getattr(self, item.name) for item in fields(self)}
        state["chosen"] = dict(self.chosen)
        state["provenance"] = dict(self.provenance)
        return (_unpickle_rules, (state,))


def _unpickle_rules(state: dict[str, Any]) -> Rules:
    """Rules from the state :meth:`Rules.__reduce__` made, the mappings read-only again."""
    state["chosen"] = MappingProxyType(state["chosen"])
    state["provenance"] = MappingProxyType(state["provenance"])
    return Rules(**state)


def as_plain(value: Any) -> Any:
    """A rule value as plain JSON-ready data (enums to text, dataclasses to dicts)."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, PerPlayers):
        return value.as_dict()
    if isinstance(value, (EndState, MatadorMode, Target)):
        return {key: as_plain(getattr(value, key)) for key in value.__dataclass_fields__}
    if isinstance(value, tuple):
        return [as_plain(item) for item in value]
    return value
