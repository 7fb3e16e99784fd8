"""Expectations about the protocol rather than the game: what an engine must answer with an error.

A deal must be refused with its code: ``bad_deal`` for a deal that breaks the
variant (blamed on the rule it breaks; an engine that breaks on it, answering
``internal_error``, took it in: the expectation fails), ``hand_in_progress`` while the hand
before goes on, ``match_over`` once a side has won (the target). A request
must be answered with an error code and carry nothing out: an act by a seat
the match does not have (``no_such_seat``), an act outside the notation
(``bad_notation``), a request type the protocol does not have
(``unknown_request``, asked only of a program: an in-process engine has
methods, not requests).
"""

from __future__ import annotations

from ..protocol.codes import ErrorCode
from ..protocol.interface import Engine, EngineFailure, EngineRefusal, FailureKind
from ..suite.casedata import ScriptedHand, Step
from . import attribution
from .attribution import FixedRule
from .checking import Checks, Reference, Stop
from .verdicts import CaseRun, Check

#: Why a deal is refused, by its code, for the messages.
_REFUSED_DEAL = {
    "bad_deal": "a deal that breaks the variant",
    "hand_in_progress": "a deal while the hand before is not over",
    "match_over": "a deal once the match is won",
}


#: The failures that show an engine took a deal in and broke on it, while still answering.
_BROKE_ON_IT = frozenset({FailureKind.INTERNAL_ERROR, FailureKind.RAISED})


def refuse_deal(engine: Engine, hand: ScriptedHand, checks: Checks, index: int) -> None:
    """The engine must refuse the deal with ``hand.refuse_deal``'s code. Behind a deal that
    breaks the variant is the rule it breaks (:func:`.attribution.broken_deal_rules`); behind
    a match already won, the target; behind a hand still going on, the protocol."""
    code = hand.refuse_deal or ErrorCode.BAD_DEAL.value
    if code == ErrorCode.BAD_DEAL:
        rules = attribution.broken_deal_rules(checks.reference.rules, hand.deal, checks.run.players)
    elif code == ErrorCode.MATCH_OVER:
        rules = ("target",)
    else:
        rules = (FixedRule.PROTOCOL.value,)
    what = _REFUSED_DEAL.get(code, "a deal")
    if code == ErrorCode.MATCH_OVER and not checks.declaration.matches:
        checks.unjudged(rules)  # an engine that plays no match is not asked about its end
        return
    try:
        engine.new_hand(hand.deal)
    except EngineRefusal as refusal:
        checks.check(
            refusal.code == code,
            Check.DEAL,
            rules,
            f"{what} is refused with another code",
            code,
            refusal.code,
        )
        return
    except EngineFailure as failure:
        if failure.kind not in _BROKE_ON_IT:
            raise
        # the deal is what broke it: the expectation failed (the engine took the deal in)
        checks.check(False, Check.DEAL, rules, f"{what} broke the engine", code, failure.message)
        raise Stop from None
    checks.check(False, Check.DEAL, rules, f"{what} was accepted", code, "accepted")
    raise Stop((index, None))  # the engine plays a hand the case does not have: play it again


def check_error(engine: Engine, step: Step, run: CaseRun, checks: Checks) -> None:
    """A request the engine must answer with an error code, carrying nothing out: an act
    by a seat the match does not have, or outside the notation, or an unknown request."""
    code = step.error_code
    rules = (FixedRule.PROTOCOL.value,)
    if step.request is not None:
        ask = getattr(engine, "ask", None)
        if ask is None:  # an in-process engine has no requests, only methods
            checks.unjudged(rules)
            return
        try:
            ask(step.request)
        except EngineRefusal as refusal:
            checks.check(
                refusal.code == code,
                Check.REQUEST,
                rules,
                f"the request {step.request!r} is answered with another code",
                code,
                refusal.code,
            )
            return
        checks.check(
            False,
            Check.REQUEST,
            rules,
            f"the request {step.request!r} was answered",
            code,
            "an answer",
        )
        return
    assert step.act is not None
    try:
        reason = engine.apply(step.act, step.as_seat)
    except EngineRefusal as refusal:
        checks.check(
            refusal.code == code,
            Check.REQUEST,
            rules,
            f"{step.act} is answered with another code",
            code,
            refusal.code,
        )
        return
    checks.check(
        False,
        Check.REQUEST,
        rules,
        f"{step.act} should be answered with {code}",
        code,
        reason or "accepted",
    )
    if reason is None:  # carried out: the engine is off the case's line, which goes on without it
        raise Stop((run.hand or 0, run.step or 0))


def start_at(engine: Engine, position: str, reference: Reference, checks: Checks) -> None:
    """Start a hand at a case's position, on the reference and the engine (one that declares
    positions: no other is asked); the engine's refusal of it is one deviation, of the deal."""
    reference.new_position(position)
    start = getattr(engine, "new_position", None)
    try:
        if not callable(start):
            raise EngineRefusal(ErrorCode.UNSUPPORTED, "the engine has no new_position")
        start(position)
    except EngineRefusal as refusal:
        checks.check(
            False,
            Check.DEAL,
            (FixedRule.DEAL.value,),
            "a position of the rules was refused",
            "accepted",
            f"{refusal.code}: {refusal.message}" if refusal.message else refusal.code,
        )
        raise Stop from None
