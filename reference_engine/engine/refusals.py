"""Why the rules refuse an action: its most specific reason code, the rule behind it, a message.

Nothing here decides what is legal. :meth:`Hand.verify
<reference_engine.engine.hand.Hand.verify>` refuses an action exactly when
:meth:`~reference_engine.engine.hand.Hand.legal_actions` does not offer it, and
only then asks :func:`why_not` which reason to give. The explanations read the
hand's own state (this module is the hand's, kept apart for length) and name
the condition of the legal-action generator (``Hand.legal_actions``) that
leaves the action out; unlike the generator, they are not a hot path and read
the rules directly, for clear messages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import IllegalActionError, Reason
from .actions import AnyAction, Draw, Pass, Play, end_name
from .phase import Phase

if TYPE_CHECKING:
    from .hand import Hand


#: The rule every variant shares (SPEC 7.1): touching halves add up to the line
#: sum, ``max_pip`` + 1. Spelt as the conformance reports spell it
#: (``FixedRule.SUM_RULE``; tests/test_rule_names.py holds the two equal).
SUM_RULE = "sum_rule"

#: A rule every variant shares, and the rule parameter whose sources state it:
#: the sources that give the set's size give the line sum with it.
CITED_AS = {SUM_RULE: "max_pip"}


def refuse(hand: Hand, reason: Reason, message: str, rule: str | None) -> IllegalActionError:
    """The refusal of an action for ``reason``, citing ``rule``'s sources."""
    cited = CITED_AS.get(rule, rule) if rule else None
    provenance = hand.rules.provenance.get(cited) if cited else None
    return IllegalActionError(
        reason, message, rule=rule, citations=provenance.cite if provenance else ()
    )


def _placement_rule(hand: Hand, play: Play, matador: bool, fits: bool) -> str:
    """The rule that refuses ``play`` on its end: the tile ``fits`` the end some other way, or not.

    A matador, or any tile on an end a matador left, is placed by the matador
    modes; a double that fits but not this way, by the rule of doubles; every
    other tile by the sum rule (never by the set's size, which it belongs to).
    """
    assert play.end is not None
    if matador or not hand.ends[play.end].is_plain:
        return "matador_modes"
    if fits and play.tile.is_double:
        return "doubles"
    return SUM_RULE


def why_not(hand: Hand, action: AnyAction) -> IllegalActionError:
    """The reason an action outside the legal set is refused (its most specific cause)."""
    if isinstance(action, Play):
        return _why_not_play(hand, action)
    if isinstance(action, Draw):
        return _why_not_draw(hand)
    if isinstance(action, Pass):
        return _why_not_pass(hand)
    return refuse(hand, Reason.PLACEMENT_NOT_ALLOWED, f"{action!r} is not an action", None)


def _why_not_play(hand: Hand, play: Play) -> IllegalActionError:
    seat = hand.current
    index = hand.table.index.get(play.tile)
    in_hand = index is not None and bool(hand._hands[seat] >> index & 1)
    if hand.phase is Phase.OPENING:
        if play.end is not None:
            return refuse(
                hand, Reason.NO_SUCH_END, "no tile is down yet: the first play names no end", None
            )
        if not in_hand:
            return refuse(
                hand, Reason.TILE_NOT_IN_HAND, f"seat {seat} does not hold {play.tile}", None
            )
        if hand._draw_for_double:
            return refuse(
                hand,
                Reason.MUST_DRAW,
                "nobody held a double: the opener draws until one comes",
                "nobody_has_double",
            )
        allowed = ", ".join(str(a) for a in hand._opening_actions())
        return refuse(
            hand,
            Reason.WRONG_OPENING,
            f"{play.tile} cannot open this hand (open with: {allowed})",
            hand.opening_rule,
        )
    if play.end is None:
        return refuse(
            hand, Reason.NO_SUCH_END, "the hand is open: say which end (L or R) to play on", None
        )
    if play.end >= len(hand._ends):
        names = ", ".join(end_name(end) for end in range(len(hand._ends)))
        missing = end_name(play.end)
        text = f"the line has no end {missing} (ends: {names})"
        return refuse(hand, Reason.NO_SUCH_END, text, None)
    if not in_hand:
        return refuse(hand, Reason.TILE_NOT_IN_HAND, f"seat {seat} does not hold {play.tile}", None)
    assert index is not None
    if (
        hand._single_drawn is not None
        and index != hand._single_drawn
        and not hand.table.after_draw_any_tile
    ):
        drawn = hand.table.tiles[hand._single_drawn]
        return refuse(
            hand,
            Reason.ONLY_DRAWN_TILE,
            f"after drawing, only the drawn tile ({drawn}) may be played",
            "after_single_draw",
        )
    end = hand.table.kinds[hand._ends[play.end]]
    entries = hand.table.placements_on(play.end, hand._ends[play.end])[index]
    matador = hand.table.is_matador(index)
    if not entries:
        return refuse(
            hand,
            Reason.DOES_NOT_MATCH_END,
            f"{play.tile} cannot go on end {end_name(play.end)} ({end})",
            _placement_rule(hand, play, matador, fits=False),
        )
    allowed = ", ".join(str(candidate) for candidate, _ in entries)
    return refuse(
        hand,
        Reason.PLACEMENT_NOT_ALLOWED,
        f"{play} is not a way {play.tile} may go on that end (allowed: {allowed})",
        _placement_rule(hand, play, matador, fits=True),
    )


