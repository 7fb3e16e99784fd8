"""The closed vocabularies of the rule model.

Every enum here is defined normatively in ``spec/SPEC.md`` and gives an
``enum`` of ``spec/variant.schema.json``, generated from it with what its values
mean (:data:`MEANINGS`) by :mod:`reference_engine.rules.schemagen`. Values are the
exact strings used in the variant files. Which rule takes which vocabulary is
said once, in :mod:`reference_engine.rules.parameters` (its ``VOCABULARIES``
names the schema's entry of each enum).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..textenum import TextEnum as TextEnum


class Partnership(TextEnum):
    """Whether players play for themselves or in fixed sides."""

    NONE = "none"
    TWO_VS_TWO = "two_vs_two"


class TurnDirection(TextEnum):
    """Which neighbour plays next, as the source says it (seats are numbered in turn order)."""

    LEFT = "left"
    RIGHT = "right"
    UNSPECIFIED = "unspecified"


class Opener(TextEnum):
    """Who puts down the first tile of a hand."""

    HIGHEST_DOUBLE = "highest_double"
    LOWEST_DOUBLE = "lowest_double"
    TOP_DOUBLE = "top_double"
    HIGHEST_DOUBLE_HOLDER = "highest_double_holder"
    DESIGNATED = "designated"


class DesignatedOpener(TextEnum):
    """How the designated opener of each hand is chosen."""

    BY_LOT_EACH_HAND = "by_lot_each_hand"
    BY_LOT_THEN_ROTATE = "by_lot_then_rotate"
    BY_LOT_THEN_ROTATE_FROM_OPENER = "by_lot_then_rotate_from_opener"
    LOWEST_DRAWN_EACH_HAND = "lowest_drawn_each_hand"
    LOWEST_DRAWN_THEN_ROTATE = "lowest_drawn_then_rotate"

    @property
    def drawn(self) -> bool:
        """Whether the lot is made by drawing tiles, the lowest tile drawn leading."""
        return self in (self.LOWEST_DRAWN_EACH_HAND, self.LOWEST_DRAWN_THEN_ROTATE)

    @property
    def rotates(self) -> bool:
        """Whether later hands' openers follow round the table (a redeal keeps its opener)."""
        return self not in (self.BY_LOT_EACH_HAND, self.LOWEST_DRAWN_EACH_HAND)

    @property
    def rotates_from_designated(self) -> bool:
        """Whether a later hand's designated opener is the seat after the last one's."""
        return self in (self.BY_LOT_THEN_ROTATE, self.LOWEST_DRAWN_THEN_ROTATE)


class OpeningTile(TextEnum):
    """What a designated opener must put down."""

    ANY_TILE = "any_tile"
    HIGHEST_DOUBLE = "highest_double"


class OpenerLacksDouble(TextEnum):
    """What happens when the designated opener must open with a double and holds none."""

    NEXT_PLAYER_WITH_DOUBLE = "next_player_with_double"


class NobodyHasDouble(TextEnum):
    """What happens when the opening needs a double and no hand holds one."""

    REDEAL = "redeal"
    DESIGNATED_DRAWS_UNTIL_DOUBLE = "designated_draws_until_double"
    HEAVIEST_TILE = "heaviest_tile"


class DoublesPlacement(TextEnum):
    """How doubles lie in the line."""

    INLINE = "inline"


class MatadorTiles(TextEnum):
    """Which matadors a placement mode applies to."""

    ALL = "all"
    ALL_BUT_DOUBLE_BLANK = "all_but_double_blank"
    DOUBLE_BLANK = "double_blank"


class EndFilter(TextEnum):
    """Which open ends a placement mode may be used on."""

    ANY = "any"
    BLANK = "blank"
    NON_BLANK = "non_blank"


class Fit(TextEnum):
    """Whether the matador must fit the end like an ordinary tile, or goes on regardless."""

    MATCH = "match"
    FREE = "free"


class Shape(TextEnum):
    """How a tile lies relative to the line."""

    INLINE = "inline"
    CROSSWISE = "crosswise"
    CROSSWISE_OFFSET = "crosswise_offset"


class OpenValues(TextEnum):
    """Which values the end left by a matador placement offers."""

    OUTER_HALF = "outer_half"
    BOTH_HALVES = "both_halves"
    COVERED_VALUE = "covered_value"
    TWO_ENDS = "two_ends"


class MatchRule(TextEnum):
    """How the attaching half of the next tile must relate to an end's values."""

    SUM = "sum"
    IDENTICAL = "identical"
    BLANK = "blank"
    ANY = "any"
    NONE = "none"


class MatadorAccess(TextEnum):
    """Which matador placements an end admits."""

    FREE = "free"
    MATCH_ONLY = "match_only"
    NEVER = "never"


class DrawWhen(TextEnum):
    """When a player may take a tile from the boneyard instead of playing."""

    NEVER = "never"
    NO_PLAY = "no_play"
    ONLY_MATADOR_PLAYS = "only_matador_plays"
    ALWAYS = "always"


class DrawsPerTurn(TextEnum):
    """Whether a turn allows one draw or as many as the player needs."""

    UNLIMITED = "unlimited"
    ONE = "one"


