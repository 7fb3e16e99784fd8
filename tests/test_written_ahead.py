"""Requests written ahead: an engine program is asked what it would be asked one at a time.

While a case goes as scripted, the runner writes each request that changes
nothing together with the request before it (:mod:`reference_engine.conformance.protocol.requests`,
:meth:`~reference_engine.conformance.transport.process.ProcessEngine.plan`), and reads
the replies one at a time. These tests hold that to the one-at-a-time runner:
the engine gets the same requests in the same order; a round trip is saved for
every request that changes nothing; when a case stops early, the replies to
what was written and not asked for are read and dropped, and an engine that
fails on one of them fails the case in progress, not the next.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import signal
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from reference_engine.cli import run
from reference_engine.conformance.judging.verdicts import Verdict
from reference_engine.conformance.protocol import requests
from reference_engine.conformance.protocol.interface import (
    EngineRefusal,
    FailureKind,
    ReferenceEngine,
)
from reference_engine.conformance.protocol.requests import CHANGES, Request, case_requests
from reference_engine.conformance.reports.runreport import failure_text
from reference_engine.conformance.session.runner import Runner, select
from reference_engine.conformance.suite.casedata import Case, Target, load_cases
from reference_engine.conformance.transport.process import ProcessEngine
from reference_engine.exits import ExitStatus

TESTS = Path(__file__).resolve().parent


def program(engine_class: str, *arguments: str) -> str:
    """The command of an engine program serving ``engine_class`` of this module."""
    given = ", ".join(repr(argument) for argument in arguments)
    return (
        f'{sys.executable} -c "import sys; sys.path.insert(0, {str(TESTS)!r}); '
        f"from test_written_ahead import {engine_class}; "
        "from reference_engine.conformance.protocol.server import serve; "
        f'serve(sys.stdin, sys.stdout, {engine_class}({given}))"'
    )


class Logged(ReferenceEngine):
    """The reference engine, noting every request it is asked in a file, one JSON line each."""

    def __init__(self, log: str) -> None:
        super().__init__()
        self.log = open(log, "a", encoding="utf-8")  # noqa: SIM115 - closed by close()

    def note(self, request: Request) -> None:
        self.log.write(json.dumps(list(request), sort_keys=True) + "\n")
        self.log.flush()

    def new_match(self, variant: str, options: Mapping[str, str], players: int) -> None:
        self.note(requests.new_match(variant, options, players))
        super().new_match(variant, options, players)

    def new_hand(self, deal: Mapping[str, Any]) -> None:
        self.note(requests.new_hand(deal))
        super().new_hand(deal)

    def apply(self, action: str, player: int | None) -> str | None:
        self.note(requests.apply(action, player))
        return super().apply(action, player)

    def legal(self) -> list[str]:
        self.note(requests.query("legal"))
        return super().legal()

    def ends(self) -> list[str]:
        self.note(requests.query("ends"))
        return super().ends()

    def to_act(self) -> int | None:
        self.note(requests.query("to_act"))
        return super().to_act()

    def result(self) -> Any:
        self.note(requests.query("result"))
        return super().result()

    def match_state(self) -> Mapping[str, Any]:
        self.note(requests.query("match"))
        return super().match_state()

    def close(self) -> None:
        self.log.close()
        super().close()


class CrashesWhenAskedAfterARefusal(ReferenceEngine):
    """Refuses the second action of a hand, and exits when asked anything but a new match
    after that: what the runner wrote ahead of the refusal and never asks for."""

    def __init__(self) -> None:
        super().__init__()
        self.refused = False

    def new_match(self, variant: str, options: Mapping[str, str], players: int) -> None:
        self.refused = False
        super().new_match(variant, options, players)

    def apply(self, action: str, player: int | None) -> str | None:
        hand = self._hand
        if hand is not None and len(hand.history) == 1:
            self.refused = True
            return "not_your_turn"
        return super().apply(action, player)

    def ends(self) -> list[str]:
        if self.refused:
            os._exit(3)
        return super().ends()

    def to_act(self) -> int | None:
        if self.refused:
            os._exit(3)
        return super().to_act()

    def legal(self) -> list[str]:
        if self.refused:
            os._exit(3)
        return super().legal()


def read_log(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def some_runs() -> list[tuple[Case, Target]]:
    """The cases of five files under each of their variants: openings, draws, refused
    deals, matches."""
    cases, problems = load_cases()
    assert problems == []
    wanted = {
        "dutch.yaml",
        "survey-opening.yaml",
        "gamerules-com.yaml",
        "deals.yaml",
        "scoring.yaml",
    }
    return select([case for case in cases if Path(case.file).name in wanted])


@pytest.fixture(scope="module")
def runs() -> list[tuple[Case, Target]]:
    return some_runs()


def judge(factory: Any, runs: list[tuple[Case, Target]]) -> Iterator[Any]:
    runner = Runner(factory, timeout=20, start_timeout=20)
    try:
        for case, target in runs:
            yield runner.run_case(case, target)
    finally:
        runner.close()


def test_a_program_is_asked_what_an_engine_in_process_is_asked(
    tmp_path: Path, runs: list[tuple[Case, Target]]
) -> None:
    in_process_log, program_log = tmp_path / "in-process.jsonl", tmp_path / "program.jsonl"
    engines: list[ProcessEngine] = []

    def started() -> ProcessEngine:
        engines.append(ProcessEngine(program("Logged", str(program_log)), timeout=20))
        return engines[-1]

    in_process = list(judge(lambda: Logged(str(in_process_log)), runs))
    over_the_protocol = list(judge(started, runs))
    assert all(run.verdict is Verdict.PASS for run in in_process + over_the_protocol)
    asked = read_log(in_process_log)
    assert len(asked) > 500
    assert read_log(program_log) == asked
    assert len(engines) == 1 and engines[0].dropped == 0


def test_each_request_that_changes_nothing_saves_a_round_trip(
    runs: list[tuple[Case, Target]],
) -> None:
    engine = ProcessEngine(program("ReferenceEngine"), timeout=20)
    writes: list[bytes] = []
    write = engine._write

    def counted(data: bytes, *rest: Any) -> None:
        writes.append(data)
        write(data, *rest)

    engine._write = counted  # type: ignore[method-assign,assignment]
    assert all(run.verdict is Verdict.PASS for run in judge(lambda: engine, runs))
    planned = [request for case, target in runs for request in case_requests(case, target)]
    changes = sum(kind in CHANGES for kind, _ in planned)
    # hello, then one write per request that changes the game, then quit
    assert len(writes) == 1 + changes + 1
    assert sum(data.count(b"\n") for data in writes) == 1 + len(planned) + 1
    assert len(planned) > 2 * changes


def test_replies_written_ahead_of_a_stop_are_dropped_and_the_next_case_is_judged_alike(
    runs: list[tuple[Case, Target]],
) -> None:
    from test_overlapped_judging import PERTURBED_COMMAND, Perturbed, what_was_said

    engines: list[ProcessEngine] = []

    def started() -> ProcessEngine:
        engines.append(ProcessEngine(PERTURBED_COMMAND, timeout=20))
        return engines[-1]

    program_runs = [what_was_said(run) for run in judge(started, runs)]
    assert program_runs == [what_was_said(run) for run in judge(Perturbed, runs)]
    assert sum(engine.dropped for engine in engines) > 0


def asked_after_the_second_action(case: Case, target: Target) -> int:
    """How many requests the runner writes after the first hand's second action, with it."""
    planned = case_requests(case, target)
    applies = [index for index, (kind, _) in enumerate(planned) if kind == "apply"]
    if len(applies) < 2:
        return 0
    after = 0
    for kind, _ in planned[applies[1] + 1 :]:
        if kind in CHANGES:
            break
        after += 1
    return after


