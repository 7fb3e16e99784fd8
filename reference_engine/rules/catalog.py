"""The catalogue of variant files: loading them, checking them, finding a variant's chain.

:class:`Catalog` holds parsed variant files (read by :mod:`.variantfile`).
:meth:`Catalog.problems` checks them all (YAML, JSON Schema, references,
``extends`` chains, every option value; the semantic checks are in
:mod:`.checks`) and returns every problem found; :meth:`Catalog.resolve` finds
one variant's ``extends`` chain and has :mod:`.resolve` turn it and a choice of
options into an immutable :class:`~reference_engine.rules.model.Rules`.

The reader, the checks and the resolver are imported when first used, so that
a command that only names :class:`Catalog` in its module loads none of them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

# A module import: safeio imports this package's vocabulary (see yamldoc).
from .. import safeio
from ..text.suggest import with_suggestion
from .datafiles import variants_dir
from .errors import Problem, ProblemCode, RulesError, UnknownVariantError

if TYPE_CHECKING:
    from .model import Rules
    from .variantfile import VariantFile


class Catalog:
    """A set of parsed variant files that may extend one another."""

    def __init__(self, files: Mapping[str, VariantFile], load_problems: Sequence[Problem] = ()):
        self.files = dict(files)
        self.load_problems = tuple(load_problems)
        self.given_ids: frozenset[str] = frozenset()
        #: Each variant's extends chain and the options it offers, found once: they
        #: depend only on the files, and resolving with options needs them each time.
        self._prepared: dict[str, tuple[list[VariantFile], dict[str, Any]]] = {}
        #: The rules resolved so far, by variant and options: they are immutable and
        #: depend only on the files, and the runner asks for the same ones case after case.
        self._resolved: dict[tuple[str, frozenset[tuple[str, str]]], Rules] = {}

    # ---- loading

    @classmethod
    def load(cls, paths: Iterable[Path] | None = None, *, with_shipped: bool = True) -> Catalog:
        """Parse the shipped variants and/or the given files; schema problems are kept."""
        from .variantfile import read_variant_file

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
            # The project's own files: --max-bytes is about the files a user gives,
            # and the schema is checked when they are validated (see variantfile).
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
        from .checks import check_references
        from .resolve import offered_options, resolve_chain
        from .sources import registry
        from .variantfile import unchecked_problems

        variant = self.files[variant_id]
        problems = unchecked_problems(variant)
        if problems:
            return problems
        problems = check_references(variant, registry())
        chain, chain_problems = self._chain(variant_id)
        problems.extend(chain_problems)
        if chain_problems:
            return problems
        problems.extend(self._check_gap_ids(chain))
        options, option_problems = offered_options(chain)
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
                resolve_chain(chain, options, chosen)
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
        """The rules of ``variant_id`` with ``options`` applied; raises with every problem.

        The same variant and options give the very same (immutable) rules object.
        """
        from .resolve import offered_options, resolve_chain

        if variant_id not in self.files:
            raise UnknownVariantError(
                [
                    Problem(
                        code=ProblemCode.UNKNOWN_VARIANT,
                        message=f"no variant {variant_id!r}",
                        file="<request>",
                        fix=with_suggestion(
                            "known variants: " + ", ".join(self.ids()), variant_id, self.ids()
                        ),
                    )
                ]
            )
        prepared = self._prepared.get(variant_id)
        if prepared is None:
            chain, problems = self._chain(variant_id)
            if problems:
                raise RulesError(problems)
            declared, problems = offered_options(chain)
            if problems:
                raise RulesError(problems)
            prepared = self._prepared[variant_id] = (chain, declared)
        chain, declared = prepared
        chosen = dict(options or {})
        try:
            key = (variant_id, frozenset(chosen.items()))
        except TypeError:  # a value that is not even hashable: resolve_chain says what is wrong
            return resolve_chain(chain, declared, chosen)
        rules = self._resolved.get(key)
        if rules is None:
            rules = self._resolved[key] = resolve_chain(chain, declared, chosen)
        return rules

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


@cache
def _shipped_catalog() -> Catalog:
    return Catalog.load()
