"""What the engine plays, rule by rule, and where each candidate departs from it.

For each family of checks (:class:`.agreement.Family`), :class:`Inference` looks
for the values of the family's rules that agree best with the engine: starting
from the declared variant's values and from the best shipped projection, it
changes one rule at a time to any value some candidate gives it, keeping a
change that agrees better on the sample and then on every hand, until none
does. What it finds need not be any shipped rule set: an engine that breaks
three rules of a variant is that variant with three other values.

A candidate *departs* in a rule where its value differs from the one found and
the difference changes which checks agree (on the sample): a rule the observed
hands never put to the test is not held against it. A change that wins checks
but breaks others is not taken (:func:`_gain`): an engine that breaks a rule no
shipped value describes would otherwise pull other rules towards values that
happen to hide part of it. Candidates are ranked by how many rules
they depart in, then the declared variant first, then by agreement, so the
variant an engine breaks in three rules comes before one that happens to agree on
more checks in other ways.
:meth:`Inference.differences` counts, for a shown candidate, the checks each
departing rule costs, and names the rules behind the checks that no value
found gets right (:mod:`.blame`, as the conformance report does).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cached_property

from ...engine.deal import sized
from ...engine.hand import Hand
from ...engine.state import hand_at
from ...errors import IllegalActionError
from ...rules.kinds import Decides
from ...rules.model import PerPlayers, Rules
from ...rules.parameters import BY_NAME, deciding
from ...rules.vocabulary import TargetUnit
from ..judging import attribution
from ..judging.attribution import Position
from ..judging.blame import Place, assign
from .agreement import Family, Where, family_checks, family_rules, match_rules, probe_checks
from .candidates import Candidate
from .observe import Observed
from .ranking import Count, Evaluator, Projection, Score, fitting, project

#: Rounds of one-rule changes tried at most from each start.
ROUNDS = 6
#: The numbers per player count tried beside the shipped ones, from 0.
NEAR = 4
#: A change is clean when it breaks at most one agreeing check for this many it wins.
TOLERANCE = 50
#: The rules every candidate compared shares by construction: never inferred.
_FIXED = frozenset({"max_pip", "players"})
#: What a combination of values no rule set holds may raise when its tables are built.
_UNPLAYABLE = (ValueError, KeyError, TypeError, AttributeError, AssertionError)
#: The rule a deal of other sizes breaks (the rule that deals).
_DEAL_RULE = deciding(Decides.DEAL)[0]
#: The rule a match ended otherwise departs in (who wins it, and when), and its place.
_MATCH_RULE = next(n for n in match_rules() if Decides.MATCH_WINNER in BY_NAME[n].decides)
_MATCH_WINNER: tuple[None, int] = (None, 0)


class Inference:
    """The values of every family's rules that agree best with the engine."""

    def __init__(self, evaluator: Evaluator, pool: Iterable[Candidate], own: Rules) -> None:
        self.evaluator = evaluator
        self.own = own
        self.candidates = fitting(pool, evaluator.observation)
        #: Per family, the values each rule takes in some candidate, the own value first.
        self.values: dict[Family, list[list[object]]] = {}
        self.found: dict[Family, Projection] = {}
        self._matters: dict[tuple[Family, int, object, bool], bool] = {}
        self._departs: dict[tuple[object, ...], tuple[tuple[Family | None, int], ...]] = {}
        self._applying: dict[tuple[Family, int], bool] = {}
        for family in Family:
            names = family_rules(family)
            values: list[list[object]] = [[value] for value in project(own, family)]
            for projection in dict.fromkeys(project(c.rules, family) for c in self.candidates):
                for index, value in enumerate(projection):
                    if value not in values[index] and names[index] not in _FIXED:
                        values[index].append(value)
            for index, value in enumerate(project(own, family)):
                values[index] += [v for v in _counts_near(value) if v not in values[index]]
            self.values[family] = values
            self.found[family] = self._infer(family)

    def _count(self, family: Family, projection: Projection) -> Count:
        """The checks of every hand under ``projection``; none agree when its values cannot
        be played together (a combination no rule set holds, that the tables refuse)."""
        try:
            return self.evaluator.full(family, projection)
        except _UNPLAYABLE:
            return Count(0, 1)

    def _parting(
        self,
        family: Family,
        trial: Projection,
        base: Projection,
        any_change: bool,
        every: bool = False,
    ) -> tuple[int, int]:
        try:
            return self.evaluator.parting(family, trial, base, any_change=any_change, every=every)
        except _UNPLAYABLE:
            return 0, 1

    def _infer(self, family: Family) -> Projection:
        """From the declared values, one clean change at a time (the one that wins most), as
        long as one wins anything."""
        current = project(self.own, family)
        if family is Family.DEAL:
            return current  # the deal is judged by the deals offered, count by count
        count = self._count(family, current)
        for _ in range(ROUNDS):
            if count.agreed == count.checks:
                break
            chosen, chosen_count, gained = None, count, 0
            for trial in self._neighbours(family, current):
                fixed, broken = self._parting(family, trial, current, False)
                if broken or not fixed:
                    continue
                trial_count = self._count(family, trial)
                gain = _gain(count, trial_count)
                if gain > gained:
                    chosen, chosen_count, gained = trial, trial_count, gain
            if chosen is None:
                break
            current, count = chosen, chosen_count
        return current

    def _neighbours(self, family: Family, projection: Projection) -> list[Projection]:
        """Every projection one rule's value away from ``projection``."""
        found = []
        for index, values in enumerate(self.values[family]):
            for value in values:
                if value != projection[index]:
                    found.append((*projection[:index], value, *projection[index + 1 :]))
        return found

    def matters(self, family: Family, index: int, value: object, every: bool = False) -> bool:
        """Whether giving rule ``index`` of ``family`` the value ``value`` in place of the one
        found changes which checks agree: on the sample (and the hands the values found
        get wrong), or on ``every`` hand."""
        key = (family, index, value, every)
        known = self._matters.get(key)
        if known is None:
            found = self.found[family]
            if not self._applies(family, index):
                known = self._matters[key] = False  # no value of it has any effect here
                return known
            if not every and self._matters.get((family, index, value, True)) is not None:
                return self._matters[family, index, value, True]
            changed = (*found[:index], value, *found[index + 1 :])
            known = self._parting(family, changed, found, True, every) != (0, 0)
            self._matters[key] = known
        return known

    def _applies(self, family: Family, index: int) -> bool:
        """Whether rule ``index`` of ``family`` has any effect under the values found (a rule
        that applies only under other values of other rules has none here, whatever its
        own value)."""
        key = (family, index)
        known = self._applying.get(key)
        if known is None:
            rules = self.evaluator.rules(family, self.found[family])
            known = self._applying[key] = rules.applicable(family_rules(family)[index])
        return known

    def departs(self, rules: Rules, every: bool = False) -> tuple[tuple[Family | None, int], ...]:
        """The rules (family, index) in which ``rules`` depart from what the engine plays,
        judged on the sample, or on ``every`` hand (remembered per distinct set of
        projections: candidates share most of them)."""
        key = (*(project(rules, family) for family in Family), rules.target, every)
        known = self._departs.get(key)
        if known is not None:
            return known
        parted: list[tuple[Family | None, int]] = []
        deal = family_rules(Family.DEAL)
        if not all(probe_checks(rules, self.evaluator.observation.probes)):
            parted.append((Family.DEAL, deal.index(_DEAL_RULE)))
        if not self._matches_end_alike(rules):
            parted.append(_MATCH_WINNER)
        for family in Family:
            if family is Family.DEAL:
                continue
            found = self.found[family]
            for index, (value, inferred) in enumerate(
                zip(project(rules, family), found, strict=True)
            ):
                if value != inferred and self.matters(family, index, value, every):
                    parted.append((family, index))
        found_parted = self._departs[key] = tuple(parted)
        return found_parted

    def _matches_end_alike(self, rules: Rules) -> bool:
        """Whether every match a record keeps ends, under ``rules``' target, where and as
        it says: no hand after a side reached the target, and the winner it names."""
        target = rules.target
        for results, claimed in self.evaluator.observation.matches:
            totals: list[int] = []
            winner: int | None = None
            for result in results:
                if winner is not None:
                    return False  # a hand played after the match was won
                points = result.get("points") or []
                totals += [0] * (len(points) - len(totals))
                for side, scored in enumerate(points):
                    if target.unit is TargetUnit.POINTS and isinstance(scored, int):
                        totals[side] += scored
                won = result.get("winner")
                if target.unit is TargetUnit.HANDS and isinstance(won, int) and won < len(totals):
                    totals[won] += 1
                reached = [side for side, total in enumerate(totals) if total >= target.value]
                winner = reached[0] if reached else None
            if winner != claimed.get("winner"):
                return False
        return True

    def score(self, candidate: Candidate) -> Score:
        """``candidate``'s checks on every hand, summed over its families."""
        agreed = checks = 0
        for family in Family:
            count = self._count(family, project(candidate.rules, family))
            agreed, checks = agreed + count.agreed, checks + count.checks
        parted = self.departs(candidate.rules, every=True)
        return Score(candidate, agreed, checks, _names(parted))

    def ranked(self, scored: int) -> list[Score]:
        """Every candidate, the fewest departures first; among as few, the declared variant's
        first (the engine says it plays it), then the fewest options changed. The first
        ``scored``, and every candidate departing alike with the first, are scored on every
        hand (and ordered by agreement among as many departures); the others are not."""
        variant = self.own.variant
        # judged on the sample first; the head of the ranking then on every hand, until the
        # head is judged whole (a departure found on every hand only moves a candidate down)
        parted = {id(c): self.departs(c.rules) for c in self.candidates}
        whole: set[int] = set()

        def order(candidate: Candidate) -> tuple[int, bool, int]:
            return (
                len(parted[id(candidate)]),
                candidate.variant != variant,
                len(candidate.options),
            )

        while True:
            ordered = sorted(self.candidates, key=order)
            if not ordered:
                return []
            least = len(parted[id(ordered[0])])
            head = [c for n, c in enumerate(ordered) if n < scored or len(parted[id(c)]) <= least]
            rest = [c for c in head if id(c) not in whole]
            if not rest:
                break
            for candidate in rest:
                parted[id(candidate)] = self.departs(candidate.rules, every=True)
                whole.add(id(candidate))
        first = parted[id(ordered[0])]
        scores = []
        for number, candidate in enumerate(ordered):
            if number < scored or parted[id(candidate)] == first:
                scores.append(self.score(candidate))
            else:
                scores.append(Score(candidate, 0, 0, _names(parted[id(candidate)])))
        judged = [s for s in scores if s.checks]

        def by_agreement(score: Score) -> tuple[int, bool, float, int]:
            candidate = score.candidate
            return (
                len(score.departs),
                candidate.variant != variant,
                -score.agreement,
                len(candidate.options),
            )

        return sorted(judged, key=by_agreement) + [s for s in scores if not s.checks]

    #: The rules a deal of other sizes departs in.
    dealt_rule = frozenset({attribution.deal_rules(Rules.__new__(Rules), {})[0]})

    def _family_of(self, rule: str) -> Family | None:
        """The family whose search found ``rule`` otherwise than declared, else the first
        that holds it (a rule two families share is found in each)."""
        holding = [family for family in Family if rule in family_rules(family)]
        for family in holding:
            index = family_rules(family).index(rule)
            if self.found[family][index] != project(self.own, family)[index]:
                return family
        return holding[0] if holding else None

    def rules_with(self, rule: str) -> Rules:
        """Rules with the values found of the family ``rule`` was found in."""
        family = self._family_of(rule)
        if family is None:
            return self.evaluator.observation.rules
        return self.evaluator.rules(family, self.found[family])

    def inferred(self, rule: str) -> object:
        """The value found for ``rule``."""
        family = self._family_of(rule)
        if family is None:
            raise KeyError(rule)
        return self.found[family][family_rules(family).index(rule)]

    # ------------------------------------------------------------------ what differs

    def differences(self, score: Score) -> None:
        """Fill ``score.differs``: the checks each rule it departs in costs, and the rules
        behind the checks no value found gets right."""
        rules = score.candidate.rules
        probes = probe_checks(rules, self.evaluator.observation.probes)
        if _DEAL_RULE in score.departs:
            score.differs[_DEAL_RULE] += probes.count(False)
        for family in Family:
            if family is Family.DEAL:
                continue
            names, found = family_rules(family), self.found[family]
            best = self._count(family, found).agreed
            mine = project(rules, family)
            for index, name in enumerate(names):
                if name in score.departs and mine[index] != found[index]:
                    changed = (*found[:index], mine[index], *found[index + 1 :])
                    score.differs[name] += max(0, best - self._count(family, changed).agreed)
        for name in score.departs:
            score.differs[name] = score.differs[name] or 1  # (it changes what agrees: at least one)
        score.differs.update(self.residue)

    @cached_property
    def residue(self) -> Counter[str]:
        """The rules behind the checks the values found get wrong, each with its checks."""
        residue: Counter[str] = Counter()
        blame = assign(self.unexplained())
        for counts in (blame.blamed, blame.implicated):
            for ((rule, _), _random), count in counts.items():
                residue[str(rule)] += count
        return residue

    def unexplained(self) -> list[Place]:
        """A place for each check that the values found get wrong, with its deciding rules."""
        places: list[Place] = []
        observation = self.evaluator.observation
        for family in Family:
            if family is Family.DEAL:
                continue  # (each candidate's own deals are its departure, above)
            rules = self.evaluator.rules(family, self.found[family])
            for number, observed in enumerate(observation.hands):
                where: list[Where] = []
                checks = family_checks(family, rules, observed, observation.scoring, where)
                for held, (step, kind) in zip(checks, where, strict=True):
                    if held is False:
                        named = _deciding(rules, observed, step, kind)
                        # a rule of the match cannot decide a check of one hand
                        ruling = set(family_rules(family))
                        named = tuple(r for r in named if r in ruling) or named
                        places.append(_place(named, (number, step)))
        return places


