"""When a player may draw, and when pass (spec/SPEC.md sections 6.5 and 8.2): decided once.

:func:`draw_ruling` and :func:`pass_ruling` are the turn's two predicates. Each
takes what the rules say (a :class:`~.compiled.Compiled` table) and the
:class:`Facts` of the turn, and answers ``None`` when the action is legal, or the
:class:`Ruling` that refuses it: its reason code, the rule that decides it and
what a player is told. Everything that needs the answer is built from them:

* :meth:`Hand.legal_actions <reference_engine.engine.hand.Hand.legal_actions>`
  offers a draw or a pass exactly where they allow it. For speed it reads an
  ordinary turn's answer from :func:`ordinary`, which asks the predicates once
  per table for each turn an ordinary turn can be (with a play or without, only
  matadors to play or not, the boneyard open or not), and asks them directly in
  any other turn (the opening, after a single draw, the opener's second tile);
* the random playout (:mod:`.playout`) reads the same answers;
* a refused draw or pass is explained by :mod:`.refusals` with the very ruling
  that refused it, and its details (how many tiles are left, how many must stay).

Placements are decided by the compiled tables of the line (which placements
each tile has on each end); the predicates decide everything else of a turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from ..errors import Reason
from .actions import DRAW, PASS, AnyAction

if TYPE_CHECKING:
    from .compiled import Compiled


@dataclass(frozen=True, slots=True)
class Facts:
    """What the turn's predicates need to know of the player to act."""

    #: The hand is not open yet (its first tile is still to be put down).
    opening: bool = False
    #: (Opening) nobody held a double, and the designated opener draws until one comes.
    drawing_for_double: bool = False
    #: (Opening, drawing for a double) the opener holds a double that may open.
    holds_opening_double: bool = False
    #: The boneyard holds a tile (whatever the reserve).
    boneyard_left: bool = False
    #: A single draw was made this turn (``draws_per_turn: one``).
    single_drawn: bool = False
    #: (After a single draw) the tile drawn has a placement.
    drawn_fits: bool = False
    #: The opener must add the next tile (``opener_plays_again``).
    forced: bool = False
    #: The player holds a tile with a placement on the open ends.
    has_play: bool = False
    #: Every such tile is a matador.
    only_matadors: bool = False
    #: The rules let this player take a tile now and the reserve is kept.
    can_draw: bool = False


@dataclass(frozen=True, slots=True)
class Ruling:
    """Why an action is refused: a reason code, the rule behind it, what a player is told.

    ``message`` may name ``{boneyard}`` (tiles left) and ``{kept}`` (tiles that
    must stay), filled in when the refusal is explained.
    """

    reason: Reason
    rule: str | None
    message: str


OPEN_FIRST_DRAW = Ruling(Reason.DRAW_NOT_ALLOWED, "opener", "the hand must be opened first")
OPEN_FIRST_PASS = Ruling(Reason.PASS_NOT_ALLOWED, "opener", "the hand must be opened first")
ONE_DRAW = Ruling(Reason.DRAW_NOT_ALLOWED, "draws_per_turn", "only one tile may be drawn per turn")
NOBODY_DRAWS = Ruling(Reason.DRAW_NOT_ALLOWED, "draw_when", "nobody draws in this game")
RESERVE_KEPT = Ruling(
    Reason.RESERVE_REACHED,
    "reserve",
    "the boneyard is down to {boneyard} tile(s); {kept} must stay",
)
OPENER_PLAYS_AGAIN = Ruling(
    Reason.MUST_PLAY, "opener_plays_again", "the opener must add the next tile"
)
DRAW_INSTEAD_REFUSED = Ruling(
    Reason.DRAW_NOT_ALLOWED,
    "draw_when",
    "you hold a tile you can play, and this game does not let you draw instead",
)
MUST_PLAY_DRAWN = Ruling(
    Reason.MUST_PLAY_DRAWN, "after_single_draw", "the drawn tile fits and must be played"
)
MUST_DRAW = Ruling(
    Reason.MUST_DRAW, "draw_when", "you cannot play, and the boneyard has tiles to draw"
)
PASS_ONLY_WITHOUT_DRAW = Ruling(
    Reason.PASS_NOT_ALLOWED, "pass_when", "a player may pass only when nothing can be drawn"
)
MUST_PLAY_MATADOR = Ruling(
    Reason.MUST_PLAY_MATADOR, "pass_when", "nothing else can be played, so a matador must be"
)
MUST_PLAY = Ruling(Reason.MUST_PLAY, "pass_when", "you hold a tile you can play")


