"""Deals: every hand, the boneyard in draw order, and the designated opener."""

from __future__ import annotations

import random
from collections.abc import Sequence, Set
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..errors import DealError
from ..rules.model import ALL_TILES, PLAYER_COUNT_KEYS, Rules
from .compiled import Compiled, compiled
from .draws import number_below, shuffle
from .tiles import Tile, full_set

#: A deal as the engine holds it (:meth:`Deal.held`): the tables, each seat's tiles as
#: a mask, the boneyard's tiles in draw order as their bits, and the rules it was
#: checked for.
Packed = tuple[Compiled, tuple[int, ...], tuple[int, ...], Rules]

#: The fields of a deal as data.
DEAL_FIELDS = ("hands", "boneyard", "designated")

#: The rule that fixes each hand's designated seat and how its lot is made (SPEC 6.2).
DESIGNATED_RULE = "designated_opener"


def lot_is_drawn(rules: Rules) -> bool:
    """Whether the rules make the lot for the designated seat by drawing tiles (SPEC 6.2),
    so that a lot kept in a record can be judged (:mod:`.lot`)."""
    rule = rules.designated_opener
    return rule is not None and rule.drawn


@dataclass(frozen=True)
class DealProblem:
    """One way a deal breaks the rules: where in the deal, what is wrong, and the rule.

    ``path`` leads from the deal to the faulty part, as keys and indices:
    ``("hands", 2)`` is seat 2's hand, ``("boneyard", 5)`` the sixth tile to be
    drawn, ``()`` the deal as a whole. ``rule`` is the rule parameter that
    decides it, when one does (``players``, ``hand_size``, ``max_pip``,
    ``designated_opener``); a tile that cannot be read has none.
    """

    path: tuple[str | int, ...]
    message: str
    rule: str | None = None


