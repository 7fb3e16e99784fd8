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
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .cases import Case, Target, load_cases
    from .codes import ErrorCode
    from .engine import (
        Engine,
        EngineFailure,
        EngineInfo,
        EngineRefusal,
        ReferenceEngine,
        load_python_engine,
    )
    from .report import RunSummary
    from .rundata import read_run
    from .runner import Runner, select
    from .verdicts import CaseRun, Verdict
    from .writers import WRITERS

#: The module of each name of :data:`__all__`, relative to this package.
_MODULE_OF = {
    "Case": ".cases",
    "CaseRun": ".verdicts",
    "Engine": ".engine",
    "EngineFailure": ".engine",
    "EngineInfo": ".engine",
    "EngineRefusal": ".engine",
    "ErrorCode": ".codes",
    "ReferenceEngine": ".engine",
    "RunSummary": ".report",
    "Runner": ".runner",
    "Target": ".cases",
    "Verdict": ".verdicts",
    "WRITERS": ".writers",
    "load_cases": ".cases",
    "load_python_engine": ".engine",
    "read_run": ".rundata",
    "select": ".runner",
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


def __getattr__(name: str) -> Any:
    """One of :data:`__all__`, imported from its module the first time it is asked for."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
