"""`matador score`: what every variant awards for the same finished hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.scoring import Outcome, Termination, score
from ..rules import Catalog, Rules
from ..rules.parameters import Decides, as_text_value, deciding
from ..text.tables import Column, Style, Table, render, table
from .naming import label


@dataclass(frozen=True)
class Award:
    """What one variant awards for a finished hand."""

    rules: Rules | None
    variant: str
    outcome: Outcome | None
    note: str


def score_everywhere(
    catalog: Catalog,
    pips: Sequence[int],
    termination: Termination,
    went_out: int | None = None,
    teams: bool = False,
    variants: Sequence[str | tuple[str, Mapping[str, str]]] = (),
) -> list[Award]:
    """The award of every variant (or of ``variants``: ids, or ids with the options
    chosen) for the same hand; the options not chosen are tried for the player count."""
    awards = []
    for target in variants or catalog.ids():
        variant, chosen = (target, {}) if isinstance(target, str) else target
        rules = _rules_for(catalog, variant, chosen, len(pips), teams)
        if rules is None:
            name = label(catalog.resolve(variant, chosen))
            why = "has no partnership game" if teams else f"is not played by {len(pips)}"
            awards.append(Award(None, name, None, f"{name} {why}"))
            continue
        outcome = score(rules, tuple(pips), termination, went_out)
        awards.append(Award(rules, label(rules), outcome, _score_note(rules)))
    return awards


def _rules_for(
    catalog: Catalog, variant: str, chosen: Mapping[str, str], players: int, teams: bool
) -> Rules | None:
    base = catalog.resolve(variant, chosen)
    candidates = [base] + [
        catalog.resolve(variant, {**chosen, option.name: value.name})
        for option in base.options
        if option.name not in chosen
        for value in option.values
        if value.name != option.default
    ]
    for rules in candidates:
        if players in rules.players and rules.teams is teams:
            return rules
    return None


def _score_note(rules: Rules) -> str:
    """The rules that decide the points (as the registry says), their values, and the
    source of the first."""
    deciding_rules = [
        name
        for name in deciding(Decides.POINTS, Decides.SEVERAL_LOSERS)
        if rules.applicable(name) and getattr(rules, name) is not None
    ]
    provenance = rules.provenance.get(deciding_rules[0]) if deciding_rules else None
    where = ""
    if provenance and provenance.cite:
        c = provenance.cite[0]
        where = f" ({c.publication}, text {c.text}, {c.section})"
    elif provenance and provenance.gap:
        where = f" (the source is silent: reading of gap {provenance.gap})"
    values = ", ".join(as_text_value(getattr(rules, name)) for name in deciding_rules)
    return f"{values}{where}"


def score_text(awards: Sequence[Award], pips: Sequence[int], teams: bool) -> str:
    """``matador score`` output as an 80-column table."""
    return "\n".join(render(score_table(awards, teams), Style())) + "\n"


def _result(award: Award, teams: bool) -> str:
    outcome = award.outcome
    if outcome is None:
        return "—"
    if outcome.winner is None:
        return "tie: nobody scores"
    return f"{'side' if teams else 'seat'} {outcome.winner} scores {outcome.points[outcome.winner]}"


def score_table(awards: Sequence[Award], teams: bool) -> Table:
    """``matador score`` as a table: a row per variant, what it awards and by which rule."""
    columns = [Column("variant", widest=24), Column("award", widest=18), Column("by")]
    return table(columns, [[a.variant, _result(a, teams), a.note] for a in awards])


def score_data(
    awards: Sequence[Award], pips: Sequence[int], termination: Termination, teams: bool
) -> dict[str, Any]:
    """``matador score --format json``: the hand, and each variant's award."""
    return {
        "pips": list(pips),
        "termination": termination.value,
        "teams": teams,
        "awards": [
            {
                "variant": award.variant,
                "played": award.outcome is not None,
                "winner": None if award.outcome is None else award.outcome.winner,
                "points": None if award.outcome is None else list(award.outcome.points),
                "by": award.note,
            }
            for award in awards
        ],
    }
