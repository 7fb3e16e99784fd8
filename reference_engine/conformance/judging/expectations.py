"""Playing a case's script against an engine and checking every expectation on the way.

Actions are compared in canonical notation (:mod:`.canonical`). An expectation
that does not hold is recorded as a :class:`~.verdicts.Deviation`, with the
rules behind it (:mod:`.attribution`, read from the reference engine following
the same scripted line), and the case goes on as long as the engine can
follow the line: it stops when the engine refuses a scripted action the case
says is legal. When it accepts one the case tries only to see it refused, the
case is played again without that try (:class:`~.checking.Replay`), so what
follows is judged too. ``fail_fast`` stops at the first deviation.
:class:`Skip` means the engine refused the match as unsupported, though it
declares the variant. What the engine declares it does not do is not judged
(:mod:`.checking`), an opening it lays itself and an action it lays otherwise
are :mod:`.departures`', errors it must answer :mod:`.errorchecks`', and a
result or match field that differs is blamed by :mod:`.base`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ...engine.tiles import Tile
from ...errors import NotationError
from ...rules.model import Rules
from ..protocol.codes import ErrorCode
from ..protocol.declarations import Declaration
from ..protocol.interface import Engine, EngineRefusal
from ..protocol.requests import case_requests
from ..suite.casedata import Case, ScriptedHand, Step, Target
from ..transport.ahead import Ahead, plan, settle
from . import attribution, fields
from .attribution import FixedRule, Position
from .canonical import Mismatch, canonical, canonical_set
from .checking import MOST_REPLAYS, Checks, Reference, Replay, Stop
from .counterfactual import Explainer
from .departures import canonical_or_none, laid_by_ends, opened_itself
from .errorchecks import check_error, refuse_deal, start_at
from .verdicts import CaseRun, Check


class Skip(Exception):
    """The engine refused the match as unsupported, though it declares the variant."""


def play_case(
    engine: Engine,
    case: Case,
    target: Target,
    run: CaseRun,
    rules: Rules,
    *,
    fail_fast: bool = False,
    declared: Declaration | None = None,
) -> None:
    """Play ``case`` under ``target`` (resolved as ``rules``) on ``engine``, checking everything.

    Every expectation that does not hold is added to ``run.deviations``; ``run``
    also follows the hand, step and history reached. Raises :class:`Skip` when
    the engine refuses the match as unsupported, and lets an
    :class:`~.engine.EngineRefusal` of a later request through.
    """
    plan(engine, case_requests(case, target))
    skips: dict[tuple[int, int | None], int] = {}
    while True:
        replay = Replay(skips)
        try:
            _play_case(
                engine, case, target, run, rules, fail_fast, declared or Declaration(), replay
            )
        except Stop as stop:
            if stop.skip is None or fail_fast or len(skips) >= MOST_REPLAYS:
                break
            # the engine took what the case only tries: play it again without that try
            skips[stop.skip] = replay.met_before(stop.skip)
            run.resumed.append(stop.skip)
            settle(engine)
            continue
        except (EngineRefusal, Mismatch, Skip):
            settle(engine)  # not after a failure (the engine is stopped) nor a signal
            raise
        break
    settle(engine)


def _play_case(
    engine: Engine,
    case: Case,
    target: Target,
    run: CaseRun,
    rules: Rules,
    fail_fast: bool,
    declaration: Declaration,
    replay: Replay,
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
    reference = Reference(rules, case.players)
    checks = Checks(run, reference, fail_fast, declaration)
    checks.quiet, replay.checks = replay.quiet(), checks
    checks.explainer = Explainer(
        case.hands,
        rules,
        case.players,
        declaration.reasons,
        lambda hand: {step for at, step in replay.skips if at == hand and step is not None},
    )
    for hand_index, hand in enumerate(case.hands):
        run.hand, run.step = hand_index, None
        if hand.refuse_deal:
            if not replay.at((hand_index, None)):
                refuse_deal(engine, hand, checks, hand_index)
            continue
        if hand.position is not None:
            start_at(engine, hand.position, reference, checks)
            run.history = []
            _play_hand(engine, hand, run, reference, checks, replay, 0)
            continue
        # the reference deals while the engine does (nothing it does depends on the answer)
        follow = Ahead(engine, partial(reference.new_hand, hand.deal))
        try:
            opening = engine.new_hand(hand.deal)
        except EngineRefusal as refusal:
            follow()
            if refusal.code != ErrorCode.BAD_DEAL:
                raise
            checks.check(
                False,
                Check.DEAL,
                attribution.deal_rules(rules, hand.deal),
                "a deal the rules accept was refused",
                "accepted",
                f"{refusal.code}: {refusal.message}" if refusal.message else refusal.code,
            )
            raise Stop from None
        follow()
        _begin_hand(engine, reference, checks)
        run.history = []
        start = 0
        if declaration.opens_itself:
            start = opened_itself(engine, opening, hand, run, reference, checks)
        _play_hand(engine, hand, run, reference, checks, replay, start)
    if case.match is not None:
        run.step = None
        state = engine.match_state()
        differs = fields.match_rules(reference.match, state)
        expected = case.match

        def match_key_rules(key: str) -> tuple[str, ...]:
            if state.get(key) == expected.get(key) or differs is None:
                return attribution.match_rules(rules, key)
            return differs

        checks.keys(Check.MATCH, expected, state, match_key_rules)


def _begin_hand(engine: Engine, reference: Reference, checks: Checks) -> None:
    """A hand just dealt: it has a result only if the reference's is over (a redeal)."""
    hand = reference.hand
    if hand is None:
        return
    rules = Ahead(engine, lambda: fields.redeal_rules(reference.rules, hand))
    result = engine.result()
    over = hand.is_over
    held = (result is not None) == over
    explainer, index = checks.explainer, checks.run.hand or 0
    checks.check(
        held,
        Check.RESULT,
        rules if held or explainer is None else explainer.at_deal(index, rules(), not over),
        "the hand just dealt already has a result" if not over else "the redeal has no result",
        "a result" if over else None,
        result,
    )


