"""Which of the rules behind a deviation can explain it: those that, with another value, give
the engine's answer and every answer it gave before in the same hand.

A deviation names every rule its check touches: a draw left out at the
boneyard's last tile names both ``reserve`` and ``draw_when``. The engine's
other answers tell them apart. Each candidate rule is given each of its other
values (:func:`altered`), and the hand is played again on the reference, from
its deal, along the case's line: at every earlier step the reference so
changed must answer what the engine answered (the case's expectation where it
held, the engine's own answer where it did not), and at the step of the
deviation it must answer what the engine did. A rule that can do so explains
the deviation; one that cannot is cleared of it. With a draw refused at one
tile left, ``reserve = 1`` explains it and ``draw_when = never`` does not (the
engine let the same seat draw before).

A rule whose values cannot be listed (the matador modes, a rule fixed for every
variant) is never cleared this way. Only the hand in progress is played again,
so what depends on earlier hands of a match is not narrowed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ...engine.actions import Action, AnyAction
from ...engine.deal import Deal
from ...engine.hand import Hand
from ...engine.state import hand_at, parse_position
from ...errors import IllegalActionError, NotationError
from ...rules.kinds import ValueKind
from ...rules.model import PLAYER_COUNT_KEYS, PerPlayers, Rules
from ...rules.parameters import BY_NAME, PARAMETERS
from ..suite.casedata import ScriptedHand, Step
from .verdicts import Check

#: The numbers tried for a player count of a rule given per player count (the tiles
#: kept in the boneyard), besides the rules' own.
PER_PLAYER_TRIES = range(0, 5)


def altered(rules: Rules, rule: str, value: object) -> Rules | None:
    """``rules`` with ``rule`` set to ``value``, and any closed rule that then applies but
    was unset set to its first value (``draws_per_turn: one`` needs ``after_single_draw``);
    None when that changes nothing or an open rule would be left unset."""
    if not rules.applicable(rule) or getattr(rules, rule) == value:
        return None
    change: dict[str, Any] = {rule: value}
    changed = replace(rules, **change)
    for needed in PARAMETERS:
        if changed.applicable(needed.name) and getattr(changed, needed.name) is None:
            if not needed.values:
                return None
            change[needed.name] = needed.values[0]
            changed = replace(rules, **change)
    return changed


def alternatives(rules: Rules, rule: str, players: int) -> Iterator[Rules]:
    """``rules`` with ``rule`` at each of its other values (a number per player count: at
    other numbers for ``players``)."""
    parameter = BY_NAME.get(rule)
    if parameter is None:
        return
    if parameter.kind is ValueKind.PER_PLAYERS:
        current: PerPlayers = getattr(rules, rule)
        own = current.entry(players) if players else None
        for number in PER_PLAYER_TRIES:
            if number != own and players in PLAYER_COUNT_KEYS:
                per = PerPlayers(**{**current.as_dict(), PLAYER_COUNT_KEYS[players]: number})
                change: dict[str, Any] = {rule: per}
                yield replace(rules, **change)
        return
    for value in parameter.values or ():
        changed = altered(rules, rule, value)
        if changed is not None:
            yield changed


#: What the engine answered at one check of a step: (step index, check) -> its answer.
Answers = Mapping[tuple[int, Check], Any]


def _parse(text: str) -> AnyAction | None:
    try:
        return Action.parse(text)
    except NotationError:
        return None


def _legal(hand: Hand) -> set[str]:
    return {str(action) for action in hand.legal_actions()} if not hand.is_over else set()


def _canonical(texts: Sequence[str]) -> set[str] | None:
    found = set()
    for text in texts:
        action = _parse(text)
        if action is None:
            return None
        found.add(str(action))
    return found


def _refusal(hand: Hand, text: str, seat: int | None) -> str | None:
    """The reason ``hand`` refuses ``text`` by ``seat`` (None: it accepts it)."""
    action = _parse(text)
    if action is None:
        return "bad_notation"
    try:
        hand.verify(action, seat)
    except IllegalActionError as error:
        return error.reason.value
    return None


class Replayer:
    """Plays one scripted hand again under changed rules, holding each step to what the engine
    answered there (:meth:`agrees`)."""

    def __init__(self, hand: ScriptedHand, answers: Answers, reasons: bool) -> None:
        self.scripted = hand
        self.answers = answers
        #: Whether the engine gives refusal reasons (else a refusal is only a refusal).
        self.reasons = reasons

    def _answer(self, index: int, check: Check, expected: Any) -> Any:
        return self.answers.get((index, check), expected)

    def hand_at(self, rules: Rules, step: int) -> Hand | None:
        """The hand under ``rules`` just before ``step``, when every earlier step agrees
        with the engine's answers (else None)."""
        try:
            position = self.scripted.position
            if position is not None:
                hand = hand_at(rules, parse_position(position))
            else:
                hand = Hand(rules, Deal.from_data(dict(self.scripted.deal), rules))
        except Exception:  # changed rules that cannot play this deal explain nothing
            return None
        for index, scripted in enumerate(self.scripted.steps[:step]):
            if not self._step_agrees(hand, index, scripted):
                return None
        return hand

    def _step_agrees(self, hand: Hand, index: int, step: Step) -> bool:
        if step.to_act is not None:
            seat = None if hand.is_over else hand.current
            if seat != self._answer(index, Check.TO_ACT, step.to_act):
                return False
        if step.legal is not None:
            answered = self._answer(index, Check.LEGAL, list(step.legal))
            if _legal(hand) != _canonical(answered):
                return False
        if step.act is None or step.error_code is not None:
            return step.ends is None or self._ends_agree(hand, index, step)
        reason = _refusal(hand, step.act, step.as_seat)
        if step.error is not None:
            answered = self._answer(index, Check.REFUSED, step.error)
            if not self._same_refusal(reason, answered):
                return False
            if reason is None:
                return False  # the engine's line went on from another position
            return step.ends is None or self._ends_agree(hand, index, step)
        if reason is not None:
            return False
        action = _parse(step.act)
        assert action is not None
        hand.apply(action, step.as_seat)
        return step.ends is None or self._ends_agree(hand, index, step)

    def _same_refusal(self, reason: str | None, answered: Any) -> bool:
        if answered in (None, "accepted"):
            return reason is None
        if reason is None:
            return False
        return not self.reasons or reason == answered

    def _ends_agree(self, hand: Hand, index: int, step: Step) -> bool:
        assert step.ends is not None
        answered = self._answer(index, Check.ENDS, list(step.ends))
        return [end.notation for end in hand.ends] == list(answered)


