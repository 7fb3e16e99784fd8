"""The conformance badge: a shields.io endpoint file that says how an engine fared.

``matador conform --badge FILE`` writes it next to the report; a README points a
``https://img.shields.io/endpoint?url=...`` badge at where CI publishes it. The
message counts the case runs passed out of those judged; the colour is green
only when every judged run passed and no random game diverged.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from ... import sinks
from ...safeio import OutputError, write_atomically
from ..judging.verdicts import CaseRun, Verdict
from .runreport import RunSummary, totals

#: The badge's label, left of the message.
LABEL = "Matador conformance"


def badge(runs: Sequence[CaseRun], summary: RunSummary) -> dict[str, Any]:
    """The endpoint file's data for a run."""
    count = totals(runs)
    judged = count[Verdict.PASS] + count[Verdict.FAIL] + count[Verdict.ERROR]
    passed = count[Verdict.PASS]
    diverged = summary.random.problems if summary.random is not None else 0
    message = f"{passed}/{judged} passed"
    if diverged:
        message += f", {diverged} random divergence(s)"
    if summary.unavailable and not judged:
        message, colour = "engine unavailable", "lightgrey"
    elif summary.interrupted:
        message, colour = f"{message} (interrupted)", "yellow"
    elif passed == judged and judged and not diverged and not count[Verdict.BROKEN]:
        colour = "brightgreen"
    else:
        colour = "red"
    return {"schemaVersion": 1, "label": LABEL, "message": message, "color": colour}


def write_badge(
    path: str | os.PathLike[str], runs: Sequence[CaseRun], summary: RunSummary
) -> str | None:
    """Write the badge of a run to ``path``, atomically; what went wrong, or None."""
    try:
        write_atomically(path, sinks.json_text(badge(runs, summary)) + "\n")
    except OutputError as error:
        return str(error)
    return None
