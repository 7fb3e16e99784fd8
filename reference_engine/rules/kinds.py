"""What an entry of the rule registry says: the kinds of value, the groups, the sheet forms.

:class:`Parameter` is one entry of :data:`reference_engine.rules.parameters.PARAMETERS`;
the enums here are the closed vocabularies its fields take.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from .vocabulary import TextEnum

if TYPE_CHECKING:
    from .model import Rules


class ValueKind(Enum):
    """The shape of a rule's value; conversion, display and coverage tokens follow it."""

    #: An integer (the set's highest pip).
    INTEGER = "integer"
    #: A list of player counts, each 2, 3 or 4.
    PLAYER_COUNTS = "player_counts"
    #: A number for each allowed player count (``two``, ``three``, ``four``).
    PER_PLAYERS = "per_players"
    #: A hand size for each allowed player count: a number, or ``all`` (SPEC 5.3).
    HAND_SIZES = "hand_sizes"
    #: One value of a closed vocabulary (:attr:`Parameter.choices`).
    CHOICE = "choice"
    #: ``true`` or ``false``.
    FLAG = "flag"
    #: A list of matador placement modes (SPEC 7.3).
    MATADOR_MODES = "placement_modes"
    #: A match target: a unit and a value (SPEC 10.5).
    TARGET = "target"


class Group(TextEnum):
    """The groups rules are shown in, in the order of the specification's sections."""

    EQUIPMENT = "equipment and deal"
    OPENING = "opening"
    PLACEMENT = "placement"
    DRAWING = "drawing and passing"
    SCORING = "scoring"
    MATCH = "match"


class Sentence(Enum):
    """How a rule sheet states a rule."""

    #: One catalogue sentence per value, keyed ``rule.<name>.<value>``.
    BY_VALUE = "by_value"
    #: Composed by the sheet model from the variant's numbers, with catalogue
    #: keys under ``rule.<name>.``.
    COMPOSED = "composed"


class Decides(Enum):
    """What a rule decides, as the conformance report asks it: which rules lie behind a check."""

    #: The tiles each seat is dealt (what makes a deal the rules accept acceptable).
    DEAL = "deal"
    #: Who opens a hand and with which tile.
    OPENING = "opening"
    #: Who opens a hand (not with which tile, where another rule says that: the tile a
    #: designated opener lays is the opening tile rule's).
    OPENING_SEAT = "opening_seat"
    #: The seat a deal designates to open (asked when a deal names one).
    DESIGNATED = "designated"
    #: Which tile a designated opener lays (where a rule says so apart from who opens).
    OPENING_TILE = "designated_tile"
    #: Whether the double blank counts at the opening (asked when a hand holds it).
    DOUBLE_BLANK = "double_blank"
    #: What happens when no hand holds an opening double.
    NO_DOUBLE = "no_double"
    #: The opener's own turn right after the opening tile.
    FORCED_TURN = "forced_turn"
    #: Whether a player may draw.
    DRAW = "draw"
    #: Whether a player who has drawn may draw again.
    SECOND_DRAW = "second_draw"
    #: What a player who has made the turn's single draw may do.
    AFTER_DRAW = "after_draw"
    #: Whether a player may pass.
    PASS = "pass"
    #: Where a matador goes, and the end it leaves.
    MATADOR = "matador"
    #: How a double lies.
    DOUBLE = "double"
    #: How a hand ends (domino or block).
    HAND_END = "hand_end"
    #: Who has the lowest total, and the pips counted in each hand.
    PIPS = "pips"
    #: The points the winner of a hand scores.
    POINTS = "points"
    #: The points when the winner has more than one opponent.
    SEVERAL_LOSERS = "several_losers"
    #: Whether players play in sides (asked when a hand is played in sides).
    SIDES = "sides"
    #: What a tie for the lowest total gives (asked when a hand ends in one).
    TIE = "tie"
    #: The hands each player or side has won in a match.
    HANDS_WON = "hands_won"
    #: Who wins the match.
    MATCH_WINNER = "match_winner"


def as_text_value(value: object) -> str:
    """A closed rule value as the variant files write it (flags as true/false)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _always(_: Rules) -> bool:
    return True


@dataclass(frozen=True, kw_only=True)
class Parameter:
    """One rule parameter: everything the project needs to know to read, show and play it."""

    #: The key in a variant file's ``rules`` and the field of :class:`Rules`.
    name: str
    kind: ValueKind
    #: The closed vocabulary of a :attr:`ValueKind.CHOICE` rule.
    choices: type[TextEnum] | None = None
    #: The least and the greatest value of a :attr:`ValueKind.INTEGER` rule.
    bounds: tuple[int, int] | None = None
    #: The section of ``spec/SPEC.md`` whose heading names the rule.
    spec: str
    group: Group
    #: Whether a variant that extends nothing must give it. A rule that is not
    #: required (SPEC 4, "conditional") is required only where it applies, and
    #: its default is absent: ``None``, with no effect.
    required: bool = True
    #: When the rule has an effect under the other rules (always, unless given).
    applies: Callable[[Rules], bool] = _always
    #: Whether an option value may change it.
    optionable: bool = True
    sentence: Sentence = Sentence.BY_VALUE
    #: What the rule decides (the conformance report names it behind those checks).
    decides: frozenset[Decides] = frozenset()
    #: The engine place that gives the rule its meaning, as ``module:attribute``
    #: (an attribute of a :class:`~reference_engine.engine.compiled.Compiled`
    #: table is written ``Compiled.name``); ``None`` for a rule that changes no
    #: legal action or score.
    consumer: str | None
    #: What the rule decides, in a few words (the schema's description of it).
    about: str

    @property
    def values(self) -> tuple[object, ...] | None:
        """Every value a closed rule can take (a vocabulary or a flag); None if open."""
        if self.choices is not None:
            return tuple(self.choices)
        if self.kind is ValueKind.FLAG:
            return (True, False)
        return None

    @property
    def label_key(self) -> str:
        """The catalogue key of the rule's name on a sheet."""
        return f"label.{self.name}"

    def value_key(self, value: object) -> str:
        """The catalogue key of the sentence stating that the rule has ``value``."""
        return f"rule.{self.name}.{as_text_value(value)}"
