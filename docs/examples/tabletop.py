"""tabletop.py: a Matador table written the object-oriented way, knowing nothing of the suite.

A :class:`Table` holds the hands, the stock and the two ends of the line; the
seat to act asks it for its :meth:`~Table.options`, then :meth:`~Table.put`
a tile on a side, :meth:`~Table.take` one from the stock or :meth:`~Table.knock`.
Each answers True or False: the table never says why it refuses. It keeps no
score: it only says who won the hand. ``docs/examples/tabletop_adapter.py``
puts it before the conformance suite with the adapter kit.

The rules it means to play are the English Wikipedia article's, citing Brandreth
(variant ``wikipedia-brandreth``): a double-six set whose touching halves make
seven; five tiles each; the holder of the highest double opens with it, and
when nobody holds one the hand is void; the matadors go on any end, in line,
the player choosing the half left open; a player who cannot play draws until a
tile fits, and knocks only when the stock is empty; the hand ends when a player
is out or everyone has knocked in a row, the lowest total winning (a tie wins
for nobody).

It breaks three of them, as the conformance report should find (and nothing else):

1. ``hand_size``: two players are dealt six tiles each, not five (its adapter
   declares it, so the two-player cases are not asked of it);
2. ``draw_when``: a player may take a tile from the stock even when one of theirs
   fits;
3. ``matador_modes``: the double blank is not a matador here: it fits no end
   once the line is open.
"""

from __future__ import annotations

from dataclasses import dataclass

SEVEN = 7
#: The tiles each seat is dealt, by the number of players.
TILES_EACH = {2: 6, 3: 5, 4: 5}

Domino = tuple[int, int]


def is_matador(tile: Domino) -> bool:
    """The tiles that go anywhere: those whose halves make seven (not the double blank)."""
    return tile[0] + tile[1] == SEVEN


@dataclass(frozen=True)
class Option:
    """Something the seat to act may do: put ``tile`` on ``side`` with ``outer`` open,
    open the line with ``tile`` (``side`` None), ``take`` or ``knock``."""

    kind: str
    tile: Domino | None = None
    side: str | None = None
    outer: int | None = None


class Table:
    """One hand of Matador on the table."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.hands: list[list[Domino]] = []
        self.stock: list[Domino] = []
        self.left: int | None = None
        self.right: int | None = None
        self.current = 0
        self.knocks = 0
        self.finished = False
        self.void = False
        self.won_by: int | None = None

    def lay_out(self, hands: list[list[Domino]], stock: list[Domino]) -> bool:
        """Start a hand with these hands and this stock (drawn from the front)."""
        if len(hands) != self.players or any(len(h) != TILES_EACH[self.players] for h in hands):
            return False
        self.hands = [sorted(tuple(sorted(t)) for t in hand) for hand in hands]  # type: ignore[misc]
        self.stock = [tuple(sorted(t)) for t in stock]  # type: ignore[misc]
        self.left = self.right = self.won_by = None
        self.knocks, self.finished, self.void = 0, False, False
        doubles = [(t[0], s) for s, hand in enumerate(self.hands) for t in hand if t[0] == t[1]]
        if not doubles:
            self.finished = self.void = True
            return True
        self.current = max(doubles)[1]
        return True

    def holding(self, seat: int) -> list[Domino]:
        return list(self.hands[seat])

    def _fits(self, tile: Domino, end: int) -> list[int]:
        """The halves ``tile`` may leave open on an end showing ``end``."""
        halves = [tile[0]] if tile[0] == tile[1] else list(tile)
        if is_matador(tile):
            return halves
        return [outer for outer in halves if tile[0] + tile[1] - outer + end == SEVEN]

    def options(self) -> list[Option]:
        if self.finished:
            return []
        hand = self.hands[self.current]
        if self.left is None:
            top = max(t for t in hand if t[0] == t[1]) if any(t[0] == t[1] for t in hand) else None
            highest = max(t[0] for h in self.hands for t in h if t[0] == t[1])
            return [Option("put", top)] if top is not None and top[0] == highest else []
        found = [
            Option("put", tile, side, outer)
            for tile in hand
            for side, end in (("left", self.left), ("right", self.right))
            for outer in self._fits(tile, end)
        ]
        if self.stock:
            found.append(Option("take"))
        elif not found:
            found.append(Option("knock"))
        return found

    def put(self, tile: Domino, side: str | None = None, outer: int | None = None) -> bool:
        tile = (min(tile), max(tile))
        if Option("put", tile, side, outer) not in self.options():
            return False
        self.hands[self.current].remove(tile)
        if side is None:
            self.left, self.right = tile
        else:
            setattr(self, side, outer)
        self.knocks = 0
        if not self.hands[self.current]:
            self.finished, self.won_by = True, self.current
        else:
            self.current = (self.current + 1) % self.players
        return True

    def take(self) -> bool:
        if Option("take") not in self.options():
            return False
        self.hands[self.current].append(self.stock.pop(0))
        self.knocks = 0
        return True

    def knock(self) -> bool:
        if Option("knock") not in self.options():
            return False
        self.knocks += 1
        if self.knocks == self.players:
            totals = [sum(a + b for a, b in hand) for hand in self.hands]
            lowest = min(totals)
            self.finished = True
            self.won_by = totals.index(lowest) if totals.count(lowest) == 1 else None
        else:
            self.current = (self.current + 1) % self.players
        return True
