"""The command line that reruns one case run of a conformance run, as every report prints it.

A run records how it was started (:func:`run_command`: the engine, the case files
read instead of the suite, the deadlines and ``--in-process`` where they are not
the defaults) in its summary and in its JSON lines' footer, so a report drawn
again from a saved run (``matador report``) gives the same commands. A failure's
command is that line narrowed to its case and its variant with the options the
case ran under (:func:`rerun_command`); every word is quoted for a POSIX shell.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from ..session.runner import CaseRun

#: The deadlines ``matador conform`` has when none is given (``--timeout``,
#: ``--start-timeout``): a command repeats only the ones that differ.
DEFAULT_DEADLINES = {"--timeout": 5.0, "--start-timeout": 10.0}


def run_command(
    engine: str | None,
    cases: Sequence[str] = (),
    deadlines: dict[str, float] | None = None,
    in_process: bool = False,
) -> str:
    """``matador conform`` with what chose the engine and the cases of a run."""
    words = ["matador", "conform"]
    if engine is not None:
        words += ["--engine", engine]
    if in_process:
        words.append("--in-process")
    for path in cases:
        words += ["--cases", path]
    for flag, seconds in (deadlines or {}).items():
        if seconds != DEFAULT_DEADLINES.get(flag):
            words += [flag, f"{seconds:g}"]
    return shlex.join(words)


def rerun_command(command: str | None, run: CaseRun) -> str | None:
    """The command that runs ``run`` again on its own (None when the run's command is
    not known: a run saved before runs recorded it)."""
    if command is None:
        return None
    target = run.target
    variant = target.variant
    if target.options:
        variant += ":" + ",".join(f"{k}={v}" for k, v in sorted(target.options.items()))
    return f"{command} --case {shlex.quote(run.case)} --variant {shlex.quote(variant)}"


def shell_lines(command: str, width: int, lead: str = "  rerun: ") -> list[str]:
    """``command`` laid out for a terminal of ``width`` columns as a shell reads it: broken
    only between words, each broken line ending in `` \\`` (so a copied command runs as
    one), the continuations indented under the lead."""
    words = [shlex.quote(word) for word in shlex.split(command)]
    indent = " " * (len(lead) - len(lead.lstrip()) + 2)
    lines = [lead.rstrip() + " " + words[0]]
    for word in words[1:]:
        if len(lines[-1]) + 1 + len(word) + 2 <= width:
            lines[-1] += " " + word
        else:
            lines[-1] += " \\"
            lines.append(indent + word)
    return lines


def rerun_text(command: str | None, run: CaseRun, width: int) -> str:
    """The lines a failure's text ends with in a terminal report: how to rerun it (each
    after a line break), or nothing when the run's command is not known."""
    rerun = rerun_command(command, run)
    return "".join("\n" + line for line in shell_lines(rerun, width)) if rerun else ""
