"""``matador compare``, ``diff``, ``score``, ``odds`` and ``explain``: where the variants disagree.

Each puts one question to every variant (or to those named) at once, through
:mod:`reference_engine.disputes`, which is imported when a command runs, not when
``matador``'s parser is built.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TextIO

from .. import safeio
from ..exits import ExitStatus
from .arguments import (
    AddCommand,
    Handler,
    InvalidInput,
    UsageError,
    format_arguments,
    max_bytes_argument,
    option_argument,
    resolve_targets,
    select_targets,
    variant_arguments,
)
from .output import json_text

if TYPE_CHECKING:
    from ..text.tables import Table


def add_parsers(command: AddCommand) -> None:
    """Add ``compare``, ``diff``, ``score``, ``odds`` and ``explain`` to ``matador``'s commands."""
    compare_command = command("compare", "every rule of every variant side by side, with sources")
    compare_command.add_argument(
        "variants", nargs="*", metavar="ID[:NAME=VALUE,...]", help="variants (default: all)"
    )
    option_argument(compare_command, "choose an option for every variant that has it (repeatable)")
    format_arguments(compare_command, ("table", "json", "markdown", "html"))

    diff_command = command("diff", "only the rules that differ between two variants")
    diff_command.add_argument("first", metavar="A", help="ID or ID:NAME=VALUE,...")
    diff_command.add_argument("second", metavar="B", help="ID or ID:NAME=VALUE,...")
    option_argument(diff_command, "choose an option for both variants, where they have it")
    format_arguments(diff_command)

    score_command = command("score", "what every variant awards for the same hand")
    score_command.add_argument(
        "--pips", required=True, metavar="P,P,...", help="pips left per seat, seat 0 first"
    )
    how = score_command.add_mutually_exclusive_group()
    how.add_argument("--blocked", action="store_true", help="the hand was blocked (default)")
    how.add_argument("--domino", type=int, metavar="SEAT", help="SEAT went out")
    score_command.add_argument(
        "--teams", action="store_true", help="four players in two sides (seats 0+2 and 1+3)"
    )
    variant_arguments(score_command)
    format_arguments(score_command)

    odds_command = command("odds", "exact matador odds for a hand, and which tiles answer an end")
    odds_command.add_argument("--set", type=int, default=6, metavar="N", help="double-N set")
    odds_command.add_argument("--hand", type=int, default=7, metavar="K", help="tiles in hand")
    variant_arguments(odds_command, many=False)
    format_arguments(odds_command, json_alias=True)

    explain_command = command(
        "explain", "is this legal, and what can follow? answered under every variant at once"
    )
    explain_command.add_argument(
        "situation", nargs="?", metavar="SITUATION.yaml", help="a situation file (or use flags)"
    )
    explain_command.add_argument("--hand", metavar="T,T,...", help="the tiles of the player to act")
    explain_command.add_argument("--ends", metavar="L,R", help="the values at the two open ends")
    explain_command.add_argument("--boneyard", type=int, metavar="N", help="tiles left to draw")
    explain_command.add_argument("--players", type=int, metavar="N", help="number of players")
    explain_command.add_argument("--drawn", metavar="TILE", help="the tile drawn this turn")
    explain_command.add_argument(
        "--position",
        metavar="TEXT",
        help='the whole table instead: "ends: 6, 3; seat 0: 1-2; seat 1: 0-2 5-5; '
        'boneyard: 4-4; to act: 1" (spec/notation.md, Positions)',
    )
    explain_command.add_argument(
        "--action",
        metavar="ACTION",
        help="the proposed action: 3-4@L (any way), 3-4@L:3, draw, pass",
    )
    variant_arguments(explain_command)
    explain_command.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text, or JSON: per variant, the legal actions and the proposed action's "
        "verdict with its reason and rule (docs/json-output.md)",
    )
    max_bytes_argument(explain_command)


def _write_table(found: Table, args: argparse.Namespace, stdout: TextIO, head: str = "") -> None:
    """``found`` in the ``--format`` asked for (a table or Markdown), after ``head`` if given."""
    from ..text.tables import markdown, render, style_for

    if args.format == "markdown":
        lines = markdown(found)
    else:
        lines = render(found, style_for(stdout, args.width))
    stdout.write("\n".join(([head] if head else []) + lines) + "\n")


