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

from ...errors import IllegalActionError, Reason
from ..actions import AnyAction, Draw, Pass, Play, end_name
from ..phase import Phase
from ..turn import Ruling, draw_ruling, pass_ruling
from .opening import Opening

#: The rule every variant shares (SPEC 7.1): touching halves add up to the line
#: sum, ``max_pip`` + 1. Spelt as the conformance reports spell it
#: (``FixedRule.SUM_RULE``; tests/test_rule_names.py holds the two equal).
SUM_RULE = "sum_rule"

#: A rule every variant shares, and the rule parameter whose sources state it:
#: the sources that give the set's size give the line sum with it.
CITED_AS = {SUM_RULE: "max_pip"}


def refuse(hand: Opening, reason: Reason, message: str, rule: str | None) -> IllegalActionError:
    """The refusal of an action for ``reason``, citing ``rule``'s sources."""
    cited = CITED_AS.get(rule, rule) if rule else None
    provenance = hand.rules.provenance.get(cited) if cited else None
    return IllegalActionError(
        reason, message, rule=rule, citations=provenance.cite if provenance else ()
    )


def _placement_rule(hand: Opening, play: Play, matador: bool, fits: bool) -> str:
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


def why_not(hand: Opening, action: AnyAction) -> IllegalActionError:
    """The reason an action outside the legal set is refused (its most specific cause)."""
    if isinstance(action, Play):
        return _why_not_play(hand, action)
    if isinstance(action, Draw):
        return _why_not_draw(hand)
    if isinstance(action, Pass):
        return _why_not_pass(hand)
    return refuse(hand, Reason.PLACEMENT_NOT_ALLOWED, f"{action!r} is not an action", None)


def _why_not_play(hand: Opening, play: Play) -> IllegalActionError:
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


def _why_not_draw(hand: Opening) -> IllegalActionError:
    return _ruled(hand, draw_ruling(hand.table, hand.turn_facts()))


def _why_not_pass(hand: Opening) -> IllegalActionError:
    return _ruled(hand, pass_ruling(hand.table, hand.turn_facts()))


def _ruled(hand: Opening, ruling: Ruling | None) -> IllegalActionError:
    """The refusal the turn's predicate gave, its details filled in."""
    assert ruling is not None, "refused, yet the turn's predicate allows it"
    details = {"boneyard": hand.boneyard_count, "kept": hand._reserve}
    return refuse(hand, ruling.reason, ruling.message.format(**details), ruling.rule)
