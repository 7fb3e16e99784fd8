"""How far one rule set agrees with what an engine was observed to play, check by check.

Every check is made at the state the engine reached (:func:`.observe.follow`),
under the rule set on its own: the seat to act after each action, the legal
set (or, for a record, whether the action was allowed), the ends after the
action, the hand's result field by field, and whether the engine takes a deal
of the rule set's hand sizes. A step the rule set refuses does not end its
replay: the checks after it are made all the same, from the table the engine
reached. A check that cannot be made under a rule set (the seat after an action
it refuses) is not counted for it (None).

A family's checks of one hand come in a layout that depends on the hand alone (a
check not made is None in its place), so that two rule sets' checks compare
place by place. The checks fall in :class:`Family` groups, each decided by its own rules
(:data:`FAMILY_GROUPS`): what comes before and with the opening tile, the turns
after it, the scoring, the deal. :func:`family_checks` makes one family's checks
of one hand, so that rule sets alike in that family's rules are checked once.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from functools import cache

from ...engine.deal import shape_of, sized
from ...engine.hand import Hand
from ...engine.match import Match
from ...engine.recordformat import outcome_data
from ...engine.scoring import Termination, score
from ...engine.state import TableState, hand_at
from ...errors import DealError
from ...rules.kinds import Decides, Group, Parameter
from ...rules.model import Rules
from ...rules.parameters import BY_NAME
from .observe import Observed, Probe

#: One hand's checks: True (agrees), False (differs) or None (not made).
Checks = tuple[bool | None, ...]
#: Where a check is: the step (None: the hand's result or the deal) and what it checks.
Where = tuple[int | None, str]


class Family(Enum):
    """A group of checks decided by the same rules."""

    #: The steps before the opening tile is down, the opening, and the seat after it.
    OPENING = "opening"
    #: Every turn after the opening, and how the hand ends.
    PLAY = "play"
    #: The winner, the pips and the points of each hand.
    SCORING = "scoring"
    #: Whether the engine takes a deal of the rules' hand sizes.
    DEAL = "deal"


#: The rule groups each family's checks depend on (their rules, less the deal's own).
FAMILY_GROUPS: dict[Family, tuple[Group, ...]] = {
    Family.OPENING: (Group.EQUIPMENT, Group.OPENING, Group.PLACEMENT),
    Family.PLAY: (Group.EQUIPMENT, Group.PLACEMENT, Group.DRAWING),
    Family.SCORING: (Group.SCORING,),
    Family.DEAL: (Group.EQUIPMENT,),
}
#: What each family's checks also depend on, outside its groups.
FAMILY_DECIDES: dict[Family, tuple[Decides, ...]] = {
    Family.PLAY: (Decides.FORCED_TURN,),
    Family.SCORING: (Decides.SIDES,),
}
#: The rules that fix the set and the shape of a deal, deciding nothing of the play:
#: every candidate compared has the observed set; the hand sizes are the deal family's.
_DEALT = frozenset(
    name
    for name, p in BY_NAME.items()
    if p.group is Group.EQUIPMENT and not p.decides - {Decides.DEAL}
)
#: Whether players play in sides: the scoring's alone.
_SIDES = frozenset(name for name, p in BY_NAME.items() if Decides.SIDES in p.decides)


def _in_hands(parameter: Parameter) -> bool:
    """Whether a rule can change a single hand's play or score: it has an effect, and it is
    not given its meaning by the match (which carries what passes from hand to hand)."""
    consumer = parameter.consumer
    return consumer is not None and not consumer.startswith(f"{Match.__module__}:")


@cache
def family_rules(family: Family) -> tuple[str, ...]:
    """The rules ``family``'s checks depend on."""
    if family is Family.DEAL:
        return tuple(name for name in BY_NAME if name in _DEALT)
    extra = set(FAMILY_DECIDES.get(family, ()))
    return tuple(
        name
        for name, parameter in BY_NAME.items()
        if _in_hands(parameter)
        and (
            (
                parameter.group in FAMILY_GROUPS[family]
                and name not in _DEALT
                and (name not in _SIDES or family is Family.SCORING)
            )
            or extra & set(parameter.decides)
        )
    )


def match_rules() -> tuple[str, ...]:
    """The rules single hands cannot show: those the match gives their meaning."""
    return tuple(
        name
        for name, parameter in BY_NAME.items()
        if parameter.consumer is not None and not _in_hands(parameter)
    )


