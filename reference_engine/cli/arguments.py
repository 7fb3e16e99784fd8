"""How a ``matador`` command line is read: the parser, usage errors, shared argument types.

:class:`Parser` raises :class:`UsageError` instead of exiting and prints help
where it is told, so :func:`~reference_engine.cli.app.run` decides every exit
status. The argument types and options here are shared by several commands;
:class:`Choices` lets an option take its allowed values from the table that
owns them without importing that table's module when the parser is built.
"""

from __future__ import annotations

import argparse
import math
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from .. import safeio
from ..errors import InputProblem
from ..text.width import NARROWEST, terminal_columns

if TYPE_CHECKING:
    from ..rules import Rules


class UsageError(InputProblem):
    """A malformed command line (exit 2)."""


class InvalidInput(InputProblem):
    """What was asked about is invalid: an unknown name, an impossible question (exit 1)."""


class HelpFormatter(argparse.HelpFormatter):
    """argparse's own help layout, told the terminal's width by :func:`terminal_columns`.

    (argparse makes a formatter for every option added, and asks
    :func:`shutil.get_terminal_size` for the width each time, when none is given.)
    """

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is None:  # as argparse: the terminal's columns, less two
            width = terminal_columns(os.environ.get("COLUMNS", "")) - 2
        super().__init__(prog, indent_increment, max_help_position, width)


class Parser(argparse.ArgumentParser):
    """An argument parser that raises instead of exiting and writes where it is told."""

    def __init__(self, *args: object, stdout: TextIO, **kwargs: object) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._stdout = stdout

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """A value outside ``action``'s choices is refused with the nearest choices first."""
        choices = action.choices
        if choices is None or value in choices:
            return
        from ..text.suggest import did_you_mean

        known = [str(choice) for choice in choices]
        hint = did_you_mean(str(value), known)
        message = f"invalid choice: {value!r}" + (f"; {hint}" if hint else "")
        raise argparse.ArgumentError(action, f"{message} (choose from {', '.join(known)})")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            self._stdout.write(message)
        raise ParserExit(status)

    def print_help(self, file: object = None) -> None:
        super().print_help(self._stdout)


class ParserExit(Exception):
    """The parser is done (``--help`` was printed); the command ends with ``status``."""

    def __init__(self, status: int) -> None:
        self.status = status


#: The name the package is installed under (its metadata holds the version).
DISTRIBUTION = "matador-reference"


def version() -> str:
    """The installed package's version, or the source tree's when it is not installed."""
    from importlib import metadata

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        from .. import __version__

        return __version__


class VersionAction(argparse.Action):
    """``--version``: print ``matador VERSION`` to the parser's output and end with 0."""

    def __init__(self, option_strings: list[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        parser.exit(0, f"{parser.prog} {version()}\n")


class Choices:
    """An option's allowed values, read from the table that owns them when first needed.

    argparse reads ``choices`` only to check a value given and to print the
    option's help (``%(choices)s``); ``load``, which imports the table's module,
    runs then rather than when ``matador``'s parser is built, so that
    ``matador --help`` does not import, say, the engine for ``--strategy``. Give
    the option a ``metavar``: without one argparse spells the choices out at once.
    """

    def __init__(self, load: Callable[[], Iterable[str]]) -> None:
        self._load = load
        self._values: tuple[str, ...] | None = None

    def _all(self) -> tuple[str, ...]:
        if self._values is None:
            self._values = tuple(sorted(self._load()))
        return self._values

    def __contains__(self, value: object) -> bool:
        return value in self._all()

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())


#: Adds the subcommand NAME described by TEXT and returns its parser.
AddCommand = Callable[[str, str], Parser]

#: Runs a parsed command, writing to (stdout, stderr); returns the exit status.
Handler = Callable[[argparse.Namespace, TextIO, TextIO], int]


def _positive(text: str, what: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"give {what}, not {text!r}")
    return value


def positive_int(text: str) -> int:
    """A positive whole number (argparse type)."""
    return _positive(text, "a positive whole number")


def byte_count(text: str) -> int:
    """A positive whole number of bytes (argparse type)."""
    return _positive(text, "a positive whole number of bytes")


def engine_argument(parser: argparse.ArgumentParser, *, default: str = "") -> None:
    """Give ``parser`` the engine under test, ``--engine``.

    ``default`` ends its help (what runs when it is left out); with none, the
    option is required.
    """
    parser.add_argument(
        "--engine",
        metavar="COMMAND",
        required=not default,
        help='an engine program speaking spec/protocol.md (e.g. "matador engine"), or '
        "python:MODULE:FACTORY or python:path/to/file.py:FACTORY for a Python engine, "
        "looked for in the current folder first and run in a process of its own" + default,
    )
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="run a python: engine inside the judge: faster, but it trusts the engine's "
        "code (its prints, a hang while it loads, the processes it starts)",
    )


def deadline_arguments(parser: argparse.ArgumentParser) -> None:
    """Give ``parser`` the engine's deadlines: ``--timeout`` and ``--start-timeout``."""
    parser.add_argument(
        "--timeout",
        type=seconds,
        default=5.0,
        metavar="SECONDS",
        help="the deadline of each request to the engine (default 5)",
    )
    parser.add_argument(
        "--start-timeout",
        type=seconds,
        default=10.0,
        metavar="SECONDS",
        help="the deadline of the handshake, start-up included (default 10)",
    )


def max_bytes_argument(parser: argparse.ArgumentParser) -> None:
    """Give ``parser`` the ``--max-bytes`` option; run() applies it with safeio.size_limit.

    Every command that reads files a user names takes it, as its last option.
    """
    limits = ", ".join(f"{size:,} for {kind}" for kind, size in safeio.DEFAULT_LIMITS.items())
    parser.add_argument(
        "--max-bytes",
        type=byte_count,
        metavar="N",
        help=f"read input files of up to N bytes (default: {limits})",
    )


