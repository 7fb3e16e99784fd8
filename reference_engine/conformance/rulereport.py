"""The verdict per rule: which rules an engine plays as the variants say, and which it breaks.

Every expectation of every case run is tied to the rules it tests
(:mod:`.attribution`); :func:`rule_verdicts` adds them up per rule and value in
force (``draw_when = no_play``), and keeps for each rule that fails the
smallest example: the deviation reached by the shortest line, with its case,
step, position, what was expected and what the engine gave, the SPEC section
and the source's citation. :func:`deviation_lines` writes one deviation the way
every report shows it: actions in the notation, seats by number, points per
seat in seat order, and "nothing" for an absent value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..rules import Catalog, Rules
from ..rules.model import PerPlayers, Target
from ..rules.parameters import BY_NAME, ValueKind, as_text_value
from ..rules.sources import registry
from ..rules.vocabulary import TextEnum
from .attribution import FIXED, FixedRule, section
from .blame import (
    Key,
    Place,
    assign,
    candidates,
    case_places,
    deviation_candidates,
    evidence_flags,
)
from .divergences import DifferentialResult, Divergence
from .verdicts import CaseRun, Check, Deviation, Verdict

#: The checks whose values are lists in seat order (not sets of actions).
_BY_SEAT = frozenset({"pips", "points", "scores", "hands_won"})


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


# --------------------------------------------------------------------------- writing values


def shown(value: Any, key: str = "") -> str:
    """A value as a report shows it: notation, seats by number, "nothing" for None."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list) and key in _BY_SEAT:
        return ", ".join(f"seat {seat} {shown(item)}" for seat, item in enumerate(value))
    if isinstance(value, list):
        return " ".join(shown(item) for item in value) if value else "none"
    if isinstance(value, dict):
        return ", ".join(f"{k} {shown(v, k)}" for k, v in value.items())
    return str(value)


def _key(deviation: Deviation) -> str:
    """The result or match key a deviation is about (``points``), else empty."""
    if deviation.check in (Check.RESULT, Check.MATCH):
        return deviation.message.split()[1] if len(deviation.message.split()) > 1 else ""
    return ""


def difference_lines(deviation: Deviation) -> list[str]:
    """What was expected and what the engine gave, set-wise for actions, seat-wise for numbers."""
    expected, actual = deviation.expected, deviation.actual
    sets = deviation.check in (Check.LEGAL, Check.INCLUDES, Check.EXCLUDES)
    if sets and isinstance(expected, list) and isinstance(actual, list):
        lines = []
        if deviation.check is Check.LEGAL:
            missing = [item for item in expected if item not in actual]
            extra = [item for item in actual if item not in expected]
        elif deviation.check is Check.INCLUDES:
            missing, extra = list(expected), []
        else:
            missing, extra = [], list(actual)
        if missing:
            lines.append("expected but missing: " + " ".join(map(str, missing)))
        if extra:
            lines.append("present but unexpected: " + " ".join(map(str, extra)))
        return lines or [f"expected {shown(expected)}, got {shown(actual)}"]
    key = _key(deviation)
    return [f"expected: {shown(expected, key)}", f"got:      {shown(actual, key)}"]


def rules_text(rules: Sequence[str]) -> str:
    """Rules with their sections: ``points (SPEC 10.2), the deal (SPEC 5.6)``."""
    return ", ".join(f"{FIXED_NAMES.get(rule, rule)} ({section(rule)})" for rule in rules)


def deviation_lines(deviation: Deviation) -> list[str]:
    """One deviation: where, what, the rules behind it, the position and the line that led there."""
    place = []
    if deviation.hand is not None:
        place.append(f"hand {deviation.hand + 1}")
    if deviation.step is not None:
        place.append(f"step {deviation.step + 1}")
    lines = [(", ".join(place) + ": " if place else "") + deviation.message]
    lines.extend("  " + line for line in difference_lines(deviation))
    if deviation.rules:
        lines.append("  rule: " + rules_text(deviation.rules))
    if deviation.position:
        lines.append("  the reference's position: " + deviation.position)
    if deviation.history:
        lines.append("  after: " + " ".join(deviation.history))
    return lines


