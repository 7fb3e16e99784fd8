"""`matador simulate`: play many seeded hands of variants and print what their rules do.

The simulation itself is :mod:`reference_engine.simulate`; this module reads
the command line, shows a progress bar on a terminal, stops cleanly on Ctrl-C
(printing what the finished chunks gathered) and writes the report, or the
plot, atomically when a file is named. Matplotlib is imported only for
``--plot``, Dask only for ``--scheduler``.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TextIO

from .. import safeio
from ..exits import ExitStatus
from ..extras import Extra, install_hint
from .arguments import (
    AddCommand,
    Handler,
    UsageError,
    check_output,
    option_argument,
    output_argument,
    positive_int,
)
from .progress import counting_bar

if TYPE_CHECKING:
    from ..rules import Rules

#: The most worker processes per core --jobs may start (each is a Python process).
JOBS_PER_CORE = 4

#: Hands simulated when neither --hands nor --matches is given.
DEFAULT_HANDS = 10_000

#: The built-in strategies, for --strategy's help only (a test holds this to
#: engine/strategies.py, which the parser must not import: matador --help stays light).
STRATEGY_HELP = "random, first, heaviest, keep-matadors, blocker, expert"


def add_parsers(command: AddCommand) -> None:
    """Add ``simulate`` to ``matador``'s commands."""
    simulate = command(
        "simulate", "play many seeded hands of variants and measure what their rules do"
    )
    simulate.add_argument(
        "variants",
        nargs="+",
        metavar="VARIANT",
        help="a variant id, or ID:NAME=VALUE,... for a choice of its options; "
        "several are compared with the first",
    )
    option_argument(simulate, "choose an option for every variant given (repeatable)")
    count = simulate.add_mutually_exclusive_group()
    count.add_argument(
        "--hands",
        type=positive_int,
        metavar="N",
        help=f"hands per variant (default {DEFAULT_HANDS:,})",
    )
    count.add_argument(
        "--matches", type=positive_int, metavar="N", help="matches to the target per variant"
    )
    simulate.add_argument(
        "--players", type=positive_int, metavar="K", help="players (default: the fewest allowed)"
    )
    simulate.add_argument(
        "--strategy",
        default="random",
        metavar="NAME[,NAME...]",
        help=f"each seat's strategy, seat 0 first (repeated round the table): "
        f"{STRATEGY_HELP}, or python:MODULE:NAME, played in a process of its own "
        "(default random)",
    )
    simulate.add_argument(
        "--in-process",
        action="store_true",
        help="load a python: strategy into the simulation's processes: faster, but it "
        "trusts the strategy's code",
    )
    simulate.add_argument("--seed", type=int, default=0, metavar="S", help="seed (default 0)")
    simulate.add_argument(
        "--jobs",
        type=positive_int,
        metavar="J",
        help="worker processes (default: every core); the numbers do not depend on it",
    )
    simulate.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the chunks on this Dask scheduler (needs the 'dask' extra)",
    )
    simulate.add_argument(
        "--format",
        choices=["table", "markdown", "json", "csv"],
        default="table",
        help="report format (default table)",
    )
    output_argument(simulate, "write the report to FILE")
    simulate.add_argument(
        "--plot",
        metavar="FILE",
        help="also draw the distributions and the comparison to FILE.png or FILE.svg "
        "(needs the 'plot' extra: matplotlib)",
    )


def _targets(args: argparse.Namespace) -> list[Rules]:
    from ..disputes.naming import parse_target
    from ..rules import Catalog, parse_option_assignments

    common = parse_option_assignments(args.option)
    catalog = Catalog.shipped()
    found = []
    for text in args.variants:
        try:
            variant, options = parse_target(text)
        except ValueError as error:
            raise UsageError(str(error)) from None
        for name, value in common.items():
            if options.setdefault(name, value) != value:
                raise UsageError(f"{text} sets {name}={options[name]}, -O sets {name}={value}")
        found.append(catalog.resolve(variant, options))
    return found


def _default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _simulate(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..conformance.transport.signals import Interrupted, stop_on_signals
    from ..engine.strategies import UnknownStrategy
    from ..simulate import simulate_all
    from ..simulate.hosted import StrategyFailed, strategy_for
    from ..simulate.report import FORMATS
    from ..simulate.run import SimulationFailed, chunk_count

    targets = _targets(args)
    strategies = [name.strip() for name in args.strategy.split(",")]
    try:
        for name in strategies:
            strategy_for(name, check_only=True)  # (none of its code is run here)
    except UnknownStrategy as error:
        raise UsageError(str(error)) from None
    for path in (args.output, args.plot):
        if path is not None and path != "-":
            check_output(path)
    if args.plot is not None and not args.plot.lower().endswith((".png", ".svg")):
        raise UsageError("--plot takes a FILE.png or FILE.svg")
    if args.plot is not None and importlib.util.find_spec("matplotlib") is None:
        stderr.write(f"matador simulate: --plot needs matplotlib ({install_hint(Extra.PLOT)})\n")
        return ExitStatus.INVALID
    if args.jobs is not None and args.jobs > JOBS_PER_CORE * _default_jobs():
        raise UsageError(
            f"--jobs {args.jobs}: at most {JOBS_PER_CORE * _default_jobs()} on this machine's "
            f"{_default_jobs()} core(s); for more, use a Dask cluster (--scheduler)"
        )
    count = args.matches or args.hands or DEFAULT_HANDS
    jobs = args.jobs or min(_default_jobs(), chunk_count(count, bool(args.matches), len(targets)))
    total = count * len(targets)
    with stop_on_signals(), _progress_bar(stderr, total, bool(args.matches)) as bar:
        try:
            results = simulate_all(
                targets,
                hands=None if args.matches else count,
                matches=args.matches,
                players=args.players,
                strategies=strategies,
                seed=args.seed,
                jobs=jobs,
                scheduler=args.scheduler,
                progress=bar,
                in_process=args.in_process,
            )
        except (ValueError, SimulationFailed, StrategyFailed) as error:
            stderr.write(f"matador simulate: {error}\n")
            return ExitStatus.INVALID
        except Exception as error:  # a python:MODULE:NAME strategy that fails, say
            stderr.write(f"matador simulate: the simulation failed: {type(error).__name__}: ")
            stderr.write(f"{error}\n")
            return ExitStatus.INVALID
    report = FORMATS[args.format](results)
    if args.output is None or args.output == "-":
        stdout.write(report)
    else:
        safeio.write_atomically(args.output, report)
    if args.plot is not None:
        from ..simulate.plot import draw

        draw(results, args.plot)
    stopped = results[0].interrupted
    if stopped is not None:
        stderr.write(f"matador simulate: stopped by {stopped}; the report has what was finished\n")
        return Interrupted(getattr(signal, stopped, signal.SIGTERM)).status
    return ExitStatus.OK


@contextmanager
def _progress_bar(
    stderr: TextIO, total: int, matches: bool
) -> Iterator[Callable[[int], None] | None]:
    """A progress bar with the rate and the time left, on a terminal only; it is told
    how many hands (or matches) are done."""
    with counting_bar(stderr, "simulating", "matches" if matches else "hands") as count:
        yield None if count is None else (lambda done: count(done, total))


COMMANDS: dict[str, Handler] = {"simulate": _simulate}
