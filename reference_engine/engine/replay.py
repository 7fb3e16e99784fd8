"""Replaying a game record to settle a dispute: every problem in it, in record order.

:func:`replay` checks a record's shape (:mod:`.recordcheck`), its variant,
options, players and deals, then replays its hands with the engine, which
decides who opens, whose turn it is and what is legal, and compares the
results the record gives with the ones the rules make. What it finds is
reported as :mod:`.findings`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..errors import DealError, IllegalActionError, NotationError, Reason
from ..rules import Catalog, Rules, RulesError
from ..rules.kinds import Decides
from ..rules.parameters import deciding
from .actions import DRAW, Action, AnyAction, Play
from .deal import DESIGNATED_RULE, Deal, deal_problems, lot_is_drawn
from .findings import Finding, FindingKind, ReplayReport, json_pointer
from .hand import Hand, Phase
from .lot import read_lot
from .match import Match
from .recordcheck import schema_findings
from .recordformat import outcome_data


def replay(record: Any, catalog: Catalog | None = None) -> ReplayReport:
    """Check ``record`` fully against its variant; report every problem, in record order.

    First the record's shape (spec/record.schema.json); a record that breaks it
    is not read further. Then the variant and its options, the number of
    players, and every deal on its own (seats, hand sizes, tiles, designated
    seat). Then the hands are replayed in order with the engine, which decides
    who opens, whose turn it is and what is legal, up to the first hand that
    cannot be replayed (a bad deal, a refused action, actions that stop short);
    results are compared on the way, and the match totals at the end when every
    hand was replayed.
    """
    report = ReplayReport()
    for finding in schema_findings(record):
        report.add(finding)
    if not report.ok:
        return report
    catalog = catalog or Catalog.shipped()
    rules = _resolve(record, catalog, report)
    if rules is None:
        return report
    players = record["players"]
    if players not in rules.players:
        allowed = ", ".join(map(str, rules.players))
        report.add(
            Finding(
                kind=FindingKind.BAD_PLAYERS,
                message=f"{rules.variant} is played by {allowed} players, not {players}",
                pointer="/players",
                **_rule(rules, "players"),
            )
        )
        return report
    match = Match(rules, players)
    report.match = match
    hands = record["hands"]
    replaying = True
    for index, raw in enumerate(hands):
        problems = deal_problems(raw["deal"], rules, players)
        for problem in problems:
            report.add(
                Finding(
                    kind=FindingKind.BAD_DEAL,
                    message=problem.message,
                    pointer=json_pointer(("hands", index, "deal", *problem.path)),
                    hand=index,
                    **_rule(rules, problem.rule),
                )
            )
        for finding in _lot_findings(rules, players, raw, index):
            report.add(finding)
        if raw.get("dealer", 0) >= players:
            report.add(
                Finding(
                    kind=FindingKind.BAD_DEAL,
                    message=f"the dealer is seat {raw['dealer']}, and {players} players have "
                    f"seats 0 to {players - 1}",
                    pointer=json_pointer(("hands", index, "dealer")),
                    hand=index,
                    **_rule(rules, "players"),
                )
            )
        last = index == len(hands) - 1
        if problems:
            replaying = False
        elif replaying:
            replaying = _replay_hand(match, raw, index, last, report)
        else:  # the match cannot be followed: each later hand is still judged on its own
            _judge_alone(rules, raw, index, last, report)
    if replaying and "match" in record:
        actual = {"scores": match.scores, "hands_won": match.hands_won, "winner": match.winner}
        for key, claimed, value in _mismatches(record["match"], actual):
            report.add(
                Finding(
                    kind=FindingKind.WRONG_MATCH_RESULT,
                    message=f"the record says {key} {claimed}, the rules give {value}",
                    pointer=json_pointer(("match", key)),
                    **_rule(rules, _MATCH_RULES.get(key)),
                )
            )
    return report


#: The rules a finding names, as the registry says what each decides: the pips counted,
#: the points scored, the match's end, a hand nobody could open, who opens, and the
#: opener's second tile.
_PIPS, _POINTS, _MATCH_END = (
    deciding(what)[0] for what in (Decides.PIPS, Decides.POINTS, Decides.MATCH_WINNER)
)
_NO_DOUBLE, _WHO_OPENS, _SECOND_TILE = (
    deciding(what)[0] for what in (Decides.NO_DOUBLE, Decides.OPENING_SEAT, Decides.FORCED_TURN)
)
#: The rule that decides each part of a hand's result and of the match totals.
_RESULT_RULES = {"pips": _PIPS, "points": _POINTS}
_MATCH_RULES = {"scores": _POINTS, "winner": _MATCH_END}


def _rule(rules: Rules, rule: str | None) -> dict[str, Any]:
    """``rule`` and its citations, as :class:`Finding` fields."""
    provenance = rules.provenance.get(rule) if rule else None
    return {"rule": rule, "citations": provenance.cite if provenance else ()}


def _resolve(record: dict[str, Any], catalog: Catalog, report: ReplayReport) -> Rules | None:
    """The rules the record names; else None, with a finding at the variant or each bad option."""
    variant, options = record["variant"], record["options"]
    try:
        plain = catalog.resolve(variant)
    except RulesError as error:
        report.add(
            Finding(kind=FindingKind.BAD_VARIANT, message=_problems(error), pointer="/variant")
        )
        return None
    offered = {option.name: option for option in plain.options}
    for name, value in options.items():
        option = offered.get(name)
        if option is None:
            known = ", ".join(offered) or "none"
            message = f"{variant} has no option {name!r} (its options: {known})"
        elif value not in {choice.name for choice in option.values}:
            known = ", ".join(choice.name for choice in option.values)
            message = f"option {name} of {variant} has no value {value!r} (its values: {known})"
        else:
            continue
        report.add(
            Finding(
                kind=FindingKind.BAD_VARIANT,
                message=message,
                pointer=json_pointer(("options", name)),
            )
        )
    if not report.ok:
        return None
    try:
        return catalog.resolve(variant, options)
    except RulesError as error:
        report.add(
            Finding(kind=FindingKind.BAD_VARIANT, message=_problems(error), pointer="/options")
        )
        return None


def _problems(error: RulesError) -> str:
    return "; ".join(
        problem.message + (f" ({problem.fix})" if problem.fix else "") for problem in error.problems
    )


def _lot_findings(rules: Rules, players: int, raw: Mapping[str, Any], index: int) -> list[Finding]:
    """Every way a hand's lot breaks the lot by drawing, where the rules make it so (SPEC 6.2);
    a lot kept under other rules is not judged."""
    if "lot" not in raw or not lot_is_drawn(rules):
        return []
    here = ("hands", index, "lot")
    seat, problems = read_lot(raw["lot"], players, rules.max_pip)
    found = [
        Finding(
            kind=FindingKind.BAD_LOT,
            message=problem.message,
            pointer=json_pointer((*here, *problem.path)),
            hand=index,
            **_rule(rules, DESIGNATED_RULE),
        )
        for problem in problems
    ]
    designated = raw["deal"].get("designated")
    if seat is not None and seat != designated:
        found.append(
            Finding(
                kind=FindingKind.BAD_LOT,
                message=f"the lot names seat {seat}, the deal seat {designated}",
                pointer=json_pointer(here),
                hand=index,
                **_rule(rules, DESIGNATED_RULE),
            )
        )
    return found


def _judge_alone(
    rules: Rules, raw: dict[str, Any], index: int, last: bool, report: ReplayReport
) -> None:
    """A hand after one the match could not follow, judged on its own under ``rules``: its
    actions and its result, not what the match decides (who is designated, whether the
    match was over)."""
    try:
        alone = Hand(rules, Deal.from_data(raw["deal"], rules))
    except (DealError, ValueError):  # (a designated seat only the match can give)
        return
    _play_hand(alone, raw, index, last, report, followed=False)


def _replay_hand(
    match: Match, raw: dict[str, Any], index: int, last: bool, report: ReplayReport
) -> bool:
    """Replay one hand of the record; whether the match can be followed past it."""
    rules = match.rules
    here = ("hands", index)
    if match.is_over:
        report.add(
            Finding(
                kind=FindingKind.MATCH_OVER,
                message=f"the match was over before this hand: side {match.winner} had reached "
                f"the target of {rules.target.value} {rules.target.unit}",
                pointer=json_pointer(here),
                hand=index,
                **_rule(rules, _MATCH_END),
            )
        )
        return False
    expected = match.expected_designated()
    designated = raw["deal"].get("designated")
    if expected is not None and designated != expected:
        report.add(
            Finding(
                kind=FindingKind.BAD_DEAL,
                message=f"the rules make seat {expected} the designated opener of this hand, "
                f"but the deal names seat {designated}",
                pointer=json_pointer((*here, "deal", "designated")),
                hand=index,
                **_rule(rules, DESIGNATED_RULE),
            )
        )
        return False
    try:
        hand = match.new_hand(Deal.from_data(raw["deal"], rules))
    except (DealError, ValueError) as error:  # every cause is checked above: a safety net
        report.add(
            Finding(
                kind=FindingKind.BAD_DEAL,
                message=str(error),
                pointer=json_pointer((*here, "deal")),
                hand=index,
            )
        )
        return False
    if not _play_hand(hand, raw, index, last, report):
        return False
    if hand.outcome is not None:
        match.close_hand()
    return True


def _play_hand(
    hand: Hand,
    raw: dict[str, Any],
    index: int,
    last: bool,
    report: ReplayReport,
    followed: bool = True,
) -> bool:
    """The record's actions applied to ``hand``, and its result compared; whether the
    hand was followed to its end (or is the last, in progress). A hand judged on its
    own (not ``followed`` within the match) adds its problems only: its hands, actions
    and outcome are not counted as the match's."""
    rules = hand.rules
    here = ("hands", index)
    report.hands += followed
    for number, text in enumerate(raw["actions"]):
        try:
            action = Action.parse(text)
            hand.apply(action)
        except NotationError as error:
            report.add(
                Finding(
                    kind=FindingKind.BAD_NOTATION,
                    message=str(error),
                    pointer=json_pointer((*here, "actions", number)),
                    hand=index,
                    action=number,
                )
            )
            return False
        except IllegalActionError as error:
            report.add(_illegal(hand, action, error, index, number))
            return False
        report.actions += followed
    outcome = hand.outcome
    if outcome is None:
        if "result" in raw:
            report.add(
                Finding(
                    kind=FindingKind.UNFINISHED_HAND,
                    message="the record gives a result, but the actions stop before the hand ends",
                    pointer=json_pointer((*here, "result")),
                    hand=index,
                )
            )
            return False
        if not last:
            report.add(
                Finding(
                    kind=FindingKind.UNFINISHED_HAND,
                    message="the actions stop before the hand ends, and another hand follows",
                    pointer=json_pointer((*here, "actions")),
                    hand=index,
                )
            )
            return False
        return True  # a record of a match in progress
    if followed:
        report.outcomes.append(outcome)
    if "result" in raw:
        for key, claimed, value in _mismatches(raw["result"], outcome_data(outcome)):
            report.add(
                Finding(
                    kind=FindingKind.WRONG_RESULT,
                    message=f"the record says {key} {claimed}, the rules give {value}",
                    pointer=json_pointer((*here, "result", key)),
                    hand=index,
                    **_rule(rules, _RESULT_RULES.get(key)),
                )
            )
    return True


