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

Every command that prints a result takes ``-o FILE``: a command without its own
``--output`` (which ``sheet``, ``simulate`` and ``conform`` have, to stream or
name a default) is given one here, and :func:`_run` writes what its handler
printed to the file atomically. An output path is checked before any work in
every command: one that cannot be written is a usage error (2), a write that
fails once the file was made is not (1).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
from collections.abc import Sequence
from typing import Any, TextIO, cast

from .. import safeio
from ..errors import DealError
from ..exits import ExitStatus
from ..sinks import Terminal
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
from .arguments import (
    Handler,
    InvalidInput,
    Parser,
    ParserExit,
    UsageError,
    VersionAction,
    check_output,
    is_device,
    output_argument,
    width_argument,
)
from .inputs import refuse_input_as_output
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


def build_parser(stdout: TextIO, only: str | None = None) -> Parser:
    """The ``matador`` parser with every command; it prints help to ``stdout``.

    With ``only``, a command's name, the parser knows that command alone: what
    a command line that starts with it needs (the other commands' options are
    not built, which takes most of the time ``matador list`` spends).
    """
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
        if only is not None and name != only:
            return cast(Parser, _UNBUILT)
        parser: Parser = commands.add_parser(name, help=text, description=text, stdout=stdout)
        return parser

    for add_parsers in _GROUPS:
        add_parsers(command)
    for name, sub in commands.choices.items():
        if name not in PRINTS_NO_RESULT and not any(a.dest == "output" for a in sub._actions):
            # What the command prints is written to the file instead (see _run).
            output_argument(sub, "write what is printed to FILE, atomically (-: standard output)")
            sub.set_defaults(redirected=True)
        if name not in PRINTS_DATA and not any(a.dest == "width" for a in sub._actions):
            # Every line a command prints for a person fits the width (see _handle).
            width_argument(sub, "fit what is printed to N columns")
    return parser


class _Unbuilt:
    """A command's parser not built: every call to add options to it does nothing."""

    def __getattr__(self, name: str) -> Any:
        return self._nothing

    def _nothing(self, *args: object, **kwargs: object) -> _Unbuilt:
        return self  # (add_argument_group() and the like: their options go nowhere too)


_UNBUILT = _Unbuilt()


def _first_command(argv: Sequence[str]) -> str | None:
    """The command a command line starts with, if it starts with one."""
    return argv[0] if argv and argv[0] in COMMANDS else None


#: The commands that print no result of their own to be written to a file: ``engine``
#: speaks the protocol on standard output, ``site`` writes a folder.
PRINTS_NO_RESULT = frozenset({"engine", "site"})


def run(argv: Sequence[str], stdout: TextIO, stderr: TextIO) -> int:
    """Run the ``matador`` command with ``argv``; return the exit status.

    Both streams are :class:`~reference_engine.sinks.Terminal` streams: whatever a
    command writes, an engine's text included, reaches them with no control
    sequence but the command's own colours on a terminal."""
    from ..text.fit import Fitted

    output = GuardedOutput(cast(TextIO, Terminal(stdout)))
    # Every message is fitted to the width: --width's, else the terminal's, else 80.
    messages = Fitted(cast(TextIO, Terminal(stderr)), _width(argv, stderr))
    stderr = cast(TextIO, messages)
    try:
        status = _run(argv, cast(TextIO, output), stderr)
        output.flush()
    except OutputClosed:
        # The reader has all it wanted: end quietly, as `yes | head -1` does.
        return ExitStatus.BROKEN_PIPE
    except OutputFailed as failure:
        stderr.write(f"{_command_name(argv)}: cannot write the output: {failure.reason}\n")
        return ExitStatus.INVALID
    finally:
        with contextlib.suppress(OSError, ValueError):
            messages.flush()
    return status


def _width(argv: Sequence[str], stream: TextIO) -> int:
    """The width asked for on the command line (``--width N``), else ``stream``'s own."""
    from ..text.tables import style_for

    asked = None
    for index, word in enumerate(argv):
        value = argv[index + 1] if word == "--width" and index + 1 < len(argv) else None
        if word.startswith("--width="):
            value = word.split("=", 1)[1]
        if value is not None and value.isdigit():
            asked = int(value)
    return style_for(stream, asked).width


def _command_name(argv: Sequence[str]) -> str:
    """``matador COMMAND`` for messages, from the first argument that names a command."""
    for item in argv:
        if item in COMMANDS:
            return f"matador {item}"
    return "matador"


