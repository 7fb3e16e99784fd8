"""The rule behind an expectation: which rule parameters, or fixed rules, a check tests.

A case says what an engine must do; this module says *why*, so that a report
can name the rule an engine breaks, its section of spec/SPEC.md and the
source it comes from. The answer is read from the reference engine at the
position the check is made (:class:`~reference_engine.engine.hand.Hand`,
following the case's scripted line): an action the reference refuses is
refused by the rule its refusal names; an action it allows is allowed by the
rules of that kind of action (an opening tile by the opening rules, a matador
by the matador modes, a draw by ``draw_when`` and the reserve, a pass by
``pass_when``). What no rule parameter decides, because every variant agrees
on it, is one of the :class:`FixedRule` sections.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...engine.actions import Action, AnyAction, Draw, Pass, Play, end_name
from ...engine.deal import deal_problems
from ...engine.hand import Hand, Phase
from ...engine.scoring import sides
from ...errors import IllegalActionError, NotationError, Reason
from ...rules.model import Rules
from ...rules.parameters import BY_NAME, Decides, deciding
from ...rules.vocabulary import TextEnum


class FixedRule(TextEnum):
    """A rule every variant shares, named by its section of spec/SPEC.md."""

    DEAL = "deal"
    SUM_RULE = "sum_rule"
    TURN_ORDER = "turn_order"
    END_OF_HAND = "end_of_hand"
    PROTOCOL = "protocol"
    SAME_ACTION = "same_action"


#: The section of spec/SPEC.md (or spec/protocol.md) defining each fixed rule,
#: and what it is called in a report.
FIXED: dict[FixedRule, tuple[str, str]] = {
    FixedRule.DEAL: ("SPEC 5.6", "the deal"),
    FixedRule.SUM_RULE: ("SPEC 7.1", "ordinary tiles and the sum rule"),
    FixedRule.TURN_ORDER: ("SPEC 8.2", "turn order"),
    FixedRule.END_OF_HAND: ("SPEC 9", "the end of a hand"),
    FixedRule.PROTOCOL: ("protocol.md", "the protocol: refusal order and canonical writing"),
    FixedRule.SAME_ACTION: (
        "protocol.md",
        "the protocol: an accepted action is the one carried out",
    ),
}


def deal_rules(rules: Rules, deal: Mapping[str, Any]) -> tuple[str, ...]:
    """The rules that make a deal the rules accept acceptable: the hand sizes, and the
    designated seat when the deal names one the rules use."""
    what = (Decides.DEAL, Decides.DESIGNATED) if "designated" in deal else (Decides.DEAL,)
    return deciding_rules(rules, *what)


def broken_deal_rules(rules: Rules, deal: Mapping[str, Any], players: int) -> tuple[str, ...]:
    """The rule a deal the rules refuse breaks (the first problem's), or the deal itself."""
    found = deal_problems(dict(deal), rules, players or None)
    rule = found[0].rule if found else None
    if rule is None or rule not in BY_NAME or rule == "players":
        return (FixedRule.DEAL.value,)
    return (rule,)


def opening_rules(position: Position) -> tuple[str, ...]:
    """The rules that choose who opens and with what (SPEC 6), as far as this deal asks them.

    Whether the double blank counts is asked only when a hand holds it; what
    happens without a double, only when no hand holds an opening double.
    """
    hand, rules = position.hand, position.rules
    what = {Decides.OPENING}
    if hand is not None:
        table = hand.table
        held = [hand.hand_of(seat) for seat in range(hand.players)]
        if any(tile.is_double and tile.high == 0 for tiles in held for tile in tiles):
            what.add(Decides.DOUBLE_BLANK)
        opening = {table.tiles[index] for index in table.opening_doubles}
        if not any(tile in opening for tiles in held for tile in tiles):
            what.add(Decides.NO_DOUBLE)
    return deciding_rules(rules, *what)


@dataclass(frozen=True)
class Position:
    """Where a check is made: the reference hand (or None once it cannot follow) and its rules."""

    rules: Rules
    hand: Hand | None


def _applicable(rules: Rules, names: Iterable[str]) -> tuple[str, ...]:
    return tuple(name for name in names if rules.applicable(name))


#: The answers of :func:`_deciding`, per rules object (held, so its id is not reused).
_DECIDING: dict[int, tuple[Rules, dict[frozenset[Decides], tuple[str, ...]]]] = {}


def deciding_rules(rules: Rules, *what: Decides) -> tuple[str, ...]:
    """The rules that decide any of ``what`` and apply under ``rules``, in the order of the
    specification; remembered, as every check of a run asks (rules are immutable)."""
    entry = _DECIDING.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_DECIDING) >= 256:
            _DECIDING.clear()
        entry = _DECIDING[id(rules)] = (rules, {})
    key = frozenset(what)
    found = entry[1].get(key)
    if found is None:
        found = entry[1][key] = _applicable(rules, deciding(*what))
    return found


