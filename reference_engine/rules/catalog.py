"""The catalogue of variant files: loading them, checking them, resolving a variant.

:class:`Catalog` holds parsed variant files (read by :mod:`.variantfile`).
:meth:`Catalog.problems` checks them all (YAML, JSON Schema, references,
``extends`` chains, every option value; the semantic checks are in
:mod:`.checks`) and returns every problem found; :meth:`Catalog.resolve` turns
one variant and a choice of options into an immutable
:class:`~reference_engine.rules.model.Rules`, converting each value with
:mod:`.convert`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

# A module import: safeio imports this package's vocabulary (see yamldoc).
from .. import safeio
from .checks import check_references, check_rules
from .convert import CONDITIONAL_RULES, CONVERTERS, citations
from .datafiles import variants_dir
from .errors import OptionError, Problem, ProblemCode, RulesError, UnknownVariantError
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
from .sources import registry
from .variantfile import VariantFile, read_variant_file
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


def parse_option_assignments(items: Sequence[str]) -> dict[str, str]:
    """Turn ``["crosswise=berndt", ...]`` into a mapping; malformed or repeated ones raise."""
    chosen: dict[str, str] = {}
    problems = []
    for item in items:
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name or not value:
            problems.append(
                Problem(
                    code=ProblemCode.BAD_OPTION_SYNTAX,
                    message=f"option {item!r} is not NAME=VALUE",
                    file="<command line>",
                    fix="write it as --option NAME=VALUE",
                )
            )
        elif name in chosen and chosen[name] != value:
            problems.append(
                Problem(
                    code=ProblemCode.OPTION_CONFLICT,
                    message=f"option {name!r} given twice ({chosen[name]!r} and {value!r})",
                    file="<command line>",
                    fix="give each option once",
                )
            )
        else:
            chosen[name] = value
    if problems:
        raise OptionError(problems)
    return chosen


class Catalog:
    """A set of parsed variant files that may extend one another."""

    def __init__(self, files: Mapping[str, VariantFile], load_problems: Sequence[Problem] = ()):
        self.files = dict(files)
        self.load_problems = tuple(load_problems)
        self.given_ids: frozenset[str] = frozenset()

    # ---- loading

    @classmethod
    def load(cls, paths: Iterable[Path] | None = None, *, with_shipped: bool = True) -> Catalog:
        """Parse the shipped variants and/or the given files; schema problems are kept."""
        files: dict[str, VariantFile] = {}
        problems: list[Problem] = []
        given = [Path(path) for path in paths or ()]
        given_ids: set[str] = set()
        seen: set[Path] = set()
        for path in given:
            # realpath, not Path.resolve(): it raises on a symlink loop, which
            # read_variant_file reports as a problem of the file.
            real = Path(os.path.realpath(path))
            if real in seen:
                continue
            seen.add(real)
            variant, found = read_variant_file(path)
            problems.extend(found)
            if variant is None:
                continue
            if variant.id in files:
                problems.append(
                    variant.problem(
                        ProblemCode.DUPLICATE_ID,
                        ("id",),
                        f"variant id {variant.id!r} is also defined in "
                        f"{files[variant.id].document.name}",
                        "give each variant its own id",
                    )
                )
                continue
            files[variant.id] = variant
            given_ids.add(variant.id)
        # Shipped files fill in what the given ones do not define, so a file of
        # one's own may extend a shipped variant, or stand in for one.
        for path in sorted(variants_dir().glob("*.yaml")) if with_shipped else []:
            if Path(os.path.realpath(path)) in seen or path.stem in given_ids:
                continue
            # The project's own files: --max-bytes is about the files a user gives.
            with safeio.size_limit(None):
                variant, found = read_variant_file(path, trusted=True)
            problems.extend(found)
            if variant is not None and variant.id not in files:
                files[variant.id] = variant
        cat = cls(files, problems)
        cat.given_ids = frozenset(given_ids)
        return cat

    @classmethod
    def shipped(cls) -> Catalog:
        """The catalogue of variants shipped with the project."""
        return _shipped_catalog()

    def ids(self) -> list[str]:
        """Variant ids in alphabetical order."""
        return sorted(self.files)

    # ---- checking

    def problems(self, ids: Iterable[str] | None = None) -> list[Problem]:
        """Every problem in the given variants (default: all), including load problems."""
        found = list(self.load_problems)
        for variant_id in sorted(ids if ids is not None else self.files):
            found.extend(self._check_variant(variant_id))
        unique: dict[str, Problem] = {}
        for problem in found:
            unique.setdefault(str(problem), problem)
        return list(unique.values())

    def _check_variant(self, variant_id: str) -> list[Problem]:
        variant = self.files[variant_id]
        problems = check_references(variant, registry())
        chain, chain_problems = self._chain(variant_id)
        problems.extend(chain_problems)
        if chain_problems:
            return problems
        problems.extend(self._check_gap_ids(chain))
        options, option_problems = self._options(chain)
        problems.extend(option_problems)
        if option_problems:
            return problems
        choices: list[dict[str, str]] = [{}]
        for option, _, _ in options.values():
            for value in option.values:
                if value.name != option.default:
                    choices.append({option.name: value.name})
        for chosen in choices:
            try:
                self._resolve(chain, options, chosen)
            except RulesError as error:
                problems.extend(error.problems)
        return problems

    def _check_gap_ids(self, chain: Sequence[VariantFile]) -> list[Problem]:
        problems = []
        seen: dict[str, str] = {}
        for variant in chain:
            for index, gap in enumerate(variant.data.get("gaps", [])):
                if gap["id"] in seen:
                    problems.append(
                        variant.problem(
                            ProblemCode.DUPLICATE_GAP,
                            ("gaps", index, "id"),
                            f"gap id {gap['id']!r} is already used in {seen[gap['id']]!r}",
                            "give the gap an id of its own",
                        )
                    )
                seen[gap["id"]] = variant.id
        return problems

    # ---- resolution

    def resolve(self, variant_id: str, options: Mapping[str, str] | None = None) -> Rules:
        """The rules of ``variant_id`` with ``options`` applied; raises with every problem."""
        if variant_id not in self.files:
            raise UnknownVariantError(
                [
                    Problem(
                        code=ProblemCode.UNKNOWN_VARIANT,
                        message=f"no variant {variant_id!r}",
                        file="<request>",
                        fix="known variants: " + ", ".join(self.ids()),
                    )
                ]
            )
        chain, problems = self._chain(variant_id)
        if problems:
            raise RulesError(problems)
        declared, problems = self._options(chain)
        if problems:
            raise RulesError(problems)
        return self._resolve(chain, declared, dict(options or {}))

    def _chain(self, variant_id: str) -> tuple[list[VariantFile], list[Problem]]:
        chain: list[VariantFile] = []
        current: str | None = variant_id
        while current is not None:
            variant = self.files[current]
            if variant in chain:
                names = " -> ".join([v.id for v in chain] + [current])
                return [], [
                    chain[-1].problem(
                        ProblemCode.EXTENDS_CYCLE,
                        ("extends",),
                        f"extends cycle: {names}",
                        "make one of these variants stand on its own",
                    )
                ]
            chain.append(variant)
            parent = variant.data.get("extends")
            if parent is not None and parent not in self.files:
                return [], [
                    variant.problem(
                        ProblemCode.MISSING_PARENT,
                        ("extends",),
                        f"extends {parent!r}, which is not a known variant",
                        "known variants: " + ", ".join(self.ids()),
                    )
                ]
            current = parent
        chain.reverse()
        return chain, []

    def _options(
        self, chain: Sequence[VariantFile]
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

    def _resolve(
        self,
        chain: Sequence[VariantFile],
        declared: Mapping[str, tuple[Option, VariantFile, dict[str, Any]]],
        chosen: Mapping[str, str],
    ) -> Rules:
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
                        fix="options: " + (", ".join(sorted(declared)) or "none"),
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
                        fix="values: " + ", ".join(v.name for v in option.values),
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


@cache
def _shipped_catalog() -> Catalog:
    return Catalog.load()
