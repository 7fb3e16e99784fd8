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

import atexit
import contextlib
import gc
import itertools
import os
import pickle
import signal
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.scoring import sides
from ..engine.strategies import STRATEGIES, Strategy
from ..errors import MachineProblem
from ..extras import Extra, install_hint
from ..orphans import die_with_parent
from ..rules import Rules
from .hosted import HostedStrategy, Trusted, strategy_for
from .results import Statistics
from .tally import Chunk, Tally, play_chunk

#: Hands per chunk, and matches per chunk: small enough to spread over many
#: cores and show progress, large enough that sending a chunk costs little.
CHUNK_HANDS = 500
CHUNK_MATCHES = 20


class SimulationFailed(MachineProblem, RuntimeError):
    """The chunks could not be played: no Dask, an unreachable scheduler, a worker that died."""


#: Called with the hands (or matches) played so far, all targets, after each chunk.
Progress = Callable[[int], None]


@dataclass(frozen=True)
class Setup:
    """One target as a worker receives it: the rules (pickled), players, strategy names."""

    rules: Rules
    players: int
    strategies: tuple[str, ...]
    matches: bool
    #: Whether a ``python:`` strategy is loaded into the worker (else hosted apart).
    in_process: bool = False


#: A seat's strategy: a built-in name, ``python:MODULE:NAME``, or the callable itself.
StrategySpec = str | Strategy


def _strategies(specs: Sequence[StrategySpec], in_process: bool = False) -> tuple[Strategy, ...]:
    return tuple(
        strategy_for(spec, in_process=in_process) if isinstance(spec, str) else spec
        for spec in specs
    )


