"""Deal injection for an engine that only deals by shuffling: the numbers that make its shuffle
give the deal a case asks for.

Many engines have no way to be handed a deal: they shuffle the set with a
random generator and deal from the shuffled stack. Their adapter makes the
stack a case needs (:func:`stack_for`: which tile must be where, for the way
the engine deals from it), then the numbers that make the engine's own
Fisher-Yates shuffle produce that stack (:func:`fisher_yates_choices`), and
hands the engine a generator that gives those numbers (:class:`RiggedRandom`
for Python's :class:`random.Random`, or :func:`rigged_floats` for a generator
of floats in [0, 1) such as JavaScript's ``Math.random``).

Both directions of Fisher-Yates are known: ``backward`` (``for i from n-1 down
to 1: j = choice in 0..i; swap i and j``, as Python's ``random.shuffle`` and
most hand-written shuffles do) and ``forward`` (``for i from 0 to n-2: j =
choice in i..n-1``).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, Literal, TypeVar

from ..errors import EngineProblem

T = TypeVar("T", bound=Hashable)

Direction = Literal["backward", "forward"]
Dealing = Literal["blocks", "rounds"]


class RiggingError(EngineProblem, ValueError):
    """The numbers asked for cannot make the stack asked for (different tiles, a rigged
    generator asked for more numbers than planned or for another range)."""


def stack_for(
    hands: Sequence[Sequence[T]],
    boneyard: Sequence[T],
    *,
    dealing: Dealing = "blocks",
    from_end: bool = False,
) -> list[T]:
    """The stack an engine must shuffle into to deal ``hands`` and leave ``boneyard``.

    ``dealing``: ``blocks`` gives seat 0 its whole hand first, then seat 1...;
    ``rounds`` gives one tile to each seat in turn. The undealt tiles follow in
    draw order. ``from_end``: the engine takes tiles from the end of the stack
    (``pop()``), not its front.
    """
    order: list[T] = []
    if dealing == "blocks":
        for hand in hands:
            order.extend(hand)
    else:
        for index in range(max((len(hand) for hand in hands), default=0)):
            order.extend(hand[index] for hand in hands if index < len(hand))
    order.extend(boneyard)
    return order[::-1] if from_end else order


def fisher_yates_choices(
    initial: Sequence[T], wanted: Sequence[T], direction: Direction = "backward"
) -> list[int]:
    """The choices ``j`` a Fisher-Yates shuffle of ``initial`` must make to end as ``wanted``.

    Each choice is the index drawn at one step, in the order the shuffle draws
    them: for ``backward`` the step for ``i = n-1`` first, ``j`` in ``0..i``;
    for ``forward`` the step for ``i = 0`` first, ``j`` in ``i..n-1``.
    """
    if sorted(map(repr, initial)) != sorted(map(repr, wanted)) or len(initial) != len(wanted):
        raise RiggingError("the stack wanted is not an order of the tiles the engine shuffles")
    current = list(initial)
    where = {item: index for index, item in enumerate(current)}
    steps = range(len(current) - 1, 0, -1) if direction == "backward" else range(len(current) - 1)
    choices = []
    for i in steps:
        j = where[wanted[i]]
        choices.append(j)
        current[i], current[j] = current[j], current[i]
        where[current[i]], where[current[j]] = i, j
    return choices


def _bounds(direction: Direction, size: int) -> list[tuple[int, int]]:
    """The range (low, count) each choice is drawn from, in the order drawn."""
    if direction == "backward":
        return [(0, i + 1) for i in range(size - 1, 0, -1)]
    return [(i, size - i) for i in range(size - 1)]


def rigged_floats(
    initial: Sequence[T], wanted: Sequence[T], direction: Direction = "backward"
) -> list[float]:
    """Floats in [0, 1) that a shuffle computing ``j = low + floor(r * count)`` turns into
    :func:`fisher_yates_choices` (each float is the middle of its choice's interval)."""
    choices = fisher_yates_choices(initial, wanted, direction)
    return [
        (choice - low + 0.5) / count
        for choice, (low, count) in zip(choices, _bounds(direction, len(initial)), strict=True)
    ]


class RiggedRandom(random.Random):
    """A :class:`random.Random` whose next shuffle of ``initial`` (by ``random.shuffle``,
    or a hand-written Fisher-Yates with ``randrange``, ``randint`` or ``random()``) gives
    ``wanted``; it then goes on as a generator seeded with ``seed``.

    One generator rigs one shuffle: make a new one for each hand.
    """

    def __init__(
        self,
        initial: Sequence[Any],
        wanted: Sequence[Any],
        *,
        direction: Direction = "backward",
        seed: int = 0,
    ) -> None:
        super().__init__(seed)
        choices = fisher_yates_choices(initial, wanted, direction)
        self._planned = list(zip(choices, _bounds(direction, len(initial)), strict=True))

    def _next(self) -> tuple[int, int, int] | None:
        if not self._planned:
            return None
        choice, (low, count) = self._planned.pop(0)
        return choice, low, count

    def _randbelow(self, n: int) -> int:
        planned = self._next()
        if planned is None:
            inherited: Any = random.Random._randbelow  # type: ignore[attr-defined]
            return int(inherited(self, n))
        choice, low, count = planned
        if n == count:
            return choice - low
        if n == low + count:  # randint(low, i) or randrange(low, i + 1) draw below i + 1
            return choice
        raise RiggingError(f"the shuffle asked for a number below {n}, not below {count}")

    def random(self) -> float:
        planned = self._next()
        if planned is None:
            return super().random()
        choice, low, count = planned
        return (choice - low + 0.5) / count
