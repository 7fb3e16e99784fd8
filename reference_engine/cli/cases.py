"""``matador cases``: list the conformance cases, their ids, what they check and the rules.

The cases are chosen as ``matador conform`` chooses them (``--variant``,
``--case GLOB``, ``--rule RULE``, ``--cases PATH``), by the same code
(:mod:`reference_engine.conformance.suite.selection`), and listed as a table that
fits the width (:mod:`.tables`: 80 columns in a pipe, the terminal's on a
terminal, no colour off it or with ``NO_COLOR`` set), as JSON or as Markdown.
The suite is imported only when the command runs.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO

from ..exits import ExitStatus
from .arguments import (
    AddCommand,
    Handler,
    format_arguments,
    max_bytes_argument,
    selection_arguments,
)
from .output import json_text

if TYPE_CHECKING:
    from ..conformance.suite.casedata import Case, Target
    from ..text import tables


def add_parsers(command: AddCommand) -> None:
    """Add ``cases`` to ``matador``'s commands."""
    cases = command("cases", "list the conformance cases: ids, what each checks, its rules")
    selection_arguments(cases)
    format_arguments(cases)
    max_bytes_argument(cases)


class Listed(NamedTuple):
    """A case as listed: the case, and the variants of it the selection kept."""

    case: Case
    targets: tuple[Target, ...]


def _cases(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..conformance.suite.casedata import load_cases
    from ..conformance.suite.selection import (
        case_inputs_problem,
        case_paths,
        filter_problem,
        nothing_selected,
        select,
    )
    from ..rules import Catalog

    why = case_inputs_problem(args.cases)
    if why is not None:
        stderr.write(f"matador cases: --cases: {why}\n")
        return ExitStatus.INVALID
    catalog = Catalog.shipped()
    why = filter_problem(args.variant, args.rule, catalog.ids())
    if why is not None:
        stderr.write(f"matador cases: {why}\n")
        return ExitStatus.INVALID
    cases, problems = load_cases(case_paths(args.cases), catalog)
    for problem in problems:
        stderr.write(f"{problem}\n")
    if problems:
        stderr.write(f"matador cases: {len(problems)} problem(s) in the case files\n")
        return ExitStatus.INVALID
    runs = select(cases, variants=args.variant, case_globs=args.case, rules=args.rule)
    if not runs:
        stderr.write(f"matador cases: {nothing_selected(cases, args.case)}\n")
        return ExitStatus.INVALID
    listed = _grouped(runs)
    if args.format == "json":
        stdout.write(json_text([_data(item) for item in listed], ensure_ascii=False))
    elif args.format == "markdown":
        stdout.write(markdown(listed))
    else:
        write_table(listed, stdout, args.width)
    return ExitStatus.OK


def _grouped(runs: Sequence[tuple[Case, Target]]) -> list[Listed]:
    """Each case once, in suite order, with the variants of it that were selected."""
    order: dict[str, Case] = {}
    targets: dict[str, list[Target]] = {}
    for case, target in runs:
        order.setdefault(case.id, case)
        targets.setdefault(case.id, []).append(target)
    return [Listed(case, tuple(targets[case_id])) for case_id, case in order.items()]


def _data(item: Listed) -> dict[str, Any]:
    case = item.case
    return {
        "id": case.id,
        "description": case.description,
        "exercises": list(case.exercises),
        "variants": [target.label() for target in item.targets],
        "file": case.file,
        "line": case.line,
    }


def _summary(listed: Sequence[Listed]) -> str:
    runs = sum(len(item.targets) for item in listed)
    return f"{len(listed)} case(s), {runs} run(s) against their variants"


def _table(listed: Sequence[Listed]) -> tables.Table:
    """One row per case: its id over its description, beside its rules and variants."""
    from ..text import tables

    rows = []
    for item in listed:
        variants = ", ".join(target.label() for target in item.targets)
        rows.append(
            (
                tables.Cell(f"{item.case.id}\n{' '.join(item.case.description.split())}"),
                tables.Cell("\n".join((*item.case.exercises, f"on {variants}"))),
            )
        )
    return tables.table(["case", tables.Column(RULES_HEADER, widest=38)], rows, spaced=True)


def markdown(listed: Sequence[Listed]) -> str:
    """The cases as a Markdown table."""
    from ..text import tables

    rows = [
        (
            tables.Cell(item.case.id, code=True),
            " ".join(item.case.description.split()),
            tables.Cell(", ".join(item.case.exercises), code=True),
            ", ".join(target.label() for target in item.targets),
        )
        for item in listed
    ]

    source = tables.table(["id", "description", "exercises", "variants"], rows)
    return "\n".join(tables.markdown(source)) + f"\n\n{_summary(listed)}\n"


def write_table(listed: Sequence[Listed], stream: TextIO, width: int | None = None) -> None:
    """The cases as a table that fits the width (80 columns in a file or a pipe, the
    terminal's on a terminal, ``--width`` over both); headings bold only on a terminal
    and never with ``NO_COLOR`` set."""
    from ..text import tables

    style = tables.style_for(stream, width)
    lines = [style.strong(_summary(listed)), "", *tables.render(_table(listed), style)]
    stream.write("\n".join(lines) + "\n")


#: The header of the column of rules exercised and variants run.
RULES_HEADER = "exercises, variants"


#: The handlers of this group's commands.
COMMANDS: dict[str, Handler] = {"cases": _cases}
