"""Running a simulation: seeded chunks, played here, on every core, or on a Dask cluster.

The work of every target is cut into chunks of :data:`CHUNK_HANDS` hands (or
:data:`CHUNK_MATCHES` matches). A chunk is seeded by the simulation's seed and
its number alone (:mod:`.tally`), and tallies merge exactly, so the figures do
not depend on where or in which order chunks are played: ``jobs=1``,
``jobs=8`` and a Dask cluster give the same numbers.

* ``jobs=1``: every chunk in this process;
* ``jobs=N``: N worker processes (spawned, ignoring SIGINT: the parent
  decides when they stop);
* ``scheduler=ADDRESS`` (or a ``distributed.Client``): the chunks are
  submitted to that Dask scheduler; Dask is an optional extra, imported only
  then.

A KeyboardInterrupt (Ctrl-C, or the conformance signals' Interrupted) while
chunks run stops every worker and returns what the finished chunks gathered,
marked with the signal's name.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.compiled import content_key
from ..engine.scoring import sides
from ..engine.strategies import STRATEGIES, Strategy, strategy_named
from ..rules import Catalog, Rules
from .results import Statistics
from .tally import Chunk, Tally, play_chunk

#: Hands per chunk, and matches per chunk: small enough to spread over many
#: cores and show progress, large enough that sending a chunk costs little.
CHUNK_HANDS = 500
CHUNK_MATCHES = 20

#: Called with the hands (or matches) played so far, all targets, after each chunk.
Progress = Callable[[int], None]


@dataclass(frozen=True)
class Setup:
    """One target as a worker rebuilds it: a shipped variant, options, players, strategies."""

    variant: str
    options: tuple[tuple[str, str], ...]
    players: int
    strategies: tuple[str, ...]
    matches: bool

    def rules(self) -> Rules:
        """The rules, resolved from the shipped catalog (once per process)."""
        return _resolved(self.variant, self.options)


_RESOLVED: dict[tuple[str, tuple[tuple[str, str], ...]], Rules] = {}


def _resolved(variant: str, options: tuple[tuple[str, str], ...]) -> Rules:
    key = (variant, options)
    rules = _RESOLVED.get(key)
    if rules is None:
        rules = _RESOLVED[key] = Catalog.shipped().resolve(variant, dict(options))
    return rules


#: A seat's strategy: a built-in name, ``python:MODULE:NAME``, or the callable itself.
StrategySpec = str | Strategy


def _strategies(specs: Sequence[StrategySpec]) -> tuple[Strategy, ...]:
    return tuple(strategy_named(spec) if isinstance(spec, str) else spec for spec in specs)


def strategy_name(spec: StrategySpec) -> str:
    """How a report names a seat's strategy, and how another process finds it again."""
    if isinstance(spec, str):
        return spec
    for name, strategy in STRATEGIES.items():
        if strategy is spec:
            return name
    return f"python:{spec.__module__}:{spec.__qualname__}"


def run_chunk(setup: Setup, chunk: Chunk) -> Tally:
    """Play one chunk of ``setup`` (what a worker process or a Dask worker runs)."""
    return play_chunk(
        setup.rules(), setup.players, _strategies(setup.strategies), chunk, matches=setup.matches
    )


def _indexed(job: tuple[int, Setup, Chunk]) -> tuple[int, Tally]:
    index, setup, chunk = job
    return index, run_chunk(setup, chunk)


def chunks(count: int, seed: int, size: int) -> list[Chunk]:
    """``count`` hands or matches cut into chunks of ``size``, numbered from 0."""
    return [
        Chunk(number, min(size, count - start), seed)
        for number, start in enumerate(range(0, count, size))
    ]


def setup_for(
    rules: Rules, players: int, strategies: Sequence[StrategySpec], matches: bool
) -> Setup:
    """The setup that rebuilds ``rules`` in another process.

    ValueError when ``rules`` are not the shipped variant with those options
    (another process could not rebuild them).
    """
    options = tuple(sorted(rules.chosen.items()))
    try:
        rebuilt = _resolved(rules.variant, options)
    except Exception:
        rebuilt = None
    if rebuilt is None or content_key(rebuilt) != content_key(rules):
        raise ValueError(
            f"{rules.variant}: only shipped variants can be played in other processes; "
            "use jobs=1 for these rules"
        )
    names = tuple(map(strategy_name, strategies))
    for name in names:
        strategy_named(name)  # a callable another process cannot import fails here
    return Setup(rules.variant, options, players, names, matches)


