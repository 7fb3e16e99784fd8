"""``matador cases``: list the conformance cases, their ids, what they check and the rules.

The cases are chosen as ``matador conform`` chooses them (``--variant``,
``--case GLOB``, ``--rule RULE``, ``--cases PATH``), by the same code
(:mod:`reference_engine.conformance.selection`), and listed as a table that
fits 80 columns (the terminal's width on a terminal; colour only there, never
with ``NO_COLOR`` set), as JSON or as Markdown. The suite and rich are
imported only when the command runs.
"""

from __future__ import annotations

import argparse
import os
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from ..exits import ExitStatus
from .arguments import AddCommand, Handler, max_bytes_argument, selection_arguments
from .output import json_text

if TYPE_CHECKING:
    from ..conformance.cases import Case, Target

#: The width of the table in a file or a pipe.
WIDTH = 80


def add_parsers(command: AddCommand) -> None:
    """Add ``cases`` to ``matador``'s commands."""
    cases = command("cases", "list the conformance cases: ids, what each checks, its rules")
    selection_arguments(cases)
    cases.add_argument(
        "--format",
        choices=["table", "json", "markdown"],
        default="table",
        help="output format (default table)",
    )
    max_bytes_argument(cases)


@dataclass(frozen=True)
class Listed:
    """A case as listed: the case, and the variants of it the selection kept."""

    case: Case
    targets: tuple[Target, ...]


def _cases(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..conformance.cases import load_cases
    from ..conformance.selection import case_paths, select
    from ..conformance.tokens import declaration_problem
    from ..rules import Catalog

    missing = [item for item in args.cases if not os.path.exists(item)]
    if missing:
        stderr.write(f"matador cases: --cases: no such file or folder: {', '.join(missing)}\n")
        return ExitStatus.INVALID
    catalog = Catalog.shipped()
    unknown = [variant for variant in args.variant if variant not in catalog.ids()]
    if unknown:
        stderr.write(f"matador cases: unknown variant(s) {', '.join(unknown)}; see matador list\n")
        return ExitStatus.INVALID
    for rule in args.rule:
        why = declaration_problem(rule)
        if why is not None:
            stderr.write(f"matador cases: --rule: {why}\n")
            return ExitStatus.USAGE
    cases, problems = load_cases(case_paths(args.cases), catalog)
    for problem in problems:
        stderr.write(f"{problem}\n")
    if problems:
        stderr.write(f"matador cases: {len(problems)} problem(s) in the case files\n")
        return ExitStatus.INVALID
    runs = select(cases, variants=args.variant, case_globs=args.case, rules=args.rule)
    if not runs:
        stderr.write("matador cases: no case matches the selection\n")
        return ExitStatus.INVALID
    listed = _grouped(runs)
    if args.format == "json":
        stdout.write(json_text([_data(item) for item in listed], ensure_ascii=False))
    elif args.format == "markdown":
        stdout.write(markdown(listed))
    else:
        write_table(listed, stdout)
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


def _cell(text: str) -> str:
    """Markdown table text: no pipe or line break may end the cell early."""
    return " ".join(text.split()).replace("|", "\\|")


def markdown(listed: Sequence[Listed]) -> str:
    """The cases as a Markdown table."""
    lines = ["| id | description | exercises | variants |", "|---|---|---|---|"]
    for item in listed:
        exercises = ", ".join(f"`{rule}`" for rule in item.case.exercises)
        variants = ", ".join(target.label() for target in item.targets)
        lines.append(
            f"| `{item.case.id}` | {_cell(item.case.description)} | {_cell(exercises)} "
            f"| {_cell(variants)} |"
        )
    return "\n".join(lines) + f"\n\n{_summary(listed)}\n"


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def write_table(listed: Sequence[Listed], stream: TextIO) -> None:
    """The cases as a table: each case's id over its description, beside its rules and variants.

    80 columns wide in a file or a pipe, the terminal's width on a terminal;
    coloured only on a terminal and never with ``NO_COLOR`` set. A long id is
    broken after a hyphen, never inside a word.
    """
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    terminal = _is_terminal(stream)
    console = Console(
        file=stream,
        width=None if terminal else WIDTH,
        force_terminal=terminal,
        no_color=not terminal or "NO_COLOR" in os.environ,
        highlight=False,
        emoji=False,
        markup=False,
    )
    widest_rule = max(len(rule) for item in listed for rule in item.case.exercises)
    rules_width = min(max(widest_rule, len(RULES_HEADER)), console.width // 2 - 4)
    # Two columns with a space of padding each side, and the (blank) rule between them.
    case_width = console.width - rules_width - 5
    table = Table(box=box.HORIZONTALS, show_lines=True, show_edge=False, title=_summary(listed))
    table.add_column("case", width=case_width, overflow="fold")
    table.add_column(RULES_HEADER, width=rules_width, overflow="fold")
    for item in listed:
        lines = textwrap.wrap(item.case.id, case_width, break_on_hyphens=True)
        case = Text("\n".join(lines), style="bold")
        case.append("\n" + " ".join(item.case.description.split()))
        rules = Text("\n".join(item.case.exercises))
        variants = ", ".join(target.label() for target in item.targets)
        rules.append(f"\non {variants}", style="dim")
        table.add_row(case, rules)
    console.print(table)


#: The header of the column of rules exercised and variants run.
RULES_HEADER = "exercises, variants"


#: The handlers of this group's commands.
COMMANDS: dict[str, Handler] = {"cases": _cases}
