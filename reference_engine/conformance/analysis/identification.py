"""Which shipped rules an engine really plays, from its own games or from its records.

For each variant the engine declares, :func:`identify` deals seeded random hands
of the hand sizes it declares and offers a deal of every other size some
candidate deals (:mod:`.observe`); :func:`identify_records` reads the hands of
game records instead. Every shipped variant with every combination of its
options is a candidate (:mod:`.candidates`), declared or not; each is checked
on every observed hand, step by step at the state the engine reached, so a
rule it breaks does not hide the others (:mod:`.agreement`, :mod:`.ranking`).
What the engine plays is then found rule by rule (:mod:`.inference`), and the
candidates ranked by how many rules they depart in: the variant an engine breaks
in three rules comes first, naming them. Candidates the hands cannot tell apart
are put to the engine with deals built to part them (:mod:`.separation`); what
even those cannot tell apart (a match's rules, from single hands) is said to be
undetermined.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...engine.deal import shape_of
from ...rules import Catalog, Rules
from ..protocol.interface import EngineInfo
from ..session.runner import Runner
from ..suite.casedata import Target
from .candidates import Candidate, candidates, label
from .inference import Inference
from .observe import Observation, from_records, observe
from .ranking import Evaluator, Score
from .rulereport import value_label
from .separation import Separation, separate, unasked

__all__ = ["Identification", "identify", "identify_records", "label", "targets"]

#: How many of the best candidates have what they differ on worked out.
DETAILED = 5


@dataclass
class Identification:
    """One target's observation, every candidate ranked, and what told the best apart."""

    observation: Observation
    ranking: list[Score]
    inference: Inference | None = None
    separation: Separation | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def tied(self) -> list[Score]:
        """The candidates the observation cannot tell from the first (after separation)."""
        if not self.ranking:
            return []
        first = self.ranking[0]
        return [
            score
            for score in self.ranking[1:]
            if score.departs == first.departs
            and score.agreed == first.agreed
            and score.checks == first.checks
        ]


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


def shapes(
    rules: Rules, declared: Mapping[int, int], pool: Iterable[Candidate], counts: Iterable[int]
) -> dict[int, list[tuple[int, ...]]]:
    """Per player count, the hand sizes to deal: the engine's own (declared, else the
    rules'), then every other size a candidate of the same set deals."""
    pool = [c for c in pool if c.rules.max_pip == rules.max_pip]
    found: dict[int, list[tuple[int, ...]]] = {}
    for players in counts:
        own = (declared[players],) * players if players in declared else shape_of(rules, players)
        others = {shape_of(c.rules, players) for c in pool if players in c.rules.players}
        ordered = [own, *sorted(s for s in others if s is not None and s != own)]
        found[players] = [shape for shape in ordered if shape is not None]
    return found


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
    observed = targets(runner.info, catalog)
    if progress is not None:  # (the total is known before any work)
        progress(0, len(observed))
    pool, combinations = candidates(catalog)
    found = []
    for number, target in enumerate(observed):
        rules = catalog.resolve(target.variant, target.options)
        declaration = runner.info.declaration(target.variant)
        allowed = declaration.players
        counts = [
            n
            for n in rules.players
            if (players is None or n == players) and (allowed is None or n in allowed)
        ]
        if counts:
            wanted = shapes(rules, declaration.hand_sizes, pool, counts)
            observation = observe(runner, target, rules, hands, wanted, seed + number)
            one = rank(observation, pool, top)
            if runner.unavailable is None and one.tied:
                separation = separate(one, runner, seed + number)
                if not settled(one, separation):
                    one = rank(observation, pool, top)
                one.separation = separation
            found.append(detail(one, top))
        if progress is not None:
            progress(number + 1, len(observed))
        if runner.unavailable is not None:
            break
    return found, len(pool), combinations


def identify_records(
    records: Sequence[Mapping[str, Any]], catalog: Catalog, top: int | None = None
) -> tuple[list[Identification], int, int]:
    """Rank the candidates for the hands of ``records``, grouped by the variant and options
    each names (records whose variant is unknown are left out, and said so)."""
    pool, combinations = candidates(catalog)
    groups: dict[tuple[str, tuple[tuple[str, str], ...]], list[Mapping[str, Any]]] = {}
    for record in records:
        key = (record["variant"], tuple(sorted(record["options"].items())))
        groups.setdefault(key, []).append(record)
    found = []
    for (variant, options), group in groups.items():
        rules = catalog.resolve(variant, dict(options))
        defaults = {option.name: option.default for option in rules.options}
        target = Target(variant, {k: v for k, v in options if defaults.get(k) != v})
        one = rank(from_records(group, target, rules), pool, top)
        one.separation = unasked(one, "no record puts it to the test")
        found.append(detail(one, top))
    return found, len(pool), combinations


def settled(identification: Identification, separation: Separation) -> bool:
    """Take the engine's answers to the hands built for it into the ranking where each
    names the first candidate's value: every candidate with another value of that rule
    departs in it too. False when an answer names another value, or none: then only
    ranking again from every hand can say what follows."""
    ranking = identification.ranking
    first = ranking[0].candidate.rules
    for parted in separation.parted:
        if parted.plays is None or parted.plays != value_label(first, parted.rule):
            return False
    for score in ranking:
        rules = score.candidate.rules
        extra = tuple(
            parted.rule
            for parted in separation.parted
            if value_label(rules, parted.rule) != parted.plays and parted.rule not in score.departs
        )
        score.departs += extra
    variant = identification.observation.rules.variant
    ranking.sort(
        key=lambda s: (
            len(s.departs),
            s.candidate.variant != variant,
            -s.agreement,
            len(s.candidate.options),
        )
    )
    return True


def rank(observation: Observation, pool: Sequence[Candidate], top: int | None) -> Identification:
    """Every candidate that fits ``observation`` ranked, the first ``top`` (at most
    :data:`DETAILED` when None) with what they differ on."""
    if not observation.hands:
        return Identification(observation, [])
    inference = Inference(Evaluator(observation), pool, observation.rules)
    ranking = inference.ranked(_shown(top))
    return Identification(observation, ranking, inference)


def _shown(top: int | None) -> int:
    return DETAILED if top is None else max(1, min(top, DETAILED))


def detail(identification: Identification, top: int | None) -> Identification:
    """Work out what the first candidates shown differ on."""
    inference = identification.inference
    if inference is not None:
        for score in identification.ranking[: _shown(top)]:
            inference.differences(score)
    return identification