@dataclass(frozen=True)
class Deal:
    """The tiles of one hand before play: what each seat holds and the boneyard order.

    ``designated`` is the seat the rules' lot names (needed only by variants
    that choose an opener by lot, or fall back on one when nobody holds a double).
    """

    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    designated: int | None = None

    @classmethod
    def shuffled(
        cls,
        rules: Rules,
        players: int,
        rng: random.Random,
        *,
        designated: int | None = None,
    ) -> Deal:
        """A random deal drawn from ``rng``; the lot is drawn too when the rules need it.

        Each hand is given in canonical order; the boneyard keeps the shuffled order.
        The deal is made as the engine holds it (:meth:`packed`): ``hands`` and
        ``boneyard`` are written out as tiles when first read.
        """
        check_players(rules, players)
        table = compiled(rules)
        # The tiles' bits, shuffled: the same draws as shuffling the tiles themselves,
        # and each hand's mask is the sum of its share.
        order = list(table.bits)
        shuffle(rng, order)
        masks: list[int] = []
        start = 0
        for size in _hand_sizes(table, rules, players):
            masks.append(sum(order[start : start + size]))
            start += size
        stock = tuple(order[start:])
        given = designated
        if designated is None and table.needs_designated:
            if table.lot_by_drawing:
                designated = lowest_drawn(table, players, rng)
            else:
                designated = number_below(rng, players)
        # Its hands and boneyard are the set, dealt as the rules say: the deal is kept
        # as the engine holds it, and written out as tiles only when read (__getattr__).
        deal = cls.__new__(cls)
        fields = deal.__dict__
        fields["designated"] = designated
        fields["_packed"] = (table, tuple(masks), stock, rules)
        if given is not None and deal._designated_problems(rules, table, players):
            deal.__dict__.update(hands=deal.hands, boneyard=deal.boneyard)
            del deal.__dict__["_packed"]  # a seat given by the caller is checked as in any deal
        return deal

    if not TYPE_CHECKING:  # to type checkers, ``hands`` and ``boneyard`` are plain fields

        def __getattr__(self, name: str) -> Any:
            """``hands`` and ``boneyard`` of a deal :meth:`shuffled` made, written out
            as tiles when first read (from what :meth:`packed` answers)."""
            kept = self.__dict__.get("_packed") if name in ("hands", "boneyard") else None
            if kept is None:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            table, masks, stock, _ = kept
            self.__dict__["hands"] = tuple(map(table.tiles_of, masks))
            tiles = table.tiles
            self.__dict__["boneyard"] = tuple([tiles[bit.bit_length() - 1] for bit in stock])
            return self.__dict__[name]

    def packed(self, rules: Rules) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The deal as the engine holds it: each seat's tiles as a bitmask of tile
        indices (:class:`~reference_engine.engine.compiled.Compiled`), and the
        boneyard's tiles in draw order, each as its bit (``1 << index``).

        Raises :class:`DealError` unless the deal fits ``rules``, as :meth:`check`.
        The answer is kept with the deal (which is immutable): a deal that fits
        rules fits all rules with the same values, so it is checked once, and a
        deal from :meth:`shuffled` not at all.
        """
        _, masks, stock, _ = self.held(rules)
        return masks, stock

    def held(self, rules: Rules) -> Packed:
        """What :meth:`packed` answers, with the compiled tables of ``rules`` whose
        indices it gives first, and ``rules`` last (what a :class:`Hand` starts from)."""
        kept: Packed | None = self.__dict__.get("_packed")
        if kept is not None and (kept[3] is rules or kept[0] is compiled(rules)):
            return kept
        table = compiled(rules)
        self.check(rules)
        masks = tuple(map(table.mask, self.hands))
        stock = tuple(map(table.bit.__getitem__, self.boneyard))
        kept = (table, masks, stock, rules)
        object.__setattr__(self, "_packed", kept)
        return kept

    def __getstate__(self) -> dict[str, Any]:
        """The fields only: what :meth:`packed` kept belongs to this process's tables."""
        return {name: getattr(self, name) for name in DEAL_FIELDS}

    @classmethod
    def from_data(cls, data: Any, rules: Rules) -> Deal:
        """A deal from plain data: ``{"hands": [["6-6", ...], ...], "boneyard": [...], ...}``.

        ``boneyard`` may be left out: the undealt tiles then follow in canonical order.
        Raises :class:`DealError` with the first problem :func:`deal_problems` finds.
        """
        deal, problems = _read(data, rules)
        if deal is not None:
            problems = deal.problems(rules)
        if problems or deal is None:
            raise DealError(problems[0].message)
        return deal

    def check(self, rules: Rules) -> None:
        """Raise :class:`DealError` unless this deal fits ``rules``."""
        problems = self.problems(rules)
        if problems:
            raise DealError(problems[0].message)

    def problems(self, rules: Rules, players: int | None = None) -> list[DealProblem]:
        """Every way this deal fails ``rules`` (and a match of ``players``, when given).

        In this order: the number of seats, each hand's size, the tiles (each of
        the set exactly once, hands and boneyard together), the designated seat.
        A deal that fits costs a few comparisons: this runs before every hand.
        """
        found: list[DealProblem] = []
        seats = len(self.hands)
        if players is not None and seats != players:
            found.append(
                DealProblem(
                    ("hands",),
                    f"the deal has {_count(seats, 'hand')}, "
                    f"not one for each of the {players} players",
                    "players",
                )
            )
        elif seats not in rules.players:
            allowed = ", ".join(map(str, rules.players))
            found.append(
                DealProblem(
                    ("hands",),
                    f"the deal has {_count(seats, 'hand')}; "
                    f"{rules.variant} is played by {allowed} players",
                    "players",
                )
            )
        table = compiled(rules)
        if not found:
            sizes = _hand_sizes(table, rules, seats)
            each = f"{seats} players get {sizes[0]} each"
            found.extend(
                DealProblem(
                    ("hands", seat),
                    f"seat {seat} holds {len(hand)} tiles; "
                    + (each if len(set(sizes)) == 1 else f"every tile is dealt: it gets {size}"),
                    "hand_size",
                )
                for seat, (hand, size) in enumerate(zip(self.hands, sizes, strict=True))
                if len(hand) != size
            )
        dealt = len(self.boneyard) + sum(map(len, self.hands))
        if dealt != len(table.tiles) or set(self.boneyard).union(*self.hands) != table.tile_set:
            # The tiles are not exactly the set, each once: say what is wrong, and where.
            found.extend(_tile_problems(self, rules, table.tile_set))
        found.extend(self._designated_problems(rules, table, seats if players is None else players))
        return found

    def _designated_problems(self, rules: Rules, table: Compiled, seats: int) -> list[DealProblem]:
        designated = self.designated
        rule = DESIGNATED_RULE if table.needs_designated else None
        if designated is None:
            if table.needs_designated:
                return [
                    DealProblem(
                        ("designated",),
                        "these rules choose an opener by lot: give the deal's designated seat",
                        rule,
                    )
                ]
            return []
        if isinstance(designated, bool) or not isinstance(designated, int):
            return [DealProblem(("designated",), "the designated seat must be a seat number", rule)]
        if not 0 <= designated < seats:
            seat_numbers = f"one of 0..{seats - 1}" if seats > 0 else "a seat: there are none"
            return [
                DealProblem(
                    ("designated",),
                    f"designated seat {designated} is not {seat_numbers}",
                    rule,
                )
            ]
        return []

    def to_data(self) -> dict[str, Any]:
        """This deal as plain data (the inverse of :meth:`from_data`)."""
        data: dict[str, Any] = {
            "hands": [[str(tile) for tile in hand] for hand in self.hands],
            "boneyard": [str(tile) for tile in self.boneyard],
        }
        if self.designated is not None:
            data["designated"] = self.designated
        return data


