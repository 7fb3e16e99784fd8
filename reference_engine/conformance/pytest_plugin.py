"""A pytest plugin: run the conformance cases as tests of a Python engine.

Installed with the package (entry point ``pytest11``). It does nothing unless
asked: ``pytest --matador-engine MODULE:FACTORY`` (or ``FILE.py:FACTORY``, or
the ``matador_engine`` setting of the project's pytest configuration) adds one
test per case and variant, named ``matador[CASE-ID][VARIANT]``, that fails with
the runner's failure text (the step, the expected and actual legal sets, the
history) and is skipped when the engine does not declare the variant.
``--matador-variant`` and ``--matador-case`` (a glob) narrow the selection.

It works from any project: the cases and variants are the installed package's
own data (:mod:`~reference_engine.rules.datafiles`), never files under the
rootdir, and the engine's module or file is looked for in the folder pytest was
started from, then in the rootdir, before the Python path. The engine runs in a
process of its own, under ``--matador-timeout`` and ``--matador-start-timeout``
as ``matador conform`` runs it; ``--matador-in-process`` loads it into pytest's
process instead (faster, trusting its code).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from .. import sinks
from ..errors import EngineProblem
from ..pyload import check_spec
from .protocol.interface import Engine, EngineSpecError, load_python_engine
from .reports.runreport import failure_text
from .session.runner import Runner, Verdict, select
from .suite.casedata import Case, Target, load_cases
from .transport import pyhost
from .transport.process import ProcessEngine

_RUNNER = pytest.StashKey[Runner]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("matador", "Matador conformance cases")
    group.addoption(
        "--matador-engine",
        metavar="MODULE:FACTORY",
        help="run the Matador conformance cases against this Python engine "
        "(MODULE:FACTORY or path/to/file.py:FACTORY)",
    )
    parser.addini(
        "matador_engine",
        "the Python engine --matador-engine runs the cases against when it is not given",
        default="",
    )
    group.addoption(
        "--matador-timeout",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="the deadline of each request to the engine (default 5)",
    )
    group.addoption(
        "--matador-start-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="the deadline of the engine's start and handshake (default 10)",
    )
    group.addoption(
        "--matador-in-process",
        action="store_true",
        help="load the engine into pytest's own process (faster; it trusts the engine's code) "
        "instead of a process of its own",
    )
    group.addoption(
        "--matador-variant", action="append", default=[], help="only cases of this variant"
    )
    group.addoption(
        "--matador-case", action="append", default=[], metavar="GLOB", help="only these case ids"
    )


class MatadorCaseFailure(EngineProblem):
    """A case failed or errored against the engine under test."""


class MatadorCaseItem(pytest.Item):
    """One conformance case under one variant."""

    def __init__(self, *, case: Case, target: Target, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.target = target

    def runtest(self) -> None:
        run = self.config.stash[_RUNNER].run_case(self.case, self.target)
        if run.verdict is Verdict.SKIP:
            pytest.skip(sinks.printable(run.message))
        if run.verdict is not Verdict.PASS:
            raise MatadorCaseFailure(sinks.printable(failure_text(run)))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, MatadorCaseFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[str, int | None, str]:
        return (
            self.case.file,
            self.case.line,
            f"matador case {self.case.id} [{self.target.label()}]",
        )


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    spec = config.getoption("--matador-engine") or str(config.getini("matador_engine")).strip()
    if not spec:
        return
    timeout = config.getoption("--matador-timeout")
    start_timeout = config.getoption("--matador-start-timeout")
    folders = _search_folders(config)
    factory: Callable[[], Engine]
    try:
        if config.getoption("--matador-in-process"):
            factory = load_python_engine(spec, search=folders)
        else:
            # in a process of its own, as conform runs it: its import, its prints, the
            # processes it starts are under the same deadlines and stopping
            check_spec(spec, search=folders)
            hosted = pyhost.command(spec, folders)
            factory = partial(ProcessEngine, hosted, timeout=timeout, start_timeout=start_timeout)
    except EngineSpecError as error:
        raise pytest.UsageError(f"--matador-engine: {error}") from None
    cases, problems = load_cases()
    if problems:
        raise pytest.UsageError("the case files have problems: " + "; ".join(map(str, problems)))
    config.stash[_RUNNER] = Runner(factory, timeout=timeout, start_timeout=start_timeout)
    for case, target in select(
        cases,
        variants=config.getoption("--matador-variant"),
        case_globs=config.getoption("--matador-case"),
    ):
        items.append(
            MatadorCaseItem.from_parent(
                session, name=f"matador[{case.id}][{target.label()}]", case=case, target=target
            )
        )


def _search_folders(config: pytest.Config) -> list[Path]:
    """Where the engine's module or file is looked for first: where pytest started, the rootdir."""
    folders = [Path(config.invocation_params.dir), Path(config.rootpath)]
    return [folder for index, folder in enumerate(folders) if folder not in folders[:index]]


def pytest_unconfigure(config: pytest.Config) -> None:
    runner = config.stash.get(_RUNNER, None)
    if runner is not None:
        runner.close()
