"""Which shipped rules an engine really plays, read from the engine's own random games.

:func:`candidates`: every shipped variant with every combination of its option
values, one per distinct set of resolved rules. :func:`observe`: seeded random
hands of a declared variant played on the engine through the
:class:`~.runner.Runner` (its deadlines, restarts, give-up) along the engine's
own legal actions, keeping at every step the seat to act, the legal set, the
action and the ends after it, then the result. :func:`rank`: those lines
replayed on a reference :class:`~reference_engine.engine.hand.Hand` under every
candidate that fits (same set, every observed player count), counting the
checks that agree and naming the rules behind each that does not
(:mod:`.attribution`).

An opening the candidate forbids counts against the opening rules, then the
candidate takes up the engine's opening (that seat, that tile) so the rest of
the hand still tells the other rules apart; any later action it forbids ends its
replay of the hand, the remaining checks unexplained. Single hands do not show
a match's rules (the target, the rotation of openers): candidates differing
only there tie.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..engine.actions import Action, Play
from ..engine.deal import Deal, needs_designated
from ..engine.hand import Hand
from ..engine.record import outcome_data
from ..errors import DealError, IllegalActionError, NotationError
from ..rules import Catalog, Rules, RulesError
from ..rules.model import as_plain
from ..rules.parameters import BY_NAME
from ..rules.vocabulary import DesignatedOpener, Opener, OpeningTile
from . import attribution
from .attribution import Position
from .blame import Place, assign
from .canonical import Mismatch, canonical_set
from .cases import Target
from .engine import EngineFailure, EngineInfo, EngineRefusal
from .runner import Runner
from .verdicts import EngineUnavailable

#: The keys of a hand's result that are compared.
RESULT_KEYS = ("termination", "winner", "pips", "points")
#: A hand longer than this is cut: the engine is taken to be looping.
MAX_STEPS = 1000


@dataclass(frozen=True)
class Candidate:
    """One distinct set of shipped rules: a variant with option values, and its aliases."""

    variant: str
    options: Mapping[str, str]
    rules: Rules
    key: str
    labels: tuple[str, ...]

    @property
    def label(self) -> str:
        """``variant`` or ``variant:option=value,...`` (the options off their default)."""
        return self.labels[0]


def _rule_key(rules: Rules) -> str:
    return json.dumps([as_plain(getattr(rules, name)) for name in BY_NAME], sort_keys=True)


def label(variant: str, options: Mapping[str, str]) -> str:
    """``variant`` or ``variant:option=value,...``."""
    chosen = ",".join(f"{name}={value}" for name, value in options.items())
    return f"{variant}:{chosen}" if chosen else variant


def candidates(catalog: Catalog) -> tuple[list[Candidate], int]:
    """Every distinct candidate (in a variant, fewer options off their default first), and
    how many option combinations were resolved."""
    found: dict[str, Candidate] = {}
    combinations = 0
    for variant in catalog.ids():
        offered = [
            [None, *((o.name, v.name) for v in o.values if v.name != o.default)]
            for o in catalog.resolve(variant).options
        ]
        every = [dict(filter(None, combo)) for combo in itertools.product(*offered)]
        for chosen in sorted(every, key=len):
            combinations += 1
            try:
                rules = catalog.resolve(variant, chosen)
            except RulesError:
                continue
            key, name = _rule_key(rules), label(variant, chosen)
            if key in found:
                found[key] = dataclasses.replace(found[key], labels=(*found[key].labels, name))
            else:
                found[key] = Candidate(variant, chosen, rules, key, (name,))
    return list(found.values()), combinations


def targets(info: EngineInfo, catalog: Catalog) -> list[Target]:
    """Each known variant the engine declares, each option at its default when the engine
    declares it (or no value), else at the first known value it declares."""
    declared = info.variants
    found = []
    for variant in catalog.ids() if declared is None else declared:
        if variant in catalog.ids():
            allowed = {} if declared is None else declared[variant]
            options = {}
            for option in catalog.resolve(variant).options:
                known = {value.name for value in option.values}
                values = [v for v in allowed.get(option.name) or () if v in known]
                if values and option.default not in values:
                    options[option.name] = values[0]
            found.append(Target(variant, options))
    return found


# --------------------------------------------------------------------------- observing


@dataclass(frozen=True)
class Step:
    """What the engine said at one step: who acts, what is legal, what was played, the ends."""

    seat: int
    legal: frozenset[str]
    action: str
    ends: tuple[str, ...]


@dataclass(frozen=True)
class Observed:
    """One hand the engine played: the deal (its lot always drawn), the steps, the result."""

    players: int
    deal: Deal
    steps: tuple[Step, ...]
    result: Mapping[str, Any] | None


@dataclass
class Observation:
    """Every hand observed for one target, and what kept others from being observed."""

    target: Target
    rules: Rules
    hands: list[Observed] = field(default_factory=list)
    notes: Counter[str] = field(default_factory=Counter)


class _Cut(Exception):
    """The engine's hand cannot be recorded (an answer outside the notation, a loop)."""


