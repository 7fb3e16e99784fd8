"""Resolved rules as plain data and as readable text (for ``matador show``)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .datafiles import SPEC_VERSION
from .model import Citation, Rules, as_plain
from .parameters import ValueKind, grouped, parameter
from .sources import registry

if TYPE_CHECKING:
    from ..text.tables import Style

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
                            ("lacks", alt.lacks),
                            ("not_offered_because", alt.not_offered_because),
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
        return ", ".join(map(str, plain))
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


def rules_text(rules: Rules) -> str:
    """``matador show`` output as 80-column tables."""
    from ..text.tables import Style

    return "\n".join(rules_lines(rules, Style())) + "\n"


def _citation_line(citation: Mapping[str, str]) -> str:
    publication = registry().publications.get(citation["publication"], citation["publication"])
    return f"{publication}, text {citation['text']}, {citation['section']}: {citation['says']}"


def _rule_value(rules: Rules, name: str, entry: Mapping[str, Any]) -> str:
    if parameter(name).kind is ValueKind.MATADOR_MODES:
        return "\n".join(_mode_text(mode) for mode in entry["value"])
    return _value_text(getattr(rules, name))


def rules_lines(rules: Rules, style: Style) -> list[str]:
    """``matador show`` as tables that fit ``style.width``: the options, then the rules of
    each group of the specification (value, citations by number, the gap a value reads),
    each group's new citations in full below it, then the gaps and the notes."""
    from ..text.tables import Cell, Column, key_lines, prose, render, table

    data = rules_data(rules)
    out = [style.strong(line) for line in prose(f"{rules.variant}: {rules.title}", style.width)]
    out += prose(rules.summary, style.width, "  ")
    if len(rules.chain) > 1:
        out.append("  extends: " + " <- ".join(reversed(rules.chain)))
    if rules.options:
        rows: list[list[Cell | str]] = []
        for name, option in data["options"].items():
            chosen = option["chosen"] != option["default"]
            others = ", ".join(v for v in option["values"] if v != option["chosen"])
            value = f"{name}={option['chosen']}" + (" (chosen)" if chosen else "")
            rows.append([Cell(value, marked=chosen), others, option["summary"]])
        # A value is never broken: each column is at least as wide as its longest
        # NAME=VALUE (marked with * off a terminal) or VALUE with its comma.
        longest = max(len(value.name) + 1 for option in rules.options for value in option.values)
        assignment = max(
            len(f"*{name}={option['chosen']}") for name, option in data["options"].items()
        )
        columns = [
            Column("option", narrowest=assignment),
            Column("other values", widest=max(style.width // 4, longest), narrowest=longest),
            Column("about"),
        ]
        out += ["", style.strong("options (choose with --option NAME=VALUE)")]
        out += render(table(columns, rows), style)
    numbers: dict[tuple[str, ...], int] = {}
    for section, names in SECTIONS.items():
        rows, new = [], []
        for name in names:
            entry = data["rules"][name]
            if not entry["applicable"]:
                continue
            refs = []
            for citation in entry["cite"]:
                key = tuple(citation.values())
                if key not in numbers:
                    numbers[key] = len(numbers) + 1
                    new.append((f"[{numbers[key]}]", _citation_line(citation)))
                refs.append(f"[{numbers[key]}]")
            set_by = entry["set_by"]
            if set_by and set_by["option"]:
                refs.append(f"set by option {set_by['option']}")
            elif set_by and set_by["variant"] != rules.variant:
                refs.append(f"inherited from {set_by['variant']}")
            rows.append([name, _rule_value(rules, name, entry), " ".join(refs), entry["gap"] or ""])
        out += ["", style.strong(section)]
        out += render(table(["rule", "value", "cited", "reading of gap"], rows), style)
        out += key_lines(new, style.width, indent="")
    if rules.gaps:
        out += ["", style.strong("gaps (silences, contradictions, ambiguities)")]
        for gap in data["gaps"]:
            out += prose(f"{gap['id']} [{gap['kind']}] on {', '.join(gap['rules'])}", style.width)
            told = [("the source", gap["about"]), ("reading", gap["reading"])]
            told.append(("because", gap["why"]))
            for alt in gap["alternatives"]:
                how = (
                    f"--option {alt['option']}"
                    if "option" in alt
                    else "not offered: "
                    + (alt.get("unplayable_because") or alt.get("not_offered_because") or "")
                )
                told.append(("or", f"{alt['description']} ({how})"))
            out += key_lines(told, style.width, indent="  ")
    if rules.notes:
        out += ["", style.strong("notes (not rules)")]
        for note in data["notes"]:
            out += prose(f"[{note['kind']}] {note['text']}", style.width, "  ", "")
    return out


def rules_markdown(rules: Rules) -> list[str]:
    """``matador show --format markdown``: the same tables in Markdown, citations in full."""
    from ..text.tables import Cell, markdown, table

    data = rules_data(rules)
    out = [f"# {rules.variant}: {rules.title}", "", " ".join(rules.summary.split())]
    if rules.options:
        rows = [
            [
                Cell(f"{name}={option['chosen']}", marked=option["chosen"] != option["default"]),
                ", ".join(v for v in option["values"] if v != option["chosen"]),
                option["summary"],
            ]
            for name, option in data["options"].items()
        ]
        out += ["", "## options", "", *markdown(table(["option", "other values", "about"], rows))]
    for section, names in SECTIONS.items():
        rows = [
            [
                name,
                _rule_value(rules, name, entry),
                "\n".join(_citation_line(c) for c in entry["cite"]),
                entry["gap"] or "",
            ]
            for name in names
            if (entry := data["rules"][name])["applicable"]
        ]
        out += ["", f"## {section}", ""]
        out += markdown(table(["rule", "value", "cited", "reading of gap"], rows))
    if rules.gaps:
        out += ["", "## gaps", ""]
        rows = [
            [g["id"], g["kind"], ", ".join(g["rules"]), g["about"], g["reading"], g["why"]]
            for g in data["gaps"]
        ]
        out += markdown(table(["gap", "kind", "rules", "the source", "reading", "because"], rows))
    if rules.notes:
        out += ["", "## notes", ""] + [f"- [{n['kind']}] {n['text']}" for n in data["notes"]]
    return out
