"""How far a rule set agrees with what the engine played, family by family.

A candidate's checks fall in families (:class:`.agreement.Family`), each decided
by its own rules, so candidates alike in a family's rules share its checks: an
:class:`Evaluator` checks each family once per distinct set of its rule values
(a *projection*), on a sample of the hands (:data:`SAMPLE`) or on every hand,
remembering both, and compares two projections check by check
(:meth:`Evaluator.parting`), stopping as soon as the answer is known.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...rules.model import Rules
from .agreement import Checks, Family, family_checks, family_rules, probe_checks
from .candidates import Candidate
from .observe import Observation, Observed

#: Hands in the sample every projection is checked on first.
SAMPLE = 4

#: A projection: the values of one family's rules.
Projection = tuple[object, ...]


@dataclass
class Count:
    """The checks of one family under one projection: made, agreed, on every hand or not,
    and which (bit ``i`` of ``agreed_bits``: check ``i`` of the family's layout agreed)."""

    agreed: int = 0
    checks: int = 0
    full: bool = True
    agreed_bits: int = 0
    judged_bits: int = 0
    #: The checks' places in all (made or not).
    slots: int = 0

    def add(self, checks: Iterable[bool | None]) -> None:
        for held in checks:
            if held is not None:
                self.checks += 1
                self.judged_bits |= 1 << self.slots
                if held:
                    self.agreed += 1
                    self.agreed_bits |= 1 << self.slots
            self.slots += 1

    def then(self, other: Count) -> Count:
        """This count followed by ``other``'s checks."""
        shift = self.slots
        return Count(
            self.agreed + other.agreed,
            self.checks + other.checks,
            self.full and other.full,
            self.agreed_bits | other.agreed_bits << shift,
            self.judged_bits | other.judged_bits << shift,
            self.slots + other.slots,
        )

    @property
    def share(self) -> float:
        """The fraction of checks that agree."""
        return self.agreed / self.checks if self.checks else 0.0


@dataclass
class Score:
    """How far one candidate agrees with the observation."""

    candidate: Candidate
    agreed: int
    checks: int
    #: The rules in which it departs from what the engine plays (:mod:`.inference`).
    departs: tuple[str, ...] = ()
    #: The rules it differs on, each with the checks behind it ("" when none is named).
    differs: Counter[str] = field(default_factory=Counter)

    @property
    def agreement(self) -> float:
        """The fraction of checks that agree."""
        return self.agreed / self.checks if self.checks else 0.0

    @property
    def exact(self) -> bool:
        """Whether every check agrees."""
        return 0 < self.checks == self.agreed


def project(rules: Rules, family: Family) -> Projection:
    """``rules``' values of ``family``'s rules (remembered for the rules objects of the
    candidate pool, which every target compares again)."""
    key = (id(rules), family)
    known = _PROJECTED.get(key)
    if known is not None and known[0] is rules:
        return known[1]
    found = tuple(getattr(rules, name) for name in family_rules(family))
    if len(_PROJECTED) > 200_000:
        _PROJECTED.clear()
    _PROJECTED[key] = (rules, found)
    return found


_PROJECTED: dict[tuple[int, Family], tuple[Rules, Projection]] = {}


def fitting(pool: Iterable[Candidate], observation: Observation) -> list[Candidate]:
    """The candidates that can be compared: the observed set, every observed player count."""
    counts = {hand.players for hand in observation.hands} | {p.players for p in observation.probes}
    pip = observation.rules.max_pip
    return [c for c in pool if c.rules.max_pip == pip and counts <= set(c.rules.players)]


class Evaluator:
    """Each family's checks under any projection, on the sample or on every hand, remembered."""

    def __init__(self, observation: Observation) -> None:
        self.observation = observation
        dealt = observation.hands[: len(observation.hands) - observation.asked]
        step = max(1, len(dealt) // SAMPLE)
        # every hand built to part candidates is in the sample: it was built for it
        asked = observation.hands[len(dealt) :]
        self.sample: Sequence[Observed] = [*dealt[::step][:SAMPLE], *asked]
        picked = {id(hand) for hand in self.sample}
        self.rest: Sequence[Observed] = [h for h in observation.hands if id(h) not in picked]
        #: Every hand, the sample's first: the order of the checks of a full count.
        self.ordered: Sequence[Observed] = [*self.sample, *self.rest]
        self._sampled: dict[tuple[Family, Projection], Count] = {}
        self._full: dict[tuple[Family, Projection], Count] = {}
        self._hands: dict[tuple[Family, Projection], list[Checks]] = {}
        self._rules: dict[tuple[Family, Projection], Rules] = {}

    def rules(self, family: Family, projection: Projection) -> Rules:
        """Rules with ``projection``'s values of ``family``'s rules (the others: any)."""
        key = (family, projection)
        found = self._rules.get(key)
        if found is None:
            values: Mapping[str, Any] = dict(zip(family_rules(family), projection, strict=True))
            found = self._rules[key] = dataclasses.replace(self.observation.rules, **values)
        return found

    def sampled(self, family: Family, projection: Projection) -> Count:
        """``family``'s checks of the sample under ``projection``."""
        key = (family, projection)
        found = self._sampled.get(key)
        if found is None:
            known = self._hands.get(key)
            if known is None or family is Family.DEAL:
                found = self._count(family, projection, self.sample)
            else:
                found = Count()
                for checks in known[: len(self.sample)]:
                    found.add(checks)
            self._sampled[key] = found
        return found

    def full(self, family: Family, projection: Projection) -> Count:
        """``family``'s checks of every hand (and every deal offered) under ``projection``,
        the sample's first."""
        key = (family, projection)
        found = self._full.get(key)
        if found is None:
            if family is Family.DEAL:
                found = self.sampled(family, projection)
            else:
                found = Count()
                for checks in self._checks(family, projection):
                    found.add(checks)
            self._full[key] = found
        return found

    def parting(
        self,
        family: Family,
        trial: Projection,
        base: Projection,
        *,
        any_change: bool,
        every: bool = False,
    ) -> tuple[int, int]:
        """The checks ``trial`` gets right and ``base`` wrong, and the other way round, on
        the sample and on every hand ``base`` gets a check of wrong (where a change can
        win one), or on ``every`` hand: stopping at the first of the second kind (at the
        first of either when ``any_change``), which is all a search for a clean change or
        any change needs."""
        if family is Family.DEAL:
            before, after = self.full(family, base), self.full(family, trial)
            fixed = (after.agreed_bits & ~before.agreed_bits).bit_count()
            return fixed, (before.agreed_bits & ~after.agreed_bits).bit_count()
        rules, scoring = self.rules(family, trial), self.observation.scoring
        known = self._checks(family, base)
        looked = [
            index
            for index, checks in enumerate(known)
            if every or index < len(self.sample) or False in checks
        ]
        fixed = 0
        for index in looked:
            got = family_checks(family, rules, self.ordered[index], scoring)
            for was, now in zip(known[index], got, strict=True):
                if was is True and now is not True:
                    return fixed, 1
                if now is True and was is not True:
                    fixed += 1
                    if any_change:
                        return fixed, 0
        return fixed, 0

    def _checks(self, family: Family, projection: Projection) -> list[Checks]:
        """``family``'s checks of every hand under ``projection``, hand by hand, the sample's
        first (remembered)."""
        key = (family, projection)
        found = self._hands.get(key)
        if found is None:
            rules, scoring = self.rules(family, projection), self.observation.scoring
            found = self._hands[key] = [
                family_checks(family, rules, observed, scoring) for observed in self.ordered
            ]
        return found

    def _count(self, family: Family, projection: Projection, hands: Sequence[Observed]) -> Count:
        count = Count()
        rules = self.rules(family, projection)
        if family is Family.DEAL:
            count.add(probe_checks(rules, self.observation.probes))
            return count
        scoring = self.observation.scoring
        for observed in hands:
            count.add(family_checks(family, rules, observed, scoring))
        return count