def run(
    targets: Sequence[tuple[Rules, int, Sequence[StrategySpec]]],
    *,
    count: int,
    matches: bool,
    seed: int,
    jobs: int = 1,
    scheduler: Any = None,
    progress: Progress | None = None,
) -> tuple[list[Tally], str | None]:
    """Play ``count`` hands (or matches) of every target; their tallies, and the signal if stopped.

    Each target is (rules, players, strategy names). The chunks of every target
    use the same seeds, so targets dealing the same shape share their deals.
    """
    size = CHUNK_MATCHES if matches else CHUNK_HANDS
    plan = chunks(count, seed, size)
    tallies = [Tally() for _ in targets]
    done = 0
    interrupted: str | None = None
    try:
        for index, tally in _played(targets, plan, matches, jobs, scheduler):
            tallies[index].merge(tally)
            done += tally.matches + tally.unfinished if matches else tally.hands
            if progress is not None:
                progress(done)
    except KeyboardInterrupt as stop:
        interrupted = getattr(stop, "name", "SIGINT")
    return tallies, interrupted


def _played(
    targets: Sequence[tuple[Rules, int, Sequence[StrategySpec]]],
    plan: Sequence[Chunk],
    matches: bool,
    jobs: int,
    scheduler: Any,
) -> Iterator[tuple[int, Tally]]:
    if scheduler is None and jobs <= 1:
        for index, (rules, players, names) in enumerate(targets):
            strategies = _strategies(names)
            for chunk in plan:
                yield index, play_chunk(rules, players, strategies, chunk, matches=matches)
        return
    work = [
        (index, setup_for(rules, players, names, matches), chunk)
        for index, (rules, players, names) in enumerate(targets)
        for chunk in plan
    ]
    if scheduler is not None:
        yield from _on_dask(scheduler, work)
    else:
        yield from _on_processes(jobs, work)


def _quiet_worker() -> None:
    """A worker process leaves SIGINT to its parent, which stops it when it must."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _on_processes(
    jobs: int, work: Sequence[tuple[int, Setup, Chunk]]
) -> Iterator[tuple[int, Tally]]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    pool = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_quiet_worker,
    )
    try:
        futures = [pool.submit(_indexed, job) for job in work]
        for future in as_completed(futures):
            yield future.result()
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown()


def _stop(pool: Any) -> None:
    """No new chunks, and every worker ended at once."""
    pool.shutdown(wait=False, cancel_futures=True)
    workers = list(getattr(pool, "_processes", {}).values())
    for worker in workers:
        with contextlib.suppress(Exception):
            worker.terminate()
    for worker in workers:
        worker.join(timeout=5)
        if worker.is_alive():
            worker.kill()


def _on_dask(
    scheduler: Any, work: Sequence[tuple[int, Setup, Chunk]]
) -> Iterator[tuple[int, Tally]]:
    """The chunks on a Dask cluster: ``scheduler`` is its address or a ``distributed.Client``."""
    from distributed import Client, as_completed

    client = scheduler if isinstance(scheduler, Client) else Client(scheduler, timeout=10)  # type: ignore[no-untyped-call]
    owned = client is not scheduler
    futures = client.map(_indexed, work, pure=False)
    try:
        for future in as_completed(futures):  # type: ignore[no-untyped-call]
            yield future.result()
    except BaseException:
        client.cancel(futures)  # type: ignore[no-untyped-call]
        raise
    finally:
        if owned:
            client.close()  # type: ignore[no-untyped-call]


def side_names(rules: Rules, players: int) -> tuple[str, ...]:
    """How each side is named in a report: "seat 1", or "seats 0+2"."""
    return tuple(
        ("seat " if len(seats) == 1 else "seats ") + "+".join(map(str, seats))
        for seats in sides(rules, players)
    )


def statistics(
    rules: Rules,
    label: str,
    players: int,
    strategies: Sequence[str],
    *,
    seed: int,
    matches: bool,
    requested: int,
    tally: Tally,
    interrupted: str | None,
) -> Statistics:
    """The :class:`Statistics` of one target's merged tally."""
    return Statistics(
        label=label,
        variant=rules.variant,
        options=dict(rules.chosen),
        players=players,
        strategies=tuple(strategies),
        seed=seed,
        unit="matches" if matches else "hands",
        requested=requested,
        tally=tally,
        interrupted=interrupted,
        side_names=side_names(rules, players),
    )
