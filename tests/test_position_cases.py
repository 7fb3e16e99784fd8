"""Cases that start a hand at a position: the reference takes them in process and over the
protocol, an engine that does not declare positions is not asked them, and one that declares
them and refuses a position the rules hold has one deviation, of the deal."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from conftest import CliResult

from reference_engine.conformance.judging.verdicts import Check, Verdict
from reference_engine.conformance.protocol.interface import (
    EngineInfo,
    EngineRefusal,
    ReferenceEngine,
)
from reference_engine.conformance.protocol.server import answer
from reference_engine.conformance.session.runner import Runner
from reference_engine.conformance.suite.casedata import load_cases
from reference_engine.conformance.suite.selection import select

POSITION = "ends: 6, 3; seat 0: 1-5; seat 1: 4-4 5-5 6-6; boneyard:; to act: 0"


def position_runs() -> list[Any]:
    cases, problems = load_cases()
    assert not problems
    return [
        (case, target)
        for case, target in select(cases)
        if any(hand.position for hand in case.hands)
    ]


def judged(factory: Callable[[], Any]) -> list[Any]:
    runner = Runner(factory, timeout=20)
    try:
        return list(runner.each(position_runs()))
    finally:
        runner.close()


def test_the_reference_passes_the_position_cases_in_process() -> None:
    runs = judged(ReferenceEngine)
    assert len(runs) >= 3 and {run.verdict for run in runs} == {Verdict.PASS}


@pytest.mark.slow
def test_the_reference_passes_the_position_cases_over_the_protocol(
    matador: Callable[..., CliResult],
) -> None:
    done = matador(
        "conform", "--engine", "matador engine", "--case", "positions-*", "--report", "json"
    )
    verdicts = [
        line["verdict"] for line in map(json.loads, done.out.splitlines()) if line["type"] == "case"
    ]
    assert verdicts and set(verdicts) == {"pass"}, done.err


class Undeclared(ReferenceEngine):
    def hello(self) -> EngineInfo:
        return EngineInfo(name="no positions", version="1", variants=None)


class RefusesPositions(ReferenceEngine):
    def new_position(self, position: str) -> None:
        raise EngineRefusal("bad_deal", "positions are beyond me")


def test_an_engine_that_does_not_declare_positions_is_not_asked_them() -> None:
    runs = judged(Undeclared)
    assert {run.verdict for run in runs} == {Verdict.SKIP}
    assert all("takes positions" in run.message for run in runs)


def test_a_position_the_rules_hold_refused_is_one_deviation_of_the_deal() -> None:
    for run in judged(RefusesPositions):
        assert run.verdict is Verdict.FAIL
        (deviation,) = run.deviations
        assert deviation.check is Check.DEAL
        assert "positions are beyond me" in str(deviation.actual)


def ask(requests: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    engine = ReferenceEngine()
    return [answer(engine, json.dumps(request))[0] for request in requests]


def test_the_server_starts_a_hand_at_a_position_and_refuses_a_broken_one() -> None:
    replies = ask(
        [
            {"id": 1, "type": "new_match", "variant": "gamerules-com", "options": {}, "players": 2},
            {"id": 2, "type": "new_hand", "position": POSITION},
            {"id": 3, "type": "legal"},
            {"id": 4, "type": "apply", "action": "1-5@L:5", "player": None},
            {"id": 5, "type": "result"},
            {"id": 6, "type": "new_hand", "position": "ends: 6; seat 0: 1-5; to act: 0"},
            {"id": 7, "type": "new_hand", "position": POSITION.replace("1-5", "1-9")},
            {"id": 8, "type": "new_hand", "position": 7},
        ]
    )
    assert replies[1] == {"id": 2, "type": "ok"}
    assert replies[2]["actions"] == ["1-5@L:5"]
    assert replies[4]["result"]["points"] == [30, 0]
    assert [(r["type"], r.get("code")) for r in replies[5:]] == [
        ("error", "bad_deal"),
        ("error", "bad_deal"),
        ("error", "bad_request"),
    ]
