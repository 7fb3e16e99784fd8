"""Judging like an expert: every deviation of a case, the rule behind each, a verdict per rule.

The engines here are the reference engine with one behaviour changed on
purpose; what the report must say about each is written from SPEC.md (which
rule decides that behaviour, in which section), not read back from the runner.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from functools import cache
from typing import Any
from xml.etree import ElementTree

import pytest
from shipped import reference_runs, shipped_cases

from reference_engine.conformance.analysis.rulereport import Standing, rule_verdicts
from reference_engine.conformance.analysis.ruletext import shown
from reference_engine.conformance.judging.verdicts import CaseRun, Check, Verdict
from reference_engine.conformance.protocol.interface import ReferenceEngine
from reference_engine.conformance.reports.writers import WRITERS
from reference_engine.conformance.session.runner import Runner, select
from reference_engine.conformance.suite.casedata import Case


class NeverOffersADraw(ReferenceEngine):
    """Leaves ``draw`` out of every legal set, but still accepts a scripted draw."""

    def legal(self) -> list[str]:
        return [action for action in super().legal() if action != "draw"]


class RefusesEveryDraw(ReferenceEngine):
    """Refuses every draw: it cannot follow a line that draws."""

    def apply(self, action: str, player: int | None) -> str | None:
        if action == "draw":
            return "draw_not_allowed"
        return super().apply(action, player)


class ScoresNothing(ReferenceEngine):
    """Plays every hand right, then reports every hand's points as zero."""

    def result(self) -> Any:
        result = super().result()
        if result is None:
            return None
        return {**result, "points": [0] * len(result["points"])}


class AcceptsAnyPass(ReferenceEngine):
    """Accepts a pass whenever one is asked for, even where the rules refuse it."""

    def apply(self, action: str, player: int | None) -> str | None:
        reason = super().apply(action, player)
        if action == "pass" and reason == "pass_not_allowed":
            hand = self._need_hand()
            hand.current = (hand.current + 1) % hand.players
            hand._legal = None
            return None
        return reason


@cache
def cases() -> tuple[Case, ...]:
    loaded, problems = shipped_cases()
    assert problems == ()
    return tuple(loaded)


def judge(engine: type[ReferenceEngine], *, fail_fast: bool = False) -> list[CaseRun]:
    runner = Runner(engine, fail_fast=fail_fast)
    return [runner.run_case(case, target) for case, target in select(cases())]


@cache
def judged(name: str) -> tuple[CaseRun, ...]:
    engines = {
        "draw": NeverOffersADraw,
        "refuses": RefusesEveryDraw,
        "zero": ScoresNothing,
        "pass": AcceptsAnyPass,
    }
    return tuple(judge(engines[name]))


def failed(runs: Sequence[CaseRun]) -> list[CaseRun]:
    return [run for run in runs if run.verdict is Verdict.FAIL]


# --------------------------------------------------------------------------- every deviation


def test_a_case_reports_every_deviation_not_only_the_first() -> None:
    runs = failed(judged("draw"))
    assert runs
    several = [run for run in runs if len(run.deviations) > 1]
    assert several, "an engine that never offers a draw misses it at every drawing step"
    for run in runs:
        first = run.deviations[0]
        assert (run.message, run.hand, run.step) == (first.message, first.hand, first.step)


def test_fail_fast_stops_each_case_at_its_first_deviation() -> None:
    runs = failed(judge(NeverOffersADraw, fail_fast=True))
    assert runs and all(len(run.deviations) == 1 for run in runs)
    assert {run.case for run in runs} == {run.case for run in failed(judged("draw"))}


def test_a_case_stops_where_the_engine_cannot_follow_its_line() -> None:
    for run in failed(judged("refuses")):
        refused = [d for d in run.deviations if d.check is Check.ACCEPTED]
        assert len(refused) <= 1
        if refused:
            assert run.deviations[-1] is refused[0], "nothing is checked after the line is lost"


def test_a_case_stops_where_the_engine_accepts_what_it_must_refuse() -> None:
    runs = failed(judged("pass"))
    assert runs
    for run in runs:
        accepted = [d for d in run.deviations if d.check is Check.REFUSED]
        if accepted and accepted[-1].actual == "accepted":
            assert run.deviations[-1] is accepted[-1]


