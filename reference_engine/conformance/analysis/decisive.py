"""Which rule values the cases check decisively: a legal-set check whose answer the value decides.

A case that declares ``pass_when=no_play`` may never look at a position where
``pass_when`` changes the answer (a player who cannot draw and holds a tile
that fits): every pass it checks may be forced. To tell, each case is run
with the in-process reference engine under the rules of each of its targets
with one rule set to another of its values; if its first failing expectation
is then a ``legal``, ``includes`` or ``excludes`` check, that check is
decisive for the value in force against the other value.

Only the closed rules that decide the turn are varied (those the registry says
decide drawing and passing). A change that makes another closed rule apply
sets that one to its first value (``draw_when: no_play`` over ``never`` draws
``unlimited``; ``draws_per_turn: one`` lets the drawn tile be kept).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from ...rules import Catalog, Rules
from ...rules.kinds import Decides
from ...rules.parameters import BY_NAME, as_text_value, deciding
from ..judging.counterfactual import altered
from ..judging.verdicts import Check
from ..protocol.interface import ReferenceEngine
from ..session.runner import Runner, select
from ..suite.casedata import Case

#: The rules varied: closed ones that decide what a player may do in a turn.
VARIED: tuple[str, ...] = tuple(
    name
    for name in deciding(Decides.DRAW, Decides.PASS, Decides.SECOND_DRAW, Decides.AFTER_DRAW)
    if BY_NAME[name].values is not None
)

#: The checks of a legal set.
LEGAL_CHECKS = frozenset({Check.LEGAL, Check.INCLUDES, Check.EXCLUDES})


def token(rule: str, value: object) -> str:
    """``rule=value`` as a case declares it."""
    return f"{rule}={as_text_value(value)}"


class _Altered(Catalog):
    """A catalogue resolving every variant with one rule set to another value (where it may)."""

    def __init__(self, base: Catalog, rule: str, value: object) -> None:
        super().__init__(base.files)
        self._rule, self._value = rule, value

    def resolve(self, variant_id: str, options: Mapping[str, str] | None = None) -> Rules:
        rules = super().resolve(variant_id, options)
        return altered(rules, self._rule, self._value) or rules


@dataclass(frozen=True)
class Run:
    """One case run under one target."""

    case: str
    variant: str
    target: str

    def __str__(self) -> str:
        return f"{self.case} [{self.target}]"


@dataclass(frozen=True)
class Decisive:
    """For each ``rule=value`` in force under some case's target: each other value of the
    rule, and the case runs whose legal-set checks tell the two apart."""

    against: dict[str, dict[str, list[Run]]]

    def cases(self, rule_value: str) -> set[str]:
        """The ids of the cases with a decisive check of ``rule_value``."""
        return {run.case for runs in self.against.get(rule_value, {}).values() for run in runs}

    def untold(self, rule_value: str) -> list[str]:
        """The other values that no check tells ``rule_value`` apart from."""
        return [other for other, runs in self.against.get(rule_value, {}).items() if not runs]

    def per_variant(self, rule: str) -> dict[str, set[str]]:
        """Variant -> the ids of its cases with a decisive check of some value of ``rule``."""
        found: dict[str, set[str]] = {}
        for rule_value, others in self.against.items():
            if rule_value.split("=", 1)[0] == rule:
                for runs in others.values():
                    for run in runs:
                        found.setdefault(run.variant, set()).add(run.case)
        return found

    def decided_under(self, target: str, rule: str) -> bool:
        """Whether some run under ``target`` (a label) checks a legal set ``rule`` decides."""
        return any(
            run.target == target
            for rule_value, others in self.against.items()
            if rule_value.split("=", 1)[0] == rule
            for runs in others.values()
            for run in runs
        )

    def as_data(self) -> dict[str, dict[str, list[str]]]:
        """The runs as ``case [target]`` strings, for JSON."""
        return {
            rule_value: {other: sorted(map(str, runs)) for other, runs in others.items()}
            for rule_value, others in sorted(self.against.items())
        }


def _checks_legal_sets(case: Case) -> bool:
    return any(
        step.legal is not None or step.includes or step.excludes
        for hand in case.hands
        for step in hand.steps
    )


def decisive_checks(
    cases: Sequence[Case], catalog: Catalog, progress: Callable[[int, int], None] | None = None
) -> Decisive:
    """Replay every case run under each other value of each varied rule (see the module);
    ``progress(done, total)`` is told of each replay."""
    runs = [
        (case, target)
        for case, target in select(cases)
        if _checks_legal_sets(case) and not case.problems_for(target)
    ]
    resolved = {
        target.label(): catalog.resolve(target.variant, target.options) for _, target in runs
    }
    against: dict[str, dict[str, list[Run]]] = {}
    plan = [
        (
            rule,
            value,
            [
                (case, target)
                for case, target in runs
                if altered(resolved[target.label()], rule, value) is not None
            ],
        )
        for rule in VARIED
        for value in BY_NAME[rule].values or ()
    ]
    total, done = sum(len(changed) for _, _, changed in plan), 0
    for rule, value, changed in plan:
        for _, target in changed:
            against.setdefault(token(rule, getattr(resolved[target.label()], rule)), {}).setdefault(
                as_text_value(value), []
            )
        if not changed:
            continue
        engine_catalog = _Altered(catalog, rule, value)
        runner = Runner(partial(ReferenceEngine, engine_catalog), catalog=catalog, fail_fast=True)
        for result in runner.each(changed):
            done += 1
            if progress is not None:
                progress(done, total)
            if result.deviations and result.deviations[0].check in LEGAL_CHECKS:
                in_force = token(rule, getattr(resolved[result.target.label()], rule))
                target = result.target
                run = Run(result.case, target.variant, target.label())
                against[in_force][as_text_value(value)].append(run)
    return Decisive(against)


@dataclass(frozen=True)
class Unchecked:
    """A rule value that cases declare under a target but never check decisively there."""

    rule_value: str
    target: str
    cases: tuple[str, ...]

    def __str__(self) -> str:
        ids = ", ".join(self.cases[:3]) + (", ..." if len(self.cases) > 3 else "")
        return (
            f"UNCHECKED {self.rule_value} under {self.target}: exercised by {ids}, but no"
            " legal-set check there changes with it"
        )


def unchecked(cases: Sequence[Case], catalog: Catalog, decisive: Decisive) -> list[Unchecked]:
    """Each varied rule's value that a case declares under a target where no case's
    legal-set check is decisive for the rule."""
    declared: dict[tuple[str, str], list[str]] = {}
    for case, target in select(cases):
        if case.problems_for(target):
            continue
        rules = catalog.resolve(target.variant, target.options)
        for rule in VARIED:
            value = token(rule, getattr(rules, rule))
            if rules.applicable(rule) and any(d in (rule, value) for d in case.exercises):
                declared.setdefault((value, target.label()), []).append(case.id)
    return [
        Unchecked(value, label, tuple(ids))
        for (value, label), ids in sorted(declared.items())
        if not decisive.decided_under(label, value.split("=", 1)[0])
    ]
