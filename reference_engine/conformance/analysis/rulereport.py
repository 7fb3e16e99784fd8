"""The verdict per rule: which rules an engine plays as the variants say, and which it breaks.

Every expectation of every case run is tied to the rules it tests
(:mod:`.attribution`); :func:`rule_verdicts` adds them up per rule and value in
force (``draw_when = no_play``), and keeps for each rule that fails the
smallest example: the deviation reached by the shortest line, with its case,
step, position, what was expected and what the engine gave, the SPEC section
and the source's citation. How the reports write a verdict and a deviation is
:mod:`.ruletext`'s.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ...rules import Catalog, Rules
from ...rules.model import PerPlayers, Target
from ...rules.parameters import BY_NAME, ValueKind, as_text_value
from ...rules.sources import registry
from ...rules.vocabulary import TextEnum
from ..judging.attribution import FIXED, FixedRule, section
from ..judging.blame import (
    Key,
    Place,
    assign,
    candidates,
    case_places,
    deviation_candidates,
    evidence_flags,
)
from ..judging.divergences import DifferentialResult, Divergence
from ..judging.verdicts import CaseRun, Deviation, Verdict


class Standing(TextEnum):
    """How a rule stands after a run.

    A rule is never ``held`` when an expectation naming it failed: it is then
    ``broken`` (the deviations single it out), ``implicated`` (a possible cause,
    none singled out), ``cleared`` (a broken rule explains its failures) or a
    ``consequence`` (its failures only follow an earlier deviation of the same
    hand). ``not_judged``: every expectation naming it was taken out by what
    the engine declares.
    """

    BROKEN = "broken"
    IMPLICATED = "implicated"
    CLEARED = "cleared"
    CONSEQUENCE = "consequence"
    HELD = "held"
    NOT_JUDGED = "not_judged"


@dataclass(frozen=True)
class RuleVerdict:
    """How an engine did on one rule with one value, over every case run that tests it."""

    rule: str
    value: str
    section: str
    held: int
    failed: int
    #: The smallest failing example: the case run and its deviation.
    example: tuple[CaseRun, Deviation] | None
    #: Where the value comes from, for the example's variant (publication, text, section).
    source: str
    #: Places in the cases (and kinds of random divergence) that single this rule out
    #: (:mod:`.blame`), and those it could explain with no rule singled out.
    blamed: int = 0
    implicated: int = 0
    random_blamed: int = 0
    random_implicated: int = 0
    #: The shortest random game that shows a divergence behind this rule.
    random_example: Divergence | None = None
    #: Failed expectations that only followed an earlier deviation in the same hand.
    consequences: int = 0
    #: Expectations naming this rule that the engine's declaration took out.
    not_judged: int = 0

    @property
    def standing(self) -> Standing:
        """How the rule stands (:class:`Standing`); never held once one of its
        expectations failed."""
        if self.blamed or self.random_blamed:
            return Standing.BROKEN
        if self.implicated or self.random_implicated:
            return Standing.IMPLICATED
        if self.failed:
            return Standing.CONSEQUENCE if self.consequences >= self.failed else Standing.CLEARED
        if self.not_judged and not self.held:
            return Standing.NOT_JUDGED
        return Standing.HELD

    @property
    def blamed_somewhere(self) -> bool:
        """Whether the rule is broken or implicated (a report shows its example)."""
        return self.standing in (Standing.BROKEN, Standing.IMPLICATED)

    @property
    def quiet(self) -> bool:
        """Whether nothing failed on the rule (held, or not judged)."""
        return self.standing in (Standing.HELD, Standing.NOT_JUDGED)

    @property
    def name(self) -> str:
        """``rule = value``, or the fixed rule's name."""
        if self.value:
            return f"{self.rule} = {self.value}"
        return FIXED_NAMES.get(self.rule, self.rule)


#: The readable names of the fixed rules.
FIXED_NAMES = {rule.value: FIXED[rule][1] for rule in FixedRule}


def value_label(rules: Rules, rule: str, players: int = 0) -> str:
    """The value of ``rule`` under ``rules``, short (empty for a fixed rule); a number per
    player count is given for ``players`` alone when they are known (``6 for 3 players``),
    so the same value is one verdict whichever variant it comes from."""
    parameter = BY_NAME.get(rule)
    if parameter is None:
        return ""
    value = getattr(rules, rule)
    if value is None:
        return "nothing"
    if parameter.kind is ValueKind.MATADOR_MODES:
        return ", ".join(f"{mode.shape.value}/{mode.leaves.match.value}" for mode in value)
    if isinstance(value, PerPlayers):
        if players:
            try:
                return f"{value.entry(players)} for {players} players"
            except KeyError:
                pass
        return ", ".join(f"{key} {number}" for key, number in value.as_dict().items())
    if isinstance(value, Target):
        return f"{value.value} {value.unit.value}"
    if isinstance(value, tuple):
        return ", ".join(map(str, value))
    return as_text_value(value)


