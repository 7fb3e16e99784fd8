"""How fast the reference engine plays, like for like with other domino engines.

Every engine plays random hands to the end the same way: at every decision the
legal moves are generated and one is chosen uniformly with a seeded
:class:`random.Random`; dealing and setting up a hand are inside the timing.
Each peer is matched by our engine playing the same deal shape, so both do the
same work:

* ``dominoes`` (PyPI): four players, seven tiles each, no boneyard, block play.
  Our engine: ``pagat``, dealt the same way (it already is: four players, seven
  each, nothing left to draw), drawing switched off.
* ``open_spiel``: OpenSpiel's ``python_block_dominoes``: two players, seven tiles
  each, the other fourteen out of play, no drawing. Our engine: ``pagat`` with
  that deal.
* ``bare``: :mod:`bare_playout`, a hand-written bitmask playout of exactly the
  rules our engine plays in each shape: the near-limit figure for plain Python.

Our engine is timed two ways. ``matador``: as ``matador simulate`` plays a
random hand, with :func:`~reference_engine.engine.playout.play_out`, the
engine's own playout loop; this is the figure the targets are about.
``matador-steps``: through the step-by-step interface any other program drives
(``legal_actions()`` then ``apply()``, two method calls per action), for
comparison. Both play the very same hands; a decision with one legal action
draws no random number, in every engine here.

Our engine keeps Matador's own placement rules (sum to seven, matadors), so it
is not the peers' game, but the same deal, the same number of decisions and the
same kind of choice. The unit is the tile placed (the opening tile included):
the peers pass on their own, without a decision, while our engine and the bare
playout count a pass as an action, so passes are done by all but counted by none.

Each engine gets the same number of seconds, in turns (many short rounds, one slice
per engine each round, the order rotating), so that a machine that gets busier
or quieter during the run treats them alike. Both wall-clock and CPU seconds
are measured; on a shared machine the CPU figure is the steadier one, and the
ratios are taken from it.

    python benchmarks/bench_engine.py                # 3 s per engine in 30 rounds
    python benchmarks/bench_engine.py --seconds 5 --rounds 50 --seed 7
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from operator import countOf
from pathlib import Path
from typing import Any

# Run from a checkout without installing: make the repository and this folder importable.
HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

import bare_playout  # noqa: E402

from reference_engine.engine.actions import Play  # noqa: E402
from reference_engine.engine.deal import Deal  # noqa: E402
from reference_engine.engine.hand import Hand  # noqa: E402
from reference_engine.engine.playout import play_out  # noqa: E402
from reference_engine.rules import Catalog  # noqa: E402
from reference_engine.rules.model import PLAYER_COUNT_KEYS, PerPlayers, Rules  # noqa: E402
from reference_engine.rules.vocabulary import DrawWhen  # noqa: E402

VARIANT = "pagat"
HAND_SIZE = 7
INSTALL_HINT = "pip install open-spiel dominoes  (or: pip install -e '.[bench]')"

#: Plays one random hand to the end and returns how many tiles were placed.
PlayHand = Callable[[], int]


@dataclass
class Run:
    """What one engine did in its time."""

    name: str
    game: str
    hands: int = 0
    placed: int = 0
    wall: float = 0.0
    cpu: float = 0.0

    @property
    def rate(self) -> float:
        """Tiles placed per CPU second."""
        return self.placed / self.cpu if self.cpu else 0.0

    @property
    def wall_rate(self) -> float:
        """Tiles placed per wall-clock second."""
        return self.placed / self.wall if self.wall else 0.0


class Skipped(Exception):
    """A peer engine that is not installed (or does not load)."""


def matador_rules(players: int) -> Rules:
    """``pagat``'s rules with the peers' deal: ``players`` seats of seven tiles, no drawing.

    Only the deal changes (who may play, the hand size, the reserve, drawing);
    the opening, placement, passing and scoring rules stay pagat's.
    """
    rules = Catalog.shipped().resolve(VARIANT)
    key = PLAYER_COUNT_KEYS[players]
    return dataclasses.replace(
        rules,
        players=(players,),
        hand_size=PerPlayers(**{key: HAND_SIZE}),
        reserve=PerPlayers(**{key: 0}),
        draw_when=DrawWhen.NEVER,
        draws_per_turn=None,
    )


def matador_hands(players: int, seed: int) -> PlayHand:
    """Random hands of this engine, as simulations play them; counts the tiles placed."""
    rules = matador_rules(players)
    rng = random.Random(seed)

    def one_hand() -> int:
        hand = Hand(rules, Deal.shuffled(rules, players, rng))
        play_out(hand, rng)
        # Scored, as every peer scores the hands it plays (the outcome is computed lazily).
        _ = hand.outcome
        return _placed(hand)

    return one_hand


def matador_step_hands(players: int, seed: int) -> PlayHand:
    """Random hands of this engine, by the step-by-step public interface."""
    rules = matador_rules(players)
    rng = random.Random(seed)

    def one_hand() -> int:
        hand = Hand(rules, Deal.shuffled(rules, players, rng))
        while not hand.is_over:
            legal = hand.legal_actions()
            hand.apply(legal[0] if len(legal) == 1 else legal[rng.randrange(len(legal))])
        _ = hand.outcome
        return _placed(hand)

    return one_hand


def _placed(hand: Hand) -> int:
    """Tiles placed, the opening tile included: the actions that are plays.

    (Counted by type, in C: ``history.count(PASS)`` would compare every play with
    PASS by value, a Python call each, and time the counting more than the engine.)
    """
    return countOf(map(type, hand.history), Play)


def bare_hands(players: int, seed: int) -> PlayHand:
    """Random hands of the bare bitmask playout of the same rules."""
    rng = random.Random(seed)
    return lambda: bare_playout.play_hand(rng, players, HAND_SIZE).placed


def open_spiel_game() -> Any:
    """OpenSpiel's python_block_dominoes; :class:`Skipped` when OpenSpiel does not load."""
    try:
        import open_spiel.python.games  # type: ignore[import-untyped]  # noqa: F401  (registers the python games)
        import pyspiel  # type: ignore[import-not-found]

        return pyspiel.load_game("python_block_dominoes")
    except Exception as error:  # not installed, or installed but broken
        raise Skipped(f"{type(error).__name__}: {error}") from None


