"""Machine instructions per hand, counted by valgrind: a speed figure load does not move.

Timing on a shared machine wanders with what else runs; the number of machine
instructions a hand takes does not. This script plays the hands of
``bench_engine.py`` (our engine through ``play_out()`` and step by step, and the
bare bitmask playout, in each deal shape) under valgrind's cachegrind, once for
``--hands`` hands and once for three times as many, after the same warm-up, and
divides the difference by the extra hands: start-up, imports and the tables
built on first use drop out. It prints instructions per hand and the ratio of
the bare playout's count to ours (above 1: ours takes fewer). With
``--cache-sim`` it also counts first-level data cache misses, and gives an
estimate of cycles (instructions + 10 per miss), which is closer to time.

It needs valgrind (``apt-get install valgrind``); it takes a minute or two.

    python benchmarks/count_instructions.py
    python benchmarks/count_instructions.py --hands 3000 --cache-sim
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

#: name -> (players, how it plays: "fused", "steps" or "bare").
SUBJECTS = {
    "matador-4": (4, "fused"),
    "steps-4": (4, "steps"),
    "bare-4": (4, "bare"),
    "matador-2": (2, "fused"),
    "steps-2": (2, "steps"),
    "bare-2": (2, "bare"),
}
#: (ours, the bare playout) pairs compared.
PAIRS = (
    ("matador-4", "bare-4"),
    ("steps-4", "bare-4"),
    ("matador-2", "bare-2"),
    ("steps-2", "bare-2"),
)
WARM_UP = 2000
MISS_CYCLES = 10


def play(name: str, hands: int, seed: int) -> None:
    """Play ``WARM_UP`` and then ``hands`` hands of ``name`` (run under valgrind)."""
    import bare_playout
    import bench_engine

    players, how = SUBJECTS[name]
    rng = random.Random(seed)
    if how == "bare":
        for _ in range(WARM_UP + hands):
            bare_playout.play_hand(rng, players, bench_engine.HAND_SIZE)
        return
    make = bench_engine.matador_hands if how == "fused" else bench_engine.matador_step_hands
    one_hand = make(players, seed)
    for _ in range(WARM_UP + hands):
        one_hand()


def _counts(name: str, hands: int, seed: int, cache: bool) -> tuple[int, int]:
    """Instructions and D1 misses of a whole run of ``hands`` hands under cachegrind."""
    command = [
        "valgrind",
        "--tool=cachegrind",
        f"--cache-sim={'yes' if cache else 'no'}",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--play",
        name,
        "--hands",
        str(hands),
        "--seed",
        str(seed),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    misses = re.search(r"D1\s+misses:\s+([\d,]+)", done.stderr)
    if refs is None:
        raise RuntimeError(f"cachegrind printed no count for {name}:\n{done.stderr[-2000:]}")
    number = int(refs.group(1).replace(",", ""))
    missed = int(misses.group(1).replace(",", "")) if misses else 0
    return number, missed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per run (default 2000)")
    parser.add_argument("--seed", type=int, default=2024, help="random seed (default 2024)")
    parser.add_argument("--cache-sim", action="store_true", help="count D1 misses too")
    parser.add_argument("--play", choices=sorted(SUBJECTS), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.play:
        play(args.play, args.hands, args.seed)
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 1
    per_hand: dict[str, tuple[float, float]] = {}
    print(f"{'engine':<12}{'instructions/hand':>20}{'D1 misses/hand':>16}{'est. cycles':>13}")
    for name in SUBJECTS:
        small = _counts(name, args.hands, args.seed, args.cache_sim)
        large = _counts(name, 3 * args.hands, args.seed, args.cache_sim)
        extra = 2 * args.hands
        instructions, misses = ((b - a) / extra for a, b in zip(small, large, strict=True))
        per_hand[name] = (instructions, instructions + MISS_CYCLES * misses)
        shown = f"{misses:>16,.0f}{per_hand[name][1]:>13,.0f}" if args.cache_sim else ""
        print(f"{name:<12}{instructions:>20,.0f}{shown}")
    print()
    for ours, bare in PAIRS:
        ratio = per_hand[bare][0] / per_hand[ours][0]
        line = f"{ours} / {bare}: {ratio:.2f}x by instructions"
        if args.cache_sim:
            line += f", {per_hand[bare][1] / per_hand[ours][1]:.2f}x by estimated cycles"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
