"""The hand an adapter deals: the runner's deal read into pairs of numbers, and what it needs.

:func:`table_of` reads a ``new_hand`` deal (tiles in the notation, the boneyard
in draw order or left out, the designated seat) into a :class:`Table` for the
adapter's ``start``, refusing with ``bad_deal`` what no engine of the match could
play (a deal that cannot be read, another number of hands than players, a seat
that is not one of the match's). A deal that gives no boneyard leaves the rest
of the set in canonical order (:func:`undealt`). :func:`shape_of` says what the
kit needs to know of a variant: whether it is played in sides, and its set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..conformance.protocol.codes import ErrorCode
from ..conformance.protocol.interface import EngineRefusal
from ..errors import NotationError
from .moves import Pair, tile_of


@dataclass(frozen=True)
class Table:
    """A hand to deal, as the runner gives it: who plays, what, and with which tiles."""

    variant: str
    options: Mapping[str, str]
    players: int
    #: Each seat's tiles, seat 0 first, as (low, high) pairs.
    hands: tuple[tuple[Pair, ...], ...]
    #: The undealt tiles in draw order.
    boneyard: tuple[Pair, ...]
    #: The seat the lot names, when the rules use one.
    designated: int | None
    #: Which hand of the match this is (0 first).
    number: int
    #: The deal exactly as the runner sent it.
    data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def every_tile(self) -> tuple[Pair, ...]:
        """Every tile of the deal: the hands in seat order, then the boneyard."""
        return tuple(tile for hand in self.hands for tile in hand) + self.boneyard


def table_of(
    deal: Mapping[str, Any],
    variant: str,
    options: Mapping[str, str],
    players: int,
    number: int,
    max_pip: int,
) -> Table:
    """``deal`` read for the adapter; EngineRefusal(``bad_deal``) for one no match can play."""
    try:
        hands = tuple(tuple(tile_of(text) for text in hand) for hand in deal["hands"])
        given = deal.get("boneyard")
        boneyard = (
            tuple(tile_of(text) for text in given) if given is not None else undealt(hands, max_pip)
        )
    except (KeyError, TypeError, NotationError) as error:
        raise EngineRefusal(ErrorCode.BAD_DEAL, f"the deal cannot be read: {error}") from None
    if len(hands) != players:
        raise EngineRefusal(ErrorCode.BAD_DEAL, f"{len(hands)} hands for {players} players")
    designated = deal.get("designated")
    if designated is not None and designated not in range(players):
        raise EngineRefusal(ErrorCode.BAD_DEAL, f"seat {designated} is not in this match")
    return Table(
        variant=variant,
        options=dict(options),
        players=players,
        hands=hands,
        boneyard=boneyard,
        designated=designated,
        number=number,
        data=dict(deal),
    )


def undealt(hands: Sequence[Sequence[Pair]], max_pip: int) -> tuple[Pair, ...]:
    """The tiles of the set no hand holds, in canonical order: the boneyard of a deal
    that gives none (spec/protocol.md)."""
    dealt = {tile for hand in hands for tile in hand}
    return tuple(
        (low, high)
        for low in range(max_pip + 1)
        for high in range(low, max_pip + 1)
        if (low, high) not in dealt
    )


def shape_of(variant: str, options: Mapping[str, str]) -> tuple[bool, int]:
    """Whether ``variant`` with ``options`` is played two against two, and its set's
    highest pip (double-six when the variant is not shipped)."""
    from ..rules import Catalog, RulesError

    try:
        rules = Catalog.shipped().resolve(variant, dict(options))
    except RulesError:
        return False, 6
    return rules.teams, rules.max_pip
