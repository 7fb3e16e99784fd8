"""The registry of rule parameters: the one place each rule of the model is described.

Every rule a variant file can give is one :class:`Parameter` in
:data:`PARAMETERS`, in the order of ``spec/SPEC.md``. An entry says what kind of
value the rule takes (and, for a closed vocabulary, which enum), whether a
variant must give it or only when other rules make it apply, the SPEC section
that defines it, the group it is shown under, whether an option may change it,
how a rule sheet states it (its catalogue keys follow from its name), and the
engine place that gives it meaning.

Everything else is derived from this table: converting a file's plain values
(:mod:`reference_engine.rules.convert`), :meth:`Rules.applicable`, the grouping
of ``show``, ``compare``, ``diff`` and the sheets, the coverage tokens, the names
``--rule`` and a case's ``exercises`` may use, the loader's checks and the
catalogue keys the sheets need. Tests hold ``spec/variant.schema.json`` and
``spec/SPEC.md``'s headings to it. ``docs/architecture.md`` gives the recipe for
adding a rule.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType

from .kinds import Decides, Group, Parameter, Sentence, ValueKind, as_text_value
from .vocabulary import (
    AfterSingleDraw,
    DesignatedOpener,
    DifferenceAmongSeveral,
    DoublesPlacement,
    DrawsPerTurn,
    DrawWhen,
    EndFilter,
    Fit,
    GapKind,
    HandPips,
    MatadorAccess,
    MatadorTiles,
    MatchRule,
    ModelLack,
    NobodyHasDouble,
    NoteKind,
    Opener,
    OpenerLacksDouble,
    OpeningTile,
    OpenValues,
    Partnership,
    PassWhen,
    Points,
    Shape,
    TargetUnit,
    TextEnum,
    Tie,
    TurnDirection,
)

_COMPILED = "reference_engine.engine.compiled:Compiled."
_SCORING = "reference_engine.engine.scoring:score"

#: Every rule parameter, in the order of the specification.
PARAMETERS: tuple[Parameter, ...] = (
    # ------------------------------------------------------------ equipment and deal (SPEC 5)
    Parameter(
        name="max_pip",
        kind=ValueKind.INTEGER,
        bounds=(1, 18),
        spec="5.1",
        group=Group.EQUIPMENT,
        sentence=Sentence.COMPOSED,
        consumer=_COMPILED + "tiles",
        about=(
            "The set is double-n for this n: tiles [a-b] for 0 <= a <= b <= n; touching "
            "halves sum to n+1; the matadors are [0-0] and every tile summing to n+1."
        ),
    ),
    Parameter(
        name="players",
        kind=ValueKind.PLAYER_COUNTS,
        spec="5.2",
        group=Group.EQUIPMENT,
        sentence=Sentence.COMPOSED,
        consumer="reference_engine.engine.deal:check_players",
        about="The numbers of players the variant allows.",
    ),
    Parameter(
        name="hand_size",
        decides=frozenset({Decides.DEAL}),
        kind=ValueKind.HAND_SIZES,
        spec="5.3",
        group=Group.EQUIPMENT,
        sentence=Sentence.COMPOSED,
        consumer=_COMPILED + "hand_sizes",
        about=(
            "Tiles dealt to each player, for each allowed player count; all: every tile is "
            "dealt out, the first seats taking one more when the set does not divide evenly."
        ),
    ),
    Parameter(
        name="reserve",
        decides=frozenset({Decides.DRAW}),
        kind=ValueKind.PER_PLAYERS,
        spec="5.3",
        group=Group.EQUIPMENT,
        # (A variant must give it, but it matters only where somebody draws.)
        applies=lambda r: r.draw_when is not DrawWhen.NEVER,
        sentence=Sentence.COMPOSED,
        consumer=_COMPILED + "reserve",
        about=(
            "Tiles that must stay in the boneyard: nobody may draw when it holds this many or"
            " fewer."
        ),
    ),
    Parameter(
        name="partnership",
        decides=frozenset({Decides.SIDES}),
        kind=ValueKind.CHOICE,
        choices=Partnership,
        spec="5.4",
        group=Group.EQUIPMENT,
        consumer="reference_engine.engine.scoring:sides",
        about="Individual play or two sides.",
    ),
    Parameter(
        name="turn_direction",
        kind=ValueKind.CHOICE,
        choices=TurnDirection,
        spec="5.5",
        group=Group.EQUIPMENT,
        # It maps seats onto a table and changes no legal action or score, so an
        # option offering it would offer no playable alternative.
        optionable=False,
        consumer=None,
        about="The direction of play as the source states it.",
    ),
    # ------------------------------------------------------------ opening (SPEC 6)
    Parameter(
        name="opener",
        decides=frozenset({Decides.OPENING, Decides.OPENING_SEAT}),
        kind=ValueKind.CHOICE,
        choices=Opener,
        spec="6.3",
        group=Group.OPENING,
        consumer=_COMPILED + "highest_double_opens",
        about="Who opens a hand.",
    ),
    Parameter(
        name="designated_opener",
        decides=frozenset({Decides.OPENING, Decides.OPENING_SEAT, Decides.DESIGNATED}),
        kind=ValueKind.CHOICE,
        choices=DesignatedOpener,
        spec="6.2",
        group=Group.OPENING,
        required=False,
        applies=lambda r: (
            r.opener is Opener.DESIGNATED
            or r.nobody_has_double is NobodyHasDouble.DESIGNATED_DRAWS_UNTIL_DOUBLE
        ),
        consumer="reference_engine.engine.match:Match.expected_designated",
        about=(
            "How the designated opener is chosen (needed when opener is designated, or when "
            "nobody_has_double is designated_draws_until_double)."
        ),
    ),
    Parameter(
        name="opening_tile",
        decides=frozenset({Decides.OPENING, Decides.OPENING_TILE}),
        kind=ValueKind.CHOICE,
        choices=OpeningTile,
        spec="6.3",
        group=Group.OPENING,
        required=False,
        applies=lambda r: r.opener is Opener.DESIGNATED,
        consumer=_COMPILED + "opening_any_tile",
        about="What a designated opener puts down (needed when opener is designated).",
    ),
    Parameter(
        name="double_blank_opens",
        decides=frozenset({Decides.DOUBLE_BLANK}),
        kind=ValueKind.FLAG,
        spec="6.1",
        group=Group.OPENING,
        # An opening double matters only when the opening needs a double, and the
        # double blank only when not only the top double opens (SPEC 6.1).
        applies=lambda r: (
            r.opener is not Opener.TOP_DOUBLE
            and (r.opener is not Opener.DESIGNATED or r.opening_tile is not OpeningTile.ANY_TILE)
        ),
        consumer=_COMPILED + "opening_doubles",
        about="Whether [0-0] counts as a double for choosing the opener and the opening tile.",
    ),
    Parameter(
        name="opener_lacks_double",
        decides=frozenset({Decides.OPENING}),
        kind=ValueKind.CHOICE,
        choices=OpenerLacksDouble,
        spec="6.3",
        group=Group.OPENING,
        required=False,
        applies=lambda r: (
            r.opener is Opener.DESIGNATED and r.opening_tile is OpeningTile.HIGHEST_DOUBLE
        ),
        consumer=_COMPILED + "right_to_open_passes",
        about="What happens when a designated opener who must open with a double holds none.",
    ),
    Parameter(
        name="nobody_has_double",
        decides=frozenset({Decides.NO_DOUBLE}),
        kind=ValueKind.CHOICE,
        choices=NobodyHasDouble,
        spec="6.4",
        group=Group.OPENING,
        applies=lambda r: (
            r.opener is not Opener.DESIGNATED or r.opening_tile is not OpeningTile.ANY_TILE
        ),
        consumer=_COMPILED + "redeal_without_double",
        about="What happens when the opening needs a double and nobody holds one.",
    ),
    Parameter(
        name="opener_plays_again",
        decides=frozenset({Decides.FORCED_TURN}),
        kind=ValueKind.FLAG,
        spec="6.5",
        group=Group.OPENING,
        consumer=_COMPILED + "opener_plays_again",
        about="Whether the opener must also put down the hand's second tile, at once.",
    ),
    # ------------------------------------------------------------ placement (SPEC 7)
    Parameter(
        name="doubles",
        decides=frozenset({Decides.DOUBLE}),
        kind=ValueKind.CHOICE,
        choices=DoublesPlacement,
        spec="7.2",
        group=Group.PLACEMENT,
        sentence=Sentence.COMPOSED,
        consumer=_COMPILED + "moves",
        about="How doubles lie in the line.",
    ),
    Parameter(
        name="matador_modes",
        decides=frozenset({Decides.MATADOR}),
        kind=ValueKind.MATADOR_MODES,
        spec="7.3",
        group=Group.PLACEMENT,
        sentence=Sentence.COMPOSED,
        consumer=_COMPILED + "moves",
        about=(
            "Every way a matador may be put down, in addition to fitting like an ordinary "
            "tile where a mode with fit: match says so."
        ),
    ),
    # ------------------------------------------------------------ drawing and passing (SPEC 8)
    Parameter(
        name="draw_when",
        decides=frozenset({Decides.DRAW}),
        kind=ValueKind.CHOICE,
        choices=DrawWhen,
        spec="8.1",
        group=Group.DRAWING,
        consumer=_COMPILED + "draws",
        about="When a player may draw from the boneyard.",
    ),
    Parameter(
        name="draws_per_turn",
        decides=frozenset({Decides.SECOND_DRAW, Decides.AFTER_DRAW}),
        kind=ValueKind.CHOICE,
        choices=DrawsPerTurn,
        spec="8.1",
        group=Group.DRAWING,
        required=False,
        applies=lambda r: r.draw_when is not DrawWhen.NEVER,
        consumer=_COMPILED + "one_draw_per_turn",
        about="One draw per turn, or as many as needed.",
    ),
    Parameter(
        name="after_single_draw",
        decides=frozenset({Decides.AFTER_DRAW}),
        kind=ValueKind.CHOICE,
        choices=AfterSingleDraw,
        spec="8.1",
        group=Group.DRAWING,
        required=False,
        applies=lambda r: (
            r.draw_when is not DrawWhen.NEVER and r.draws_per_turn is DrawsPerTurn.ONE
        ),
        consumer=_COMPILED + "after_draw_any_tile",
        about="What a player may do after the turn's single draw.",
    ),
    Parameter(
        name="pass_when",
        decides=frozenset({Decides.PASS, Decides.HAND_END}),
        kind=ValueKind.CHOICE,
        choices=PassWhen,
        spec="8.1",
        group=Group.DRAWING,
        consumer=_COMPILED + "pass_always",
        about="When a player who cannot draw may pass.",
    ),
    # ------------------------------------------------------------ scoring (SPEC 10)
    Parameter(
        name="hand_pips",
        decides=frozenset({Decides.PIPS}),
        kind=ValueKind.CHOICE,
        choices=HandPips,
        spec="10.1",
        group=Group.SCORING,
        sentence=Sentence.COMPOSED,
        consumer=_SCORING,
        about="How the tiles left in hand are counted.",
    ),
    Parameter(
        name="points",
        decides=frozenset({Decides.POINTS}),
        kind=ValueKind.CHOICE,
        choices=Points,
        spec="10.2",
        group=Group.SCORING,
        consumer=_SCORING,
        about="What the winner of a hand scores.",
    ),
    Parameter(
        name="difference_among_several",
        decides=frozenset({Decides.SEVERAL_LOSERS}),
        kind=ValueKind.CHOICE,
        choices=DifferenceAmongSeveral,
        spec="10.2",
        group=Group.SCORING,
        required=False,
        applies=lambda r: r.points is Points.DIFFERENCE and max(r.players) > 2,
        consumer=_SCORING,
        about="How the difference rule reads with more than one loser.",
    ),
    Parameter(
        name="tie",
        decides=frozenset({Decides.TIE}),
        kind=ValueKind.CHOICE,
        choices=Tie,
        spec="10.3",
        group=Group.SCORING,
        consumer=_SCORING,
        about="What a tie for the lowest total scores.",
    ),
    # ------------------------------------------------------------ the match (SPEC 10.5)
    Parameter(
        name="target",
        decides=frozenset({Decides.HANDS_WON, Decides.MATCH_WINNER}),
        kind=ValueKind.TARGET,
        spec="10.5",
        group=Group.MATCH,
        sentence=Sentence.COMPOSED,
        consumer="reference_engine.engine.match:Match.winner",
        about="What ends a match.",
    ),
)

#: The registry by rule name.
BY_NAME: Mapping[str, Parameter] = MappingProxyType({p.name: p for p in PARAMETERS})

#: Every rule name, in the order of the specification.
NAMES: tuple[str, ...] = tuple(BY_NAME)

#: The rules a variant must give only where they apply (SPEC 4).
CONDITIONAL: frozenset[str] = frozenset(p.name for p in PARAMETERS if not p.required)

#: The vocabularies of a matador placement mode's fields (SPEC 7.3), by the
#: name of the schema ``$defs`` entry that mirrors each.
MODE_VOCABULARIES: Mapping[str, type[TextEnum]] = MappingProxyType(
    {
        "matador_tiles": MatadorTiles,
        "end_filter": EndFilter,
        "fit": Fit,
        "shape": Shape,
        "open_values": OpenValues,
        "match": MatchRule,
        "matador_access": MatadorAccess,
    }
)

#: Every closed vocabulary of the variant files, by the name of the schema
#: ``$defs`` entry that mirrors it: each rule's, a mode's fields', the target's
#: unit, and the kinds of gaps and notes.
VOCABULARIES: Mapping[str, type[TextEnum]] = MappingProxyType(
    {
        **{p.name: p.choices for p in PARAMETERS if p.choices is not None},
        **MODE_VOCABULARIES,
        "target_unit": TargetUnit,
        "gap_kind": GapKind,
        "model_lack": ModelLack,
        "note_kind": NoteKind,
    }
)


def parameter(name: str) -> Parameter:
    """The registry entry of rule ``name``; KeyError when there is no such rule."""
    return BY_NAME[name]


def grouped() -> Iterator[tuple[Group, tuple[Parameter, ...]]]:
    """Each group with its rules, in the order of the specification."""
    for group in Group:
        members = tuple(p for p in PARAMETERS if p.group is group)
        if members:
            yield group, members


def deciding(*what: Decides) -> tuple[str, ...]:
    """The rules that decide any of ``what``, in the order of the specification."""
    wanted = set(what)
    return tuple(p.name for p in PARAMETERS if p.decides & wanted)


def unknown_rule_hint() -> str:
    """The fix-it text for a name that is no rule: every rule there is."""
    return "rules: " + ", ".join(NAMES)


__all__ = [
    "BY_NAME",
    "CONDITIONAL",
    "MODE_VOCABULARIES",
    "NAMES",
    "PARAMETERS",
    "VOCABULARIES",
    "Decides",
    "Group",
    "Parameter",
    "Sentence",
    "ValueKind",
    "as_text_value",
    "deciding",
    "grouped",
    "parameter",
    "unknown_rule_hint",
]