#: Where each rule name sorts: parameters in registry order, then the fixed rules.
_ORDER: dict[str, int] = {
    **{name: index for index, name in enumerate(BY_NAME)},
    **{rule.value: len(BY_NAME) + index for index, rule in enumerate(FixedRule)},
}


def _sorted(names: Iterable[str]) -> tuple[str, ...]:
    """Rule names, parameters in registry order first, then fixed rules."""
    return tuple(sorted(set(names), key=lambda name: _ORDER.get(name, 999)))


#: The longest text whose reading is remembered; every action written in the
#: notation is far shorter (``12-17@E12:17``), so an engine's odd answers cannot
#: fill the memory.
REMEMBERED_TEXT = 32


def parse_action(text: str) -> AnyAction:
    """``Action.parse``, remembered: a run reads the same few hundred actions thousands of times.

    Actions are immutable values, so sharing one between readers is safe.
    """
    return _remembered(text) if len(text) <= REMEMBERED_TEXT else Action.parse(text)


@lru_cache(maxsize=4096)
def _remembered(text: str) -> AnyAction:
    return Action.parse(text)


def _parse(text: str) -> AnyAction | None:
    try:
        return parse_action(text)
    except NotationError:
        return None


#: What a caller has worked out at one position (see :func:`action_rules`).
Known = dict[tuple[str, ...], tuple[str, ...]]


def action_rules(position: Position, text: str, known: Known | None = None) -> tuple[str, ...]:
    """The rules that make ``text`` legal or illegal at ``position``.

    ``known`` remembers the answers at ``position``, for a caller that asks about
    the same actions more than once there (its legal set, the act, the ends after
    it); it is the caller's, and good only while the position's hand does not move.
    """
    if known is None:
        known = {}
    key = ("action", text)
    found = known.get(key)
    if found is None:
        found = known[key] = _action_rules(position, text, known)
    return found


def _action_rules(position: Position, text: str, known: Known) -> tuple[str, ...]:
    hand, rules = position.hand, position.rules
    action = _parse(text)
    if hand is None or action is None:
        return ()
    if hand.phase is Phase.OVER:
        return (FixedRule.END_OF_HAND.value,)
    if not hand.is_legal(action):
        try:
            hand.verify(action)
        except IllegalActionError as error:
            if hand.phase is not Phase.OPENING and _hinges_on_drawing(hand, error.reason):
                # refused because a tile can, or cannot, be drawn: the reserve's as well
                named = (error.rule,) if error.rule else ()
                return _sorted((*named, *deciding_rules(rules, Decides.DRAW)))
            if error.rule:
                return (error.rule,)
    if hand.phase is Phase.OPENING and not isinstance(action, Draw):
        found = known.get(("opening",))
        if found is None:
            found = known[("opening",)] = _opening_tile_rules(position)
        return found
    return _kind_rules(hand, rules, action)