def open_spiel_hands(seed: int) -> PlayHand:
    """Random hands of OpenSpiel's python_block_dominoes (two players)."""
    game = open_spiel_game()
    rng = random.Random(seed)

    def one_hand() -> int:
        state = game.new_initial_state()
        placed = 0
        while not state.is_terminal():
            if state.is_chance_node():  # the deal
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])  # all equally likely
            else:  # every decision places a tile: a blocked player is skipped
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                placed += 1
        return placed

    return one_hand


def dominoes_hands(seed: int) -> PlayHand:
    """Random hands of the ``dominoes`` package (PyPI; four players)."""
    try:
        import dominoes  # type: ignore[import-untyped]
    except Exception as error:  # not installed, or installed but broken
        raise Skipped(f"{type(error).__name__}: {error}") from None
    random.seed(seed)  # dominoes.Game.new() deals with the global random module
    rng = random.Random(seed)

    def one_hand() -> int:
        game = dominoes.Game.new()
        placed = 0
        while game.result is None:  # every move places a tile: it passes on its own
            moves = game.valid_moves
            game.make_move(*moves[rng.randrange(len(moves))])
            placed += 1
        return placed

    return one_hand


#: name -> (game, how to start it from a seed), in the order of the table.
ENGINES: dict[str, tuple[str, Callable[[int], PlayHand]]] = {
    "matador-4": ("4 x 7, no boneyard", lambda seed: matador_hands(4, seed)),
    "steps-4": ("4 x 7, no boneyard", lambda seed: matador_step_hands(4, seed)),
    "bare-4": ("4 x 7, no boneyard", lambda seed: bare_hands(4, seed)),
    "dominoes": ("4 x 7, no boneyard", dominoes_hands),
    "matador-2": ("2 x 7, no drawing", lambda seed: matador_hands(2, seed)),
    "steps-2": ("2 x 7, no drawing", lambda seed: matador_step_hands(2, seed)),
    "bare-2": ("2 x 7, no drawing", lambda seed: bare_hands(2, seed)),
    "open_spiel": ("2 x 7, no drawing", open_spiel_hands),
}

