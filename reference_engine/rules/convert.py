"""Turning a variant file's plain rule values into the rule model's typed ones.

:data:`CONVERTERS` is the table of every rule parameter the model knows, keyed
by the name the variant files and :class:`~reference_engine.rules.model.Rules`
share; :data:`CONDITIONAL_RULES` are those only some variants need.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from .model import (
    Citation,
    EndState,
    MatadorMode,
    PerPlayers,
    Target,
)
from .vocabulary import (
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
    TurnDirection,
)


def _enum(kind: Any) -> Any:
    return lambda value: kind(value)


def _mode(value: Mapping[str, Any]) -> MatadorMode:
    return MatadorMode(
        tiles=MatadorTiles(value["tiles"]),
        ends=EndFilter(value["ends"]),
        fit=Fit(value["fit"]),
        shape=Shape(value["shape"]),
        open=OpenValues(value["open"]),
        leaves=EndState(
            match=MatchRule(value["leaves"]["match"]),
            matadors=MatadorAccess(value["leaves"]["matadors"]),
        ),
    )


#: How each rule's plain value becomes a typed one. The keys are the rule names
#: of the variant files and the field names of :class:`Rules`.
CONVERTERS: Mapping[str, Any] = MappingProxyType(
    {
        "max_pip": int,
        "players": lambda value: tuple(sorted(value)),
        "hand_size": lambda value: PerPlayers(**value),
        "reserve": lambda value: PerPlayers(**value),
        "partnership": _enum(Partnership),
        "turn_direction": _enum(TurnDirection),
        "opener": _enum(Opener),
        "designated_opener": _enum(DesignatedOpener),
        "opening_tile": _enum(OpeningTile),
        "double_blank_opens": bool,
        "opener_lacks_double": _enum(OpenerLacksDouble),
        "nobody_has_double": _enum(NobodyHasDouble),
        "opener_plays_again": bool,
        "doubles": _enum(DoublesPlacement),
        "matador_modes": lambda value: tuple(_mode(item) for item in value),
        "draw_when": _enum(DrawWhen),
        "draws_per_turn": _enum(DrawsPerTurn),
        "after_single_draw": _enum(AfterSingleDraw),
        "pass_when": _enum(PassWhen),
        "hand_pips": _enum(HandPips),
        "points": _enum(Points),
        "difference_among_several": _enum(DifferenceAmongSeveral),
        "tie": _enum(Tie),
        "target": lambda value: Target(unit=TargetUnit(value["unit"]), value=int(value["value"])),
    }
)

#: Rules that only some variants need (SPEC.md says when each is required).
CONDITIONAL_RULES = frozenset(
    {
        "designated_opener",
        "opening_tile",
        "opener_lacks_double",
        "draws_per_turn",
        "after_single_draw",
        "difference_among_several",
    }
)


def citations(raw: Iterable[Mapping[str, str]] | None) -> tuple[Citation, ...]:
    return tuple(Citation(**item) for item in raw or ())
