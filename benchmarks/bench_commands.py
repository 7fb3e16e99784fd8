"""How long the commands people run most take, as they run them: a fresh process each time.

Measures ``matador --help``, ``matador list``, the conformance suite against
the reference engine in-process (``matador conform``) and over the protocol
(``matador conform --engine "matador engine"``). Each command runs ``--runs``
times in a new process; the table gives the median and the lowest of the CPU
seconds (user and system, of the command and every process it started and
waited for, the engine program included) and of the wall-clock seconds,
beside the target the project set for it. It is a script, not a test: run it
by hand, on a machine as quiet as you can make it.

    python benchmarks/bench_commands.py
    python benchmarks/bench_commands.py --runs 9 --only conform-protocol
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    """A command to time, and the CPU seconds it should take at most."""

    name: str
    argv: tuple[str, ...]
    target: float


def commands(matador: str) -> list[Command]:
    return [
        Command("help", (matador, "--help"), 0.1),
        Command("list", (matador, "list"), 0.1),
        Command("conform-in-process", (matador, "conform"), 1.0),
        Command("conform-protocol", (matador, "conform", "--engine", f"{matador} engine"), 2.0),
    ]


@dataclass(frozen=True)
class Timing:
    cpu: float
    user: float
    system: float
    wall: float


def timed(argv: Sequence[str], folder: str) -> Timing:
    """One run of ``argv`` in ``folder``: the CPU its process tree used, and the wall time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip()
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {message}")
    user = after.ru_utime - before.ru_utime
    system = after.ru_stime - before.ru_stime
    return Timing(user + system, user, system, wall)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each command (default 5)")
    parser.add_argument("--only", action="append", help="time only this command (repeatable)")
    args = parser.parse_args(argv)
    matador = shutil.which("matador") or os.path.join(os.path.dirname(sys.executable), "matador")
    if not os.path.exists(matador):
        raise SystemExit("matador is not installed in this environment: pip install -e .")
    chosen = [c for c in commands(matador) if not args.only or c.name in args.only]
    header = f"{'command':<20} {'cpu median':>10} {'cpu min':>8} {'user':>6} {'sys':>6} "
    print(header + f"{'wall':>6} {'target':>7}  met")
    with tempfile.TemporaryDirectory() as folder:  # away from the checkout, as a user runs it
        for command in chosen:
            timed(command.argv, folder)  # a first run warms the file cache and byte code
            runs = [timed(command.argv, folder) for _ in range(args.runs)]
            cpu = statistics.median(run.cpu for run in runs)
            print(
                f"{command.name:<20} {cpu:>10.3f} {min(run.cpu for run in runs):>8.3f} "
                f"{statistics.median(run.user for run in runs):>6.2f} "
                f"{statistics.median(run.system for run in runs):>6.2f} "
                f"{statistics.median(run.wall for run in runs):>6.2f} "
                f"{command.target:>7.1f}  {'yes' if cpu < command.target else 'no'}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
