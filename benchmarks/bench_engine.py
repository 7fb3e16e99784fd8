"""How fast the reference engine plays, next to two other domino engines.

Every engine plays random hands to the end, the same way: legal actions are
generated at every decision and one is chosen uniformly with a seeded
:class:`random.Random`. A hand's deal and set-up are inside the timing. Each
engine gets the same number of seconds, in turns (a few rounds, one slice per
engine each round) so that a machine that gets busier or quieter during the
run treats them alike. The table shows decisions (actions) per second and how
many times faster (or slower) our engine is than each peer.

* ``matador``: this engine, two players, ``gamerules-com`` (draws and passes
  are actions here, the same as plays);
* ``open_spiel``: OpenSpiel's ``python_block_dominoes`` (two players, no
  drawing); only player decisions are counted, not the chance nodes of the deal;
* ``dominoes``: the ``dominoes`` package from PyPI (four players, block game;
  it passes on its own, so only moves are counted). It deals with the global
  :mod:`random` module, which is seeded too.

The peers are optional: one that is not installed is skipped with a note.
Then N random two-player ``gamerules-com`` hands are timed on their own.

    python benchmarks/bench_engine.py                # 3 s per engine, 100,000 hands
    python benchmarks/bench_engine.py --seconds 5 --hands 20000
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

# Run from a checkout without installing: make the repository importable.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reference_engine.engine.deal import Deal
from reference_engine.engine.hand import Hand
from reference_engine.rules import Catalog
from reference_engine.rules.model import Rules

VARIANT = "gamerules-com"
PLAYERS = 2
INSTALL_HINT = "pip install open-spiel dominoes  (or: pip install -e '.[bench]')"


#: Plays one random hand to the end and returns how many actions it counted.
PlayHand = Callable[[], int]


@dataclass
class Run:
    """What one engine did in its time."""

    name: str
    hands: int = 0
    actions: int = 0
    seconds: float = 0.0

    @property
    def rate(self) -> float:
        """Actions per second."""
        return self.actions / self.seconds if self.seconds else 0.0


class Skipped(Exception):
    """A peer engine that is not installed (or does not load)."""


def matador_rules() -> Rules:
    """The rules every matador measurement uses."""
    return Catalog.shipped().resolve(VARIANT)


def play_matador_hand(rules: Rules, rng: random.Random) -> int:
    """Play one random hand of this engine to the end; return its number of actions."""
    hand = Hand(rules, Deal.shuffled(rules, PLAYERS, rng))
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.apply(legal[rng.randrange(len(legal))])
    return len(hand.history)


def matador_hands(seed: int) -> PlayHand:
    """Random hands of this engine."""
    rules = matador_rules()
    rng = random.Random(seed)
    return lambda: play_matador_hand(rules, rng)


def open_spiel_hands(seed: int) -> PlayHand:
    """Random hands of OpenSpiel's python_block_dominoes."""
    try:
        import open_spiel.python.games  # noqa: F401  (registers the python games)
        import pyspiel

        game = pyspiel.load_game("python_block_dominoes")
    except Exception as error:  # not installed, or installed but broken
        raise Skipped(f"{type(error).__name__}: {error}") from None
    rng = random.Random(seed)

    def one_hand() -> int:
        state = game.new_initial_state()
        actions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                pick = rng.random()
                chosen = outcomes[-1][0]
                for outcome, probability in outcomes:
                    pick -= probability
                    if pick < 0:
                        chosen = outcome
                        break
                state.apply_action(chosen)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                actions += 1
        return actions

    return one_hand


def dominoes_hands(seed: int) -> PlayHand:
    """Random hands of the ``dominoes`` package (PyPI)."""
    try:
        import dominoes
    except Exception as error:  # not installed, or installed but broken
        raise Skipped(f"{type(error).__name__}: {error}") from None
    random.seed(seed)  # dominoes.Game.new() deals with the global random module
    rng = random.Random(seed)

    def one_hand() -> int:
        game = dominoes.Game.new()
        actions = 0
        while game.result is None:
            moves = game.valid_moves
            game.make_move(*moves[rng.randrange(len(moves))])
            actions += 1
        return actions

    return one_hand


ENGINES: dict[str, Callable[[int], PlayHand]] = {
    "matador": matador_hands,
    "open_spiel": open_spiel_hands,
    "dominoes": dominoes_hands,
}


def measure(players: dict[str, PlayHand], seconds: float, rounds: int) -> list[Run]:
    """Give every engine ``seconds`` in all, in ``rounds`` turns of equal length.

    A peer that fails during play is reported and dropped; our engine failing is a bug
    and is not caught.
    """
    runs = {name: Run(name) for name in players}
    playing = dict(players)
    for _ in range(rounds):
        for name, play in list(playing.items()):
            try:
                _play_for(play, seconds / rounds, runs[name])
            except Exception as error:
                if name == "matador":
                    raise
                print(f"{name}: failed during play ({type(error).__name__}: {error}); dropped")
                del playing[name], runs[name]
    return list(runs.values())


def _play_for(play: PlayHand, seconds: float, run: Run) -> None:
    start = time.perf_counter()
    deadline = start + seconds
    now = start
    while now < deadline:
        run.actions += play()
        run.hands += 1
        now = time.perf_counter()
    run.seconds += now - start


def time_hands(count: int, seed: int) -> tuple[float, float]:
    """Wall-clock and CPU seconds to play ``count`` random two-player hands of this engine."""
    play = matador_hands(seed)
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(count):
        play()
    return time.perf_counter() - wall, time.process_time() - cpu


def _table(runs: list[Run]) -> Iterator[str]:
    ours = runs[0]
    yield f"{'engine':<12}{'hands':>10}{'actions':>12}{'seconds':>9}{'actions/s':>12}  ours/peer"
    for run in runs:
        ratio = "" if run is ours or not run.rate else f"{ours.rate / run.rate:.2f}x"
        yield (
            f"{run.name:<12}{run.hands:>10,}{run.actions:>12,}{run.seconds:>9.2f}"
            f"{run.rate:>12,.0f}  {ratio}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="seconds of playouts per engine (default 3)"
    )
    parser.add_argument(
        "--rounds", type=int, default=6, help="turns the engines take, in order (default 6)"
    )
    parser.add_argument(
        "--hands",
        type=int,
        default=100_000,
        help="random two-player hands to time on their own (default 100000; 0 skips)",
    )
    parser.add_argument("--seed", type=int, default=2024, help="random seed (default 2024)")
    args = parser.parse_args(argv)

    print(
        f"python {sys.version.split()[0]}; {args.seconds:g} s per engine "
        f"in {args.rounds} rounds, seed {args.seed}"
    )
    players: dict[str, PlayHand] = {}
    for name, make in ENGINES.items():
        try:
            players[name] = make(args.seed)
        except Skipped as why:
            print(f"{name}: skipped ({why}); install with: {INSTALL_HINT}")
    runs = measure(players, args.seconds, max(1, args.rounds))
    print()
    print("\n".join(_table(runs)))
    matador_run = runs[0]
    print(
        f"(matador: {PLAYERS} players, {VARIANT}, "
        f"{matador_run.hands / matador_run.seconds:,.0f} hands/s)"
    )

    if args.hands > 0:
        wall, cpu = time_hands(args.hands, args.seed)
        print()
        print(
            f"{args.hands:,} random {PLAYERS}-player {VARIANT} hands: {wall:.2f} s "
            f"({args.hands / wall:,.0f} hands/s; {cpu:.2f} s of CPU time)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
