"""tabletop.py before the suite with the adapter kit: no reasons, no score (the kit declares
both), six tiles to two players (declared here). In process or as a program: matador conform
--engine python:docs/examples/tabletop_adapter.py:TabletopAdapter, or "python THIS_FILE"."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tabletop import Table

from reference_engine.kit import Adapter, Move, serve

SIDES = ("left", "right")


class TabletopAdapter(Adapter):
    name, version = "tabletop matador", "2.1"
    variants = {"wikipedia-brandreth": {}}  # noqa: RUF012
    plays = {"wikipedia-brandreth": {"hand_sizes": {"2": 6}}}  # noqa: RUF012

    def new_game(self, variant, options, players):
        self.table = Table(players)

    def start(self, table):
        return self.table.lay_out([list(hand) for hand in table.hands], list(table.boneyard))

    def seat(self):
        return None if self.table.finished else self.table.current

    def moves(self):
        for option in self.table.options():
            if option.kind != "put":
                yield Move.draw if option.kind == "take" else Move.pass_
            elif option.side is None:
                yield Move.opening(*option.tile)
            else:
                yield Move.inline(*option.tile, SIDES.index(option.side), option.outer)

    def play(self, move, seat):
        if move in (Move.draw, Move.pass_):
            return self.table.take() if move == Move.draw else self.table.knock()
        side = None if move.end is None else SIDES[move.end] if move.end < 2 else "none"
        return self.table.put(tuple(move.tile), side, move.open)

    def open_ends(self):
        return [] if self.table.left is None else [self.table.left, self.table.right]

    def tiles(self, seat):
        return self.table.holding(seat)

    def winner(self):
        return self.table.won_by

    def termination(self):
        return "redeal" if self.table.void else super().termination()


if __name__ == "__main__":
    sys.exit(serve(TabletopAdapter))