def test_scoring_is_judged_even_when_play_is_right() -> None:
    runs = failed(judged("zero"))
    assert runs
    for run in runs:
        assert {d.check for d in run.deviations} <= {Check.RESULT, Check.MATCH}


# --------------------------------------------------------------------------- the rule behind it


def test_a_missing_draw_is_blamed_on_the_drawing_rules() -> None:
    # SPEC 8.1: draw_when says when a player may draw (and the reserve, SPEC 5.3, when not).
    for run in failed(judged("draw")):
        for deviation in run.deviations:
            if deviation.check is Check.LEGAL and deviation.expected:
                assert "draw" in deviation.expected
                assert set(deviation.rules) & {"draw_when", "reserve", "nobody_has_double"}


def test_wrong_points_are_blamed_on_the_scoring_rules() -> None:
    # SPEC 10.2: points (and difference_among_several, partnerships) decide what is scored.
    for run in failed(judged("zero")):
        for deviation in run.deviations:
            if deviation.check is Check.RESULT:
                assert "points" in deviation.rules
                assert deviation.message.startswith("result points")


def test_the_verdict_per_rule_names_the_broken_rules_and_only_them() -> None:
    verdicts = rule_verdicts(judged("zero"))
    # broken: singled out by the deviations (tests/test_blame.py), not merely named by one
    broken = {verdict.rule for verdict in verdicts if verdict.standing is Standing.BROKEN}
    assert "points" in broken
    assert not broken & {"draw_when", "pass_when", "matador_modes", "opener", "max_pip"}
    points = [v for v in verdicts if v.rule == "points" and v.standing is Standing.BROKEN]
    for verdict in points:
        assert verdict.section == "SPEC 10.2"
        assert verdict.source, "the value's source is named"
        assert verdict.example is not None
        run, deviation = verdict.example
        others = [
            d
            for r in judged("zero")
            for d in r.deviations
            if "points" in d.rules and r.target.label() == run.target.label()
        ]
        assert all(len(deviation.history) <= len(other.history) for other in others)


def test_the_reference_engine_holds_every_rule() -> None:
    verdicts = rule_verdicts(reference_runs())
    assert verdicts and all(v.failed == 0 and v.held > 0 for v in verdicts)
    assert {"draw_when", "matador_modes", "points", "target"} <= {v.rule for v in verdicts}


# --------------------------------------------------------------------------- what the reports say


def test_values_are_written_in_the_notation() -> None:
    assert shown(None) == "nothing"
    assert shown([11, 0], "points") == "seat 0 11, seat 1 0"
    assert shown(["2-5@L", "draw"]) == "2-5@L draw"
    assert (
        shown({"termination": "blocked", "winner": None}) == "termination blocked, winner nothing"
    )


def _report(kind: str, runs: Sequence[CaseRun]) -> str:
    out = io.StringIO()
    WRITERS[kind](runs, None, out)
    return out.getvalue()


def test_the_table_names_each_broken_rule_with_its_section_and_source() -> None:
    text = _report("table", judged("zero"))
    assert "RULE points = difference (SPEC 10.2)" in text
    assert "source: " in text and "smallest example: " in text
    assert "None" not in text
    assert "rules: " in text.splitlines()[-1]


def test_the_json_report_carries_every_deviation_and_a_line_per_rule() -> None:
    lines = [json.loads(line) for line in _report("json", judged("zero")).splitlines()]
    cases_ = [line for line in lines if line["type"] == "case" and line["verdict"] == "fail"]
    assert cases_ and all(line["deviations"] for line in cases_)
    first = cases_[0]["deviations"][0]
    assert first["rules"] and first["sections"] and "position" in first
    rules = [line for line in lines if line["type"] == "rule"]
    broken = [line for line in rules if line["standing"] == "broken"]
    assert broken and all(line["example"]["case"] for line in broken)


def test_the_junit_report_has_a_failing_test_per_broken_rule() -> None:
    root = ElementTree.fromstring(_report("junit", judged("zero")))
    suite = next(s for s in root.findall("testsuite") if s.get("name") == "rules")
    cases_ = suite.findall("testcase")
    failing = [case.get("name") for case in cases_ if case.find("failure") is not None]
    assert failing and all("SPEC 10.2" in str(name) for name in failing if "points" in str(name))
    assert root.get("timestamp") and suite.get("timestamp")


