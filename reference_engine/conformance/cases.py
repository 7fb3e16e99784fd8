"""Conformance cases: reading and checking the suite's YAML files (spec/case.schema.json)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ..rules.catalog import Catalog, data_root, schema_problems, spec_dir
from ..rules.errors import Problem, ProblemCode, RulesError
from ..rules.yamldoc import Document, parse_yaml

SUITE_VERSION = "1.0"


def cases_dir() -> Path:
    """Where the shipped case files are (inside the package once installed)."""
    return data_root() / "conformance" / "cases"


@cache
def case_schema() -> dict[str, Any]:
    """The case-file JSON Schema."""
    return json.loads((spec_dir() / "case.schema.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Step:
    """One scripted step (see the case schema for each field)."""

    act: str | None = None
    as_seat: int | None = None
    error: str | None = None
    legal: tuple[str, ...] | None = None
    includes: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()
    ends: tuple[str, ...] | None = None
    to_act: int | None = None
    note: str | None = None


@dataclass(frozen=True)
class ScriptedHand:
    """A deal, its steps and the expected result."""

    deal: Mapping[str, Any]
    steps: tuple[Step, ...]
    result: Mapping[str, Any] | None


@dataclass(frozen=True)
class Target:
    """A variant with option values that a case applies to."""

    variant: str
    options: Mapping[str, str] = field(default_factory=dict)

    def label(self) -> str:
        """``variant`` or ``variant[name=value,...]``."""
        if not self.options:
            return self.variant
        return f"{self.variant}[{','.join(f'{k}={v}' for k, v in sorted(self.options.items()))}]"


@dataclass(frozen=True)
class Case:
    """One conformance case."""

    id: str
    description: str
    applies_to: tuple[Target, ...]
    exercises: tuple[str, ...]
    cite: tuple[Mapping[str, str], ...]
    hands: tuple[ScriptedHand, ...]
    match: Mapping[str, Any] | None
    file: str
    line: int | None

    @property
    def players(self) -> int:
        """How many seats the case deals to."""
        return len(self.hands[0].deal["hands"])


def _step(raw: Mapping[str, Any]) -> Step:
    return Step(
        act=raw.get("act"),
        as_seat=raw.get("as"),
        error=raw.get("error"),
        legal=tuple(raw["legal"]) if "legal" in raw else None,
        includes=tuple(raw.get("includes", ())),
        excludes=tuple(raw.get("excludes", ())),
        ends=tuple(raw["ends"]) if "ends" in raw else None,
        to_act=raw.get("to_act"),
        note=raw.get("note"),
    )


def _hand(raw: Mapping[str, Any]) -> ScriptedHand:
    return ScriptedHand(
        deal=raw["deal"],
        steps=tuple(_step(step) for step in raw.get("steps", ())),
        result=raw.get("result"),
    )


def _case(raw: Mapping[str, Any], document: Document, index: int) -> Case:
    hands = tuple(_hand(hand) for hand in raw["hands"]) if "hands" in raw else (_hand(raw),)
    line, _ = document.where(("cases", index))
    return Case(
        id=raw["id"],
        description=raw["description"],
        applies_to=tuple(
            Target(variant=item["variant"], options=dict(item.get("options", {})))
            for item in raw["applies_to"]
        ),
        exercises=tuple(raw["exercises"]),
        cite=tuple(raw["cite"]),
        hands=hands,
        match=raw.get("match"),
        file=document.name,
        line=line,
    )


def load_cases(
    paths: Iterable[Path] | None = None, catalog: Catalog | None = None
) -> tuple[list[Case], list[Problem]]:
    """Read case files (default: the shipped suite) and check them; returns cases and problems."""
    catalog = catalog or Catalog.shipped()
    files = sorted(cases_dir().rglob("*.yaml")) if paths is None else [Path(p) for p in paths]
    cases: list[Case] = []
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for path in files:
        try:
            raw = path.read_bytes()
        except OSError as error:
            problems.append(
                Problem(
                    code=ProblemCode.NOT_FOUND,
                    message=f"cannot read the file: {error.strerror or error}",
                    file=str(path),
                )
            )
            continue
        document, found = parse_yaml(raw, str(path))
        problems.extend(found)
        if document is None:
            continue
        schema_found = schema_problems(document, case_schema())
        problems.extend(schema_found)
        if schema_found:
            continue
        for index, item in enumerate(document.data["cases"]):
            case = _case(item, document, index)
            if case.id in seen:
                problems.append(
                    document.problem(
                        ProblemCode.DUPLICATE_ID,
                        ("cases", index, "id"),
                        f"case id {case.id!r} is also used in {seen[case.id]}",
                        "give every case its own id, and never reuse a retired one",
                    )
                )
                continue
            seen[case.id] = str(path)
            problems.extend(_check_targets(case, item, document, index, catalog))
            cases.append(case)
    return cases, problems


def _check_targets(
    case: Case, raw: Mapping[str, Any], document: Document, index: int, catalog: Catalog
) -> list[Problem]:
    problems: list[Problem] = []
    for position, target in enumerate(case.applies_to):
        path = ("cases", index, "applies_to", position)
        try:
            rules = catalog.resolve(target.variant, target.options)
        except RulesError as error:
            problems.extend(
                document.problem(problem.code, path, problem.message, problem.fix)
                for problem in error.problems
            )
            continue
        if case.players not in rules.players:
            problems.append(
                document.problem(
                    ProblemCode.PLAYER_COUNTS,
                    path,
                    f"the case deals to {case.players} seats; {target.variant} allows "
                    f"{list(rules.players)}",
                    "deal to an allowed number of seats",
                )
            )
    return problems
