"""Random differential games lose nothing: every way an engine parts from the reference.

Each planted-bug engine below is the reference engine with one mistake; the
divergence it must produce is worked out from the mistake, by hand. None of
them may end in an ERROR that throws the games away, nor stop the other
matches: each match that parts stops there, and the next one begins. Then the
reports: every format carries a divergence with its game, step, position,
expected and got, rule and SPEC section; an engine that never starts gets a
short "not judged" summary; a run interrupted by SIGINT keeps what it found.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import time
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from fitting import unfitted
from hostile.harness import MARKER, leftovers, matador_argv

from reference_engine.cli import run
from reference_engine.conformance.games.differential import DifferentialResult, differential
from reference_engine.conformance.judging.divergences import Divergence
from reference_engine.conformance.judging.verdicts import CaseRun, Check, Verdict
from reference_engine.conformance.protocol.codes import ErrorCode
from reference_engine.conformance.protocol.interface import EngineRefusal, ReferenceEngine
from reference_engine.conformance.reports.runreport import RunSummary, summary_line
from reference_engine.conformance.reports.writers import WRITERS
from reference_engine.conformance.session.runner import Runner
from reference_engine.conformance.suite.casedata import Target
from reference_engine.exits import ExitStatus

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "docs" / "examples" / "python_engine.py"
#: The example's scoring of a hand's winner, and the planted mistake (own pips not taken off).
RIGHT_SCORE = "points[winner] = max(0, others - pips[winner])"
WRONG_SCORE = "points[winner] = others"
GAMES = 6


def play(engine: type[ReferenceEngine], games: int = GAMES, seed: int = 3) -> DifferentialResult:
    """The random games of gamerules-com (2 to 4 players, 100 points) against the reference."""
    runner = Runner(engine)
    try:
        return differential(
            runner, [Target("gamerules-com")], games=games, seed=seed, reference=ReferenceEngine
        )
    finally:
        runner.close()


# --------------------------------------------------------------------------- planted bugs


class EndsTheMatchAtOnce(ReferenceEngine):
    """Says the match is won by side 0 after any hand the reference's match goes on after."""

    def match_state(self) -> Mapping[str, Any]:
        state = dict(super().match_state())
        state["winner"] = 0 if state["winner"] is None else None
        return state


def test_a_match_the_engine_ends_early_is_a_divergence_and_the_next_match_begins() -> None:
    found = play(EndsTheMatchAtOnce)
    assert found.errors == []
    # every match parts after its first hand, so the games go on to GAMES matches
    assert found.hands == GAMES
    assert {(d.check, d.key) for d in found.divergences} == {(Check.MATCH, "winner")}
    for divergence in found.divergences:
        assert divergence.rules == ("target",)  # SPEC 10.5; the scores agree
        assert len(divergence.deals) == 1
        if divergence.expected is None:
            assert divergence.actual == 0
            assert divergence.message == "the engine ended the match; the reference goes on"


class GoesOnAfterTheHand(ReferenceEngine):
    """Keeps seat 0 to act once the hand is over, and will not deal a new hand."""

    def to_act(self) -> int | None:
        seat = super().to_act()
        return 0 if seat is None else seat

    def new_hand(self, deal: Mapping[str, Any]) -> None:
        if self._hand is not None:
            raise EngineRefusal(ErrorCode.HAND_IN_PROGRESS, "the hand goes on")
        super().new_hand(deal)


def test_a_hand_the_engine_does_not_end_is_a_divergence_not_a_refused_deal() -> None:
    found = play(GoesOnAfterTheHand)
    assert found.errors == []
    assert found.hands == GAMES
    [divergence] = found.divergences
    assert divergence.check is Check.TO_ACT
    assert (divergence.expected, divergence.actual) == (None, 0)
    assert "end_of_hand" in divergence.rules
    assert divergence.message == "the reference ended the hand; the engine goes on"
    assert divergence.position == "the hand is over"


class EndsTheHandAfterTwoActions(ReferenceEngine):
    """Has no seat to act once two actions were played."""

    def to_act(self) -> int | None:
        hand = self._need_hand()
        return None if len(hand.history) >= 2 else super().to_act()


