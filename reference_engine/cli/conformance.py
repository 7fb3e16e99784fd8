"""``matador conform`` and ``engine``: judge an engine by the suite, and be one on stdin/stdout.

Both run in :mod:`reference_engine.conformance`, imported only when the command
runs; this module holds their options.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from .arguments import (
    AddCommand,
    Handler,
    deadline_arguments,
    engine_argument,
    max_bytes_argument,
    output_argument,
    positive_int,
    selection_arguments,
    width_argument,
)


def add_parsers(command: AddCommand) -> None:
    """Add ``conform`` and ``engine`` to ``matador``'s commands."""
    conform = command("conform", "run the conformance suite against an engine")
    engine_argument(conform, default="; default: the reference engine")
    selection_arguments(conform)
    conform.add_argument(
        "--report",
        choices=["table", "json", "junit", "markdown", "html"],
        default="table",
        help="report format (html: one self-contained page with every failure drawn)",
    )
    output_argument(conform, "write the report to FILE")
    conform.add_argument(
        "--badge",
        metavar="FILE",
        help="also write a shields.io endpoint file: the case runs passed, green when all did",
    )
    deadline_arguments(conform)
    conform.add_argument(
        "--random",
        type=int,
        metavar="N",
        help="also play N random hands per variant and option value against the reference",
    )
    conform.add_argument("--seed", type=int, default=0, help="seed for --random (default 0)")
    conform.add_argument(
        "--jobs",
        type=positive_int,
        default=1,
        metavar="N",
        help="play --random games on N engine programs at once (default 1)",
    )
    conform.add_argument(
        "--coverage",
        action="store_true",
        help="print which cases exercise which rule, as tables (--report table/markdown/json); "
        "judges no engine, so it takes no --engine or --random",
    )
    width_argument(conform)
    conform.add_argument(
        "--fail-fast",
        "-x",
        action="store_true",
        help="stop the whole run at the first deviation: no later case or random game is "
        "played, and the report holds what was judged (exit 1)",
    )
    conform.add_argument(
        "--first-deviation",
        action="store_true",
        help="stop each case at its first deviation, then go on with the next case "
        "(default: report every deviation of every case)",
    )
    max_bytes_argument(conform)

    command("engine", "run the reference engine as a protocol process on stdin/stdout")

    report = command(
        "report",
        "draw a saved run (conform --report json) in another format, or compare two runs",
    )
    report.add_argument(
        "runs",
        nargs="+",
        metavar="RUN",
        help="the JSON-lines report of a run; with --compare, the older run then the newer",
    )
    report.add_argument(
        "--format",
        choices=["table", "json", "junit", "markdown", "html"],
        default="table",
        help="the format to draw the run in (default table)",
    )
    report.add_argument(
        "--compare",
        action="store_true",
        help="say what changed from the first run to the second: rules newly broken, rules "
        "fixed, cases whose verdict changed (exit 1 when the second run is worse)",
    )
    max_bytes_argument(report)


def _conform(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..conformance.conform import conform

    return conform(args, stdout, stderr)


def _engine(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..conformance.protocol.server import serve

    return serve(sys.stdin, stdout)


def _report(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..conformance.reports.rundata import RunFileError, change_lines, compare, read_run
    from ..conformance.reports.writers import WRITERS
    from ..exits import ExitStatus
    from ..safeio import FileKind, InputError, read_input

    if len(args.runs) != (2 if args.compare else 1):
        wanted = "two runs, the older first" if args.compare else "one run (or --compare)"
        stderr.write(f"matador report: give {wanted}, not {len(args.runs)}\n")
        return ExitStatus.USAGE
    try:
        saved = [
            read_run(read_input(path, FileKind.JSON).decode("utf-8").splitlines(), path)
            for path in args.runs
        ]
    except (InputError, RunFileError) as error:
        stderr.write(f"matador report: {error}\n")
        return ExitStatus.INVALID
    except UnicodeDecodeError:
        stderr.write("matador report: a run's report is not UTF-8 text\n")
        return ExitStatus.INVALID
    if args.compare:
        change = compare(saved[0], saved[1])
        lines = change_lines(change) or ["nothing changed"]
        stdout.write("".join(f"{line}\n" for line in lines))
        return ExitStatus.INVALID if change.worse else ExitStatus.OK
    run = saved[0]
    if run.random_hands:
        stderr.write(
            f"matador report: the run's {run.random_hands} random games are not drawn again "
            "(their divergences are in the JSON report)\n"
        )
    WRITERS[args.format](list(run.runs), run.info, stdout, run.summary)
    return ExitStatus.OK


#: The handlers of this group's commands.
COMMANDS: dict[str, Handler] = {"conform": _conform, "engine": _engine, "report": _report}
