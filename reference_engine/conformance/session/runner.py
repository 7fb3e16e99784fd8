"""Running conformance cases against any engine: the run loop, and the engine's life.

The runner owns the expectations; the engine only answers requests. Each case
runs once per variant it applies to: its script is played and checked by
:mod:`.expectations`, and it gets one of the verdicts of :mod:`.verdicts`.
After :data:`MAX_CONSECUTIVE_FAILURES` engine failures in a row the engine is
unavailable, and the remaining cases are not run.

The engine is started lazily and greeted once; the handshake is checked
(protocol version, the shape of what it declares, at least one variant the
suite knows). In-process engines are wrapped in
:class:`~reference_engine.conformance.transport.inprocess.GuardedEngine`, so they are
held to the same deadlines and shapes as programs.

Choosing the runs (:mod:`.selection`) and the random differential games
(:mod:`.differential`) have modules of their own; their names are re-exported
here, where callers have always imported them.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Collection, Iterable, Iterator

from ...rules import Catalog, RulesError
from ...sinks import printable
from ..games.differential import Divergence, differential
from ..judging.canonical import Mismatch, canonical
from ..judging.declared import not_applicable, stated_deviations
from ..judging.expectations import Skip, play_case
from ..judging.verdicts import CaseRun, Check, Deviation, EngineUnavailable, Verdict
from ..protocol.interface import (
    PROTOCOL_VERSION,
    Engine,
    EngineFailure,
    EngineInfo,
    EngineRefusal,
    FailureKind,
)
from ..suite.casedata import Case, Target
from ..suite.selection import select
from ..transport.inprocess import GuardedEngine
from ..transport.latency import Latency
from ..transport.process import ProcessEngine
from ..transport.pyhost import not_started
from ..transport.signals import kill_engines

__all__ = [
    "MAX_CONSECUTIVE_FAILURES",
    "CaseRun",
    "Divergence",
    "EngineUnavailable",
    "Runner",
    "Verdict",
    "canonical",
    "differential",
    "select",
]

#: After this many engine failures in a row (errored cases or failed starts),
#: the runner stops restarting the engine and marks the remaining cases not run.
MAX_CONSECUTIVE_FAILURES = 3


class Runner:
    """Runs cases against engines made by ``factory``, restarting one that breaks.

    ``timeout`` bounds every call of an in-process engine (programs bound their
    own requests); ``known_variants`` are the variant ids the suite has, against
    which the handshake's declarations are checked.
    """

    def __init__(
        self,
        factory: Callable[[], Engine],
        *,
        timeout: float | None = None,
        start_timeout: float | None = None,
        known_variants: Collection[str] | None = None,
        max_failures: int = MAX_CONSECUTIVE_FAILURES,
        catalog: Catalog | None = None,
        fail_fast: bool = False,
    ) -> None:
        self.factory = factory
        #: Resolves each case's variant for the reference side (the rules behind a check).
        self.catalog = catalog if catalog is not None else Catalog.shipped()
        #: Whether a case stops at its first deviation (else every one is reported).
        self.fail_fast = fail_fast
        self.timeout = timeout
        self.start_timeout = start_timeout if start_timeout is not None else timeout
        self.known_variants = known_variants
        self.max_failures = max_failures
        self._engine: Engine | None = None
        #: An engine started by :meth:`prestart` and not yet greeted.
        self._pending: GuardedEngine | None = None
        self.info: EngineInfo | None = None
        self.restarts = 0
        self.starts = 0
        self.failures_in_a_row = 0
        #: Why the engine is unavailable, once it is (the remaining cases are not run).
        self.unavailable: EngineUnavailable | None = None
        #: The last failure, for the message that gives up on the engine.
        self.last_failure: EngineFailure | None = None
        #: How close the replies of every engine started came to their deadlines.
        self.latency = Latency()

    # ---- the engine's life

    def engine(self) -> Engine:
        """The live engine, started (and greeted) if need be; EngineUnavailable if it cannot be."""
        if self.unavailable is not None:
            raise self.unavailable
        if self._engine is None:
            self._engine = self._start()
        return self._engine

    def prestart(self) -> None:
        """Start the engine now and greet it on first use, so that a program's start-up
        overlaps the caller's own work (loading the cases).

        A failure to start is not reported here: the first :meth:`engine` starts it
        again and reports it as it would have. Nothing is left running: :meth:`close`
        stops an engine that was never greeted.
        """
        if self._engine is not None or self._pending is not None or self.unavailable:
            return
        with contextlib.suppress(Exception):
            self._pending = self._guarded()

    def _guarded(self) -> GuardedEngine:
        return GuardedEngine(
            self.factory,
            timeout=self.timeout,
            start_timeout=self.start_timeout,
            latency=self.latency,
        )

    def _driver(self, guarded: GuardedEngine) -> Engine:
        """What the runner talks to: a program's driver, or an in-process engine's guard."""
        inner = guarded.engine
        if isinstance(inner, ProcessEngine):
            inner.latency = self.latency  # (its handshake counted, then every reply)
            return inner
        return guarded

    def _start(self) -> Engine:
        self.starts += 1
        engine: Engine | None = None
        try:
            guarded, self._pending = self._pending or self._guarded(), None
            engine = self._driver(guarded)
            info = engine.hello()
            self._check_handshake(info)
        except BaseException as error:
            # Whatever stops the start (a failure, a signal), the engine is not left behind,
            # even one stopped before its driver was made (the runner runs one at a time).
            self._discard(engine)
            if engine is None:
                kill_engines()
            if isinstance(error, EngineRefusal):
                raise self._handshake_refused(error) from None
            if isinstance(error, EngineFailure):
                raise self._handshake_failed(error) from None
            raise
        self.info = info
        return engine

    def _handshake_refused(self, refusal: EngineRefusal) -> EngineUnavailable:
        detail = f" ({refusal.message})" if refusal.message else ""
        return self._give_up(
            f"the engine refused the handshake with {printable(refusal.code)!r}"
            f"{printable(detail)}; the runner speaks {PROTOCOL_VERSION}"
        )

    def _handshake_failed(self, failure: EngineFailure) -> EngineUnavailable:
        # An engine that cannot get through its handshake will not get further on a
        # second try: give up at once and say it once.
        message, stderr = failure.message, failure.stderr
        hosted = not_started(stderr)  # (a python: engine's host says why in one line)
        if hosted is not None:
            message, stderr = f"the engine did not start: {hosted}", ""
        elif failure.kind is FailureKind.CANNOT_START:
            message = f"the engine did not start: {message}"
        elif failure.kind is not FailureKind.HANDSHAKE:
            message = f"the handshake failed: {message}"
        return self._give_up(message, stderr)

    def _check_handshake(self, info: EngineInfo) -> None:
        if info.protocol != PROTOCOL_VERSION:
            raise EngineFailure(
                FailureKind.HANDSHAKE,
                f"the engine speaks protocol {info.protocol!r}; the runner speaks "
                f"{PROTOCOL_VERSION!r}",
            )
        if info.variants is None or self.known_variants is None:
            return
        known = [variant for variant in info.variants if variant in self.known_variants]
        if not known:
            declared = ", ".join(sorted(map(str, info.variants))[:10]) or "nothing"
            raise EngineFailure(
                FailureKind.HANDSHAKE,
                f"the engine declares no variant the suite knows (it declares: {declared}); "
                "see matador list",
            )

    def _discard(self, engine: Engine | None) -> None:
        if engine is not None:
            # A broken engine may fail to close; it is thrown away either way.
            with contextlib.suppress(Exception):
                engine.close()

    def _give_up(self, message: str, stderr: str = "") -> EngineUnavailable:
        self.unavailable = EngineUnavailable(message, stderr=stderr)
        return self.unavailable

    def count_failure(self, failure: EngineFailure) -> None:
        """Count one more engine failure in a row; give up on the engine at the limit."""
        self.failures_in_a_row += 1
        self.last_failure = failure
        if self.failures_in_a_row >= self.max_failures:
            self._give_up(
                f"the engine failed {self.failures_in_a_row} times in a row; the runner "
                f"stopped restarting it. Last failure: {failure.message}",
                failure.stderr,
            )

    def count_success(self) -> None:
        """A case or game ended without an engine failure: the count in a row starts again."""
        self.failures_in_a_row = 0

    def restart(self) -> None:
        """Throw the current engine away; the next request starts a new one."""
        self._discard(self._engine)
        self._engine = None
        self.restarts += 1

    def close(self) -> None:
        """Stop the engine (and one started by :meth:`prestart` and never greeted)."""
        if self._pending is not None:
            pending, self._pending = self._pending, None
            self._discard(self._driver(pending))
        if self._engine is not None:
            self._discard(self._engine)
            self._engine = None

    # ---- cases

    def run(self, runs: Iterable[tuple[Case, Target]]) -> list[CaseRun]:
        """Run every (case, variant) pair."""
        return list(self.each(runs))

    def each(self, runs: Iterable[tuple[Case, Target]]) -> Iterator[CaseRun]:
        """Run the pairs one by one, yielding each verdict as soon as it is known.

        A deviation the engine's declaration states (:mod:`.declared`) comes as a run
        of its own, before the first case it keeps from being run.
        """
        stated: set[str] = set()
        for case, target in runs:
            run = self.run_case(case, target)
            if run.verdict is Verdict.SKIP and self.info is not None:
                declared = self._stated(case, target, stated)
                if declared is not None:
                    yield declared
            yield run

    def _stated(self, case: Case, target: Target, seen: set[str]) -> CaseRun | None:
        assert self.info is not None
        try:
            rules = self.catalog.resolve(target.variant, target.options)
        except RulesError:
            return None
        declaration = self.info.declaration(target.variant)
        defaults = {option.name: option.default for option in rules.options}
        if self.info.supports(target.variant, target.options, defaults=defaults) is not None:
            return None  # a run the engine does not play at all states nothing
        return stated_deviations(declaration, rules, case, target, seen)

    def run_case(self, case: Case, target: Target) -> CaseRun:
        """Run one case under one variant."""
        started = time.perf_counter()
        run = CaseRun(
            case=case.id,
            target=target,
            verdict=Verdict.PASS,
            file=case.file,
            line=case.line,
            players=case.players,
        )
        broken = case.problems_for(target)
        if broken:
            run.verdict = Verdict.BROKEN
            run.message = "the case is broken, not the engine: " + "; ".join(map(str, broken))
            return run
        try:
            engine = self.engine()
        except EngineUnavailable as unavailable:
            run.verdict, run.message = Verdict.NOT_RUN, f"not run: {unavailable.message}"
            run.stderr = unavailable.stderr
            return run
        assert self.info is not None
        rules = self.catalog.resolve(target.variant, target.options)
        declaration = self.info.declaration(target.variant)
        unsupported = self.info.supports(
            target.variant,
            target.options,
            players=case.players,
            defaults={option.name: option.default for option in rules.options},
        ) or not_applicable(declaration, rules, case)
        if unsupported:
            run.verdict, run.message = Verdict.SKIP, unsupported
            return run
        try:
            play_case(
                engine, case, target, run, rules, fail_fast=self.fail_fast, declared=declaration
            )
        except Mismatch as mismatch:
            run.deviations.append(
                Deviation(Check.LEGAL, mismatch.message, mismatch.expected, mismatch.actual, ())
            )
        except Skip as skip:
            run.verdict, run.message = Verdict.SKIP, str(skip)
            info = self.info
            if info is not None and (
                info.variants is not None or not info.declaration(target.variant).ordinary
            ):
                # it names this variant, these options and player count among what it
                # plays, then refuses them: the declaration is wrong, and a run of such
                # refusals must not pass as "skipped"
                run.verdict = Verdict.ERROR
                run.message = (
                    f"{skip}; an engine declares only what it plays (hello's variants and plays)"
                )
        except EngineFailure as failure:
            run.verdict, run.failure = Verdict.ERROR, failure.kind
            run.message, run.stderr = failure.message, failure.stderr
            self.count_failure(failure)
            self.restart()
        except EngineRefusal as refusal:
            run.deviations.append(
                Deviation(
                    Check.REQUEST,
                    f"the engine refused a valid request: {refusal}",
                    None,
                    None,
                    (),
                    hand=run.hand,
                    step=run.step,
                    history=tuple(run.history),
                )
            )
        if run.deviations and run.verdict is Verdict.PASS:
            first = run.deviations[0]
            run.verdict = Verdict.FAIL
            run.message, run.expected, run.actual = first.message, first.expected, first.actual
            run.hand, run.step, run.history = first.hand, first.step, list(first.history)
        if run.verdict is not Verdict.ERROR:
            self.count_success()
        run.seconds = time.perf_counter() - started
        return run
