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
    positive_int,
)


def add_parsers(command: AddCommand) -> None:
    """Add ``conform`` and ``engine`` to ``matador``'s commands."""
    conform = command("conform", "run the conformance suite against an engine")
    engine_argument(conform, default="; default: the reference engine")
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
        "--coverage", action="store_true", help="print the rule-by-case coverage matrix"
    )
    conform.add_argument(
        "--fail-fast",
        action="store_true",
        help="stop each case at its first deviation (default: report every one)",
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