def lowest_drawn(table: Compiled, players: int, rng: random.Random) -> int:
    """The seat a lot by drawing names: each seat draws a tile, the fewest pips lead.

    Seats tied for the lowest draw again from what is left (SPEC 6.2); the drawn
    tiles then go back into the set, which is shuffled for the deal.
    """
    pool: list[int] = []
    seats = list(range(players))
    while len(seats) > 1:
        if len(pool) < len(seats):
            pool = list(range(len(table.tiles)))
            shuffle(rng, pool)
        drawn = [table.pips[pool.pop()] for _ in seats]
        lowest = min(drawn)
        seats = [seat for seat, pips in zip(seats, drawn, strict=True) if pips == lowest]
    return seats[0]


def _hand_sizes(table: Compiled, rules: Rules, players: int) -> tuple[int, ...]:
    """Each seat's hand size with ``players`` (KeyError, as from the rules, when none)."""
    sizes = table.hand_sizes.get(players)
    return rules.hand_size.seat_sizes(players, len(table.tiles)) if sizes is None else sizes


def _tile_problems(deal: Deal, rules: Rules, known: Set[Tile]) -> list[DealProblem]:
    """Tiles outside the set, tiles dealt twice (at the second place), tiles missing."""
    found: list[DealProblem] = []
    places: dict[Tile, str] = {}
    spots = [
        (("hands", seat, index), f"seat {seat}'s hand", tile)
        for seat, hand in enumerate(deal.hands)
        for index, tile in enumerate(hand)
    ] + [(("boneyard", index), "the boneyard", tile) for index, tile in enumerate(deal.boneyard)]
    for path, place, tile in spots:
        if tile not in known:
            found.append(
                DealProblem(path, f"{tile} is not in the double-{rules.max_pip} set", "max_pip")
            )
        elif tile in places:
            found.append(
                DealProblem(path, f"{tile} is dealt twice (also in {places[tile]})", "max_pip")
            )
        else:
            places[tile] = place
    missing = [tile for tile in full_set(rules.max_pip) if tile not in places]
    if missing:
        found.append(
            DealProblem(
                (),
                f"neither in a hand nor in the boneyard: {', '.join(map(str, missing))}",
                "max_pip",
            )
        )
    return found


def deal_problems(data: Any, rules: Rules, players: int | None = None) -> list[DealProblem]:
    """Every way ``data`` fails to be a deal of ``rules`` (for ``players``), each located."""
    deal, problems = _read(data, rules)
    return problems if deal is None else deal.problems(rules, players)


