"""Where an engine does its own thing: an opening it lays itself, another action than asked.

- :func:`opened_itself`: an engine that lays the opening tile while dealing
  (``plays``: ``opens_itself``) names what it laid; the case's steps up to its
  scripted opening are judged against that (the seat, the legal set, the tile),
  the steps before it, which the engine played on its own, are not judged, and
  the case goes on from its opening when the engine laid the same tile.
- :func:`laid_by_ends`: an engine that accepted one action and carried out
  another shows it by its ends, exactly those of another placement of the same
  tile (or says so, in ``laid``); :meth:`.checking.Checks.laid_otherwise`
  reports it as exactly that, with both actions, not as a rule of the game.
"""

from __future__ import annotations

from ...engine.actions import Play
from ...engine.hand import Hand
from ...errors import IllegalActionError, NotationError
from ...rules.vocabulary import Shape
from ..protocol.interface import Engine, Opening
from ..suite.casedata import ScriptedHand, Step
from . import attribution
from .attribution import Position
from .canonical import canonical
from .checking import Checks, Reference, Stop
from .verdicts import CaseRun, Check


def canonical_or_none(action: str) -> str | None:
    """``action`` in canonical notation, or None when it is not in the notation."""
    try:
        return canonical(action)
    except NotationError:
        return None


def _placements(action: Play) -> list[Play]:
    """Every way of laying ``action``'s tile on its end, whatever the rules say."""
    tile, end, found = action.tile, action.end, []
    for half in dict.fromkeys((tile.low, tile.high)):
        found.append(Play(tile, end, Shape.INLINE, half))
        found.append(Play(tile, end, Shape.CROSSWISE_OFFSET, half))
    found.append(Play(tile, end, Shape.CROSSWISE, None))
    return found


def laid_by_ends(before: Hand, asked: str, ends: list[str]) -> str | None:
    """The one other placement of ``asked``'s tile on the same end, from ``before``, that
    leaves exactly ``ends`` (None when none does, or more than one).

    Only the same end: ends in another order may as well be written in another
    order, which is a deviation of its own.

    A placement the rules allow is played on a copy of the hand; one they do not
    is worked out for the plain end it would leave, in line.
    """
    try:
        action = attribution.parse_action(asked)
    except NotationError:
        return None
    if not isinstance(action, Play) or action.end is None:
        return None
    found = []
    for other in _placements(action):
        if other == action:
            continue
        try:
            twin = before.copy()
            twin.apply(other)
            after = [end.notation for end in twin.ends]
        except IllegalActionError:
            if other.shape is not Shape.INLINE or other.end is None:
                continue
            after = [end.notation for end in before.ends]
            after[other.end] = str(other.open)
        if after == ends:
            found.append(str(other))
    return found[0] if len(found) == 1 else None


def _opening_step(hand: ScriptedHand) -> int | None:
    """The index of the step that lays the hand's opening tile, if the script gets there."""
    for index, step in enumerate(hand.steps):
        if step.act is None or step.error is not None or step.error_code is not None:
            continue
        try:
            action = attribution.parse_action(step.act)
        except NotationError:
            return None
        if isinstance(action, Play) and action.end is None:
            return index
    return None


def _unjudged_step(checks: Checks, step: Step, position: Position) -> None:
    """Each expectation of ``step``, which the engine played on its own, not judged."""
    rules = attribution.opening_rules(position)
    for present in (
        step.to_act is not None,
        step.legal is not None,
        bool(step.includes),
        bool(step.excludes),
        step.act is not None,
        step.ends is not None,
    ):
        if present:
            checks.unjudged(rules)


def opened_itself(
    engine: Engine,
    opening: object,
    hand: ScriptedHand,
    run: CaseRun,
    reference: Reference,
    checks: Checks,
) -> int:
    """Judge the opening an engine laid while dealing; the index of the first step still to
    play (past the last step when the rest of the hand cannot be followed)."""
    index = _opening_step(hand)
    steps = hand.steps
    laid = opening if isinstance(opening, Opening) else None
    for step_index, step in enumerate(steps[: len(steps) if index is None else index]):
        run.step = step_index
        _unjudged_step(checks, step, reference.position)
        if step.act is not None and step.error is None and step.error_code is None:
            reference.apply(step.act, step.as_seat)  # the engine's own draws for a double
    if index is None:
        return len(steps)
    step = steps[index]
    run.step = index
    position = reference.position
    rules = attribution.opening_rules(position)
    if laid is None or laid.action is None:
        checks.check(
            False, Check.ACCEPTED, rules, "the engine laid no opening tile", step.act, None
        )
        raise Stop
    hand_now = position.hand
    expected_seat = (
        step.to_act if step.to_act is not None else (None if hand_now is None else hand_now.current)
    )
    if expected_seat is not None:
        checks.check(
            laid.seat == expected_seat,
            Check.TO_ACT,
            rules,
            "a different seat opened",
            expected_seat,
            laid.seat,
        )
    action = canonical_or_none(laid.action)
    allowed = None if step.legal is None else {canonical(text) for text in step.legal}
    legal = _legal(hand_now, laid.action) if allowed is None else action in allowed
    excluded = {canonical(text) for text in step.excludes}
    checks.check(
        legal and action not in excluded,
        Check.LEGAL,
        lambda: attribution.action_rules(position, laid.action or ""),
        "the engine opened with a tile the rules do not let open",
        sorted(allowed) if allowed is not None else step.act,
        laid.action,
    )
    assert step.act is not None
    if action != canonical(step.act):
        # another opening the rules allow (or a wrong one, just reported): the case's
        # line cannot be followed, and what is left of it is not judged
        for later, rest in enumerate(steps[index:], start=index):
            run.step = later
            _unjudged_step(checks, rest, position)
        raise Stop
    checks.check(True, Check.ACCEPTED, rules, "", step.act, laid.action)
    run.history.append(step.act)
    reference.apply(step.act, laid.seat)
    if step.ends is not None:
        checks.ends(engine.ends(), step.ends, attribution.opening_rules(position))
    return index + 1


def _legal(hand: Hand | None, text: str) -> bool:
    if hand is None:
        return True
    try:
        return hand.is_legal(attribution.parse_action(text))
    except NotationError:
        return False