def test_the_markdown_report_has_a_rules_table_and_examples() -> None:
    text = _report("markdown", judged("zero"))
    assert "## Rules" in text and "| rule | section | held | failed |" in text
    assert "### points = difference ([SPEC 10.2](https://github.com/" in text


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_a_passing_run_reports_no_broken_rule(kind: str) -> None:
    runner = Runner(ReferenceEngine)
    runs = [runner.run_case(case, target) for case, target in select(cases(), variants=["pagat"])]
    text = _report(kind, runs)
    assert "RULE " not in text and "<failure" not in text


# ------------------------------------------------------------------ what the protocol promises


class AcceptsAnyDeal(ReferenceEngine):
    """Plays whatever it is dealt, even a deal that breaks the variant."""

    def new_hand(self, deal: Any) -> None:
        try:
            super().new_hand(deal)
        except Exception:
            self._hand = None


class KeepsASeatToAct(ReferenceEngine):
    """Names seat 0 to act even once the hand is over."""

    def to_act(self) -> int | None:
        seat = super().to_act()
        return 0 if seat is None else seat


def test_an_engine_that_accepts_a_broken_deal_fails_the_deal_cases() -> None:
    runs = failed(judge(AcceptsAnyDeal))
    assert {run.case for run in runs} >= {
        "deals-a-short-hand-is-refused",
        "deals-a-tile-dealt-twice-is-refused",
        "deals-a-tile-outside-the-set-is-refused",
        "deals-a-boneyard-short-of-the-set-is-refused",
        "deals-a-designated-seat-that-does-not-exist-is-refused",
    }
    # Each is blamed on the rule the deal breaks (SPEC 5.3, 5.6, 6.2): a hand of the
    # wrong size on hand_size, a tile outside the set, twice or missing on max_pip
    # (the set), a seat the match does not have on designated_opener; a seat the
    # rotation does not name on the deal itself (no one rule's value says it alone).
    expected = {
        "deals-a-short-hand-is-refused": ("hand_size",),
        "deals-a-tile-dealt-twice-is-refused": ("max_pip",),
        "deals-a-tile-outside-the-set-is-refused": ("max_pip",),
        "deals-a-boneyard-short-of-the-set-is-refused": ("max_pip",),
        "deals-a-designated-seat-that-does-not-exist-is-refused": ("designated_opener",),
    }
    for run in runs:
        assert run.deviations[0].check is Check.DEAL
        if run.case in expected:
            assert run.deviations[0].rules == expected[run.case]
        assert len(run.deviations) == 1, "an engine playing a bad deal is not followed further"


def test_a_seat_to_act_after_the_hand_is_over_is_a_deviation() -> None:
    runs = failed(judge(KeepsASeatToAct))
    assert runs
    for run in runs:
        for deviation in run.deviations:
            assert deviation.check is Check.TO_ACT
            # a hand dealt again is over by the rule that deals again (SPEC 6.4), any
            # other by the end of a hand (SPEC 9)
            case = next(case for case in cases() if case.id == run.case)
            result = case.hands[deviation.hand or 0].result
            redealt = result is not None and result["termination"] == "redeal"
            assert ("nobody_has_double" if redealt else "end_of_hand") in deviation.rules
            assert deviation.expected is None and deviation.actual == 0


# --------------------------------------------------------------------------- random games


class MisScoresWithThePackage(ReferenceEngine):
    """The package itself modified, as a patched copy would be: every hand scores nothing.

    It patches the scoring that the hand calls, for everyone in this process,
    so an in-process reference would agree with it.
    """

    def __init__(self) -> None:
        super().__init__()
        from reference_engine.engine.hand import base as hand_module
        from reference_engine.engine.scoring import Outcome

        original = hand_module.__dict__["score"]

        def nothing(*args: Any, **kwargs: Any) -> Outcome:
            outcome = original(*args, **kwargs)
            return Outcome(
                termination=outcome.termination,
                winner=outcome.winner,
                pips=outcome.pips,
                points=tuple(0 for _ in outcome.points),
                side_pips=outcome.side_pips,
            )

        hand_module.__dict__["score"] = nothing


def test_random_games_compare_results_and_match_scores() -> None:
    from reference_engine.conformance.games.differential import differential
    from reference_engine.conformance.suite.casedata import Target

    found = differential(
        Runner(ScoresNothing), [Target("gamerules-com")], games=9, seed=2, reference=ReferenceEngine
    )
    assert found.hands == 9 and found.errors == []
    checks = {(d.check, d.key) for d in found.divergences}
    assert checks == {(Check.RESULT, "points")}
    assert all("points" in d.rules for d in found.divergences)
    # one of each kind, each with the deals and actions that replay it
    kinds = [d.kind for d in found.divergences]
    assert len(kinds) == len(set(kinds))
    for divergence in found.divergences:
        assert len(divergence.deals) == len(divergence.histories) >= 1


