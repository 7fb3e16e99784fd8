"""Choosing the conformance runs: the case files to read, and the (case, variant) pairs
that match every filter given (``matador conform`` and ``matador cases`` share both)."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Collection, Sequence
from pathlib import Path

from ...text.suggest import did_you_mean
from .casedata import Case, Target
from .tokens import declaration_problem


def case_paths(items: Sequence[str]) -> list[Path] | None:
    """The case files ``--cases`` names (a folder: every YAML file under it); None: the suite."""
    if not items:
        return None
    paths: list[Path] = []
    for item in items:
        path = Path(item)
        # os.path.isdir answers False for a name too long to look up, where Path.is_dir raises.
        paths.extend(sorted(path.rglob("*.yaml")) if os.path.isdir(item) else [path])
    return paths


def case_inputs_problem(items: Sequence[str]) -> str | None:
    """What is wrong with the case files and folders ``--cases`` names, or None:
    a path that does not exist, or a folder with no case file (``*.yaml``) in it."""
    missing = [item for item in items if not os.path.exists(item)]
    if missing:
        return f"no such file or folder: {', '.join(missing)}"
    for item in items:
        if os.path.isdir(item) and next(Path(item).rglob("*.yaml"), None) is None:
            return f"no case file (*.yaml) in {item}"
    return None


def filter_problem(
    variants: Sequence[str], rules: Sequence[str], known: Collection[str]
) -> str | None:
    """What is wrong with the ``--variant`` and ``--rule`` filters, or None: a variant
    not among ``known``, or a rule token that names no rule or value."""
    unknown = [wanted for wanted in variants if variant_id(wanted) not in known]
    if unknown:
        hints = [did_you_mean(variant_id(wanted), known) for wanted in unknown]
        hint = " ".join(hint for hint in hints if hint)
        return (
            f"unknown variant(s) {', '.join(unknown)}; {hint + ' ' if hint else ''}see matador list"
        )
    for rule in rules:
        why = declaration_problem(rule)
        if why is not None:
            return f"--rule: {why}"
    return None


def nothing_selected(cases: Sequence[Case], case_globs: Sequence[str]) -> str:
    """Why a selection found no case run, with the nearest case ids for an id that
    names no case (a pattern with wildcards is taken as it is)."""
    ids = [case.id for case in cases]
    hints = [
        f"no case has the id {glob!r}" + (f"; {hint}" if (hint := did_you_mean(glob, ids)) else "")
        for glob in case_globs
        if not any(char in glob for char in "*?[")
        and not any(fnmatch.fnmatchcase(case_id, glob) for case_id in ids)
    ]
    return "; ".join(["no case matches the selection", *hints])


def select(
    cases: Sequence[Case],
    *,
    variants: Sequence[str] = (),
    case_globs: Sequence[str] = (),
    rules: Sequence[str] = (),
) -> list[tuple[Case, Target]]:
    """The (case, variant) runs matching every given filter."""
    runs = []
    for case in cases:
        if case_globs and not any(fnmatch.fnmatchcase(case.id, glob) for glob in case_globs):
            continue
        if rules and not any(
            exercised == rule or exercised.split("=", 1)[0] == rule
            for exercised in case.exercises
            for rule in rules
        ):
            continue
        for target in case.applies_to:
            if variants and not any(_chooses(wanted, target) for wanted in variants):
                continue
            runs.append((case, target))
    return runs


def variant_id(wanted: str) -> str:
    """The variant id of a ``--variant`` filter: ``ID`` or ``ID:NAME=VALUE,...``."""
    return wanted.partition(":")[0]


def _chooses(wanted: str, target: Target) -> bool:
    """Whether the filter ``ID`` (every run of the variant) or ``ID:NAME=VALUE,...`` (the
    runs under those option values, each given in the case) takes ``target``."""
    identifier, _, options = wanted.partition(":")
    if target.variant != identifier:
        return False
    for assignment in filter(None, options.split(",")):
        name, _, value = assignment.partition("=")
        if target.options.get(name.strip()) != value.strip():
            return False
    return True