def test_a_hand_the_engine_ends_early_is_a_divergence_at_the_third_step() -> None:
    found = play(EndsTheHandAfterTwoActions)
    assert found.errors == []
    assert found.hands == GAMES
    assert {d.check for d in found.divergences} == {Check.TO_ACT}
    for divergence in found.divergences:
        assert isinstance(divergence.expected, int) and divergence.actual is None
        assert divergence.step == 3 and len(divergence.history) == 2
        assert divergence.message == "the engine ended the hand; the reference goes on"
        assert "end_of_hand" in divergence.rules
        assert divergence.position.startswith("ends ")  # a tile is down, the hand goes on


class RefusesTheSecondHand(ReferenceEngine):
    """Refuses every deal after the first of a match, as though the first hand were going on."""

    def new_hand(self, deal: Mapping[str, Any]) -> None:
        if self._hand is not None:
            raise EngineRefusal(ErrorCode.HAND_IN_PROGRESS, "play the hand out first")
        super().new_hand(deal)


def test_a_refused_request_is_a_divergence_with_its_rule() -> None:
    found = play(RefusesTheSecondHand)
    assert found.errors == []
    requests = [d for d in found.divergences if d.check is Check.REQUEST]
    assert [(d.key, d.rules) for d in requests] == [("new_hand", ("end_of_hand",))]
    [request] = requests
    assert request.actual == "hand_in_progress: play the hand out first"
    assert len(request.deals) == 2 and request.histories[-1] == ()
    assert request.message == (
        "the engine refused the request new_hand, which the reference accepts"
    )


class RefusesToListActionsLater(ReferenceEngine):
    """Answers ``legal`` with an internal error once the first action is played."""

    def legal(self) -> list[str]:
        if self._need_hand().history:
            raise EngineRefusal(ErrorCode.INTERNAL_ERROR, "lost my tables")
        return super().legal()


def test_a_refused_question_stops_the_match_and_the_games_go_on() -> None:
    found = play(RefusesToListActionsLater)
    assert found.errors == []
    assert found.hands == GAMES
    [divergence] = found.divergences
    assert (divergence.check, divergence.key) == (Check.REQUEST, "legal")
    assert divergence.rules == ("protocol",)
    assert divergence.step == 2


class NamesTheNextSeatOnce(ReferenceEngine):
    """Names the seat after the right one at the second step, and plays on correctly."""

    def to_act(self) -> int | None:
        hand = self._need_hand()
        seat = super().to_act()
        if seat is not None and len(hand.history) == 1:
            return (seat + 1) % hand.players
        return seat


def test_a_different_seat_to_act_is_a_divergence_and_play_goes_on() -> None:
    found = play(NamesTheNextSeatOnce)
    assert found.errors == []
    assert found.hands == GAMES
    assert {d.check for d in found.divergences} == {Check.TO_ACT}
    for divergence in found.divergences:
        assert divergence.actual == (divergence.expected + 1) % divergence.players
        assert divergence.step == 2


@pytest.mark.slow
def test_the_outsiders_scoring_bug_is_reported_and_nothing_that_follows_from_it(
    tmp_path: Path,
) -> None:
    """The winner scores the others' pips without taking off its own (engine eng3).

    Its hand points are too high whenever the winner holds pips: that is a
    divergence of points (the other value, opponents, scores what it scored).
    Its scores then reach the target of 100 before the reference's, which is a
    consequence: each later hand is dealt in a match of its own, the match's
    end is not held against it and target is not blamed.
    """
    source = EXAMPLE.read_text()
    assert RIGHT_SCORE in source
    engine = tmp_path / "eng3.py"
    engine.write_text(source.replace(RIGHT_SCORE, WRONG_SCORE))
    out, err = io.StringIO(), io.StringIO()
    argv = [
        "conform", "--engine", f"python:{engine}:make_engine",
        "--case", "gamerules-two-handed*", "--random", "50", "--seed", "0",
    ]  # fmt: skip
    code = run(argv, out, err)
    text = out.getvalue()
    assert code == ExitStatus.INVALID, text + err.getvalue()
    assert "random games: 50 hand(s) compared" in text
    assert "ERROR" not in text
    assert "result points differs" in text
    assert "RULE points = difference (SPEC 10.2): broken" in text
    assert "the engine ended the match" not in text
    assert "RULE target" not in text


