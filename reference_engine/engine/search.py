"""Perfect-information search of the rest of a hand, on the engine's own step API.

:class:`Search` plays a hand whose every tile is known (the seats' hands and the
boneyard's order: a real hand, or one the expert player samples) to its end with
alpha-beta, and says what the hand is worth to one seat: the points its side
scores, less the points another side scores (SPEC 10, as the rules score the
hand), 0 for a hand nobody scores. The seat's side maximises, every other seat
minimises (two sides: the exact game; three or four players alone: the
"paranoid" reading, where the others play against the seat). A transposition
table keeps each position's bound; the plays are tried before a draw or a pass.

The search knows no rule: it asks the hand for its legal actions, applies them
to copies (:meth:`~reference_engine.engine.hand.Hand.copy`) and reads the
outcome. With ``depth``, a position that many actions down is not searched on
but estimated (:meth:`Search.estimate`: the pips the other sides hold, less the
seat's side's own, the measure the rules score by).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import AnyAction, Play
from .scoring import side_of

if TYPE_CHECKING:
    from .hand import Hand

#: What a transposition-table entry's value is: exact, or a lower or upper bound.
_EXACT, _LOWER, _UPPER = 0, 1, 2


class Search:
    """The value of hands to ``seat``, searched to the end (or ``depth`` actions deep)."""

    def __init__(self, seat: int, depth: int | None = None) -> None:
        self.seat = seat
        self.depth = depth
        #: Positions searched (each hand copied and stepped counts once).
        self.nodes = 0
        self._table: dict[tuple[object, ...], tuple[int, float]] = {}

    def value(self, hand: Hand) -> float:
        """What ``hand`` (with every tile known) is worth to the seat, played well by all."""
        self._sides_of(hand)
        return self._search(hand, -float("inf"), float("inf"), self.depth)

    def action_values(self, hand: Hand) -> list[tuple[AnyAction, float]]:
        """Each legal action of the seat to act, with the value of the hand after it."""
        self._sides_of(hand)
        found = []
        depth = None if self.depth is None else self.depth - 1
        for action in _ordered(hand.legal_actions()):
            after = hand.copy()
            after.apply(action)
            found.append((action, self._search(after, -float("inf"), float("inf"), depth)))
        return found

    def _sides_of(self, hand: Hand) -> None:
        """The seat's side, which seats play for it, and how many sides there are: asked
        once per search, not at every position."""
        sides = [side_of(hand.rules, hand.players, seat) for seat in range(hand.players)]
        self._side = sides[self.seat]
        self._ours = tuple(side == self._side for side in sides)
        self._sides = len(set(sides))

    def _search(self, hand: Hand, alpha: float, beta: float, depth: int | None) -> float:
        self.nodes += 1
        if hand.is_over:
            return self._scored(hand)
        if depth is not None and depth <= 0:
            return self.estimate(hand)
        key = _key(hand, depth)
        known = self._table.get(key)
        if known is not None:
            flag, stored = known
            if flag == _EXACT:
                return stored
            if flag == _LOWER:
                alpha = max(alpha, stored)
            else:
                beta = min(beta, stored)
            if alpha >= beta:
                return stored
        start_alpha, start_beta = alpha, beta
        deeper = None if depth is None else depth - 1
        mine = self._ours[hand.current]
        best = -float("inf") if mine else float("inf")
        for action in _ordered(hand.legal_actions()):
            after = hand.copy()
            after.apply(action)
            found = self._search(after, alpha, beta, deeper)
            if mine:
                best = max(best, found)
                alpha = max(alpha, best)
            else:
                best = min(best, found)
                beta = min(beta, best)
            if alpha >= beta:
                break
        flag = _EXACT
        if best <= start_alpha:
            flag = _UPPER
        elif best >= start_beta:
            flag = _LOWER
        self._table[key] = (flag, best)
        return best

    def _scored(self, hand: Hand) -> float:
        outcome = hand.outcome
        if outcome is None or outcome.winner is None:
            return 0.0
        points = outcome.points[outcome.winner]
        return float(points if outcome.winner == self._side else -points)

    def estimate(self, hand: Hand) -> float:
        """A position not searched on: the pips the other sides hold, less the seat's side's
        own, over the other sides (what a block would about score)."""
        pips = hand.pips()
        own = sum(p for seat, p in enumerate(pips) if self._ours[seat])
        others = sum(pips) - own
        return (others / max(self._sides - 1, 1) - own) / 2


def _ordered(legal: tuple[AnyAction, ...]) -> list[AnyAction]:
    """The plays first (heaviest first: they shed the most pips), then a draw or a pass."""
    plays = sorted(
        (a for a in legal if isinstance(a, Play)), key=lambda a: -(a.tile[0] + a.tile[1])
    )
    return plays + [a for a in legal if not isinstance(a, Play)]


def _key(hand: Hand, depth: int | None) -> tuple[object, ...]:
    """What decides the rest of a hand whose boneyard order is fixed: the tiles each seat
    holds, how far the boneyard is drawn, the open ends, whose turn and its state."""
    return (
        tuple(hand._hands),
        hand._drawn,
        hand._line.kinds,
        hand.current,
        hand._passes,
        hand._single_drawn,
        hand._forced_play,
        hand.phase,
        depth,
    )


__all__ = ["Search"]
