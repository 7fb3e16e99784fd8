"""The ``matador`` command line.

:func:`run` takes the arguments and the two output streams and returns the exit
status, so tests drive it with ``StringIO``; only :func:`main` exits. Exit 0 on
success, 1 when what was asked about is invalid (a broken file, an unknown
variant or option), 2 on a usage error. A user's mistake never shows a
traceback.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn, TextIO

from .errors import DealError
from .record import match_record, play_match, replay
from .rules import Catalog, RulesError, parse_option_assignments
from .rules.present import rules_data, rules_text
from .strategies import STRATEGIES
from .transcript import describe_outcome, transcript

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2


class UsageError(Exception):
    """A malformed command line."""


class _Parser(argparse.ArgumentParser):
    """An argument parser that raises instead of exiting and writes where it is told."""

    def __init__(self, *args: object, stdout: TextIO, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._stdout = stdout

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            self._stdout.write(message)
        raise _Exit(status)

    def print_help(self, file: object = None) -> None:
        super().print_help(self._stdout)


class _Exit(Exception):
    def __init__(self, status: int) -> None:
        self.status = status


def _parser(stdout: TextIO) -> _Parser:
    parser = _Parser(
        prog="matador",
        description="The reference for the domino game Matador.",
        stdout=stdout,
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def command(name: str, text: str) -> _Parser:
        parser: _Parser = commands.add_parser(name, help=text, description=text, stdout=stdout)
        return parser

    validate = command("validate", "check variant files (default: every shipped variant)")
    validate.add_argument("paths", nargs="*", metavar="PATH", help="variant files to check")

    command("list", "list the variants with their sources")

    show = command("show", "print a variant's resolved rules with their citations")
    show.add_argument("variant", metavar="ID", help="variant id (see: matador list)")
    _option_argument(show)
    show.add_argument("--json", action="store_true", help="print JSON instead of text")

    play = command("play", "play a match with a simple strategy and print it")
    play.add_argument("variant", metavar="VARIANT", help="variant id (see: matador list)")
    _option_argument(play)
    play.add_argument("--players", type=int, metavar="N", help="number of players")
    play.add_argument("--seed", type=int, metavar="S", help="seed for the deals and choices")
    play.add_argument(
        "--strategy",
        choices=sorted(STRATEGIES),
        default="random",
        help="how each action is chosen (default: random)",
    )
    play.add_argument("--hands", type=int, metavar="N", help="stop after N hands")
    play.add_argument("--json", action="store_true", help="print the game record as JSON")

    replay_command = command("replay", "check a game record against its variant's rules")
    replay_command.add_argument("record", metavar="RECORD.json", help="a game record")

    conform = command("conform", "run the conformance suite against an engine")
    conform.add_argument(
        "--engine",
        metavar="COMMAND",
        help='an engine program speaking spec/protocol.md (e.g. "matador engine"), or '
        "python:MODULE:FACTORY for an in-process Python engine; default: the reference engine",
    )
    conform.add_argument("--variant", action="append", default=[], help="only these variants")
    conform.add_argument(
        "--case", action="append", default=[], metavar="GLOB", help="only case ids matching"
    )
    conform.add_argument(
        "--rule", action="append", default=[], help="only cases exercising this rule"
    )
    conform.add_argument(
        "--cases",
        action="append",
        default=[],
        metavar="PATH",
        help="case files or folders to run instead of the suite",
    )
    conform.add_argument(
        "--report",
        choices=["table", "json", "junit", "markdown"],
        default="table",
        help="report format",
    )
    conform.add_argument("--output", "-O", metavar="FILE", help="write the report to FILE")
    conform.add_argument(
        "--timeout", type=float, default=5.0, metavar="SECONDS", help="per request (default 5)"
    )
    conform.add_argument(
        "--random",
        type=int,
        metavar="N",
        help="also play N random hands per variant against the reference",
    )
    conform.add_argument("--seed", type=int, default=0, help="seed for --random (default 0)")
    conform.add_argument(
        "--coverage", action="store_true", help="print the rule-by-case coverage matrix"
    )

    command("engine", "run the reference engine as a protocol process on stdin/stdout")
    return parser


def _option_argument(parser: _Parser) -> None:
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="choose an option of the variant (repeatable)",
    )


def run(argv: Sequence[str], stdout: TextIO, stderr: TextIO) -> int:
    """Run the ``matador`` command with ``argv``; return the exit status."""
    parser = _parser(stdout)
    try:
        args = parser.parse_args(list(argv))
    except UsageError as error:
        stderr.write(f"{error}\n")
        return EXIT_USAGE
    except _Exit as done:
        return done.status
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    handler = _COMMANDS[args.command]
    try:
        return handler(args, stdout, stderr)
    except RulesError as error:
        for problem in error.problems:
            stderr.write(f"{problem}\n")
        return EXIT_INVALID
    except DealError as error:
        stderr.write(f"matador {args.command}: {error}\n")
        return EXIT_INVALID


def _validate(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    paths = [Path(path) for path in args.paths]
    for path in paths:
        if path.is_dir():
            stderr.write(f"matador validate: {path} is a directory; give variant files\n")
            return EXIT_USAGE
    catalog = Catalog.load(paths)
    checked = sorted(catalog.given_ids) if paths else catalog.ids()
    load_problems = [
        problem
        for problem in catalog.load_problems
        if not paths or problem.file in {str(path) for path in paths}
    ]
    problems = load_problems + [
        problem
        for problem in Catalog(catalog.files).problems(checked)
        if problem not in load_problems
    ]
    for problem in problems:
        stderr.write(f"{problem}\n")
    files = len(paths) if paths else len(checked) + len({p.file for p in catalog.load_problems})
    if problems:
        stderr.write(f"{len(problems)} problem(s) in {files} file(s) checked\n")
        return EXIT_INVALID
    stdout.write(f"{files} variant file(s) valid: {', '.join(checked)}\n")
    return EXIT_OK


def _list(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    catalog = Catalog.shipped()
    from .rules import registry

    publications = registry().publications
    width = max(len(variant_id) for variant_id in catalog.ids())
    for variant_id in catalog.ids():
        data = catalog.files[variant_id].data
        publication = publications.get(data["publication"], data["publication"])
        stdout.write(f"{variant_id:<{width}}  {publication}\n")
        stdout.write(f"{'':<{width}}  {' '.join(data['summary'].split())}\n")
    return EXIT_OK


def _show(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    options = parse_option_assignments(args.option)
    rules = Catalog.shipped().resolve(args.variant, options)
    if args.json:
        stdout.write(json.dumps(rules_data(rules), indent=2, ensure_ascii=False) + "\n")
    else:
        stdout.write(rules_text(rules))
    return EXIT_OK


def _play(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    rules = Catalog.shipped().resolve(args.variant, parse_option_assignments(args.option))
    players = args.players if args.players is not None else min(rules.players)
    if players not in rules.players:
        allowed = ", ".join(map(str, rules.players))
        stderr.write(f"matador play: {rules.variant} is played by {allowed} players\n")
        return EXIT_INVALID
    if args.hands is not None and args.hands < 1:
        stderr.write("matador play: --hands must be at least 1\n")
        return EXIT_USAGE
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    match = play_match(
        rules, players, seed=seed, strategy=STRATEGIES[args.strategy], max_hands=args.hands
    )
    if args.json:
        record = match_record(match, seed=seed, strategy=args.strategy)
        stdout.write(json.dumps(record, indent=2) + "\n")
    else:
        stdout.write(transcript(match, seed))
    return EXIT_OK


def _replay(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    path = Path(args.record)
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        stderr.write(f"{path}: cannot read the file: {error.strerror or error}\n")
        return EXIT_INVALID
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        stderr.write(f"{path}: not a JSON record: {error}\n")
        return EXIT_INVALID
    report = replay(record)
    if report.finding is not None:
        finding = report.finding
        stderr.write(f"{path}: {finding}\n")
        if finding.rule:
            stderr.write(f"  rule: {finding.rule}\n")
        for citation in finding.citations:
            stderr.write(
                f"  source: {citation.publication} [text {citation.text}, {citation.section}]: "
                f"{citation.says}\n"
            )
        return EXIT_INVALID
    stdout.write(
        f"{path}: valid: {report.hands} hand(s), {report.actions} action(s) legal under "
        f"{record['variant']}; results agree with the rules\n"
    )
    for number, outcome in enumerate(report.outcomes, start=1):
        stdout.write(f"  hand {number}: {describe_outcome(outcome)}\n")
    return EXIT_OK


def _conform(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from .conformance.cli import conform

    return conform(args, stdout, stderr)


def _engine(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from .conformance.server import serve

    return serve(sys.stdin, stdout)


_COMMANDS = {
    "conform": _conform,
    "engine": _engine,
    "validate": _validate,
    "list": _list,
    "show": _show,
    "play": _play,
    "replay": _replay,
}


def main() -> None:
    """Console entry point."""
    sys.exit(run(sys.argv[1:], sys.stdout, sys.stderr))


if __name__ == "__main__":
    main()
