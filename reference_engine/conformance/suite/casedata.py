"""Conformance cases: reading and checking the suite's YAML files (spec/case.schema.json).

The shipped suite is not checked against the case schema each time it is read:
it is the project's own, tests/test_startup.py checks every file of it against
the schema, and the check is a quarter of a run's time. Case files a user gives
(``--cases``) are always checked in full; the semantic checks (targets, deals,
notation) run for every file.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ...engine.actions import Action
from ...engine.deal import Deal
from ...engine.match import Match
from ...engine.state import parse_position, position_text
from ...errors import DealError, NotationError, Reason
from ...rules.catalog import Catalog
from ...rules.datafiles import data_root
from ...rules.errors import Problem, ProblemCode, RulesError
from ...rules.model import Rules
from ...rules.schema import load_schema, schema_problems
from ...rules.yamldoc import Document, read_yaml_file
from ...rules.yamldoc import Path as DocPath
from ...safeio import size_limit
from .tokens import declaration_problem

SUITE_VERSION = "1.0"


def cases_dir() -> Path:
    """Where the shipped case files are (inside the package once installed)."""
    return data_root() / "conformance" / "cases"


@cache
def case_schema() -> dict[str, Any]:
    """The case-file JSON Schema."""
    return load_schema("case.schema.json")


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
    #: The protocol error code the act (or ``request``) must be answered with.
    error_code: str | None = None
    #: A request of this type sent instead of an act.
    request: str | None = None


@dataclass(frozen=True)
class ScriptedHand:
    """A deal, its steps and the expected result."""

    deal: Mapping[str, Any]
    steps: tuple[Step, ...]
    result: Mapping[str, Any] | None
    #: The error code the engine must refuse the deal with (``bad_deal``,
    #: ``hand_in_progress``, ``match_over``), or None when it must play it.
    refuse_deal: str | None = None
    #: The position the hand starts at instead of a deal (spec/notation.md), canonical;
    #: ``deal`` then holds its hands and boneyard, as a deal writes them.
    position: str | None = None


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
    #: What is wrong with the case itself under each target (by label): a deal that
    #: breaks the variant, an option it lacks, bad notation. Empty for a sound case.
    broken: Mapping[str, tuple[Problem, ...]] = field(default_factory=dict)

    @property
    def players(self) -> int:
        """How many seats the case deals to."""
        return len(self.hands[0].deal["hands"])

    def problems_for(self, target: Target) -> tuple[Problem, ...]:
        """What is wrong with this case under ``target`` (empty when it can be run)."""
        return self.broken.get(target.label(), ())


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
        error_code=raw.get("error_code"),
        request=raw.get("request"),
    )


def _refusal(value: Any) -> str | None:
    """The code a deal must be refused with: ``refuse_deal: true`` is ``bad_deal``."""
    if value is None or value is False:
        return None
    return BAD_DEAL if value is True else str(value)


#: The code of a deal that breaks the variant.
BAD_DEAL = "bad_deal"


def _hand(raw: Mapping[str, Any]) -> ScriptedHand:
    position, deal = None, raw.get("deal")
    if "position" in raw:
        state = parse_position(str(raw["position"]))  # (NotationError: the loader says where)
        position = position_text(state)
        deal = {
            "hands": [[str(tile) for tile in held] for held in state.hands],
            "boneyard": [str(tile) for tile in state.boneyard],
        }
    return ScriptedHand(
        deal=deal or {},
        steps=tuple(_step(step) for step in raw.get("steps", ())),
        result=raw.get("result"),
        refuse_deal=_refusal(raw.get("refuse_deal")),
        position=position,
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
    shipped = paths is None
    catalog = catalog or Catalog.shipped()
    files = sorted(cases_dir().rglob("*.yaml")) if paths is None else [Path(p) for p in paths]
    cases: list[Case] = []
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    resolve = _resolver(catalog)
    for path in files:
        # safeio refuses a directory, a pipe, a device or a file over the size limit;
        # the shipped suite is read with the default limit, whatever --max-bytes says.
        with size_limit(None) if shipped else contextlib.nullcontext():
            document, found = read_yaml_file(path, trusted=shipped)
        problems.extend(found)
        if document is None:
            continue
        schema_found = [] if shipped else schema_problems(document, case_schema())
        problems.extend(schema_found)
        if schema_found:
            continue
        for index, item in enumerate(document.data["cases"]):
            try:
                case = _case(item, document, index)
            except NotationError as error:
                problems.append(
                    document.problem(
                        ProblemCode.BAD_NOTATION,
                        ("cases", index),
                        f"a position cannot be read: {error}",
                        "write it as spec/notation.md (Positions) says",
                    )
                )
                continue
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
            broken = _check_targets(case, item, document, index, resolve)
            cases.append(dataclasses.replace(case, broken=broken) if broken else case)
    return cases, problems


def _resolver(catalog: Catalog) -> Callable[[Target], Rules]:
    """``catalog.resolve`` for targets, once per target: its tables are compiled once."""
    resolved: dict[str, Rules] = {}

    def resolve(target: Target) -> Rules:
        label = target.label()
        if label not in resolved:
            resolved[label] = catalog.resolve(target.variant, target.options)
        return resolved[label]

    return resolve


def _check_targets(
    case: Case,
    raw: Mapping[str, Any],
    document: Document,
    index: int,
    resolve: Callable[[Target], Rules],
) -> dict[str, tuple[Problem, ...]]:
    """Check the case against each variant it applies to; the problems per target label."""
    broken: dict[str, tuple[Problem, ...]] = {}
    shared = _check_script(case, raw, document, index)
    for position, target in enumerate(case.applies_to):
        found = list(shared)
        path: DocPath = ("cases", index, "applies_to", position)
        try:
            rules = resolve(target)
        except RulesError as error:
            found.extend(
                document.problem(problem.code, path, problem.message, problem.fix)
                for problem in error.problems
            )
        else:
            found.extend(_check_deals(case, raw, document, index, path, rules))
        if found:
            broken[target.label()] = tuple(found)
    return broken


def _hand_paths(raw: Mapping[str, Any], index: int) -> list[DocPath]:
    if "hands" in raw:
        return [("cases", index, "hands", number) for number in range(len(raw["hands"]))]
    return [("cases", index)]


def _check_deals(
    case: Case,
    raw: Mapping[str, Any],
    document: Document,
    index: int,
    target_path: DocPath,
    rules: Rules,
) -> list[Problem]:
    """Every deal of the case against the target's rules."""
    problems: list[Problem] = []
    if case.players not in rules.players:
        problems.append(
            document.problem(
                ProblemCode.PLAYER_COUNTS,
                target_path,
                f"the case deals to {case.players} seats; {rules.variant} allows "
                f"{list(rules.players)}",
                "deal to an allowed number of seats",
            )
        )
        return problems
    for number, (hand, path) in enumerate(zip(case.hands, _hand_paths(raw, index), strict=True)):
        seats = len(hand.deal["hands"])
        if seats != case.players:
            problems.append(
                document.problem(
                    ProblemCode.BAD_DEAL,
                    (*path, "deal", "hands"),
                    f"this deal has {seats} seats; the case's first deal has {case.players}",
                    "deal to the same seats in every hand of a match",
                )
            )
            continue
        if hand.refuse_deal and (hand.steps or hand.result is not None):
            problems.append(
                document.problem(
                    ProblemCode.BAD_DEAL,
                    (*path, "refuse_deal"),
                    "a hand whose deal must be refused has no steps and no result",
                    "move the steps to a hand of their own",
                )
            )
        if hand.position is not None:
            try:
                Match(rules, seats).new_at(parse_position(hand.position))
            except DealError as error:
                problems.append(
                    document.problem(
                        ProblemCode.BAD_DEAL,
                        (*path, "position"),
                        f"the position is none of {rules.variant}: {error}",
                        "give tiles and ends of the variant's set",
                    )
                )
            continue
        breaks = hand.refuse_deal == BAD_DEAL
        try:
            Deal.from_data(dict(hand.deal), rules)
        except DealError as error:
            if not breaks:
                problems.append(
                    document.problem(
                        ProblemCode.BAD_DEAL,
                        (*path, "deal"),
                        f"the deal breaks {rules.variant}: {error}",
                        "fix the deal: every seat the variant's hand size, "
                        "each tile of the set once",
                    )
                )
        else:
            # A later hand's deal may fit the variant yet name a designated seat the
            # match's rotation does not (SPEC 6.2): that is for the match to refuse.
            rotation = number > 0 and "designated" in hand.deal
            if breaks and not rotation:
                problems.append(
                    document.problem(
                        ProblemCode.BAD_DEAL,
                        (*path, "refuse_deal"),
                        f"the deal fits {rules.variant}, so an engine must accept it",
                        "break the deal the way the case means to, or drop refuse_deal",
                    )
                )
    return problems