def seconds(text: str) -> float:
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


def option_argument(
    parser: argparse.ArgumentParser, help: str = "choose an option of the variant (repeatable)"
) -> None:
    """Give ``parser`` the repeatable ``--option``/``-O NAME=VALUE`` of a variant.

    ``-O`` means a rule option in every command that takes one, and ``-o`` the
    file written (:func:`output_argument`); tests/test_cli_flags.py holds every
    short flag to one long form across the commands.
    """
    parser.add_argument(
        "--option", "-O", action="append", default=[], metavar="NAME=VALUE", help=help
    )


def variant_arguments(parser: argparse.ArgumentParser, *, many: bool = True) -> None:
    """Give ``parser`` the variants a question is put to: ``--variant ID[:NAME=VALUE,...]``
    (repeatable when ``many``) and ``-O NAME=VALUE``, applied to every variant that has
    the option (:func:`resolve_targets` reads them)."""
    parser.add_argument(
        "--variant",
        action="append" if many else "store",
        default=[] if many else None,
        metavar="ID[:NAME=VALUE,...]",
        help="only this variant, with these options"
        + (" (repeatable; default: every shipped variant)" if many else ""),
    )
    option_argument(parser, "choose an option for every variant that has it (repeatable)")


def select_targets(
    texts: Sequence[str], options: Sequence[str]
) -> list[tuple[str, dict[str, str]]]:
    """Each ``ID[:NAME=VALUE,...]`` in ``texts`` (none: every shipped variant) as its id
    and the options chosen for it, the ``-O`` options added to each variant that has them.

    An option that no variant has, or an unknown variant, raises ``RulesError``
    (exit 1); a malformed ``ID:...`` or an option set two ways, :class:`UsageError`.
    """
    from ..disputes.naming import selected
    from ..rules import Catalog, RulesError, parse_option_assignments

    try:
        return selected(Catalog.shipped(), texts, parse_option_assignments(options))
    except ValueError as error:
        if isinstance(error, RulesError):
            raise
        raise UsageError(str(error)) from None


def resolve_targets(texts: Sequence[str], options: Sequence[str]) -> list[Rules]:
    """The rules of each variant :func:`select_targets` selects."""
    from ..rules import Catalog

    catalog = Catalog.shipped()
    return [catalog.resolve(variant, chosen) for variant, chosen in select_targets(texts, options)]


def selection_arguments(parser: argparse.ArgumentParser) -> None:
    """Give ``parser`` the filters of the conformance cases that ``conform`` and ``cases`` share."""
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="ID[:NAME=VALUE,...]",
        help="only this variant's case runs (repeatable); with options, only the runs "
        "that the cases give under those option values",
    )
    parser.add_argument(
        "--case", action="append", default=[], metavar="GLOB", help="only case ids matching GLOB"
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="RULE",
        help="only cases exercising this rule (RULE or RULE=VALUE)",
    )
    parser.add_argument(
        "--cases",
        action="append",
        default=[],
        metavar="PATH",
        help="case files or folders to read instead of the suite",
    )


def output_argument(parser: argparse.ArgumentParser, help: str) -> None:
    """Give ``parser`` the file it writes, ``--output``/``-o FILE`` (``-``: standard output).

    A command that prints its result and has no ``--output`` of its own is given
    one by :func:`~reference_engine.cli.app.build_parser`, which writes what it
    prints to the file.
    """
    parser.add_argument("--output", "-o", metavar="FILE", help=help)


def is_device(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a character device (``/dev/null``): written straight to, never
    replaced by a renamed file as an output file is. A named pipe is not one: it may have
    no reader, and the command would wait for one forever (it is refused as an output)."""
    try:
        return stat.S_ISCHR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def check_output(path: str | os.PathLike[str]) -> None:
    """Raise :class:`UsageError` unless ``path`` can be written, before any work is done.

    An output file that cannot be written is a mistake on the command line (exit
    2) in every command, whatever the reason (no such folder, a folder where no
    file can be made, a file that is a folder); a write that fails later (a full
    disk) is not (exit 1). The check makes, then removes, a temporary file beside
    ``path``, so that it fails where the write would.
    """
    try:
        safeio.AtomicFile(path).discard()
    except safeio.OutputError as error:
        raise UsageError(str(error)) from None


# ---- the output options of commands that print tables (see :mod:`.tables`)


def _width(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < NARROWEST:
        raise argparse.ArgumentTypeError(f"give a width of at least {NARROWEST}, not {text!r}")
    return value


def width_argument(parser: argparse.ArgumentParser, what: str = "fit tables to N columns") -> None:
    """Give ``parser`` ``--width N``, the width its tables (or all it prints) fit."""
    parser.add_argument(
        "--width",
        type=_width,
        metavar="N",
        help=f"{what} (default: the terminal's width, 80 in a file or pipe)",
    )


def format_arguments(
    parser: argparse.ArgumentParser,
    formats: Sequence[str] = ("table", "json", "markdown"),
    *,
    json_alias: bool = False,
    width: bool = True,
) -> None:
    """Give ``parser`` ``--format`` and (with ``width``) ``--width N``; with ``json_alias``,
    the hidden ``--json`` that older scripts use, now ``--format json``."""
    parser.add_argument(
        "--format",
        choices=list(formats),
        default=formats[0],
        help=f"output format (default {formats[0]})",
    )
    if width:
        width_argument(parser)
    if json_alias:
        parser.add_argument(
            "--json", dest="format", action="store_const", const="json", help=argparse.SUPPRESS
        )
