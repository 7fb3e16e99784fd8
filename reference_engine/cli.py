"""The ``matador`` command line.

:func:`run` takes the arguments and the two output streams and returns the exit
status, so tests drive it with ``StringIO``; only :func:`main` exits. Exit 0 on
success, 1 when what was asked about is invalid (a broken file, an unknown
variant or option), 2 on a usage error (:class:`~reference_engine.exits.ExitStatus`
lists them all). A user's mistake never shows a traceback.

Every file a user names is read through :mod:`reference_engine.safeio` (within
the size limit that ``--max-bytes`` raises), every file written is written
atomically, and standard output that cannot be written (a reader that went
away, a full disk) ends the command with a clear status instead of a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import json
import math
import os
import random
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO, cast

from . import safeio
from .disputes import (
    compare,
    comparison_document,
    diff_text,
    main_rule,
    odds,
    odds_data,
    odds_text,
    parse_target,
    score_everywhere,
    score_text,
)
from .engine.record import match_record, play_match, replay
from .engine.scoring import Termination
from .engine.strategies import STRATEGIES
from .engine.transcript import describe_outcome, transcript
from .errors import DealError
from .exits import ExitStatus
from .rules import Catalog, Rules, RulesError, parse_option_assignments
from .rules.present import rules_data, rules_text
from .rules.yamldoc import input_problem, parse_yaml
from .sheets import FORMATS as SHEET_FORMATS
from .sheets import LANGUAGES as SHEET_LANGUAGES

EXIT_OK = ExitStatus.OK
EXIT_INVALID = ExitStatus.INVALID
EXIT_USAGE = ExitStatus.USAGE


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
        "--timeout",
        type=_seconds,
        default=5.0,
        metavar="SECONDS",
        help="the deadline of each request to the engine (default 5)",
    )
    conform.add_argument(
        "--start-timeout",
        type=_seconds,
        default=10.0,
        metavar="SECONDS",
        help="the deadline of the handshake, start-up included (default 10)",
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

    sheet = command("sheet", "make a printable rule sheet of a variant (PDF, HTML or Markdown)")
    sheet.add_argument("variant", metavar="ID", help="variant id (see: matador list)")
    sheet.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="choose an option of the variant (repeatable)",
    )
    sheet.add_argument(
        "--lang", choices=SHEET_LANGUAGES, default="en", help="language (default: en)"
    )
    sheet.add_argument(
        "--format", choices=SHEET_FORMATS, default="pdf", help="output format (default: pdf)"
    )
    sheet.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write the sheet to FILE (default for pdf: ID-LANG.pdf here; "
        "html and markdown go to standard output)",
    )

    compare_command = command("compare", "every rule of every variant side by side, with sources")
    compare_command.add_argument(
        "variants", nargs="*", metavar="ID[:NAME=VALUE,...]", help="variants (default: all)"
    )
    compare_command.add_argument(
        "--format", choices=["table", "markdown", "html"], default="table", help="output format"
    )

    diff_command = command("diff", "only the rules that differ between two variants")
    diff_command.add_argument("first", metavar="A", help="ID or ID:NAME=VALUE,...")
    diff_command.add_argument("second", metavar="B", help="ID or ID:NAME=VALUE,...")

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
    score_command.add_argument("--variant", action="append", default=[], help="only these")

    odds_command = command("odds", "exact matador odds for a hand, and which tiles answer an end")
    odds_command.add_argument("--set", type=int, default=6, metavar="N", help="double-N set")
    odds_command.add_argument("--hand", type=int, default=7, metavar="K", help="tiles in hand")
    odds_command.add_argument(
        "--variant", metavar="ID[:NAME=VALUE,...]", help="count answers under this variant"
    )
    odds_command.add_argument("--json", action="store_true", help="print JSON")

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
        "--action",
        metavar="ACTION",
        help="the proposed action: 3-4@L (any way), 3-4@L:3, draw, pass",
    )
    explain_command.add_argument("--variant", action="append", default=[], help="only these")
    for name in _READS_USER_FILES:
        _max_bytes_argument(commands.choices[name])
    return parser


#: The commands that read files a user names, and so take ``--max-bytes``.
_READS_USER_FILES = ("validate", "conform", "explain", "replay")


def _positive_int(text: str) -> int:
    """A positive whole number of bytes (argparse type)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"give a positive whole number of bytes, not {text!r}")
    return value


