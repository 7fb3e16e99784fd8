"""Property-based tests of the engine: one hand as a state machine, and game records.

The hand is checked against a small model written from spec/SPEC.md (sections 6
to 10) and kept apart from the engine's tables: the ends of the line, what each
player holds, whose turn it is, the exact set of legal actions and the result
of the hand are all worked out again here from the rules, and compared with the
engine after every step. The model is deliberately plain (no bitmasks, no
tables) so that it can be read against the specification line by line.

Every shipped variant is covered, with its defaults and with each non-default
option value chosen alone (section 12.3 asks loaders to check exactly these),
at every player count the resolved rules allow.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from profiles import examples
from shipped import SHIPPED_VARIANTS

from reference_engine.engine.actions import DRAW, PASS, Action, AnyAction, Draw, Pass, Play
from reference_engine.engine.deal import Deal
from reference_engine.engine.hand import Hand
from reference_engine.engine.hand.refusals import CITED_AS
from reference_engine.engine.match import Match
from reference_engine.engine.record import match_record, play_match, replay
from reference_engine.engine.scoring import Outcome, Termination
from reference_engine.engine.strategies import random_choice
from reference_engine.engine.tiles import Tile, full_set
from reference_engine.errors import DealError, IllegalActionError, Reason
from reference_engine.rules import Catalog, Rules
from reference_engine.rules.vocabulary import (
    AfterSingleDraw,
    DesignatedOpener,
    DifferenceAmongSeveral,
    DoublesPlacement,
    DrawsPerTurn,
    DrawWhen,
    EndFilter,
    Fit,
    HandPips,
    MatadorAccess,
    MatadorTiles,
    MatchRule,
    NobodyHasDouble,
    Opener,
    OpenerLacksDouble,
    OpeningTile,
    OpenValues,
    Partnership,
    PassWhen,
    Points,
    Shape,
    TargetUnit,
    Tie,
)

#: A hand played with legal actions only must end within this many actions.
MAX_ACTIONS = 2000

# --------------------------------------------------------------------------- configurations


def _option_choices(variant: str) -> list[tuple[tuple[str, str], ...]]:
    """The defaults, then each non-default value of each option chosen alone."""
    rules = Catalog.shipped().resolve(variant)
    choices: list[tuple[tuple[str, str], ...]] = [()]
    for option in rules.options:
        for value in option.values:
            if value.name != option.default:
                choices.append(((option.name, value.name),))
    return choices


@cache
def resolved(variant: str, choice: tuple[tuple[str, str], ...]) -> Rules:
    """The shipped variant with ``choice`` applied (cached: the engine compiles per object)."""
    return Catalog.shipped().resolve(variant, dict(choice))


VARIANTS: tuple[str, ...] = tuple(Catalog.shipped().ids())

#: (variant, option choice, players) for every variant, option value and player count.
CONFIGS: dict[str, tuple[tuple[str, tuple[tuple[str, str], ...], int], ...]] = {
    variant: tuple(
        (variant, choice, players)
        for choice in _option_choices(variant)
        for players in resolved(variant, choice).players
    )
    for variant in VARIANTS
}
ALL_CONFIGS = tuple(config for configs in CONFIGS.values() for config in configs)


def _quick_or_slow(config: tuple[str, tuple[tuple[str, str], ...], int]) -> object:
    """The configuration as a parameter: each variant's defaults at its fewest players
    run in the quick loop; every other option value and player count is slow (CI)."""
    variant, choice, players = config
    fewest = min(resolved(variant, ()).players)
    quick = not choice and players == fewest
    return pytest.param(*config, marks=() if quick else pytest.mark.slow)


CONFIG_IDS = [
    f"{v}-{'+'.join(f'{k}={x}' for k, x in c) or 'defaults'}-{p}p" for v, c, p in ALL_CONFIGS
]


def test_the_configurations_cover_every_variant_and_option_value() -> None:
    # Guards the generators below: a variant or option value that silently
    # dropped out of CONFIGS would no longer be tested.
    assert set(VARIANTS) == set(SHIPPED_VARIANTS)
    for variant in VARIANTS:
        rules = resolved(variant, ())
        chosen = {choice for _, choice, _ in CONFIGS[variant]}
        for option in rules.options:
            for value in option.values:
                if value.name != option.default:
                    assert ((option.name, value.name),) in chosen
        assert {players for _, choice, players in CONFIGS[variant] if not choice} == set(
            rules.players
        )


# --------------------------------------------------------------------------- the model


@dataclass(frozen=True)
class End:
    """An open end as SPEC section 1 describes it: values, match rule, matador access."""

    values: tuple[int, ...]
    match: MatchRule
    access: MatadorAccess


def plain(value: int) -> End:
    """SPEC section 1, "Plain end": one value, match rule ``sum``, matador access ``free``."""
    return End((value,), MatchRule.SUM, MatadorAccess.FREE)


def is_plain(end: End) -> bool:
    """SPEC section 1, "Plain end"."""
    return len(end.values) == 1 and end.match is MatchRule.SUM and end.access is MatadorAccess.FREE


def admits(end: End, half: int, line_sum: int) -> bool:
    """SPEC section 1, "Match rule"."""
    if end.match is MatchRule.SUM:
        return any(half + value == line_sum for value in end.values)
    if end.match is MatchRule.IDENTICAL:
        return half in end.values
    if end.match is MatchRule.BLANK:
        return half == 0
    if end.match is MatchRule.ANY:
        return True
    assert end.match is MatchRule.NONE
    return False


def is_matador(rules: Rules, tile: Tile) -> bool:
    """SPEC section 1, "Matador": ``[0-0]`` and every tile whose halves make the line sum."""
    return tile == (0, 0) or tile.low + tile.high == rules.max_pip + 1


def orientations_of(tile: Tile) -> list[tuple[int, int]]:
    """SPEC section 7.1: (attaching half, outer half); one orientation for a double, else two."""
    if tile.low == tile.high:
        return [(tile.low, tile.high)]
    return [(tile.low, tile.high), (tile.high, tile.low)]


def model_placements(
    rules: Rules, end: End, tile: Tile
) -> dict[tuple[Shape, int | None], tuple[End, ...]]:
    """SPEC section 7.4: every placement of ``tile`` on ``end`` and the ends it leaves.

    A placement is keyed by its identity less the tile and end (section 1,
    "Placement"): its shape and open value. It leaves one end in place of
    ``end``, and under ``open: two_ends`` a second one after the line's last.
    """
    line_sum = rules.max_pip + 1  # section 1, "Line sum"
    found: dict[tuple[Shape, int | None], tuple[End, ...]] = {}
    # Section 7.2: ``doubles`` has one value, inline, and a double is then an
    # ordinary tile with one orientation (orientations_of).
    assert rules.doubles is DoublesPlacement.INLINE

    def by_match_rule() -> None:  # section 7.1 (and 7.2), and the match attachment of 7.4 step 3
        for half, outer in orientations_of(tile):
            if admits(end, half, line_sum):
                found[(Shape.INLINE, outer)] = (plain(outer),)

    if not is_matador(rules, tile):  # section 7.4, step 1
        by_match_rule()
        return found
    if end.access is MatadorAccess.NEVER:  # section 7.4, step 2
        return found
    if end.access is MatadorAccess.MATCH_ONLY:  # section 7.4, step 3
        by_match_rule()
        return found
    for mode in rules.matador_modes:  # section 7.4, step 4: the modes that apply (7.3)
        # Section 7.3, "applies", condition 1: the mode's ``tiles`` covers the tile.
        if mode.tiles is MatadorTiles.DOUBLE_BLANK and tile != (0, 0):
            continue
        if mode.tiles is MatadorTiles.ALL_BUT_DOUBLE_BLANK and tile == (0, 0):
            continue
        # Condition 2: access ``free`` (checked above) and the ``ends`` filter of 7.3:
        # ``blank`` is a plain end showing 0, ``non_blank`` a plain end showing 1 or more.
        if mode.ends is EndFilter.BLANK and not (is_plain(end) and end.values == (0,)):
            continue
        if mode.ends is EndFilter.NON_BLANK and not (is_plain(end) and end.values[0] >= 1):
            continue
        # Step 4, first bullet: the eligible orientations; with ``fit: match`` none
        # eligible is condition 3 failing, and the mode does not apply.
        eligible = [
            (half, outer)
            for half, outer in orientations_of(tile)
            if mode.fit is Fit.FREE or admits(end, half, line_sum)
        ]
        candidates: list[tuple[tuple[Shape, int | None], tuple[tuple[int, ...], ...]]] = []
        if mode.shape is Shape.CROSSWISE and eligible:  # step 4, third bullet: once, no open value
            if mode.open is OpenValues.TWO_ENDS:  # the lower half here, the higher a new end
                candidates.append(((Shape.CROSSWISE, None), ((tile.low,), (tile.high,))))
            elif mode.open is OpenValues.BOTH_HALVES:
                both = tuple(sorted({tile.low, tile.high}))
                candidates.append(((Shape.CROSSWISE, None), (both,)))
            else:
                assert mode.open is OpenValues.COVERED_VALUE
                candidates.append(((Shape.CROSSWISE, None), (end.values,)))
        elif mode.shape is not Shape.CROSSWISE:  # step 4, second bullet: one per orientation
            assert mode.open is OpenValues.OUTER_HALF  # coherence (section 7.3)
            candidates.extend(((mode.shape, outer), ((outer,),)) for _, outer in eligible)
        for key, shown in candidates:
            # Step 4, last bullet: the new end's match rule and access are the mode's ``leaves``.
            leaves = mode.leaves
            new_end = tuple(End(values, leaves.match, leaves.matadors) for values in shown)
            # Section 7.4, step 5: one identity, one placement; coherence makes the ends equal.
            assert found.setdefault(key, new_end) == new_end, (tile, end, key)
    return found


def opening_doubles(rules: Rules) -> list[Tile]:
    """SPEC section 6.1, lowest first (``opener: top_double``: the set's top double only)."""
    if rules.opener is Opener.TOP_DOUBLE:
        return [Tile(rules.max_pip, rules.max_pip)]
    return [Tile(d, d) for d in range(rules.max_pip + 1) if d > 0 or rules.double_blank_opens]


def sort_key(action: AnyAction) -> tuple[int, ...]:
    """The canonical order of spec/notation.md, written out independently of the engine."""
    if isinstance(action, Draw):
        return (1,)
    if isinstance(action, Pass):
        return (2,)
    shape_rank = {Shape.INLINE: 0, Shape.CROSSWISE: 1, Shape.CROSSWISE_OFFSET: 2}[action.shape]
    return (
        0,
        action.tile.low,
        action.tile.high,
        -1 if action.end is None else action.end,
        shape_rank,
        -1 if action.open is None else action.open,
    )


def expected_points(
    rules: Rules, pips: tuple[int, ...], termination: Termination, went_out: int | None
) -> tuple[int | None, tuple[int, ...]]:
    """SPEC sections 9 and 10: the winning side and the points of every side."""
    players = len(pips)
    if rules.partnership is Partnership.TWO_VS_TWO:  # section 5.4: seats 0+2 against 1+3
        groups: list[tuple[int, ...]] = [(0, 2), (1, 3)]
    else:
        groups = [(seat,) for seat in range(players)]
    # Section 10.1 (``hand_pips: full``, its only value): a side's total is the sum of
    # its members' hand points (the caller's ``pips``, doubles counting both halves).
    assert rules.hand_pips is HandPips.FULL
    totals = [sum(pips[seat] for seat in group) for group in groups]
    nothing = tuple(0 for _ in groups)
    if termination is Termination.REDEAL:  # section 6.4, ``redeal``: nobody scores
        return None, nothing
    if termination is Termination.DOMINO:  # section 9, "Domino": the side that went out wins
        assert went_out is not None
        winner = next(side for side, group in enumerate(groups) if went_out in group)
    else:
        lowest = min(totals)  # section 9, "Block": the lowest hand points win
        if totals.count(lowest) > 1:  # section 10.3: a tie for lowest, nobody scores
            assert rules.tie is Tie.NOBODY_SCORES  # its only value
            return None, nothing
        winner = totals.index(lowest)
    own = totals[winner]  # section 10.2: W, and the losers' totals L1 ... Lk
    losers = [total for side, total in enumerate(totals) if side != winner]
    if rules.points is Points.ALL_HANDS:  # W + L1 + ... + Lk
        won = sum(totals)
    elif rules.points is Points.OPPONENTS:  # L1 + ... + Lk
        won = sum(losers)
    elif len(losers) == 1:  # ``difference`` with one loser: L1 - W
        won = losers[0] - own
    elif rules.difference_among_several is DifferenceAmongSeveral.EACH_OPPONENT_MINUS_OWN:
        won = sum(loser - own for loser in losers)
    else:
        assert rules.difference_among_several is DifferenceAmongSeveral.TOTAL_MINUS_OWN
        won = sum(losers) - own
    if rules.partnership is Partnership.TWO_VS_TWO:
        won = max(0, won)  # "never less than 0" (section 10.2, partnerships)
    assert won >= 0
    return winner, tuple(won if side == winner else 0 for side in range(len(groups)))


class HandModel:
    """One hand worked out from the specification alone, action by action.

    Each rule the model implements names its section of spec/SPEC.md beside it;
    the reason codes of :meth:`refusal` come from spec/protocol.md ("apply").
    """

    def __init__(self, rules: Rules, deal: Deal) -> None:
        self.rules = rules
        self.deal = deal
        self.players = len(deal.hands)
        self.hands = [set(hand) for hand in deal.hands]
        self.drawn = 0
        self.ends: list[End] = []
        self.passes = 0  # section 9, "Block": the count of consecutive passes
        self.single_drawn: Tile | None = None  # section 8.2, step 2 under ``draws_per_turn: one``
        # Section 6.5: the opener's own turn, while it still forces a placement (until a draw).
        self.extra_turn = False
        self.over = False
        self.termination: Termination | None = None
        self.went_out: int | None = None
        self.opener: int | None = None
        self.draw_for_double = False  # section 6.4, ``designated_draws_until_double``
        self.openings: list[Play] = []  # section 6.3: the opening tiles allowed
        self.current = 0
        self._choose_opener()

    # -- section 6

    def _holder(self, tile: Tile) -> int | None:
        return next((seat for seat in range(self.players) if tile in self.hands[seat]), None)

    def _choose_opener(self) -> None:
        """SPEC section 6.3 (``opener``, ``opening_tile``, ``opener_lacks_double``), then 6.4."""
        rules, doubles = self.rules, opening_doubles(self.rules)
        if rules.opener is not Opener.DESIGNATED:
            order = doubles if rules.opener is Opener.LOWEST_DOUBLE else doubles[::-1]
            for double in order:
                seat = self._holder(double)
                if seat is not None:
                    # ``highest_double_holder``: the holder leads any tile of their hand.
                    self.current, self.openings = (
                        seat,
                        (
                            [Play(tile) for tile in self.hands[seat]]
                            if rules.opener is Opener.HIGHEST_DOUBLE_HOLDER
                            else [Play(double)]
                        ),
                    )
                    return
        else:
            designated = self.deal.designated
            assert designated is not None
            if rules.opening_tile is OpeningTile.ANY_TILE:
                self.current = designated
                self.openings = [Play(tile) for tile in self.hands[designated]]
                return
            # ``opening_tile: highest_double``: the designated opener's highest opening
            # double; lacking one, ``next_player_with_double`` (its only value) passes the
            # right to open in turn order to the first seat holding one.
            assert rules.opener_lacks_double is OpenerLacksDouble.NEXT_PLAYER_WITH_DOUBLE
            for step in range(self.players):
                seat = (designated + step) % self.players
                held = [double for double in doubles if double in self.hands[seat]]
                if held:
                    self.current, self.openings = seat, [Play(held[-1])]
                    return
        # Section 6.4: nobody holds an opening double.
        if rules.nobody_has_double is NobodyHasDouble.REDEAL:
            self.over, self.termination = True, Termination.REDEAL
            return
        if rules.nobody_has_double is NobodyHasDouble.HEAVIEST_TILE:
            # The heaviest tile dealt: most pips, then the higher high half.
            dealt = [tile for hand in self.hands for tile in hand]
            heaviest = max(dealt, key=lambda tile: (tile.low + tile.high, tile.high))
            seat = self._holder(heaviest)
            assert seat is not None
            self.current, self.openings = seat, [Play(heaviest)]
            return
        assert rules.nobody_has_double is NobodyHasDouble.DESIGNATED_DRAWS_UNTIL_DOUBLE
        assert self.deal.designated is not None
        self.current, self.draw_for_double = self.deal.designated, True

    # -- sections 7 and 8

    def placements(self, tiles: set[Tile]) -> list[Play]:
        """SPEC section 7.4: the placements of ``tiles`` on each of the two ends."""
        return [
            Play(tile, end, shape, open_value)
            for tile in tiles
            for end in range(len(self.ends))
            for shape, open_value in model_placements(self.rules, self.ends[end], tile)
        ]

    def can_draw(self) -> bool:
        """SPEC section 8.2: ``draw_when`` is not ``never`` and the boneyard holds more
        tiles than the reserve (sections 1 and 5.3)."""
        reserve = self.rules.reserve.for_players(self.players)
        left = len(self.deal.boneyard) - self.drawn
        return self.rules.draw_when is not DrawWhen.NEVER and left > reserve

    def legal(self) -> set[AnyAction]:
        """The legal actions of the player to act: sections 6.3 to 6.5 and 8.2."""
        if self.over:  # section 9: nothing is offered once the hand has ended
            return set()
        rules = self.rules
        if not self.ends:  # the opening (section 6)
            if self.draw_for_double:
                # Section 6.4: draw until an opening double comes, then open with it
                # (nobody held one, so the one in hand is the one that came).
                held = [d for d in opening_doubles(rules) if d in self.hands[self.current]]
                if held:
                    assert len(held) == 1
                    return {Play(held[0])}
                assert len(self.deal.boneyard) > self.drawn, "section 6.4: the draw always ends"
                return {DRAW}  # this draw ignores ``reserve`` and ``draw_when`` (section 6.4)
            return set(self.openings)  # section 6.3
        hand = self.hands[self.current]
        plays = self.placements(hand)  # P of section 8.2
        all_matador = all(is_matador(rules, play.tile) for play in plays)  # true when P is empty
        if self.single_drawn is not None:  # section 8.2, step 2 under ``draws_per_turn: one``
            drawn = self.placements({self.single_drawn})  # D
            after = rules.after_single_draw
            if after is AfterSingleDraw.MAY_PLAY_ANY:  # P and pass
                return {*plays, PASS}
            if after is AfterSingleDraw.MAY_PLAY_DRAWN or not drawn:  # D and pass, or pass
                return {*drawn, PASS}
            assert after is AfterSingleDraw.MUST_PLAY_DRAWN  # D when D is not empty
            return set(drawn)
        # Section 6.5: an opener with a legal placement at the start of their own turn
        # must put a tile down; with none, the turn is an ordinary one (step 1 below),
        # and after a draw it stays ordinary (apply() ends the extra turn on a draw).
        if self.extra_turn and plays:
            return set(plays)
        if self.can_draw():  # section 8.2, step 1, first bullet: P, and draw if permitted
            when = rules.draw_when  # section 8.1, ``draw_when``
            if (
                not plays
                or when is DrawWhen.ALWAYS
                or (when is DrawWhen.ONLY_MATADOR_PLAYS and all_matador)
            ):
                return {*plays, DRAW}
            return set(plays)
        # Section 8.2, step 1, second bullet: P, and pass if permitted (8.1, ``pass_when``).
        when_pass = rules.pass_when
        if (
            not plays
            or when_pass is PassWhen.ALWAYS
            or (when_pass is PassWhen.ONLY_MATADOR_PLAYS and all_matador)
        ):
            return {*plays, PASS}
        return set(plays)

    # -- why an engine refuses an action (spec/protocol.md, "apply")

    def refusal(self, action: AnyAction) -> Reason:
        """The reason code for refusing ``action``, an action outside :meth:`legal`.

        When several reasons apply, the first in the protocol's order of checks
        (``not_your_turn`` is left to the caller: the model acts for the seat to act).
        """
        assert action not in self.legal()
        if self.over:
            return Reason.HAND_OVER
        opening = not self.ends
        held = self.hands[self.current]
        if isinstance(action, Play):
            if (action.end is None) != opening:
                return Reason.NO_SUCH_END
            if action.end is not None and action.end >= len(self.ends):  # not an open end
                return Reason.NO_SUCH_END
            if action.tile not in held:
                return Reason.TILE_NOT_IN_HAND
            if opening:
                return Reason.MUST_DRAW if self.draw_for_double else Reason.WRONG_OPENING
            assert action.end is not None
            if self.single_drawn not in (None, action.tile) and (
                self.rules.after_single_draw is not AfterSingleDraw.MAY_PLAY_ANY
            ):  # section 8.1: under may_play_drawn and must_play_drawn, the drawn tile only
                return Reason.ONLY_DRAWN_TILE
            if not model_placements(self.rules, self.ends[action.end], action.tile):
                return Reason.DOES_NOT_MATCH_END
            return Reason.PLACEMENT_NOT_ALLOWED
        plays = [] if opening else self.placements(held)
        if isinstance(action, Draw):
            if opening or self.single_drawn is not None or self.rules.draw_when is DrawWhen.NEVER:
                return Reason.DRAW_NOT_ALLOWED  # the opening, a second draw, nobody draws
            if not self.can_draw():
                return Reason.RESERVE_REACHED
            if self.extra_turn and plays:  # section 6.5: the opener must add the next tile
                return Reason.MUST_PLAY
            return Reason.DRAW_NOT_ALLOWED  # section 8.1, ``draw_when``
        assert isinstance(action, Pass)
        if opening:
            return Reason.PASS_NOT_ALLOWED
        if self.single_drawn is not None:  # section 8.2, step 2, ``must_play_drawn``
            return Reason.MUST_PLAY_DRAWN
        # Section 6.5: only a placement at the start of the opener's own turn forces
        # one; an opener with none takes an ordinary turn, and must draw if they can.
        if self.extra_turn and plays:
            return Reason.MUST_PLAY
        if self.can_draw():  # section 8.2, step 1: a player who can draw may not pass
            return Reason.PASS_NOT_ALLOWED if plays else Reason.MUST_DRAW
        if all(is_matador(self.rules, play.tile) for play in plays):  # ``pass_when: no_play``
            return Reason.MUST_PLAY_MATADOR
        return Reason.MUST_PLAY

    # -- carrying an action out (sections 6 to 9)

    def apply(self, action: AnyAction) -> None:
        """Carry out ``action``, one of :meth:`legal`."""
        assert action in self.legal()
        seat = self.current
        if isinstance(action, Draw):
            # Section 1, "Draw": the next tile of the boneyard, in draw order.
            tile = self.deal.boneyard[self.drawn]
            self.drawn += 1
            self.hands[seat].add(tile)
            self.passes = 0  # section 9: every draw sets the count of passes to 0
            if self.ends:  # a draw in play (the opening draw of 6.4 is not a turn)
                # Section 6.5: after a draw the opener's turn is an ordinary one.
                self.extra_turn = False
                if self.rules.draws_per_turn is DrawsPerTurn.ONE:  # section 8.2, step 2
                    self.single_drawn = tile
            return
        if isinstance(action, Pass):
            self.passes += 1  # section 9, "Block": N passes in a row end the hand
            if self.passes >= self.players:
                self.over, self.termination = True, Termination.BLOCKED
            else:
                self._next_turn()
            return
        assert isinstance(action, Play)
        self.hands[seat].remove(action.tile)
        self.passes = 0  # section 9: the opening and every placement set it to 0
        if action.end is None:
            # Section 6.3: a double leaves two plain ends showing d; [a-b] leaves a, then b.
            self.ends = [plain(action.tile.low), plain(action.tile.high)]
            self.opener = seat
            self.draw_for_double = False
        else:
            # Section 7.4: the placement replaces its end; the other end is unchanged.
            key = (action.shape, action.open)
            here, *beside = model_placements(self.rules, self.ends[action.end], action.tile)[key]
            self.ends[action.end] = here
            self.ends.extend(beside)  # ``open: two_ends``: the line gains an end
        if not self.hands[seat]:  # section 9, "Domino" (section 6.5: the opening tile included)
            self.over, self.termination, self.went_out = True, Termination.DOMINO, seat
        elif action.end is None and self.rules.opener_plays_again:  # section 6.5, ``true``
            self.extra_turn = True
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        """Section 8.2: a turn ends, and play moves to the next seat (section 1, "Seat")."""
        self.current = (self.current + 1) % self.players
        self.single_drawn = None
        self.extra_turn = False


# --------------------------------------------------------------------------- helpers


def end_of(engine_end: Any) -> End:
    return End(tuple(engine_end.values), engine_end.match, engine_end.access)


@cache
def every_action(max_pip: int) -> tuple[AnyAction, ...]:
    """Every action the notation can write for the double-``max_pip`` set."""
    actions: list[AnyAction] = [DRAW, PASS]
    for tile in full_set(max_pip):
        actions.append(Play(tile))
        for end in (0, 1, 2):  # end 2 exists only after a two_ends matador
            actions.append(Play(tile, end, Shape.CROSSWISE, None))
            for half in sorted({tile.low, tile.high}):
                actions.append(Play(tile, end, Shape.INLINE, half))
                actions.append(Play(tile, end, Shape.CROSSWISE_OFFSET, half))
    return tuple(actions)


def snapshot(hand: Hand) -> tuple[Any, ...]:
    """Everything an action could change."""
    return (
        tuple(hand.hand_of(seat) for seat in range(hand.players)),
        hand.ends,
        hand.boneyard_count,
        hand.current,
        len(hand.history),
        hand.phase,
        hand.outcome,
        hand.drawn_this_turn,
        hand.legal_actions(),
    )


def check_outcome(rules: Rules, hand: Hand, model: HandModel | None = None) -> None:
    """Section 9 and 10: how the hand ended, the pips left and the points scored."""
    outcome = hand.outcome
    assert isinstance(outcome, Outcome)
    assert hand.legal_actions() == ()
    pips = tuple(sum(tile.pips for tile in hand.hand_of(seat)) for seat in range(hand.players))
    assert outcome.pips == pips
    history = hand.history
    if outcome.termination is Termination.REDEAL:
        assert history == []
        holders = {tile for held in hand.deal.hands for tile in held}
        assert not holders & set(opening_doubles(rules))
        assert rules.nobody_has_double is NobodyHasDouble.REDEAL
        went_out = None
    elif outcome.termination is Termination.DOMINO:
        assert isinstance(history[-1], Play)
        went_out = outcome.went_out
        assert went_out is not None
        assert hand.hand_of(went_out) == ()
        assert sum(1 for seat in range(hand.players) if not hand.hand_of(seat)) == 1
    else:
        assert outcome.termination is Termination.BLOCKED
        went_out = None
        tail = history[-hand.players :]
        assert len(tail) == hand.players and all(isinstance(a, Pass) for a in tail)
        assert all(hand.hand_of(seat) for seat in range(hand.players))
    if model is not None:
        assert model.over and model.termination is outcome.termination
        assert model.went_out == outcome.went_out
    winner, points = expected_points(rules, pips, outcome.termination, went_out)
    assert (outcome.winner, outcome.points) == (winner, points)
    groups = [(0, 2), (1, 3)] if rules.partnership is Partnership.TWO_VS_TWO else None
    side_pips = tuple(pips[a] + pips[b] for a, b in groups) if groups else pips
    assert outcome.side_pips == side_pips


# --------------------------------------------------------------------------- the state machine


class HandMachine(RuleBasedStateMachine):
    """Deal one hand of one configuration, then play legal and illegal actions on it.

    The variant's rules are kept as ``variant_rules``: ``self.rules`` belongs to
    :class:`RuleBasedStateMachine` (its list of rules) and must not be overwritten.
    """

    def __init__(self, configs: tuple[tuple[str, tuple[tuple[str, str], ...], int], ...]):
        super().__init__()
        self.configs = configs
        self.hand: Hand | None = None

    @initialize(data=st.data(), seed=st.integers(0, 2**32 - 1))
    def deal(self, data: st.DataObject, seed: int) -> None:
        variant, choice, players = data.draw(st.sampled_from(self.configs), label="config")
        self.variant_rules = resolved(variant, choice)
        self.players = players
        self.full_set = full_set(self.variant_rules.max_pip)
        self._start(seed)

    def _start(self, seed: int) -> None:
        self.deal_ = Deal.shuffled(self.variant_rules, self.players, random.Random(seed))
        self.hand = Hand(self.variant_rules, self.deal_)
        self.model = HandModel(self.variant_rules, self.deal_)
        self.applied = 0

    # ---- rules

    def _apply_legal(self, action: AnyAction) -> None:
        assert self.hand is not None
        seat = self.hand.current
        before = self.hand.boneyard_count
        next_tile = self.deal_.boneyard[len(self.deal_.boneyard) - before] if before else None
        self.hand.apply(action)
        self.model.apply(action)
        self.applied += 1
        assert self.applied <= MAX_ACTIONS, "a hand played legally must end"
        if isinstance(action, Draw):
            # The next tile of the boneyard, in draw order, joins the drawer's hand.
            assert self.hand.boneyard_count == before - 1
            assert next_tile in self.hand.hand_of(seat)
        else:
            assert self.hand.boneyard_count == before
        assert self.hand.history[-1] == action

    @precondition(lambda self: self.hand is not None and not self.hand.is_over)
    @rule(data=st.data())
    def play_legal(self, data: st.DataObject) -> None:
        assert self.hand is not None
        action = data.draw(st.sampled_from(self.hand.legal_actions()), label="legal")
        self._apply_legal(action)

    @precondition(lambda self: self.hand is not None and not self.hand.is_over)
    @rule(count=st.integers(1, 40), seed=st.integers(0, 2**16))
    def play_legal_run(self, count: int, seed: int) -> None:
        assert self.hand is not None
        rng = random.Random(seed)
        for _ in range(count):
            if self.hand.is_over:
                break
            legal = self.hand.legal_actions()
            self._apply_legal(legal[rng.randrange(len(legal))])
            self.check_against_model()

    def _refused(self, action: AnyAction) -> IllegalActionError:
        """Check that ``action`` is refused without any change; return the error."""
        hand = self.hand
        assert hand is not None
        before = snapshot(hand)
        assert not hand.is_legal(action)
        with pytest.raises(IllegalActionError) as refused:
            hand.verify(action)
        with pytest.raises(IllegalActionError) as applied:
            hand.apply(action)
        assert snapshot(hand) == before
        error = applied.value
        assert refused.value.reason is error.reason
        assert isinstance(error.reason, Reason)
        assert str(error).startswith(f"{error.reason.value}: ")
        cited = CITED_AS.get(error.rule, error.rule) if error.rule else None
        assert cited is None or cited in self.variant_rules.provenance, error.rule
        if cited is not None:
            assert error.citations == self.variant_rules.provenance[cited].cite
        return error

    @precondition(lambda self: self.hand is not None and not self.hand.is_over)
    @rule(data=st.data(), kind=st.sampled_from(["draw or pass", "own tile", "any tile"]))
    def try_illegal(self, data: st.DataObject, kind: str) -> None:
        """An action outside the model's legal set is refused, with the model's reason."""
        model = self.model
        legal = model.legal()  # equal to the engine's (check_against_model)
        held = model.hands[model.current]
        pool = [a for a in every_action(self.variant_rules.max_pip) if a not in legal]
        draw_or_pass: set[AnyAction] = {DRAW, PASS}
        if kind == "draw or pass" and draw_or_pass - legal:
            pool = sorted(draw_or_pass - legal, key=sort_key)
        elif kind == "own tile":
            pool = [a for a in pool if isinstance(a, Play) and a.tile in held] or pool
        action = data.draw(st.sampled_from(pool), label="illegal")
        error = self._refused(action)
        assert error.reason is model.refusal(action), (action, error)

    @precondition(lambda self: self.hand is not None and self.hand.is_over)
    @rule(action=st.sampled_from([DRAW, PASS, Play(Tile(0, 0)), Action.parse("1-2@R:2")]))
    def try_after_the_end(self, action: AnyAction) -> None:
        assert self._refused(action).reason is Reason.HAND_OVER

    @precondition(lambda self: self.hand is not None and self.hand.is_over)
    @rule(seed=st.integers(0, 2**32 - 1))
    def next_hand(self, seed: int) -> None:
        assert self.hand is not None
        check_outcome(self.variant_rules, self.hand, self.model)
        self._start(seed)

    @precondition(lambda self: self.hand is not None and not self.hand.is_over)
    @rule(data=st.data(), step=st.integers(1, 3))
    def try_out_of_turn(self, data: st.DataObject, step: int) -> None:
        hand = self.hand
        assert hand is not None
        action = data.draw(st.sampled_from(hand.legal_actions()), label="legal")
        other = (hand.current + step) % hand.players
        if other == hand.current:
            return
        before = snapshot(hand)
        assert hand.is_legal(action) and hand.is_legal(action, hand.current)
        assert not hand.is_legal(action, other)
        with pytest.raises(IllegalActionError) as refused:
            hand.apply(action, other)
        assert refused.value.reason is Reason.NOT_YOUR_TURN
        assert snapshot(hand) == before

    # ---- invariants

    @invariant()
    def tiles_are_conserved(self) -> None:
        hand = self.hand
        if hand is None:
            return
        held = [tile for seat in range(hand.players) for tile in hand.hand_of(seat)]
        undrawn = list(self.deal_.boneyard[len(self.deal_.boneyard) - hand.boneyard_count :])
        line = [action.tile for action in hand.history if isinstance(action, Play)]
        everything = held + undrawn + line
        assert len(everything) == len(set(everything)), Counter(everything).most_common(3)
        assert set(everything) == set(self.full_set)

    @invariant()
    def legal_actions_are_canonical(self) -> None:
        hand = self.hand
        if hand is None:
            return
        assert 0 <= hand.current < hand.players
        legal = hand.legal_actions()
        assert len(set(legal)) == len(legal)
        assert list(legal) == sorted(legal, key=lambda action: action.sort_key())
        assert list(legal) == sorted(legal, key=sort_key)
        assert all(hand.is_legal(action) for action in legal)
        if hand.is_over:
            assert legal == ()
            check_outcome(self.variant_rules, hand, self.model)
        else:
            assert legal, "a hand that is not over always offers an action"
            assert hand.outcome is None

    @invariant()
    def check_against_model(self) -> None:
        hand = self.hand
        if hand is None:
            return
        model = self.model
        assert hand.is_over == model.over
        for seat in range(hand.players):
            assert set(hand.hand_of(seat)) == model.hands[seat]
        assert [end_of(end) for end in hand.ends] == model.ends
        assert hand.boneyard_count == len(self.deal_.boneyard) - model.drawn
        if not hand.is_over:
            assert hand.current == model.current
            assert hand.drawn_this_turn == model.single_drawn
        assert set(hand.legal_actions()) == model.legal()
        if model.opener is not None:
            assert hand.opener == model.opener

    def teardown(self) -> None:
        # Whatever the steps did, finish the hand legally: it must end, and its result is checked.
        hand = self.hand
        if hand is None:
            return
        rng = random.Random(self.applied)
        while not hand.is_over:
            legal = hand.legal_actions()
            self._apply_legal(legal[rng.randrange(len(legal))])
        self.check_against_model()
        check_outcome(self.variant_rules, hand, self.model)


@pytest.mark.parametrize("variant", VARIANTS)
def test_hand_state_machine(variant: str) -> None:
    run_state_machine_as_test(
        # Hypothesis documents any factory of machines here; its annotation says a class.
        lambda: HandMachine(CONFIGS[variant]),  # type: ignore[arg-type]
        # The profile (tests/profiles.py) adds the rest: derandomized, no deadline,
        # no too-slow health check (the first example builds the placement tables).
        settings=settings(max_examples=examples(30), stateful_step_count=30),
    )


# --------------------------------------------------------------------------- full hands


@pytest.mark.parametrize(
    ("variant", "choice", "players"), [_quick_or_slow(c) for c in ALL_CONFIGS], ids=CONFIG_IDS
)
def test_random_hands_agree_with_the_model(
    variant: str, choice: tuple[tuple[str, str], ...], players: int
) -> None:
    """A few whole hands per configuration, every step compared with the model."""
    rules = resolved(variant, choice)
    rng = random.Random(f"{variant}{choice}{players}")
    for _ in range(4):
        play_out(rules, Deal.shuffled(rules, players, rng), rng)


def _protocol_reasons() -> set[str]:
    """The refusal reasons spec/protocol.md documents (its `apply` table)."""
    text = (Path(__file__).resolve().parents[1] / "spec" / "protocol.md").read_text("utf-8")
    section = text.split("\n### `apply`\n", 1)[1].split("\n#", 1)[0]
    return set(re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE))


