"""One hand of Matador under any resolved variant (spec/SPEC.md sections 6 to 9).

:class:`Hand` is a state machine with a verify / can / do trio:
:meth:`Hand.verify` raises :class:`IllegalActionError` with a reason code and
the rule that decides it, :meth:`Hand.is_legal` answers yes or no, and
:meth:`Hand.apply` verifies then changes the state. :meth:`Hand.legal_actions`
is the exact, canonically ordered set of actions for the player to act, which
is what engines are compared on. Every applied action goes to ``history``.

No variant is named here: every difference between sources comes from the
rules object, through the tables of :mod:`reference_engine.engine.compiled`.

Speed. Random playouts run millions of actions, so the turn is kept to table
look-ups and bit operations. Hands are bitmasks. The open ends are a shared
:class:`~reference_engine.engine.ends.Line` of the compiled table, which holds
every tile's placements on them as ready-made Play objects, so the legal
actions are built once per state by concatenating a few tuples.
:meth:`Hand.apply` recognises an offered action by identity: the line maps
that object's id() to what it does (the tile's bit and the line it leads to,
or a pass or a draw), and the bits of what the legal actions offer, kept with
them, say whether it is one of them; any other action is compared by value and
verified. A dealt hand is checked once
(:meth:`Deal.packed <reference_engine.engine.deal.Deal.packed>`), and a shuffled
one not at all; the outcome is scored when it is first read. Why an action is
refused is explained by :mod:`.refusals`, once :meth:`Hand.verify` has refused it.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import cast

from ..errors import Reason
from ..rules.model import Rules
from .actions import DRAW, PASS, AnyAction, Play
from .compiled import Compiled, compiled
from .deal import Deal, seats_after
from .ends import DRAW_BIT, PASS_BIT, Line, OpenEnd, Step
from .phase import Phase as Phase
from .position import at_position
from .refusals import refuse, why_not
from .scoring import Outcome, Termination, score
from .tiles import Tile
from .turn import beside

# The phases again, as module constants: the hot path tests them on every
# action, and looking a member up on its Enum class costs as much as a call.
_OPENING, _PLAY, _OVER = Phase.OPENING, Phase.PLAY, Phase.OVER


class Hand:
    """The state of one hand: hands, boneyard, line ends, whose turn, history."""

    def __init__(self, rules: Rules, deal: Deal) -> None:
        table, hands, boneyard, _ = deal.held(rules)  # raises DealError unless the deal fits
        self._set_up(rules, deal, hands, boneyard, table)
        self._choose_opener()

    def _set_up(
        self,
        rules: Rules,
        deal: Deal,
        hands: Sequence[int],
        boneyard: Sequence[int],
        table: Compiled | None = None,
    ) -> None:
        """Every field of a hand about to be opened, from ``deal`` (already checked)
        and the same deal as tile masks per seat and the boneyard's tiles as their bits
        in draw order (and the tables of ``rules``, when the caller has them)."""
        self.rules = rules
        if table is None:
            table = compiled(rules)
        self.table: Compiled = table
        self.deal = deal
        self.players = players = len(hands)
        self.history: list[AnyAction] = []
        #: How the hand ended, once it has (scored only when ``outcome`` is read).
        self._ending: tuple[Termination, int | None] | None = None
        self._outcome: Outcome | None = None
        self.opener: int | None = None
        self._hands = list(hands)
        self._boneyard = boneyard
        self._drawn = 0
        self._reserve = table.reserve_for(players)
        #: Draws in play are allowed while fewer than this many tiles have been drawn.
        self._draw_limit = len(self._boneyard) - self._reserve if table.draws else 0
        #: The open ends, with their look-ups (before the opening: none).
        self._line: Line = table.opening_line
        self._passes = 0
        self._single_drawn: int | None = None
        self._forced_play = False
        self._legal: tuple[AnyAction, ...] | None = None
        #: What ``_legal`` offers, as Step bits (see legal_actions).
        self._offer = 0
        self._draw_for_double = False
        self._opening_tiles = 0
        #: The rule that decided the opening tiles, named when another tile is refused.
        self.opening_rule = table.opening_rule
        self.current = 0
        self.phase = _OPENING
        #: Whether the hand has ended (``phase`` is OVER): an attribute, not a
        #: property, because a playout reads it before every action.
        self.is_over = False

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
        (:func:`reference_engine.engine.position.at_position` says how)."""
        return at_position(
            cls, rules, players=players, hand=hand, ends=ends, boneyard=boneyard, drawn=drawn
        )

    def copy(self) -> Hand:
        """An independent copy of this hand's state (sharing the immutable tables)."""
        twin = copy.copy(self)
        twin.history = list(self.history)
        twin._hands = list(self._hands)
        return twin

    # ------------------------------------------------------------------ observing

    def hand_of(self, seat: int) -> tuple[Tile, ...]:
        """The tiles ``seat`` holds, in canonical order."""
        return self.table.tiles_of(self._hands[seat])

    @property
    def ends(self) -> tuple[OpenEnd, ...]:
        """The open ends, end 0 (L), end 1 (R), then any later one; empty before the opening."""
        return tuple(self.table.kinds[kind] for kind in self._line.kinds)

    @property
    def end_kinds(self) -> tuple[int, ...]:
        """The open ends as ids of the compiled table's end kinds, L first."""
        return self._line.kinds

    @property
    def _ends(self) -> tuple[int, ...]:
        """The kinds of the open ends (for :mod:`.refusals`)."""
        return self._line.kinds

    @property
    def boneyard_count(self) -> int:
        """Tiles left in the boneyard."""
        return len(self._boneyard) - self._drawn

    @property
    def drawn_this_turn(self) -> Tile | None:
        """The tile drawn under a one-draw rule this turn, if any."""
        return None if self._single_drawn is None else self.table.tiles[self._single_drawn]

    @property
    def outcome(self) -> Outcome | None:
        """How the hand ended and what it scored (SPEC 9); None while it is in play.

        Scored when first read: a playout that never looks at it never pays for it.
        """
        outcome = self._outcome
        if outcome is None and self._ending is not None:
            termination, went_out = self._ending
            outcome = self._outcome = score(self.rules, self.pips(), termination, went_out)
        return outcome

    def pips(self) -> tuple[int, ...]:
        """Hand points per seat (doubles count both halves)."""
        return self.table.pips_each(self._hands)

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

    def apply(self, action: AnyAction, player: int | None = None) -> None:
        """Verify ``action`` and carry it out."""
        if self._legal is None:
            self.legal_actions()
        # An action legal_actions() offered is found by identity on the line, with
        # what it does, and its bit is among those offered; anything else (or a
        # seat named) is checked the long way.
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
            hand = self._hands[seat] ^ bit
            self._hands[seat] = hand
            self._passes = 0
            if hand:  # the next turn, as _next_turn()
                self.current = (seat + 1) % self.players
                self._single_drawn = None
                self._forced_play = False
            else:
                self._finish(Termination.DOMINO, went_out=seat)
        elif bit == PASS_BIT:
            self._passes += 1
            if self._passes >= self.players:
                self._finish(Termination.BLOCKED)
            else:  # as _next_turn()
                self.current = (self.current + 1) % self.players
                self._single_drawn = None
                self._forced_play = False
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
        return step

    # ------------------------------------------------------------------ the opening

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
            if held:
                return (self.table.opening_plays[held.bit_length() - 1],)
            return _DRAW_ONLY if self.boneyard_count else ()
        return self.table.opening_line.placements(self._opening_tiles)

    # ------------------------------------------------------------------ the turn

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
        table = self.table
        # Step 1 (the opener's own turn, SPEC 6.5, must place a tile if it can).
        plays = line.known.get(playable)  # as Line.placements() (written out: the hot path)
        if plays is None:
            plays = line.placements(playable)
        if not plays:  # (a player who can do nothing else draws, or passes)
            legal = _DRAW_ONLY if self._drawn < self._draw_limit else _PASS_ONLY
        elif self._forced_play or not table.optional_turn:
            legal = plays
        else:
            extra = beside(table, playable, self._drawn < self._draw_limit)
            legal = plays if extra is None else (*plays, extra)
        self._legal = legal
        last = legal[-1] if legal else None
        self._offer = playable | (PASS_BIT if last is PASS else DRAW_BIT if last is DRAW else 0)
        return legal

    def _other_legal(self, line: Line) -> tuple[AnyAction, ...]:
        """The legal actions before the opening, once the hand is over, or after a single draw."""
        if self.phase is not _PLAY:
            return () if self.phase is _OVER else self._opening_actions()
        playable = self._hands[self.current] & line.fit
        table = self.table
        legal: tuple[AnyAction, ...]
        # Step 2 of the procedure, one draw per turn.
        if table.after_draw_any_tile:
            legal = (*line.placements(playable), PASS)
        else:
            drawn = line.placements((1 << cast(int, self._single_drawn)) & playable)
            legal = (*drawn, PASS) if table.after_draw_may_pass or not drawn else drawn
        return legal

    # ------------------------------------------------------------------ doing

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

    def _next_turn(self) -> None:
        self.current = (self.current + 1) % self.players
        self._single_drawn = None
        self._forced_play = False

    def _finish(self, termination: Termination, went_out: int | None = None) -> None:
        self.phase = Phase.OVER
        self.is_over = True
        self._legal = ()
        self._offer = 0
        self._ending = (termination, went_out)


#: The legal actions of a player with nothing to place: one tuple each, built once.
_DRAW_ONLY: tuple[AnyAction, ...] = (DRAW,)
_PASS_ONLY: tuple[AnyAction, ...] = (PASS,)


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
