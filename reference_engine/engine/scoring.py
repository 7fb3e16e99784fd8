"""How a hand ends and what it scores (spec/SPEC.md sections 9 and 10)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..rules.model import Rules
from ..rules.vocabulary import DifferenceAmongSeveral, Partnership, Points, TextEnum


class Termination(TextEnum):
    """How a hand ended."""

    DOMINO = "domino"
    BLOCKED = "blocked"
    REDEAL = "redeal"


@dataclass(frozen=True)
class Outcome:
    """The result of a hand: how it ended, who won, the pips left, the points scored.

    ``winner`` and ``points`` are per side: a side is a seat when everyone plays
    alone, and seats 0+2 (side 0) and 1+3 (side 1) in a partnership game.
    ``winner`` is None after a tie for lowest or a redeal.
    """

    termination: Termination
    winner: int | None
    pips: tuple[int, ...]
    side_pips: tuple[int, ...]
    points: tuple[int, ...]
    went_out: int | None = None


def sides(rules: Rules, players: int) -> tuple[tuple[int, ...], ...]:
    """The seats of each side."""
    if rules.partnership is Partnership.TWO_VS_TWO:
        return ((0, 2), (1, 3))
    return _alone(players)


@cache
def _alone(players: int) -> tuple[tuple[int, ...], ...]:
    """One side per seat."""
    return tuple((seat,) for seat in range(players))


def side_of(rules: Rules, players: int, seat: int) -> int:
    """The side a seat plays for."""
    return seat % 2 if rules.partnership is Partnership.TWO_VS_TWO else seat


def score(
    rules: Rules, pips: tuple[int, ...], termination: Termination, went_out: int | None = None
) -> Outcome:
    """Decide the winner and the points of a finished hand from the pips left per seat."""
    players = len(pips)
    groups = sides(rules, players)
    if rules.partnership is Partnership.TWO_VS_TWO:
        totals = tuple(sum(pips[seat] for seat in group) for group in groups)
    else:
        totals = tuple(pips)  # everyone plays alone: the sides are the seats
    zero = (0,) * len(groups)
    if termination is Termination.REDEAL:
        return Outcome(
            termination=termination, winner=None, pips=pips, side_pips=totals, points=zero
        )
    if termination is Termination.DOMINO:
        if went_out is None:
            raise ValueError("a domino needs the seat that went out")
        winner: int | None = side_of(rules, players, went_out)
    else:
        lowest = min(totals)
        holders = [side for side, total in enumerate(totals) if total == lowest]
        winner = holders[0] if len(holders) == 1 else None
    if winner is None:
        return Outcome(
            termination=termination, winner=None, pips=pips, side_pips=totals, points=zero
        )
    own = totals[winner]
    losers = [total for side, total in enumerate(totals) if side != winner]
    if rules.points is Points.ALL_HANDS:
        won = sum(totals)
    elif rules.points is Points.OPPONENTS:
        won = sum(losers)
    elif rules.difference_among_several is DifferenceAmongSeveral.EACH_OPPONENT_MINUS_OWN:
        won = sum(total - own for total in losers)
    else:
        won = sum(losers) - own
    points = list(zero)
    points[winner] = max(0, won)
    return Outcome(
        termination=termination,
        winner=winner,
        pips=pips,
        side_pips=totals,
        points=tuple(points),
        went_out=went_out,
    )