@pytest.mark.parametrize(
    ("variant", "choice", "players"), [_quick_or_slow(c) for c in ALL_CONFIGS], ids=CONFIG_IDS
)
def test_legality_has_one_source(
    variant: str, choice: tuple[tuple[str, str], ...], players: int
) -> None:
    """At every state of a random hand, every action the notation can write is judged once.

    An action in the legal set passes verify and is_legal; every other one is
    refused with the reason code the independent model gives (which
    spec/protocol.md documents), and the refusal leaves the hand as it was.
    The legal-action generator and the refusal explanations cannot drift
    apart, from each other or from the specification, without this failing.
    """
    rules = resolved(variant, choice)
    documented = _protocol_reasons()
    candidates = every_action(rules.max_pip)
    rng = random.Random(f"one source {variant}{choice}{players}")
    deal = Deal.shuffled(rules, players, rng)
    hand, model = Hand(rules, deal), HandModel(rules, deal)
    while True:
        legal = set(hand.legal_actions())
        assert legal == model.legal()
        before = snapshot(hand)
        # Every action with a tile of the seat to act, draw and pass, and a few
        # others (their refusal, tile_not_in_hand or no_such_end, is the same for all).
        held = set(hand.hand_of(hand.current)) if not hand.is_over else set()
        mine = [a for a in candidates if not isinstance(a, Play) or a.tile in held]
        others = [a for a in candidates if isinstance(a, Play) and a.tile not in held]
        for action in mine + rng.sample(others, min(6, len(others))):
            if action in legal:
                assert hand.is_legal(action), action
                hand.verify(action)
                continue
            assert not hand.is_legal(action), action
            with pytest.raises(IllegalActionError) as refused:
                hand.verify(action)
            reason = refused.value.reason
            assert reason.value in documented, (action, reason)
            assert reason is model.refusal(action), (action, reason, hand.history)
        assert snapshot(hand) == before
        if hand.is_over:
            break
        action = sorted(legal, key=sort_key)[rng.randrange(len(legal))]
        hand.apply(action)
        model.apply(action)


