"""The rule that decides the field of a hand's result, or of the match, that an engine gets wrong.

A result's fields depend on one another: who wins a blocked hand follows from
the pips left, what the winner scores from who won and the pips. When an
engine's result differs, the field that decides is the first one that differs
in that order; every later field that differs is its consequence and names the
same rules. The engine's whole answer is compared with the reference's, not
only the fields the case writes down, so the field that decides is found even
when the case checks only the points.

- ``termination``: a redeal (or its absence) by the rule that deals again
  (:func:`redeal_rules`); domino against block by the end of a hand (SPEC 9);
- ``pips``: the count of hand points (``hand_pips``);
- ``winner``: a tie by ``tie``; otherwise the end of a hand, and the sides;
- ``points``: ``points``, ``difference_among_several`` where several lose, and
  the sides; narrowed to the one of them that, played with another of its
  values, scores exactly what the engine scored (the engine plays that value).

The match's fields in the same way: hands won (a tie or a redeal counts for
nobody, every other hand for its winner: the match's count, ``target``), the
scores (each hand's points), then the winner (``target``, blamed only when the
scores and hands won agree).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from ...engine.hand import Hand
from ...engine.match import Match
from ...engine.recordformat import outcome_data
from ...engine.scoring import Outcome, score, sides
from ...rules.kinds import Decides
from ...rules.model import Rules
from ...rules.parameters import BY_NAME, deciding
from .attribution import FixedRule, Position, deciding_rules

#: The order in which a hand's result fields depend on one another.
RESULT_ORDER = ("termination", "pips", "winner", "points")
#: The same for the match's totals.
MATCH_ORDER = ("hands_won", "scores", "winner")

_END = FixedRule.END_OF_HAND.value


def _partners(rules: Rules, players: int) -> tuple[str, ...]:
    """The rule of sides when the hand is played in sides (else nothing)."""
    grouped = any(len(group) > 1 for group in sides(rules, players))
    return deciding(Decides.SIDES) if grouped else ()


def redeal_rules(rules: Rules, hand: Hand | None) -> tuple[str, ...]:
    """The rules that decide whether a hand is dealt again: what is done when nobody holds
    an opening double, and, when the double blank is held, whether it counts as one."""
    what = {Decides.NO_DOUBLE}
    if hand is not None:
        held = (tile for seat in range(hand.players) for tile in hand.hand_of(seat))
        if any(tile.is_double and tile.high == 0 for tile in held):
            what.add(Decides.DOUBLE_BLANK)
    return deciding_rules(rules, *what)


def _winner_rules(rules: Rules, players: int, expected: Any, actual: Any) -> tuple[str, ...]:
    someone_tied = expected.get("winner") is None or actual.get("winner") is None
    if someone_tied and expected.get("termination") == "blocked":
        return deciding(Decides.TIE)
    return (_END, *_partners(rules, players))


def _points_rules(rules: Rules, players: int) -> tuple[str, ...]:
    several = len(sides(rules, players)) > 2
    what = (Decides.POINTS, Decides.SEVERAL_LOSERS) if several else (Decides.POINTS,)
    return (*deciding_rules(rules, *what), *_partners(rules, players))


def _first_difference(
    order: Sequence[str], expected: Mapping[str, Any], actual: Mapping[str, Any]
) -> str | None:
    return next((key for key in order if expected.get(key) != actual.get(key)), None)


def result_rules(position: Position, actual: Mapping[str, Any]) -> tuple[str, ...] | None:
    """The rules behind the first field of the engine's result ``actual`` that differs from
    the reference's at ``position`` (None when the reference has no result to compare)."""
    hand, rules = position.hand, position.rules
    if hand is None or hand.outcome is None:
        return None
    expected = outcome_data(hand.outcome)
    field = _first_difference(RESULT_ORDER, expected, actual)
    if field is None:
        return None
    if field == "termination":
        if "redeal" in (expected["termination"], actual.get("termination")):
            return redeal_rules(rules, hand)
        return (_END,)
    if field == "pips":
        return deciding_rules(rules, Decides.PIPS)
    if field == "winner":
        return _winner_rules(rules, hand.players, expected, actual)
    named = _points_rules(rules, hand.players)
    return _explaining(rules, named, hand.outcome, actual.get("points")) or named


def _explaining(
    rules: Rules, named: tuple[str, ...], outcome: Outcome, points: Any
) -> tuple[str, ...]:
    """Those of ``named`` that alone, given another of their values, score exactly
    ``points`` for the hand the reference scored as ``outcome`` (the pips and the end the
    same): the engine plays that other value. Empty when none or every one does."""
    found = []
    for name in named:
        parameter = BY_NAME.get(name)
        if parameter is None or parameter.choices is None:
            continue
        for value in parameter.choices:
            if value == getattr(rules, name):
                continue
            changed: dict[str, Any] = {name: value}
            other = dataclasses.replace(rules, **changed)
            try:
                again = score(other, outcome.pips, outcome.termination, outcome.went_out)
            except ValueError:
                continue
            if list(again.points) == points:
                found.append(name)
                break
    return tuple(found) if len(found) < len(named) else ()


def match_rules(match: Match | None, actual: Mapping[str, Any]) -> tuple[str, ...] | None:
    """The rules behind the first field of the engine's match totals that differs from the
    reference's (None when the reference did not follow the match, or nothing differs)."""
    if match is None:
        return None
    rules = match.rules
    if match.hands and match.hands[-1].is_over:
        match.close_hand()
    expected = {"scores": match.scores, "hands_won": match.hands_won, "winner": match.winner}
    field = _first_difference(MATCH_ORDER, expected, actual)
    if field == "hands_won":
        # a tied or voided hand counts for nobody; otherwise the match's own count (SPEC 10.5)
        ended = [hand.outcome for hand in match.hands if hand.outcome is not None]
        what = []
        if any(outcome.termination.value == "redeal" for outcome in ended):
            what.append(Decides.NO_DOUBLE)
        if any(
            outcome.winner is None and outcome.termination.value == "blocked" for outcome in ended
        ):
            what.append(Decides.TIE)
        counted = deciding_rules(rules, *what)
        return (*counted, *deciding(Decides.HANDS_WON), *_partners(rules, match.players))
    if field == "scores":
        return (*_points_rules(rules, match.players), *deciding_rules(rules, Decides.PIPS))
    if field == "winner":
        return deciding(Decides.MATCH_WINNER)
    return None
