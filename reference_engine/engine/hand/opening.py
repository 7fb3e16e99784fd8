"""The opening of a hand: who puts down the first tile, which tiles may open, and laying it.

:class:`Opening` chooses the opener as the compiled tables say (a double held,
a designated seat, the right to open passing on, nobody holding a double), and
lays the opening tile.
"""

from __future__ import annotations

from ..actions import AnyAction, Play
from ..deal import seats_after
from ..phase import Phase
from ..scoring import Termination
from ..turn import extra_action
from .base import HandFields

_PLAY = Phase.PLAY


class Opening(HandFields):
    """A hand's opening: the opener, the tiles it may open with, the tile laid."""

    def _choose_opener(self) -> None:
        table = self.table
        doubles = table.opening_doubles
        highest = table.highest_double_opens
        if highest is not None:
            self._open_with_double(highest)
            return
        designated = self._designated()
        if table.opening_any_tile:
            self._set_opening(designated, self._hands[designated])
            return
        for seat in [designated, *seats_after(designated, self.players)[:-1]]:
            held = [double for double in doubles if self._hands[seat] >> double & 1]
            if held:
                self._set_opening(seat, 1 << held[-1])
                return
            if not table.right_to_open_passes:
                break
        self._nobody_has_double()

    def _open_with_double(self, highest: bool) -> None:
        """The holder of the highest (or lowest) opening double opens with it."""
        dealt = self.table.opening_double_mask & sum(self._hands)  # the hands are disjoint
        if not dealt:
            self._nobody_has_double()
            return
        double = dealt.bit_length() - 1 if highest else (dealt & -dealt).bit_length() - 1
        any_tile = self.table.holder_opens_any_tile
        for seat, hand in enumerate(self._hands):
            if hand >> double & 1:
                self._set_opening(seat, hand if any_tile else 1 << double)
                return

    def _designated(self) -> int:
        if self.deal.designated is None:
            raise ValueError("these rules need a designated opener")  # Deal.check prevents it
        return self.deal.designated

    def _set_opening(self, seat: int, tiles: int) -> None:
        self.current = seat
        self._opening_tiles = tiles

    def _nobody_has_double(self) -> None:
        table = self.table
        if table.redeal_without_double:
            self._finish(Termination.REDEAL)
            return
        if table.heaviest_opens:
            dealt = sum(self._hands)  # the hands are disjoint
            heaviest = next(index for index in table.heaviest_first if dealt >> index & 1)
            seat = next(s for s, hand in enumerate(self._hands) if hand >> heaviest & 1)
            self._set_opening(seat, 1 << heaviest)
            self.opening_rule = "nobody_has_double"
            return
        self._draw_for_double = True
        self.current = self._designated()

    def _opening_actions(self) -> tuple[AnyAction, ...]:
        if self._draw_for_double:
            held = self._hands[self.current] & self.table.opening_double_mask
            plays = (self.table.opening_plays[held.bit_length() - 1],) if held else ()
            extra = extra_action(self.table, self.turn_facts())
            return plays if extra is None else (*plays, extra)
        return self.table.opening_line.placements(self._opening_tiles)

    def _open(self, play: Play) -> None:
        table = self.table
        index = table.index[play.tile]
        seat = self.current
        self._hands[seat] &= ~(1 << index)
        self._line = table.line(table.opening_kinds[index])
        self.opener = seat
        self.phase = _PLAY
        self._passes = 0
        self._draw_for_double = False
        if not self._hands[seat]:
            self._finish(Termination.DOMINO, went_out=seat)
        elif table.opener_plays_again:
            self._forced_play = True
        else:
            self._next_turn()