# --------------------------------------------------------------------------- records


@settings(max_examples=examples(40))
@given(
    config=st.sampled_from(ALL_CONFIGS),
    seed=st.integers(0, 2**31),
    hands=st.integers(1, 3),
    data=st.data(),
)
def test_record_round_trip_and_corruption(
    config: tuple[str, tuple[tuple[str, str], ...], int],
    seed: int,
    hands: int,
    data: st.DataObject,
) -> None:
    variant, choice, players = config
    rules = resolved(variant, choice)
    match = play_match(rules, players, seed=seed, strategy=random_choice, max_hands=hands)
    record = json.loads(json.dumps(match_record(match, seed=seed, strategy="random")))
    defaults = {option.name: option.default for option in rules.options}
    assert record["options"] == {**defaults, **dict(choice)}

    report = replay(record)
    assert report.ok, report.finding
    assert report.hands == len(match.hands)
    assert report.actions == sum(len(hand.history) for hand in match.hands)
    assert report.outcomes == [hand.outcome for hand in match.hands]
    assert report.match is not None
    assert report.match.scores == match.scores
    assert report.match.hands_won == match.hands_won

    # Put one illegal action in place of a legal one: replay stops exactly there.
    played = [i for i, raw in enumerate(record["hands"]) if raw["actions"]]
    if not played:  # every hand was a redeal: nothing to corrupt
        assert all(
            hand.outcome is not None and hand.outcome.termination is Termination.REDEAL
            for hand in match.hands
        )
        return
    hand_index = data.draw(st.sampled_from(played), label="hand")
    raw = record["hands"][hand_index]
    action_index = data.draw(st.integers(0, len(raw["actions"]) - 1), label="action")
    probe = Hand(rules, Deal.from_data(raw["deal"], rules))
    for text in raw["actions"][:action_index]:
        probe.apply(Action.parse(text))
    legal = set(probe.legal_actions())
    assert Action.parse(raw["actions"][action_index]) in legal
    illegal = data.draw(
        st.sampled_from([a for a in every_action(rules.max_pip) if a not in legal]),
        label="illegal",
    )
    raw["actions"][action_index] = str(illegal)
    report = replay(json.loads(json.dumps(record)))
    assert not report.ok
    finding = report.finding
    assert finding is not None
    assert (finding.kind, finding.hand, finding.action) == (
        "illegal_action",
        hand_index,
        action_index,
    )
    assert finding.reason in {reason.value for reason in Reason}
    assert str(illegal) in finding.message
    assert report.actions == sum(len(r["actions"]) for r in record["hands"][:hand_index]) + (
        action_index
    )