def strategy_name(spec: StrategySpec) -> str:
    """How a report names a seat's strategy, and how another process finds it again."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, (HostedStrategy, Trusted)):
        return spec.name
    for name, strategy in STRATEGIES.items():
        if strategy is spec:
            return name
    return f"python:{spec.__module__}:{spec.__qualname__}"


def run_chunk(setup: Setup, chunk: Chunk) -> Tally:
    """Play one chunk of ``setup`` (what a worker process or a Dask worker runs)."""
    return play_chunk(
        setup.rules,
        setup.players,
        _strategies(setup.strategies, setup.in_process),
        chunk,
        matches=setup.matches,
    )


#: A chunk as a worker receives it: its target's index, the target's Setup
#: pickled (once, by the parent), and the chunk.
Job = tuple[int, bytes, Chunk]


def _indexed(job: Job) -> tuple[int, Tally]:
    index, packed, chunk = job
    return index, run_chunk(_unpacked(packed), chunk)


#: The setups this worker has unpickled, by their pickled bytes (at most
#: :data:`KEPT_SETUPS`): every chunk of a target is played with the same Rules
#: object, whose compiled tables are then found by identity, and a worker does
#: not keep a new copy of the rules alive for every chunk it plays.
_UNPACKED: dict[bytes, Setup] = {}
KEPT_SETUPS = 16


def _unpacked(packed: bytes) -> Setup:
    """The Setup pickled in ``packed``, unpickled once per worker."""
    setup = _UNPACKED.get(packed)
    if setup is None:
        if len(_UNPACKED) >= KEPT_SETUPS:
            _UNPACKED.clear()
        setup = _UNPACKED[packed] = pickle.loads(packed)
    return setup


def chunks(count: int, seed: int, size: int) -> Iterator[Chunk]:
    """``count`` hands or matches cut into chunks of ``size``, numbered from 0 (lazily)."""
    for number, start in enumerate(range(0, count, size)):
        yield Chunk(number, min(size, count - start), seed)


def chunk_count(count: int, matches: bool, targets: int) -> int:
    """How many chunks ``count`` hands (or matches) of ``targets`` targets make: the most
    processes that can be kept busy."""
    size = CHUNK_MATCHES if matches else CHUNK_HANDS
    return -(-count // size) * targets


def setup_for(
    rules: Rules,
    players: int,
    strategies: Sequence[StrategySpec],
    matches: bool,
    in_process: bool = False,
) -> Setup:
    """What a worker needs to play ``rules``; ValueError for a strategy it could not find."""
    names = tuple(map(strategy_name, strategies))
    for name in names:
        try:
            strategy_for(name, in_process=in_process, check_only=True)
        except ValueError as error:
            raise ValueError(f"{error}: another process could not find it; use jobs=1") from None
    return Setup(rules, players, names, matches, in_process)


def run(
    targets: Sequence[tuple[Rules, int, Sequence[StrategySpec]]],
    *,
    count: int,
    matches: bool,
    seed: int,
    jobs: int = 1,
    scheduler: Any = None,
    progress: Progress | None = None,
    in_process: bool = False,
) -> tuple[list[Tally], str | None]:
    """Play ``count`` hands (or matches) of every target; their tallies, and the signal if stopped.

    Each target is (rules, players, strategy names). The chunks of every target
    use the same seeds, so targets dealing the same shape share their deals.
    """
    size = CHUNK_MATCHES if matches else CHUNK_HANDS
    tallies = [Tally() for _ in targets]
    done = 0
    interrupted: str | None = None
    try:
        # closing(): a stop between two chunks still ends the workers at once.
        with contextlib.closing(
            _played(targets, (count, seed, size), matches, jobs, scheduler, in_process)
        ) as played:
            for index, tally in played:
                tallies[index].merge(tally)
                done += tally.matches + tally.unfinished if matches else tally.hands
                if progress is not None:
                    progress(done)
    except KeyboardInterrupt as stop:
        interrupted = getattr(stop, "name", "SIGINT")
    return tallies, interrupted


#: Chunks handed out per worker ahead of the results: enough to keep every
#: worker busy, few enough that memory stays flat however many hands are asked.
AHEAD = 4


def _played(
    targets: Sequence[tuple[Rules, int, Sequence[StrategySpec]]],
    plan: tuple[int, int, int],
    matches: bool,
    jobs: int,
    scheduler: Any,
    in_process: bool = False,
) -> Generator[tuple[int, Tally], None, None]:
    """Every chunk's tally, with the index of its target, as the chunks finish."""
    if scheduler is None and jobs <= 1:
        for index, (rules, players, names) in enumerate(targets):
            strategies = _strategies(names, in_process)
            try:
                for chunk in chunks(*plan):
                    yield index, play_chunk(rules, players, strategies, chunk, matches=matches)
            finally:
                for strategy in strategies:
                    if isinstance(strategy, HostedStrategy):
                        strategy.close()
        return
    packed = [
        pickle.dumps(setup_for(rules, players, names, matches, in_process))
        for rules, players, names in targets
    ]
    work = ((index, setup, chunk) for index, setup in enumerate(packed) for chunk in chunks(*plan))
    if scheduler is not None:
        yield from _on_dask(scheduler, work)
    else:
        yield from _on_processes(jobs, work)


#: Signals a terminal sends the whole foreground process group (Ctrl-C, hang-up):
#: the workers leave them to the parent, which stops them when it must.
_GROUP_SIGNALS = {signal.SIGINT, signal.SIGHUP}


def _worker_started(parent: int) -> None:
    """Set up a worker process: quiet (:func:`_quiet_worker`), ended with its parent
    whatever ends it (:func:`~reference_engine.orphans.die_with_parent`), and quick to end.

    At exit, the worker's objects are frozen out of the garbage collector
    before the interpreter is torn down: the collections of that teardown,
    over the tables the worker built, took a third of a second of a
    simulation's wall time, while its results had all been sent.
    """
    _quiet_worker()
    die_with_parent(parent)  # (a parent ended by SIGKILL leaves no worker playing on)
    atexit.register(gc.freeze)


