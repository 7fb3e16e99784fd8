"""Running conformance cases (and random differential games) against any engine.

The runner owns the expectations; the engine only answers requests. Each case
runs once per variant it applies to, with one of these verdicts:

- ``pass``: every expectation held;
- ``fail``: an expectation did not hold (the first is reported, with the
  action history that led there);
- ``error``: the engine broke the protocol or raised; it is stopped and a
  fresh one is started for the next case;
- ``skip``: the engine does not declare the variant or option values;
- ``broken``: the case itself breaks its variant (a deal that does not fit, an
  option the variant lacks, bad notation); the engine is never asked;
- ``not_run``: the engine is unavailable: it could not be started, failed its
  handshake, or failed :data:`MAX_CONSECUTIVE_FAILURES` times in a row, and
  the runner stopped restarting it.

The engine is started lazily and greeted once; the handshake is checked
(protocol version, the shape of what it declares, at least one variant the
suite knows). In-process engines are wrapped in
:class:`~reference_engine.conformance.inprocess.GuardedEngine`, so they are
held to the same deadlines and shapes as programs.
"""

from __future__ import annotations

import contextlib
import fnmatch
import random
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.actions import Action
from ..engine.deal import Deal
from ..errors import NotationError
from ..rules import Catalog
from ..rules.vocabulary import TextEnum
from .cases import Case, ScriptedHand, Step, Target
from .engine import (
    PROTOCOL_VERSION,
    Engine,
    EngineFailure,
    EngineInfo,
    EngineRefusal,
    FailureKind,
    ReferenceEngine,
)
from .inprocess import GuardedEngine
from .process import ProcessEngine
from .replies import printable
from .signals import kill_engines

#: After this many engine failures in a row (errored cases or failed starts),
#: the runner stops restarting the engine and marks the remaining cases not run.
MAX_CONSECUTIVE_FAILURES = 3


class Verdict(TextEnum):
    """A case run's verdict."""

    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"
    SKIP = "skip"
    BROKEN = "broken"
    NOT_RUN = "not_run"


@dataclass
class CaseRun:
    """The verdict of one case on one variant, with what went wrong if anything did."""

    case: str
    target: Target
    verdict: Verdict
    message: str = ""
    file: str = ""
    line: int | None = None
    hand: int | None = None
    step: int | None = None
    expected: Any = None
    actual: Any = None
    history: list[str] = field(default_factory=list)
    seconds: float = 0.0
    #: How the engine broke the protocol, for an ``error`` verdict.
    failure: FailureKind | None = None
    #: The last lines of the engine's standard error, when it misbehaved.
    stderr: str = ""

    @property
    def variant(self) -> str:
        """The variant id the case ran under."""
        return self.target.variant


class EngineUnavailable(Exception):
    """The engine cannot be judged: it does not start, fails its handshake, or keeps dying."""

    def __init__(self, message: str, *, stderr: str = "") -> None:
        self.message = message
        self.stderr = stderr
        super().__init__(message)


