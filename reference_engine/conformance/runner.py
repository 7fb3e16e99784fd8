"""Running conformance cases (and random differential games) against any engine.

The runner owns the expectations; the engine only answers requests. Each case
runs once per variant it applies to. A case passes when every expectation
holds, fails when one does not (the first is reported, with the action history
that led there), errors when the engine breaks the protocol or raises (the
engine is then restarted and the run goes on), and is skipped when the engine
does not declare the variant or option values.
"""

from __future__ import annotations

import contextlib
import fnmatch
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action
from ..deal import Deal
from ..errors import NotationError
from ..rules import Catalog
from ..rules.vocabulary import TextEnum
from .cases import Case, ScriptedHand, Step, Target
from .engine import Engine, EngineFailure, EngineInfo, EngineRefusal, ReferenceEngine


class Verdict(TextEnum):
    """A case run's verdict."""

    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"
    SKIP = "skip"


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

    @property
    def variant(self) -> str:
        """The variant id the case ran under."""
        return self.target.variant


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
    """Runs cases against engines made by ``factory``, restarting one that breaks."""

    def __init__(self, factory: Callable[[], Engine]) -> None:
        self.factory = factory
        self._engine: Engine | None = None
        self.info: EngineInfo | None = None
        self.restarts = 0

    def engine(self) -> Engine:
        """The live engine, started (and greeted) if need be."""
        if self._engine is None:
            self._engine = self.factory()
            self.info = self._engine.hello()
        return self._engine

    def restart(self) -> None:
        """Throw the current engine away; the next request starts a new one."""
        if self._engine is not None:
            # A broken engine may fail to close; it is thrown away either way.
            with contextlib.suppress(Exception):
                self._engine.close()
        self._engine = None
        self.restarts += 1

    def close(self) -> None:
        """Stop the engine."""
        if self._engine is not None:
            self._engine.close()
            self._engine = None

    def run(self, runs: Iterable[tuple[Case, Target]]) -> list[CaseRun]:
        """Run every (case, variant) pair."""
        return [self.run_case(case, target) for case, target in runs]

    def run_case(self, case: Case, target: Target) -> CaseRun:
        """Run one case under one variant."""
        started = time.perf_counter()
        run = CaseRun(
            case=case.id, target=target, verdict=Verdict.PASS, file=case.file, line=case.line
        )
        try:
            engine = self.engine()
        except (EngineFailure, EngineRefusal, OSError) as error:
            run.verdict, run.message = Verdict.ERROR, f"the engine did not start: {error}"
            self.restart()
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
            run.verdict, run.message = Verdict.ERROR, str(failure)
            self.restart()
        except EngineRefusal as refusal:
            run.verdict = Verdict.FAIL
            run.message = f"the engine refused a valid request: {refusal}"
        except Exception as error:
            run.verdict, run.message = Verdict.ERROR, f"the engine raised {error!r}"
            self.restart()
        run.seconds = time.perf_counter() - started
        return run

    def _play(self, engine: Engine, case: Case, target: Target, run: CaseRun) -> None:
        try:
            engine.new_match(target.variant, target.options, case.players)
        except EngineRefusal as refusal:
            if refusal.code == "unsupported":
                raise _Skip(f"the engine does not support this: {refusal.message}") from None
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
    compared, found, errors = 0, [], []
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
            except (EngineFailure, EngineRefusal) as error:
                errors.append(f"{target.label()}: {error}")
                runner.restart()
                break
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
