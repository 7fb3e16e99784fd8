"""Playing a case's script against an engine and checking every expectation on the way.

Actions are compared in canonical notation (:mod:`.canonical`). An expectation
that does not hold is recorded as a :class:`~.verdicts.Deviation`, with the
rules behind it (:mod:`.attribution`, read from the reference engine following
the same scripted line), and the case goes on as long as the engine can
follow the line: it stops when the engine refuses a scripted action the case
says is legal, or accepts one the case says must be refused (its position is
then not the case's any more). ``fail_fast`` stops at the first deviation.
:class:`Skip` means the engine refused the match as unsupported, though it
declares the variant.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from ..engine.deal import Deal
from ..engine.hand import Hand
from ..engine.match import Match
from ..errors import DealError, IllegalActionError, NotationError
from ..rules.model import Rules
from . import attribution
from .ahead import Ahead, plan, settle
from .attribution import FixedRule, Position, position_text
from .canonical import Mismatch, canonical, canonical_set
from .cases import Case, ScriptedHand, Step, Target
from .engine import Engine, EngineRefusal
from .requests import case_requests
from .verdicts import CaseRun, Check, Deviation


class Skip(Exception):
    """The engine refused the match as unsupported, though it declares the variant."""


class _Stop(Exception):
    """The case cannot go on: the engine left the scripted line, or fail-fast."""


class _Reference:
    """The reference engine following the case's scripted line, to say which rules are at stake."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.rules = rules
        self.match: Match | None = Match(rules, players)
        self.hand: Hand | None = None
        #: The rules worked out at the position now, forgotten when it moves.
        self.known: attribution.Known = {}

    def new_hand(self, deal: Any) -> None:
        self.known = {}
        if self.match is None:
            return
        try:
            if self.hand is not None and self.hand.is_over:
                self.match.close_hand()
            self.hand = self.match.new_hand(Deal.from_data(dict(deal), self.rules))
        except (DealError, ValueError):
            self.match = self.hand = None

    def apply(self, text: str, seat: int | None) -> None:
        self.known = {}
        if self.hand is None:
            return
        try:
            self.hand.apply(attribution.parse_action(text), seat)
        except (IllegalActionError, NotationError):
            self.hand = None  # the case's line is not the reference's: no more attributions

    @property
    def position(self) -> Position:
        return Position(self.rules, self.hand)

    def describe(self) -> str:
        """The position in the notation: the ends, the hand of the seat to act, the boneyard."""
        return position_text(self.hand)


class _Checks:
    """Records every expectation of one case run: held or not, with its rules."""

    def __init__(self, run: CaseRun, case: Case, reference: _Reference, fail_fast: bool) -> None:
        self.run = run
        self.reference = reference
        self.fail_fast = fail_fast
        self.declared = tuple(dict.fromkeys(token.partition("=")[0] for token in case.exercises))

    def check(
        self,
        held: bool,
        check: Check,
        rules: tuple[str, ...] | Callable[[], tuple[str, ...]],
        message: str,
        expected: Any = None,
        actual: Any = None,
    ) -> None:
        named = (rules if isinstance(rules, tuple) else rules()) or self.declared
        tally = self.run.held if held else self.run.failed
        tally.update(named)
        if held:
            return
        self.run.deviations.append(
            Deviation(
                check=check,
                message=message,
                expected=expected,
                actual=actual,
                rules=named,
                hand=self.run.hand,
                step=self.run.step,
                history=tuple(self.run.history),
                position=self.reference.describe(),
            )
        )
        if self.fail_fast:
            raise _Stop

    def keys(
        self,
        check: Check,
        expected: Mapping[str, Any],
        actual: Mapping[str, Any],
        rules: Callable[[str], tuple[str, ...]],
    ) -> None:
        """Each key of a result or a match state the case gives, against the engine's."""
        for key, value in expected.items():
            self.check(
                actual.get(key) == value,
                check,
                rules(key),
                f"{check.value} {key} differs",
                value,
                actual.get(key),
            )