def probe_checks(rules: Rules, probes: Sequence[Probe]) -> Checks:
    """For each deal offered: whether ``rules`` deal that shape exactly when the engine took it."""
    return tuple((shape_of(rules, p.players) == p.shape) == p.accepted for p in probes)


def family_checks(
    family: Family,
    rules: Rules,
    observed: Observed,
    scoring: bool,
    where: list[Where] | None = None,
) -> Checks:
    """``family``'s checks of one hand under ``rules``; ``where`` is told where each is."""
    rules = sized(rules, observed.players, observed.shape)
    if family is Family.SCORING:
        return _scoring(rules, observed, scoring, where)
    return _turns(rules, observed, family is Family.OPENING, where)


#: What the rules say of the seat to act after a step they refuse: nothing.
_UNSAID = -1


def _turns(rules: Rules, observed: Observed, opening: bool, where: list[Where] | None) -> Checks:
    """The steps' checks (seat, legal set, ends) and the termination: those before the
    opening tile is down and the seat after it (``opening``), or every later one."""
    out: list[bool | None] = []
    own: Hand | None = None
    predicted: int | None = _UNSAID
    if opening:
        try:
            own = Hand(rules, observed.deal)
            predicted = None if own.is_over else own.current
        except (DealError, ValueError):
            own = None  # (a deal with no designated seat, under rules that need one)
    last: Hand | None = own if not observed.steps else None
    states = observed.states
    for index, step in enumerate(observed.steps):
        state = states[index]
        if (state is None) != opening:
            if opening and state is not None and index and states[index - 1] is None:
                _add(out, where, index, "to_act", _seat_check(step.seat, predicted))
            predicted, last = _UNSAID, None
            continue
        _add(out, where, index, "to_act", _seat_check(step.seat, predicted))
        hand = own if state is None else hand_at(rules, state)
        read = observed.parsed[index]
        predicted, last = _UNSAID, None
        if hand is None or read is None:
            _add(out, where, index, "legal", False)
            _add(out, where, index, "ends", None)
            own = None
            continue
        # the hand's own action objects: applying one of them is the engine's fast path
        legal = {action: action for action in hand.legal_actions()}
        offered = legal.get(read.action)
        allowed = offered is not None and (step.seat is None or step.seat == hand.current)
        _add(
            out,
            where,
            index,
            "legal",
            allowed if read.legal is None else legal.keys() == read.legal,
        )
        if offered is None or not allowed:
            _add(out, where, index, "ends", None)
            own = None
            continue
        hand.apply(offered)
        _add(out, where, index, "ends", None if read.ends is None else hand.ends == read.ends)
        predicted = None if hand.is_over else hand.current
        last = hand
    ends_here = opening == (not observed.states or observed.states[-1] is None)
    if ends_here and observed.result is not None:
        ended = last.outcome if last is not None and last.is_over else None
        held = (
            None
            if last is None
            else ended is not None
            and (ended.termination.value == observed.result.get("termination"))
        )
        _add(out, where, None, "termination", held)
    return tuple(out)


def _seat_check(seat: int | None, predicted: int | None) -> bool | None:
    return None if seat is None or predicted == _UNSAID else predicted == seat


def _add(
    out: list[bool | None],
    where: list[Where] | None,
    step: int | None,
    kind: str,
    held: bool | None,
) -> None:
    out.append(held)
    if where is not None:
        where.append((step, kind))


def _scoring(rules: Rules, observed: Observed, scoring: bool, where: list[Where] | None) -> Checks:
    """The winner, pips and points the rules make of the table the engine left, under the
    termination the engine gave (its own check is the turns')."""
    out: list[bool | None] = []
    claimed = observed.result
    if claimed is None:
        return ()
    try:
        how = Termination(claimed.get("termination"))
    except ValueError:
        return ()
    final = observed.states[-1] if observed.states else None
    if how is Termination.REDEAL:
        final = TableState.dealt(observed.deal, 0)
    if final is None:
        return ()
    out_seat = next((seat for seat, held in enumerate(final.hands) if not held), None)
    if (how is Termination.DOMINO) != (out_seat is not None):
        return ()
    made = outcome_data(score(rules, hand_at(rules, final).pips(), how, out_seat))
    _add(out, where, None, "winner", made["winner"] == claimed.get("winner"))
    _add(out, where, None, "pips", made["pips"] == claimed.get("pips"))
    if scoring:
        _add(out, where, None, "points", made["points"] == claimed.get("points"))
    return tuple(out)
