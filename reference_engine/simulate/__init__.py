"""Simulation: play many seeded hands or matches of variants and measure what their rules do.

The Python API::

    from reference_engine.rules import Catalog
    from reference_engine.simulate import simulate

    rules = Catalog.shipped().resolve(variant_id)   # any id `matador list` shows
    stats = simulate(rules, hands=20_000, players=2, strategies=["keep-matadors"], seed=1)
    stats.opener_win_rate        # Rate(count, total, low, high): the 95% Wilson interval
    stats.hand_length.value      # mean actions per hand, with .low and .high

:func:`simulate` plays one target; :func:`simulate_all` plays several on the
same seeds, for side-by-side reports and :func:`compare`. The figures depend
only on the seed, never on ``jobs`` or the Dask ``scheduler`` (:mod:`.run`).
Reports (table, JSON, CSV) are :mod:`.report`; plots :mod:`.plot`
(matplotlib, imported only there).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..rules import Rules
from .results import Metric, Statistics, compare
from .run import Progress, StrategySpec, run, statistics, strategy_name
from .stats import Difference, Mean, Rate, wilson
from .tally import Tally

__all__ = [
    "Difference",
    "Mean",
    "Metric",
    "Rate",
    "Statistics",
    "Tally",
    "compare",
    "simulate",
    "simulate_all",
    "wilson",
]


def simulate(
    rules: Rules,
    *,
    hands: int | None = None,
    matches: int | None = None,
    players: int | None = None,
    strategies: Sequence[StrategySpec] = ("random",),
    seed: int = 0,
    jobs: int = 1,
    scheduler: Any = None,
    progress: Progress | None = None,
    in_process: bool = False,
) -> Statistics:
    """Play ``hands`` hands (or ``matches`` matches to the target) of ``rules``; their figures.

    ``players`` defaults to the fewest the rules allow. ``strategies`` gives
    each seat's strategy (seat modulo their number): a built-in name
    (:data:`~reference_engine.engine.strategies.STRATEGIES`),
    ``python:MODULE:NAME`` or a callable. ``jobs`` > 1 plays on that many
    processes, ``scheduler`` on a Dask cluster (an address or a
    ``distributed.Client``); both need a shipped variant and strategies another
    process can import. A ``python:`` strategy plays in a process of its own
    (:mod:`.hosted`); ``in_process`` loads it into the simulation's processes
    instead (faster, trusting its code). A KeyboardInterrupt returns what was
    gathered, with :attr:`Statistics.interrupted` set.
    """
    return simulate_all(
        [rules],
        hands=hands,
        matches=matches,
        players=players,
        strategies=strategies,
        seed=seed,
        jobs=jobs,
        scheduler=scheduler,
        progress=progress,
        in_process=in_process,
    )[0]


def simulate_all(
    targets: Sequence[Rules],
    *,
    hands: int | None = None,
    matches: int | None = None,
    players: int | None = None,
    strategies: Sequence[StrategySpec] = ("random",),
    seed: int = 0,
    jobs: int = 1,
    scheduler: Any = None,
    progress: Progress | None = None,
    in_process: bool = False,
) -> tuple[Statistics, ...]:
    """:func:`simulate` for several targets on the same seeds (the same deals where they can be)."""
    if (hands is None) == (matches is None):
        raise ValueError("give either hands or matches")
    count = hands if matches is None else matches
    assert count is not None
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"the number of hands or matches must be at least 1, not {count!r}")
    if not strategies:
        raise ValueError("give at least one strategy")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    seats = []
    for rules in targets:
        count_here = min(rules.players) if players is None else players
        if count_here not in rules.players:
            allowed = ", ".join(map(str, rules.players))
            raise ValueError(f"{rules.variant} is played by {allowed} players, not {count_here}")
        seats.append(count_here)
    names = tuple(map(strategy_name, strategies))
    tallies, interrupted = run(
        [(rules, seats[index], strategies) for index, rules in enumerate(targets)],
        count=count,
        matches=matches is not None,
        seed=seed,
        jobs=jobs,
        scheduler=scheduler,
        progress=progress,
        in_process=in_process,
    )
    from ..disputes.naming import label

    return tuple(
        statistics(
            rules,
            label(rules),
            seats[index],
            names,
            seed=seed,
            matches=matches is not None,
            requested=count,
            tally=tallies[index],
            interrupted=interrupted,
        )
        for index, rules in enumerate(targets)
    )
