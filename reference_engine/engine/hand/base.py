"""The state of a hand, which every module of this package reads and writes.

:class:`HandFields` holds the fields of a hand in play (the tiles each seat
holds as bitmasks, the boneyard, the open ends as a shared
:class:`~reference_engine.engine.ends.Line`, whose turn, the history), what can
be read of them, the facts the turn's predicates need (:meth:`turn_facts`) and
the two changes every part makes (the next turn, the end of the hand). The
opening (:mod:`.opening`) and the step-by-step interface (:mod:`.steps`)
subclass it, and the refusals (:mod:`.refusals`) and positions
(:mod:`.position`) read it: the state is shared by design, through this one
class.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ...rules.model import Rules
from ..actions import AnyAction
from ..compiled import Compiled, compiled
from ..deal import Deal
from ..ends import Line, OpenEnd
from ..phase import Phase
from ..scoring import Outcome, Termination, score
from ..tiles import Tile
from ..turn import Facts, Ordinary, ordinary

# The phases again, as module constants: the hot path tests them on every
# action, and looking a member up on its Enum class costs as much as a call.
_OPENING, _PLAY, _OVER = Phase.OPENING, Phase.PLAY, Phase.OVER

_H = TypeVar("_H", bound="HandFields")


class HandFields:
    """The state of one hand: hands, boneyard, line ends, whose turn, history."""

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
        #: The turn predicates' answers for every ordinary turn (:func:`.turn.ordinary`).
        self._ordinary: Ordinary = ordinary(table)
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

    def copy(self: _H) -> _H:
        """An independent copy of this hand's state (sharing the immutable tables and
        deal), for programs that search: each field is copied by name, so neither hand's
        attributes leave the fast layout Python gives them (``copy.copy`` would make
        every later step of both hands about half again as slow).
        ``tests/test_hand_copy.py`` holds the list to every field a hand has."""
        twin = object.__new__(type(self))
        twin.rules, twin.table, twin._ordinary = self.rules, self.table, self._ordinary
        twin.deal, twin.players = self.deal, self.players
        twin.history, twin._hands = list(self.history), list(self._hands)
        twin._ending, twin._outcome, twin.opener = self._ending, self._outcome, self.opener
        twin._boneyard, twin._drawn, twin._reserve = self._boneyard, self._drawn, self._reserve
        twin._draw_limit, twin._line, twin._passes = self._draw_limit, self._line, self._passes
        twin._single_drawn, twin._forced_play = self._single_drawn, self._forced_play
        twin._legal, twin._offer = self._legal, self._offer
        twin._draw_for_double, twin._opening_tiles = self._draw_for_double, self._opening_tiles
        twin.opening_rule, twin.current = self.opening_rule, self.current
        twin.phase, twin.is_over = self.phase, self.is_over
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

    def turn_facts(self) -> Facts:
        """What the turn's predicates (:mod:`.turn`) need to know of the player to act."""
        table = self.table
        held = self._hands[self.current]
        if self.phase is not _PLAY:
            drawing = self._draw_for_double
            return Facts(
                opening=True,
                drawing_for_double=drawing,
                holds_opening_double=drawing and bool(held & table.opening_double_mask),
                boneyard_left=self.boneyard_count > 0,
            )
        playable = held & self._line.fit
        single = self._single_drawn
        return Facts(
            single_drawn=single is not None,
            drawn_fits=single is not None and bool(playable >> single & 1),
            forced=self._forced_play,
            has_play=bool(playable),
            only_matadors=bool(playable) and not playable & ~table.matador_mask,
            can_draw=self._drawn < self._draw_limit,
        )

    # ------------------------------------------------------------------ changes every part makes

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
