"""Head to head: the ``expert`` strategy against another, seats rotated, on seeded deals.

Each deal is played once per seat: the expert at that seat, every other seat the
strategy named (so each side meets every deal from every seat). It prints the
hands each side won, with the expert's rate and its 95% Wilson interval, and
the points each side scored, as the variant scores them. The figures in
``docs/expert.md`` were made by it.

    python benchmarks/expert_matches.py gamerules-com heaviest --players 2 --deals 30
    python benchmarks/expert_matches.py pagat blocker --players 4 --deals 10
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1])]

from reference_engine.engine.deal import Deal  # noqa: E402
from reference_engine.engine.hand import Hand  # noqa: E402
from reference_engine.engine.scoring import side_of  # noqa: E402
from reference_engine.engine.strategies import strategy_named  # noqa: E402
from reference_engine.rules import Catalog  # noqa: E402
from reference_engine.simulate.stats import wilson  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("variant")
    parser.add_argument("against", help="the other seats' strategy (heaviest, blocker...)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deals", type=int, default=30, help="deals, each played per seat")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    rules = Catalog.shipped().resolve(args.variant)
    expert, other = strategy_named("expert"), strategy_named(args.against)
    rng = random.Random(args.seed)
    won = [0, 0]
    points = [0, 0]
    hands = 0
    cpu = time.process_time()
    for number in range(args.deals):
        for seat in range(args.players):
            deal = Deal.shuffled(rules, args.players, random.Random(args.seed * 10_000 + number))
            hand = Hand(rules, deal)
            while not hand.is_over:
                chooser = expert if hand.current == seat else other
                hand.apply(chooser(hand, hand.legal_actions(), rng))
            hands += 1
            outcome = hand.outcome
            if outcome is not None and outcome.winner is not None:
                mine = side_of(rules, args.players, seat)
                who = 0 if outcome.winner == mine else 1
                won[who] += 1
                points[who] += outcome.points[outcome.winner]
    rate = wilson(won[0], hands)
    print(
        f"{args.variant}, {args.players} players, expert against {args.against} "
        f"({args.deals} deals x {args.players} seats = {hands} hands, seed {args.seed})"
    )
    print(
        f"hands won: expert {won[0]}, the others {won[1]}, {hands - sum(won)} nobody; "
        f"expert {100 * rate.value:.1f}% (95% {100 * rate.low:.1f}-{100 * rate.high:.1f}), "
        f"an even share {100 / args.players:.1f}%"
    )
    print(f"points: expert {points[0]:,}, the others {points[1]:,}")
    print(f"CPU: {time.process_time() - cpu:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
