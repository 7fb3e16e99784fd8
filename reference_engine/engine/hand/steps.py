"""The step-by-step interface of a hand: its legal actions, and applying one.

:class:`Hand` is a state machine with a verify / can / do trio:
:meth:`Hand.verify` raises :class:`IllegalActionError` with a reason code and
the rule that decides it, :meth:`Hand.is_legal` answers yes or no, and
:meth:`Hand.apply` verifies then changes the state. :meth:`Hand.legal_actions`
is the exact, canonically ordered set of actions for the player to act, which
is what engines are compared on: the placements from the line's tables, the
draw or pass beside them as the turn's predicates (:mod:`..turn`) allow.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from ...errors import Reason
from ...rules.model import Rules
from ..actions import DRAW, PASS, AnyAction, Play
from ..deal import Deal
from ..ends import DRAW_BIT, PASS_BIT, Line, Step
from ..phase import Phase
from ..scoring import Termination
from ..tiles import Tile
from ..turn import extra_action
from .opening import Opening
from .position import at_position
from .refusals import refuse, why_not

_OPENING, _PLAY, _OVER = Phase.OPENING, Phase.PLAY, Phase.OVER


class Hand(Opening):
    """One hand of Matador in play, driven one action at a time."""

    def __init__(self, rules: Rules, deal: Deal) -> None:
        table, hands, boneyard, _ = deal.held(rules)  # raises DealError unless the deal fits
        self._set_up(rules, deal, hands, boneyard, table)
        self._choose_opener()

    @classmethod
    def at_position(
        cls,
        rules: Rules,
        *,
        players: int,
        hand: Sequence[Tile],
        ends: tuple[int, int],
        boneyard: int,
        drawn: Tile | None = None,
    ) -> Hand:
        """A hand in play as the player to act (seat 0) sees it, for `matador explain`
        (:func:`reference_engine.engine.hand.position.at_position` says how)."""
        return at_position(
            cls, rules, players=players, hand=hand, ends=ends, boneyard=boneyard, drawn=drawn
        )

    # ------------------------------------------------------------------ legality

    def is_legal(self, action: AnyAction, player: int | None = None) -> bool:
        """Whether ``action`` (by ``player``, if given) may be applied now."""
        if self.phase is _OVER or (player is not None and player != self.current):
            return False
        return _offered(self.legal_actions(), action) is not None

    def verify(self, action: AnyAction, player: int | None = None) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` may be applied now."""
        if self.phase is _OVER:
            raise refuse(self, Reason.HAND_OVER, "the hand is over", None)
        if player is not None and player != self.current:
            raise refuse(
                self,
                Reason.NOT_YOUR_TURN,
                f"it is seat {self.current}'s turn, not seat {player}'s",
                None,
            )
        if _offered(self.legal_actions(), action) is None:
            raise why_not(self, action)

    def legal_actions(self) -> tuple[AnyAction, ...]:
        """Every legal action of the player to act, in canonical order (SPEC section 8.2).

        Built once per state and kept in ``_legal``, with the bits of what they
        offer in ``_offer``: the tiles placed, and :data:`PASS_BIT` or
        :data:`DRAW_BIT` (a turn's legal actions hold every placement of each
        tile they place). Outside an ordinary turn ``_offer`` is 0, and apply()
        checks an action the long way.
        """
        legal = self._legal
        if legal is not None:
            return legal
        line = self._line
        if self.phase is not _PLAY or self._single_drawn is not None:
            self._offer = 0
            legal = self._legal = self._other_legal(line)
            return legal
        playable = self._hands[self.current] & line.fit
        plays = line.known.get(playable)  # as Line.placements() (written out: the hot path)
        if plays is None:
            plays = line.placements(playable)
        # Beside the placements, the draw or pass the turn's predicates allow
        # (:mod:`..turn`): read from their answers for an ordinary turn, asked for the
        # opener's second tile (SPEC 6.5).
        turn = self._ordinary
        if plays and not turn.optional and not self._forced_play:
            self._legal = plays  # (the predicates allow nothing beside them)
            self._offer = playable
            return plays
        can_draw = self._drawn < self._draw_limit
        if not plays:
            legal = turn.without_play[can_draw]
        elif self._forced_play:
            extra = extra_action(self.table, self.turn_facts())
            legal = plays if extra is None else (*plays, extra)
        else:
            only_matadors = not playable & ~self.table.matador_mask
            extra = turn.beside[2 * only_matadors + can_draw]
            legal = plays if extra is None else (*plays, extra)
        self._legal = legal
        if self._forced_play:  # (apply() takes the long way, which ends the forced play)
            self._offer = 0
            return legal
        last = legal[-1] if legal else None
        self._offer = playable | (PASS_BIT if last is PASS else DRAW_BIT if last is DRAW else 0)
        return legal

    def _other_legal(self, line: Line) -> tuple[AnyAction, ...]:
        """The legal actions before the opening, once the hand is over, or after a single draw."""
        if self.phase is not _PLAY:
            return () if self.phase is _OVER else self._opening_actions()
        playable = self._hands[self.current] & line.fit
        # Step 2 of the procedure, one draw per turn: the drawn tile, or any tile, and
        # the pass the predicates allow.
        if not self.table.after_draw_any_tile:
            playable &= 1 << cast(int, self._single_drawn)
        plays = line.placements(playable)
        extra = extra_action(self.table, self.turn_facts())
        return plays if extra is None else (*plays, extra)

    # ------------------------------------------------------------------ doing

    def apply(self, action: AnyAction, player: int | None = None) -> None:
        """Verify ``action`` and carry it out."""
        if self._legal is None:
            self.legal_actions()
        # An action legal_actions() offered in an ordinary turn is found by identity on
        # the line, with what it does, and its bit is among those offered; anything else
        # (or another seat named) is checked the long way, which also ends a single
        # draw's turn or the opener's second tile.
        step = self._line.after.get(id(action))
        if (
            step is None
            or not step[0] & self._offer
            or (player is not None and player != self.current)
        ):
            step = self._checked(action, player)
            if step is None:  # it was the opening tile, and the hand is open
                return
        self._legal = None
        self.history.append(action)
        bit, line = step
        if bit < PASS_BIT:  # a placement (written out here: this is the hot path)
            self._line = line
            seat = self.current
            hands = self._hands
            hand = hands[seat] ^ bit
            hands[seat] = hand
            self._passes = 0
            if hand:  # the next turn
                self.current = (seat + 1) % self.players
            else:
                self._finish(Termination.DOMINO, went_out=seat)
        elif bit == PASS_BIT:
            self._passes += 1
            if self._passes >= self.players:
                self._finish(Termination.BLOCKED)
            else:
                self.current = (self.current + 1) % self.players
        else:
            self._draw()

    def _checked(self, action: AnyAction, player: int | None) -> Step | None:
        """What ``action`` does, once verified (raises unless it may be applied now);
        None when it was the opening tile, which this puts down."""
        legal = self.legal_actions()
        if player is not None and player != self.current:
            self.verify(action, player)  # raises (not your turn, or the hand is over)
        # ``offered`` is the action as legal_actions() built it: an equal one (or
        # none, and verify() refuses).
        offered = _offered(legal, action)
        if offered is None:
            self.verify(action, player)  # raises: it is not one of them
            offered = legal[legal.index(action)]
        step = self._line.after.get(id(offered))
        if step is None:  # the opening tile, or a placement first made on this line
            if isinstance(offered, Play) and offered.end is None:
                self._legal = None
                self.history.append(action)
                self._open(offered)
                return None
            step = self.table.step(self._line, cast(Play, offered))
        if step[0] <= PASS_BIT:  # a placement or a pass ends the turn, whatever it was
            self._single_drawn = None
            self._forced_play = False
        return step

    def _draw(self) -> None:
        bit = self._boneyard[self._drawn]
        self._drawn += 1
        self._hands[self.current] |= bit
        self._passes = 0
        # Only an opener with a placement must add the next tile; one who had to
        # draw is taking an ordinary turn, and goes on taking one (SPEC 6.5).
        self._forced_play = False
        if self.table.one_draw_per_turn and self.phase is _PLAY:
            self._single_drawn = bit.bit_length() - 1


def _offered(legal: tuple[AnyAction, ...], action: object) -> AnyAction | None:
    """The element of ``legal`` that is ``action``, or equals it; None if there is none.

    Identity first: the actions legal_actions() hands out come back as the same
    objects, and comparing dataclass fields is what makes a plain ``in`` slow.
    """
    for offered in legal:
        if offered is action:
            return offered
    for offered in legal:
        if offered == action:
            return offered
    return None
