"""The mutants: one plausible mistake each in the reference engine, written as data.

A :class:`Mutant` names a file under ``reference_engine/``, a snippet of its
source (``old``, which must occur exactly once in that file) and what replaces
it (``new``). :mod:`.harness` applies one mutant to a copy of the package and
lets the real conformance suite judge the copy over the protocol; a mutant is
killed when at least one case fails.

Each mistake is one an engine author could make reading spec/SPEC.md: a
comparison the wrong way round, an off-by-one, the wrong index or the wrong
enum member, a forgotten branch or reset. None is equivalent to the original
(every one changes what some legal game does); mutants found equivalent while
this list was written were dropped.

A mutant with ``unkillable_because`` is a mistake no scripted case can show
with the case format and its loader as they are (spec/case.schema.json,
reference_engine/conformance/suite/casedata.py): it is kept, with the reason, to record
the hole, and the tests check that it does survive, so the day a case can show
it the tests ask for one.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The rule areas, in the order the matrix lists them, each with its title.
AREAS: dict[str, str] = {
    "opening": "Opening: who opens, with which tile, and the designated opener's rotation",
    "redeal": "Nobody holds an opening double: redeal, or the designated opener draws",
    "matching": "Matching: the sum rule and the other match rules",
    "matadors": "Matadors and their open half",
    "crosswise": "Crosswise and crosswise-offset matadors",
    "matador-ends": "The end a matador leaves (match rule and matador access)",
    "draws": "Draws and the reserve",
    "passes": "Passes and blocking",
    "scoring": "Scoring with two, three and four players",
    "partnerships": "Partnerships",
    "ties": "Ties",
    "hands-won": "Hands won (a hand won for no points still counts)",
    "match-target": "The match target",
    "deals": "Deals: checking them, and the default boneyard",
    "protocol": "The protocol: replies, ends, results and refusal reasons",
}


@dataclass(frozen=True)
class Mutant:
    """One mistake: ``old`` replaced by ``new`` in ``file`` (a path under reference_engine/)."""

    id: str
    area: str
    file: str
    description: str
    old: str
    new: str
    #: Why no case can kill it with the present case format (None: a case must).
    unkillable_because: str | None = None


MUTANTS: tuple[Mutant, ...] = (
    # ------------------------------------------------------------------ opening
    Mutant(
        "highest-double-opens-with-lowest",
        "opening",
        "engine/hand/opening.py",
        "Under opener: highest_double the holder of the lowest opening double opens.",
        "double = dealt.bit_length() - 1 if highest else (dealt & -dealt).bit_length() - 1",
        "double = (dealt & -dealt).bit_length() - 1",
    ),
    Mutant(
        "lowest-double-opens-with-highest",
        "opening",
        "engine/hand/opening.py",
        "Under opener: lowest_double the holder of the highest opening double opens.",
        "double = dealt.bit_length() - 1 if highest else (dealt & -dealt).bit_length() - 1",
        "double = dealt.bit_length() - 1",
    ),
    Mutant(
        "double-blank-always-opens",
        "opening",
        "engine/compiled.py",
        "[0-0] counts as an opening double even where double_blank_opens is false.",
        "and (rules.double_blank_opens or tile.high > 0)\n",
        "\n",
    ),
    Mutant(
        "double-blank-never-opens",
        "opening",
        "engine/compiled.py",
        "[0-0] never counts as an opening double, even where double_blank_opens is true.",
        "and (rules.double_blank_opens or tile.high > 0)\n",
        "and (tile.high > 0)\n",
    ),
    Mutant(
        "designated-opens-with-lowest-double",
        "opening",
        "engine/hand/opening.py",
        "A designated opener who must open with a double opens with their lowest one.",
        "self._set_opening(seat, 1 << held[-1])",
        "self._set_opening(seat, 1 << held[0])",
    ),
    Mutant(
        "right-to-open-skips-next-seat",
        "opening",
        "engine/hand/opening.py",
        "When the designated opener lacks a double, the search starts two seats on.",
        "for seat in [designated, *seats_after(designated, self.players)[:-1]]:",
        "for seat in [designated, *seats_after(designated, self.players)[1:]]:",
    ),
    Mutant(
        "right-to-open-misses-last-seat",
        "opening",
        "engine/deal.py",
        "The seats after a seat start with the seat itself: the last seat is never asked to open.",
        "return [(seat + step) % players for step in range(1, players + 1)]",
        "return [(seat + step) % players for step in range(players)]",
    ),
    Mutant(
        "opening-tile-values-swapped",
        "opening",
        "engine/compiled.py",
        "opening_tile any_tile and highest_double are read the wrong way round.",
        "self.opening_any_tile = rules.opening_tile is OpeningTile.ANY_TILE",
        "self.opening_any_tile = rules.opening_tile is OpeningTile.HIGHEST_DOUBLE",
    ),
    Mutant(
        "opening-ends-swapped",
        "opening",
        "engine/compiled.py",
        "A non-double opening tile leaves its high half on L and its low half on R.",
        "return self.kind(OpenEnd.plain(tile.low)), self.kind(OpenEnd.plain(tile.high))",
        "return self.kind(OpenEnd.plain(tile.high)), self.kind(OpenEnd.plain(tile.low))",
    ),
    Mutant(
        "opener-plays-again-inverted",
        "opening",
        "engine/hand/opening.py",
        "opener_plays_again is read the wrong way round.",
        "elif table.opener_plays_again:",
        "elif not table.opener_plays_again:",
    ),
    Mutant(
        "opener-must-play-without-a-fit",
        "opening",
        "engine/hand/steps.py",
        "An opener who plays again but has no placement is offered nothing (no draw, no pass).",
        "        if not plays:\n            legal = turn.without_play[can_draw]\n",
        "        if not plays and self._forced_play:\n            legal = ()\n        elif not "
        "plays:\n            legal = turn.without_play[can_draw]\n",
    ),
    Mutant(
        "rotation-goes-backwards",
        "opening",
        "engine/match.py",
        "by_lot_then_rotate passes the designated opener to the previous seat, not the next.",
        "return (self._designated + 1) % self.players",
        "return (self._designated - 1) % self.players",
    ),
    Mutant(
        "rotation-from-opener-repeats-opener",
        "opening",
        "engine/match.py",
        "by_lot_then_rotate_from_opener names the previous opener again, not the next seat.",
        "return (previous.opener + 1) % self.players",
        "return previous.opener",
    ),
    Mutant(
        "by-lot-each-hand-rotates",
        "opening",
        "engine/match.py",
        "by_lot_each_hand is played as a rotation: a later hand must name the next seat.",
        "        if rule is None or not rule.rotates:\n"
        "            return None\n"
        "        if rule.rotates_from_designated and",
        "        if rule is None:\n"
        "            return None\n"
        "        if (rule.rotates_from_designated or not rule.rotates) and",
    ),
    # ------------------------------------------------------------------ redeal
    Mutant(
        "nobody-has-double-inverted",
        "redeal",
        "engine/compiled.py",
        "nobody_has_double is read the wrong way round: redeal and drawing for a double swap.",
        "self.redeal_without_double = nobody is NobodyHasDouble.REDEAL",
        "self.redeal_without_double = nobody is not NobodyHasDouble.REDEAL",
    ),
    Mutant(
        "draw-for-double-by-seat-zero",
        "redeal",
        "engine/hand/opening.py",
        "When nobody holds a double, seat 0 draws for one instead of the designated opener.",
        "self.current = self._designated()",
        "self.current = 0",
    ),
    Mutant(
        "redeal-goes-on-to-draw",
        "redeal",
        "engine/hand/opening.py",
        "A redeal forgets to stop: the hand is voided and then drawn for as well.",
        "            self._finish(Termination.REDEAL)\n            return\n",
        "            self._finish(Termination.REDEAL)\n",
    ),
    Mutant(
        "redeal-scored-as-blocked",
        "redeal",
        "engine/scoring.py",
        "A voided hand is scored like a blocked one: the lowest hand wins it.",
        "    elif termination is _BLOCKED:\n",
        "    else:\n",
    ),
    Mutant(
        "redeal-rotates-designated",
        "redeal",
        "engine/match.py",
        "Under a rotating designated opener, the redeal of a void hand passes the lot on.",
        "            return self._designated if rule is not None and rule.rotates else None\n",
        "            return (\n"
        "                None\n"
        "                if self._designated is None or rule is None or not rule.rotates\n"
        "                else (self._designated + 1) % self.players\n"
        "            )\n",
    ),
    Mutant(
        "redeal-by-lot-keeps-designated",
        "redeal",
        "engine/match.py",
        "Under by_lot_each_hand, the redeal of a void hand must keep the same designated seat.",
        "            return self._designated if rule is not None and rule.rotates else None\n",
        "            return self._designated\n",
    ),
    # ------------------------------------------------------------------ matching
    Mutant(
        "line-sum-is-max-pip",
        "matching",
        "rules/model.py",
        "The line sum is taken as n instead of n + 1 (6 for double-six).",
        "return self.max_pip + 1",
        "return self.max_pip",
    ),
    Mutant(
        "sum-rule-first-value-only",
        "matching",
        "engine/ends.py",
        "A sum end with two values (a crosswise matador's) is matched against its first only.",
        "return line_sum - half in self.values",
        "return half + self.values[0] == line_sum",
    ),
    Mutant(
        "ordinary-tile-leaves-attaching-half",
        "matching",
        "engine/compiled.py",
        "An ordinary tile leaves the half it attached by open, not its outer half.",
        "found[(Shape.INLINE, outer)] = (OpenEnd.plain(outer), None)",
        "found[(Shape.INLINE, outer)] = (OpenEnd.plain(half), None)",
    ),
    Mutant(
        "identical-first-value-only",
        "matching",
        "engine/ends.py",
        "An identical end with two values matches its first value only.",
        "return half in self.values",
        "return half == self.values[0]",
    ),
    Mutant(
        "blank-match-reads-the-end",
        "matching",
        "engine/ends.py",
        "A blank end tests whether the end shows a blank, not whether the half laid is one.",
        "return half == 0",
        "return 0 in self.values",
    ),
    Mutant(
        "any-match-admits-nothing",
        "matching",
        "engine/ends.py",
        "The match rules any and none are confused: an any end takes nothing.",
        "return self.match is MatchRule.ANY",
        "return self.match is MatchRule.NONE",
    ),
    # ------------------------------------------------------------------ matadors
    Mutant(
        "double-blank-not-a-matador",
        "matadors",
        "rules/model.py",
        "[0-0] is left out of the matadors: only tiles summing to the line sum are.",
        "return (low == 0 and high == 0) or low + high == self.line_sum",
        "return low + high == self.line_sum",
    ),
    Mutant(
        "fit-values-swapped",
        "matadors",
        "engine/compiled.py",
        "fit free and fit match are read the wrong way round.",
        "if mode.fit is Fit.FREE or end.admits(half, self.line_sum)",
        "if mode.fit is Fit.MATCH or end.admits(half, self.line_sum)",
    ),
    Mutant(
        "matador-by-match-leaves-attaching-half",
        "matadors",
        "engine/compiled.py",
        "A matador placed by a mode leaves the half it attached by open, not its outer half.",
        "for _, outer in eligible",
        "for outer, _ in eligible",
    ),
    Mutant(
        "all-but-double-blank-covers-all",
        "matadors",
        "rules/model.py",
        "Modes for all_but_double_blank also apply to [0-0].",
        "return not tile_is_double_blank",
        "return True",
    ),
    Mutant(
        "double-blank-mode-covers-nothing",
        "matadors",
        "rules/model.py",
        "Modes for double_blank apply to no tile at all.",
        "return tile_is_double_blank",
        "return False",
    ),
    Mutant(
        "every-double-is-the-double-blank",
        "matadors",
        "engine/compiled.py",
        "A mode's tiles test asks whether the matador is a double, not whether it is [0-0].",
        "if not mode.applies_to_tile(tile == (0, 0)):",
        "if not mode.applies_to_tile(tile.is_double):",
    ),
    # ------------------------------------------------------------------ crosswise
    Mutant(
        "crosswise-open-values-swapped",
        "crosswise",
        "engine/compiled.py",
        "Crosswise open both_halves and covered_value are read the wrong way round.",
        "if mode.open is OpenValues.BOTH_HALVES",
        "if mode.open is not OpenValues.BOTH_HALVES",
    ),
    Mutant(
        "crosswise-double-shows-two-values",
        "crosswise",
        "engine/compiled.py",
        "A crosswise double with open both_halves shows its number twice.",
        "tuple(sorted({tile.low, tile.high}))",
        "(tile.low, tile.high)",
    ),
    Mutant(
        "crosswise-offset-laid-inline",
        "crosswise",
        "engine/compiled.py",
        "A crosswise_offset placement is recorded as an inline one.",
        "((mode.shape, outer), (OpenEnd((outer,), leaves.match, leaves.matadors), None))",
        "((Shape.INLINE, outer), (OpenEnd((outer,), leaves.match, leaves.matadors), None))",
    ),
    Mutant(
        "non-blank-filter-takes-blanks",
        "crosswise",
        "engine/compiled.py",
        "A mode for non_blank ends also applies to a blank end.",
        "if mode.ends is EndFilter.NON_BLANK and not (end.is_plain and end.values != (0,)):",
        "if mode.ends is EndFilter.NON_BLANK and not end.is_plain:",
    ),
    Mutant(
        "blank-filter-takes-any-plain-end",
        "crosswise",
        "engine/compiled.py",
        "A mode for blank ends applies to every plain end.",
        "if mode.ends is EndFilter.BLANK and not (end.is_plain and end.values == (0,)):",
        "if mode.ends is EndFilter.BLANK and not end.is_plain:",
    ),
    # ------------------------------------------------------------------ matador-ends
    Mutant(
        "never-access-ignored",
        "matador-ends",
        "engine/compiled.py",
        "An end with matador access never still takes matadors by the modes.",
        "        if end.access is MatadorAccess.NEVER:\n            return found\n",
        "",
    ),
    Mutant(
        "match-only-access-uses-modes",
        "matador-ends",
        "engine/compiled.py",
        "An end with matador access match_only takes matadors by the modes, like a free end.",
        "if not self.rules.is_matador(*tile) or end.access is MatadorAccess.MATCH_ONLY:",
        "if not self.rules.is_matador(*tile):",
    ),
    Mutant(
        "inline-matador-leaves-plain-end",
        "matador-ends",
        "engine/compiled.py",
        "An inline or offset matador always leaves a plain end, whatever the mode's leaves say.",
        "((mode.shape, outer), (OpenEnd((outer,), leaves.match, leaves.matadors), None))",
        "((mode.shape, outer), (OpenEnd.plain(outer), None))",
    ),
    Mutant(
        "crosswise-leaves-free-access",
        "matador-ends",
        "engine/compiled.py",
        "A crosswise matador always leaves matador access free.",
        "new_end = OpenEnd(values, leaves.match, leaves.matadors)",
        "new_end = OpenEnd(values, leaves.match, MatadorAccess.FREE)",
    ),
    Mutant(
        "dead-end-admits-anything",
        "matador-ends",
        "engine/ends.py",
        "A dead end (match none) admits any half, like an any end.",
        "return self.match is MatchRule.ANY",
        "return self.match in (MatchRule.ANY, MatchRule.NONE)",
    ),
    # ------------------------------------------------------------------ draws
    Mutant(
        "reserve-one-too-many",
        "draws",
        "engine/hand/base.py",
        "Drawing stops one tile early: the boneyard keeps the reserve and one more.",
        "self._draw_limit = len(self._boneyard) - self._reserve if table.draws else 0",
        "self._draw_limit = len(self._boneyard) - self._reserve - 1 if table.draws else 0",
    ),
    Mutant(
        "draw-when-never-ignored",
        "draws",
        "engine/hand/base.py",
        "Players draw even where draw_when is never.",
        "self._draw_limit = len(self._boneyard) - self._reserve if table.draws else 0",
        "self._draw_limit = len(self._boneyard) - self._reserve",
    ),
    Mutant(
        "draw-values-confused",
        "draws",
        "engine/compiled.py",
        "draw_when always and no_play are confused: tactical draws where only a stuck player may.",
        "self.draw_always = draw_when is DrawWhen.ALWAYS",
        "self.draw_always = draw_when is DrawWhen.NO_PLAY",
    ),
    Mutant(
        "only-matador-draw-wrong-mask",
        "draws",
        "engine/turn.py",
        "draw_when only_matador_plays lets a player draw who can play an ordinary tile, "
        "instead of one who can play only matadors.",
        "if table.draw_always or (table.draw_if_only_matadors and facts.only_matadors):",
        "if table.draw_always or (table.draw_if_only_matadors and not facts.only_matadors):",
    ),
    Mutant(
        "unlimited-draws-stop-after-one",
        "draws",
        "engine/compiled.py",
        "draws_per_turn unlimited is played as one.",
        "self.one_draw_per_turn = rules.draws_per_turn is DrawsPerTurn.ONE",
        "self.one_draw_per_turn = rules.draws_per_turn is not None",
    ),
    Mutant(
        "one-draw-limit-ignored",
        "draws",
        "engine/hand/steps.py",
        "draws_per_turn one is not enforced in play (only in the opening).",
        "if self.table.one_draw_per_turn and self.phase is _PLAY:",
        "if self.table.one_draw_per_turn and self.phase is _OPENING:",
    ),
    Mutant(
        "draw-for-double-counts-as-turn-draw",
        "draws",
        "engine/hand/steps.py",
        "The opening draw for a double counts as the opener's one draw of a turn.",
        "if self.table.one_draw_per_turn and self.phase is _PLAY:",
        "if self.table.one_draw_per_turn:",
    ),
    Mutant(
        "after-draw-may-and-must-swapped",
        "draws",
        "engine/compiled.py",
        "after_single_draw may_play_drawn and must_play_drawn are read the wrong way round.",
        "self.after_draw_may_pass = after is AfterSingleDraw.MAY_PLAY_DRAWN",
        "self.after_draw_may_pass = after is AfterSingleDraw.MUST_PLAY_DRAWN",
    ),
    Mutant(
        "after-draw-any-tile-must-play",
        "draws",
        "engine/turn.py",
        "Under may_play_any the player may not pass after the draw while a tile fits.",
        "        if table.after_draw_any_tile:\n            return None\n",
        "        if table.after_draw_any_tile:\n            return MUST_PLAY_DRAWN if "
        "facts.has_play else None\n",
    ),
    Mutant(
        "drawn-tile-kept-for-next-seat",
        "draws",
        "engine/hand/steps.py",
        "After a placement the one-draw state is not cleared: the next seat is treated as drawn.",
        "            self._single_drawn = None\n"
        "            self._forced_play = False\n"
        "        return step\n",
        "            self._forced_play = False\n        return step\n",
    ),
    Mutant(
        "draw-from-the-wrong-end",
        "draws",
        "engine/hand/steps.py",
        "Tiles are drawn from the end of the boneyard instead of in draw order.",
        "bit = self._boneyard[self._drawn]",
        "bit = self._boneyard[-1 - self._drawn]",
    ),
    # ------------------------------------------------------------------ passes
    Mutant(
        "block-one-pass-early",
        "passes",
        "engine/hand/steps.py",
        "The hand is blocked after N - 1 passes in a row.",
        "if self._passes >= self.players:",
        "if self._passes >= self.players - 1:",
    ),
    Mutant(
        "draw-keeps-the-pass-count",
        "passes",
        "engine/hand/steps.py",
        "A draw does not reset the count of consecutive passes.",
        "        self._hands[self.current] |= bit\n        self._passes = 0\n",
        "        self._hands[self.current] |= bit\n",
    ),
    Mutant(
        "placement-keeps-the-pass-count",
        "passes",
        "engine/hand/steps.py",
        "A placement does not reset the count of consecutive passes.",
        "            hands[seat] = hand\n            self._passes = 0\n",
        "            hands[seat] = hand\n",
    ),
    Mutant(
        "pass-always-ignored",
        "passes",
        "engine/compiled.py",
        "pass_when always is played as no_play.",
        "self.pass_always = pass_when is PassWhen.ALWAYS",
        "self.pass_always = False",
    ),
    Mutant(
        "pass-values-confused",
        "passes",
        "engine/compiled.py",
        "pass_when no_play and only_matador_plays are confused.",
        "self.pass_if_only_matadors = pass_when is PassWhen.ONLY_MATADOR_PLAYS",
        "self.pass_if_only_matadors = pass_when is PassWhen.NO_PLAY",
    ),
    Mutant(
        "only-matador-pass-wrong-mask",
        "passes",
        "engine/turn.py",
        "pass_when only_matador_plays lets a player pass who can play an ordinary tile, "
        "instead of one who can play only matadors.",
        "if table.pass_always or (table.pass_if_only_matadors and facts.only_matadors):",
        "if table.pass_always or (table.pass_if_only_matadors and not facts.only_matadors):",
    ),
    Mutant(
        "stuck-player-cannot-pass",
        "passes",
        "engine/turn.py",
        "A player with no placement who cannot draw is offered nothing instead of a pass.",
        "return MUST_DRAW if facts.can_draw else None",
        "return MUST_DRAW if facts.can_draw else MUST_PLAY",
    ),
    Mutant(
        "pass-offered-with-draw",
        "passes",
        "engine/hand/steps.py",
        "A player who can draw may also pass.",
        "            legal = turn.without_play[can_draw]\n",
        "            legal = (DRAW, PASS) if can_draw else turn.without_play[can_draw]\n",
    ),
    # ------------------------------------------------------------------ scoring
    Mutant(
        "blocked-winner-highest",
        "scoring",
        "engine/scoring.py",
        "A blocked hand is won by the highest total instead of the lowest.",
        "lowest = min(totals)",
        "lowest = max(totals)",
    ),
    Mutant(
        "difference-forgets-own",
        "scoring",
        "engine/scoring.py",
        "The difference rule pays the losers' pips without taking the winner's off.",
        "won = everyone - 2 * own  # the losers' sum, less own",
        "won = everyone - own",
    ),
    Mutant(
        "two-player-difference-forgets-own",
        "scoring",
        "engine/scoring.py",
        "With two players the difference rule pays the loser's pips in full.",
        "won = everyone - 2 * own  # the losers' sum, less own",
        "won = everyone - 2 * own if len(totals) > 2 else everyone - own",
    ),
    Mutant(
        "difference-among-several-swapped",
        "scoring",
        "engine/scoring.py",
        "total_minus_own and each_opponent_minus_own are read the wrong way round.",
        "elif rules.difference_among_several is _EACH_OPPONENT_MINUS_OWN:",
        "elif rules.difference_among_several is DifferenceAmongSeveral.TOTAL_MINUS_OWN:",
    ),
    Mutant(
        "all-hands-without-own",
        "scoring",
        "engine/scoring.py",
        "points all_hands leaves the winner's own pips out.",
        "            won = everyone\n",
        "            won = everyone - own\n",
    ),
    Mutant(
        "doubles-counted-once",
        "scoring",
        "engine/tiletable.py",
        "A double left in hand counts one half only.",
        '"pips": tuple(tile.pips for tile in tiles),',
        '"pips": tuple(tile.high if tile.is_double else tile.pips for tile in tiles),',
    ),
    # ------------------------------------------------------------------ partnerships
    Mutant(
        "partners-sit-side-by-side",
        "partnerships",
        "engine/scoring.py",
        "The sides are seats 0+1 and 2+3 instead of partners sitting opposite.",
        "return ((0, 2), (1, 3))",
        "return ((0, 1), (2, 3))",
    ),
    Mutant(
        "side-of-seat-by-halves",
        "partnerships",
        "engine/scoring.py",
        "A seat's side is seat // 2 instead of seat % 2 (only the side of a domino is wrong).",
        "return seat % 2 if rules.partnership is Partnership.TWO_VS_TWO else seat",
        "return seat // 2 if rules.partnership is Partnership.TWO_VS_TWO else seat",
    ),
    Mutant(
        "side-total-is-best-hand",
        "partnerships",
        "engine/scoring.py",
        "Sides are compared by their lower single hand, not by their total.",
        "tuple(sum(pips[seat] for seat in group) for group in sides(rules, len(pips)))",
        "tuple(min(pips[seat] for seat in group) for group in sides(rules, len(pips)))",
    ),
    Mutant(
        "domino-side-by-lowest-total",
        "partnerships",
        "engine/scoring.py",
        "A domino is won by the side with the lower total, not the side that went out.",
        "winner = side_of(rules, len(pips), went_out)",
        "winner = min(range(len(totals)), key=totals.__getitem__)",
    ),
    Mutant(
        "partnership-score-below-zero",
        "partnerships",
        "engine/scoring.py",
        "A side that goes out holding more than the other side scores a negative number.",
        "points[winner] = max(0, won)",
        "points[winner] = won",
    ),
    Mutant(
        "winner-reported-as-seat",
        "partnerships",
        "engine/recordformat.py",
        "After a domino the result names the seat that went out instead of its side.",
        '"winner": outcome.winner,',
        '"winner": outcome.winner if outcome.went_out is None else outcome.went_out,',
    ),
    Mutant(
        "match-scores-per-seat",
        "partnerships",
        "engine/match.py",
        "The match keeps a score and a count of hands won per seat, not per side.",
        "self.scores = [0] * len(self.sides)\n        self.hands_won = [0] * len(self.sides)",
        "self.scores = [0] * players\n        self.hands_won = [0] * players",
    ),
    # ------------------------------------------------------------------ ties
    Mutant(
        "tie-won-by-first",
        "ties",
        "engine/scoring.py",
        "A tie for the lowest total is won by the first of the tied.",
        "if totals.count(lowest) == 1:",
        "if totals.count(lowest) >= 1:",
    ),
    Mutant(
        "tie-only-when-all-equal",
        "ties",
        "engine/scoring.py",
        "Only a tie of every player counts: two of three or four tied for lowest, the first wins.",
        "if totals.count(lowest) == 1:",
        "if totals.count(lowest) < len(totals):",
    ),
    # ------------------------------------------------------------------ hands-won
    Mutant(
        "zero-point-hand-not-won",
        "hands-won",
        "engine/match.py",
        "A hand won for no points is not counted as a hand won.",
        "if hand.outcome.winner is not None:",
        "if hand.outcome.winner is not None and hand.outcome.points[hand.outcome.winner] > 0:",
    ),
    Mutant(
        "hands-won-not-added-up",
        "hands-won",
        "engine/match.py",
        "The count of hands won is set to 1 instead of increased.",
        "self.hands_won[hand.outcome.winner] += 1",
        "self.hands_won[hand.outcome.winner] = 1",
    ),
    Mutant(
        "scores-not-added-up",
        "hands-won",
        "engine/match.py",
        "The match score is the last hand's points instead of their sum.",
        "self.scores[side] += points",
        "self.scores[side] = points",
    ),
    # ------------------------------------------------------------------ match-target
    Mutant(
        "target-must-be-passed",
        "match-target",
        "engine/match.py",
        "The match ends only when a side goes past the target, not when it reaches it.",
        "if count >= target.value:",
        "if count > target.value:",
    ),
    Mutant(
        "target-units-swapped",
        "match-target",
        "engine/match.py",
        "A points target counts hands won and a hands target counts points.",
        "counts = self.scores if target.unit is TargetUnit.POINTS else self.hands_won",
        "counts = self.hands_won if target.unit is TargetUnit.POINTS else self.scores",
    ),
    # ------------------------------------------------------------------ deals
    Mutant(
        "default-boneyard-reversed",
        "deals",
        "engine/deal.py",
        "A deal without a boneyard gets the undealt tiles in reverse canonical order.",
        "boneyard = tuple(tile for tile in full_set(rules.max_pip) if tile not in dealt)",
        "boneyard = tuple(tile for tile in reversed(full_set(rules.max_pip)) if tile not in dealt)",
    ),
    Mutant(
        "short-hand-accepted",
        "deals",
        "engine/deal.py",
        "A hand with fewer tiles than hand_size is accepted.",
        "if len(hand) != size",
        "if len(hand) > size",
    ),
    Mutant(
        "tiles-not-checked",
        "deals",
        "engine/deal.py",
        "Tiles dealt twice, tiles outside the set and missing tiles are not looked for.",
        "if dealt != len(table.tiles) or set(self.boneyard).union(*self.hands) != table.tile_set:",
        "if False:",
    ),
    Mutant(
        "designated-seat-range-inclusive",
        "deals",
        "engine/deal.py",
        "A designated seat one past the last seat is accepted.",
        "if not 0 <= designated < seats:",
        "if not 0 <= designated <= seats:",
    ),
    Mutant(
        "designated-seat-not-checked-against-rotation",
        "deals",
        "engine/match.py",
        "A deal naming another designated seat than the rotation fixes is accepted.",
        "elif expected is not None and deal.designated != expected:",
        "elif False:",
    ),
    # ------------------------------------------------------------------ protocol
    Mutant(
        "apply-ignores-player",
        "protocol",
        "conformance/protocol/server.py",
        "The server applies every action for the seat to act, ignoring the request's player.",
        'answer = engine.apply(request["action"], request["player"])',
        'answer = engine.apply(request["action"], None)',
    ),
    Mutant(
        "plain-end-written-long",
        "protocol",
        "engine/ends.py",
        'A plain end is written "5 sum free" instead of "5".',
        "        if self.is_plain:\n"
        "            return shown\n"
        '        return f"{shown} {self.match.value} {self.access.value}"',
        '        return f"{shown} {self.match.value} {self.access.value}"',
    ),
    Mutant(
        "bad-deal-reported-as-bad-request",
        "protocol",
        "conformance/protocol/interface.py",
        "A deal that breaks the rules is answered with the error code bad_request, not bad_deal.",
        "except (DealError, ValueError) as error:\n"
        "            raise EngineRefusal(ErrorCode.BAD_DEAL, str(error)) from None",
        "except (DealError, ValueError) as error:\n"
        "            raise EngineRefusal(ErrorCode.BAD_REQUEST, str(error)) from None",
    ),
    Mutant(
        "pips-reported-per-side",
        "protocol",
        "engine/recordformat.py",
        "The result's pips are per side instead of per seat.",
        '"pips": list(outcome.pips),',
        '"pips": list(outcome.side_pips),',
    ),
    Mutant(
        "previous-hand-not-closed",
        "protocol",
        "conformance/protocol/interface.py",
        "new_hand starts the next hand without adding the finished one to the match totals.",
        "            match.close_hand()\n        if match.is_over:",
        "        if match.is_over:",
    ),
    Mutant(
        "last-hand-not-in-match",
        "protocol",
        "conformance/protocol/interface.py",
        "The match reply leaves out the hand that has just ended.",
        "        if self._hand is not None and self._hand.is_over:\n"
        "            match.close_hand()\n",
        "",
    ),
    Mutant(
        "to-act-after-hand-over",
        "protocol",
        "conformance/protocol/interface.py",
        "to_act names the last seat to act after the hand is over instead of null.",
        "return None if hand.is_over else hand.current",
        "return hand.current",
    ),
    Mutant(
        "must-play-matador-as-must-play",
        "protocol",
        "engine/turn.py",
        "A pass with only matadors to play is refused with must_play, not must_play_matador.",
        "Reason.MUST_PLAY_MATADOR,",
        "Reason.MUST_PLAY,",
    ),
    Mutant(
        "must-draw-and-pass-not-allowed-swapped",
        "protocol",
        "engine/turn.py",
        "A pass while a tile can be drawn gets must_draw and pass_not_allowed the wrong way round.",
        "    if not facts.has_play:\n        return MUST_DRAW if facts.can_draw else None\n    "
        "if facts.can_draw:\n        return PASS_ONLY_WITHOUT_DRAW\n",
        "    if not facts.has_play:\n        return PASS_ONLY_WITHOUT_DRAW if facts.can_draw "
        "else None\n    if facts.can_draw:\n        return MUST_DRAW\n",
    ),
    # ------------------------------------------------------------------ the later rule sets
    Mutant(
        "heaviest-tile-tie-by-lower-half",
        "redeal",
        "engine/tiletable.py",
        "Of two tiles with as many pips, the one with the higher lower half counts as heavier.",
        "weight = {index: (tile.pips, tile.high) for index, tile in enumerate(tiles)}",
        "weight = {index: (tile.pips, tile.low) for index, tile in enumerate(tiles)}",
    ),
    Mutant(
        "heaviest-tile-ignored",
        "redeal",
        "engine/compiled.py",
        "nobody_has_double: heaviest_tile is read as if it were absent.",
        "self.heaviest_opens = nobody is NobodyHasDouble.HEAVIEST_TILE",
        "self.heaviest_opens = False",
    ),
    Mutant(
        "highest-double-holder-must-lead-it",
        "opening",
        "engine/compiled.py",
        "Under highest_double_holder the holder must lead the double instead of any tile.",
        "self.holder_opens_any_tile = opener is Opener.HIGHEST_DOUBLE_HOLDER",
        "self.holder_opens_any_tile = False",
    ),
    Mutant(
        "top-double-any-double",
        "opening",
        "engine/compiled.py",
        "Under top_double any double held opens, as under highest_double.",
        "and (opener is not Opener.TOP_DOUBLE or tile.high == rules.max_pip)\n",
        "\n",
    ),
    Mutant(
        "lot-by-drawing-does-not-rotate",
        "opening",
        "rules/vocabulary.py",
        "Under lowest_drawn_then_rotate later hands are drawn for again instead of rotating.",
        "return self in (self.BY_LOT_THEN_ROTATE, self.LOWEST_DRAWN_THEN_ROTATE)",
        "return self is self.BY_LOT_THEN_ROTATE",
    ),
    Mutant(
        "opponents-points-less-own",
        "scoring",
        "engine/scoring.py",
        "points: opponents takes the winner's own pips off, as the difference rule does.",
        "            won = everyone - own\n",
        "            won = everyone - 2 * own\n",
    ),
    Mutant(
        "two-ends-keep-one-end",
        "crosswise",
        "engine/compiled.py",
        "A crosswise matador under open: two_ends opens no new end.",
        "        if adds >= 0:",
        "        if adds >= 99:",
    ),
    Mutant(
        "two-ends-halves-swapped",
        "crosswise",
        "engine/compiled.py",
        "Under open: two_ends the covered end shows the higher half, as the new end does.",
        "here = OpenEnd((tile.low,), leaves.match, leaves.matadors)",
        "here = OpenEnd((tile.high,), leaves.match, leaves.matadors)",
    ),
    Mutant(
        "placement-not-allowed-as-does-not-match",
        "protocol",
        "engine/hand/refusals.py",
        "A tile that fits the end in another shape or open value gets does_not_match_end.",
        '        Reason.PLACEMENT_NOT_ALLOWED,\n        f"{play} is not a way',
        '        Reason.DOES_NOT_MATCH_END,\n        f"{play} is not a way',
    ),
)

#: The mutant that checks the harness itself: the engine under test says its name
#: differently, and nothing else changes. Not one of :data:`MUTANTS`.
SANITY = Mutant(
    "sanity-hello-name",
    "protocol",
    "conformance/protocol/interface.py",
    "The engine names itself differently in its hello (nothing else changes).",
    'name="matador reference engine",',
    'name="matador mutant copy",',
)


def by_id() -> dict[str, Mutant]:
    """The mutants by id."""
    return {mutant.id: mutant for mutant in MUTANTS}


def killable() -> tuple[Mutant, ...]:
    """The mutants some case must kill."""
    return tuple(mutant for mutant in MUTANTS if mutant.unkillable_because is None)