def play_case(
    engine: Engine,
    case: Case,
    target: Target,
    run: CaseRun,
    rules: Rules,
    *,
    fail_fast: bool = False,
) -> None:
    """Play ``case`` under ``target`` (resolved as ``rules``) on ``engine``, checking everything.

    Every expectation that does not hold is added to ``run.deviations``; ``run``
    also follows the hand, step and history reached. Raises :class:`Skip` when
    the engine refuses the match as unsupported, and lets an
    :class:`~.engine.EngineRefusal` of a later request through.
    """
    plan(engine, case_requests(case, target))
    try:
        _play_case(engine, case, target, run, rules, fail_fast)
    except _Stop:
        pass
    except (EngineRefusal, Mismatch, Skip):
        settle(engine)  # not after a failure (the engine is stopped) nor a signal
        raise
    settle(engine)


def _play_case(
    engine: Engine, case: Case, target: Target, run: CaseRun, rules: Rules, fail_fast: bool
) -> None:
    try:
        engine.new_match(target.variant, target.options, case.players)
    except EngineRefusal as refusal:
        if refusal.code == "unsupported":
            raise Skip(
                f"the engine refused new_match with unsupported, though it declares "
                f"{target.label()}: {refusal.message or 'no reason given'}"
            ) from None
        raise
    reference = _Reference(rules, case.players)
    checks = _Checks(run, case, reference, fail_fast)
    for hand_index, hand in enumerate(case.hands):
        run.hand, run.step = hand_index, None
        if hand.refuse_deal:
            _refuse_deal(engine, hand, checks)
            continue
        # the reference deals while the engine does (nothing it does depends on the answer)
        follow = Ahead(engine, partial(reference.new_hand, hand.deal))
        engine.new_hand(hand.deal)
        follow()
        _begin_hand(engine, reference, checks)
        _play_hand(engine, hand, run, reference, checks)
    if case.match is not None:
        run.step = None
        state = engine.match_state()
        checks.keys(Check.MATCH, case.match, state, lambda key: attribution.match_rules(rules, key))


def _refuse_deal(engine: Engine, hand: ScriptedHand, checks: _Checks) -> None:
    """The engine must refuse a deal that breaks the variant, with ``bad_deal``."""
    try:
        engine.new_hand(hand.deal)
    except EngineRefusal as refusal:
        checks.check(
            refusal.code == "bad_deal",
            Check.DEAL,
            (FixedRule.DEAL.value,),
            "a deal that breaks the variant is refused with another code",
            "bad_deal",
            refusal.code,
        )
        return
    checks.check(
        False,
        Check.DEAL,
        (FixedRule.DEAL.value,),
        "a deal that breaks the variant was accepted",
        "bad_deal",
        "accepted",
    )
    raise _Stop  # the engine is playing a hand the case does not have


def _begin_hand(engine: Engine, reference: _Reference, checks: _Checks) -> None:
    """A hand just dealt: it has a result only if the reference's is over (a redeal)."""
    hand = reference.hand
    if hand is None:
        return
    rules = Ahead(engine, lambda: attribution.opening_rules(reference.position))
    result = engine.result()
    over = hand.is_over
    checks.check(
        (result is not None) == over,
        Check.RESULT,
        rules,
        "the hand just dealt already has a result" if not over else "the redeal has no result",
        "a result" if over else None,
        result,
    )


def _play_hand(
    engine: Engine, hand: ScriptedHand, run: CaseRun, reference: _Reference, checks: _Checks
) -> None:
    run.history = []
    for step_index, step in enumerate(hand.steps):
        run.step = step_index
        _check_step(engine, step, run, reference, checks)
    run.step = None
    if hand.result is not None:
        seat = engine.to_act()
        checks.check(
            seat is None,
            Check.TO_ACT,
            (FixedRule.END_OF_HAND.value,),
            "a seat is to act after the hand is over",
            None,
            seat,
        )
        position = reference.position
        keys = ("termination", *hand.result)
        by_key = Ahead(
            engine, lambda: {key: attribution.result_rules(position, key) for key in keys}
        )
        result = engine.result()
        if result is None:
            checks.check(
                False,
                Check.RESULT,
                lambda: by_key()["termination"],
                "the hand should be over",
                dict(hand.result),
                None,
            )
            return
        checks.keys(Check.RESULT, hand.result, result, lambda key: by_key()[key])