def test_an_engine_that_fails_on_a_request_written_ahead_fails_the_case_in_progress(
    runs: list[tuple[Case, Target]],
) -> None:
    stops = next(run for run in runs if asked_after_the_second_action(*run) > 0)
    plays_once = next(
        (case, target)
        for case, target in runs
        if sum(kind == "apply" for kind, _ in case_requests(case, target)) == 1
    )
    first, second = judge(
        lambda: ProcessEngine(program("CrashesWhenAskedAfterARefusal"), timeout=20),
        [stops, plays_once],
    )
    assert first.verdict is Verdict.ERROR
    assert first.failure is FailureKind.EXITED
    assert first.deviations  # the refusal that stopped it is kept, and told
    told = failure_text(first)
    assert "before that, expectations did not hold" in told and "was refused" in told
    assert second.verdict is Verdict.PASS  # a fresh engine


# ------------------------------------------------------------------ the server's side


def test_the_server_answers_each_request_once_it_is_whole_however_requests_are_cut() -> None:
    """Whole requests in one write (blank lines among them), a request cut across writes,
    a line over the limit in pieces: every reply comes as soon as its request is whole."""
    import select
    import subprocess

    from reference_engine.conformance.protocol.server import MAX_LINE_BYTES

    server = subprocess.Popen(
        [sys.executable, "-m", "reference_engine.cli", "engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert server.stdin is not None and server.stdout is not None
    received = bytearray()

    def send(data: bytes) -> None:
        server.stdin.write(data)  # type: ignore[union-attr]
        server.stdin.flush()  # type: ignore[union-attr]

    def answers(count: int) -> list[tuple[Any, Any]]:
        """The next ``count`` replies, each of which must come within 20 s."""
        got: list[tuple[Any, Any]] = []
        descriptor = server.stdout.fileno()  # type: ignore[union-attr]
        while len(got) < count:
            end = received.find(b"\n")
            if end >= 0:
                reply = json.loads(received[:end])
                del received[: end + 1]
                got.append((reply["id"], reply.get("code", reply["type"])))
                continue
            ready, _, _ = select.select([descriptor], [], [], 20)
            assert ready, "a reply the server holds did not come"
            received.extend(os.read(descriptor, 1 << 16))
        return got

    try:
        send(b'{"id": 1, "type": "hello", "protocol": "matador-engine/1"}\n{"id": 2, ')
        assert answers(1) == [(1, "hello")]  # the cut request does not hold it back
        send(b'"type": "legal"}\n{"id": 3, "type": "ends"}\n\n{"id": 4, "type": "to_act"}\n')
        assert answers(3) == [(2, "no_match"), (3, "no_match"), (4, "no_match")]
        send(b'\n  \n\r\n{"id": 7, "type": "ends"}\n\n')  # blank lines get no reply
        assert answers(1) == [(7, "no_match")]
        piece = b"x" * (1 << 16)
        for _ in range(MAX_LINE_BYTES // len(piece) + 2):
            send(piece)
        send(b'\n{"id": 5, "type": "legal"}\n')
        assert answers(2) == [(None, "line_too_long"), (5, "no_match")]
        send(b'{"id": 6, "type": "quit"}\n')
        assert answers(1) == [(6, "bye")]
        assert server.wait(timeout=20) == 0
    finally:
        server.kill()
        server.wait()


class HangsOnEnds(ReferenceEngine):
    """Answers everything but ``ends``, on which it hangs."""

    def ends(self) -> list[str]:
        time.sleep(60)
        return super().ends()


def test_closing_with_replies_still_due_stops_the_engine_at_once() -> None:
    """A run stopped mid-case (a signal, say) closes an engine that still owes replies to
    requests written ahead: it is stopped, not waited for, deadline after deadline."""
    engine = ProcessEngine(program("HangsOnEnds"), timeout=20)
    engine.hello()
    engine.plan([requests.query("to_act"), requests.query("ends")])
    with pytest.raises(EngineRefusal):  # no match yet: an answer all the same
        engine.to_act()
    started = time.monotonic()
    engine.close()
    assert time.monotonic() - started < 0.8  # reading the reply due would take its 1 s
    assert engine._process.poll() is not None


def test_closing_while_a_reply_is_awaited_stops_the_engine_at_once() -> None:
    """A signal while the runner waits for a reply (the engine hangs) stops the run: the
    engine is stopped, not asked to quit and waited for."""
    engine = ProcessEngine(program("HangsOnEnds"), timeout=20)
    engine.hello()

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.5)
    try:
        with pytest.raises(KeyboardInterrupt):
            engine.ends()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    started = time.monotonic()
    engine.close()
    assert time.monotonic() - started < 0.8  # saying goodbye would wait its 1 s
    assert engine._process.poll() is not None


# ------------------------------------------------------------------ what an engine says


class SpeaksOddly(ReferenceEngine):
    """Names itself with a lone surrogate, a line break, a tab and markup, and refuses
    ``to_act`` with a code and message holding a lone surrogate and a turn-around mark."""

    def hello(self) -> Any:
        return dataclasses.replace(
            super().hello(), name="odd\ud800\nname\t[/x]", version="1\u202e0"
        )

    def to_act(self) -> int | None:
        raise EngineRefusal("odd\ud800code", "a message \ud800 \u202e")


@pytest.mark.parametrize("report", ["table", "markdown", "json", "junit", "html"])
def test_what_an_engine_says_is_shown_escaped_in_every_report(report: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    case = str(TESTS.parent / "conformance" / "cases" / "survey-opening.yaml")
    code = run(
        ["conform", "--engine", program("SpeaksOddly"), "--cases", case, "--report", report],
        out,
        err,
    )
    assert code == ExitStatus.INVALID, err.getvalue()  # cases failed
    text = out.getvalue()
    text.encode("utf-8")  # no lone surrogate left: every output stream can write it
    assert "\\ud800" in text and "\\u202e" in text
    if report == "table":
        assert "odd\\ud800 name [/x] 1\\u202e0" in text  # on one line, markup printed


def serve_twice(kind: str) -> None:
    """Serve the reference engine, answering the first request of type ``kind`` twice."""
    from reference_engine.conformance.protocol.server import answer

    engine, doubled = ReferenceEngine(), False
    for line in sys.stdin.buffer:
        reply, done = answer(engine, line)
        text = json.dumps(reply) + "\n"
        twice = reply.get("type") == kind and not doubled
        doubled = doubled or twice
        sys.stdout.write(text * (2 if twice else 1))
        sys.stdout.flush()
        if done:
            break


def test_a_reply_written_twice_fails_the_case_it_answers_not_the_next(
    runs: list[tuple[Case, Target]],
) -> None:
    ends_with_match = next((case, target) for case, target in runs if case.match is not None)
    other = next(run for run in runs if run[0].match is None)
    command = (
        f'{sys.executable} -c "import sys; sys.path.insert(0, {str(TESTS)!r}); '
        "from test_written_ahead import serve_twice; serve_twice('match')\""
    )
    first, second = judge(lambda: ProcessEngine(command, timeout=20), [ends_with_match, other])
    assert first.verdict is Verdict.ERROR and first.failure is FailureKind.WRONG_ID
    assert "no request asked for" in first.message
    assert second.verdict is Verdict.PASS