#: (ours, theirs, what the ratio says).
RATIOS = (
    ("matador-4", "dominoes", "like for like, four players"),
    ("matador-2", "open_spiel", "like for like, two players"),
    ("matador-4", "bare-4", "of the near limit, four players"),
    ("matador-2", "bare-2", "of the near limit, two players"),
    ("steps-4", "dominoes", "step by step, like for like, four players"),
    ("steps-4", "bare-4", "step by step, of the near limit, four players"),
    ("steps-2", "bare-2", "step by step, of the near limit, two players"),
)


def measure(players: dict[str, PlayHand], seconds: float, rounds: int) -> dict[str, Run]:
    """Give every engine ``seconds`` in all, in ``rounds`` turns of equal length.

    The order rotates each round. A peer that fails during play is reported and
    dropped; our engine or the bare playout failing is a bug and is not caught.
    """
    runs = {name: Run(name, ENGINES[name][0]) for name in players}
    playing = list(players)
    for turn in range(rounds):
        shift = turn % len(playing) if playing else 0
        for name in playing[shift:] + playing[:shift]:
            try:
                _play_for(players[name], seconds / rounds, runs[name])
            except Exception as error:
                if name.startswith(("matador", "steps", "bare")):
                    raise
                print(f"{name}: failed during play ({type(error).__name__}: {error}); dropped")
                playing.remove(name)
                del runs[name]
    return runs


def _play_for(play: PlayHand, seconds: float, run: Run) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    deadline = wall + seconds
    now = wall
    while now < deadline:
        run.placed += play()
        run.hands += 1
        now = time.perf_counter()
    run.wall += now - wall
    run.cpu += time.process_time() - cpu


def _table(runs: dict[str, Run]) -> Iterator[str]:
    yield (
        f"{'engine':<12}{'game':<20}{'hands':>9}{'placed':>11}{'wall s':>8}{'CPU s':>8}"
        f"{'placed/CPU s':>14}{'placed/wall s':>15}"
    )
    for run in runs.values():
        yield (
            f"{run.name:<12}{run.game:<20}{run.hands:>9,}{run.placed:>11,}{run.wall:>8.2f}"
            f"{run.cpu:>8.2f}{run.rate:>14,.0f}{run.wall_rate:>15,.0f}"
        )


def _ratios(runs: dict[str, Run]) -> Iterator[str]:
    for ours, theirs, what in RATIOS:
        if ours in runs and theirs in runs and runs[theirs].rate and runs[theirs].wall_rate:
            cpu = runs[ours].rate / runs[theirs].rate
            wall = runs[ours].wall_rate / runs[theirs].wall_rate
            yield (
                f"{ours} / {theirs}: {cpu:.2f}x per tile placed, CPU time "
                f"({wall:.2f}x wall clock), {what}"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="seconds of playouts per engine (default 3)"
    )
    parser.add_argument(
        "--rounds", type=int, default=30, help="turns the engines take, in order (default 30)"
    )
    parser.add_argument("--seed", type=int, default=2024, help="random seed (default 2024)")
    args = parser.parse_args(argv)

    print(
        f"python {sys.version.split()[0]}; {args.seconds:g} s per engine "
        f"in {args.rounds} rounds, seed {args.seed}; matador plays {VARIANT} dealt as each peer"
    )
    players: dict[str, PlayHand] = {}
    for name, (_, make) in ENGINES.items():
        try:
            players[name] = make(args.seed)
        except Skipped as why:
            print(f"{name}: skipped ({why}); install with: {INSTALL_HINT}")
    runs = measure(players, args.seconds, max(1, args.rounds))
    print()
    print("\n".join(_table(runs)))
    print()
    print("\n".join(_ratios(runs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