# --------------------------------------------------------------------------- openings


def crafted_deal(
    rules: Rules, players: int, rng: random.Random, bare: set[int], designated: int
) -> Deal:
    """A random deal in which the seats in ``bare`` hold no opening double (as far as fits).

    Shuffled deals rarely leave a hand, let alone every hand, without a double;
    these reach the rarer openings of section 6 (redeal, the designated opener
    drawing until a double comes, the right to open passing on).
    """
    tiles = list(full_set(rules.max_pip))
    rng.shuffle(tiles)
    size = rules.hand_size.for_players(players)
    doubles = set(opening_doubles(rules))
    no_double = [tile for tile in tiles if tile not in doubles]
    seats = sorted(bare)[: len(no_double) // size]
    hands: dict[int, list[Tile]] = {}
    for i, seat in enumerate(seats):
        hands[seat] = no_double[i * size : (i + 1) * size]
    used = {tile for hand in hands.values() for tile in hand}
    rest = [tile for tile in tiles if tile not in used]
    for seat in range(players):
        if seat not in hands:
            hands[seat], rest = rest[:size], rest[size:]
    return Deal(
        hands=tuple(tuple(sorted(hands[seat])) for seat in range(players)),
        boneyard=tuple(rest),
        designated=designated if rules.applicable("designated_opener") else None,
    )


def play_out(rules: Rules, deal: Deal, rng: random.Random) -> Hand:
    """Play a hand with random legal actions, comparing every step with the model."""
    hand, model = Hand(rules, deal), HandModel(rules, deal)
    for _ in range(MAX_ACTIONS):
        assert set(hand.legal_actions()) == model.legal()
        assert [end_of(end) for end in hand.ends] == model.ends
        for seat in range(hand.players):
            assert set(hand.hand_of(seat)) == model.hands[seat]
        if hand.is_over:
            break
        assert hand.current == model.current
        legal = hand.legal_actions()
        action = legal[rng.randrange(len(legal))]
        hand.apply(action)
        model.apply(action)
    assert hand.is_over, "a hand played legally must end"
    check_outcome(rules, hand, model)
    return hand


@settings(max_examples=examples(100))
@given(
    config=st.sampled_from(ALL_CONFIGS),
    seed=st.integers(0, 2**32 - 1),
    bare=st.sets(st.integers(0, 3)),
    designated=st.integers(0, 3),
)
def test_hands_short_of_doubles_agree_with_the_model(
    config: tuple[str, tuple[tuple[str, str], ...], int],
    seed: int,
    bare: set[int],
    designated: int,
) -> None:
    variant, choice, players = config
    rules = resolved(variant, choice)
    rng = random.Random(seed)
    deal = crafted_deal(rules, players, rng, {s for s in bare if s < players}, designated % players)
    deal.check(rules)
    play_out(rules, deal, rng)


def test_nobody_holding_a_double_voids_the_hand_under_redeal() -> None:
    rules = resolved("gamerules-com", ())
    assert rules.nobody_has_double is NobodyHasDouble.REDEAL
    deal = crafted_deal(rules, 2, random.Random(7), {0, 1}, 0)
    hand = Hand(rules, deal)
    assert hand.is_over and hand.legal_actions() == () and hand.history == []
    assert hand.outcome is not None
    assert hand.outcome.termination is Termination.REDEAL
    assert (hand.outcome.winner, hand.outcome.points) == (None, (0, 0))
    check_outcome(rules, hand)


def test_the_designated_opener_draws_until_a_double_comes() -> None:
    rules = resolved("polish-base", ())
    assert rules.nobody_has_double is NobodyHasDouble.DESIGNATED_DRAWS_UNTIL_DOUBLE
    deal = crafted_deal(rules, 2, random.Random(3), {0, 1}, 1)
    first_double = next(t for t in deal.boneyard if t in set(opening_doubles(rules)))
    drawn = deal.boneyard[: deal.boneyard.index(first_double) + 1]
    hand = Hand(rules, deal)
    assert hand.current == 1
    for _ in drawn:
        assert hand.legal_actions() == (DRAW,)
        hand.apply(DRAW)  # the reserve and draw_when play no part in this draw
    assert hand.current == 1
    assert hand.legal_actions() == (Play(first_double),)
    assert set(drawn) <= set(hand.hand_of(1))
    hand.apply(Play(first_double))
    assert hand.opener == 1 and hand.current == 0
    assert set(hand.hand_of(1)) == set(deal.hands[1]) | set(drawn[:-1])


def test_the_right_to_open_passes_to_the_next_player_with_a_double() -> None:
    rules = resolved("polish-base", ())
    deal = crafted_deal(rules, 3, random.Random(5), {2}, 2)
    held = [d for d in opening_doubles(rules) if d in deal.hands[0]]
    assert held, "seed chosen so that seat 0, after the designated seat 2, holds a double"
    hand = Hand(rules, deal)
    assert hand.current == 0
    assert hand.legal_actions() == (Play(held[-1]),)  # the highest double of that hand


def test_the_lowest_double_opens_and_the_double_blank_does_not_count() -> None:
    rules = resolved("house", ())
    assert rules.opener is Opener.LOWEST_DOUBLE and not rules.double_blank_opens
    tiles = list(full_set(6))
    hands = [
        [Tile(0, 0), Tile(2, 2), Tile(0, 1), Tile(0, 2), Tile(0, 3), Tile(0, 4), Tile(0, 5)],
        [Tile(1, 1), Tile(3, 3), Tile(0, 6), Tile(1, 2), Tile(1, 3), Tile(1, 4), Tile(1, 5)],
        [Tile(4, 4), Tile(5, 5), Tile(1, 6), Tile(2, 3), Tile(2, 4), Tile(2, 5), Tile(2, 6)],
    ]
    dealt = {tile for hand in hands for tile in hand}
    deal = Deal(
        hands=tuple(tuple(sorted(hand)) for hand in hands),
        boneyard=tuple(tile for tile in tiles if tile not in dealt),
        designated=0,
    )
    hand = Hand(rules, deal)
    assert hand.current == 1
    assert hand.legal_actions() == (Play(Tile(1, 1)),)


def test_a_designated_opener_may_open_with_any_tile() -> None:
    rules = resolved("pagat", ())
    assert rules.opening_tile is OpeningTile.ANY_TILE
    deal = Deal.shuffled(rules, 4, random.Random(11), designated=2)
    hand = Hand(rules, deal)
    assert hand.current == 2
    assert hand.legal_actions() == tuple(Play(tile) for tile in deal.hands[2])


def test_the_german_opener_must_add_the_next_tile() -> None:
    rules = resolved("german", ())
    assert rules.opener_plays_again
    for seed in range(40):
        deal = Deal.shuffled(rules, 2, random.Random(seed))
        hand = Hand(rules, deal)
        opener = hand.current
        hand.apply(hand.legal_actions()[0])
        assert hand.current == opener  # the opener's own turn (section 6.5)
        legal = hand.legal_actions()
        if any(isinstance(action, Play) for action in legal):
            assert all(isinstance(action, Play) for action in legal)
            hand.apply(legal[0])
            assert hand.is_over or hand.current == (opener + 1) % 2
        else:
            assert legal == (DRAW,)


_EXTRA_TURN_VARIANT = """\
spec_version: "1.0"
id: opener-plays-again-draws-always
title: Britannica rules with the opener playing again
publication: britannica-1911
extends: britannica-1911
summary: The Britannica's rules, but the opener adds the next tile at once.
rules:
  opener_plays_again:
    value: true
    cite:
      - publication: britannica-1911
        text: "000"
        section: opening paragraphs
        says: A rule changed for a test of the opener's own turn.
"""


def test_after_drawing_in_the_openers_own_turn_the_turn_is_an_ordinary_one(
    tmp_path: Any,
) -> None:
    path = tmp_path / "opener-plays-again-draws-always.yaml"
    path.write_text(_EXTRA_TURN_VARIANT, encoding="utf-8")
    catalog = Catalog.load([path])
    assert catalog.problems(["opener-plays-again-draws-always"]) == []
    rules = catalog.resolve("opener-plays-again-draws-always")
    assert rules.opener_plays_again and rules.draw_when is DrawWhen.ALWAYS
    assert rules.draws_per_turn is DrawsPerTurn.UNLIMITED
    # Seat 0 opens with [6-6] and holds nothing that goes on a 6 (no 1, no matador).
    hands = [
        ["6-6", "0-2", "0-3", "0-4", "0-5", "2-2", "2-3"],
        ["0-1", "1-1", "1-3", "1-4", "1-5", "3-3", "4-4"],
    ]
    dealt = {"1-2", *hands[0], *hands[1]}
    rest = [str(tile) for tile in full_set(6) if str(tile) not in dealt]
    deal = Deal.from_data({"hands": hands, "boneyard": ["1-2", *rest]}, rules)
    hand = Hand(rules, deal)
    hand.apply(Action.parse("6-6"))
    assert hand.current == 0
    assert hand.legal_actions() == (DRAW,)  # no placement: the turn is an ordinary one
    hand.apply(DRAW)  # [1-2] comes, and fits
    model = HandModel(rules, deal)
    for action in hand.history:
        model.apply(action)
    assert model.legal() == {Action.parse("1-2@L:2"), Action.parse("1-2@R:2"), DRAW}
    assert set(hand.legal_actions()) == model.legal()


#: A German two-player deal, written by hand. Seat 0 holds the highest double,
#: [6-6], and nothing that goes on a 6: no 1 (6 + 1 = 7) and no matador (a German
#: matador goes on anything). Seat 1 is the designated seat, to show that the
#: highest double opens whoever the lot names (SPEC 6.3).
_GERMAN_HANDS = [
    ["6-6", "0-2", "0-3", "0-4", "2-2", "2-3", "3-3", "4-4"],
    ["0-1", "1-1", "1-3", "1-4", "1-5", "5-5", "0-5", "0-6"],
]
_GERMAN_REST = ["0-0", "1-6", "2-5", "2-6", "3-4", "3-5", "3-6", "4-5", "4-6", "5-6"]

# Each step: the action applied first (None at the start), the seat to act, its
# legal actions in canonical order, and actions refused with their reason codes.
_Step = tuple[str | None, int, tuple[str, ...], dict[str, Reason]]
_OPENING_STEPS: list[_Step] = [
    # SPEC 6.3: the holder of the highest double opens, with that double only.
    (None, 0, ("6-6",), {"0-2": Reason.WRONG_OPENING, "draw": Reason.DRAW_NOT_ALLOWED}),
    # SPEC 6.5: the opener takes their own turn, but has no legal placement at its
    # start, so "the turn proceeds exactly as an ordinary turn": by 8.2 step 1 a
    # player with no placement who can draw MUST draw (the boneyard holds 12 > 0).
    # The pass is refused as must_draw, not as the opener's forced play.
    ("6-6", 0, ("draw",), {"pass": Reason.MUST_DRAW, "0-2@L:2": Reason.DOES_NOT_MATCH_END}),
]
_DRAWN_TILE_FITS: list[_Step] = [
    *_OPENING_STEPS,
    # SPEC 8.2 step 2, may_play_drawn: the drawn [1-2] goes on either end, its 1
    # against the 6, or the opener passes; no second draw, no other tile of the hand.
    (
        "draw",
        0,
        ("1-2@L:2", "1-2@R:2", "pass"),
        {"draw": Reason.DRAW_NOT_ALLOWED, "0-2@L:2": Reason.ONLY_DRAWN_TILE},
    ),
    # The turn is over: seat 1 takes an ordinary turn on plain 6 (a 1 fits) and plain
    # 2 (a 5 fits); with a placement in hand it may neither draw nor pass (8.2 step 1).
    (
        "1-2@R:2",
        1,
        ("0-1@L:0", "0-5@R:0", "1-1@L:1", "1-3@L:3", "1-4@L:4", "1-5@L:5", "1-5@R:1", "5-5@R:5"),
        {"draw": Reason.DRAW_NOT_ALLOWED, "pass": Reason.PASS_NOT_ALLOWED},
    ),
]
_DRAWN_TILE_DOES_NOT_FIT: list[_Step] = [
    *_OPENING_STEPS,
    # SPEC 8.2 step 2, may_play_drawn: [2-4] has no placement (D is empty), so pass.
    ("draw", 0, ("pass",), {"draw": Reason.DRAW_NOT_ALLOWED, "2-4@L:4": Reason.DOES_NOT_MATCH_END}),
    # Seat 1 on two plain 6s: each tile with a 1 goes on either end.
    (
        "pass",
        1,
        (
            *("0-1@L:0", "0-1@R:0", "1-1@L:1", "1-1@R:1", "1-3@L:3"),
            *("1-3@R:3", "1-4@L:4", "1-4@R:4", "1-5@L:5", "1-5@R:5"),
        ),
        {"pass": Reason.PASS_NOT_ALLOWED},
    ),
]


@pytest.mark.parametrize(
    ("first_drawn", "steps"),
    [("1-2", _DRAWN_TILE_FITS), ("2-4", _DRAWN_TILE_DOES_NOT_FIT)],
    ids=["drawn-tile-fits", "drawn-tile-does-not-fit"],
)
def test_a_german_opener_with_no_placement_must_draw(first_drawn: str, steps: list[_Step]) -> None:
    """Regression: SPEC 6.5, the opener's own turn without a placement is an ordinary turn.

    The model once expected a pass there to be refused as must_play (the opener's
    forced play); SPEC 6.5 and 8.2 step 1 make it must_draw. Engine and model are
    both held to this hand-written line.
    """
    rules = resolved("german", ())
    assert rules.opener_plays_again and rules.draws_per_turn is DrawsPerTurn.ONE
    assert rules.after_single_draw is AfterSingleDraw.MAY_PLAY_DRAWN
    assert rules.reserve.for_players(2) == 0
    rest = [tile for tile in ("1-2", "2-4") if tile != first_drawn]
    data = {"hands": _GERMAN_HANDS, "boneyard": [first_drawn, *rest, *_GERMAN_REST]}
    deal = Deal.from_data({**data, "designated": 1}, rules)
    hand, model = Hand(rules, deal), HandModel(rules, deal)
    for before, seat, legal, refused in steps:
        if before is not None:
            hand.apply(Action.parse(before))
            model.apply(Action.parse(before))
        expected = tuple(Action.parse(text) for text in legal)
        assert hand.current == model.current == seat, before
        assert hand.legal_actions() == expected, before
        assert model.legal() == set(expected), before
        for text, reason in refused.items():
            action = Action.parse(text)
            assert model.refusal(action) is reason, (before, text)
            with pytest.raises(IllegalActionError) as error:
                hand.apply(action)
            assert error.value.reason is reason, (before, text)
    assert hand.history == [Action.parse(before) for before, *_ in steps if before is not None]


# --------------------------------------------------------------------------- the match


def finish(hand: Hand, rng: random.Random) -> None:
    for _ in range(MAX_ACTIONS):
        if hand.is_over:
            return
        legal = hand.legal_actions()
        hand.apply(legal[rng.randrange(len(legal))])
    raise AssertionError("a hand played legally must end")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_designated_opener_rotates_by_one_seat(players: int) -> None:
    # Seven hands won end the match, so at least seven hands are played.
    rules = resolved("polish-base", (("target", "hands_7"),))
    assert rules.designated_opener is DesignatedOpener.BY_LOT_THEN_ROTATE
    match = play_match(rules, players, seed=players, strategy=random_choice, max_hands=7)
    designated = [hand.deal.designated for hand in match.hands]
    assert len(designated) == 7 and None not in designated
    for previous, following in itertools.pairwise(designated):
        assert previous is not None and following == (previous + 1) % players


def test_rotation_follows_the_designated_seat_even_when_another_opens() -> None:
    # The highest double opens; the designated seat still rotates.
    rules = resolved("german", (("target", "hands_7"),))
    assert rules.designated_opener is DesignatedOpener.BY_LOT_THEN_ROTATE
    match = play_match(rules, 3, seed=1, strategy=random_choice, max_hands=7)
    hands = match.hands
    assert any(hand.opener != hand.deal.designated for hand in hands)
    for previous, following in itertools.pairwise(hands):
        assert previous.deal.designated is not None
        assert following.deal.designated == (previous.deal.designated + 1) % 3


def test_rotation_from_the_opener() -> None:
    rules = resolved("german", (("rotation", "from_opener"), ("target", "hands_7")))
    assert rules.designated_opener is DesignatedOpener.BY_LOT_THEN_ROTATE_FROM_OPENER
    match = play_match(rules, 3, seed=2, strategy=random_choice, max_hands=7)
    hands = match.hands
    assert any(hand.opener != hand.deal.designated for hand in hands)
    for previous, following in itertools.pairwise(hands):
        assert previous.opener is not None
        assert following.deal.designated == (previous.opener + 1) % 3


def test_a_deal_naming_the_wrong_designated_seat_is_refused() -> None:
    rules = resolved("polish-base", ())
    match = Match(rules, 3, seed=4)
    first = match.new_hand()
    assert first.deal.designated is not None
    with pytest.raises(ValueError, match="not over"):
        match.new_hand()
    finish(first, random.Random(0))
    match.close_hand()
    expected = (first.deal.designated + 1) % 3
    assert match.expected_designated() == expected
    rng = random.Random(9)
    for wrong in ({0, 1, 2} - {expected}) | {None}:
        deal = dataclasses.replace(Deal.shuffled(rules, 3, rng), designated=wrong)
        with pytest.raises(DealError, match=f"seat {expected}"):
            match.new_hand(deal)
        assert len(match.hands) == 1
    hand = match.new_hand(Deal.shuffled(rules, 3, rng, designated=expected))
    assert hand.deal.designated == expected and len(match.hands) == 2


@pytest.mark.parametrize(("later_openers", "kept"), [("rotate", True), ("by_lot", False)])
def test_a_redeal_keeps_the_designated_opener_only_when_rotating(
    later_openers: str, kept: bool
) -> None:
    # Section 6.2: a voided hand is replaced by its redeal; the rotating values keep
    # the same designated opener, by_lot_each_hand names one afresh.
    rules = resolved(
        "pagat",
        (("later_openers", later_openers), ("opening", "highest_double"), ("set", "double_nine")),
    )
    assert rules.nobody_has_double is NobodyHasDouble.REDEAL
    match = Match(rules, 4, seed=0)
    void = match.new_hand(crafted_deal(rules, 4, random.Random(1), {0, 1, 2, 3}, 3))
    assert void.outcome is not None and void.outcome.termination is Termination.REDEAL
    match.close_hand()
    assert match.scores == [0, 0, 0, 0] and match.hands_won == [0, 0, 0, 0]
    assert match.expected_designated() == (3 if kept else None)
    if kept:
        with pytest.raises(DealError):
            match.new_hand(Deal.shuffled(rules, 4, random.Random(2), designated=0))
    redeal = match.new_hand(Deal.shuffled(rules, 4, random.Random(2), designated=3))
    finish(redeal, random.Random(3))
    match.close_hand()
    assert match.expected_designated() == (0 if kept else None)


@pytest.mark.parametrize(
    ("variant", "choice", "players"),
    [
        ("polish-base", (), 3),
        ("polish-base", (("target", "hands_7"),), 2),
        ("house", (), 3),
        ("britannica-1911", (), 4),
        ("britannica-1911", (("four_players", "two_vs_two"),), 4),
        ("pagat", (("partnership", "two_vs_two"),), 4),
        ("jeux-de-hasard", (), 2),
        ("wikipedia-brandreth", (("scoring", "difference_each_opponent"),), 3),
    ],
)
def test_scores_add_up_and_the_target_ends_the_match(
    variant: str, choice: tuple[tuple[str, str], ...], players: int
) -> None:
    rules = resolved(variant, choice)
    target = rules.target
    match = Match(rules, players, seed=17)
    rng = random.Random(18)
    scores = [0] * len(match.sides)
    won = [0] * len(match.sides)
    for _ in range(500):
        assert not match.is_over and match.winner is None
        hand = match.new_hand()
        finish(hand, rng)
        match.close_hand()
        assert hand.outcome is not None
        for side, points in enumerate(hand.outcome.points):
            scores[side] += points
        if hand.outcome.winner is not None:
            won[hand.outcome.winner] += 1
        assert (match.scores, match.hands_won) == (scores, won)
        if match.is_over:
            break
    assert match.is_over, "the match must reach its target"
    counts = scores if target.unit is TargetUnit.POINTS else won
    winner = match.winner
    assert winner is not None and counts[winner] >= target.value
    assert all(count < target.value for side, count in enumerate(counts) if side != winner)
    assert len(counts) == (2 if rules.partnership is Partnership.TWO_VS_TWO else players)
    with pytest.raises(ValueError, match="match is over"):
        match.new_hand()
    # The record of the whole match replays to the same totals and winner.
    report = replay(json.loads(json.dumps(match_record(match))))
    assert report.ok, report.finding
    assert report.match is not None and report.match.winner == winner