#: The refusal of a pass by a player who cannot play because a tile can be drawn (SPEC
#: 8.2): whether one can draw, the reserve decides as much as the rule named.
_WHILE_DRAWING = frozenset({Reason.MUST_DRAW})
#: The refusals of a pass by a player who holds a tile that fits and cannot draw: which
#: reason is given hinges on whether a tile can be drawn, where the boneyard holds some.
_ONCE_NOTHING_DRAWS = frozenset({Reason.MUST_PLAY, Reason.MUST_PLAY_MATADOR})


def _hinges_on_drawing(hand: Hand, reason: Reason) -> bool:
    """Whether a refusal for ``reason`` depends on whether a tile can be drawn."""
    if reason in _WHILE_DRAWING:
        return True
    return reason in _ONCE_NOTHING_DRAWS and hand.boneyard_count > 0 and not _opener_goes_on(hand)


def _opening_tile_rules(position: Position) -> tuple[str, ...]:
    """The rules behind one tile laid (or not) as the opening by the seat to act: the
    opening rules, but where an opening tile rule says what the designated opener lays,
    not those that say who opens (who is to act is a check of its own)."""
    found = opening_rules(position)
    rules = position.rules
    if not deciding_rules(rules, Decides.OPENING_TILE):
        return found
    who = set(deciding_rules(rules, Decides.OPENING_SEAT))
    return tuple(name for name in found if name not in who)


def _kind_rules(hand: Hand, rules: Rules, action: AnyAction) -> tuple[str, ...]:
    if hand.phase is Phase.OPENING:  # a draw: the opening's other plays are asked above
        return deciding_rules(rules, Decides.NO_DOUBLE)
    what: set[Decides] = set()
    if _opener_goes_on(hand):
        what.add(Decides.FORCED_TURN)
    drew = hand.drawn_this_turn is not None
    if isinstance(action, Draw):
        what |= {Decides.DRAW, Decides.SECOND_DRAW} if drew else {Decides.DRAW}
        return deciding_rules(rules, *what)
    if drew:
        what.add(Decides.AFTER_DRAW)
    if isinstance(action, Pass):
        what.add(Decides.PASS)
        if hand.boneyard_count and not drew and hand.is_legal(action):
            what.add(Decides.DRAW)  # a pass allowed because the tiles left cannot be drawn
        return deciding_rules(rules, *what)
    assert isinstance(action, Play)
    if rules.is_matador(*action.tile):
        return deciding_rules(rules, *what, Decides.MATADOR)
    on_matador_end = action.end is not None and action.end < len(hand.ends)
    if on_matador_end and not hand.ends[action.end or 0].is_plain:
        what.add(Decides.MATADOR)  # the end a matador left decides
    if action.tile.is_double:
        what.add(Decides.DOUBLE)
    return (*deciding_rules(rules, *what), FixedRule.SUM_RULE.value)


def legal_rules(
    position: Position, texts: Iterable[str], known: Known | None = None
) -> tuple[str, ...]:
    """The rules behind a set of actions (those a legal-set check found in dispute);
    ``known`` as for :func:`action_rules`."""
    known = {} if known is None else known
    found: list[str] = []
    for text in texts:
        found.extend(action_rules(position, text, known))
    return _sorted(found)


def _opener_goes_on(hand: Hand) -> bool:
    """Whether the opener is to act right after laying the opening tile (SPEC 6.5), the
    opening being the last action (draws for a double may come before it)."""
    last = hand.history[-1] if hand.history else None
    return hand.opener == hand.current and isinstance(last, Play) and last.end is None


def to_act_rules(position: Position) -> tuple[str, ...]:
    """The rules that decide who is to act at ``position``."""
    hand, rules = position.hand, position.rules
    if hand is None:
        return ()
    if hand.phase is Phase.OVER:
        return (FixedRule.END_OF_HAND.value,)
    if hand.phase is Phase.OPENING:
        return opening_rules(position)
    if _opener_goes_on(hand):
        return deciding_rules(rules, Decides.FORCED_TURN)
    if hand.drawn_this_turn is not None:
        return deciding_rules(rules, Decides.SECOND_DRAW, Decides.AFTER_DRAW)
    return (FixedRule.TURN_ORDER.value,)


