"""The runner's own work overlapped with an engine program's answer, and strict JSON read fast.

While a program answers, the runner works out the rules behind the check it
is about to make (:mod:`reference_engine.conformance.transport.ahead`). These tests hold
that to judging exactly as before: the same work, once, at the same position;
an engine that is judged in-process (where nothing overlaps) and the same
engine judged over the protocol get the same verdicts, deviations and rules.
The strict JSON reader made once for every line must say what ``json.loads``
says of the same text.
"""

from __future__ import annotations

import json
import sys
import time
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from reference_engine import strictjson
from reference_engine.conformance.judging import attribution
from reference_engine.conformance.judging.attribution import Position
from reference_engine.conformance.judging.verdicts import CaseRun, Check, Verdict
from reference_engine.conformance.protocol.interface import EngineRefusal, ReferenceEngine
from reference_engine.conformance.session.runner import Runner, select
from reference_engine.conformance.suite.casedata import Case, load_cases
from reference_engine.conformance.transport.ahead import Ahead
from reference_engine.conformance.transport.process import ProcessEngine
from reference_engine.engine.deal import Deal
from reference_engine.engine.hand import Phase
from reference_engine.engine.match import Match
from reference_engine.errors import DealError, IllegalActionError
from reference_engine.rules import Catalog

TESTS = Path(__file__).resolve().parent
ENGINE_COMMAND = f"{sys.executable} -m reference_engine.cli engine"


class Perturbed(ReferenceEngine):
    """The reference, wrong now and then, by the position: a legal action left out, a
    seat to act changed, a legal action refused, ends given in another order, points
    off by one. What it answers depends on the position only, not on how often it was
    asked: a program's driver may ask it a question more after a case stops early
    (the requests it wrote ahead), and the verdicts must not depend on that."""

    def _at(self) -> int:
        """How many actions the hand in play has seen (and which hand of the match it is)."""
        hand, match = self._hand, self._match
        if hand is None or match is None:
            return 0
        return len(hand.history) + 3 * sum(match.hands_won)

    def legal(self) -> list[str]:
        actions = super().legal()
        return actions[1:] if self._at() % 5 == 4 else actions

    def to_act(self) -> int | None:
        seat = super().to_act()
        if seat is not None and self._at() % 7 == 3:
            return seat + 1
        return seat

    def apply(self, action: str, player: int | None) -> str | None:
        if self._at() % 11 == 10:
            return "not_your_turn"
        return super().apply(action, player)

    def ends(self) -> list[str]:
        ends = super().ends()
        return ends[::-1] if self._at() % 2 else ends

    def result(self) -> Any:
        result = super().result()
        if result is None or self._at() % 2:
            return result
        return {**result, "points": [points + 1 for points in result["points"]]}


#: ``Perturbed`` as a program speaking the protocol.
PERTURBED_COMMAND = (
    f'{sys.executable} -c "import sys; sys.path.insert(0, {str(TESTS)!r}); '
    "from test_overlapped_judging import Perturbed; "
    "from reference_engine.conformance.protocol.server import serve; "
    'serve(sys.stdin, sys.stdout, Perturbed())"'
)


@cache
def some_cases() -> tuple[Case, ...]:
    """The cases of three files: opening, drawing and passing, matadors, results and matches."""
    cases, problems = load_cases()
    assert problems == []
    wanted = {"dutch.yaml", "survey-opening.yaml", "gamerules-com.yaml"}
    return tuple(case for case in cases if Path(case.file).name in wanted)


def judged(engine: Any) -> list[CaseRun]:
    runner = Runner(engine, timeout=20, start_timeout=20)
    try:
        return [runner.run_case(case, target) for case, target in select(list(some_cases()))]
    finally:
        runner.close()


def what_was_said(run: CaseRun) -> tuple[Any, ...]:
    """Everything a report says of a run, but how long it took."""
    deviations = [
        (d.check, d.message, d.expected, d.actual, d.rules, d.hand, d.step, d.history, d.position)
        for d in run.deviations
    ]
    held, failed = sorted(run.held.items()), sorted(run.failed.items())
    return (run.case, run.target, run.verdict, run.message, run.failure, deviations, held, failed)


def test_a_wrong_engine_is_judged_alike_in_process_and_over_the_protocol() -> None:
    in_process = judged(Perturbed)
    program = judged(lambda: ProcessEngine(PERTURBED_COMMAND, timeout=20, start_timeout=20))
    assert [what_was_said(run) for run in program] == [what_was_said(run) for run in in_process]
    # the engine is wrong in every way it was made to be, so the comparison has teeth
    checks = {deviation.check for run in in_process for deviation in run.deviations}
    assert {Check.LEGAL, Check.TO_ACT, Check.ACCEPTED, Check.ENDS, Check.RESULT} <= checks
    assert all(deviation.rules for run in in_process for deviation in run.deviations)
    assert any(run.verdict is Verdict.PASS for run in in_process)


# ------------------------------------------------------------------ work done while it answers


def recorded(done: list[str]) -> Any:
    """Work that notes each time it is done, and gives the rules it found."""

    def work() -> str:
        done.append("work")
        return "rules"

    return work


@pytest.fixture
def program() -> Any:
    engine = ProcessEngine(ENGINE_COMMAND, timeout=20, start_timeout=20)
    yield engine
    engine.close()


