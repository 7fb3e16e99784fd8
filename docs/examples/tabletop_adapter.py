"""The adapter that puts tabletop.py before the conformance suite, with the adapter kit.

In process:       matador conform --engine python:docs/examples/tabletop_adapter.py:TabletopAdapter
As a program:     matador conform --engine "python docs/examples/tabletop_adapter.py"

The table gives no refusal reasons and keeps no score: the kit declares both, and
the cases' reasons and points are not judged. It deals six tiles to two players,
which the adapter declares, so that is judged once, as a deviation of hand_size.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tabletop import Option, Table  # noqa: E402

from reference_engine.kit import Adapter, Move, serve  # noqa: E402

SIDES = ("left", "right")


class TabletopAdapter(Adapter):
    name, version = "tabletop matador", "2.1"
    variants = {"wikipedia-brandreth": {}}
    plays = {"wikipedia-brandreth": {"hand_sizes": {"2": 6}}}

    def new_game(self, variant, options, players):
        self.table = Table(players)

    def start(self, table):
        return self.table.lay_out([list(hand) for hand in table.hands], list(table.boneyard))

    def seat(self):
        return None if self.table.finished else self.table.current

    def moves(self):
        return [as_move(option) for option in self.table.options()]

    def play(self, move, seat):
        if move in (Move.draw, Move.pass_):
            return self.table.take() if move == Move.draw else self.table.knock()
        side = None if move.end is None else SIDES[move.end] if move.end < 2 else "none"
        return self.table.put(tuple(move.tile), side, move.open)

    def open_ends(self):
        return [] if self.table.left is None else [self.table.left, self.table.right]

    def hand(self, seat):
        return self.table.holding(seat)

    def winner(self):
        return self.table.won_by

    def termination(self):
        return "redeal" if self.table.void else super().termination()


def as_move(option: Option):
    if option.kind != "put":
        return Move.draw if option.kind == "take" else Move.pass_
    assert option.tile is not None
    if option.side is None:
        return Move.opening(*option.tile)
    return Move.inline(*option.tile, SIDES.index(option.side), option.outer)


if __name__ == "__main__":
    sys.exit(serve(TabletopAdapter))