# --------------------------------------------------------------------------- every report


def _divergence() -> Divergence:
    """A divergence written by hand: seat 1 was offered a pass while it can play."""
    return Divergence(
        check=Check.LEGAL,
        key="",
        target=Target("gamerules-com"),
        players=2,
        strategy="first",
        deals=({"hands": [["0-0"], ["1-2", "3-4"]], "boneyard": ["5-6"]},),
        histories=(("0-0",),),
        expected=["2-1@L:0"],
        actual=["2-1@L:0", "pass"],
        rules=("draw_when",),
        position="ends L:0 R:0; seat 1 to act holds 1-2 3-4; boneyard 1",
        seed=7,
        game=4,
    )


def _summary() -> RunSummary:
    result = DifferentialResult(hands=12)
    result.keep([_divergence()])
    return RunSummary(planned=0, random=result)


def test_the_summary_line_counts_the_divergences() -> None:
    assert summary_line([], _summary()) == (
        "0 passed, 0 failed, 0 errored, 0 skipped; random games: 12 hand(s), "
        "1 kind(s) of divergence"
    )


@pytest.mark.parametrize("kind", ["table", "markdown", "junit", "json", "html"])
def test_every_format_gives_a_divergence_as_fully_as_a_failure(kind: str) -> None:
    out = io.StringIO()
    WRITERS[kind]([], None, out, _summary())
    text = out.getvalue()
    if kind == "json":
        [line] = [json.loads(x) for x in text.splitlines() if '"divergence"' in x[:30]]
        assert (line["variant"], line["seed"], line["game"]) == ("gamerules-com", 7, 4)
        assert (line["hand"], line["step"]) == (1, 2)
        assert line["sections"] == ["SPEC 8.1"] and line["rules"] == ["draw_when"]
        assert line["position"].startswith("ends L:0 R:0")
        assert json.loads(text.splitlines()[-1])["divergences"] == 1
        return
    if kind == "junit":
        root = ElementTree.fromstring(text)
        suite = next(s for s in root.findall("testsuite") if s.get("name") == "random games")
        assert suite.get("failures") == "1"
        text = suite.findtext("testcase/failure") or ""
    assert "game 4 (2 players, first play), seed 7" in text
    assert "hand 1, step 2" in text
    assert "pass" in text and "draw_when" in text and "SPEC 8.1" in text
    if kind in ("markdown", "html"):
        # the variant file's citation of the rule's value, as the scripted failures have
        assert "gamerules.com" in text or "gamerules-com" in text
    if kind == "html":
        assert 'id="divergence-1"' in text
        assert "seat 1 holds 1-2 3-4" in text  # the hand to act, drawn as tiles
        assert "<svg" in text


# --------------------------------------------------------------------------- no engine