def _illegal(
    hand: Hand, action: AnyAction, error: IllegalActionError, index: int, number: int
) -> Finding:
    """The finding for a refused action; a tile another seat holds is a wrong opener or turn.

    A record does not say who acts: the engine's turn order does. A tile that
    is in another seat's hand was put down by the wrong seat, so the refusal
    names the rule that fixes who opens (or whether the opener plays again).
    """
    reason, rule, detail = error.reason, error.rule, error.detail
    # The rule and its sources are the refusal's own, unless the wrong seat acted.
    cited: dict[str, Any] = {"rule": rule, "citations": error.citations}
    seat = hand.current
    message = f"{action} by seat {seat}: {detail}"
    holder = _holder(hand, action) if reason is Reason.TILE_NOT_IN_HAND else None
    if holder is not None and holder != seat:
        assert isinstance(action, Play)
        if hand.phase is Phase.OPENING:
            legal = hand.legal_actions()
            reason = Reason.WRONG_OPENING
            rule = _NO_DOUBLE if DRAW in legal else _WHO_OPENS
            allowed = ", ".join(map(str, legal))
            detail = (
                f"seat {holder} holds {action.tile}, but the rules make seat {seat} "
                f"open this hand (with: {allowed})"
            )
        else:
            reason = Reason.NOT_YOUR_TURN
            opened = bool(hand.history) and _is_opening(hand.history[-1])
            rule = _SECOND_TILE if opened else None
            detail = f"seat {holder} holds {action.tile}, but it is seat {seat}'s turn"
        message = f"{action}: {detail}"
        cited = _rule(hand.rules, rule)
    return Finding(
        kind=FindingKind.ILLEGAL_ACTION,
        message=message,
        pointer=json_pointer(("hands", index, "actions", number)),
        hand=index,
        action=number,
        reason=reason.value,
        **cited,
    )


def _holder(hand: Hand, action: AnyAction) -> int | None:
    """The seat holding the tile ``action`` plays, if a seat does."""
    if not isinstance(action, Play):
        return None
    for seat in range(hand.players):
        if action.tile in hand.hand_of(seat):
            return seat
    return None


def _is_opening(action: AnyAction) -> bool:
    return isinstance(action, Play) and action.end is None


def _mismatches(
    claimed: Mapping[str, Any], actual: Mapping[str, Any]
) -> list[tuple[str, str, str]]:
    """Each key whose claimed value differs from the actual one, with both written as JSON."""
    return [
        (key, json.dumps(value), json.dumps(actual.get(key)))
        for key, value in claimed.items()
        if actual.get(key) != value
    ]
