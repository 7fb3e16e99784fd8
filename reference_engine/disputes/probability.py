"""`matador odds`: exact matador odds for a hand, and which tiles can answer an end."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb
from typing import Any

from ..engine.compiled import compiled
from ..engine.ends import OpenEnd
from ..rules import Catalog, Rules
from ..text.tables import Column, Style, Table, render, table
from .naming import label


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
        out.append((value, [str(tile) for tile in table.tiles_of(table.fit(kind))]))
    return out


def _percent(fraction: Fraction) -> str:
    return f"{float(fraction) * 100:.1f} %"


def odds_text(result: Odds, rules: Rules) -> str:
    """``matador odds`` output as 80-column text."""
    return "\n".join(odds_lines(result, rules, Style())) + "\n"


def odds_tables(result: Odds, rules: Rules) -> tuple[str, Table, str, Table]:
    """``matador odds`` as two tables, each after its heading: the chances of a hand, and
    for each value an end may show, the tiles that can answer it."""
    chances = table(
        [Column("a hand of " + str(result.hand)), Column("fraction", right=True), "percent"],
        [
            [what, str(chance), _percent(chance)]
            for what, chance in (
                ("no matador", result.no_matador),
                ("holds [0-0]", result.double_blank),
                ("two or more", result.two_or_more),
            )
        ],
    )
    ends = table(
        [Column("end", right=True), Column("tiles", right=True), "which"],
        [
            [str(value), f"{len(tiles)} of {result.tiles}", " ".join(tiles)]
            for value, tiles in answers(rules)
        ],
    )
    return (
        f"double-{result.max_pip} set: {result.tiles} tiles, {result.matadors} matadors",
        chances,
        f"tiles that can answer an end ({label(rules)})",
        ends,
    )


def odds_lines(result: Odds, rules: Rules, style: Style) -> list[str]:
    """``matador odds`` as tables that fit ``style.width``."""
    first, chances, second, ends = odds_tables(result, rules)
    return [
        style.strong(first),
        *render(chances, style),
        "",
        style.strong(second),
        *render(ends, style),
    ]


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
