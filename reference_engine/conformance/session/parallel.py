"""Random games on several engine programs at once (``matador conform --random --jobs N``).

Each target's games go to a worker process of its own, spawned afresh with its
engine program started once, and the results are merged as one run's would be
(:mod:`.differential`). A signal or a failure stops every worker and its engine.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..games.differential import DifferentialResult, differential
from ..protocol.interface import ReferenceEngine
from ..suite.casedata import Target

if TYPE_CHECKING:
    from .runner import Runner


def in_parallel(
    command: str,
    timeouts: tuple[float, float | None],
    targets: Sequence[Target],
    games: int,
    seed: int,
    *,
    jobs: int,
    progress: Callable[[int], None] | None = None,
    into: DifferentialResult | None = None,
) -> DifferentialResult:
    """:func:`differential` for the engine program ``command`` on ``jobs`` processes at once.

    Each target is played in a worker process of its own (started afresh, not
    forked), with its own engine and reference, so the games use every core
    the machine gives them. The results are merged as one run's would be: each
    kind of divergence once, by its shortest game. Every game is seeded by its
    target and index, so the result does not depend on ``jobs``. The result is
    filled in ``into`` as each target's games end, so a signal keeps them.
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    merged = into if into is not None else DifferentialResult()
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=context,
        initializer=_start_worker,
        initargs=(command, timeouts, os.getpid()),
    )
    try:
        futures = [pool.submit(_job, target, games, seed) for target in targets]
        for future in as_completed(futures):
            part = future.result()
            merged.merge(part)
            if progress is not None:
                progress(part.hands)
    except BaseException:
        _stop_workers(pool)
        raise
    pool.shutdown()
    return merged


def _stop_workers(pool: Any) -> None:
    """Stop at once (a signal, a failure): no new games, and every worker with its engine.

    Each worker, sent SIGTERM, stops its own engine program and exits; one
    still alive after five seconds is killed.
    """
    import multiprocessing
    import os
    import signal

    pool.shutdown(wait=False, cancel_futures=True)
    workers = multiprocessing.active_children()
    for worker in workers:
        with contextlib.suppress(ProcessLookupError):
            os.kill(worker.pid or 0, signal.SIGTERM)
    for worker in workers:
        worker.join(timeout=5)
        if worker.is_alive():
            worker.kill()


#: A worker process's engine (and its runner), started once and kept for its jobs.
_WORKER: dict[str, Runner] = {}


def _start_worker(command: str, timeouts: tuple[float, float | None], parent: int) -> None:
    """Start a worker process's engine program, once; stop it when the worker ends.

    On SIGINT or SIGTERM the worker stops its engine program and exits at once;
    when it ends normally, a finalizer that multiprocessing runs as the worker
    exits (it skips atexit) stops the engine.
    """
    import os
    import signal
    from multiprocessing.util import Finalize

    from ...orphans import die_with_parent
    from ..transport.process import ProcessEngine
    from .runner import Runner

    die_with_parent(parent)  # (a parent ended by SIGKILL leaves no worker, nor its engine)

    def stop(signum: int, frame: object) -> None:
        runner = _WORKER.get("runner")
        if runner is not None:
            runner.close()
        os._exit(128 + signum)

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, stop)

    timeout, start_timeout = timeouts
    runner = Runner(
        lambda: ProcessEngine(command, timeout=timeout, start_timeout=start_timeout),
        timeout=timeout,
        start_timeout=start_timeout,
    )
    _WORKER["runner"] = runner
    Finalize(runner, runner.close, exitpriority=10)


def _job(target: Target, games: int, seed: int) -> DifferentialResult:
    """One worker's share: the random games of one target, on the worker's engine."""
    return differential(_WORKER["runner"], [target], games, seed, reference=ReferenceEngine)
