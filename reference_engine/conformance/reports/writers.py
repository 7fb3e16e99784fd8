"""Every report format ``matador conform --report`` writes, by name.

The table and JSON writers are the ones a run uses by default or in CI; the
others (JUnit XML, Markdown, HTML with Jinja2) are imported only when asked for.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Protocol, TextIO

from ..judging.verdicts import CaseRun
from ..protocol.interface import EngineInfo
from .runreport import RunSummary, write_json, write_table


class Writer(Protocol):
    """A report writer: the runs, the engine's handshake, the stream, the run's summary."""

    def __call__(
        self,
        runs: Sequence[CaseRun],
        info: EngineInfo | None,
        stream: TextIO,
        summary: RunSummary | None = None,
    ) -> None: ...


def _imported_when_asked(module: str, name: str, what: str) -> Writer:
    """The writer ``name`` of ``module`` (relative to this package), imported on first use."""

    def write(
        runs: Sequence[CaseRun],
        info: EngineInfo | None,
        stream: TextIO,
        summary: RunSummary | None = None,
    ) -> None:
        found = getattr(importlib.import_module(module, __package__), name)
        found(runs, info, stream, summary)

    write.__doc__ = f"The {what} report; its module is imported only when it is asked for."
    return write


WRITERS: dict[str, Writer] = {
    "table": write_table,
    "json": write_json,
    "junit": _imported_when_asked(".exports", "write_junit", "JUnit XML"),
    "markdown": _imported_when_asked(".exports", "write_markdown", "Markdown"),
    "html": _imported_when_asked(".htmlreport", "write_html", "HTML"),
}
