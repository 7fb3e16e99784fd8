"""The names of rule values a case may say it exercises (``RULE`` or ``RULE=VALUE``).

A rule value is named by a token ``RULE=VALUE``, following the rule's kind in
the registry (:mod:`reference_engine.rules.parameters`): the value as written in
the variant files for choices, flags and integers; one player count for a list
of player counts; a number of tiles for a number per player count;
``UNIT_VALUE`` for a target (``points_100``); and for matador modes, one token
per feature a mode uses: ``shape_*``, ``fit_*``, ``open_*``, ``next_*`` (the
match it leaves) and ``access_*`` (the matador access it leaves).
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Any

from ...rules.model import MatadorMode, PerPlayers, Rules, Target
from ...rules.parameters import BY_NAME, NAMES, Parameter, ValueKind, as_text_value, parameter
from ...rules.vocabulary import Fit, MatadorAccess, MatchRule, OpenValues, Shape, TargetUnit

#: The features of a matador mode a token can name, by prefix.
MODE_FEATURES: dict[str, type[Enum]] = {
    "shape": Shape,
    "fit": Fit,
    "open": OpenValues,
    "next": MatchRule,
    "access": MatadorAccess,
}


def value_tokens(rule: str, value: Any) -> set[str]:
    """The tokens naming ``value`` of ``rule``."""
    if value is None:
        return set()
    if parameter(rule).kind is ValueKind.MATADOR_MODES:
        return {token for mode in value for token in mode_tokens(mode)}
    if isinstance(value, PerPlayers):
        return {str(number) for number in value.as_dict().values()}
    if isinstance(value, Target):
        return {f"{value.unit.value}_{value.value}"}
    if isinstance(value, (bool, Enum)):
        return {as_text_value(value)}
    if isinstance(value, tuple):
        return {str(item) for item in value}
    return {str(value)}


def mode_tokens(mode: MatadorMode) -> set[str]:
    """The features of one matador placement mode."""
    return {
        f"shape_{mode.shape.value}",
        f"fit_{mode.fit.value}",
        f"open_{mode.open.value}",
        f"next_{mode.leaves.match.value}",
        f"access_{mode.leaves.matadors.value}",
    }


def rules_tokens(rules: Rules) -> set[str]:
    """Every ``RULE=VALUE`` token in force (and applicable) under ``rules``."""
    return {
        f"{rule}={token}"
        for rule in NAMES
        if rules.applicable(rule)
        for token in value_tokens(rule, getattr(rules, rule))
    }


def _value_problem(rule: Parameter, value: str) -> str | None:
    closed = rule.values
    if closed is not None:
        allowed = [as_text_value(item) for item in closed]
        return None if value in allowed else "values: " + ", ".join(allowed)
    if rule.kind is ValueKind.MATADOR_MODES:
        allowed = [
            f"{prefix}_{item.value}" for prefix, kind in MODE_FEATURES.items() for item in kind
        ]
        return None if value in allowed else "mode features: " + ", ".join(allowed)
    if rule.kind is ValueKind.TARGET:
        units = "|".join(unit.value for unit in TargetUnit)
        return (
            None
            if re.fullmatch(rf"(?:{units})_[1-9][0-9]*", value)
            else "UNIT_VALUE, e.g. points_100"
        )
    if rule.kind is ValueKind.HAND_SIZES:
        return None if re.fullmatch(r"all|[1-9][0-9]*", value) else "a number, or all"
    return None if re.fullmatch(r"0|[1-9][0-9]*", value) else "a number"


def declaration_problem(declared: str) -> str | None:
    """Why ``declared`` (``RULE`` or ``RULE=VALUE``) names no rule value, or None."""
    name, sep, value = declared.partition("=")
    rule = BY_NAME.get(name)
    if rule is None:
        return f"no rule called {name!r} (rules: {', '.join(NAMES)})"
    if not sep:
        return None
    wanted = _value_problem(rule, value)
    return None if wanted is None else f"{rule.name} has no value {value!r} ({wanted})"
