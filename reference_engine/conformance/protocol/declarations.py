"""What an engine declares it plays of a variant, beyond the option values it names.

``hello``'s ``variants`` says which variants and option values an engine plays
(protocol version 1 from the start). The optional ``plays`` field, added to
version 1 without changing it (spec/protocol.md, "Declaring what you play"),
says more, per variant id or for every variant (``"*"``):

- ``players``: the player counts it plays (others are not applicable);
- ``hand_sizes``: the tiles it deals per player count, so that a deal other
  than the rules' is one deviation of ``hand_size`` for that count, and the
  other counts are still judged;
- ``options``: option values played *exactly*: the default only when listed;
- ``scoring: false``, ``matches: false``: it keeps no score, or no match; the
  checks that need them are not judged (and the verdict says so);
- ``reasons: false``: a refused action is judged on its refusal alone;
- ``opens_itself: true``: it lays the opening tile while dealing, and the
  reply to ``new_hand`` names what it laid (``opened``, ``opened_by``);
- ``positions: true``: it starts a hand at a position (``new_hand`` with
  ``position``), so the cases that start at one are asked of it.

:func:`read_plays` checks the field's shape for both transports;
:class:`Declaration` answers what a run needs to know of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ...errors import EngineProblem
from .replies import short

#: What ``hello``'s ``extra.reasons`` says of refusal reasons the adapter kit derived from
#: the reference rules (not the engine's own): the reports say so.
DERIVED_REASONS = "derived from the reference rules by the adapter kit"

#: The key of ``plays`` whose declaration applies to every variant.
EVERY_VARIANT = "*"

#: The flags a declaration may set, with their values when not declared.
FLAGS: Mapping[str, bool] = MappingProxyType(
    {"scoring": True, "matches": True, "reasons": True, "opens_itself": False, "positions": False}
)

#: Every field a declaration may have.
FIELDS = frozenset({"players", "hand_sizes", "options", *FLAGS})

_COUNTS = {2, 3, 4}


class DeclarationError(EngineProblem, ValueError):
    """A ``plays`` value of the wrong shape; the message says where and what."""


@dataclass(frozen=True)
class Declaration:
    """What an engine plays of one variant (every field at its default: what the rules say)."""

    #: The player counts played, or None for every count the rules allow.
    players: frozenset[int] | None = None
    #: The tiles dealt to each seat, per player count, where the engine says.
    hand_sizes: Mapping[int, int] = field(default_factory=dict)
    #: Option values played exactly (the default only when listed), per option.
    options: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    scoring: bool = True
    matches: bool = True
    reasons: bool = True
    opens_itself: bool = False
    #: Whether it starts a hand at a position (``new_hand`` with ``position``).
    positions: bool = False

    @property
    def ordinary(self) -> bool:
        """Whether the declaration says nothing beyond what version 1 assumed."""
        return self == Declaration()

    def not_judged(self) -> tuple[str, ...]:
        """What the declaration takes out of the judgement, in words, for a report."""
        said = []
        if not self.scoring:
            said.append("points and scores (the engine keeps no score)")
        if not self.matches:
            said.append("match totals (the engine plays no match)")
        if not self.reasons:
            said.append("refusal reasons (the engine gives none)")
        if self.opens_itself:
            said.append("what comes before the opening tile (the engine lays it itself)")
        return tuple(said)

    def merged(self, specific: Declaration) -> Declaration:
        """This declaration (for every variant) with ``specific``'s fields over it."""
        return specific if self.ordinary else _merge(self, specific)


def _merge(general: Declaration, specific: Declaration) -> Declaration:
    default = Declaration()
    values = {}
    for name in ("players", "hand_sizes", "options", *FLAGS):
        mine = getattr(specific, name)
        values[name] = mine if mine != getattr(default, name) else getattr(general, name)
    return Declaration(**values)


def read_plays(value: Any, variants: Mapping[str, Any] | None) -> dict[str, Declaration]:
    """``hello``'s ``plays``: variant id (or ``*``) -> :class:`Declaration`.

    ``variants`` is what the same ``hello`` declares (None: every variant): a
    declaration for a variant it does not play is an error, as a field of the
    wrong shape is. Raises :class:`DeclarationError`.
    """
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise DeclarationError(
            f"must be an object of variant id -> declaration, not {short(value)}"
        )
    found = {}
    for variant, declared in value.items():
        if not isinstance(variant, str):
            raise DeclarationError(f"{short(variant)} is not a variant id")
        if variant != EVERY_VARIANT and variants is not None and variant not in variants:
            raise DeclarationError(f"{short(variant)} is not among the variants the hello declares")
        found[variant] = _declaration(declared, variant)
    return found


def _declaration(value: Any, variant: str) -> Declaration:
    where = short(variant)
    if isinstance(value, Declaration):
        value = as_data(value)
    if not isinstance(value, Mapping):
        raise DeclarationError(f"{where} must map to an object, not {short(value)}")
    unknown = sorted(set(value) - FIELDS, key=str)
    if unknown:
        raise DeclarationError(
            f"{where}: unknown field(s) {', '.join(map(short, unknown))} "
            f"(known: {', '.join(sorted(FIELDS))})"
        )
    flags = {}
    for name in FLAGS:
        if name in value:
            if not isinstance(value[name], bool):
                raise DeclarationError(f"{where}.{name} must be true or false")
            flags[name] = value[name]
    return Declaration(
        players=_players(value.get("players"), where),
        hand_sizes=MappingProxyType(_hand_sizes(value.get("hand_sizes"), where)),
        options=MappingProxyType(_options(value.get("options"), where)),
        **flags,
    )


def _players(value: Any, where: str) -> frozenset[int] | None:
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or not value
        or not all(type(n) is int and n in _COUNTS for n in value)
    ):
        raise DeclarationError(f"{where}.players must be a non-empty list of 2, 3 or 4")
    return frozenset(value)


def _hand_sizes(value: Any, where: str) -> dict[int, int]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise DeclarationError(f"{where}.hand_sizes must be an object of player count -> tiles")
    sizes = {}
    for count, tiles in value.items():
        number = int(count) if isinstance(count, str) and count in ("2", "3", "4") else count
        if type(number) is not int or number not in _COUNTS:
            raise DeclarationError(f"{where}.hand_sizes: {short(count)} is not a player count")
        if type(tiles) is not int or not 1 <= tiles <= 190:
            raise DeclarationError(
                f"{where}.hand_sizes.{number} must be a number of tiles (1 to 190)"
            )
        sizes[number] = tiles
    return sizes


def _options(value: Any, where: str) -> dict[str, tuple[str, ...]]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise DeclarationError(f"{where}.options must be an object of option -> [values]")
    options = {}
    for name, values in value.items():
        if (
            not isinstance(name, str)
            or not isinstance(values, (list, tuple))
            or not values
            or not all(isinstance(item, str) for item in values)
        ):
            raise DeclarationError(
                f"{where}.options.{short(name)} must be a non-empty list of option values"
            )
        options[name] = tuple(values)
    return options


def as_data(declaration: Declaration) -> dict[str, Any]:
    """A declaration as ``hello`` writes it: only what differs from the rules' defaults."""
    data: dict[str, Any] = {}
    if declaration.players is not None:
        data["players"] = sorted(declaration.players)
    if declaration.hand_sizes:
        data["hand_sizes"] = {str(n): size for n, size in sorted(declaration.hand_sizes.items())}
    if declaration.options:
        data["options"] = {name: list(values) for name, values in declaration.options.items()}
    for name, default in FLAGS.items():
        if getattr(declaration, name) is not default:
            data[name] = getattr(declaration, name)
    return data