def _quiet_worker() -> None:
    """Ignore the terminal's group signals, then let the worker receive signals again.

    The worker was spawned with them blocked (:func:`_group_signals_blocked`),
    so one sent while it started is discarded here instead of printing a
    KeyboardInterrupt traceback from a process that was about to be stopped.
    """
    for signum in _GROUP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _GROUP_SIGNALS)


@contextlib.contextmanager
def _group_signals_blocked() -> Iterator[None]:
    """Hold Ctrl-C and hang-up while workers are spawned (they inherit the mask).

    A signal that comes meanwhile is delivered to this process when the block ends.
    """
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, _GROUP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _GROUP_SIGNALS)


def _on_processes(jobs: int, work: Iterator[Job]) -> Iterator[tuple[int, Tally]]:
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    # (made with the group signals held: the pool's locks start multiprocessing's
    # resource tracker, which must not die of a hang-up meant for this process)
    with _group_signals_blocked():
        pool = ProcessPoolExecutor(
            max_workers=jobs,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_worker_started,
            initargs=(os.getpid(),),
        )
    pending: set[Future[tuple[int, Tally]]] = set()

    def top_up() -> None:
        for job in itertools.islice(work, jobs * AHEAD - len(pending)):
            pending.add(pool.submit(_indexed, job))

    try:
        with _group_signals_blocked():  # the first submissions spawn the workers
            top_up()
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                pending.discard(future)
                yield future.result()
            top_up()
    except BrokenProcessPool as error:
        pool.shutdown(wait=True, cancel_futures=True)
        raise SimulationFailed(f"a worker process died ({error})") from None
    except Exception:  # a chunk failed: let the others finish their chunk, then stop
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    except BaseException:  # Ctrl-C, a signal: stop now
        _stop(pool)
        raise
    pool.shutdown()


def _stop(pool: Any) -> None:
    """No new chunks, and every worker ended at once (then the pool cleans up after them)."""
    workers = list((getattr(pool, "_processes", None) or {}).values())
    for worker in workers:
        with contextlib.suppress(Exception):
            worker.terminate()
    for worker in workers:
        worker.join(timeout=5)
        if worker.is_alive():
            worker.kill()
    with contextlib.suppress(Exception):
        pool.shutdown(wait=True, cancel_futures=True)


def _on_dask(scheduler: Any, work: Iterator[Job]) -> Iterator[tuple[int, Tally]]:
    """The chunks on a Dask cluster: ``scheduler`` is its address or a ``distributed.Client``."""
    try:
        from distributed import Client, as_completed
    except ImportError as error:
        raise SimulationFailed(
            f"a Dask scheduler needs the 'dask' extra ({error}): {install_hint(Extra.DASK)}"
        ) from None
    if isinstance(scheduler, str):
        from .scheduler import NotAScheduler, check

        try:
            check(scheduler)  # (within a deadline, before Dask trusts what answers)
        except NotAScheduler as error:
            raise SimulationFailed(f"--scheduler: {error}") from None
    try:
        client = (
            scheduler if isinstance(scheduler, Client) else Client(scheduler, timeout=10)  # type: ignore[no-untyped-call]
        )
    except (OSError, ValueError, TypeError) as error:
        raise SimulationFailed(f"cannot reach the Dask scheduler {scheduler!r}: {error}") from None
    owned = client is not scheduler
    ahead = AHEAD * max(1, len(client.scheduler_info().get("workers", {})))
    submitted = [client.submit(_indexed, job, pure=False) for job in itertools.islice(work, ahead)]
    running = as_completed(submitted)  # type: ignore[no-untyped-call]
    try:
        for future in running:
            yield future.result()
            for job in itertools.islice(work, 1):
                running.add(client.submit(_indexed, job, pure=False))  # type: ignore[no-untyped-call]
    except BaseException:
        client.cancel(list(running.futures))  # type: ignore[no-untyped-call]
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