class AfterSingleDraw(TextEnum):
    """What a player who has made the turn's single draw may do."""

    MAY_PLAY_DRAWN = "may_play_drawn"
    MUST_PLAY_DRAWN = "must_play_drawn"
    MAY_PLAY_ANY = "may_play_any"


class PassWhen(TextEnum):
    """When a player who cannot draw may pass instead of playing."""

    NO_PLAY = "no_play"
    ONLY_MATADOR_PLAYS = "only_matador_plays"
    ALWAYS = "always"


class HandPips(TextEnum):
    """How the tiles left in a hand are counted."""

    FULL = "full"


class Points(TextEnum):
    """What the winner of a hand scores."""

    DIFFERENCE = "difference"
    ALL_HANDS = "all_hands"
    OPPONENTS = "opponents"


class DifferenceAmongSeveral(TextEnum):
    """How the difference rule reads with more than one opponent."""

    TOTAL_MINUS_OWN = "total_minus_own"
    EACH_OPPONENT_MINUS_OWN = "each_opponent_minus_own"


class Tie(TextEnum):
    """What a tie for the lowest total scores."""

    NOBODY_SCORES = "nobody_scores"


class TargetUnit(TextEnum):
    """What a match counts towards its target."""

    POINTS = "points"
    HANDS = "hands"


class ModelLack(TextEnum):
    """What the rule model cannot play, named by an alternative reading it cannot offer."""

    CROSSWISE_DOUBLES = "crosswise_doubles"
    LIGHTEST_TILE_OPENING = "lightest_tile_opening"
    RANKING_BY_HIGHER_HALF = "ranking_by_higher_half"
    FIXED_OPEN_HALF = "fixed_open_half"
    WAY_OF_LAYING_IN_THE_ACTION = "way_of_laying_in_the_action"
    ANOTHER_END_ACCESS = "another_end_access"
    LEAD_TO_LAST_WINNER = "lead_to_last_winner"
    HIGHEST_TILE_LOT = "highest_tile_lot"
    DRAW_AND_PASS_AS_PASS = "draw_and_pass_as_pass"
    DRAW_BEFORE_THE_LEAD = "draw_before_the_lead"
    SIDE_WON_BY_LOWEST_PLAYER = "side_won_by_lowest_player"
    EXTRA_TILE_TO_LAST_SEAT = "extra_tile_to_last_seat"
    HAND_SIZE_PER_TABLE = "hand_size_per_table"


class GapKind(TextEnum):
    """Why a variant file had to choose a reading."""

    SILENT = "silent"
    CONTRADICTION = "contradiction"
    AMBIGUOUS = "ambiguous"


class NoteKind(TextEnum):
    """What a note records that is not a rule."""

    ADVICE = "advice"
    CUSTOM = "custom"
    NAMES = "names"
    HISTORY = "history"
    ARITHMETIC = "arithmetic"
    CONTEXT = "context"


