"""Telling apart the candidates an engine's random hands could not: deals built to part them.

When the best candidates agree with every observed check alike, they differ in
rules the random hands never put to the test (what happens when no double is
dealt, a seat that holds only matadors). For each such rule and each value the
tied candidates give it, :func:`separate` plays seeded hands in process under
the rules found so far with one value and checks them under the other, until a
hand parts them (a different legal set, seat, ends or result); that deal is then
played on the engine along the same line, and the engine's answer is added to
the observation: the ranking made again settles the rule. A rule no hand parts
(a match's rules cannot show in one hand) is said to be undetermined.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from typing import Any, Protocol

from ...engine.deal import Deal, sized
from ...engine.hand import Hand
from ...engine.recordformat import outcome_data
from ...engine.tiles import Tile
from ...errors import DealError
from ...rules.model import Rules
from ..session.runner import Runner
from .agreement import Family, family_checks, family_rules, match_rules
from .inference import Inference
from .observe import Observation, Observed, Step, follow, play_one
from .ranking import Score, project
from .rulereport import value_label


class Ranked(Protocol):
    """What separating needs of an identification (:mod:`.identification`): the
    observation, the candidates ranked, what was inferred, and those tied with the first."""

    @property
    def observation(self) -> Observation:
        """What the engine was seen to play."""

    @property
    def ranking(self) -> list[Score]:
        """Every candidate, best first."""

    @property
    def inference(self) -> Inference | None:
        """What the engine plays rule by rule, when it was inferred."""

    @property
    def tied(self) -> list[Score]:
        """The candidates the observation cannot tell from the first."""


#: Hands played in process, at most, to find one that parts two values of a rule.
SEARCH = 32
#: What each kind of check is, in words.
_WORDS = {
    "to_act": "the seat to act",
    "legal": "the legal actions",
    "ends": "the open ends",
    "termination": "how the hand ends",
    "winner": "the winner",
    "pips": "the pips counted",
    "points": "the points scored",
}
#: A hand stops after this many steps in process (a rule set that never ends a hand).
LONGEST = 400


@dataclass(frozen=True)
class Parted:
    """A rule the engine was asked about: the values in dispute, the one it plays."""

    rule: str
    values: tuple[str, ...]
    #: The value its answers agree with (None: the hand put to it agreed with neither).
    plays: str | None
    #: The check that parted them, in words.
    by: str


@dataclass
class Separation:
    """What the deals built to part the tied candidates found."""

    asked: int = 0
    parted: list[Parted] = field(default_factory=list)
    #: The rules no hand played in process could part, and why each was not settled.
    undetermined: list[str] = field(default_factory=list)
    why: dict[str, str] = field(default_factory=dict)


def disputed(identification: Ranked) -> dict[tuple[Family, int], list[Any]]:
    """The rules in which the candidates tied with the first differ from it, with the values
    they give (the first's first); rules of a deal never observed are left out."""
    first = identification.ranking[0].candidate.rules
    found: dict[tuple[Family, int], list[Any]] = {}
    for score in identification.tied:
        for family in Family:
            if family is Family.DEAL:
                continue
            mine, theirs = project(first, family), project(score.candidate.rules, family)
            for index, (a, b) in enumerate(zip(mine, theirs, strict=True)):
                if a != b:
                    values = found.setdefault((family, index), [a])
                    if b not in values:
                        values.append(b)
    return found


def separate(identification: Ranked, runner: Runner, seed: int) -> Separation:
    """Ask the engine about every rule the tied candidates differ in; the observation gains
    the hands asked (rank it again to settle them)."""
    separation = Separation()
    inference = identification.inference
    if inference is None:
        return separation
    observation = identification.observation
    first = identification.ranking[0].candidate.rules
    for name in match_rules():
        if any(
            getattr(s.candidate.rules, name) != getattr(first, name) for s in identification.tied
        ):
            separation.undetermined.append(name)
            separation.why[name] = (
                "it decides from hand to hand, in a match: one hand cannot show it"
            )
    rng = random.Random(seed)
    for (family, index), values in disputed(identification).items():
        name = family_rules(family)[index]
        base = inference.evaluator.rules(family, inference.found[family])
        ruled = [dataclasses.replace(base, **{name: value}) for value in values]
        if family is Family.SCORING and not observation.scoring:
            separation.undetermined.append(name)
            separation.why[name] = "the engine keeps no score"
            continue
        parting = _search(ruled, family, observation, rng)
        if parting is None:
            separation.undetermined.append(name)
            separation.why[name] = f"no hand of {SEARCH} played in process parted them"
            continue
        observed, kind = parting
        before = len(observation.hands)
        accepted = play_one(
            runner,
            observation.target,
            observation.rules,
            observed.deal,
            rng,
            observation,
            [step.action for step in observed.steps],
        )
        separation.asked += 1
        labels = tuple(value_label(rules, name) for rules in ruled)
        if accepted is None or len(observation.hands) == before:
            separation.parted.append(Parted(name, labels, None, kind))
            if accepted is None:
                break
            continue
        observation.asked += 1
        answered = observation.hands[-1]
        agree = [
            all(held is not False for held in family_checks(family, rules, answered, True))
            for rules in ruled
        ]
        plays = labels[agree.index(True)] if agree.count(True) == 1 else None
        separation.parted.append(Parted(name, labels, plays, kind))
    return separation


def _search(
    ruled: list[Rules], family: Family, observation: Observation, rng: random.Random
) -> tuple[Observed, str] | None:
    """A hand played under the first rules whose checks some other rules get otherwise, and
    the kind of the first check they part on; None when none of :data:`SEARCH` does."""
    shapes = sorted({(hand.players, hand.shape) for hand in observation.hands})
    for attempt in range(SEARCH):
        players, shape = shapes[rng.randrange(len(shapes))]
        first = sized(ruled[0], players, shape)
        try:
            deal = Deal.shuffled(first, players, rng, designated=rng.randrange(players))
            deal = _SKEWS[attempt % len(_SKEWS)](deal)
            played = _simulated(first, deal, rng)
        except (DealError, ValueError):
            continue
        for other in ruled[1:]:
            where: list[tuple[int | None, str]] = []
            checks = family_checks(family, other, played, observation.scoring, where)
            for held, (_, kind) in zip(checks, where, strict=True):
                if held is False:
                    return played, _WORDS.get(kind, kind)
    return None


def _keep(deal: Deal) -> Deal:
    return deal


def _doubles_out(deal: Deal, keep: frozenset[Tile] = frozenset()) -> Deal:
    """``deal`` with every double a hand holds (but ``keep``) swapped for a tile of the
    boneyard that is not one, as far as the boneyard allows: the opening rules for a
    deal without doubles are put to the test far more often than by chance."""
    spare = [tile for tile in deal.boneyard if not tile.is_double]
    hands = []
    for hand in deal.hands:
        held = []
        for tile in hand:
            if tile.is_double and tile not in keep and spare:
                held.append(spare.pop())
            else:
                held.append(tile)
        hands.append(tuple(sorted(held)))
    dealt = {tile for hand in hands for tile in hand}
    rest = tuple(
        tile for tile in (*deal.boneyard, *(t for h in deal.hands for t in h)) if tile not in dealt
    )
    return Deal(tuple(hands), tuple(dict.fromkeys(rest)), deal.designated)


def _blank_only(deal: Deal) -> Deal:
    return _doubles_out(deal, frozenset({Tile(0, 0)}))


#: The ways a deal is bent to find a hand that parts two rule sets, in turn: as dealt,
#: without doubles, and with the double blank as the only double.
_SKEWS = (_keep, _doubles_out, _keep, _blank_only)


def _simulated(rules: Rules, deal: Deal, rng: random.Random) -> Observed:
    """A hand played in process under ``rules`` at random, as an observation of it."""
    hand = Hand(rules, deal)
    steps: list[Step] = []
    while not hand.is_over and len(steps) < LONGEST:
        legal = hand.legal_actions()
        seat = hand.current
        action = legal[rng.randrange(len(legal))]
        hand.apply(action)
        ends = tuple(end.notation for end in hand.ends)
        steps.append(Step(seat, frozenset(map(str, legal)), str(action), ends))
    result = outcome_data(hand.outcome) if hand.outcome is not None else None
    return follow(Observed(len(deal.hands), deal, tuple(steps), result))


def unasked(identification: Ranked, why: str) -> Separation:
    """The rules the tied candidates differ in, each undetermined for ``why`` (there is no
    engine to ask: the candidates were ranked on records)."""
    separation = Separation()
    if not identification.ranking:
        return separation
    names = [family_rules(family)[index] for family, index in disputed(identification)]
    first = identification.ranking[0].candidate.rules
    names += [
        name
        for name in match_rules()
        if any(
            getattr(s.candidate.rules, name) != getattr(first, name) for s in identification.tied
        )
    ]
    for name in dict.fromkeys(names):
        separation.undetermined.append(name)
        separation.why[name] = why
    return separation