class ForgetsHandsWon(ReferenceEngine):
    """Plays and scores right, but never counts a hand won in the match."""

    def match_state(self) -> Any:
        state = dict(super().match_state())
        state["hands_won"] = [0] * len(state["hands_won"])
        return state


def test_random_games_compare_the_match_over_several_hands() -> None:
    from reference_engine.conformance.games.differential import differential
    from reference_engine.conformance.suite.casedata import Target

    found = differential(
        Runner(ForgetsHandsWon), [Target("polish-base")], games=6, seed=5, reference=ReferenceEngine
    )
    matches = [d for d in found.divergences if d.check is Check.MATCH]
    assert matches and all(d.key == "hands_won" for d in matches)
    assert all("target" in d.rules for d in matches)  # SPEC 10.5: hands won count for the target


def test_random_games_use_every_player_count_and_several_strategies() -> None:
    from reference_engine.conformance.games.differential import GAME_STRATEGIES, _plan
    from reference_engine.rules import Catalog

    rules = Catalog.shipped().resolve("wikipedia-brandreth")
    planned = list(_plan(rules, 9))
    assert {players for players, _ in planned} == {2, 3, 4}
    assert {strategy for _, strategy in planned} == set(GAME_STRATEGIES)


def test_the_reference_of_an_in_process_engine_is_not_the_engine_itself() -> None:
    from reference_engine.conformance.games.differential import differential
    from reference_engine.conformance.suite.casedata import Target
    from reference_engine.engine.hand import base as hand_module

    original = hand_module.__dict__["score"]
    try:
        runner = Runner(MisScoresWithThePackage)
        found = differential(runner, [Target("gamerules-com")], games=3, seed=4)
        runner.close()
    finally:
        hand_module.__dict__["score"] = original
    assert found.errors == []
    assert any(d.check is Check.RESULT and d.key == "points" for d in found.divergences), (
        "the isolated reference must disagree with a package modified in this process"
    )


@pytest.mark.parametrize("kind", ["json", "junit", "markdown", "table"])
def test_every_report_format_carries_the_divergences(kind: str) -> None:
    from reference_engine.conformance.games.differential import differential
    from reference_engine.conformance.reports.runreport import RunSummary
    from reference_engine.conformance.suite.casedata import Target

    found = differential(
        Runner(ScoresNothing), [Target("gamerules-com")], games=3, seed=2, reference=ReferenceEngine
    )
    assert found.divergences
    out = io.StringIO()
    WRITERS[kind]([], None, out, RunSummary(planned=0, random=found))
    text = out.getvalue()
    if kind == "json":
        lines = [json.loads(line) for line in text.splitlines()]
        divergences = [line for line in lines if line["type"] == "divergence"]
        assert len(divergences) == len(found.divergences)
        assert all(line["deals"] and "histories" in line for line in divergences)
        assert lines[-1]["divergences"] == len(found.divergences)
    elif kind == "junit":
        root = ElementTree.fromstring(text)
        suite = next(s for s in root.findall("testsuite") if s.get("name") == "random games")
        assert suite.get("failures") == str(len(found.divergences))
    else:
        assert text.count("DIVERGENCE ") == len(found.divergences)
        assert "points (SPEC 10.2)" in text


class WritesTilesHighLow(ReferenceEngine):
    """Offers the right actions, but writes each tile high-low (``5-2@R:5``)."""

    def legal(self) -> list[str]:
        out = []
        for action in super().legal():
            tile, at, rest = action.partition("@")
            low, dash, high = tile.partition("-")
            out.append(f"{high}-{low}{at}{rest}" if dash and low != high else action)
        return out


def test_a_non_canonical_writing_is_a_deviation_of_the_protocol() -> None:
    # notation.md: readers accept 5-2, but writers MUST write low-high.
    runs = failed(judge(WritesTilesHighLow))
    assert runs
    for run in runs:
        assert {d.check for d in run.deviations} == {Check.NOTATION}
        assert all(d.rules == ("protocol",) for d in run.deviations)
