"""The conformance suite's machinery: cases, the engine interface, the protocol, the runner.

Its public surface is the names below, for engine authors and for programs that
drive the suite themselves; every other module of the package is the suite's
own, and may change between releases. The names are imported from their
modules on first use (PEP 562), so ``import reference_engine.conformance`` loads
nothing else.

=============================  ================================================
``Engine``                     the Python engine interface (a typing.Protocol)
``EngineInfo``                 what an engine says of itself in ``hello``
``EngineRefusal``              how an engine refuses a request, with a code
``EngineFailure``              how a run records an engine breaking the protocol
``ErrorCode``                  the protocol's closed vocabulary of error codes
``ReferenceEngine``            the reference engine, behind that interface
``load_python_engine``         the factory a ``MODULE:FACTORY`` spec names
``Runner``, ``select``         run cases against an engine, chosen by filter
``load_cases``                 the suite's cases (the installed package's own)
``Case``, ``Target``           a case, and a variant with options it applies to
``CaseRun``, ``Verdict``       a case run's verdict, with its deviations
``RunSummary``, ``WRITERS``    a run as a whole, and the report writer per format
``read_run``                   a run read back from its JSON-lines report
=============================  ================================================

The package is in layers, each importing only those before it: ``suite/``
(cases), ``protocol/`` (the interface, requests, replies, the server),
``transport/`` (programs, hosted and in-process engines, deadlines, signals),
``judging/`` (checks, verdicts, blame), ``games/`` (random games), ``session/``
(the session and the case loop), ``analysis/`` (rule verdicts, coverage,
identify) and ``reports/`` (one writer per format); the commands
(``conform.py``, ``records.py``) and the pytest plugin sit on top.

``reference_engine.conformance.engine``, where the engine interface lived
before the layers, still imports: it is :mod:`.protocol.interface`.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
from types import ModuleType
from typing import TYPE_CHECKING, cast

from ..lazy import lazy_names

if TYPE_CHECKING:
    from importlib.abc import Loader

    from .judging.verdicts import CaseRun, Verdict
    from .protocol.codes import ErrorCode
    from .protocol.interface import (
        Engine,
        EngineFailure,
        EngineInfo,
        EngineRefusal,
        ReferenceEngine,
        load_python_engine,
    )
    from .reports.rundata import read_run
    from .reports.runreport import RunSummary
    from .reports.writers import WRITERS
    from .session.runner import Runner, select
    from .suite.casedata import Case, Target, load_cases

#: The module of each name of :data:`__all__`, relative to this package.
_MODULE_OF = {
    "Case": ".suite.casedata",
    "CaseRun": ".judging.verdicts",
    "Engine": ".protocol.interface",
    "EngineFailure": ".protocol.interface",
    "EngineInfo": ".protocol.interface",
    "EngineRefusal": ".protocol.interface",
    "ErrorCode": ".protocol.codes",
    "ReferenceEngine": ".protocol.interface",
    "RunSummary": ".reports.runreport",
    "Runner": ".session.runner",
    "Target": ".suite.casedata",
    "Verdict": ".judging.verdicts",
    "WRITERS": ".reports.writers",
    "load_cases": ".suite.casedata",
    "load_python_engine": ".protocol.interface",
    "read_run": ".reports.rundata",
    "select": ".session.runner",
}

__all__ = [
    "WRITERS",
    "Case",
    "CaseRun",
    "Engine",
    "EngineFailure",
    "EngineInfo",
    "EngineRefusal",
    "ErrorCode",
    "ReferenceEngine",
    "RunSummary",
    "Runner",
    "Target",
    "Verdict",
    "load_cases",
    "load_python_engine",
    "read_run",
    "select",
]


__getattr__, __dir__ = lazy_names(__name__, _MODULE_OF, globals())


#: Module paths documented before the package had layers, and where each is now.
MOVED = {f"{__name__}.engine": f"{__name__}.protocol.interface"}


class _Moved:
    """Imports a module under a path it had before it moved: the module is the moved one."""

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, cast("Loader", self))

    def __init__(self) -> None:
        #: The spec each moved module had under its own name (importing sets another).
        self.specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(MOVED[spec.name])
        self.specs[module.__name__] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        """The moved module ran under its own name; it keeps that name's spec."""
        module.__spec__ = self.specs[module.__name__]


if not any(isinstance(finder, _Moved) for finder in sys.meta_path):
    sys.meta_path.append(_Moved())
