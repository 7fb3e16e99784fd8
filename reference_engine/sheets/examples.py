"""The worked scoring examples: a blocked game and a domino, scored and written out.

The points come from :func:`reference_engine.engine.scoring.score`; this
module only chooses the hands and writes the arithmetic out.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.scoring import Termination, score, sides
from ..rules import Rules
from ..rules.vocabulary import DifferenceAmongSeveral, Partnership, Points
from .catalogue import Translator

#: The seats' names in the worked examples.
SEAT_NAMES = "ABCD"

#: Pips left in each hand in the worked examples, by number of players (the
#: two-player hand is the survey's 8 against 19).
EXAMPLE_PIPS: dict[int, tuple[int, ...]] = {2: (8, 19), 3: (8, 19, 14), 4: (8, 19, 14, 11)}


def _calculation(rules: Rules, totals: Sequence[int], winner: int, points: int) -> str:
    """The arithmetic behind ``points``, written out (the points come from scoring.score)."""
    own = totals[winner]
    losers = [total for side, total in enumerate(totals) if side != winner]
    if rules.points is Points.ALL_HANDS:
        expression, value = " + ".join(map(str, totals)), sum(totals)
    elif len(losers) == 1:
        expression, value = f"{losers[0]} − {own}", losers[0] - own
    elif rules.difference_among_several is DifferenceAmongSeveral.EACH_OPPONENT_MINUS_OWN:
        expression = " + ".join(f"({loser} − {own})" for loser in losers)
        value = sum(loser - own for loser in losers)
    else:
        expression = f"({' + '.join(map(str, losers))}) − {own}"
        value = sum(losers) - own
    if value != points:
        return f"max(0, {expression}) = {points}"
    return f"{expression} = {points}"


def _example(rules: Rules, players: int, tr: Translator, *, domino: bool) -> str:
    pips = EXAMPLE_PIPS[players]
    if domino:
        pips = (0, *pips[1:])
    outcome = score(
        rules,
        pips,
        Termination.DOMINO if domino else Termination.BLOCKED,
        went_out=0 if domino else None,
    )
    groups = sides(rules, players)
    separator = tr.t("list.separator")
    pips_text = separator.join(f"{SEAT_NAMES[seat]} {pips[seat]}" for seat in range(players))

    def side_name(side: int) -> str:
        seats = " + ".join(SEAT_NAMES[seat] for seat in groups[side])
        return seats if len(groups[side]) == 1 else tr.t("scoring.side", seats=seats)

    teams = rules.teams
    if teams:
        sides_text = separator.join(" + ".join(SEAT_NAMES[s] for s in group) for group in groups)
        key = "scoring.sides_domino" if domino else "scoring.sides"
        setting = tr.t(key, sides=sides_text, pips=pips_text, winner=SEAT_NAMES[0])
    else:
        key = "scoring.domino" if domino else "scoring.blocked"
        setting = tr.t(key, players=players, pips=pips_text, winner=SEAT_NAMES[0])
    if outcome.winner is None:  # the example pips never tie
        raise ValueError(f"the worked example ties: {pips}")
    calc = _calculation(rules, outcome.side_pips, outcome.winner, outcome.points[outcome.winner])
    result = tr.t("scoring.wins", winner=side_name(outcome.winner), calc=calc)
    return f"{setting} {result[:1].upper()}{result[1:]}"


def _examples(rules: Rules, tr: Translator) -> tuple[str, ...]:
    fewest = min(rules.players)
    examples = [_example(rules, fewest, tr, domino=False)]
    many = max(rules.players)
    if (
        rules.applicable("difference_among_several")
        and fewest == 2
        and rules.partnership is Partnership.NONE
    ):
        examples.append(_example(rules, many, tr, domino=False))
    examples.append(_example(rules, fewest, tr, domino=True))
    return tuple(examples)


__all__ = ["EXAMPLE_PIPS", "SEAT_NAMES"]
