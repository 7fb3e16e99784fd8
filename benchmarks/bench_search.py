"""How fast the engine can be searched, like for like with OpenSpiel, and what the expert costs.

A program that searches (the ``expert`` strategy, or anyone's) visits positions:
from a position it asks the legal actions, makes a copy for each, applies the
action to it, and goes on from each copy. This benchmark does exactly that, a
depth-first search of whole hands, with every engine:

* ``matador-2``: our engine through its step API (``legal_actions()``,
  ``copy()``, ``apply()``), on ``pagat``'s rules dealt as OpenSpiel deals: two
  players, seven tiles each, no drawing (``bench_engine.matador_rules``);
* ``open_spiel``: OpenSpiel's ``python_block_dominoes`` (``legal_actions()``,
  ``clone()``, ``apply_action()``), the same deal shape.

Each search stops after ``--states`` positions (a whole hand's tree is larger
than any budget), then a new hand is dealt; the unit is the position visited
(one copy and one apply). The engines take turns, as in ``bench_engine.py``,
and the ratio is taken from CPU time.

It then times the ``expert`` strategy's decisions at its default budget, on two
and four players, for the figures ``docs/simulation.md`` quotes.

    python benchmarks/bench_search.py                 # 3 s per engine in 30 rounds
    python benchmarks/bench_search.py --seconds 5 --states 5000
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

from bench_engine import INSTALL_HINT, Run, Skipped, matador_rules, open_spiel_game  # noqa: E402

from reference_engine.engine.deal import Deal  # noqa: E402
from reference_engine.engine.expert import DEPTH, SAMPLES, expert  # noqa: E402
from reference_engine.engine.hand import Hand  # noqa: E402
from reference_engine.rules import Catalog  # noqa: E402

#: Searches one newly dealt hand (up to the budget); returns the positions visited.
SearchHand = Callable[[], int]


def depth_first(
    root: Any, children: Callable[[Any], list[Any]], done: Callable[[Any], bool], budget: int
) -> int:
    """Search from ``root`` depth first until ``budget`` positions are visited (or the tree
    ends); ``children`` makes a position's successors, one copy and one action each."""
    stack, visited = [root], 0
    while stack and visited < budget:
        position = stack.pop()
        if done(position):
            continue
        found = children(position)
        stack += found
        visited += len(found)
    return visited


def matador_search(seed: int, budget: int) -> SearchHand:
    """Depth-first search of our engine's hands, by copy and apply."""
    rules = matador_rules(2)
    rng = random.Random(seed)

    def children(hand: Hand) -> list[Hand]:
        found = []
        for action in hand.legal_actions():
            child = hand.copy()
            child.apply(action)
            found.append(child)
        return found

    def one_hand() -> int:
        root = Hand(rules, Deal.shuffled(rules, 2, rng))
        return depth_first(root, children, lambda hand: hand.is_over, budget)

    return one_hand


def open_spiel_search(seed: int, budget: int) -> SearchHand:
    """Depth-first search of OpenSpiel's python_block_dominoes, by clone and apply."""
    game = open_spiel_game()
    rng = random.Random(seed)

    def children(state: Any) -> list[Any]:
        found = []
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            found.append(child)
        return found

    def one_hand() -> int:
        state = game.new_initial_state()
        while state.is_chance_node():  # the deal, at random
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        return depth_first(state, children, lambda position: position.is_terminal(), budget)

    return one_hand


SEARCHES = {"matador-2": matador_search, "open_spiel": open_spiel_search}


def measure(searches: dict[str, SearchHand], seconds: float, rounds: int) -> dict[str, Run]:
    """Every engine ``seconds`` in all, in ``rounds`` turns, the order rotating."""
    runs = {name: Run(name, "2 x 7, no drawing") for name in searches}
    names = list(searches)
    for turn in range(rounds):
        shift = turn % len(names)
        for name in names[shift:] + names[:shift]:
            run, search = runs[name], searches[name]
            wall, cpu = time.perf_counter(), time.process_time()
            deadline = wall + seconds / rounds
            now = wall
            while now < deadline:
                run.placed += search()  # (here: positions visited)
                run.hands += 1
                now = time.perf_counter()
            run.wall += now - wall
            run.cpu += time.process_time() - cpu
    return runs


def expert_decisions(seed: int, hands: int) -> list[str]:
    """The expert's time per decision at its default budget, every seat an expert."""
    lines = []
    catalog = Catalog.shipped()
    for variant, players in (("gamerules-com", 2), ("german", 3), ("pagat", 4)):
        rules = catalog.resolve(variant)
        rng = random.Random(seed)
        decisions, cpu = 0, time.process_time()
        for number in range(hands):
            hand = Hand(rules, Deal.shuffled(rules, players, random.Random(seed + number)))
            while not hand.is_over:
                hand.apply(expert(hand, hand.legal_actions(), rng))
                decisions += 1
        spent = time.process_time() - cpu
        lines.append(
            f"expert, {variant}, {players} players: {1000 * spent / decisions:.1f} ms of CPU "
            f"per decision ({decisions} decisions; {SAMPLES} deals, {DEPTH} actions deep)"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per engine")
    parser.add_argument("--rounds", type=int, default=30, help="turns the engines take")
    parser.add_argument("--states", type=int, default=2000, help="positions per hand searched")
    parser.add_argument("--hands", type=int, default=3, help="hands per expert timing")
    parser.add_argument("--seed", type=int, default=2024, help="random seed (default 2024)")
    args = parser.parse_args(argv)
    print(
        f"python {sys.version.split()[0]}; {args.seconds:g} s per engine in {args.rounds} "
        f"rounds, {args.states} positions per hand, seed {args.seed}"
    )
    searches: dict[str, SearchHand] = {}
    for name, make in SEARCHES.items():
        try:
            searches[name] = make(args.seed, args.states)
        except Skipped as why:
            print(f"{name}: skipped ({why}); install with: {INSTALL_HINT}")
    runs = measure(searches, args.seconds, max(1, args.rounds))
    print(f"\n{'engine':<12}{'hands':>8}{'positions':>12}{'CPU s':>8}{'positions/CPU s':>17}")
    for run in runs.values():
        print(f"{run.name:<12}{run.hands:>8,}{run.placed:>12,}{run.cpu:>8.2f}{run.rate:>17,.0f}")
    if "open_spiel" in runs and runs["open_spiel"].rate:
        ratio = runs["matador-2"].rate / runs["open_spiel"].rate
        print(f"\nmatador-2 / open_spiel: {ratio:.1f}x positions per CPU second (search)")
    print()
    print("\n".join(expert_decisions(args.seed, args.hands)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
