"""Settling disputes: every source side by side (compare, diff, score, odds).

Everything here is read from the variant files and computed by the engine's
own functions; no rule is restated by hand.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb
from typing import Any

from .engine.compiled import OpenEnd, compiled
from .engine.scoring import Outcome, Termination, score
from .rules import Catalog, Rules
from .rules.model import as_plain
from .rules.present import SECTIONS
from .rules.vocabulary import Partnership

# --------------------------------------------------------------------------- naming variants


def parse_target(text: str) -> tuple[str, dict[str, str]]:
    """``ID`` or ``ID:NAME=VALUE,NAME=VALUE`` -> (variant id, options)."""
    variant, _, rest = text.partition(":")
    options: dict[str, str] = {}
    for item in filter(None, rest.split(",")):
        name, sep, value = item.partition("=")
        if not sep or not name or not value:
            raise ValueError(f"{item!r} in {text!r} is not NAME=VALUE")
        name, value = name.strip(), value.strip()
        if name in options and options[name] != value:
            raise ValueError(
                f"option {name!r} given twice in {text!r} ({options[name]!r} and {value!r})"
            )
        options[name] = value
    return variant.strip(), options


def label(rules: Rules) -> str:
    """The variant id, with the options that differ from their defaults."""
    changed = [
        f"{option.name}={rules.chosen[option.name]}"
        for option in rules.options
        if rules.chosen[option.name] != option.default
    ]
    return rules.variant + (":" + ",".join(changed) if changed else "")


# --------------------------------------------------------------------------- cells


@dataclass(frozen=True)
class Cell:
    """One rule of one variant: its value in words, where it comes from, whether it is a reading."""

    rule: str
    value: str
    source: str
    gap: str | None
    applicable: bool


def value_text(rules: Rules, rule: str) -> str:
    """A rule's value as short text."""
    value = getattr(rules, rule)
    if rule == "matador_modes":
        return "; ".join(
            f"{m.tiles.value} on {m.ends.value} ends, {m.fit.value} fit, {m.shape.value}, "
            f"open {m.open.value}, next {m.leaves.match.value} (matadors {m.leaves.matadors.value})"
            for m in value
        )
    plain = as_plain(value)
    if isinstance(plain, dict):
        return ", ".join(f"{k}: {v}" for k, v in plain.items())
    if isinstance(plain, list):
        return ", ".join(map(str, plain))
    if isinstance(plain, bool):
        return "yes" if plain else "no"
    return "—" if plain is None else str(plain)


def cell(rules: Rules, rule: str) -> Cell:
    """The cell for ``rule`` of ``rules``."""
    provenance = rules.provenance.get(rule)
    sources = []
    if provenance is not None:
        for citation in provenance.cite:
            sources.append(f"{citation.publication} ({citation.text}, {citation.section})")
        if provenance.option:
            sources.insert(0, "option " + "=".join(provenance.option))
    return Cell(
        rule=rule,
        value=value_text(rules, rule),
        source="; ".join(dict.fromkeys(sources)),
        gap=provenance.gap if provenance else None,
        applicable=rules.applicable(rule),
    )


def rule_names() -> list[str]:
    """Every rule, in the order of the specification's sections."""
    return [rule for names in SECTIONS.values() for rule in names]


# --------------------------------------------------------------------------- compare


def compare(rules_list: Sequence[Rules], fmt: str = "table") -> str:
    """Every rule as a row, every variant as a column: value, source, recorded gaps marked."""
    headers = ["rule", *(label(r) for r in rules_list)]
    rows: list[list[str]] = []
    for rule in rule_names():
        row = [rule]
        for rules in rules_list:
            c = cell(rules, rule)
            if not c.applicable:
                row.append("n/a")
                continue
            mark = f" [gap: {c.gap}]" if c.gap else ""
            row.append(f"{c.value}{mark}" + (f" — {c.source}" if c.source else ""))
        rows.append(row)
    option_rows = []
    for rules in rules_list:
        for option in rules.options:
            others = ", ".join(v.name for v in option.values if v.name != rules.chosen[option.name])
            option_rows.append(
                [label(rules), option.name, rules.chosen[option.name], others, option.summary]
            )
    if fmt == "markdown":
        return (
            _markdown(headers, rows)
            + "\n\n### Options\n\n"
            + _markdown(["variant", "option", "chosen", "alternatives", "about"], option_rows)
        )
    if fmt == "html":
        return (
            _html(headers, rows)
            + "\n<h3>Options</h3>\n"
            + _html(["variant", "option", "chosen", "alternatives", "about"], option_rows)
        )
    return (
        _text(headers, rows)
        + "\noptions:\n"
        + "\n".join(f"  {v}: {o}={c} (also: {a}) — {s}" for v, o, c, a, s in option_rows)
        + "\n"
    )


