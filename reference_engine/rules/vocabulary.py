"""The closed vocabularies of the rule model.

Every enum here mirrors an ``enum`` in ``spec/variant.schema.json`` and is
defined normatively in ``spec/SPEC.md``. Values are the exact strings used in
the variant files. Which rule takes which vocabulary is said once, in
:mod:`reference_engine.rules.parameters` (its ``VOCABULARIES`` maps the schema's
names to these enums, and a test checks that the schema agrees).
"""

from __future__ import annotations

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