def explaining(
    replayer: Replayer,
    rules: Rules,
    players: int,
    step: int,
    candidates: Sequence[str],
    agrees: Callable[[Hand], bool],
) -> tuple[str, ...]:
    """The candidates that, with another value, play the hand to ``step`` as the engine did
    and then answer as ``agrees`` wants; those whose values cannot be listed are kept."""
    found = []
    for rule in candidates:
        parameter = BY_NAME.get(rule)
        per_players = parameter is not None and parameter.kind is ValueKind.PER_PLAYERS
        if parameter is None or (parameter.values is None and not per_players):
            found.append(rule)  # cannot be tried: never cleared
            continue
        for changed in alternatives(rules, rule, players):
            hand = replayer.hand_at(changed, step)
            if hand is not None and agrees(hand):
                found.append(rule)
                break
    return tuple(found)


def narrowed(found: tuple[str, ...], candidates: tuple[str, ...]) -> tuple[str, ...]:
    """``found`` when it singles out some of ``candidates``, else all of them."""
    return found if found and len(found) < len(candidates) else candidates


class Explainer:
    """Narrows the rules of one case run's deviations to those that can explain them."""

    def __init__(
        self,
        hands: Sequence[ScriptedHand],
        rules: Rules,
        players: int,
        reasons: bool,
        skipped: Callable[[int], set[int]],
    ) -> None:
        self.hands = hands
        self.rules = rules
        self.players = players
        self.reasons = reasons
        #: The steps of a hand the case was last played without (see checking.Replay).
        self.skipped = skipped

    def __call__(
        self,
        check: Check,
        named: tuple[str, ...],
        facets: tuple[tuple[str, ...], ...],
        expected: Any,
        actual: Any,
        where: tuple[int, int],
        answers: Answers,
        seat: Callable[[], int | None] | None = None,
    ) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
        """``named`` and ``facets`` narrowed for the deviation of ``check`` at ``where``
        (hand, step), the engine having answered ``answers`` at the hand's earlier steps;
        ``seat`` asks the engine who is to act, where the case does not say."""
        hand_index, step_index = where
        if hand_index >= len(self.hands) or step_index >= len(self.hands[hand_index].steps):
            return named, facets
        scripted = self.hands[hand_index]
        skipped = self.skipped(hand_index)
        kept = ScriptedHand(
            deal=scripted.deal,
            steps=tuple(s for i, s in enumerate(scripted.steps) if i not in skipped),
            result=scripted.result,
        )
        step = scripted.steps[step_index]
        position = step_index - sum(1 for i in skipped if i < step_index)
        shifted = {
            (index - sum(1 for i in skipped if i < index), kind): value
            for (index, kind), value in answers.items()
            if index not in skipped
        }
        replayer = Replayer(kept, shifted, self.reasons)
        to_act = shifted.get((position, Check.TO_ACT), step.to_act)
        if to_act is None and seat is not None:
            to_act = seat()

        def narrow(
            candidates: tuple[str, ...],
            agrees: Callable[[Hand], bool],
            loosely: Callable[[Hand], bool] | None = None,
            changes: Callable[[Hand], bool] | None = None,
        ) -> tuple[str, ...]:
            """The candidates whose other value gives the engine's answer; failing that,
            those that give at least the fact in dispute (``loosely``): a rule the engine
            breaks in a way none of its values describes still decides that fact; failing
            that, those that can change the answer at all (``changes``), the earlier steps
            as the engine played them: a rule no value of which could make a difference here
            is cleared."""
            if len(candidates) < 2:
                return candidates
            for agree in (agrees, loosely, changes):
                if agree is None:
                    continue

                def agreeing(hand: Hand, agree: Callable[[Hand], bool] = agree) -> bool:
                    if to_act is not None and (None if hand.is_over else hand.current) != to_act:
                        return False
                    return agree(hand)

                found = explaining(
                    replayer, self.rules, self.players, position, candidates, agreeing
                )
                if narrowed(found, candidates) != candidates:
                    return found
            return candidates

        if check in (Check.LEGAL, Check.INCLUDES, Check.EXCLUDES) and facets:
            offered = set(actual) if isinstance(actual, list) else set()
            if check is Check.LEGAL:
                disputed = sorted(set(expected) ^ offered)
            else:
                disputed = sorted(expected if check is Check.INCLUDES else actual)
            if len(disputed) != len(facets):
                return named, facets
            # what both offer is offered under any rule that explains the engine's answer
            agreed = set(expected) & offered if check is Check.LEGAL else set()

            def offers_alike(action: str, keep: set[str]) -> Callable[[Hand], bool]:
                def alike(hand: Hand) -> bool:
                    legal = _legal(hand)
                    return (action in legal) == (action in offered) and keep <= legal

                return alike

            reference = _canonical(list(expected)) if check is Check.LEGAL else None

            def offers_otherwise(hand: Hand) -> bool:
                return reference is not None and _legal(hand) != reference

            narrowed_facets = tuple(
                narrow(
                    facet,
                    offers_alike(action, agreed),
                    offers_alike(action, set()),
                    offers_otherwise,
                )
                for facet, action in zip(facets, disputed, strict=True)
            )
            union = tuple(dict.fromkeys(rule for facet in narrowed_facets for rule in facet))
            return union, narrowed_facets
        agrees = self._agrees(check, step, actual)
        if agrees is None:
            return named, facets
        return narrow(named, agrees), facets

    def at_deal(self, hand_index: int, candidates: tuple[str, ...], over: bool) -> tuple[str, ...]:
        """``candidates`` narrowed for a hand the engine deals again (``over``) or plays
        on where the reference does the other: those whose other value does as it did."""
        if hand_index >= len(self.hands) or len(candidates) < 2:
            return candidates
        replayer = Replayer(self.hands[hand_index], {}, self.reasons)

        def dealt_alike(hand: Hand) -> bool:
            return hand.is_over == over

        found = explaining(replayer, self.rules, self.players, 0, candidates, dealt_alike)
        return narrowed(found, candidates)

    def _agrees(self, check: Check, step: Step, actual: Any) -> Callable[[Hand], bool] | None:
        if check is Check.TO_ACT:
            return lambda hand: (None if hand.is_over else hand.current) == actual
        if check in (Check.ACCEPTED, Check.REFUSED) and step.act is not None:
            act, seat = step.act, step.as_seat

            def refused_alike(hand: Hand) -> bool:
                reason = _refusal(hand, act, seat)
                if actual in (None, "accepted"):
                    return reason is None
                return reason is not None and (not self.reasons or reason == actual)

            return refused_alike
        if check is Check.ENDS and step.act is not None:
            act, seat = step.act, step.as_seat

            def same_ends(hand: Hand) -> bool:
                action = _parse(act)
                if action is None or _refusal(hand, act, seat) is not None:
                    return False
                hand.apply(action, seat)
                return bool([end.notation for end in hand.ends] == actual)

            return same_ends
        return None