def _read(data: Any, rules: Rules) -> tuple[Deal | None, list[DealProblem]]:
    """The deal written in ``data``, or None and why it cannot be read."""
    if not isinstance(data, dict):
        return None, [DealProblem((), "a deal is a mapping with hands, boneyard and designated")]
    problems = [
        DealProblem(
            (str(name),),
            f"unknown deal field {name!r} (the fields are {', '.join(DEAL_FIELDS)})",
        )
        for name in sorted(set(data) - set(DEAL_FIELDS), key=repr)
    ]
    raw_hands = data.get("hands")
    if not isinstance(raw_hands, list):
        problems.append(DealProblem(("hands",), "deal.hands must be a list of lists of tiles"))
        return None, problems
    hands: list[tuple[Tile, ...]] = []
    for seat, raw_hand in enumerate(raw_hands):
        if isinstance(raw_hand, list):
            hands.append(_read_tiles(raw_hand, ("hands", seat), problems))
        else:
            problems.append(
                DealProblem(("hands", seat), "deal.hands must be a list of lists of tiles")
            )
    raw_boneyard = data.get("boneyard")
    boneyard: tuple[Tile, ...] = ()
    if raw_boneyard is None:
        dealt = {tile for hand in hands for tile in hand}
        boneyard = tuple(tile for tile in full_set(rules.max_pip) if tile not in dealt)
    elif isinstance(raw_boneyard, list):
        boneyard = _read_tiles(raw_boneyard, ("boneyard",), problems)
    else:
        problems.append(DealProblem(("boneyard",), "deal.boneyard must be a list of tiles"))
    designated = data.get("designated")
    if designated is not None and (isinstance(designated, bool) or not isinstance(designated, int)):
        problems.append(DealProblem(("designated",), "deal.designated must be a seat number"))
    if problems:
        return None, problems
    return Deal(hands=tuple(hands), boneyard=boneyard, designated=designated), []


def _read_tiles(
    texts: list[Any], path: tuple[str | int, ...], problems: list[DealProblem]
) -> tuple[Tile, ...]:
    """The tiles written in ``texts``; each one that cannot be read adds a problem."""
    tiles = []
    for index, text in enumerate(texts):
        try:
            tiles.append(_tile(text))
        except DealError as error:
            problems.append(DealProblem((*path, index), str(error)))
    return tuple(tiles)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def needs_designated(rules: Rules) -> bool:
    """Whether the rules can call on a designated opener."""
    return compiled(rules).needs_designated


def check_players(rules: Rules, players: int) -> None:
    """Raise :class:`DealError` unless the rules allow ``players`` players."""
    if players not in rules.players:
        allowed = ", ".join(map(str, rules.players))
        raise DealError(f"{rules.variant} is played by {allowed} players, not {players}")


#: What a value read from JSON is, in words, for messages.
_JSON_KINDS: dict[type, str] = {
    type(None): "null",
    bool: "true or false",
    int: "a number",
    float: "a number",
    list: "a list",
    dict: "a mapping",
}


def _tile(text: object) -> Tile:
    if not isinstance(text, str):
        # Not the value itself: a number or a nested list can be too big to print.
        shown = _JSON_KINDS.get(type(text), "a value")
        raise DealError(f'{shown} is not a tile (write it like "2-5")')
    try:
        return Tile.parse(text)
    except ValueError as error:
        raise DealError(str(error)) from None


def seats_after(seat: int, players: int) -> Sequence[int]:
    """Every seat in turn order, starting with the one after ``seat``."""
    return [(seat + step) % players for step in range(1, players + 1)]


def shape_of(rules: Rules, players: int) -> tuple[int, ...] | None:
    """The tiles ``rules`` deal each seat for ``players`` (None: not played by that many)."""
    try:
        return rules.seat_sizes(players)
    except (KeyError, ValueError):
        return None


def sized(rules: Rules, players: int, shape: tuple[int, ...]) -> Rules:
    """``rules`` dealing ``shape`` to ``players`` (the same rules when they already do): a
    judge comparing rule sets on another engine's deals plays each on the deal it got."""
    key = (id(rules), players, shape)
    known = _SIZED.get(key)
    if known is not None and known[0] is rules:
        return known[1]
    found = rules
    if shape_of(rules, players) != shape:
        entry = {PLAYER_COUNT_KEYS[players]: shape[0] if len(set(shape)) == 1 else ALL_TILES}
        found = replace(rules, hand_size=replace(rules.hand_size, **entry))
    if len(_SIZED) > 4096:
        _SIZED.clear()
    _SIZED[key] = (rules, found)
    return found


#: The rules :func:`sized` made, by the rules they came from (kept alive beside them).
_SIZED: dict[tuple[int, int, tuple[int, ...]], tuple[Rules, Rules]] = {}
