"""How `matador simulate` scales: parallel efficiency over cores, and memory against N.

* **Parallel efficiency.** The same seeded simulation (the same numbers, which
  the script checks) with ``jobs`` = 1, 2, 4... up to the cores this machine
  gives the process. Efficiency on J jobs is T1 / (J x TJ): 1.0 is perfect
  scaling; spawning the workers (a fresh interpreter each, about 0.2 s) is
  inside the timing, so the run must be long enough for parallelism to be
  worth having: the default, 200,000 hands, takes several seconds on one core.
  The job counts take turns ``--repeats`` times, and the fastest run of each
  is kept.
* **Memory against N.** Peak resident memory of a fresh process simulating N,
  then 4N, then 16N hands in one process: flat memory means the three peaks
  are close (a simulation keeps counts, not hands).

    python benchmarks/bench_simulate.py                 # 200,000 hands, german, 2 players
    python benchmarks/bench_simulate.py --hands 100000 --variant pagat --players 4
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

# Run from a checkout without installing: make the repository importable.
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from reference_engine.rules import Catalog  # noqa: E402
from reference_engine.simulate import simulate  # noqa: E402


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def efficiency(variant: str, players: int, hands: int, seed: int, repeats: int) -> list[str]:
    """Wall time and parallel efficiency for 1, 2, 4... jobs, the fastest of ``repeats``
    runs of each (the job counts take turns, so a machine that changes speed
    during the runs treats them alike)."""
    rules = Catalog.shipped().resolve(variant)
    counts = [1]
    while counts[-1] * 2 <= max(4, cores()):
        counts.append(counts[-1] * 2)
    best: dict[int, float] = {}
    first = None
    for _ in range(repeats):
        for jobs in counts:
            start = time.perf_counter()
            stats = simulate(rules, hands=hands, players=players, seed=seed, jobs=jobs)
            seconds = time.perf_counter() - start
            if first is None:
                first = stats.tally
            elif stats.tally != first:
                raise SystemExit(f"jobs={jobs} gave other numbers than jobs=1: a bug")
            best[jobs] = min(seconds, best.get(jobs, seconds))
    lines = [f"{'jobs':>4}  {'seconds':>8}  {'hands/s':>9}  efficiency"]
    for jobs in counts:
        seconds = best[jobs]
        note = "" if jobs <= cores() else f"  (only {cores()} cores here)"
        lines.append(
            f"{jobs:>4}  {seconds:>8.2f}  {hands / seconds:>9,.0f}  "
            f"{best[1] / (jobs * seconds):>10.2f}{note}"
        )
    return lines


PEAK = """
import resource, sys
sys.path.insert(0, {root!r})
from reference_engine.rules import Catalog
from reference_engine.simulate import simulate
simulate(Catalog.shipped().resolve({variant!r}), hands={hands}, players={players}, seed=1)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def memory(variant: str, players: int, hands: int) -> list[str]:
    """Peak resident memory (KiB) of one process simulating N, 4N and 16N hands."""
    lines = [f"{'hands':>9}  {'peak RSS':>10}"]
    for count in (hands, 4 * hands, 16 * hands):
        code = PEAK.format(root=str(ROOT), variant=variant, hands=count, players=players)
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout
        lines.append(f"{count:>9,}  {int(out.split()[-1]) / 1024:>7.1f} MiB")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--variant", default="german", help="shipped variant (default german)")
    parser.add_argument("--players", type=int, default=2, help="players (default 2)")
    parser.add_argument("--hands", type=int, default=200_000, help="hands per run (default 200000)")
    parser.add_argument("--seed", type=int, default=2024, help="seed (default 2024)")
    parser.add_argument(
        "--repeats", type=int, default=3, help="runs of each job count, fastest kept (default 3)"
    )
    args = parser.parse_args(argv)
    print(
        f"python {sys.version.split()[0]}; {cores()} cores; {args.variant}, {args.players} players"
    )
    print()
    print("\n".join(efficiency(args.variant, args.players, args.hands, args.seed, args.repeats)))
    print()
    print("\n".join(memory(args.variant, args.players, max(1000, args.hands // 8))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
