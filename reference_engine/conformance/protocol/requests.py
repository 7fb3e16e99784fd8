"""The requests the runner sends an engine program, and those a case makes when it goes as scripted.

One function per request a case makes gives its fields as spec/protocol.md
writes them; :class:`~.process.ProcessEngine` sends what they build, so what a
case plans and what is sent are built in one place (``hello`` and ``quit``,
which no case makes, the driver writes itself). :func:`case_requests` lists, in order, what
:func:`~.expectations.play_case` asks while every answer is the one the case
expects: the runner gives that list to a program's driver, which writes each
request that changes nothing together with the one before it
(:meth:`~.process.ProcessEngine.plan`), saving a round trip per request. When
an answer sends the case another way, the driver drops the rest of the list.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..suite.casedata import Case, Step, Target

#: A request: its type and its other fields (the driver adds the id).
Request = tuple[str, Mapping[str, Any]]

#: The request types that change what the engine holds; every other one only asks.
CHANGES = frozenset({"new_match", "new_hand", "apply", "quit"})


def new_match(variant: str, options: Mapping[str, str], players: int) -> Request:
    """``new_match``: a match of ``variant`` under ``options`` for ``players`` seats."""
    return "new_match", {"variant": variant, "options": dict(options), "players": players}


def new_hand(deal: Mapping[str, Any]) -> Request:
    """``new_hand``: the next hand of the match, dealt as ``deal``."""
    return "new_hand", {"deal": dict(deal)}


def new_position(position: str) -> Request:
    """``new_hand`` at a position (spec/notation.md), for an engine that takes positions."""
    return "new_hand", {"position": position}


def apply(action: str, player: int | None) -> Request:
    """``apply``: ``action`` by the seat to act, or as ``player`` when given."""
    return "apply", {"action": action, "player": player}


def held(seat: int) -> Request:
    """``held``: the tiles ``seat`` holds (an optional request, see spec/protocol.md)."""
    return "held", {"seat": seat}


def query(kind: str) -> Request:
    """A request with no fields: ``legal``, ``ends``, ``to_act``, ``result``, ``match``."""
    return kind, {}


def case_requests(case: Case, target: Target) -> list[Request]:
    """What playing ``case`` under ``target`` asks of an engine when all goes as scripted.

    In :func:`~.expectations.play_case`'s order: the match, then per hand its
    deal and the check that it has no result yet, each step's requests
    (:func:`step_requests`) and the end-of-hand checks, then the match totals.
    A deal the engine must refuse is one request; the hand after it starts anew.
    """
    requests = [new_match(target.variant, target.options, case.players)]
    for hand in case.hands:
        if hand.position is not None:
            requests.append(new_position(hand.position))
            for step in hand.steps:
                requests.extend(step_requests(step))
            if hand.result is not None:
                requests += [query("to_act"), query("result")]
            continue
        requests.append(new_hand(hand.deal))
        if hand.refuse_deal:
            continue
        requests.append(query("result"))
        for step in hand.steps:
            requests.extend(step_requests(step))
        if hand.result is not None:
            requests += [query("to_act"), query("result")]
    if case.match is not None:
        requests.append(query("match"))
    return requests


def step_requests(step: Step) -> list[Request]:
    """The requests one scripted step makes: who acts, the legal actions, the act, the ends."""
    requests = []
    if step.to_act is not None:
        requests.append(query("to_act"))
    if step.legal is not None or step.includes or step.excludes:
        requests.append(query("legal"))
    if step.request is not None:
        requests.append(query(step.request))
    elif step.act is not None:
        requests.append(apply(step.act, step.as_seat))
    if step.ends is not None:
        requests.append(query("ends"))
    return requests
