"""Resolved rules as plain data and as readable text (for ``matador show``)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from .datafiles import SPEC_VERSION
from .model import Citation, Rules, as_plain
from .parameters import ValueKind, grouped, parameter
from .sources import registry

#: The rules grouped the way SPEC.md presents them (derived from the registry).
SECTIONS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {str(group): tuple(rule.name for rule in members) for group, members in grouped()}
)


def citation_data(citation: Citation) -> dict[str, str]:
    """A citation as plain data."""
    return {
        "publication": citation.publication,
        "text": citation.text,
        "section": citation.section,
        "says": citation.says,
    }


def rules_data(rules: Rules) -> dict[str, Any]:
    """Everything ``matador show --json`` prints."""
    out_rules: dict[str, Any] = {}
    for names in SECTIONS.values():
        for name in names:
            value = getattr(rules, name)
            provenance = rules.provenance.get(name)
            out_rules[name] = {
                "value": as_plain(value),
                "applicable": rules.applicable(name),
                "set_by": None
                if provenance is None
                else {
                    "variant": provenance.variant,
                    "option": None if provenance.option is None else "=".join(provenance.option),
                },
                "cite": [] if provenance is None else [citation_data(c) for c in provenance.cite],
                "gap": None if provenance is None else provenance.gap,
            }
    return {
        "spec_version": SPEC_VERSION,
        "variant": rules.variant,
        "title": rules.title,
        "publication": rules.publication,
        "summary": rules.summary,
        "chain": list(rules.chain),
        "options": {
            option.name: {
                "chosen": rules.chosen[option.name],
                "default": option.default,
                "summary": option.summary,
                "declared_by": option.variant,
                "values": {
                    value.name: {
                        "summary": value.summary,
                        "changes": list(value.changes),
                        "cite": [citation_data(c) for c in value.cite],
                    }
                    for value in option.values
                },
            }
            for option in rules.options
        },
        "rules": out_rules,
        "gaps": [
            {
                "id": gap.id,
                "kind": gap.kind.value,
                "variant": gap.variant,
                "rules": list(gap.rules),
                "about": gap.about,
                "reading": gap.reading,
                "why": gap.why,
                "alternatives": [
                    {
                        key: value
                        for key, value in (
                            ("description", alt.description),
                            ("option", alt.option),
                            ("unplayable_because", alt.unplayable_because),
                        )
                        if value is not None
                    }
                    for alt in gap.alternatives
                ],
                "cite": [citation_data(c) for c in gap.cite],
            }
            for gap in rules.gaps
        ],
        "notes": [
            {
                "kind": note.kind.value,
                "variant": note.variant,
                "text": note.text,
                "cite": [citation_data(c) for c in note.cite],
            }
            for note in rules.notes
        ],
    }


def _value_text(value: Any) -> str:
    plain = as_plain(value)
    if isinstance(plain, dict):
        return ", ".join(f"{key}: {_value_text(item)}" for key, item in plain.items())
    if isinstance(plain, list):
        return "[" + ", ".join(map(str, plain)) + "]"
    if isinstance(plain, bool):
        return "yes" if plain else "no"
    return str(plain)


def _mode_text(mode: Mapping[str, Any]) -> str:
    leaves = mode["leaves"]
    return (
        f"{mode['tiles']} matadors, on {mode['ends']} ends, fit {mode['fit']}, "
        f"{mode['shape']}, open {mode['open']}; next tile: match {leaves['match']}, "
        f"matadors {leaves['matadors']}"
    )


def _cite_text(citation: Mapping[str, str]) -> str:
    publication = registry().publications.get(citation["publication"], citation["publication"])
    return f"{publication} [text {citation['text']}, {citation['section']}]: {citation['says']}"


def rules_text(rules: Rules) -> str:
    """A readable listing of the resolved rules, their citations, gaps and notes."""
    data = rules_data(rules)
    lines = [f"{rules.variant}: {rules.title}", f"  {rules.summary}"]
    if len(rules.chain) > 1:
        lines.append("  extends: " + " <- ".join(reversed(rules.chain)))
    if rules.options:
        lines.append("options:")
        for name, option in data["options"].items():
            marker = "" if option["chosen"] == option["default"] else "  (chosen)"
            others = ", ".join(v for v in option["values"] if v != option["chosen"])
            lines.append(f"  {name}={option['chosen']}{marker}  (also: {others})")
            lines.append(f"      {option['summary']}")
    for section, names in SECTIONS.items():
        lines.append(f"{section}:")
        for name in names:
            entry = data["rules"][name]
            if not entry["applicable"]:
                continue
            if parameter(name).kind is ValueKind.MATADOR_MODES:
                lines.append(f"  {name}:")
                lines.extend(f"    - {_mode_text(mode)}" for mode in entry["value"])
            else:
                lines.append(f"  {name}: {_value_text(getattr(rules, name))}")
            set_by = entry["set_by"]
            if set_by and set_by["option"]:
                lines.append(f"      set by option {set_by['option']}")
            elif set_by and set_by["variant"] != rules.variant:
                lines.append(f"      inherited from {set_by['variant']}")
            for citation in entry["cite"]:
                lines.append(f"      cites {_cite_text(citation)}")
            if entry["gap"]:
                lines.append(f"      chosen reading: see gap {entry['gap']}")
    if rules.gaps:
        lines.append("gaps (silences, contradictions, ambiguities):")
        for gap in data["gaps"]:
            lines.append(f"  {gap['id']} [{gap['kind']}] on {', '.join(gap['rules'])}")
            lines.append(f"      the source: {gap['about']}")
            lines.append(f"      reading taken: {gap['reading']}")
            lines.append(f"      because: {gap['why']}")
            for alt in gap["alternatives"]:
                how = (
                    f"--option {alt['option']}"
                    if "option" in alt
                    else f"not offered: {alt['unplayable_because']}"
                )
                lines.append(f"      other reading: {alt['description']} ({how})")
    if rules.notes:
        lines.append("notes (not rules):")
        for note in data["notes"]:
            lines.append(f"  [{note['kind']}] {note['text']}")
    return "\n".join(lines) + "\n"