def observe(
    runner: Runner, target: Target, rules: Rules, hands: int, players: Iterable[int], seed: int
) -> Observation:
    """``hands`` hands per player count, played on the engine along its own legal actions.

    Stops early when the runner gives up on the engine (``runner.unavailable`` says why).
    """
    observation = Observation(target, rules)
    rng = random.Random(seed)
    for count in players:
        for _ in range(hands):
            deal = Deal.shuffled(rules, count, rng, designated=rng.randrange(count))
            data = deal.to_data()
            if not needs_designated(rules):
                del data["designated"]  # the lot is for the candidates that use one
            try:
                observation.hands.append(_play(runner, target, count, deal, data, rng))
            except EngineUnavailable:
                return observation
            except EngineFailure as failure:
                observation.notes[f"the engine failed: {failure.message}"] += 1
                runner.count_failure(failure)
                runner.restart()
                continue
            except EngineRefusal as refusal:
                observation.notes[f"the engine refused a valid request: {refusal}"] += 1
                if refusal.code == "unsupported":
                    break
            except _Cut as cut:
                observation.notes[str(cut)] += 1
            runner.failures_in_a_row = 0
    return observation


def _play(
    runner: Runner, target: Target, players: int, deal: Deal, data: Any, rng: random.Random
) -> Observed:
    engine = runner.engine()
    engine.new_match(target.variant, target.options, players)
    engine.new_hand(data)
    steps: list[Step] = []
    while (seat := engine.to_act()) is not None:
        try:
            legal = frozenset(canonical_set(engine.legal(), "the engine"))
        except Mismatch as mismatch:
            raise _Cut(mismatch.message) from None
        if not legal or len(steps) >= MAX_STEPS:
            raise _Cut("the engine has a seat to act but no legal action, or never ends a hand")
        action = sorted(legal)[rng.randrange(len(legal))]
        reason = engine.apply(action, None)
        if reason is not None:
            raise _Cut(f"the engine refused an action it gave as legal ({reason})")
        steps.append(Step(seat, legal, action, tuple(" ".join(e.split()) for e in engine.ends())))
    result = engine.result()
    kept = None if result is None else {key: result.get(key) for key in RESULT_KEYS}
    return Observed(players, deal, tuple(steps), kept)


# --------------------------------------------------------------------------- comparing