@pytest.mark.parametrize("kind", ["table", "markdown", "junit", "json", "html"])
def test_an_engine_that_never_starts_gets_a_not_judged_summary(kind: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = run(
        ["conform", "--engine", "/no/such/program", "--case", "survey-*", "--report", kind],
        out,
        err,
    )
    text = out.getvalue()
    assert code == ExitStatus.ENGINE_UNAVAILABLE
    assert "/no/such/program" in text
    if kind == "table":
        lines = unfitted(text)
        assert lines[0].startswith("ENGINE UNAVAILABLE: the engine did not start")
        assert lines[1].startswith("NOT JUDGED: ")
        assert len(lines) == 3 and "┃" not in text  # no table of zeros
    elif kind == "markdown":
        assert "NOT JUDGED" in text and "| variant |" not in text
    elif kind == "junit":
        root = ElementTree.fromstring(text)
        assert root.get("tests") == "1" and root.get("errors") == "1"
        assert root.find("testsuite/testcase[@name='engine available']") is not None
    elif kind == "json":
        footer = json.loads(text.splitlines()[-1])
        assert footer["judged"] is False and footer["engine_unavailable"]
    else:
        assert "Nothing was judged: the engine was unavailable" in text
        assert "Compliance by variant" not in text


# --------------------------------------------------------------------------- interrupted


def _conform(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[bytes], Path, str]:
    """``matador conform ARGS`` started in its own session, its stderr in a file."""
    tag = uuid.uuid4().hex
    errors = tmp_path / "stderr"
    with errors.open("wb") as sink:
        process = subprocess.Popen(
            matador_argv("conform", *args),
            stdout=subprocess.DEVNULL,
            stderr=sink,
            env={**os.environ, MARKER: tag, "PYTHONUNBUFFERED": "1"},
            start_new_session=True,
        )
    return process, errors, tag


def _interrupt_when(
    process: subprocess.Popen[bytes], ready: Any, tag: str, seconds: float = 120
) -> int:
    """SIGINT once ``ready()``; the exit status, with no process of the run left."""
    deadline = time.monotonic() + seconds
    while not ready():
        assert process.poll() is None, "the run ended before it could be interrupted"
        assert time.monotonic() < deadline, "the run never got far enough"
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    status = process.wait(timeout=60)
    assert leftovers(tag) == [], "no engine or reference is left behind"
    return status


@pytest.mark.slow
def test_ctrl_c_during_random_games_keeps_the_divergences_found(tmp_path: Path) -> None:
    engine = tmp_path / "eng3.py"
    engine.write_text(EXAMPLE.read_text().replace(RIGHT_SCORE, WRONG_SCORE))
    report = tmp_path / "report.json"
    process, errors, tag = _conform(
        tmp_path, "--engine", f"python:{engine}:make_engine", "--case", "survey-annotated-*",
        "--random", "100000", "--seed", "0", "--report", "json", "--output", str(report),
    )  # fmt: skip
    status = _interrupt_when(process, lambda: "divergence in" in errors.read_text(), tag)
    assert status == 130
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    footer = lines[-1]
    assert footer["type"] == "footer" and footer["interrupted"] == "SIGINT"
    assert footer["complete"] is False and footer["divergences"] >= 1
    kept = [line for line in lines if line["type"] == "divergence"]
    assert len(kept) == footer["divergences"] and all(line["deals"] for line in kept)
    said = [line for line in errors.read_text().splitlines() if "interrupted" in line]
    assert len(said) == 1 and "in the random games" in said[0]


@pytest.mark.slow
def test_ctrl_c_between_cases_shows_the_rest_as_not_run(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    process, errors, tag = _conform(
        tmp_path, "--engine", "matador engine", "--report", "json", "--output", str(report),
    )  # fmt: skip

    def three_cases() -> bool:
        parts = list(tmp_path.glob(".report.json.*.part"))
        return bool(parts) and parts[0].read_text().count('"type": "case"') >= 3

    assert _interrupt_when(process, three_cases, tag) == 130
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    cases = [line for line in lines if line["type"] == "case"]
    footer = lines[-1]
    # a line for each finished case; the footer counts the rest as not run
    assert footer["finished"] == len(cases) >= 3
    assert footer["planned"] > footer["finished"]
    assert footer["not_run"] == footer["planned"] - footer["finished"]
    assert footer["summary"].endswith("; incomplete: interrupted by SIGINT")
    said = [line for line in errors.read_text().splitlines() if "interrupted" in line]
    assert len(said) == 1, "one line on stderr, since the report is in a file"


def test_a_table_of_an_interrupted_run_counts_the_unfinished_variants_as_not_run() -> None:
    finished = CaseRun(case="a", target=Target("german"), verdict=Verdict.PASS)
    unfinished = [
        CaseRun(case=name, target=Target(variant), verdict=Verdict.NOT_RUN)
        for name, variant in (("b", "german"), ("c", "dutch"), ("d", "dutch"))
    ]
    summary = RunSummary(planned=4, interrupted="SIGINT", finished=1)
    out = io.StringIO()
    WRITERS["table"]([finished, *unfinished], None, out, summary)
    text = out.getvalue()
    assert "INTERRUPTED by SIGINT after 1 of 4 case run(s) (3 not run)" in text
    assert "1 passed, 0 failed, 0 errored, 0 skipped, 3 not run" in text
    dutch = next(line for line in text.splitlines() if "dutch" in line)
    assert dutch.split()[-1] == "2"  # both dutch runs in the "not run" column, the last
