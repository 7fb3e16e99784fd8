"""Turning a variant file's plain rule values into the rule model's typed ones.

How a value is converted follows from its kind in the registry
(:mod:`reference_engine.rules.parameters`): :data:`CONVERTERS` has one entry
per rule parameter, keyed by the name the variant files and
:class:`~reference_engine.rules.model.Rules` share; :data:`CONDITIONAL_RULES`
are those only some variants need.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any

from .model import (
    Citation,
    EndState,
    MatadorMode,
    PerPlayers,
    Target,
)
from .parameters import CONDITIONAL, PARAMETERS, Parameter, ValueKind
from .vocabulary import (
    EndFilter,
    Fit,
    MatadorAccess,
    MatadorTiles,
    MatchRule,
    OpenValues,
    Shape,
    TargetUnit,
)


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


#: How a value of each kind becomes a typed one (a choice's is its vocabulary).
_BY_KIND: Mapping[ValueKind, Callable[[Any], Any]] = MappingProxyType(
    {
        ValueKind.INTEGER: int,
        ValueKind.PLAYER_COUNTS: lambda value: tuple(sorted(value)),
        ValueKind.PER_PLAYERS: lambda value: PerPlayers(**value),
        ValueKind.HAND_SIZES: lambda value: PerPlayers(**value),
        ValueKind.FLAG: bool,
        ValueKind.MATADOR_MODES: lambda value: tuple(_mode(item) for item in value),
        ValueKind.TARGET: lambda value: Target(
            unit=TargetUnit(value["unit"]), value=int(value["value"])
        ),
    }
)


def converter(rule: Parameter) -> Callable[[Any], Any]:
    """The function turning ``rule``'s plain value into its typed one."""
    if rule.kind is ValueKind.CHOICE:
        if rule.choices is None:
            raise ValueError(f"choice rule {rule.name!r} names no vocabulary")
        return rule.choices
    return _BY_KIND[rule.kind]


#: How each rule's plain value becomes a typed one. The keys are the rule names
#: of the variant files and the field names of :class:`Rules`.
CONVERTERS: Mapping[str, Callable[[Any], Any]] = MappingProxyType(
    {rule.name: converter(rule) for rule in PARAMETERS}
)

#: Rules that only some variants need (SPEC.md section 4 says when each is required).
CONDITIONAL_RULES = CONDITIONAL


#: Citations already built, by the identity of the file's list they were built from
#: (kept alive here, so the identity stays theirs): every resolution of a variant
#: reads the same lists again.
_CITATIONS: dict[int, tuple[object, tuple[Citation, ...]]] = {}


def citations(raw: Iterable[Mapping[str, str]] | None) -> tuple[Citation, ...]:
    """The citations of a file's ``cite`` list (None or empty: none)."""
    if not raw:
        return ()
    found = _CITATIONS.get(id(raw))
    if found is not None and found[0] is raw:
        return found[1]
    built = tuple(Citation(**item) for item in raw)
    if isinstance(raw, list):
        if len(_CITATIONS) > 65536:
            _CITATIONS.clear()
        _CITATIONS[id(raw)] = (raw, built)
    return built
