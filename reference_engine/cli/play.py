"""``matador play`` and ``replay``: play a match, and check game records against their rules
(one record: every problem in it; a folder: a verdict per rule, as ``conform`` gives).

The engine is imported when a command runs, not when ``matador``'s parser is built.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ..exits import ExitStatus
from .arguments import (
    AddCommand,
    Choices,
    Handler,
    format_arguments,
    max_bytes_argument,
    option_argument,
    resolve_targets,
)
from .output import json_text

if TYPE_CHECKING:
    from ..engine.findings import ReplayReport


def _strategy_names() -> list[str]:
    from ..engine.strategies import STRATEGIES

    return list(STRATEGIES)


def add_parsers(command: AddCommand) -> None:
    """Add ``play`` and ``replay`` to ``matador``'s commands."""
    play = command("play", "play a match with a simple strategy and print it")
    play.add_argument(
        "variant", metavar="ID[:NAME=VALUE,...]", help="variant id (see: matador list)"
    )
    option_argument(play)
    play.add_argument("--players", type=int, metavar="N", help="number of players")
    play.add_argument("--seed", type=int, metavar="S", help="seed for the deals and choices")
    play.add_argument(
        "--strategy",
        choices=Choices(_strategy_names),
        default="random",
        metavar="NAME",
        help="how each action is chosen: %(choices)s (default: random)",
    )
    play.add_argument("--hands", type=int, metavar="N", help="stop after N hands")
    format_arguments(play, ("text", "json"), json_alias=True, width=False)

    replay_command = command(
        "replay", "check game records against their variant's rules, rule by rule"
    )
    replay_command.add_argument(
        "records",
        nargs="+",
        metavar="PATH",
        help="a game record (.json), or a folder of them (read through, in name order)",
    )
    replay_command.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="for one record: text, or JSON: valid or not, the hands and actions checked, "
        "and every problem as the record check gives it (kind, pointer, message, reason, rule)",
    )
    replay_command.add_argument(
        "--report",
        choices=("table", "json", "junit", "markdown", "html"),
        help="judge the records as conform judges an engine: a run per record, a verdict per "
        "rule (the default, as a table, for a folder or several records)",
    )
    max_bytes_argument(replay_command)


def _play(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..engine.record import match_record, play_match
    from ..engine.strategies import STRATEGIES
    from ..engine.transcript import transcript

    (rules,) = resolve_targets([args.variant], args.option)
    players = args.players if args.players is not None else min(rules.players)
    if players not in rules.players:
        allowed = ", ".join(map(str, rules.players))
        stderr.write(f"matador play: {rules.variant} is played by {allowed} players\n")
        return ExitStatus.INVALID
    if args.hands is not None and args.hands < 1:
        stderr.write("matador play: --hands must be at least 1\n")
        return ExitStatus.USAGE
    import random

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    match = play_match(
        rules, players, seed=seed, strategy=STRATEGIES[args.strategy], max_hands=args.hands
    )
    if args.format == "json":
        record = match_record(match, seed=seed, strategy=args.strategy)
        stdout.write(json_text(record))
    else:
        stdout.write(transcript(match, seed))
    return ExitStatus.OK


def _replay(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    paths = [Path(name) for name in args.records]
    if args.report is None and len(paths) == 1 and not paths[0].is_dir():
        return _replay_one(paths[0], args.format, stdout, stderr)
    if args.format != "text":
        stderr.write("matador replay: --format is for one record; --report judges several\n")
        return ExitStatus.USAGE
    from ..conformance.records import judge_files

    return judge_files(paths, args.report or "table", stdout, stderr)


def _replay_one(path: Path, form: str, stdout: TextIO, stderr: TextIO) -> int:
    """One record checked as a dispute is settled: every problem, where it is, its rule."""
    from ..engine.record import RecordSyntaxError, parse_record, replay
    from ..engine.transcript import describe_outcome
    from ..safeio import FileKind, InputError, read_input

    try:
        record = parse_record(read_input(path, FileKind.JSON))
    except InputError as error:
        stderr.write(f"matador replay: {error}\n")
        return ExitStatus.INVALID
    except RecordSyntaxError as error:
        stderr.write(f"matador replay: {path}: {error}\n")
        return ExitStatus.INVALID
    report = replay(record)
    if form == "json":
        stdout.write(json_text(_replay_data(path, report)))
        return ExitStatus.OK if report.ok else ExitStatus.INVALID
    for finding in report.findings:
        stderr.write(f"matador replay: {path}: {finding}\n")
        if finding.rule:
            stderr.write(f"  rule: {finding.rule}\n")
        for citation in finding.citations:
            stderr.write(
                f"  source: {citation.publication} [text {citation.text}, {citation.section}]: "
                f"{citation.says}\n"
            )
    if not report.ok:
        count = len(report.findings) + report.omitted
        shown = f" ({report.omitted} not shown)" if report.omitted else ""
        stderr.write(f"matador replay: {path}: invalid: {count} problem(s){shown}\n")
        return ExitStatus.INVALID
    variant = report.match.rules.variant if report.match is not None else "its variant"
    stdout.write(
        f"{path}: valid: {report.hands} hand(s), {report.actions} action(s) legal under "
        f"{variant}; results agree with the rules\n"
    )
    for number, outcome in enumerate(report.outcomes, start=1):
        stdout.write(f"  hand {number}: {describe_outcome(outcome)}\n")
    return ExitStatus.OK


def _replay_data(path: Path, report: ReplayReport) -> dict[str, Any]:
    """``matador replay --format json``: the verdict, what was checked, every problem."""
    from ..engine.transcript import describe_outcome

    return {
        "record": str(path),
        "valid": report.ok,
        "variant": None if report.match is None else report.match.rules.variant,
        "hands": report.hands,
        "actions": report.actions,
        "outcomes": [
            {
                "winner": outcome.winner,
                "points": list(outcome.points),
                "described": describe_outcome(outcome),
            }
            for outcome in report.outcomes
        ],
        "problems": [
            {
                "kind": finding.kind.value,
                "message": finding.message,
                "pointer": finding.pointer,
                "hand": finding.hand,
                "action": finding.action,
                "reason": finding.reason,
                "rule": finding.rule,
                "citations": [
                    {
                        "publication": c.publication,
                        "text": c.text,
                        "section": c.section,
                        "says": c.says,
                    }
                    for c in finding.citations
                ],
            }
            for finding in report.findings
        ],
        "omitted": report.omitted,
    }


#: The handlers of this group's commands.
COMMANDS: dict[str, Handler] = {"play": _play, "replay": _replay}