def _max_bytes_argument(parser: argparse.ArgumentParser) -> None:
    """Give ``parser`` the ``--max-bytes`` option; run() applies it with safeio.size_limit."""
    limits = ", ".join(f"{size:,} for {kind}" for kind, size in safeio.DEFAULT_LIMITS.items())
    parser.add_argument(
        "--max-bytes",
        type=_positive_int,
        metavar="N",
        help=f"read input files of up to N bytes (default: {limits})",
    )


def _seconds(text: str) -> float:
    """A finite, positive number of seconds (argparse type)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0 or value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give a positive number of seconds, at most {MAX_SECONDS:,}"
        )
    return value


#: The longest deadline a command takes: a day.
MAX_SECONDS = 86_400


def _option_argument(parser: _Parser) -> None:
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="choose an option of the variant (repeatable)",
    )


class _OutputClosed(Exception):
    """Standard output was closed by its reader (``matador list | head -1``)."""


class _OutputFailed(Exception):
    """Standard output could not be written (a full disk, an I/O error)."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error.strerror or str(error))
        self.reason = error.strerror or str(error)


class _GuardedOutput:
    """Standard output whose failures are told apart from every other ``OSError``.

    A handler may catch ``OSError`` for the files it reads; a failure to write
    its output must not be mistaken for one of those, so it is raised as
    :class:`_OutputClosed` or :class:`_OutputFailed`, which only :func:`run` catches.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise _OutputClosed from None
        except OSError as error:
            raise _OutputFailed(error) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise _OutputClosed from None
        except OSError as error:
            raise _OutputFailed(error) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def run(argv: Sequence[str], stdout: TextIO, stderr: TextIO) -> int:
    """Run the ``matador`` command with ``argv``; return the exit status."""
    output = _GuardedOutput(stdout)
    try:
        status = _run(argv, cast(TextIO, output), stderr)
        output.flush()
    except _OutputClosed:
        # The reader has all it wanted: end quietly, as `yes | head -1` does.
        return ExitStatus.BROKEN_PIPE
    except _OutputFailed as failure:
        stderr.write(f"{_command_name(argv)}: cannot write the output: {failure.reason}\n")
        return EXIT_INVALID
    return status


def _command_name(argv: Sequence[str]) -> str:
    """``matador COMMAND`` for messages, from the first argument that names a command."""
    for item in argv:
        if item in _COMMANDS:
            return f"matador {item}"
    return "matador"


def _run(argv: Sequence[str], stdout: TextIO, stderr: TextIO) -> int:
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
        with safeio.size_limit(getattr(args, "max_bytes", None)):
            return handler(args, stdout, stderr)
    except safeio.InputError as error:
        stderr.write(f"{error.path}: cannot read the file: {error.message}\n")
        return EXIT_INVALID
    except safeio.OutputError as error:
        stderr.write(f"matador {args.command}: {error}\n")
        return EXIT_INVALID
    except UsageError as error:
        stderr.write(f"matador {args.command}: {error}\n")
        return EXIT_USAGE
    except RulesError as error:
        for problem in error.problems:
            if problem.file.startswith("<") and problem.line is None:
                # not about a file: a variant or option named on the command line
                fix = f" ({problem.fix})" if problem.fix else ""
                stderr.write(f"matador {args.command}: {problem.message}{fix}\n")
            else:
                stderr.write(f"{problem}\n")
        return EXIT_INVALID
    except DealError as error:
        stderr.write(f"matador {args.command}: {error}\n")
        return EXIT_INVALID


def _json_text(data: object, *, ensure_ascii: bool = True) -> str:
    """``data`` as indented JSON and a newline; NaN and Infinity, which JSON lacks, raise."""
    return json.dumps(data, indent=2, ensure_ascii=ensure_ascii, allow_nan=False) + "\n"


def _validate(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    paths = [Path(path) for path in args.paths]
    for path in paths:
        if os.path.isdir(path):  # not Path.is_dir(): it raises on a name too long
            stderr.write(f"matador validate: {path} is a directory; give variant files\n")
            return EXIT_USAGE
    catalog = Catalog.load(paths, with_shipped=not paths)
    if paths and catalog.files:
        # A given file loaded, and may extend or stand in for a shipped variant;
        # when none did, reading the shipped ones would tell nothing more.
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
        stdout.write(_json_text(rules_data(rules), ensure_ascii=False))
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
        stdout.write(_json_text(record))
    else:
        stdout.write(transcript(match, seed))
    return EXIT_OK


def _replay(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from .engine.record import RecordSyntaxError, parse_record
    from .safeio import FileKind, InputError, read_input

    path = Path(args.record)
    try:
        record = parse_record(read_input(path, FileKind.JSON))
    except InputError as error:
        stderr.write(f"{error}\n")
        return EXIT_INVALID
    except RecordSyntaxError as error:
        stderr.write(f"{path}: {error}\n")
        return EXIT_INVALID
    report = replay(record)
    for finding in report.findings:
        stderr.write(f"{path}: {finding}\n")
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
        stderr.write(f"{path}: invalid: {count} problem(s){shown}\n")
        return EXIT_INVALID
    variant = report.match.rules.variant if report.match is not None else "its variant"
    stdout.write(
        f"{path}: valid: {report.hands} hand(s), {report.actions} action(s) legal under "
        f"{variant}; results agree with the rules\n"
    )
    for number, outcome in enumerate(report.outcomes, start=1):
        stdout.write(f"  hand {number}: {describe_outcome(outcome)}\n")
    return EXIT_OK


def _conform(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from .conformance.cli import conform

    return conform(args, stdout, stderr)


def _sheet(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from .sheets.model import build_sheet
    from .sheets.render import PdfUnavailableError, render_html, render_markdown, render_pdf

    to_stdout = args.format != "pdf" and args.output is None
    path = Path(args.output or f"{args.variant}-{args.lang}.pdf")
    if not to_stdout:
        # Before any work: a path that cannot be written is said at once, and an
        # existing file is only ever replaced whole, by write_atomically.
        safeio.check_output_path(path)
    rules = Catalog.shipped().resolve(args.variant, parse_option_assignments(args.option))
    render_text = render_html if args.format == "html" else render_markdown
    if to_stdout:
        stdout.write(render_text(build_sheet(rules, args.lang)))
        return EXIT_OK
    sheet = build_sheet(rules, args.lang)
    content: str | bytes
    if args.format == "pdf":
        try:
            content, pages = render_pdf(sheet)
        except PdfUnavailableError as error:
            stderr.write(f"matador sheet: {error}\n")
            return EXIT_INVALID
        done = f"matador sheet: wrote {path} ({pages} page{'s' if pages != 1 else ''})\n"
    else:
        content = render_text(sheet)
        done = f"matador sheet: wrote {path}\n"
    safeio.write_atomically(path, content)
    stdout.write(done)
    return EXIT_OK


def _engine(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from .conformance.server import serve

    return serve(sys.stdin, stdout)


def _resolve_target(text: str) -> Rules:
    try:
        variant, options = parse_target(text)
    except ValueError as error:
        raise UsageError(str(error)) from None
    return Catalog.shipped().resolve(variant, options)


def _compare(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    if not args.variants and args.format == "markdown":
        stdout.write(comparison_document(Catalog.shipped()))
        return EXIT_OK
    targets = args.variants or Catalog.shipped().ids()
    stdout.write(compare([_resolve_target(t) for t in targets], args.format) + "\n")
    return EXIT_OK


def _diff(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    stdout.write(diff_text(_resolve_target(args.first), _resolve_target(args.second)))
    return EXIT_OK


def _score(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
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
    unknown = [v for v in args.variant if v not in catalog.ids()]
    if unknown:
        raise UsageError(f"unknown variant(s): {', '.join(unknown)}")
    termination = Termination.BLOCKED if args.domino is None else Termination.DOMINO
    awards = score_everywhere(
        catalog, pips, termination, args.domino, teams=args.teams, variants=args.variant
    )
    stdout.write(score_text(awards, pips, args.teams))
    return EXIT_OK


def _odds(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    if not 1 <= args.set <= 18:
        raise UsageError("--set: give N between 1 and 18")
    catalog = Catalog.shipped()
    rules = _resolve_target(args.variant) if args.variant else main_rule(catalog, args.set)
    if rules.max_pip != args.set:
        raise UsageError(f"{rules.variant} plays the double-{rules.max_pip} set, not {args.set}")
    try:
        result = odds(args.set, args.hand)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if args.json:
        stdout.write(_json_text(odds_data(result, rules)))
    else:
        stdout.write(odds_text(result, rules))
    return EXIT_OK


def _explain(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from .explain import Situation, explain

    data: dict[str, object] = {}
    if args.situation:
        try:
            raw = safeio.read_input(args.situation, safeio.FileKind.YAML)
        except safeio.InputError as error:
            # A path that names no readable file is a mistake on the command line.
            raise UsageError(str(input_problem(error))) from None
        document, problems = parse_yaml(raw, args.situation)
        if document is None:
            raise RulesError(problems)
        if not isinstance(document.data, dict):
            raise UsageError(f"{args.situation}: a situation is a mapping of fields")
        data.update(document.data)
    flags = {
        "hand": args.hand and args.hand.split(","),
        "ends": args.ends and args.ends.split(","),
        "boneyard": args.boneyard,
        "players": args.players,
        "drawn": args.drawn,
        "action": args.action,
    }
    data.update({key: value for key, value in flags.items() if value is not None})
    catalog = Catalog.shipped()
    unknown = [v for v in args.variant if v not in catalog.ids()]
    if unknown:
        raise UsageError(f"unknown variant(s): {', '.join(unknown)}")
    try:
        situation = Situation.from_data(data)
        stdout.write(explain(catalog, situation, args.variant))
    except ValueError as error:
        raise UsageError(str(error)) from None
    return EXIT_OK


_COMMANDS = {
    "explain": _explain,
    "compare": _compare,
    "diff": _diff,
    "score": _score,
    "odds": _odds,
    "conform": _conform,
    "engine": _engine,
    "sheet": _sheet,
    "validate": _validate,
    "list": _list,
    "show": _show,
    "play": _play,
    "replay": _replay,
}


class _ClosedStream(io.StringIO):
    """A standard stream the shell closed (``matador list >&-``): writing to it fails."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


class _QuietErrors(io.TextIOBase):
    """Standard error that never fails a command: a message that cannot be shown is dropped."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        if self._stream is not None:
            with contextlib.suppress(OSError, ValueError):
                self._stream.write(text)
                self._stream.flush()
        return len(text)

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()


def main() -> None:
    """Console entry point."""
    stdout: TextIO = sys.stdout if sys.stdout is not None else _ClosedStream()
    stderr = cast(TextIO, _QuietErrors(sys.stderr))
    try:
        status = run(sys.argv[1:], stdout, stderr)
    except KeyboardInterrupt:
        # Ctrl-C outside a command that handles it (conform does): end quietly.
        status = ExitStatus.INTERRUPTED
    if sys.stdout is None:
        sys.exit(status)
    if threading.active_count() > 1:
        # Code under test (an in-process engine) left a thread running: do not wait
        # for it at exit, which could be for ever.
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.flush()
        os._exit(status)
    try:
        sys.stdout.flush()
    except OSError:
        # The reader went away or the disk is full, and run() has said so. Send
        # what is still buffered to the null device, or the interpreter's last
        # flush fails again and prints "Exception ignored".
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    sys.exit(status)


if __name__ == "__main__":
    main()
