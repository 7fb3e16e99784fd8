"""Playing a case's script against an engine and checking its expectations as it goes.

Actions are compared in canonical notation (:func:`canonical`). The first
expectation that does not hold raises :class:`Mismatch`, which the runner turns
into a ``fail`` verdict; :class:`Skip`, into a ``skip``: the engine refused the
match as unsupported, though it declares the variant.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..engine.actions import Action
from ..errors import NotationError
from .cases import Case, ScriptedHand, Step, Target
from .engine import Engine, EngineRefusal
from .verdicts import CaseRun


class Mismatch(Exception):
    """An expectation that did not hold: what was expected, and what the engine gave."""

    def __init__(self, message: str, expected: Any = None, actual: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.expected = expected
        self.actual = actual


def canonical(action: str) -> str:
    """An action in canonical notation (raises NotationError)."""
    return str(Action.parse(action))


def canonical_set(actions: Iterable[str], who: str) -> set[str]:
    """``actions`` in canonical notation; :class:`Mismatch` names ``who`` gave one that is not."""
    out = set()
    for action in actions:
        try:
            out.add(canonical(action))
        except NotationError as error:
            raise Mismatch(f"{who} gave an action that is not in the notation: {error}") from None
    return out


class Skip(Exception):
    """The engine refused the match as unsupported, though it declares the variant."""


def play_case(engine: Engine, case: Case, target: Target, run: CaseRun) -> None:
    """Play ``case`` under ``target`` on ``engine``, checking each expectation on the way.

    ``run`` follows the hand, step and history reached, for the report. Raises
    :class:`Mismatch` at the first expectation that does not hold, :class:`Skip`
    when the engine refuses the match as unsupported.
    """
    try:
        engine.new_match(target.variant, target.options, case.players)
    except EngineRefusal as refusal:
        if refusal.code == "unsupported":
            raise Skip(
                f"the engine refused new_match with unsupported, though it declares "
                f"{target.label()}: {refusal.message or 'no reason given'}"
            ) from None
        raise
    for hand_index, hand in enumerate(case.hands):
        run.hand, run.step = hand_index, None
        engine.new_hand(hand.deal)
        _play_hand(engine, hand, run)
    if case.match is not None:
        run.step = None
        state = engine.match_state()
        for key, expected in case.match.items():
            if state.get(key) != expected:
                raise Mismatch(f"match {key} differs", expected, state.get(key))


def _play_hand(engine: Engine, hand: ScriptedHand, run: CaseRun) -> None:
    run.history = []
    for step_index, step in enumerate(hand.steps):
        run.step = step_index
        _check_step(engine, step, run)
    run.step = None
    if hand.result is not None:
        result = engine.result()
        if result is None:
            raise Mismatch("the hand should be over", dict(hand.result), None)
        for key, expected in hand.result.items():
            if result.get(key) != expected:
                raise Mismatch(f"result {key} differs", expected, result.get(key))


def _check_step(engine: Engine, step: Step, run: CaseRun) -> None:
    if step.to_act is not None:
        seat = engine.to_act()
        if seat != step.to_act:
            raise Mismatch("a different seat is to act", step.to_act, seat)
    if step.legal is not None or step.includes or step.excludes:
        actual = canonical_set(engine.legal(), "the engine")
        if step.legal is not None:
            expected = canonical_set(step.legal, "the case")
            if actual != expected:
                raise Mismatch("legal actions differ", sorted(expected), sorted(actual))
        missing = canonical_set(step.includes, "the case") - actual
        if missing:
            raise Mismatch("actions that must be legal are not", sorted(missing), sorted(actual))
        present = canonical_set(step.excludes, "the case") & actual
        if present:
            raise Mismatch("actions that must not be legal are", [], sorted(present))
    if step.act is not None:
        reason = engine.apply(step.act, step.as_seat)
        if step.error is None and reason is not None:
            raise Mismatch(f"{step.act} was refused", "accepted", reason)
        if step.error is not None and reason != step.error:
            raise Mismatch(
                f"{step.act} should be refused with {step.error}",
                step.error,
                reason or "accepted",
            )
        if reason is None:
            run.history.append(step.act)
    if step.ends is not None:
        actual_ends = [" ".join(end.split()) for end in engine.ends()]
        if actual_ends != list(step.ends):
            raise Mismatch("open ends differ", list(step.ends), actual_ends)