def test_work_is_done_during_the_next_request_once_and_not_again(program: ProcessEngine) -> None:
    done: list[str] = []
    ahead = Ahead(program, recorded(done))
    program.hello()
    assert done == ["work"]  # done before the reply came back
    assert ahead() == "rules"
    assert ahead() == "rules"
    assert done == ["work"]
    program.new_match("dutch", {}, 2)  # a later request does no work of its own
    assert done == ["work"]


def test_work_for_an_engine_in_process_is_done_when_asked_for() -> None:
    engine = ReferenceEngine()
    done: list[str] = []
    ahead = Ahead(engine, recorded(done))
    engine.hello()
    assert done == []
    assert ahead() == "rules"
    assert ahead() == "rules"
    assert done == ["work"]


def test_work_that_fails_raises_where_it_is_asked_for_and_the_session_goes_on(
    program: ProcessEngine,
) -> None:
    calls: list[int] = []

    def fails() -> str:
        calls.append(1)
        raise ValueError("no rules here")

    ahead = Ahead(program, fails)
    info = program.hello()
    assert info.protocol == "matador-engine/1"
    with pytest.raises(ValueError, match="no rules here"):
        ahead()
    with pytest.raises(ValueError, match="no rules here"):
        ahead()
    assert calls == [1]  # done once: raised again, not done again
    program.new_match("dutch", {}, 2)  # the reply to hello was read: ids still agree
    with pytest.raises(EngineRefusal):
        program.legal()  # no hand dealt: refused, which is an answer in order


@pytest.mark.slow
def test_the_runners_work_does_not_count_against_the_engines_deadline() -> None:
    engine = ProcessEngine(ENGINE_COMMAND, timeout=0.5, start_timeout=20)
    try:
        engine.hello()
        Ahead(engine, lambda: time.sleep(1.0))  # longer than the engine's deadline
        engine.new_match("dutch", {}, 2)  # the engine answered in time: no failure
        assert engine.match_state()["scores"] == [0, 0]  # and the session goes on
    finally:
        engine.close()


# ------------------------------------------------------------- the rules remembered at a position


def test_rules_remembered_at_a_position_are_those_worked_out_afresh() -> None:
    """At every position of the chosen cases' lines, each legal action, the scripted act,
    a draw, a pass and a play no hand holds get the same rules from one shared memo
    (asked in the order a step asks: the legal set, the ends, the act) as each alone."""
    catalog = Catalog.shipped()
    positions = opening_positions = 0
    for case, target in select(list(some_cases())):
        rules = catalog.resolve(target.variant, target.options)
        match = Match(rules, case.players)
        for scripted in case.hands:
            if scripted.refuse_deal:
                continue
            try:
                hand = match.new_hand(Deal.from_data(dict(scripted.deal), rules))
            except DealError:
                break
            for step in scripted.steps:
                position = Position(rules, hand)
                texts = [str(action) for action in hand.legal_actions()]
                asked = [*texts, *([step.act] if step.act else []), "draw", "pass", "6-6@R:9"]
                known: attribution.Known = {}
                assert attribution.legal_rules(position, texts, known) == (
                    attribution.legal_rules(position, texts)
                )
                for text in asked:
                    alone = attribution.action_rules(position, text)
                    assert attribution.action_rules(position, text, known) == alone
                    assert attribution.ends_rules(position, text, known) == (
                        attribution.ends_rules(position, text)
                    )
                positions += 1
                opening_positions += hand.phase is Phase.OPENING
                if step.act is None or step.error is not None:
                    continue
                try:
                    hand.apply(attribution.parse_action(step.act), step.as_seat)
                except IllegalActionError:
                    break
            if hand.is_over:
                match.close_hand()
    assert positions > 100
    assert opening_positions > 10


# ------------------------------------------------------------------------- strict JSON, fast


READER = strictjson.decoder()


def old_reading(text: str) -> Any:
    return json.loads(
        text, parse_constant=strictjson.no_constants, object_pairs_hook=strictjson.unique_keys
    )


@pytest.mark.parametrize(
    "text",
    [
        '{"id": 3, "type": "legal", "actions": ["6-6", "draw"]}',
        '{"a": {"b": [1, 2.5, null, true]}, "c": "\\u00e9"}',
        "[]",
        "7",
    ],
)
def test_the_reader_made_once_reads_what_json_loads_reads(text: str) -> None:
    assert strictjson.loads(text, READER) == old_reading(text)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('\ufeff{"id": 1}', "Unexpected UTF-8 BOM (decode using utf-8-sig)"),
        ('{"id": 1, "a": 1, "b": 2, "b": 3, "a": 4}', "the key 'b' is given twice in one object"),
        ('{"x": {"k": 1, "k": 1}}', "the key 'k' is given twice in one object"),
        ('{"points": NaN}', "NaN is not JSON"),
        ('{"points": [-Infinity]}', "-Infinity is not JSON"),
        ('{"id": 1', "Expecting ',' delimiter"),
        ("", "Expecting value: line 1 column 1 (char 0)"),
    ],
)
def test_the_reader_made_once_refuses_what_it_refused_with_the_same_words(
    text: str, says: str
) -> None:
    with pytest.raises(ValueError) as made_once:
        strictjson.loads(text, READER)
    with pytest.raises(ValueError) as made_each_time:
        old_reading(text)
    assert says in str(made_once.value)
    assert str(made_once.value) == str(made_each_time.value)
    assert type(made_once.value) is type(made_each_time.value)