def _counts_near(value: object) -> list[PerPlayers]:
    """For a number per player count (a reserve), the same number for every count from 0 to
    :data:`NEAR`: an engine may keep a number no rule set gives, and the number is worth
    finding, not only the rule."""
    if not isinstance(value, PerPlayers):
        return []
    given = {key: number for key, number in value.as_dict().items() if isinstance(number, int)}
    return [
        dataclasses.replace(value, **dict.fromkeys(given, number)) for number in range(NEAR + 1)
    ]


def _gain(before: Count, after: Count) -> int:
    """The checks a change wins, when it is clean: it breaks no check that agreed (or
    hardly any: one in :data:`TOLERANCE` of those it wins); else 0."""
    fixed = (after.agreed_bits & ~before.agreed_bits).bit_count()
    broken = (before.agreed_bits & ~after.agreed_bits).bit_count()
    return fixed - broken if broken * TOLERANCE <= fixed else 0


def _names(parted: Sequence[tuple[Family | None, int]]) -> tuple[str, ...]:
    """The names of the rules departed in, each once."""
    return tuple(
        dict.fromkeys(
            _MATCH_RULE if family is None else family_rules(family)[index]
            for family, index in parted
        )
    )


def _place(rules: Sequence[str], where: object) -> Place:
    return Place(frozenset((name, "") for name in rules or ("",)), where=where)