def _check_script(
    case: Case, raw: Mapping[str, Any], document: Document, index: int
) -> list[Problem]:
    """The rules it exercises, and the notation, seats and reason codes of every step."""
    problems: list[Problem] = []
    for number, declared in enumerate(case.exercises):
        why = declaration_problem(declared)
        if why is not None:
            problems.append(
                document.problem(
                    ProblemCode.UNKNOWN_RULE,
                    ("cases", index, "exercises", number),
                    f"exercises {declared!r}: {why}",
                    "name a rule, or RULE=VALUE as matador conform --coverage lists them",
                )
            )
    reasons = {reason.value for reason in Reason}
    for hand, path in zip(case.hands, _hand_paths(raw, index), strict=True):
        for number, step in enumerate(hand.steps):
            where: DocPath = (*path, "steps", number)
            written: list[tuple[DocPath, str]] = []
            if step.act is not None:
                written.append(((*where, "act"), step.act))
            for key, actions in (
                ("legal", step.legal or ()),
                ("includes", step.includes),
                ("excludes", step.excludes),
            ):
                written.extend(((*where, key, k), action) for k, action in enumerate(actions))
            for place, text in written:
                if step.error_code == "bad_notation" and place[-1] == "act":
                    continue  # the act is outside the notation on purpose
                try:
                    Action.parse(text)
                except NotationError as error:
                    problems.append(
                        document.problem(
                            ProblemCode.BAD_NOTATION,
                            place,
                            f"{text!r} is not an action in the notation: {error}",
                            "write actions as in spec/notation.md (6-6, 2-5@R:5, draw, pass)",
                        )
                    )
            for key, seat in (("as", step.as_seat), ("to_act", step.to_act)):
                if key == "as" and step.error_code == "no_such_seat":
                    continue  # a seat the match does not have, on purpose
                if seat is not None and seat >= case.players:
                    problems.append(
                        document.problem(
                            ProblemCode.BAD_DEAL,
                            (*where, key),
                            f"seat {seat} does not exist: the case deals to "
                            f"{case.players} seats (0..{case.players - 1})",
                            "name a seat of the deal",
                        )
                    )
            if step.error is not None and step.error not in reasons:
                problems.append(
                    document.problem(
                        ProblemCode.BAD_NOTATION,
                        (*where, "error"),
                        f"{step.error!r} is not a refusal reason code",
                        "use a reason of spec/protocol.md: " + ", ".join(sorted(reasons)),
                    )
                )
    return problems