def _run(argv: Sequence[str], stdout: TextIO, stderr: TextIO) -> int:
    parser = build_parser(stdout, _first_command(argv))
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
    # Imported once a command runs: the problem records need dataclasses, which
    # ``matador --help`` and a usage error can do without.
    from ..rules.errors import ProblemCode, RulesError

    try:
        with contextlib.ExitStack() as stack:
            _other_outputs(args, argv)
            target = _output_target(args, argv, stdout, stack)
            return _handle(handler, args, target, stderr)
    except safeio.InputError as error:
        stderr.write(f"matador {args.command}: {error.path}: cannot read the file: ")
        stderr.write(f"{error.message}\n")
        return ExitStatus.INVALID
    except safeio.OutputError as error:
        stderr.write(f"matador {args.command}: {error}\n")
        # A file that could not even be made is a mistake on the command line.
        failed_later = error.code is safeio.FileProblem.WRITE_FAILED
        return ExitStatus.INVALID if failed_later else ExitStatus.USAGE
    except InvalidInput as error:
        stderr.write(f"matador {args.command}: {error}\n")
        return ExitStatus.INVALID
    except UsageError as error:
        stderr.write(f"matador {args.command}: {error}\n")
        return ExitStatus.USAGE
    except RulesError as error:
        # An option not written NAME=VALUE is a malformed command line; an unknown
        # variant, option or value is something asked about that does not exist.
        syntax = all(p.code is ProblemCode.BAD_OPTION_SYNTAX for p in error.problems)
        for problem in error.problems:
            if problem.file.startswith("<") and problem.line is None:
                # not about a file: a variant or option named on the command line
                fix = f" ({problem.fix})" if problem.fix else ""
                stderr.write(f"matador {args.command}: {problem.message}{fix}\n")
            else:
                stderr.write(f"{problem}\n")
        return ExitStatus.USAGE if syntax and error.problems else ExitStatus.INVALID
    except DealError as error:
        stderr.write(f"matador {args.command}: {error}\n")
        return ExitStatus.INVALID


def _output_target(
    args: argparse.Namespace, argv: Sequence[str], stdout: TextIO, stack: contextlib.ExitStack
) -> TextIO:
    """Where the command writes, checked before any work.

    ``-o FILE`` must be writable and must not be one of the command's own inputs
    (usage errors, 2); ``-o /dev/null`` (a character device) is opened and written
    straight to, as standard output is, never replaced by a renamed file.
    """
    output = getattr(args, "output", None)
    if output is None or output == "-":
        return stdout
    if is_device(output):
        try:
            device = open(output, "w", encoding="utf-8")  # noqa: SIM115
        except OSError as error:
            raise UsageError(f"-o {output}: {error.strerror or error}") from None
        # closed last, quietly: a write it failed is told by the flush before it
        stack.callback(_close_quietly, device)
        guarded = GuardedOutput(device)
        stack.callback(guarded.flush)  # before the file is closed, so a failure is told
        args.output = "-"
        return cast(TextIO, guarded)
    check_output(output)
    refuse_input_as_output(output, argv)
    return stdout


def _other_outputs(args: argparse.Namespace, argv: Sequence[str]) -> None:
    """The files a command writes besides ``-o`` (``simulate --plot``, ``conform --badge``):
    none may be one of its inputs, nor the file ``-o`` writes."""
    for flag in ("plot", "badge"):
        other = getattr(args, flag, None)
        if isinstance(other, str) and other not in ("", "-"):
            refuse_input_as_output(other, argv, f"--{flag}")
            output = getattr(args, "output", None)
            if isinstance(output, str) and output not in ("", "-") and _same_file(output, other):
                raise UsageError(
                    f"-o {output} and --{flag} {other} are one file: give each its own"
                )


def _same_file(one: str, other: str) -> bool:
    """Whether two paths name one file (through links), existing or not."""
    try:
        if os.path.exists(one) and os.path.exists(other):
            return os.path.samefile(one, other)
    except OSError:
        return False
    return os.path.realpath(one) == os.path.realpath(other)


def _close_quietly(device: TextIO) -> None:
    with contextlib.suppress(OSError):
        device.close()


#: The commands whose standard output is for a program, never broken into lines:
#: ``engine`` speaks the protocol, ``completion`` prints a shell script.
PRINTS_DATA = frozenset({"engine", "completion"})

#: The ``--format`` values that are text for a person to read (the others are data:
#: JSON, Markdown, HTML, JUnit, CSV, a PDF).
TEXT_FORMATS = frozenset({"table", "text"})


def _handle(handler: Handler, args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Run ``handler``; what a command without its own ``--output`` prints goes to ``-o``.

    Standard output is fitted to the width (``--width``, else the terminal's, else
    80) when it is text for a person, not data (see :data:`PRINTS_DATA`,
    :data:`TEXT_FORMATS`); :func:`run` fits the messages.
    """
    from ..text.fit import Fitted
    from ..text.tables import style_for

    output = getattr(args, "output", None)
    with safeio.size_limit(getattr(args, "max_bytes", None)):
        if output is None or output == "-" or not getattr(args, "redirected", False):
            if _prints_text(args):
                width = style_for(stdout, getattr(args, "width", None)).width
                stdout = cast(TextIO, Fitted(stdout, width))
            status = handler(args, stdout, stderr)
            stdout.flush()  # (a last line left without its newline, fitted)
            return status
        printed = io.StringIO()
        into: TextIO = cast(TextIO, Terminal(printed))
        if _prints_text(args):  # the file holds what the command prints, fitted alike
            into = cast(TextIO, Fitted(into, style_for(into, getattr(args, "width", None)).width))
        status = handler(args, into, stderr)
        into.flush()
        if printed.getvalue() or status == ExitStatus.OK:
            safeio.write_atomically(output, printed.getvalue())
        return status


def _prints_text(args: argparse.Namespace) -> bool:
    """Whether the command prints text for a person (fitted to the width), not data."""
    if args.command in PRINTS_DATA:
        return False
    chosen = (getattr(args, "format", None), getattr(args, "report", None))
    return all(not isinstance(value, str) or value in TEXT_FORMATS for value in chosen)