def comparison_document(catalog: Catalog) -> str:
    """docs/comparison.md: every shipped variant compared (kept fresh by a test)."""
    rules_list = [catalog.resolve(variant) for variant in catalog.ids()]
    return (
        "# Matador: every source's rules side by side\n\n"
        "Generated by `matador compare --format markdown`; do not edit by hand. Each cell\n"
        "gives a variant's value for a rule and where it comes from (publication, source\n"
        "text, section). `[gap: ...]` marks a value the variant file had to choose because\n"
        "its source is silent, contradicts itself or reads two ways (see `matador show ID`).\n"
        "`n/a`: the rule has no effect under that variant's other rules.\n\n"
        + compare(rules_list, "markdown")
        + "\n"
    )


def _markdown(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    def esc(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(map(esc, headers)) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(esc(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _html(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>{body}</tbody>\n</table>"


def _text(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    out = []
    for row in rows:
        out.append(row[0])
        for header, value in zip(headers[1:], row[1:], strict=True):
            out.append(f"  {header}: {value}")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- diff


def diff(first: Rules, second: Rules) -> list[tuple[Cell, Cell]]:
    """The rules whose values differ between two resolved variants."""
    out = []
    for rule in rule_names():
        a, b = cell(first, rule), cell(second, rule)
        if (a.value, a.applicable) != (b.value, b.applicable):
            out.append((a, b))
    return out


def diff_text(first: Rules, second: Rules) -> str:
    """``matador diff`` output."""
    pairs = diff(first, second)
    if not pairs:
        return f"{label(first)} and {label(second)} have the same rules\n"
    lines = [f"{len(pairs)} rule(s) differ between {label(first)} and {label(second)}:"]
    for a, b in pairs:
        lines.append(f"{a.rule}:")
        for who, c in ((label(first), a), (label(second), b)):
            value = c.value if c.applicable else "n/a (no effect under its other rules)"
            gap = f" [reading of gap {c.gap}]" if c.gap else ""
            lines.append(f"  {who}: {value}{gap}")
            if c.source:
                lines.append(f"      from {c.source}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- score


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
    variants: Sequence[str] = (),
) -> list[Award]:
    """The award of every variant (or of ``variants``) for the same hand."""
    awards = []
    for variant in variants or catalog.ids():
        rules = _rules_for(catalog, variant, len(pips), teams)
        if rules is None:
            why = "has no partnership game" if teams else f"is not played by {len(pips)}"
            awards.append(Award(None, variant, None, f"{variant} {why}"))
            continue
        outcome = score(rules, tuple(pips), termination, went_out)
        awards.append(Award(rules, label(rules), outcome, _score_note(rules)))
    return awards


def _rules_for(catalog: Catalog, variant: str, players: int, teams: bool) -> Rules | None:
    base = catalog.resolve(variant)
    candidates = [base] + [
        catalog.resolve(variant, {option.name: value.name})
        for option in base.options
        for value in option.values
        if value.name != option.default
    ]
    for rules in candidates:
        wanted = Partnership.TWO_VS_TWO if teams else Partnership.NONE
        if players in rules.players and rules.partnership is wanted:
            return rules
    return None


def _score_note(rules: Rules) -> str:
    provenance = rules.provenance.get("points")
    where = ""
    if provenance and provenance.cite:
        c = provenance.cite[0]
        where = f" ({c.publication}, text {c.text}, {c.section})"
    elif provenance and provenance.gap:
        where = f" (the source is silent: reading of gap {provenance.gap})"
    extra = ""
    if rules.applicable("difference_among_several") and rules.difference_among_several:
        extra = f", {rules.difference_among_several.value}"
    return f"{rules.points.value}{extra}{where}"


def score_text(awards: Sequence[Award], pips: Sequence[int], teams: bool) -> str:
    """``matador score`` output."""
    width = max(len(a.variant) for a in awards)
    lines = []
    for award in awards:
        if award.outcome is None:
            lines.append(f"{award.variant:<{width}}  —  {award.note}")
            continue
        outcome = award.outcome
        who = "side" if teams else "seat"
        if outcome.winner is None:
            result = "tie for lowest: nobody scores"
        else:
            result = f"{who} {outcome.winner} scores {outcome.points[outcome.winner]}"
        lines.append(f"{award.variant:<{width}}  {result:<28} by {award.note}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- odds


@dataclass(frozen=True)
class Odds:
    """Exact chances for a hand of ``hand`` tiles from the double-``max_pip`` set."""

    max_pip: int
    hand: int
    tiles: int
    matadors: int
    no_matador: Fraction
    double_blank: Fraction
    two_or_more: Fraction


def odds(max_pip: int, hand: int) -> Odds:
    """The chance a hand holds no matador, holds [0-0], holds two or more matadors."""
    tiles = (max_pip + 1) * (max_pip + 2) // 2
    line_sum = max_pip + 1
    matadors = 1 + sum(1 for low in range(1, max_pip + 1) if low <= line_sum - low <= max_pip)
    if not 1 <= hand <= tiles:
        raise ValueError(f"a hand holds between 1 and {tiles} tiles of the double-{max_pip} set")
    hands = comb(tiles, hand)
    none = Fraction(comb(tiles - matadors, hand), hands)
    one = Fraction(matadors * comb(tiles - matadors, hand - 1), hands)
    return Odds(
        max_pip=max_pip,
        hand=hand,
        tiles=tiles,
        matadors=matadors,
        no_matador=none,
        double_blank=Fraction(hand, tiles),
        two_or_more=1 - none - one,
    )


def main_rule(catalog: Catalog, max_pip: int) -> Rules:
    """The survey's main rule (matadors in line on any end) with a double-``max_pip`` set.

    Taken from the first shipped variant whose only matador mode is that one,
    with its set widened by the general double-n rule.
    """
    for variant in catalog.ids():
        rules = catalog.resolve(variant)
        modes = rules.matador_modes
        if (
            len(modes) == 1
            and modes[0].fit.value == "free"
            and modes[0].ends.value == "any"
            and modes[0].shape.value == "inline"
            and modes[0].leaves.match.value == "sum"
        ):
            return replace(rules, max_pip=max_pip)
    raise LookupError("no shipped variant plays the main rule")


def answers(rules: Rules) -> list[tuple[int, list[str]]]:
    """For each value a plain end may show, the tiles of the set that can go on it."""
    table = compiled(rules)
    out = []
    for value in range(rules.max_pip + 1):
        kind = table.kind(OpenEnd.plain(value))
        out.append((value, [str(tile) for tile in table.tiles_of(table.fits[kind])]))
    return out


def _percent(fraction: Fraction) -> str:
    return f"{float(fraction) * 100:.1f} %"


def odds_text(result: Odds, rules: Rules) -> str:
    """``matador odds`` output."""
    lines = [
        f"double-{result.max_pip} set: {result.tiles} tiles, {result.matadors} matadors; "
        f"a hand of {result.hand}:",
        f"  no matador          {result.no_matador!s:>15}  {_percent(result.no_matador)}",
        f"  holds [0-0]         {result.double_blank!s:>15}  {_percent(result.double_blank)}",
        f"  two or more         {result.two_or_more!s:>15}  {_percent(result.two_or_more)}",
        f"tiles that can answer an end ({label(rules)}):",
    ]
    for value, tiles in answers(rules):
        lines.append(f"  end {value:>2}: {len(tiles)} of {result.tiles}  ({' '.join(tiles)})")
    return "\n".join(lines) + "\n"


def odds_data(result: Odds, rules: Rules) -> dict[str, Any]:
    """``matador odds --json`` output."""

    def both(fraction: Fraction) -> dict[str, Any]:
        return {"fraction": str(fraction), "percent": round(float(fraction) * 100, 4)}

    return {
        "set": result.max_pip,
        "hand": result.hand,
        "tiles": result.tiles,
        "matadors": result.matadors,
        "no_matador": both(result.no_matador),
        "double_blank": both(result.double_blank),
        "two_or_more": both(result.two_or_more),
        "answers": {str(value): tiles for value, tiles in answers(rules)},
        "answers_under": label(rules),
    }
