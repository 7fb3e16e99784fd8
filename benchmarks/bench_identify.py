"""What ``matador identify`` costs against the reference engine, beside the whole suite.

Runs, in turns and each in a fresh process from a folder outside the checkout,
``matador conform`` (the whole suite against the reference engine in process)
and ``matador identify --engine "matador engine"`` (every variant it declares,
over the protocol), and prints the median CPU seconds of each (user and
system, of the command and every process it waited for, the engine program
included) and their ratio, beside the target the project set for it: identify
should cost no more than five runs of the suite. It is a script, not a test.

    python benchmarks/bench_identify.py
    python benchmarks/bench_identify.py --runs 5 --hands 10
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from collections.abc import Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_commands import timed

#: identify's CPU over the suite's, at most.
TARGET = 5.0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="turns of each command (default 3)")
    parser.add_argument("--hands", type=int, help="identify's --hands (default: its own)")
    args = parser.parse_args(argv)
    matador = shutil.which("matador") or os.path.join(os.path.dirname(sys.executable), "matador")
    if not os.path.exists(matador):
        raise SystemExit("matador is not installed in this environment: pip install -e .")
    suite = (matador, "conform")
    identify = [matador, "identify", "--engine", f"{matador} engine"]
    if args.hands is not None:
        identify += ["--hands", str(args.hands)]
    with tempfile.TemporaryDirectory() as folder:  # away from the checkout, as a user runs it
        timed(suite, folder)  # a first run warms the file cache and byte code
        timed(identify, folder)
        suites, identifies = [], []
        for _ in range(args.runs):  # in turns: a machine that slows down slows both
            suites.append(timed(suite, folder).cpu)
            identifies.append(timed(identify, folder).cpu)
    suite_cpu, identify_cpu = statistics.median(suites), statistics.median(identifies)
    ratio = identify_cpu / suite_cpu
    print(f"{'command':<40} {'cpu median':>10} {'cpu min':>8}")
    print(f"{'matador conform':<40} {suite_cpu:>10.2f} {min(suites):>8.2f}")
    print(
        f"{'matador identify (matador engine)':<40} {identify_cpu:>10.2f} {min(identifies):>8.2f}"
    )
    verdict = "met" if ratio <= TARGET else "not met"
    print(f"ratio {ratio:.1f} (target at most {TARGET:.0f}): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
