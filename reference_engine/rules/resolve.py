"""Resolving a variant: the options its extends chain offers, and the Rules a choice makes.

:func:`offered_options` gathers the options a chain of variant files offers
(declared by the leaf, or inherited and not dropped), with what is wrong with
them; :func:`resolve_chain` applies a choice of those options to the chain,
converts each rule value with :mod:`.convert` and returns the immutable
:class:`~reference_engine.rules.model.Rules`, checked as a whole by
:mod:`.checks`. The chain itself is the catalogue's to find
(:class:`~reference_engine.rules.catalog.Catalog`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..text.suggest import with_suggestion
from .checks import check_rules
from .convert import CONDITIONAL_RULES, CONVERTERS, citations
from .errors import OptionError, Problem, ProblemCode, RulesError
from .model import (
    Alternative,
    Citation,
    Gap,
    Note,
    Option,
    OptionValue,
    Provenance,
    Rules,
)
from .variantfile import VariantFile
from .vocabulary import (
    GapKind,
    NoteKind,
)
from .yamldoc import Path as DocPath


@dataclass(frozen=True)
class _Entry:
    """A rule entry as found in a file, with where it was found."""

    value: Any
    cite: tuple[Citation, ...]
    gap: str | None
    source: VariantFile
    path: DocPath
    option: tuple[str, str] | None


def offered_options(
    chain: Sequence[VariantFile],
) -> tuple[dict[str, tuple[Option, VariantFile, dict[str, Any]]], list[Problem]]:
    """The options a chain offers: declared by the leaf or inherited and not dropped."""
    declared: dict[str, tuple[Option, VariantFile, dict[str, Any]]] = {}
    problems: list[Problem] = []
    overridden_since: dict[str, set[str]] = {}
    for depth, variant in enumerate(chain):
        data = variant.data
        for index, name in enumerate(data.get("drop_options", [])):
            if name not in declared:
                problems.append(
                    variant.problem(
                        ProblemCode.UNKNOWN_OPTION,
                        ("drop_options", index),
                        f"drops option {name!r}, which no parent offers",
                        "remove it from drop_options",
                    )
                )
            declared.pop(name, None)
        own_rules = set(data.get("rules", {}))
        for name in declared:
            overridden_since.setdefault(name, set()).update(own_rules)
        for name, raw in data.get("options", {}).items():
            option = _option(name, raw, variant.id)
            if option.default not in {value.name for value in option.values}:
                problems.append(
                    variant.problem(
                        ProblemCode.BAD_DEFAULT,
                        ("options", name, "default"),
                        f"default {option.default!r} is not one of the option's values",
                        "values: " + ", ".join(v.name for v in option.values),
                    )
                )
            declared[name] = (option, variant, raw)
            overridden_since[name] = set()
        if depth == len(chain) - 1:
            for name, (_, owner, raw) in declared.items():
                if owner is variant:
                    continue
                touched = {
                    rule for value in raw["values"].values() for rule in value.get("rules", {})
                }
                clash = sorted(touched & overridden_since.get(name, set()))
                if clash:
                    problems.append(
                        variant.problem(
                            ProblemCode.INHERITED_OPTION_CLASH,
                            ("rules", clash[0]),
                            f"inherited option {name!r} (from {owner.id!r}) would replace "
                            f"{', '.join(clash)}, which this variant sets",
                            f"redeclare option {name!r} here or list it in drop_options",
                        )
                    )
    return declared, problems


def resolve_chain(
    chain: Sequence[VariantFile],
    declared: Mapping[str, tuple[Option, VariantFile, dict[str, Any]]],
    chosen: Mapping[str, str],
) -> Rules:
    """The rules of ``chain`` with ``chosen`` options applied; raises with every problem.

    ``declared`` is what :func:`offered_options` found for the chain.
    """
    leaf = chain[-1]
    problems: list[Problem] = []
    option_problems = []
    for name, value in chosen.items():
        if name not in declared:
            option_problems.append(
                Problem(
                    code=ProblemCode.UNKNOWN_OPTION,
                    message=f"variant {leaf.id!r} has no option {name!r}",
                    file="<options>",
                    fix=with_suggestion(
                        "options: " + (", ".join(sorted(declared)) or "none"), name, declared
                    ),
                )
            )
            continue
        option = declared[name][0]
        if value not in {v.name for v in option.values}:
            option_problems.append(
                Problem(
                    code=ProblemCode.UNKNOWN_OPTION_VALUE,
                    message=f"option {name!r} of {leaf.id!r} has no value {value!r}",
                    file="<options>",
                    fix=with_suggestion(
                        "values: " + ", ".join(v.name for v in option.values),
                        value,
                        (v.name for v in option.values),
                    ),
                )
            )
    if option_problems:
        raise OptionError(option_problems)

    entries: dict[str, _Entry] = {}
    for variant in chain:
        for rule, raw in variant.data.get("rules", {}).items():
            entries[rule] = _Entry(
                value=raw["value"],
                cite=citations(raw.get("cite")),
                gap=raw.get("gap"),
                source=variant,
                path=("rules", rule),
                option=None,
            )
    set_by_option: dict[str, str] = {}
    full_choice: dict[str, str] = {}
    for name, (option, owner, raw) in declared.items():
        value_name = chosen.get(name, option.default)
        full_choice[name] = value_name
        overlay = raw["values"][value_name].get("rules", {})
        for rule, rule_raw in overlay.items():
            if rule in set_by_option:
                problems.append(
                    owner.problem(
                        ProblemCode.OPTION_CONFLICT,
                        ("options", name, "values", value_name, "rules", rule),
                        f"options {set_by_option[rule]!r} and {name}={value_name} "
                        f"both set {rule!r}",
                        "choose only one of them",
                    )
                )
                continue
            set_by_option[rule] = f"{name}={value_name}"
            entries[rule] = _Entry(
                value=rule_raw["value"],
                cite=citations(rule_raw.get("cite")),
                gap=rule_raw.get("gap"),
                source=owner,
                path=("options", name, "values", value_name, "rules", rule),
                option=(name, value_name),
            )
    if problems:
        raise RulesError(problems)

    values: dict[str, Any] = {}
    for rule, convert in CONVERTERS.items():
        values[rule] = convert(entries[rule].value) if rule in entries else None
    missing = [
        rule for rule in CONVERTERS if values[rule] is None and rule not in CONDITIONAL_RULES
    ]
    if missing:
        raise RulesError(
            [
                leaf.problem(
                    ProblemCode.MISSING_RULE,
                    ("rules",),
                    f"rule {rule!r} is not given by {leaf.id!r} or any variant it extends",
                    f"add rules.{rule}",
                )
                for rule in missing
            ]
        )

    gaps = _gaps(chain, entries)
    notes = tuple(
        Note(
            kind=NoteKind(raw["kind"]),
            text=raw["text"],
            cite=citations(raw["cite"]),
            variant=variant.id,
        )
        for variant in chain
        for raw in variant.data.get("notes", [])
    )
    head = {key: leaf.data[key] for key in ("title", "publication", "summary")}
    rules = Rules(
        variant=leaf.id,
        title=head["title"],
        publication=head["publication"],
        summary=head["summary"],
        chain=tuple(variant.id for variant in chain),
        options=tuple(option for option, _, _ in declared.values()),
        chosen=MappingProxyType(full_choice),
        provenance=MappingProxyType(
            {
                rule: Provenance(
                    rule=rule,
                    variant=entry.source.id,
                    option=entry.option,
                    cite=entry.cite,
                    gap=entry.gap,
                )
                for rule, entry in entries.items()
            }
        ),
        gaps=gaps,
        notes=notes,
        **values,
    )
    problems = [
        entries[rule].source.problem(code, entries[rule].path, message, fix)
        if rule in entries
        else leaf.problem(code, ("rules",), message, fix)
        for rule, code, message, fix in check_rules(rules)
    ]
    if problems:
        raise RulesError(problems)
    return rules


def _option(name: str, raw: Mapping[str, Any], variant: str) -> Option:
    return Option(
        name=name,
        summary=raw["summary"],
        default=raw["default"],
        values=tuple(
            OptionValue(
                name=value_name,
                summary=value["summary"],
                cite=citations(value.get("cite")),
                changes=tuple(value.get("rules", {})),
            )
            for value_name, value in raw["values"].items()
        ),
        variant=variant,
    )


def _gaps(chain: Sequence[VariantFile], entries: Mapping[str, _Entry]) -> tuple[Gap, ...]:
    """The gaps still in force: those whose file still provides one of their rules."""
    gaps = []
    for variant in chain:
        for raw in variant.data.get("gaps", []):
            if not any(
                rule in entries and entries[rule].source is variant for rule in raw["rules"]
            ):
                continue
            gaps.append(
                Gap(
                    id=raw["id"],
                    kind=GapKind(raw["kind"]),
                    rules=tuple(raw["rules"]),
                    about=raw["about"],
                    reading=raw["reading"],
                    why=raw["why"],
                    alternatives=tuple(Alternative(**alt) for alt in raw["alternatives"]),
                    cite=citations(raw.get("cite")),
                    variant=variant.id,
                )
            )
    return tuple(gaps)
