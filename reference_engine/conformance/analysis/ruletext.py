"""How every report writes a rule verdict and a deviation, as text and as plain data.

:func:`deviation_lines` writes one deviation the way every report shows it:
actions in the notation, seats by number, points per seat in seat order, and
"nothing" for an absent value; :func:`blame_text` says how a rule stands in
words; :func:`rule_data` and :func:`deviation_data` are the JSON report's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..judging.attribution import section
from ..judging.divergences import Divergence
from ..judging.verdicts import Check, Deviation
from .rulereport import FIXED_NAMES, RuleVerdict, Standing

#: The checks whose values are lists in seat order (not sets of actions).
_BY_SEAT = frozenset({"pips", "points", "scores", "hands_won"})


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
        "facets": [list(facet) for facet in deviation.facets],
        "holds": None if deviation.holds is None else list(deviation.holds),
    }