def refusal_rules(position: Position, text: str, known: Known | None = None) -> tuple[str, ...]:
    """The rules behind the refusal (or acceptance) of ``text``, and the order of reasons."""
    return _sorted((*action_rules(position, text, known), FixedRule.PROTOCOL.value))


def ends_rules(position: Position, last: str | None, known: Known | None = None) -> tuple[str, ...]:
    """The rules that decide the open ends after ``last`` was played (before it, at position)."""
    if last is None:
        return opening_rules(position)
    return legal_rules(position, [last], known)


#: What each key of a hand's result is decided by, before what the hand itself asks.
RESULT_DECIDED: dict[str, tuple[Decides, ...]] = {
    "termination": (Decides.HAND_END,),
    "winner": (Decides.PIPS,),
    "pips": (Decides.PIPS,),
    "points": (Decides.POINTS,),
}
MATCH_DECIDED: dict[str, tuple[Decides, ...]] = {
    "scores": (Decides.POINTS,),
    "hands_won": (Decides.HANDS_WON,),
    "winner": (Decides.MATCH_WINNER,),
}


def result_rules(position: Position, key: str) -> tuple[str, ...]:
    """The rules behind ``key`` of a hand's result, as far as this hand asks them.

    Sides are asked about only when the hand is played in sides; more than one
    opponent, only when there is; a tie, only when the reference's hand ends
    in one.
    """
    rules, hand = position.rules, position.hand
    what = set(RESULT_DECIDED.get(key, ()))
    if key in ("winner", "points") and hand is not None:
        groups = sides(rules, hand.players)
        if any(len(group) > 1 for group in groups):
            what.add(Decides.SIDES)
        outcome = hand.outcome
        if key == "points" and len(groups) > 2:
            what.add(Decides.SEVERAL_LOSERS)
        if outcome is not None and outcome.winner is None:
            what.add(Decides.TIE)
    named = deciding_rules(rules, *what)
    return (*named, FixedRule.END_OF_HAND.value) if key in ("termination", "winner") else named


def match_rules(rules: Rules, key: str) -> tuple[str, ...]:
    """The rules behind ``key`` of the match's state."""
    return deciding_rules(rules, *MATCH_DECIDED.get(key, (Decides.MATCH_WINNER,)))


def section(rule: str) -> str:
    """Where ``rule`` is defined: ``SPEC 8.1`` for a parameter, its section for a fixed rule."""
    if rule in BY_NAME:
        return f"SPEC {BY_NAME[rule].spec}"
    return FIXED[FixedRule(rule)][0]


def is_rule(name: str) -> bool:
    """Whether ``name`` names a rule parameter or a fixed rule."""
    return name in BY_NAME or name in {rule.value for rule in FixedRule}


def position_text(hand: Hand | None) -> str:
    """A position in the notation: the ends, the hand of the seat to act (and which of its
    tiles it drew this hand), the boneyard."""
    if hand is None:
        return ""
    if hand.is_over:
        return "the hand is over"
    ends = " ".join(f"{end_name(n)}:{end.notation}" for n, end in enumerate(hand.ends))
    tiles = hand.hand_of(hand.current)
    held = " ".join(str(tile) for tile in tiles)
    parts = [f"ends {ends}" if ends else "no tile down yet"]
    parts.append(f"seat {hand.current} to act holds {held}")
    dealt = set(hand.deal.hands[hand.current]) if hand.current < len(hand.deal.hands) else set()
    drawn = [str(tile) for tile in tiles if tile not in dealt]
    if drawn:
        parts.append(f"drew {' '.join(drawn)}")
    parts.append(f"boneyard {hand.boneyard_count}")
    return "; ".join(parts)
