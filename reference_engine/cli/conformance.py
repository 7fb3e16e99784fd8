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


def _conform(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..conformance.cli import conform

    return conform(args, stdout, stderr)


def _engine(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..conformance.server import serve

    return serve(sys.stdin, stdout)


#: The handlers of this group's commands.
COMMANDS: dict[str, Handler] = {"conform": _conform, "engine": _engine}