@dataclass
class Score:
    """How far one candidate explains an observation: checks, agreements, rules differing."""

    candidate: Candidate
    checks: int = 0
    agreed: int = 0
    #: Checks after the engine left the candidate's rules: none of them agrees.
    unexplained: int = 0
    #: The rules behind the checks that do not agree, each with a count ("" when none).
    differs: Counter[str] = field(default_factory=Counter)
    #: Whether to name those rules (the costly part; ranking alone does not need it).
    attribute: bool = True
    #: The rules named by the failed checks of each step (the candidate replays the
    #: engine's own line, so a step's checks share a cause and later steps are not
    #: consequences), narrowed by :func:`.blame.assign` into ``differs``.
    places: list[list[frozenset[str]]] = field(default_factory=list)
    #: The step being checked, and the step of the last place a check failed at.
    step: int = 0
    first: int | None = None

    @property
    def agreement(self) -> float:
        """The fraction of checks that agree."""
        return self.agreed / self.checks if self.checks else 0.0

    @property
    def exact(self) -> bool:
        """Whether every check agrees."""
        return 0 < self.checks == self.agreed

    def check(self, held: bool, rules: Callable[..., tuple[str, ...]], *at: Any) -> None:
        """Count one check; when it does not hold, the rules ``rules(*at)`` names."""
        self.checks += 1
        if held:
            self.agreed += 1
        elif self.attribute:
            if self.first != self.step:
                self.first = self.step
                self.places.append([])
            self.places[-1].append(frozenset(rules(*at) or ("",)))

    def at(self, step: int, *, fresh: bool = False) -> None:
        """The checks now made are at ``step`` of the hand; ``fresh``: a new hand, or one
        the candidate took up again after the engine's opening."""
        self.step = step
        if fresh:
            self.first = None

    def narrow(self) -> None:
        """``differs``: the rules the places single out, or else implicate (:mod:`.blame`)."""
        found = [
            Place(
                frozenset(
                    (name, "") for name in frozenset.intersection(*sets) or frozenset.union(*sets)
                )
            )
            for sets in self.places
            if sets
        ]
        blame = assign(found)
        for counts in (blame.blamed, blame.implicated):
            for ((rule, _), _random), count in counts.items():
                self.differs[rule] += count

    def give_up(self, remaining: int) -> None:
        """The rest of the hand's checks are unexplained."""
        self.checks += remaining
        self.unexplained += remaining


def compare(candidate: Candidate, observation: Observation, *, attribute: bool = True) -> Score:
    """Replay every observed hand under ``candidate`` and count what agrees."""
    score = Score(candidate, attribute=attribute)
    # The candidate with the deal's designated seat opening with any tile: to follow an opening.
    anchored = dataclasses.replace(
        candidate.rules,
        opener=Opener.DESIGNATED,
        designated_opener=DesignatedOpener.BY_LOT_EACH_HAND,
        opening_tile=OpeningTile.ANY_TILE,
        opener_lacks_double=None,
    )
    for observed in observation.hands:
        _replay(score, candidate.rules, anchored, observed)
    if attribute:
        score.narrow()
    return score


def _replay(score: Score, rules: Rules, anchored: Rules, observed: Observed) -> None:
    steps = observed.steps
    try:
        hand = Hand(rules, observed.deal)
    except DealError:
        problem = observed.deal.problems(rules, observed.players)[0]
        score.places.append([frozenset({problem.rule or attribution.FixedRule.DEAL.value})])
        score.give_up(3 * len(steps) + len(RESULT_KEYS))
        return
    score.at(0, fresh=True)
    for index, step in enumerate(steps):
        score.at(index)
        position = Position(rules, hand)
        offered = {str(action): action for action in hand.legal_actions()}
        seat = None if hand.is_over else hand.current
        disputed = offered.keys() ^ step.legal
        score.check(seat == step.seat, _to_act_rules, position)
        score.check(
            seat == step.seat and not disputed,
            attribution.legal_rules,
            position,
            disputed or step.legal,
        )
        action = offered.get(step.action) if seat == step.seat else None
        before = Position(rules, hand.copy() if score.attribute else hand)
        if action is not None:
            hand.apply(action)
        elif index == 0 and (opened := _follow_opening(anchored, observed, step)) is not None:
            hand = opened
            score.at(index + 1, fresh=True)  # the candidate follows the engine again
        else:
            score.give_up(1 + 3 * (len(steps) - index - 1) + len(RESULT_KEYS))
            return
        ends = tuple(end.notation for end in hand.ends)
        score.check(ends == step.ends, attribution.ends_rules, before, step.action)
    score.at(len(steps))
    _check_result(score, Position(rules, hand), observed)


