"""A hand in play as the whole table stands, whatever rules brought it there.

A :class:`TableState` is what every seat holds, the open ends, the tiles left
to draw, the seat to act and what the turn so far holds (consecutive passes, a
tile just drawn, an opening just laid). It follows any line of play by plain
mechanics (:meth:`TableState.after`: a tile leaves the hand that lays it, a draw
takes the next tile, a pass is counted), so it can follow another engine's line
where the rules would refuse a step; :func:`hand_at` then puts a
:class:`~.hand.Hand` under any rules at that state, to ask what those rules
allow there. A judge comparing rule sets on an engine's games uses both: every
check is made at the state the engine reached, under each rule set on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import NotationError
from ..notation import OPEN_END_PATTERN, SECTION_PATTERN
from ..rules.model import Rules
from ..rules.vocabulary import MatadorAccess, MatchRule
from .actions import DRAW, PASS, AnyAction, Play
from .compiled import compiled
from .deal import Deal
from .ends import OpenEnd
from .hand import Hand
from .phase import Phase
from .scoring import Termination
from .tiles import Tile


def parse_end(text: str) -> OpenEnd:
    """An open end as spec/protocol.md writes it: ``5``, or ``2/5 identical free``."""
    words = text.split()
    try:
        values = tuple(int(value) for value in words[0].split("/")) if words else ()
        if len(words) == 1 and len(values) == 1:
            return OpenEnd.plain(values[0])
        if len(words) == 3 and values:
            return OpenEnd(values, MatchRule(words[1]), MatadorAccess(words[2]))
    except ValueError:
        pass
    raise NotationError(f"{text!r} is not an open end in the notation")


@dataclass(frozen=True)
class TableState:
    """A hand in play: every seat's tiles, the open ends, the draw pile, the seat to act."""

    hands: tuple[tuple[Tile, ...], ...]
    ends: tuple[OpenEnd, ...]
    #: The tiles left to draw, in draw order.
    boneyard: tuple[Tile, ...]
    to_act: int
    opener: int | None = None
    #: Passes in a row before this turn.
    passes: int = 0
    #: The tile the seat to act drew last this turn (a one-draw rule plays from it).
    drawn: Tile | None = None
    #: Whether the seat to act laid the opening tile as the previous action.
    just_opened: bool = False
    #: What :func:`hand_at` built of this table under each set of tables, to build again.
    _built: dict[int, tuple[Any, ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    @classmethod
    def dealt(cls, deal: Deal, to_act: int) -> TableState:
        """The table as dealt, nothing down, ``to_act`` first."""
        return cls(tuple(tuple(hand) for hand in deal.hands), (), tuple(deal.boneyard), to_act)

    @property
    def opened(self) -> bool:
        """Whether the opening tile is down."""
        return self.opener is not None

    def after(
        self, action: AnyAction, seat: int, ends: Sequence[OpenEnd] | None = None
    ) -> TableState:
        """The table once ``seat`` has done ``action``, whatever the rules say of it.

        A tile laid leaves ``ends`` open (the ends a placement's notation gives, for
        an inline placement, when ``ends`` is not known); the next seat is the one
        after ``seat``, but after a draw, which leaves the drawer to act. Raises
        :class:`ValueError` when the action cannot be carried out at all: a tile
        ``seat`` does not hold, a draw from an empty pile.
        """
        players = len(self.hands)
        following = (seat + 1) % players
        # (built directly rather than with dataclasses.replace: a judge follows thousands)
        if action is DRAW:
            if not self.boneyard:
                raise ValueError("a draw from an empty boneyard")
            tile, *rest = self.boneyard
            hands = self._with(seat, (*self.hands[seat], tile))
            return TableState(hands, self.ends, tuple(rest), seat, self.opener, 0, tile, False)
        if action is PASS:
            return TableState(
                self.hands, self.ends, self.boneyard, following, self.opener, self.passes + 1
            )
        assert isinstance(action, Play)
        if action.tile not in self.hands[seat]:
            raise ValueError(f"seat {seat} does not hold {action.tile}")
        hands = self._with(seat, tuple(t for t in self.hands[seat] if t != action.tile))
        opening = action.is_opening
        return TableState(
            hands,
            tuple(ends) if ends is not None else self._ends_after(action),
            self.boneyard,
            following,
            seat if opening else self.opener,
            0,
            None,
            opening,
        )

    def _with(self, seat: int, held: tuple[Tile, ...]) -> tuple[tuple[Tile, ...], ...]:
        return (*self.hands[:seat], held, *self.hands[seat + 1 :])

    def _ends_after(self, play: Play) -> tuple[OpenEnd, ...]:
        """The ends an inline placement's own notation says it leaves (or the opening's)."""
        if play.is_opening:
            return (OpenEnd.plain(play.tile.low), OpenEnd.plain(play.tile.high))
        if play.open is None or play.end is None or play.end >= len(self.ends):
            raise ValueError(f"the ends after {play} are not known")
        ends = list(self.ends)
        ends[play.end] = OpenEnd.plain(play.open)
        return tuple(ends)


def state_of(hand: Hand) -> TableState:
    """The table ``hand`` stands at (its opening tile down), to follow on from it."""
    table = hand.table
    drawn = hand._single_drawn
    return TableState(
        tuple(hand.hand_of(seat) for seat in range(hand.players)),
        hand.ends,
        tuple(table.tiles[bit.bit_length() - 1] for bit in hand._boneyard[hand._drawn :]),
        hand.current,
        hand.opener,
        hand._passes,
        None if drawn is None else table.tiles[drawn],
        hand._forced_play,
    )


def hand_at(rules: Rules, state: TableState) -> Hand:
    """A :class:`Hand` under ``rules`` at ``state`` (the opening tile down), the seat to
    act to move: its legal actions are what ``rules`` allow there."""
    table = compiled(rules)
    built = state._built.get(id(table))
    if built is None or built[0] is not table:
        # the deal, the tiles as the tables number them and the line: the same for every
        # rule set that shares the tables, so a judge trying many asks for them once
        built = state._built[id(table)] = (
            table,
            Deal(hands=state.hands, boneyard=state.boneyard),
            [table.mask(held) for held in state.hands],
            [table.bit[tile] for tile in state.boneyard],
            table.line(tuple(table.kind(end) for end in state.ends)),
            next((seat for seat, held in enumerate(state.hands) if not held), None),
        )
    _, deal, masks, boneyard, line, out = built
    hand = Hand.__new__(Hand)
    hand._set_up(rules, deal, masks, boneyard, table)
    hand.phase = Phase.PLAY
    hand._line = line
    hand.current = state.to_act
    hand.opener = state.opener
    hand._passes = state.passes
    if state.drawn is not None and table.one_draw_per_turn:
        hand._single_drawn = table.index[state.drawn]
    if state.just_opened and table.opener_plays_again:
        hand._forced_play = True
    if out is not None:
        hand._finish(Termination.DOMINO, went_out=out)
    elif state.passes >= len(state.hands):
        hand._finish(Termination.BLOCKED)
    return hand


def parse_position(text: str) -> TableState:
    """A position in the notation (spec/notation.md, "Positions"); raises
    :class:`NotationError` saying what is wrong. It is checked as far as the notation
    goes: every seat once from 0, each tile once, at least two ends, the seat to act a
    seat, the tile drawn in its hand; whether the tiles belong to a set is the rules'."""
    found: dict[str, str] = {}
    hands: dict[int, tuple[Tile, ...]] = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        section = SECTION_PATTERN.match(part)
        if section is None:
            raise NotationError(f"{part.strip()!r} is no section of a position")
        key, body = " ".join(section["key"].lower().split()), section["body"]
        if section["seat"] is not None:
            seat = int(section["seat"])
            if seat in hands:
                raise NotationError(f"seat {seat} is given twice")
            hands[seat] = tuple(sorted(_tiles(body)))
            continue
        if key in found:
            raise NotationError(f"{key!r} is given twice")
        found[key] = body
    for needed in ("ends", "to act"):
        if needed not in found:
            raise NotationError(f"a position needs {needed!r}")
    if sorted(hands) != list(range(len(hands))) or not 2 <= len(hands) <= 4:
        raise NotationError("a position gives every seat once, from seat 0: two to four seats")
    ends = tuple(_end(text.strip()) for text in found["ends"].split(","))
    if len(ends) < 2:
        raise NotationError("a position is after the opening: it has two ends or more")
    boneyard = _tiles(found.get("boneyard", ""))
    held = [tile for hand in hands.values() for tile in hand] + list(boneyard)
    if len(set(held)) != len(held):
        raise NotationError("a tile is held twice, or held and in the boneyard")
    to_act = _seat(found["to act"], len(hands), "the seat to act")
    opener = _seat(found["opener"], len(hands), "the opener") if "opener" in found else None
    drawn = _tiles(found["drawn"]) if "drawn" in found else ()
    if len(drawn) > 1 or (drawn and drawn[0] not in hands[to_act]):
        raise NotationError("the tile drawn is one tile, in the hand of the seat to act")
    passes = _number(found.get("passes", "0"), "passes")
    return TableState(
        tuple(hands[seat] for seat in range(len(hands))),
        ends,
        boneyard,
        to_act,
        opener,
        passes,
        drawn[0] if drawn else None,
    )


def position_text(state: TableState) -> str:
    """``state`` written in the notation, canonically (spec/notation.md, "Positions")."""
    parts = ["ends: " + ", ".join(end.notation for end in state.ends)]
    for seat, held in enumerate(state.hands):
        parts.append(f"seat {seat}:" + "".join(f" {tile}" for tile in sorted(held)))
    parts.append("boneyard:" + "".join(f" {tile}" for tile in state.boneyard))
    parts.append(f"to act: {state.to_act}")
    if state.passes:
        parts.append(f"passes: {state.passes}")
    if state.drawn is not None:
        parts.append(f"drawn: {state.drawn}")
    if state.opener is not None:
        parts.append(f"opener: {state.opener}")
    return "; ".join(parts)


def _tiles(body: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(word) for word in body.split())


def _end(text: str) -> OpenEnd:
    if OPEN_END_PATTERN.match(text) is None:
        raise NotationError(f"{text!r} is not an open end in the notation")
    return parse_end(text)


def _number(text: str, what: str) -> int:
    if not text.strip().isascii() or not text.strip().isdigit() or len(text.strip()) > 3:
        raise NotationError(f"{what} is a number, not {text.strip()!r}")
    return int(text.strip())


def _seat(text: str, players: int, what: str) -> int:
    seat = _number(text, what)
    if seat >= players:
        raise NotationError(f"{what} is seat {seat}, and the seats are 0 to {players - 1}")
    return seat