#: What each vocabulary's values mean, as ``spec/variant.schema.json`` describes it
#: (the schema's ``$defs`` entry of each vocabulary is generated from this and the
#: registry: :mod:`reference_engine.rules.schemagen`).
MEANINGS: Mapping[type[TextEnum], str] = MappingProxyType(
    {
        Partnership: (
            "none: everyone plays alone; two_vs_two: four players in two fixed sides, partners "
            "sitting opposite (seats 0 and 2 against 1 and 3)."
        ),
        TurnDirection: (
            "Which neighbour plays next as the source states it; unspecified when the source does "
            "not say. Engines number seats in turn order, so this only affects how seats map to "
            "the table."
        ),
        Opener: (
            "highest_double: the holder of the highest double in any hand opens with it; "
            "lowest_double: the holder of the lowest double opens with it (see "
            "double_blank_opens); top_double: the holder of the set's top double opens with it; "
            "highest_double_holder: the holder of the highest double opens with any tile of their "
            "hand; designated: a designated player (see designated_opener) opens."
        ),
        DesignatedOpener: (
            "by_lot_each_hand: every hand's designated opener is chosen by lot (named by the "
            "deal); by_lot_then_rotate: by lot for the first hand, then the next player in turn "
            "after the previous hand's designated opener; by_lot_then_rotate_from_opener: by lot "
            "for the first hand, then the next player in turn after the player who actually "
            "opened the previous hand; lowest_drawn_each_hand: every hand, each player draws a "
            "tile and the lowest tile drawn names the designated opener; "
            "lowest_drawn_then_rotate: so for the first hand, then the next player in turn after "
            "the previous hand's designated opener."
        ),
        OpeningTile: (
            "any_tile: the designated opener may open with any tile; highest_double: the "
            "designated opener must open with the highest double in hand."
        ),
        OpenerLacksDouble: (
            "next_player_with_double: the right to open passes in turn order to the first player "
            "who holds a double, who opens with the highest double in hand."
        ),
        NobodyHasDouble: (
            "redeal: the hand is void and the tiles are dealt again; "
            "designated_draws_until_double: the designated opener draws from the boneyard until a "
            "double that may open comes, and opens with it; heaviest_tile: the holder of the "
            "heaviest tile dealt opens with it."
        ),
        DoublesPlacement: (
            "inline: a double lies in the line's direction like any tile and shows one number at "
            "its open end."
        ),
        DrawWhen: (
            "never: nobody draws (undealt tiles stay out of play); no_play: a player without a "
            "legal play draws; only_matador_plays: a player whose every legal play uses a matador "
            "may draw instead (and one without any play must); always: a player may draw even "
            "holding an ordinary playable tile. Drawing is possible only while the boneyard holds "
            "more tiles than the reserve."
        ),
        DrawsPerTurn: (
            "unlimited: after a draw the turn goes on with the same choices (draw again while "
            "allowed, or play); one: a turn allows a single draw, after which after_single_draw "
            "applies."
        ),
        AfterSingleDraw: (
            "may_play_drawn: the player may play the drawn tile if it fits, or pass; "
            "must_play_drawn: the player must play the drawn tile if it fits, and passes "
            "otherwise (no other tile may be played after the draw in either case); may_play_any: "
            "the player may play any tile of their hand that fits, or pass."
        ),
        PassWhen: (
            "When a player who cannot draw may pass: no_play (only with no legal play), "
            "only_matador_plays (also when every legal play uses a matador), always (whenever "
            "drawing is impossible, even with an ordinary playable tile)."
        ),
        HandPips: (
            "full: a hand counts every pip of every tile left in it; a double counts both halves."
        ),
        Points: (
            "difference: the winner scores the losers' pips minus its own (see "
            "difference_among_several); all_hands: the winner scores every hand's pips, its own "
            "included; opponents: the winner scores the losers' pips, its own not taken off."
        ),
        DifferenceAmongSeveral: (
            "total_minus_own: the sum of all losers' pips minus the winner's pips once; "
            "each_opponent_minus_own: the sum over losers of (their pips minus the winner's "
            "pips)."
        ),
        Tie: (
            "nobody_scores: when two or more players (or sides) tie for the lowest total of a "
            "blocked hand, nobody scores."
        ),
        MatadorTiles: (
            "Which matadors a placement mode covers: all; all_but_double_blank; double_blank "
            "([0-0] only)."
        ),
        EndFilter: (
            "Which ends a mode may be used on: any (every end whose matador access is free), "
            "blank (a plain end showing 0), non_blank (a plain end showing 1 or more)."
        ),
        Fit: (
            "match: the matador must fit the end under the end's match rule, like an ordinary "
            "tile; free: it goes on regardless of what the end shows."
        ),
        Shape: (
            "inline: along the line; crosswise: across the line, centred on it (a T); "
            "crosswise_offset: across the line with one half standing out along it (an L)."
        ),
        OpenValues: (
            "outer_half: the half not laid against the end is its open value (chosen by the "
            "player when the fit is free); both_halves: both halves of the matador are the end's "
            "values; covered_value: the end keeps the value(s) of the end the matador covered; "
            "two_ends: each half becomes an open end of its own, the lower in place of the end "
            "covered and the higher a new end of the line."
        ),
        MatchRule: (
            "How the next tile's attaching half must relate to one of the end's values: sum (half "
            "+ value = line sum), identical (half = value), blank (the half is 0, whatever the "
            "values), any (any half), none (nothing attaches: the end is dead)."
        ),
        MatadorAccess: (
            "free: every matador mode whose end filter allows it may be used on this end; "
            "match_only: matadors may attach only by the end's match rule, like ordinary tiles; "
            "never: no matador may go on this end."
        ),
        TargetUnit: (
            "points: the match ends when a player or side reaches the target score; hands: each "
            "won hand counts one and the match ends at the target number of wins."
        ),
        ModelLack: (
            "What the rule model cannot play, which an alternative it cannot offer names: "
            "crosswise_doubles (a double laid across the line); lightest_tile_opening "
            "(the lightest tile dealt leading); ranking_by_higher_half (tiles ranked by "
            "their higher half before their pips); fixed_open_half (a matador laid freely "
            "leaving a half fixed by rule); way_of_laying_in_the_action (two ways of "
            "laying the same tile the same way told apart); another_end_access (an end "
            "admitting matadors otherwise than free, by the match rule, or never); "
            "lead_to_last_winner (the last hand's winner leading the next); "
            "highest_tile_lot (the highest tile drawn leading); draw_and_pass_as_pass (a "
            "turn of drawing then passing counting towards a block); draw_before_the_lead "
            "(drawing before the opening tile is laid); side_won_by_lowest_player (a side "
            "winning by its lowest player rather than its total); extra_tile_to_last_seat "
            "(the tiles that do not divide evenly going to the last seats); "
            "hand_size_per_table (hand sizes chosen by each table)."
        ),
        GapKind: (
            "silent: the source does not say; contradiction: the source says two things that "
            "cannot both hold; ambiguous: the source's words can be read two ways."
        ),
        NoteKind: (
            "What a note is: advice (strategy), custom (how people play, not a rule), names, "
            "history, arithmetic (figures the source computes), context."
        ),
    }
)