def draw_ruling(table: Compiled, facts: Facts) -> Ruling | None:
    """None if the player to act may draw, else the ruling that refuses it."""
    if facts.opening:
        if facts.drawing_for_double and not facts.holds_opening_double and facts.boneyard_left:
            return None  # (nobody held a double: the opener draws until one comes)
        return OPEN_FIRST_DRAW
    if facts.single_drawn:
        return ONE_DRAW
    if not table.draws:
        return NOBODY_DRAWS
    if not facts.can_draw:
        return RESERVE_KEPT
    if not facts.has_play:
        return None  # a player who cannot place draws
    if facts.forced:
        return OPENER_PLAYS_AGAIN
    if table.draw_always or (table.draw_if_only_matadors and facts.only_matadors):
        return None
    return DRAW_INSTEAD_REFUSED


def pass_ruling(table: Compiled, facts: Facts) -> Ruling | None:
    """None if the player to act may pass, else the ruling that refuses it."""
    if facts.opening:
        return OPEN_FIRST_PASS
    if facts.single_drawn:
        if table.after_draw_any_tile:
            return None
        if table.after_draw_may_pass or not facts.drawn_fits:
            return None
        return MUST_PLAY_DRAWN
    if facts.forced and facts.has_play:
        return OPENER_PLAYS_AGAIN
    if not facts.has_play:
        return MUST_DRAW if facts.can_draw else None
    if facts.can_draw:
        return PASS_ONLY_WITHOUT_DRAW
    if table.pass_always or (table.pass_if_only_matadors and facts.only_matadors):
        return None
    return MUST_PLAY_MATADOR if facts.only_matadors else MUST_PLAY


def extra_action(table: Compiled, facts: Facts) -> AnyAction | None:
    """The draw or pass the predicates allow beside the placements (at most one is:
    a pass is never allowed while a draw is)."""
    if draw_ruling(table, facts) is None:
        return DRAW
    if pass_ruling(table, facts) is None:
        return PASS
    return None


class Ordinary(NamedTuple):
    """What the predicates allow in an ordinary turn (the hand open, no single draw made,
    no second opening tile owed), asked once per table for every such turn there is."""

    #: The one action of a player with nothing to place (a draw while the boneyard is
    #: open, else a pass), by whether the boneyard is open.
    without_play: tuple[tuple[AnyAction, ...], tuple[AnyAction, ...]]
    #: The draw or pass beside a placement, indexed ``2 * only_matadors + can_draw``.
    beside: tuple[AnyAction | None, ...]
    #: Whether a draw or pass is ever allowed beside a placement.
    optional: bool


@cache
def ordinary(table: Compiled) -> Ordinary:
    """The predicates' answers for every ordinary turn under ``table``'s rules: what
    :meth:`Hand.legal_actions` and the random playout read instead of asking each turn."""
    # (Under rules where nobody draws, the boneyard is never open: a turn with it open
    # is answered as one with it closed, and never asked about.)
    opens = (False, table.draws)
    lonely = []
    for can_draw in opens:
        extra = extra_action(table, Facts(can_draw=can_draw))
        lonely.append(() if extra is None else (extra,))
    beside = tuple(
        extra_action(table, Facts(has_play=True, only_matadors=only, can_draw=can_draw))
        for only in (False, True)
        for can_draw in opens
    )
    return Ordinary((lonely[0], lonely[1]), beside, any(extra is not None for extra in beside))


__all__ = [
    "Facts",
    "Ordinary",
    "Ruling",
    "draw_ruling",
    "extra_action",
    "ordinary",
    "pass_ruling",
]
