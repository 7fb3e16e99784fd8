"""The draw or pass a player may take beside a placement (spec/SPEC.md section 8.2).

A player with nothing to place draws if the boneyard allows, else passes; a
player with a placement may also draw, or pass, only where ``draw_when`` or
``pass_when`` says so. :func:`beside` answers that one question for
:meth:`Hand.legal_actions <reference_engine.engine.hand.Hand.legal_actions>`
and for :func:`~reference_engine.engine.playout.play_out`, so the two share it.
"""

from __future__ import annotations

from .actions import DRAW, PASS, AnyAction
from .compiled import Compiled


def beside(table: Compiled, playable: int, can_draw: bool) -> AnyAction | None:
    """DRAW or PASS if a player holding the placeable tiles ``playable`` (not 0)
    may take it instead of placing one, else None; ``can_draw``: whether the
    boneyard still allows a draw (then only a draw is offered, never a pass)."""
    only_matadors = not playable & ~table.matador_mask
    if can_draw:
        if table.draw_always or (table.draw_if_only_matadors and only_matadors):
            return DRAW
        return None
    if table.pass_always or (table.pass_if_only_matadors and only_matadors):
        return PASS
    return None