def _play_hand(
    engine: Engine,
    hand: ScriptedHand,
    run: CaseRun,
    reference: Reference,
    checks: Checks,
    replay: Replay,
    start: int = 0,
) -> None:
    for step_index, step in enumerate(hand.steps):
        if step_index < start or replay.at((run.hand or 0, step_index)):
            continue
        run.step = step_index
        _check_step(engine, step, run, reference, checks)
    run.step = None
    if hand.result is not None:
        position = reference.position
        # a hand dealt again ends by the rule that deals again, any other by SPEC 9
        redealt = hand.result.get("termination") == "redeal"
        ended = (
            fields.redeal_rules(reference.rules, position.hand)
            if redealt
            else (FixedRule.END_OF_HAND.value,)
        )
        seat = engine.to_act()
        checks.check(
            seat is None, Check.TO_ACT, ended, "a seat is to act after the hand is over", None, seat
        )
        keys = ("termination", *hand.result)
        by_key = Ahead(
            engine,
            lambda: {
                key: ended if redealt else attribution.result_rules(position, key) for key in keys
            },
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
        differs = fields.result_rules(position, result)

        def result_key_rules(key: str) -> tuple[str, ...]:
            held = result.get(key) == hand.result.get(key)  # type: ignore[union-attr]
            return by_key()[key] if held or differs is None else differs

        checks.keys(Check.RESULT, hand.result, result, result_key_rules)


def _check_step(
    engine: Engine, step: Step, run: CaseRun, reference: Reference, checks: Checks
) -> None:
    position, known = reference.position, reference.known
    checks.probe = _probe(engine, reference)
    checks.seat_probe = _once(engine.to_act)
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
    if step.error_code is not None:
        check_error(engine, step, run, checks)
        return
    # the rules behind the ends are those of the act that made them, read before it
    ends_rules = attribution.ends_rules(position, step.act, known) if step.ends is not None else ()
    # the hand before a play whose ends are checked, to tell what the engine laid
    before = (
        reference.hand.copy()
        if step.ends is not None and step.act is not None and reference.hand is not None
        else None
    )
    if step.act is not None:
        _check_act(engine, step, run, reference, checks)
    if step.ends is not None:
        act = step.act
        laid = None if before is None or act is None else partial(laid_by_ends, before, act)
        checks.ends(engine.ends(), step.ends, ends_rules, act, laid)


def _once(ask: Callable[[], int | None]) -> Callable[[], int | None]:
    """``ask``, asked at most once (its answer kept)."""
    answer: list[int | None] = []

    def asked() -> int | None:
        if not answer:
            answer.append(ask())
        return answer[0]

    return asked


def _probe(engine: Engine, reference: Reference) -> Callable[[], tuple[str, ...] | None] | None:
    """Ask the engine, once, what the reference's seat to act holds (see Checks.probe)."""
    hand, ask = reference.hand, getattr(engine, "held", None)
    if hand is None or hand.is_over or not callable(ask):
        return None
    seat = hand.current
    answer: list[tuple[str, ...] | None] = []

    def probe() -> tuple[str, ...] | None:
        if not answer:
            tiles = ask(seat)
            try:
                read = None if tiles is None else tuple(sorted(str(Tile.parse(t)) for t in tiles))
            except NotationError:
                read = None
            answer.append(read)
        return answer[0]

    return probe


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


def _facets(
    position: Position, actions: set[str], known: attribution.Known
) -> tuple[tuple[str, ...], ...]:
    """The rules behind each action in dispute: each is a fact of its own to explain
    (a play left out and a draw offered may be two rules broken, or one)."""
    return tuple(attribution.action_rules(position, action, known) for action in sorted(actions))


def _check_legal(
    engine: Engine, step: Step, position: Position, checks: Checks, known: attribution.Known
) -> None:
    held = Ahead(engine, lambda: _held_rules(position, step, known))
    written = list(engine.legal())
    try:
        actual = canonical_set(written, "the engine")
    except Mismatch as mismatch:
        checks.check(False, Check.LEGAL, lambda: (), mismatch.message)
        raise Stop from None
    checks.writing(written, [canonical(action) for action in written], "actions")
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
            facets=lambda: _facets(position, disputed, known),
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
            facets=lambda: _facets(position, missing, known),
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
            facets=lambda: _facets(position, present, known),
        )


def _check_act(
    engine: Engine, step: Step, run: CaseRun, reference: Reference, checks: Checks
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
            raise Stop  # the engine cannot follow the scripted line
        laid = getattr(engine, "laid", None)
        if laid is not None and canonical_or_none(laid) != canonical(act):
            checks.laid_otherwise(act, laid)
        run.history.append(act)
        reference.apply(act, step.as_seat)
        return
    if not checks.declaration.reasons:
        # judged on the refusal alone: which reason is given is not asked
        if reason is not None:
            checks.unjudged((FixedRule.PROTOCOL.value,))
        checks.check(
            reason is not None,
            Check.REFUSED,
            rules,
            f"{act} should be refused",
            "refused",
            "accepted" if reason is None else "refused",
        )
        if reason is None:
            raise Stop((run.hand or 0, run.step or 0))
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
        # the engine played what must be refused: its position is not the case's, but
        # the case can be played again without that try
        raise Stop((run.hand or 0, run.step or 0))