def _compare(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..disputes import compare, comparison_document
    from ..disputes.comparison import compare_data, compare_lines
    from ..rules import Catalog
    from ..text.tables import style_for

    if not args.variants and not args.option and args.format == "markdown":
        stdout.write(comparison_document(Catalog.shipped()))
        return ExitStatus.OK
    rules_list = resolve_targets(args.variants, args.option)
    if args.format == "json":
        stdout.write(json_text(compare_data(rules_list), ensure_ascii=False))
    elif args.format == "table":
        lines = compare_lines(rules_list, style_for(stdout, args.width))
        stdout.write("\n".join(lines) + "\n")
    else:
        stdout.write(compare(rules_list, args.format) + "\n")
    return ExitStatus.OK


def _diff(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..disputes.comparison import diff_data, diff_heading, diff_table

    first, second = resolve_targets([args.first, args.second], args.option)
    if args.format == "json":
        stdout.write(json_text(diff_data(first, second), ensure_ascii=False))
    elif diff_table(first, second).rows:
        _write_table(diff_table(first, second), args, stdout, diff_heading(first, second))
    else:
        stdout.write(diff_heading(first, second) + "\n")
    return ExitStatus.OK


def _score(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..disputes import score_everywhere
    from ..disputes.score import score_data, score_table
    from ..engine.scoring import Termination
    from ..rules import Catalog

    try:
        pips = [int(part) for part in args.pips.split(",")]
    except ValueError:
        raise UsageError(f"--pips {args.pips!r}: give whole numbers separated by commas") from None
    if not 2 <= len(pips) <= 4 or min(pips) < 0:
        raise UsageError("--pips: give 2 to 4 numbers, none negative")
    if args.teams and len(pips) != 4:
        raise UsageError("--teams needs the pips of four seats")
    if args.domino is not None and not 0 <= args.domino < len(pips):
        raise UsageError(f"--domino {args.domino}: no such seat")
    if args.domino is not None and pips[args.domino] != 0:
        raise UsageError(f"--domino {args.domino}: the player who went out holds no pips")
    catalog = Catalog.shipped()
    chosen = select_targets(args.variant, args.option)
    termination = Termination.BLOCKED if args.domino is None else Termination.DOMINO
    awards = score_everywhere(
        catalog, pips, termination, args.domino, teams=args.teams, variants=chosen
    )
    if args.format == "json":
        stdout.write(json_text(score_data(awards, pips, termination, args.teams)))
    else:
        _write_table(score_table(awards, args.teams), args, stdout)
    return ExitStatus.OK


def _odds(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..disputes import main_rule, odds, odds_data
    from ..disputes.probability import odds_lines, odds_tables
    from ..rules import Catalog
    from ..text.tables import markdown, style_for

    if not 1 <= args.set <= 18:
        raise UsageError("--set: give N between 1 and 18")
    catalog = Catalog.shipped()
    if args.variant or args.option:
        rules = resolve_targets(
            [args.variant or main_rule(catalog, args.set).variant], args.option
        )[0]
    else:
        rules = main_rule(catalog, args.set)
    if rules.max_pip != args.set:
        raise UsageError(f"{rules.variant} plays the double-{rules.max_pip} set, not {args.set}")
    try:
        result = odds(args.set, args.hand)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if args.format == "json":
        stdout.write(json_text(odds_data(result, rules)))
    elif args.format == "markdown":
        first, chances, second, ends = odds_tables(result, rules)
        lines = [f"## {first}", "", *markdown(chances), "", f"## {second}", "", *markdown(ends)]
        stdout.write("\n".join(lines) + "\n")
    else:
        lines = odds_lines(result, rules, style_for(stdout, args.width))
        stdout.write("\n".join(lines) + "\n")
    return ExitStatus.OK


def _explain(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..disputes.explain import Situation, answer, explain_data, explain_text, nowhere
    from ..rules import Catalog, RulesError
    from ..rules.yamldoc import input_problem, parse_yaml

    data: dict[str, object] = {}
    if args.situation:
        try:
            raw = safeio.read_input(args.situation, safeio.FileKind.YAML)
        except safeio.InputError as error:
            # Like every command's missing or unreadable input: exit 1, not a usage error.
            stderr.write(f"matador explain: {input_problem(error)}\n")
            return ExitStatus.INVALID
        document, problems = parse_yaml(raw, args.situation)
        if document is None:
            raise RulesError(problems)
        if not isinstance(document.data, dict):
            raise InvalidInput(f"{args.situation}: a situation is a mapping of fields")
        data.update(document.data)
    flags = {
        "hand": args.hand and args.hand.split(","),
        "ends": args.ends and args.ends.split(","),
        "boneyard": args.boneyard,
        "players": args.players,
        "drawn": args.drawn,
        "action": args.action,
        "position": args.position,
    }
    data.update({key: value for key, value in flags.items() if value is not None})
    catalog = Catalog.shipped()
    rules_list = resolve_targets(args.variant, args.option)
    try:
        situation = Situation.from_data(data)
        answers = [answer(rules, situation) for rules in rules_list]
    except ValueError as error:  # a malformed tile, end or action
        raise UsageError(str(error)) from None
    why = nowhere(catalog, situation, answers)
    if why is not None:
        raise InvalidInput(why)
    if args.format == "json":
        stdout.write(json_text(explain_data(situation, answers), ensure_ascii=False))
    else:
        from ..text.fit import Fitted
        from ..text.tables import style_for

        fitted = Fitted(stdout, style_for(stdout, getattr(args, "width", None)).width)
        fitted.write(explain_text(situation, answers))
        fitted.flush()
    return ExitStatus.OK


#: The handlers of this group's commands.
COMMANDS: dict[str, Handler] = {
    "compare": _compare,
    "diff": _diff,
    "score": _score,
    "odds": _odds,
    "explain": _explain,
}
