"""Which rules a run's deviations single out, and which they only implicate.

A failed expectation names every rule its check touches (:mod:`.attribution`),
and most of them are innocent. This module narrows them in three steps:

1. **Consequences.** Within a hand, only the deviations at the first place the
   engine parted from the reference (its earliest step, or the hand's result)
   are evidence; a later one in the same hand follows from a state that has
   already parted (a different tile drawn, a different hand), and a match
   check after any deviation of the case follows from it.
2. **What the answer shows.** An engine that answers as though the hand were
   over (no seat to act, no legal action, ``hand_over``) while the reference
   plays on points at the end of a hand alone; a step after a draw may also
   show a different tile drawn (the deal's draw order, SPEC 5.6).
3. **Parsimony.** The deviations at one place share a cause: their candidate
   rules are intersected (each stands alone when they share none). Across the
   run a rule is **broken** when every smallest set of rules that explains
   every place contains it; the candidates of a place that no broken rule
   explains are **implicated**: possible causes, none singled out.

A random game's divergence is a place of its own (kept once per kind, its
order in the game is not kept); it is counted apart from the cases.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Any

from ...engine.actions import Play
from ...errors import NotationError
from .attribution import FixedRule, parse_action
from .verdicts import CaseRun, Check, Deviation

#: A rule and its value in force: ``("draw_when", "no_play")``.
Key = tuple[str, str]

#: The checks made at a step of a hand (what the engine holds can matter).
STEP_CHECKS = frozenset(
    {
        Check.TO_ACT,
        Check.LEGAL,
        Check.INCLUDES,
        Check.EXCLUDES,
        Check.ACCEPTED,
        Check.REFUSED,
        Check.ENDS,
    }
)

#: The largest set of extra rules searched for the smallest explanation, and
#: the most sets tried at one size (beyond it only the rules a place names alone count).
LARGEST_EXPLANATION = 3
MOST_TRIED = 20_000


@dataclass(frozen=True)
class Place:
    """One place an engine parted from the reference, and the rules that could explain it."""

    candidates: frozenset[Key]
    #: Found by a random game (else by a case).
    random: bool = False
    #: Where it was found, when several facts were found at one place (the actions of
    #: one legal set in dispute): a rule is blamed once per place, not per fact.
    where: object = None


@dataclass(frozen=True)
class Blame:
    """The rules singled out, and for each rule the places it is blamed or implicated for."""

    broken: frozenset[Key]
    blamed: Counter[tuple[Key, bool]]
    implicated: Counter[tuple[Key, bool]]


def ended_early(check: Check, expected: Any, actual: Any) -> bool:
    """Whether the engine answered as though the hand were over while the reference plays on."""
    if check is Check.TO_ACT:
        return actual is None and expected is not None
    if check in (Check.LEGAL, Check.INCLUDES):
        return actual == [] and bool(expected)
    if check in (Check.ACCEPTED, Check.REFUSED):
        return bool(actual == "hand_over" and expected != "hand_over")
    return False


def candidates(
    check: Check,
    rules: Iterable[str],
    history: Sequence[str],
    expected: Any,
    actual: Any,
    position: str = "",
    what: str = "",
    holds: tuple[str, ...] | None = None,
) -> frozenset[str]:
    """The rules that could explain one deviation, narrowed or widened by what the answer shows.

    ``what`` is the check in words (``result pips differs``); ``holds`` what the
    engine said the seat to act holds, when it was asked.
    """
    names = _named(check, rules, expected, actual)
    if names == _ENDED:
        return names
    return names | _drawn(check, history, expected, actual, position, what, holds)


_ENDED = frozenset({FixedRule.END_OF_HAND.value})


def _named(check: Check, rules: Iterable[str], expected: Any, actual: Any) -> frozenset[str]:
    """The rules a deviation names, or the end of a hand alone when the engine ended it early."""
    return _ENDED if ended_early(check, expected, actual) else frozenset(rules)


def _drawn(
    check: Check,
    history: Sequence[str],
    expected: Any,
    actual: Any,
    position: str,
    what: str,
    holds: tuple[str, ...] | None = None,
) -> frozenset[str]:
    """The deal's draw order, when after a draw the engine's answer shows another hand.

    Pips left in hand that differ after a draw may be other tiles drawn as well.
    When the engine said what the seat holds (``holds``), that settles it.
    """
    if "draw" not in history:
        return frozenset()
    if holds is not None:
        held = tuple(sorted(position.partition(" holds ")[2].partition(";")[0].split()))
        return frozenset() if holds == held else frozenset({FixedRule.DEAL.value})
    if other_hand(check, expected, actual, position) or (
        check is Check.RESULT and "pips" in what.split()
    ):
        return frozenset({FixedRule.DEAL.value})
    return frozenset()


def _tiles(texts: Any) -> set[str]:
    """The tiles of the plays among ``texts``."""
    tiles = set()
    for text in texts if isinstance(texts, list) else []:
        try:
            action = parse_action(str(text))
        except NotationError:
            continue
        if isinstance(action, Play):
            tiles.add(str(action.tile))
    return tiles


def other_hand(check: Check, expected: Any, actual: Any, position: str) -> bool:
    """Whether the engine answers as though the seat to act held other tiles than the reference's.

    It refuses a play with ``tile_not_in_hand``; it offers a tile the seat does
    not hold (``position`` is the reference's: ``... to act holds 0-2 1-4; ...``);
    or, asked for the legal actions, offers no play at all of a tile the reference plays.
    """
    if check in (Check.ACCEPTED, Check.REFUSED):
        return bool(actual == "tile_not_in_hand" and expected != actual)
    if check not in (Check.LEGAL, Check.INCLUDES, Check.EXCLUDES):
        return False
    held = set(position.partition(" holds ")[2].partition(";")[0].split())
    offered = _tiles(actual)
    if held and offered - held:
        return True
    # a tile the engine does not offer is another tile drawn only if the seat drew it
    drawn = set(position.partition("; drew ")[2].partition(";")[0].split())
    return check is not Check.EXCLUDES and bool((_tiles(expected) - offered) & drawn)


def deviation_candidates(deviation: Deviation) -> frozenset[str]:
    """:func:`candidates` of a case's deviation."""
    return candidates(
        deviation.check,
        deviation.rules,
        deviation.history,
        deviation.expected,
        deviation.actual,
        deviation.position,
        deviation.message,
        deviation.holds,
    )


#: The deviations after which the engine's game is no longer the reference's: another
#: seat acting, other ends, another action laid, another hand held, a hand over (or not)
#: as it is dealt. Later deviations in the same hand may follow from them; after any other
#: deviation (an action offered or refused amiss) the engine went on along the case's
#: line, and what follows is judged on its own.
PARTING = frozenset({Check.TO_ACT, Check.ENDS, Check.LAID, Check.RESULT})


def _parts(deviation: Deviation) -> bool:
    """Whether the engine's game may have left the reference's at ``deviation``."""
    if deviation.check in PARTING:
        return True
    held = deviation.position.partition(" holds ")[2].partition(";")[0].split()
    return deviation.holds is not None and tuple(sorted(held)) != deviation.holds


def evidence_flags(run: CaseRun) -> list[bool]:
    """For each deviation of ``run``, whether it is evidence, not a consequence.

    Deviations come in the order they were found. One is a consequence when an
    earlier one of the same hand (since the case was last put back on its line),
    found at another place, parted the engine's game from the reference's
    (:data:`PARTING`); a match total is one when any deviation came before it.
    """
    parted: dict[tuple[int, int], int | None] = {}
    first_any: tuple[int, int, int] | None = None
    evidence = []
    for deviation in run.deviations:
        hand = deviation.hand or 0
        step = deviation.step if deviation.step is not None else 1 << 30
        point = (hand, step, 1 if deviation.check is Check.MATCH else 0)
        # a step the case was played again without starts the hand afresh: the engine
        # was put back on the case's line there
        stretch = (hand, sum(1 for h, s in run.resumed if h == hand and s is not None and s < step))
        if deviation.check is Check.MATCH:
            is_evidence = first_any is None or first_any == point
        else:
            is_evidence = stretch not in parted or parted[stretch] == deviation.step
        if _parts(deviation):
            parted.setdefault(stretch, deviation.step)
        first_any = first_any or point
        evidence.append(is_evidence)
    return evidence


def case_places(run: CaseRun, key: Callable[[str], Key]) -> list[Place]:
    """The places of one case run: its evidence deviations grouped by where they were found.

    The deviations of a place share a cause: the rules they all name, or when
    they share none, any rule one of them names; after a draw, also the draw order.
    """
    grouped: dict[tuple[int, int | None, bool], list[Deviation]] = {}
    for deviation, evidence in zip(run.deviations, evidence_flags(run), strict=True):
        if evidence:
            where = (deviation.hand or 0, deviation.step, deviation.check is Check.MATCH)
            grouped.setdefault(where, []).append(deviation)
    places: list[Place] = []
    for (hand, step, match), deviations in grouped.items():
        spot = (run.case, run.target.label(), hand, step, match)
        ended = [_named(d.check, d.rules, d.expected, d.actual) == _ENDED for d in deviations]
        drawn: frozenset[str] = frozenset()
        if not all(ended):
            drawn = frozenset().union(
                *(
                    _drawn(d.check, d.history, d.expected, d.actual, d.position, d.message, d.holds)
                    for d in deviations
                )
            )
        # each action of a legal set in dispute is a fact of its own, with its own rules;
        # the other deviations of the place share one cause
        # (not when another seat is to act: the engine then answers for that seat, one cause)
        other_seat = any(d.check is Check.TO_ACT for d in deviations)
        whole = [
            d for d, end in zip(deviations, ended, strict=True) if end or other_seat or not d.facets
        ]
        for d in deviations:
            if any(d is kept for kept in whole):
                continue
            places.extend(
                Place(frozenset(key(name) for name in frozenset(facet) | drawn), where=spot)
                for facet in d.facets
                if facet
            )
        if whole:
            sets = [_named(d.check, d.rules, d.expected, d.actual) for d in whole]
            if other_seat:
                # another seat is to act: what it is offered or refused follows from that
                sets = [s for d, s in zip(whole, sets, strict=True) if d.check is Check.TO_ACT]
            names = frozenset.intersection(*sets) or frozenset.union(*sets)
            if names != _ENDED:
                names |= drawn
            places.append(Place(frozenset(key(name) for name in names), where=spot))
    return places


#: Rules that explain anything about the end of a hand, the turn or the match in general:
#: a place is laid on one of them only when it names no more specific rule.
CATCH_ALL = frozenset({FixedRule.END_OF_HAND.value, FixedRule.TURN_ORDER.value, "target"})


def specific(candidates: frozenset[Key]) -> frozenset[Key]:
    """``candidates`` without the catch-all rules, unless nothing else is left."""
    narrowed = frozenset(key for key in candidates if key[0] not in CATCH_ALL)
    return narrowed or candidates


def assign(places: Sequence[Place]) -> Blame:
    """Blame the rules every smallest explanation of ``places`` needs; implicate the rest.

    A catch-all rule (:data:`CATCH_ALL`) is a candidate of a place only when the
    place names no more specific rule.
    """
    places = [Place(specific(place.candidates), place.random, place.where) for place in places]
    broken = _essential([place.candidates for place in places if place.candidates])
    blamed: Counter[tuple[Key, bool]] = Counter()
    implicated: Counter[tuple[Key, bool]] = Counter()
    counted: set[tuple[Key, bool, object]] = set()
    for index, place in enumerate(places):
        hit = place.candidates & broken
        where = index if place.where is None else place.where
        for rule in hit or place.candidates:
            if (rule, hit == frozenset(), where) in counted:
                continue
            counted.add((rule, hit == frozenset(), where))
            (blamed if hit else implicated)[(rule, place.random)] += 1
    return Blame(broken, blamed, implicated)


def _essential(groups: Sequence[frozenset[Key]]) -> frozenset[Key]:
    """The rules in every smallest set that meets each group (a rule a group names alone is)."""
    forced = {next(iter(group)) for group in groups if len(group) == 1}
    rest = [group for group in groups if not group & forced]
    if not rest:
        return frozenset(forced)
    universe = sorted(frozenset().union(*rest))
    for size in range(1, LARGEST_EXPLANATION + 1):
        if comb(len(universe), size) > MOST_TRIED:
            break
        found = [
            frozenset(chosen)
            for chosen in combinations(universe, size)
            if all(group & frozenset(chosen) for group in rest)
        ]
        if found:
            return frozenset(forced) | frozenset.intersection(*found)
    return frozenset(forced)