def _source(rules: Rules, rule: str) -> str:
    provenance = rules.provenance.get(rule)
    if provenance is None:
        return ""
    titles = registry().publications
    cited = [
        f"{titles.get(c.publication, c.publication)} (text {c.text}, {c.section})"
        for c in provenance.cite
    ]
    if provenance.option:
        cited.insert(0, "option " + "=".join(provenance.option))
    if provenance.gap:
        cited.append(f"a reading of gap {provenance.gap}")
    return "; ".join(dict.fromkeys(cited))


def _size(run: CaseRun, deviation: Deviation) -> tuple[int, int, str, int]:
    return (len(deviation.history), deviation.hand or 0, run.case, deviation.step or 0)


def rule_verdicts(
    runs: Iterable[CaseRun],
    catalog: Catalog | None = None,
    random: DifferentialResult | None = None,
) -> list[RuleVerdict]:
    """Every rule and value the runs tested, broken ones first, each with its counts and blame.

    ``held`` and ``failed`` count the expectations naming the rule; which rules
    are broken or implicated is :mod:`.blame`'s, over the cases and the random
    games' divergences.
    """
    catalog = catalog if catalog is not None else Catalog.shipped()
    resolved: dict[str, Rules] = {}

    def rules_of(target: Any) -> Rules:
        label = target.label()
        if label not in resolved:
            resolved[label] = catalog.resolve(target.variant, target.options)
        return resolved[label]

    held: Counter[Key] = Counter()
    failed: Counter[Key] = Counter()
    unjudged: Counter[Key] = Counter()
    after: Counter[Key] = Counter()
    example: dict[Key, tuple[CaseRun, Deviation]] = {}
    source: dict[Key, str] = {}
    places: list[Place] = []
    for run in runs:
        if run.verdict not in (Verdict.PASS, Verdict.FAIL):
            continue
        rules = rules_of(run.target)

        def key(rule: str, rules: Rules = rules, players: int = run.players) -> Key:
            return (rule, value_label(rules, rule, players))

        for tally, counts in ((held, run.held), (failed, run.failed), (unjudged, run.not_judged)):
            for rule, count in counts.items():
                tally[key(rule)] += count
                source.setdefault(key(rule), _source(rules, rule))
        for deviation, evidence in zip(run.deviations, evidence_flags(run), strict=True):
            if not evidence:
                after.update(key(rule) for rule in deviation.rules)
        places.extend(case_places(run, key))
        for deviation in run.deviations:
            for rule in deviation_candidates(deviation):
                best = example.get(key(rule))
                if best is None or _size(run, deviation) < _size(*best):
                    example[key(rule)] = (run, deviation)
                    source[key(rule)] = _source(rules, rule)
    random_example: dict[Key, Divergence] = {}
    for divergence in random.divergences if random is not None else []:
        rules = rules_of(divergence.target)
        names = candidates(
            divergence.check,
            divergence.rules,
            divergence.history,
            divergence.expected,
            divergence.actual,
            divergence.position,
            divergence.what,
        )
        keys = frozenset((rule, value_label(rules, rule, divergence.players)) for rule in names)
        places.append(Place(keys, random=True))
        for rule_key in keys:
            random_example.setdefault(rule_key, divergence)
            source.setdefault(rule_key, _source(rules, rule_key[0]))
    blame = assign(places)
    order = {name: index for index, name in enumerate(BY_NAME)}
    # every rule counted, or blamed or implicated by what the answers show (the draw order)
    everything = set(held) | set(failed) | set(random_example) | set(unjudged)
    everything |= {rule for rule, _random in (*blame.blamed, *blame.implicated)}
    verdicts = [
        RuleVerdict(
            rule=rule,
            value=value,
            section=section(rule),
            held=held[(rule, value)],
            failed=failed[(rule, value)],
            example=example.get((rule, value)),
            source=source.get((rule, value), ""),
            blamed=blame.blamed[((rule, value), False)],
            implicated=blame.implicated[((rule, value), False)],
            random_blamed=blame.blamed[((rule, value), True)],
            random_implicated=blame.implicated[((rule, value), True)],
            random_example=random_example.get((rule, value)),
            consequences=after[(rule, value)],
            not_judged=unjudged[(rule, value)],
        )
        for rule, value in everything
    ]
    rank = {standing: index for index, standing in enumerate(Standing)}
    verdicts.sort(
        key=lambda v: (
            rank[v.standing],
            -(v.implicated + v.random_implicated),
            order.get(v.rule, len(order)),
            v.rule,
            v.value,
        )
    )
    return verdicts