def _check_step(
    engine: Engine, step: Step, run: CaseRun, reference: _Reference, checks: _Checks
) -> None:
    position, known = reference.position, reference.known
    if step.to_act is not None:
        rules = Ahead(engine, lambda: attribution.to_act_rules(position))
        seat = engine.to_act()
        checks.check(
            seat == step.to_act,
            Check.TO_ACT,
            rules,
            "a different seat is to act",
            step.to_act,
            seat,
        )
    if step.legal is not None or step.includes or step.excludes:
        _check_legal(engine, step, position, checks, known)
    # the rules behind the ends are those of the act that made them, read before it
    ends_rules = attribution.ends_rules(position, step.act, known) if step.ends is not None else ()
    if step.act is not None:
        _check_act(engine, step, run, reference, checks)
    if step.ends is not None:
        written_ends = list(engine.ends())
        actual_ends = [" ".join(end.split()) for end in written_ends]
        _check_writing(checks, written_ends, actual_ends, "ends")
        checks.check(
            actual_ends == list(step.ends),
            Check.ENDS,
            ends_rules,
            "open ends differ",
            list(step.ends),
            actual_ends,
        )


def _check_writing(
    checks: _Checks, written: list[str], canonical_form: list[str], what: str
) -> None:
    """Engines write actions and ends canonically (notation.md: writers MUST)."""
    odd = [(text, form) for text, form in zip(written, canonical_form, strict=True) if text != form]
    checks.check(
        not odd,
        Check.NOTATION,
        (FixedRule.PROTOCOL.value,),
        f"the engine writes {what} in a form other than the canonical one",
        [form for _, form in odd],
        [text for text, _ in odd],
    )


def _held_rules(
    position: Position, step: Step, known: attribution.Known
) -> tuple[tuple[str, ...], ...]:
    """The rules behind a step's legal, includes and excludes checks when they hold."""
    legal, includes, excludes = step.legal, step.includes, step.excludes
    return (
        () if legal is None else _rules(position, canonical_set(legal, "the case"), known),
        _rules(position, includes, known) if includes else (),
        _rules(position, excludes, known) if excludes else (),
    )


_rules = attribution.legal_rules


def _check_legal(
    engine: Engine, step: Step, position: Position, checks: _Checks, known: attribution.Known
) -> None:
    held = Ahead(engine, lambda: _held_rules(position, step, known))
    written = list(engine.legal())
    try:
        actual = canonical_set(written, "the engine")
    except Mismatch as mismatch:
        checks.check(False, Check.LEGAL, lambda: (), mismatch.message)
        raise _Stop from None
    _check_writing(checks, written, [canonical(action) for action in written], "actions")
    if step.legal is not None:
        expected = canonical_set(step.legal, "the case")
        disputed = expected ^ actual
        checks.check(
            not disputed,
            Check.LEGAL,
            lambda: _rules(position, disputed, known) if disputed else held()[0],
            "legal actions differ",
            sorted(expected),
            sorted(actual),
        )
    if step.includes:
        missing = canonical_set(step.includes, "the case") - actual
        checks.check(
            not missing,
            Check.INCLUDES,
            lambda: _rules(position, missing, known) if missing else held()[1],
            "actions that must be legal are not",
            sorted(missing),
            sorted(actual),
        )
    if step.excludes:
        present = canonical_set(step.excludes, "the case") & actual
        checks.check(
            not present,
            Check.EXCLUDES,
            lambda: _rules(position, present, known) if present else held()[2],
            "actions that must not be legal are",
            [],
            sorted(present),
        )


def _check_act(
    engine: Engine, step: Step, run: CaseRun, reference: _Reference, checks: _Checks
) -> None:
    assert step.act is not None
    act = step.act
    position, known = reference.position, reference.known
    rules = Ahead(engine, lambda: attribution.action_rules(position, act, known))
    reason = engine.apply(act, step.as_seat)
    if step.error is None:
        checks.check(
            reason is None,
            Check.ACCEPTED,
            rules,
            f"{act} was refused",
            "accepted",
            reason,
        )
        if reason is not None:
            raise _Stop  # the engine cannot follow the scripted line
        run.history.append(act)
        reference.apply(act, step.as_seat)
        return
    checks.check(
        reason == step.error,
        Check.REFUSED,
        # accepting it breaks the rule that refuses it; another reason may be the order too
        lambda: rules() if reason is None else attribution.refusal_rules(position, act, known),
        f"{act} should be refused with {step.error}",
        step.error,
        reason or "accepted",
    )
    if reason is None:
        raise _Stop  # the engine played what must be refused: its position is not the case's
