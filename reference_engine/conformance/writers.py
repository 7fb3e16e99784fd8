"""Every report format ``matador conform --report`` writes, by name."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from .engine import EngineInfo
from .exports import write_junit, write_markdown
from .report import RunSummary, write_json, write_table
from .verdicts import CaseRun


def write_html(
    runs: Sequence[CaseRun],
    info: EngineInfo | None,
    stream: TextIO,
    summary: RunSummary | None = None,
) -> None:
    """The HTML report; its module (and Jinja2) is imported only when it is asked for."""
    from .htmlreport import write_html as write

    write(runs, info, stream, summary)


WRITERS = {
    "table": write_table,
    "json": write_json,
    "junit": write_junit,
    "markdown": write_markdown,
    "html": write_html,
}