def _why_not_draw(hand: Hand) -> IllegalActionError:
    if hand.phase is Phase.OPENING:
        return refuse(hand, Reason.DRAW_NOT_ALLOWED, "the hand must be opened first", "opener")
    if hand._single_drawn is not None:
        return refuse(
            hand, Reason.DRAW_NOT_ALLOWED, "only one tile may be drawn per turn", "draws_per_turn"
        )
    if not hand.table.draws:
        return refuse(hand, Reason.DRAW_NOT_ALLOWED, "nobody draws in this game", "draw_when")
    if not _can_draw(hand):
        return refuse(
            hand,
            Reason.RESERVE_REACHED,
            f"the boneyard is down to {hand.boneyard_count} tile(s); {hand._reserve} must stay",
            "reserve",
        )
    if hand._forced_play:
        return refuse(
            hand, Reason.MUST_PLAY, "the opener must add the next tile", "opener_plays_again"
        )
    return refuse(
        hand,
        Reason.DRAW_NOT_ALLOWED,
        "you hold a tile you can play, and this game does not let you draw instead",
        "draw_when",
    )


def _why_not_pass(hand: Hand) -> IllegalActionError:
    if hand.phase is Phase.OPENING:
        return refuse(hand, Reason.PASS_NOT_ALLOWED, "the hand must be opened first", "opener")
    held = hand._hands[hand.current]
    if hand._single_drawn is not None:
        return refuse(
            hand,
            Reason.MUST_PLAY_DRAWN,
            "the drawn tile fits and must be played",
            "after_single_draw",
        )
    if hand._forced_play and _playable_mask(hand, held):
        return refuse(
            hand, Reason.MUST_PLAY, "the opener must add the next tile", "opener_plays_again"
        )
    if _can_draw(hand):
        if not _playable_mask(hand, held):
            return refuse(
                hand,
                Reason.MUST_DRAW,
                "you cannot play, and the boneyard has tiles to draw",
                "draw_when",
            )
        return refuse(
            hand,
            Reason.PASS_NOT_ALLOWED,
            "a player may pass only when nothing can be drawn",
            "pass_when",
        )
    if _only_matadors(hand, held):
        return refuse(
            hand,
            Reason.MUST_PLAY_MATADOR,
            "nothing else can be played, so a matador must be",
            "pass_when",
        )
    return refuse(hand, Reason.MUST_PLAY, "you hold a tile you can play", "pass_when")


def _playable_mask(hand: Hand, held: int) -> int:
    """The tiles of ``held`` with at least one placement on the open ends."""
    fit = 0
    for kind in hand._ends:
        fit |= hand.table.fit(kind)
    return held & fit


def _can_draw(hand: Hand) -> bool:
    """Whether the player to act may take a tile now (rules permitting, reserve kept)."""
    return hand._drawn < hand._draw_limit


def _only_matadors(hand: Hand, held: int) -> bool:
    """Whether every tile of ``held`` that can be played is a matador."""
    return not _playable_mask(hand, held) & ~hand.table.matador_mask
