"""``matador identify``: which shipped rules an engine really plays, ranked by agreement.

The work is :mod:`reference_engine.conformance.analysis.identification`, imported only when the
command runs; this module holds the command's options and writes its answer:
text that fits 80 columns, Markdown or JSON (``--format``). Exit 0 when it ran,
4 when the engine is unavailable, 2 for a usage error, 1 when no hand could be
observed.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TextIO

from ..exits import ExitStatus
from .arguments import (
    AddCommand,
    Handler,
    deadline_arguments,
    engine_argument,
    format_arguments,
    max_bytes_argument,
    positive_int,
)
from .output import json_text
from .progress import counting_bar

if TYPE_CHECKING:
    from ..conformance.analysis.identification import Identification
    from ..conformance.protocol.interface import EngineInfo
    from ..rules import Catalog


def add_parsers(command: AddCommand) -> None:
    """Add ``identify`` to ``matador``'s commands."""
    identify = command("identify", "which shipped rules does an engine really play?")
    engine_argument(identify, default="; or give --records")
    identify.add_argument(
        "--records",
        action="append",
        default=[],
        metavar="PATH",
        help="judge the games an engine logged instead: game records (spec/record.schema.json)"
        " or folders of them (repeatable)",
    )
    identify.add_argument(
        "--hands",
        type=hand_count,
        default=4,
        metavar="N",
        help="hands dealt at random per player count (default 4); hands built to tell "
        "the closest candidates apart are added",
    )
    identify.add_argument("--seed", type=int, default=0, help="seed of the deals and choices")
    identify.add_argument(
        "--players", type=positive_int, metavar="N", help="only hands of N players"
    )
    identify.add_argument(
        "--top", type=int, default=5, metavar="K", help="candidates shown (default 5; 0: all)"
    )
    format_arguments(identify, json_alias=True, width=False)
    deadline_arguments(identify)
    max_bytes_argument(identify)


def _identify(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..conformance.analysis.identification import identify
    from ..conformance.conform import engine_runner
    from ..conformance.session.runner import EngineUnavailable
    from ..conformance.transport.signals import Interrupted, stop_on_signals
    from ..rules import Catalog

    if args.top < 0:
        stderr.write("matador identify: --top must be 0 (all) or more\n")
        return ExitStatus.USAGE
    if bool(args.engine) == bool(args.records):
        stderr.write("matador identify: give an engine (--engine) or its records (--records)\n")
        return ExitStatus.USAGE
    catalog = Catalog.shipped()
    if args.records:
        return _from_records(args, catalog, stdout, stderr)
    runner = engine_runner(args, catalog, "identify", stderr)
    if runner is None:
        return ExitStatus.USAGE
    top = args.top or None
    try:
        with stop_on_signals():
            try:
                # Greeted before the bar is drawn: its total, the variants the engine
                # declares, is then known from the start.
                runner.engine()
            except BaseException:
                runner.close()
                raise
        with stop_on_signals(), counting_bar(stderr, "variants observed", "variants") as progress:
            try:
                found, pool, combinations = identify(
                    runner,
                    catalog,
                    hands=args.hands,
                    seed=args.seed,
                    players=args.players,
                    top=top,
                    progress=progress,
                )
            finally:
                runner.close()
    except Interrupted as stop:
        runner.close()
        stderr.write(f"matador identify: interrupted by {stop.name}\n")
        return stop.status
    except EngineUnavailable as failed:
        _unavailable(failed.message, failed.stderr, stderr)
        return ExitStatus.ENGINE_UNAVAILABLE
    assert runner.info is not None
    unavailable = runner.unavailable.message if runner.unavailable else None
    _write(args, runner.info, found, pool, combinations, unavailable, stdout)
    if runner.unavailable is not None:
        _unavailable(runner.unavailable.message, runner.unavailable.stderr, stderr)
        return ExitStatus.ENGINE_UNAVAILABLE
    if not any(found_one.observation.hands for found_one in found):
        why = f"played by {args.players} players" if args.players else "observed"
        stderr.write(f"matador identify: no hand of a variant the engine declares was {why}\n")
        return ExitStatus.INVALID
    return _exactly(found, stderr)


def _exactly(found: list[Identification], stderr: TextIO) -> int:
    """0 when, for every variant observed, the closest candidate departs in no rule and
    agrees with every check; else 1, with a line saying which did not match exactly."""
    inexact = [
        one.observation.rules.variant
        for one in found
        if one.observation.hands
        and not (one.ranking and not one.ranking[0].departs and one.ranking[0].exact)
    ]
    if not inexact:
        return ExitStatus.OK
    stderr.write(
        "matador identify: no shipped rule set plays exactly what the engine plays for "
        + ", ".join(inexact)
        + " (the closest are above)\n"
    )
    return ExitStatus.INVALID


def _from_records(
    args: argparse.Namespace, catalog: Catalog, stdout: TextIO, stderr: TextIO
) -> int:
    """``identify --records``: the candidates ranked for the hands of game records."""
    from pathlib import Path

    from ..conformance.analysis.identification import identify_records
    from ..conformance.records import load_records, record_files
    from ..safeio import InputError

    try:
        files = record_files([Path(name) for name in args.records])
    except InputError as error:
        stderr.write(f"matador identify: {error}\n")
        return ExitStatus.INVALID
    from ..conformance.transport.signals import Interrupted, stop_on_signals

    try:
        with stop_on_signals():
            records, problems = load_records(files, catalog)
            for problem in problems:
                stderr.write(f"matador identify: left out: {problem}\n")
            if args.players is not None:
                records = [record for record in records if record["players"] == args.players]
            if not records:
                stderr.write("matador identify: no record to judge\n")
                return ExitStatus.INVALID
            found, pool, combinations = identify_records(records, catalog, args.top or None)
    except Interrupted as stop:
        stderr.write(f"matador identify: interrupted by {stop.name}\n")
        return stop.status
    _write(args, None, found, pool, combinations, None, stdout)
    if problems:
        stderr.write(
            f"matador identify: {len(problems)} of {len(files)} file(s) left out: "
            "the ranking is of the others\n"
        )
        return ExitStatus.INVALID
    return _exactly(found, stderr)


def _write(
    args: argparse.Namespace,
    info: EngineInfo | None,
    found: list[Identification],
    pool: int,
    combinations: int,
    unavailable: str | None,
    stdout: TextIO,
) -> None:
    from .identifyreport import json_answer, markdown_answer, text_answer

    if args.format == "json":
        stdout.write(json_text(json_answer(info, found, args, pool, combinations, unavailable)))
    elif args.format == "markdown":
        stdout.write("\n".join(markdown_answer(found, args)) + "\n")
    else:
        stdout.write("\n".join(text_answer(info, found, args, pool, combinations)) + "\n")


def _unavailable(message: str, tail: str, stderr: TextIO) -> None:
    stderr.write(f"matador identify: engine unavailable: {message}\n")
    if tail:
        stderr.write("".join(f"  engine stderr: {line}\n" for line in tail.splitlines()))


#: The most hands per player count ``--hands`` takes.
MOST_HANDS = 1000


def hand_count(text: str) -> int:
    """A number of hands per player count, 1 to :data:`MOST_HANDS` (argparse type)."""
    count = positive_int(text)
    if count > MOST_HANDS:
        raise argparse.ArgumentTypeError(f"at most {MOST_HANDS} hands per player count")
    return count


#: The handlers of this group's commands.
COMMANDS: dict[str, Handler] = {"identify": _identify}