class _Mismatch(Exception):
    def __init__(self, message: str, expected: Any = None, actual: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.expected = expected
        self.actual = actual


def canonical(action: str) -> str:
    """An action in canonical notation (raises NotationError)."""
    return str(Action.parse(action))


def _canonical_set(actions: Iterable[str], who: str) -> set[str]:
    out = set()
    for action in actions:
        try:
            out.add(canonical(action))
        except NotationError as error:
            raise _Mismatch(f"{who} gave an action that is not in the notation: {error}") from None
    return out


def select(
    cases: Sequence[Case],
    *,
    variants: Sequence[str] = (),
    case_globs: Sequence[str] = (),
    rules: Sequence[str] = (),
) -> list[tuple[Case, Target]]:
    """The (case, variant) runs matching every given filter."""
    runs = []
    for case in cases:
        if case_globs and not any(fnmatch.fnmatchcase(case.id, glob) for glob in case_globs):
            continue
        if rules and not any(
            exercised == rule or exercised.split("=", 1)[0] == rule
            for exercised in case.exercises
            for rule in rules
        ):
            continue
        for target in case.applies_to:
            if variants and target.variant not in variants:
                continue
            runs.append((case, target))
    return runs


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
    ) -> None:
        self.factory = factory
        self.timeout = timeout
        self.start_timeout = start_timeout if start_timeout is not None else timeout
        self.known_variants = known_variants
        self.max_failures = max_failures
        self._engine: Engine | None = None
        self.info: EngineInfo | None = None
        self.restarts = 0
        self.starts = 0
        self.failures_in_a_row = 0
        #: Why the engine is unavailable, once it is (the remaining cases are not run).
        self.unavailable: EngineUnavailable | None = None
        #: The last failure, for the message that gives up on the engine.
        self.last_failure: EngineFailure | None = None

    # ---- the engine's life

    def engine(self) -> Engine:
        """The live engine, started (and greeted) if need be; EngineUnavailable if it cannot be."""
        if self.unavailable is not None:
            raise self.unavailable
        if self._engine is None:
            self._engine = self._start()
        return self._engine

    def _start(self) -> Engine:
        self.starts += 1
        engine: Engine | None = None
        try:
            guarded = GuardedEngine(
                self.factory, timeout=self.timeout, start_timeout=self.start_timeout
            )
            inner = guarded.engine
            engine = inner if isinstance(inner, ProcessEngine) else guarded
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
        message = failure.message
        if failure.kind is FailureKind.CANNOT_START:
            message = f"the engine did not start: {message}"
        elif failure.kind is not FailureKind.HANDSHAKE:
            message = f"the handshake failed: {message}"
        return self._give_up(message, failure.stderr)

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

    def restart(self) -> None:
        """Throw the current engine away; the next request starts a new one."""
        self._discard(self._engine)
        self._engine = None
        self.restarts += 1

    def close(self) -> None:
        """Stop the engine."""
        if self._engine is not None:
            self._discard(self._engine)
            self._engine = None

    # ---- cases

    def run(self, runs: Iterable[tuple[Case, Target]]) -> list[CaseRun]:
        """Run every (case, variant) pair."""
        return list(self.each(runs))

    def each(self, runs: Iterable[tuple[Case, Target]]) -> Iterator[CaseRun]:
        """Run the pairs one by one, yielding each verdict as soon as it is known."""
        for case, target in runs:
            yield self.run_case(case, target)

    def run_case(self, case: Case, target: Target) -> CaseRun:
        """Run one case under one variant."""
        started = time.perf_counter()
        run = CaseRun(
            case=case.id, target=target, verdict=Verdict.PASS, file=case.file, line=case.line
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
        unsupported = self.info.supports(target.variant, target.options)
        if unsupported:
            run.verdict, run.message = Verdict.SKIP, unsupported
            return run
        try:
            self._play(engine, case, target, run)
        except _Mismatch as mismatch:
            run.verdict = Verdict.FAIL
            run.message, run.expected, run.actual = (
                mismatch.message,
                mismatch.expected,
                mismatch.actual,
            )
        except _Skip as skip:
            run.verdict, run.message = Verdict.SKIP, str(skip)
        except EngineFailure as failure:
            run.verdict, run.failure = Verdict.ERROR, failure.kind
            run.message, run.stderr = failure.message, failure.stderr
            self.count_failure(failure)
            self.restart()
        except EngineRefusal as refusal:
            run.verdict = Verdict.FAIL
            run.message = f"the engine refused a valid request: {refusal}"
        if run.verdict is not Verdict.ERROR:
            self.failures_in_a_row = 0
        run.seconds = time.perf_counter() - started
        return run

    def _play(self, engine: Engine, case: Case, target: Target, run: CaseRun) -> None:
        try:
            engine.new_match(target.variant, target.options, case.players)
        except EngineRefusal as refusal:
            if refusal.code == "unsupported":
                raise _Skip(
                    f"the engine refused new_match with unsupported, though it declares "
                    f"{target.label()}: {refusal.message or 'no reason given'}"
                ) from None
            raise
        for hand_index, hand in enumerate(case.hands):
            run.hand, run.step = hand_index, None
            engine.new_hand(hand.deal)
            self._play_hand(engine, hand, run)
        if case.match is not None:
            run.step = None
            state = engine.match_state()
            for key, expected in case.match.items():
                if state.get(key) != expected:
                    raise _Mismatch(f"match {key} differs", expected, state.get(key))

    def _play_hand(self, engine: Engine, hand: ScriptedHand, run: CaseRun) -> None:
        run.history = []
        for step_index, step in enumerate(hand.steps):
            run.step = step_index
            self._check_step(engine, step, run)
        run.step = None
        if hand.result is not None:
            result = engine.result()
            if result is None:
                raise _Mismatch("the hand should be over", dict(hand.result), None)
            for key, expected in hand.result.items():
                if result.get(key) != expected:
                    raise _Mismatch(f"result {key} differs", expected, result.get(key))

    def _check_step(self, engine: Engine, step: Step, run: CaseRun) -> None:
        if step.to_act is not None:
            seat = engine.to_act()
            if seat != step.to_act:
                raise _Mismatch("a different seat is to act", step.to_act, seat)
        if step.legal is not None or step.includes or step.excludes:
            actual = _canonical_set(engine.legal(), "the engine")
            if step.legal is not None:
                expected = _canonical_set(step.legal, "the case")
                if actual != expected:
                    raise _Mismatch("legal actions differ", sorted(expected), sorted(actual))
            missing = _canonical_set(step.includes, "the case") - actual
            if missing:
                raise _Mismatch(
                    "actions that must be legal are not", sorted(missing), sorted(actual)
                )
            present = _canonical_set(step.excludes, "the case") & actual
            if present:
                raise _Mismatch("actions that must not be legal are", [], sorted(present))
        if step.act is not None:
            reason = engine.apply(step.act, step.as_seat)
            if step.error is None and reason is not None:
                raise _Mismatch(f"{step.act} was refused", "accepted", reason)
            if step.error is not None and reason != step.error:
                raise _Mismatch(
                    f"{step.act} should be refused with {step.error}",
                    step.error,
                    reason or "accepted",
                )
            if reason is None:
                run.history.append(step.act)
        if step.ends is not None:
            actual_ends = [" ".join(end.split()) for end in engine.ends()]
            if actual_ends != list(step.ends):
                raise _Mismatch("open ends differ", list(step.ends), actual_ends)


class _Skip(Exception):
    pass


# --------------------------------------------------------------------------- differential


@dataclass
class Divergence:
    """Where an engine's legal actions first differ from the reference's in a random game."""

    variant: str
    options: Mapping[str, str]
    deal: Mapping[str, Any]
    history: list[str]
    expected: list[str]
    actual: list[str]


def differential(
    runner: Runner,
    targets: Sequence[Target],
    games: int,
    seed: int,
    players_for: Callable[[Target], int],
    catalog: Catalog | None = None,
) -> tuple[int, list[Divergence], list[str]]:
    """Play ``games`` random hands per target on both engines, comparing legal sets each step.

    Returns the number of hands compared, the divergences (the one with the
    shortest history first, per target), and error messages.
    """
    catalog = catalog or Catalog.shipped()
    rng = random.Random(seed)
    compared = 0
    found: list[Divergence] = []
    errors: list[str] = []
    for target in targets:
        rules = catalog.resolve(target.variant, target.options)
        players = players_for(target)
        shortest: Divergence | None = None
        for _ in range(games):
            deal = Deal.shuffled(rules, players, rng)
            reference = ReferenceEngine(catalog)
            reference.new_match(target.variant, target.options, players)
            reference.new_hand(deal.to_data())
            try:
                engine = runner.engine()
                engine.new_match(target.variant, target.options, players)
                engine.new_hand(deal.to_data())
                divergence = _compare_game(engine, reference, rng, target, deal)
            except EngineUnavailable as unavailable:
                errors.append(f"{target.label()}: not run: {unavailable.message}")
                return compared, found, errors
            except EngineFailure as failure:
                errors.append(f"{target.label()}: {failure.message}")
                runner.count_failure(failure)
                runner.restart()
                break
            except EngineRefusal as refusal:
                errors.append(f"{target.label()}: the engine refused a valid request: {refusal}")
                break
            runner.failures_in_a_row = 0
            compared += 1
            if divergence and (shortest is None or len(divergence.history) < len(shortest.history)):
                shortest = divergence
        if shortest is not None:
            found.append(shortest)
    return compared, found, errors


def _compare_game(
    engine: Engine, reference: ReferenceEngine, rng: random.Random, target: Target, deal: Deal
) -> Divergence | None:
    history: list[str] = []
    while reference.to_act() is not None:
        expected = sorted(_canonical_set(reference.legal(), "the reference"))
        try:
            actual = sorted(_canonical_set(engine.legal(), "the engine"))
        except _Mismatch as mismatch:
            actual = [mismatch.message]
        if actual != expected:
            return Divergence(
                target.variant, target.options, deal.to_data(), history, expected, actual
            )
        action = expected[rng.randrange(len(expected))]
        reference.apply(action, None)
        reason = engine.apply(action, None)
        history.append(action)
        if reason is not None:
            return Divergence(
                target.variant,
                target.options,
                deal.to_data(),
                history[:-1],
                [action],
                [f"refused: {reason}"],
            )
    return None
