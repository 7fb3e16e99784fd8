"""Every rule set an engine could be playing: each shipped variant with each combination
of its option values, one :class:`Candidate` per distinct set of rule values.

Resolving every combination one by one costs seconds (a variant with eight options
has thousands). The options of a variant set disjoint rules (two options setting
one rule is a resolution error), so a combination's rules are its variant's default
rules with, for each option off its default, the rules that option touches taken
from that option resolved alone: :func:`candidates` resolves only the defaults and
each option value alone, and builds the rest. tests/test_identify.py holds the
result equal to resolving each combination.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ...engine.compiled import content_key
from ...rules import Catalog, Rules, RulesError


@dataclass(frozen=True)
class Candidate:
    """One distinct set of shipped rules: a variant with option values, and its aliases."""

    variant: str
    options: Mapping[str, str]
    rules: Rules
    labels: tuple[str, ...]

    @property
    def label(self) -> str:
        """``variant`` or ``variant:option=value,...`` (the options off their default)."""
        return self.labels[0]


def label(variant: str, options: Mapping[str, str]) -> str:
    """``variant`` or ``variant:option=value,...``."""
    chosen = ",".join(f"{name}={value}" for name, value in options.items())
    return f"{variant}:{chosen}" if chosen else variant


def candidates(catalog: Catalog) -> tuple[list[Candidate], int]:
    """Every distinct candidate (in a variant, fewer options off their default first), and
    how many option combinations there are."""
    found: dict[tuple[object, ...], Candidate] = {}
    combinations = 0
    for variant in catalog.ids():
        default = catalog.resolve(variant)
        # per option value off the default: the rules it sets, as that value alone sets them
        # (None: it does not resolve)
        changes: dict[tuple[str, str], dict[str, Any] | None] = {}
        offered: list[list[tuple[str, str] | None]] = []
        for option in default.options:
            values: list[tuple[str, str] | None] = [None]
            for value in option.values:
                if value.name == option.default:
                    continue
                touched = {*option.value(option.default).changes, *value.changes}
                try:
                    single = catalog.resolve(variant, {option.name: value.name})
                except RulesError:
                    changes[option.name, value.name] = None
                else:
                    changes[option.name, value.name] = {r: getattr(single, r) for r in touched}
                values.append((option.name, value.name))
            offered.append(values)
        combos = [dict(filter(None, combo)) for combo in itertools.product(*offered)]
        for chosen in sorted(combos, key=len):
            combinations += 1
            rules = _combined(catalog, default, chosen, changes)
            if rules is None:
                continue
            key, name = content_key(rules), label(variant, chosen)
            if key in found:
                kept = found[key]
                found[key] = dataclasses.replace(kept, labels=(*kept.labels, name))
            else:
                found[key] = Candidate(variant, chosen, rules, (name,))
    return list(found.values()), combinations


def _combined(
    catalog: Catalog,
    default: Rules,
    chosen: Mapping[str, str],
    changes: Mapping[tuple[str, str], Mapping[str, Any] | None],
) -> Rules | None:
    """The rules of ``default``'s variant with ``chosen`` (None: they do not resolve)."""
    if not chosen:
        return default
    changed: dict[str, Any] = {}
    for name, value in chosen.items():
        single = changes[name, value]
        if single is None:
            return None
        if not changed.keys().isdisjoint(single):
            # two options set one rule: only resolving can say what that gives
            try:
                return catalog.resolve(default.variant, chosen)
            except RulesError:
                return None
        changed.update(single)
    full = {**default.chosen, **chosen}
    return dataclasses.replace(default, chosen=MappingProxyType(full), **changed)
