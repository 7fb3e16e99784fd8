"""Run a ``matador`` command line: build the parser, dispatch, turn failures into exit statuses.

:func:`run` takes the arguments and the two output streams and returns the exit
status, so tests drive it with ``StringIO``; only
:func:`~reference_engine.cli.console.main` exits. Exit 0 on success, 1 when what
was asked about is invalid (a broken file, an unknown variant or option), 2 on
a usage error (:class:`~reference_engine.exits.ExitStatus` lists them all). A
user's mistake never shows a traceback.

The commands themselves, each with its options and its handler, live in one
module per group; this module only assembles them, in the order
``matador --help`` lists them. Adding a group is one line in each of
:data:`_GROUPS` and :data:`COMMANDS` (and its import). Every group module is
imported, and its parsers built, on every run, so a group module imports only
what its parsers need (argparse, :mod:`.arguments`); its handlers import the
work they do when they run, and an option's choices that live in a heavy
module are given as :class:`~.arguments.Choices`. That keeps ``matador
--help`` and ``matador list`` fast (tests/test_startup.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO, cast

from .. import safeio
from ..errors import DealError
from ..exits import ExitStatus
from ..rules import RulesError
from . import (
    cases,
    completion,
    conformance,
    disputes,
    examples,
    identify,
    play,
    sheets,
    simulate,
    site,
    variants,
)
from .arguments import Handler, Parser, ParserExit, UsageError, VersionAction
from .output import GuardedOutput, OutputClosed, OutputFailed

#: Each group's parsers, added in this order to ``matador``'s commands.
_GROUPS = (
    variants.add_parsers,
    play.add_parsers,
    conformance.add_parsers,
    cases.add_parsers,
    identify.add_parsers,
    examples.add_parsers,
    sheets.add_parsers,
    disputes.add_parsers,
    simulate.add_parsers,
    completion.add_parsers,
    site.add_parsers,
)

#: Every command's handler, by command name.
COMMANDS: dict[str, Handler] = {
    **variants.COMMANDS,
    **play.COMMANDS,
    **conformance.COMMANDS,
    **cases.COMMANDS,
    **identify.COMMANDS,
    **examples.COMMANDS,
    **sheets.COMMANDS,
    **disputes.COMMANDS,
    **simulate.COMMANDS,
    **completion.COMMANDS,
    **site.COMMANDS,
}


def build_parser(stdout: TextIO) -> Parser:
    """The ``matador`` parser with every command; it prints help to ``stdout``."""
    parser = Parser(
        prog="matador",
        description="The reference for the domino game Matador.",
        stdout=stdout,
    )
    parser.add_argument(
        "--version", "-V", action=VersionAction, help="print matador's version and exit"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    def command(name: str, text: str) -> Parser:
        parser: Parser = commands.add_parser(name, help=text, description=text, stdout=stdout)
        return parser

    for add_parsers in _GROUPS:
        add_parsers(command)
    return parser


def run(argv: Sequence[str], stdout: TextIO, stderr: TextIO) -> int:
    """Run the ``matador`` command with ``argv``; return the exit status."""
    output = GuardedOutput(stdout)
    try:
        status = _run(argv, cast(TextIO, output), stderr)
        output.flush()
    except OutputClosed:
        # The reader has all it wanted: end quietly, as `yes | head -1` does.
        return ExitStatus.BROKEN_PIPE
    except OutputFailed as failure:
        stderr.write(f"{_command_name(argv)}: cannot write the output: {failure.reason}\n")
        return ExitStatus.INVALID
    return status


def _command_name(argv: Sequence[str]) -> str:
    """``matador COMMAND`` for messages, from the first argument that names a command."""
    for item in argv:
        if item in COMMANDS:
            return f"matador {item}"
    return "matador"


def _run(argv: Sequence[str], stdout: TextIO, stderr: TextIO) -> int:
    parser = build_parser(stdout)
    try:
        args, unknown = parser.parse_known_args(list(argv))
        if unknown:
            # Said by the command they were given to, not by ``matador`` as a whole.
            where = f"matador {args.command}" if args.command else "matador"
            raise UsageError(f"{where}: unrecognized arguments: {' '.join(unknown)}")
    except UsageError as error:
        stderr.write(f"{error}\n")
        return ExitStatus.USAGE
    except ParserExit as done:
        return done.status
    if args.command is None:
        parser.print_help()
        return ExitStatus.USAGE
    handler = COMMANDS[args.command]
    try:
        with safeio.size_limit(getattr(args, "max_bytes", None)):
            return handler(args, stdout, stderr)
    except safeio.InputError as error:
        stderr.write(f"{error.path}: cannot read the file: {error.message}\n")
        return ExitStatus.INVALID
    except safeio.OutputError as error:
        stderr.write(f"matador {args.command}: {error}\n")
        return ExitStatus.INVALID
    except UsageError as error:
        stderr.write(f"matador {args.command}: {error}\n")
        return ExitStatus.USAGE
    except RulesError as error:
        for problem in error.problems:
            if problem.file.startswith("<") and problem.line is None:
                # not about a file: a variant or option named on the command line
                fix = f" ({problem.fix})" if problem.fix else ""
                stderr.write(f"matador {args.command}: {problem.message}{fix}\n")
            else:
                stderr.write(f"{problem}\n")
        return ExitStatus.INVALID
    except DealError as error:
        stderr.write(f"matador {args.command}: {error}\n")
        return ExitStatus.INVALID
