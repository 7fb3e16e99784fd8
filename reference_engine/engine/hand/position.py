"""A hand in play built from what the player to act sees, for `matador explain`.

:meth:`Hand.at_position <reference_engine.engine.hand.Hand.at_position>` is the
public way in; this module fills in what the player cannot see.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ...errors import DealError
from ...rules.model import Rules
from ..compiled import compiled
from ..deal import Deal
from ..ends import OpenEnd
from ..phase import Phase
from ..tiles import Tile
from .base import HandFields

_H = TypeVar("_H", bound=HandFields)


def at_position(
    cls: type[_H],
    rules: Rules,
    *,
    players: int,
    hand: Sequence[Tile],
    ends: tuple[int, int],
    boneyard: int,
    drawn: Tile | None = None,
) -> _H:
    """A hand of class ``cls`` in play as the player to act (seat 0) sees it.

    ``hand`` is what seat 0 holds, ``ends`` the values of two plain open ends,
    ``boneyard`` how many tiles are left to draw, ``drawn`` the tile drawn this
    turn under a one-draw rule. What the player cannot see is filled in: the
    other seats hold one unseen tile each and the boneyard holds unseen tiles
    (neither changes what seat 0 may do now).
    """
    if players not in rules.players:
        raise DealError(f"{rules.variant} is not played by {players}")
    table = compiled(rules)
    tiles = table.tiles
    held = set(hand)
    unseen = [tile for tile in tiles if tile not in held]
    if len(held) != len(hand) or not held <= set(tiles):
        raise DealError("the hand repeats a tile or holds one the set does not have")
    if boneyard + players - 1 > len(unseen):
        raise DealError(f"the double-{rules.max_pip} set has too few tiles for that boneyard")
    if drawn is not None and drawn not in held:
        raise DealError(f"the drawn tile {drawn} is not in the hand")
    others = [(tile,) for tile in unseen[: players - 1]]
    stock = tuple(unseen[players - 1 : players - 1 + boneyard])
    deal = Deal(hands=(tuple(hand), *others), boneyard=stock)
    position = cls.__new__(cls)
    masks = list(map(table.mask, deal.hands))
    position._set_up(rules, deal, masks, [table.bit[tile] for tile in stock])
    position.phase = Phase.PLAY
    position._line = table.line(tuple(table.kind(OpenEnd.plain(value)) for value in ends))
    if drawn is not None and table.one_draw_per_turn:
        position._single_drawn = table.index[drawn]
    return position