def blame_text(verdict: RuleVerdict) -> str:
    """How a rule stands, in words: ``broken: 2 places single it out (1 in random games)``."""
    standing = verdict.standing
    if standing is Standing.CLEARED:
        return (
            f"cleared: {verdict.failed} failed expectation(s) naming it are explained by "
            "a broken rule"
        )
    if standing is Standing.CONSEQUENCE:
        return (
            f"a consequence: its {verdict.failed} failed expectation(s) only follow an "
            "earlier deviation in the same hand"
        )
    if standing is Standing.NOT_JUDGED:
        return (
            f"not judged: the engine declares it does not do what its {verdict.not_judged} "
            "expectation(s) need"
        )
    if standing is Standing.HELD:
        return "held"
    if standing is Standing.BROKEN:
        what, scripted, random = "broken", verdict.blamed, verdict.random_blamed
        how = "single it out"
    else:
        what, scripted, random = "implicated", verdict.implicated, verdict.random_implicated
        how = "could come from it, or from another rule named there"
    counts = []
    if scripted:
        counts.append(f"{scripted} place(s) in the cases")
    if random:
        counts.append(f"{random} kind(s) of random-game divergence")
    return f"{what}: {' and '.join(counts)} {how}"


def rule_lines(verdicts: Sequence[RuleVerdict]) -> list[str]:
    """The per-rule verdict as text: every broken or implicated rule with its smallest example."""
    lines = []
    for verdict in verdicts:
        if verdict.quiet:
            continue
        lines.append(
            f"RULE {verdict.name} ({verdict.section}): {blame_text(verdict)}; "
            f"{verdict.failed} expectation(s) naming it failed, {verdict.held} held"
        )
        if verdict.source:
            lines.append(f"  source: {verdict.source}")
        if verdict.example is not None and (verdict.blamed or verdict.implicated):
            run, deviation = verdict.example
            lines.append(f"  smallest example: {run.case} [{run.target.label()}]")
            lines.extend("    " + line for line in deviation_lines(deviation))
        if verdict.random_example is not None and (
            verdict.random_blamed or verdict.random_implicated
        ):
            divergence = verdict.random_example
            lines.append(f"  random game: {divergence.game_text} [{divergence.target.label()}]")
            lines.append(f"    {divergence.message}")
            lines.extend("      " + line for line in difference_lines_of(divergence))
    return lines


def difference_lines_of(divergence: Divergence) -> list[str]:
    """What the reference and the engine gave at a divergence, as a deviation shows it."""
    return difference_lines(
        Deviation(
            check=divergence.check,
            message=divergence.what,
            expected=divergence.expected,
            actual=divergence.actual,
            rules=divergence.rules,
        )
    )


def rule_data(verdict: RuleVerdict) -> dict[str, Any]:
    """One rule's verdict as plain data (the JSON report's ``rule`` lines)."""
    example = None
    if verdict.example is not None:
        run, deviation = verdict.example
        example = {
            "case": run.case,
            "variant": run.variant,
            "options": dict(run.target.options),
            **deviation_data(deviation),
        }
    return {
        "type": "rule",
        "rule": verdict.rule,
        "value": verdict.value,
        "section": verdict.section,
        "held": verdict.held,
        "failed": verdict.failed,
        "standing": verdict.standing.value,
        "consequences": verdict.consequences,
        "not_judged": verdict.not_judged,
        "blamed": verdict.blamed,
        "implicated": verdict.implicated,
        "random_blamed": verdict.random_blamed,
        "random_implicated": verdict.random_implicated,
        "random_example": None
        if verdict.random_example is None
        else {
            "game": verdict.random_example.game,
            "seed": verdict.random_example.seed,
            "variant": verdict.random_example.variant,
            "check": verdict.random_example.what,
        },
        "source": verdict.source,
        "example": example,
    }


def deviation_data(deviation: Deviation) -> dict[str, Any]:
    """One deviation as plain data."""
    return {
        "check": deviation.check.value,
        "message": deviation.message,
        "hand": deviation.hand,
        "step": deviation.step,
        "expected": deviation.expected,
        "actual": deviation.actual,
        "rules": list(deviation.rules),
        "sections": [section(rule) for rule in deviation.rules],
        "position": deviation.position,
        "history": list(deviation.history),
    }
