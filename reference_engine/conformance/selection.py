"""Choosing the conformance runs: the (case, variant) pairs that match every filter given."""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence

from .cases import Case, Target


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
            if variants and target.variant not in variants:
                continue
            runs.append((case, target))
    return runs
