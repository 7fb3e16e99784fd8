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
    partners = rules.partnership is _TWO_VS_TWO
    totals = (
        tuple(sum(pips[seat] for seat in group) for group in sides(rules, len(pips)))
        if partners
        else tuple(pips)  # everyone plays alone: the sides are the seats
    )
    winner: int | None = None
    if termination is _DOMINO:
        if went_out is None:
            raise ValueError("a domino needs the seat that went out")
        winner = side_of(rules, len(pips), went_out)
    elif termination is _BLOCKED:
        lowest = min(totals)
        if totals.count(lowest) == 1:
            winner = totals.index(lowest)
    points = [0] * len(totals)
    if winner is not None:
        own, everyone = totals[winner], sum(totals)
        if rules.points is _ALL_HANDS:
            won = everyone
        elif rules.points is _OPPONENTS:
            won = everyone - own
        elif rules.difference_among_several is _EACH_OPPONENT_MINUS_OWN:
            won = everyone - own * len(totals)  # the sum over the losers of (theirs - own)
        else:
            won = everyone - 2 * own  # the losers' sum, less own
        points[winner] = max(0, won)
    # The Outcome is made without the frozen dataclass's field-by-field __init__
    # (every simulated hand is scored: this is hot).
    outcome: Outcome = _new(Outcome)
    outcome.__dict__.update(
        termination=termination,
        winner=winner,
        pips=pips,
        side_pips=totals,
        points=tuple(points),
        went_out=went_out if termination is _DOMINO else None,
    )
    return outcome


_new = object.__new__
# The members score() tests, as module constants: every simulated hand is scored,
# and looking a member up on its Enum class costs as much as a call.
_DOMINO, _BLOCKED = Termination.DOMINO, Termination.BLOCKED
_TWO_VS_TWO = Partnership.TWO_VS_TWO
_ALL_HANDS, _OPPONENTS = Points.ALL_HANDS, Points.OPPONENTS
_EACH_OPPONENT_MINUS_OWN = DifferenceAmongSeveral.EACH_OPPONENT_MINUS_OWN