def _follow_opening(anchored: Rules, observed: Observed, step: Step) -> Hand | None:
    """The engine's opening under the anchored rules, or None when it is not an opening play."""
    try:
        action = Action.parse(step.action)
        if not isinstance(action, Play) or not action.is_opening:
            return None
        hand = Hand(anchored, dataclasses.replace(observed.deal, designated=step.seat))
        hand.apply(action)
    except (DealError, NotationError, IllegalActionError):
        return None
    return hand


def _to_act_rules(position: Position) -> tuple[str, ...]:
    hand = position.hand
    if hand is not None and hand.is_over:
        if not hand.history:  # the candidate deals again where the engine plays
            return attribution.opening_rules(position)
        return attribution.result_rules(position, "termination")
    return attribution.to_act_rules(position)


def _check_result(score: Score, position: Position, observed: Observed) -> None:
    hand = position.hand
    assert hand is not None
    outcome = None if hand.outcome is None else outcome_data(hand.outcome)
    result = observed.result
    # A hand dealt again on one side only is told apart by its opening, not its end.
    opening = not observed.steps or not hand.history
    for key in RESULT_KEYS:
        held = outcome is not None and result is not None and outcome[key] == result[key]
        if opening:
            score.check(held, attribution.opening_rules, position)
        else:
            score.check(held, attribution.result_rules, position, key)


def rank(observation: Observation, pool: Iterable[Candidate], top: int | None) -> list[Score]:
    """The score of every candidate that fits (the observed set, every observed player
    count), the best first; the first ``top`` (all when None) name the rules they differ
    on. Ties go to the declared target's own rules, then to fewer options changed."""
    own, counts = _rule_key(observation.rules), {hand.players for hand in observation.hands}
    scores = [
        compare(candidate, observation, attribute=False)
        for candidate in pool
        if candidate.rules.max_pip == observation.rules.max_pip
        and counts <= set(candidate.rules.players)
    ]
    scores.sort(key=lambda s: (-s.agreement, s.candidate.key != own, len(s.candidate.options)))
    named = len(scores) if top is None else top
    scores[:named] = [compare(score.candidate, observation) for score in scores[:named]]
    return scores


@dataclass
class Identification:
    """One target's observation and the candidates ranked against it."""

    observation: Observation
    ranking: list[Score]


def identify(
    runner: Runner,
    catalog: Catalog,
    *,
    hands: int,
    seed: int,
    players: int | None = None,
    top: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[Identification], int, int]:
    """Observe the engine on every target it declares and rank the candidates for each.

    Returns the identifications and the numbers of candidates and of option
    combinations. Raises :class:`EngineUnavailable` when the engine cannot be
    started; when the runner gives up on it later, what was observed is ranked
    (``runner.unavailable`` says why the rest was not). ``progress`` is told
    (targets done, targets in all) before the first target and after each.
    """
    runner.engine()
    assert runner.info is not None
    pool, combinations = candidates(catalog)
    found = []
    observed = targets(runner.info, catalog)
    if progress is not None:
        progress(0, len(observed))
    for number, target in enumerate(observed):
        rules = catalog.resolve(target.variant, target.options)
        counts = [n for n in rules.players if players is None or n == players]
        if counts:
            observation = observe(runner, target, rules, hands, counts, seed + number)
            found.append(Identification(observation, rank(observation, pool, top)))
        if progress is not None:
            progress(number + 1, len(observed))
        if runner.unavailable is not None:
            break
    return found, len(pool), combinations
