"""What the project ships, for every test: the variant files in the order of its sources, and
the conformance cases, read and run by the reference engine once per test process."""

from __future__ import annotations

from functools import cache

from reference_engine.conformance.protocol.interface import ReferenceEngine
from reference_engine.conformance.session.runner import CaseRun, Runner, select
from reference_engine.conformance.suite.casedata import Case, load_cases
from reference_engine.rules import Problem

#: The id of every shipped variant file.
SHIPPED_VARIANTS: tuple[str, ...] = (
    "pagat",
    "wikipedia-brandreth",
    "gamerules-com",
    "britannica-1911",
    "jeux-de-hasard",
    "polish-base",
    "polish",
    "dutch",
    "german",
    "house",
    "dominorules-com",
    "cardsdicedominoes-com",
    "xs4all-matador",
    "matadore-19th-century",
    "bonaludo-com",
)


@cache
def shipped_cases() -> tuple[tuple[Case, ...], tuple[Problem, ...]]:
    """The shipped conformance cases and their problems, read and checked once per test process.

    Reading the suite takes about a third of a second; the cases are frozen, so
    every test module may share them. Each caller checks the problems itself.
    """
    cases, problems = load_cases()
    return tuple(cases), tuple(problems)


@cache
def reference_runs() -> tuple[CaseRun, ...]:
    """The reference engine's run of every shipped case, in process, once per test process.

    Several modules check what it gives (every case passes, every rule holds);
    they only read the runs.
    """
    cases, _ = shipped_cases()
    return tuple(Runner(ReferenceEngine).run(select(cases)))