def _before(rules: Rules, observed: Observed, step: int) -> Hand | None:
    """The hand under ``rules`` before ``step``, an opening step, followed as the engine
    played (None where the rules cannot follow it there)."""
    try:
        hand = Hand(rules, observed.deal)
        for read in observed.parsed[:step]:
            if read is None:
                return None
            hand.apply(read.action)
    except (ValueError, IllegalActionError):
        return None
    return hand


def _deciding(rules: Rules, observed: Observed, step: int | None, kind: str) -> tuple[str, ...]:
    """The rules that decide the check ``kind`` at ``step`` (None: the result) of a hand."""
    rules = sized(rules, observed.players, observed.shape)
    if step is None:
        final = observed.states[-1] if observed.states else None
        hand = hand_at(rules, final) if final is not None else None
        return attribution.result_rules(Position(rules, hand), kind)
    state = observed.states[step]
    hand = _before(rules, observed, step) if state is None else hand_at(rules, state)
    if hand is None:
        return attribution.opening_rules(Position(rules, None))
    position = Position(rules, hand)
    if kind == "to_act":
        return attribution.to_act_rules(position)
    if kind == "ends":
        return attribution.ends_rules(position, observed.steps[step].action)
    legal = observed.steps[step].legal
    hand = position.hand
    offered = {str(action) for action in hand.legal_actions()} if hand is not None else set()
    disputed = offered ^ legal if legal is not None else {observed.steps[step].action}
    return attribution.legal_rules(position, disputed)
