"""Deals: every hand, the boneyard in draw order, and the designated opener."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence, Set
from dataclasses import dataclass
from typing import Any

from .compiled import Compiled, compiled
from .errors import DealError
from .rules.model import Rules
from .tiles import Tile, full_set


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
        """
        check_players(rules, players)
        table = compiled(rules)
        tiles = list(table.tiles)
        rng.shuffle(tiles)
        size = _hand_size(table, rules, players)
        hands = tuple(
            tuple(sorted(tiles[seat * size : (seat + 1) * size])) for seat in range(players)
        )
        if designated is None and table.needs_designated:
            designated = rng.randrange(players)
        return cls(hands=hands, boneyard=tuple(tiles[players * size :]), designated=designated)

    @classmethod
    def from_data(cls, data: Any, rules: Rules) -> Deal:
        """A deal from plain data: ``{"hands": [["6-6", ...], ...], "boneyard": [...], ...}``.

        ``boneyard`` may be left out: the undealt tiles then follow in canonical order.
        """
        if not isinstance(data, dict):
            raise DealError("a deal is a mapping with hands, boneyard and designated")
        unknown = set(data) - {"hands", "boneyard", "designated"}
        if unknown:
            raise DealError(f"unknown deal field(s): {', '.join(sorted(unknown))}")
        raw_hands = data.get("hands")
        if not isinstance(raw_hands, list) or not all(isinstance(h, list) for h in raw_hands):
            raise DealError("deal.hands must be a list of lists of tiles")
        hands = tuple(tuple(_tile(text) for text in hand) for hand in raw_hands)
        dealt = {tile for hand in hands for tile in hand}
        raw_boneyard = data.get("boneyard")
        if raw_boneyard is None:
            boneyard = tuple(tile for tile in full_set(rules.max_pip) if tile not in dealt)
        elif isinstance(raw_boneyard, list):
            boneyard = tuple(_tile(text) for text in raw_boneyard)
        else:
            raise DealError("deal.boneyard must be a list of tiles")
        designated = data.get("designated")
        if designated is not None and (
            isinstance(designated, bool) or not isinstance(designated, int)
        ):
            raise DealError("deal.designated must be a seat number")
        deal = cls(hands=hands, boneyard=boneyard, designated=designated)
        deal.check(rules)
        return deal

    def check(self, rules: Rules) -> None:
        """Raise :class:`DealError` unless this deal fits ``rules``."""
        players = len(self.hands)
        check_players(rules, players)
        table = compiled(rules)
        size = _hand_size(table, rules, players)
        for seat, hand in enumerate(self.hands):
            if len(hand) != size:
                raise DealError(
                    f"seat {seat} holds {len(hand)} tiles; {players} players get {size} each"
                )
        dealt = len(self.boneyard) + size * players
        if dealt != len(table.tiles) or set(self.boneyard).union(*self.hands) != table.tile_set:
            # The tiles are not exactly the set, each once: say what is wrong.
            _check_tiles(self, rules, table.tile_set)
        if self.designated is not None and not 0 <= self.designated < players:
            raise DealError(f"designated seat {self.designated} is not one of 0..{players - 1}")
        if self.designated is None and table.needs_designated:
            raise DealError("these rules choose an opener by lot: give the deal's designated seat")

    def to_data(self) -> dict[str, Any]:
        """This deal as plain data (the inverse of :meth:`from_data`)."""
        data: dict[str, Any] = {
            "hands": [[str(tile) for tile in hand] for hand in self.hands],
            "boneyard": [str(tile) for tile in self.boneyard],
        }
        if self.designated is not None:
            data["designated"] = self.designated
        return data


def _hand_size(table: Compiled, rules: Rules, players: int) -> int:
    """The hand size for ``players`` (KeyError, as from the rules, when they give none)."""
    size = table.hand_size.get(players)
    return rules.hand_size.for_players(players) if size is None else size


def _check_tiles(deal: Deal, rules: Rules, known: Set[Tile]) -> None:
    """Raise :class:`DealError` for tiles outside the set, tiles dealt twice, tiles missing."""
    every = [tile for hand in deal.hands for tile in hand] + list(deal.boneyard)
    strangers = sorted({tile for tile in every if tile not in known})
    if strangers:
        raise DealError(f"not in the double-{rules.max_pip} set: {', '.join(map(str, strangers))}")
    counts = Counter(every)
    repeated = sorted(tile for tile, count in counts.items() if count > 1)
    if repeated:
        raise DealError(f"dealt twice: {', '.join(map(str, repeated))}")
    missing = sorted(known - set(every))
    if missing:
        raise DealError(f"neither in a hand nor in the boneyard: {', '.join(map(str, missing))}")


def needs_designated(rules: Rules) -> bool:
    """Whether the rules can call on a designated opener."""
    return rules.applicable("designated_opener")


def check_players(rules: Rules, players: int) -> None:
    """Raise :class:`DealError` unless the rules allow ``players`` players."""
    if players not in rules.players:
        allowed = ", ".join(map(str, rules.players))
        raise DealError(f"{rules.variant} is played by {allowed} players, not {players}")


def _tile(text: object) -> Tile:
    if not isinstance(text, str):
        raise DealError(f'{text!r} is not a tile (write it like "2-5")')
    try:
        return Tile.parse(text)
    except ValueError as error:
        raise DealError(str(error)) from None


def seats_after(seat: int, players: int) -> Sequence[int]:
    """Every seat in turn order, starting with the one after ``seat``."""
    return [(seat + step) % players for step in range(1, players + 1)]
