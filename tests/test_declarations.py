"""What an engine declares it plays (hello's plays), and what the runner makes of it.

Each engine here is the reference engine with one declaration and, where it
says so, one behaviour changed. What is expected of each is worked out from
spec/protocol.md (Declaring what you play) and SPEC.md: which checks a
declaration takes out, which rule a declared deal breaks, what an engine that
lays its own opening is judged on.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Mapping
from functools import cache
from typing import Any

import pytest

from reference_engine.cli import run
from reference_engine.conformance.analysis.rulereport import Standing, rule_verdicts
from reference_engine.conformance.judging.declared import DECLARED_CASE
from reference_engine.conformance.judging.verdicts import CaseRun, Check, Verdict
from reference_engine.conformance.protocol.codes import ErrorCode
from reference_engine.conformance.protocol.declarations import (
    Declaration,
    DeclarationError,
    as_data,
    read_plays,
)
from reference_engine.conformance.protocol.interface import (
    EngineInfo,
    EngineRefusal,
    ReferenceEngine,
)
from reference_engine.conformance.session.runner import Runner, select
from reference_engine.conformance.suite.casedata import Case
from reference_engine.engine.actions import Action, Play
from reference_engine.rules.vocabulary import Shape


@cache
def cases() -> tuple[Case, ...]:
    from shipped import shipped_cases

    loaded, problems = shipped_cases()
    assert problems == ()
    return tuple(loaded)


def judged(factory: Any, variants: list[str], *, case_globs: tuple[str, ...] = ()) -> list[CaseRun]:
    runner = Runner(factory)
    try:
        return list(runner.each(select(cases(), variants=variants, case_globs=list(case_globs))))
    finally:
        runner.close()


def standing(runs: list[CaseRun]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {kind.value: set() for kind in Standing}
    for verdict in rule_verdicts(runs):
        found[verdict.standing.value].add(verdict.rule)
    return found


# --------------------------------------------------------------------------- reading plays


def test_a_declaration_reads_every_field_and_writes_only_what_differs() -> None:
    plays = read_plays(
        {
            "*": {"reasons": False},
            "gamerules-com": {
                "players": [2, 4],
                "hand_sizes": {"3": 5},
                "options": {"draw": ["reserve_two"]},
                "scoring": False,
                "opens_itself": True,
            },
        },
        {"gamerules-com": {}},
    )
    mine = plays["gamerules-com"]
    assert mine.players == frozenset({2, 4}) and dict(mine.hand_sizes) == {3: 5}
    assert dict(mine.options) == {"draw": ("reserve_two",)}
    flags = (mine.scoring, mine.matches, mine.reasons, mine.opens_itself)
    assert flags == (False, True, True, True)
    info = EngineInfo("e", "1", variants={"gamerules-com": {}}, plays=plays)
    merged = info.declaration("gamerules-com")
    assert not merged.reasons and not merged.scoring  # the "*" declaration under the variant's
    assert as_data(Declaration()) == {}
    assert as_data(mine)["hand_sizes"] == {"3": 5}


@pytest.mark.parametrize(
    ("plays", "said"),
    [
        ([], "must be an object"),
        ({"pagat": {}}, "not among the variants"),
        ({"gamerules-com": []}, "must map to an object"),
        ({"gamerules-com": {"colour": 1}}, "unknown field"),
        ({"gamerules-com": {"players": [5]}}, "players"),
        ({"gamerules-com": {"players": []}}, "players"),
        ({"gamerules-com": {"hand_sizes": {"9": 5}}}, "not a player count"),
        ({"gamerules-com": {"hand_sizes": {"3": 0}}}, "number of tiles"),
        ({"gamerules-com": {"hand_sizes": {"3": True}}}, "number of tiles"),
        ({"gamerules-com": {"options": {"draw": []}}}, "non-empty list"),
        ({"gamerules-com": {"scoring": "no"}}, "true or false"),
    ],
)
def test_a_declaration_of_the_wrong_shape_is_refused_saying_where(plays: Any, said: str) -> None:
    with pytest.raises(DeclarationError, match=said):
        read_plays(plays, {"gamerules-com": {}})


class DeclaresNonsense(ReferenceEngine):
    def hello(self) -> EngineInfo:
        return EngineInfo("odd", "1", plays={"gamerules-com": {"players": "two"}})


def test_a_bad_declaration_fails_the_handshake_in_process_and_over_the_protocol(
    tmp_path: Any,
) -> None:
    runs = judged(DeclaresNonsense, ["gamerules-com"])
    assert {run.verdict for run in runs} == {Verdict.NOT_RUN}
    assert "hello().plays" in runs[0].message and "players" in runs[0].message
    program = tmp_path / "engine.py"
    program.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    if r['type'] == 'hello':\n"
        "        print(json.dumps({'id': r['id'], 'type': 'hello', 'name': 'x', 'version': '1',"
        " 'protocol': 'matador-engine/1', 'variants': None,"
        " 'plays': {'gamerules-com': {'hand_sizes': {'3': -1}}}}), flush=True)\n"
        "    else:\n"
        "        print(json.dumps({'id': r['id'], 'type': 'bye'}), flush=True)\n",
        encoding="utf-8",
    )
    out, err = io.StringIO(), io.StringIO()
    code = run(["conform", "--engine", f"{sys.executable} {program}"], out, err)
    assert code == 4
    assert "hello.plays" in out.getvalue() + err.getvalue()


# --------------------------------------------------------------------------- what is asked


def test_players_and_exact_options_decide_what_is_asked() -> None:
    info = EngineInfo(
        "e",
        "1",
        variants=None,
        plays={"gamerules-com": Declaration(players=frozenset({2}), options={"draw": ("pass",)})},
    )
    defaults = {"draw": "until_playable"}

    def why(options: dict[str, str], players: int) -> str | None:
        return info.supports("gamerules-com", options, players=players, defaults=defaults)

    assert why({"draw": "pass"}, 2) is None
    assert "3" in str(why({"draw": "pass"}, 3))
    assert "not the default" in str(why({}, 2))
    assert "reserve_two" in str(why({"draw": "reserve_two"}, 2))
    # an engine of version 1 that declares values in variants plays the default as well
    old = EngineInfo("e", "1", variants={"gamerules-com": {"draw": ["pass"]}})
    assert old.supports("gamerules-com", {}, players=3, defaults=defaults) is None


class DealsFiveToThree(ReferenceEngine):
    """Says it deals five tiles each to three players under gamerules.com, which deals six."""

    def hello(self) -> EngineInfo:
        return EngineInfo(
            "five",
            "1",
            variants={"gamerules-com": {}},
            plays={"gamerules-com": {"hand_sizes": {"3": 5}}},
        )


def test_a_declared_deal_is_one_deviation_of_hand_size_and_other_counts_are_judged() -> None:
    runs = judged(DealsFiveToThree, ["gamerules-com"])
    stated = [run for run in runs if run.case == DECLARED_CASE]
    assert len(stated) == 1 and stated[0].players == 3
    assert stated[0].deviations[0].expected == "6" and stated[0].deviations[0].actual == "5"
    three = [run for run in runs if run.players == 3 and run.case != DECLARED_CASE]
    assert three and all(run.verdict is Verdict.SKIP for run in three)
    played = [run for run in three if not run.target.options]  # the options it plays
    assert played and all("hand_size" in run.message for run in played)
    others = [run for run in runs if run.players in (2, 4)]
    assert others and {run.verdict for run in others} <= {Verdict.PASS, Verdict.SKIP}
    verdicts = {(v.rule, v.value): v.standing for v in rule_verdicts(runs)}
    assert verdicts[("hand_size", "6 for 3 players")] is Standing.BROKEN
    assert {key for key, value in verdicts.items() if value is Standing.BROKEN} == {
        ("hand_size", "6 for 3 players")
    }


# --------------------------------------------------------------------------- not judged


class KeepsNoScore(ReferenceEngine):
    """Keeps no score, and says so: every points and scores answer is zeros."""

    def hello(self) -> EngineInfo:
        return EngineInfo("no score", "1", plays={"*": {"scoring": False, "matches": False}})

    def result(self) -> Mapping[str, Any] | None:
        result = super().result()
        return None if result is None else {**result, "points": [0] * len(result["points"])}

    def match_state(self) -> Mapping[str, Any]:
        state = super().match_state()
        return {**state, "scores": [0] * len(state["scores"]), "winner": None}


def test_an_engine_without_a_score_is_not_judged_on_points_and_fails_nothing() -> None:
    runs = judged(KeepsNoScore, ["gamerules-com", "britannica-1911"])
    assert {run.verdict for run in runs} <= {Verdict.PASS, Verdict.SKIP}
    unjudged = {rule for run in runs for rule in run.not_judged}
    assert "points" in unjudged
    found = standing(runs)
    assert found["broken"] == found["implicated"] == set()
    assert "points" in found["not_judged"]


class GivesNoReasons(ReferenceEngine):
    def hello(self) -> EngineInfo:
        return EngineInfo("no reasons", "1", plays={"*": {"reasons": False}})

    def apply(self, action: str, player: int | None) -> str | None:
        return None if super().apply(action, player) is None else "refused"


def test_an_engine_without_reasons_is_judged_on_refusal_alone() -> None:
    runs = judged(GivesNoReasons, ["gamerules-com", "german", "pagat"])
    assert {run.verdict for run in runs} <= {Verdict.PASS, Verdict.SKIP}
    assert any(run.not_judged["protocol"] for run in runs)


class NeverRefuses(GivesNoReasons):
    """Declares no reasons, and takes every pass: a refusal missing is still a deviation."""

    def apply(self, action: str, player: int | None) -> str | None:
        reason = super().apply(action, player)
        if reason is not None and action == "pass":
            hand = self._need_hand()
            hand.current = (hand.current + 1) % hand.players
            hand._legal = None
            return None
        return reason


def test_without_reasons_an_action_taken_that_must_be_refused_still_fails() -> None:
    runs = judged(NeverRefuses, ["gamerules-com"])
    refused = [d for run in runs for d in run.deviations if d.check is Check.REFUSED]
    assert refused and all(d.expected == "refused" and d.actual == "accepted" for d in refused)


# --------------------------------------------------------------------------- opening itself


class OpensItself(ReferenceEngine):
    """Lays the opening while dealing, the first legal opening, and says what it laid."""

    def hello(self) -> EngineInfo:
        return EngineInfo("opener", "1", plays={"*": {"opens_itself": True}})

    def new_hand(self, deal: Mapping[str, Any]) -> Any:
        super().new_hand(deal)
        hand = self._need_hand()
        while not hand.is_over and not hand.ends:
            legal = hand.legal_actions()
            seat = hand.current
            hand.apply(legal[0])
            if isinstance(legal[0], Play):
                return {"opened": str(legal[0]), "opened_by": seat}
        return {"opened": None, "opened_by": None}


def test_an_engine_that_opens_itself_passes_where_the_opening_is_forced() -> None:
    runs = judged(OpensItself, ["gamerules-com"])
    assert {run.verdict for run in runs} <= {Verdict.PASS, Verdict.SKIP}
    # the refusals a case tries before its opening are not asked of it
    assert any(run.not_judged for run in runs)


def test_an_engine_that_opens_itself_with_another_legal_tile_is_not_failed_for_it() -> None:
    # pagat's opener chosen by lot opens with any tile (SPEC 6.3, any_tile): the first
    # legal opening is often not the case's; the rest of that hand is then not judged.
    runs = judged(OpensItself, ["pagat"])
    assert not [d for run in runs for d in run.deviations if d.check is Check.LEGAL]
    assert any(run.not_judged for run in runs)


class OpensWithTheLowestDouble(OpensItself):
    def new_hand(self, deal: Mapping[str, Any]) -> Any:
        ReferenceEngine.new_hand(self, deal)
        hand = self._need_hand()
        if hand.is_over:
            return {"opened": None, "opened_by": None}
        for seat in range(hand.players):
            doubles = [tile for tile in hand.hand_of(seat) if tile.is_double]
            if doubles:
                low = min(doubles)
                hand.current = seat
                hand._legal = None
                hand._line.kinds = ()
                hand.apply(Play(low), None) if hand.is_legal(Play(low)) else None
                return {"opened": str(low), "opened_by": seat}
        return {"opened": None, "opened_by": None}


def test_an_opening_laid_against_the_rules_is_a_deviation_of_the_opening_rules() -> None:
    runs = judged(OpensWithTheLowestDouble, ["gamerules-com"], case_globs=("survey-*",))
    deviations = [d for run in runs for d in run.deviations]
    assert deviations
    assert {d.check for d in deviations} <= {Check.LEGAL, Check.TO_ACT}
    assert all("opener" in d.rules or "double_blank_opens" in d.rules for d in deviations)


# --------------------------------------------------------------------------- laid otherwise


class LaysTheOtherHalf(ReferenceEngine):
    """Accepts a matador in line and lays it the other way round, saying what it laid."""

    def apply(self, action: str, player: int | None) -> Any:
        parsed = Action.parse(action)
        reason = super().apply(action, player)
        if reason is None and isinstance(parsed, Play) and parsed.end is not None:
            tile = parsed.tile
            if parsed.shape is Shape.INLINE and tile.low + tile.high == 7 and not tile.is_double:
                other = tile.low if parsed.open == tile.high else tile.high
                return {"laid": str(Play(tile, parsed.end, Shape.INLINE, other))}
        return reason


def test_an_action_laid_otherwise_is_reported_with_both_actions_and_no_game_rule() -> None:
    runs = judged(LaysTheOtherHalf, ["gamerules-com"])
    laid = [d for run in runs for d in run.deviations if d.check is Check.LAID]
    assert laid
    for deviation in laid:
        assert deviation.rules == ("same_action",)
        assert "but laid" in deviation.message and deviation.expected != deviation.actual
    found = standing(runs)
    assert found["broken"] == {"same_action"}
    assert found["implicated"] == set()


def test_an_action_laid_otherwise_shows_in_the_json_report() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = run(
        [
            "conform",
            "--engine",
            f"python:{__file__}:LaysTheOtherHalf",
            "--variant",
            "gamerules-com",
            "--report",
            "json",
        ],
        out,
        err,
    )
    assert code == 1, err.getvalue()
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    rules = {line["rule"]: line["standing"] for line in lines if line["type"] == "rule"}
    assert rules["same_action"] == "broken"
    assert all(value != "broken" for rule, value in rules.items() if rule != "same_action")


class RefusesWhatItDeclares(ReferenceEngine):
    """Declares gamerules.com with draw=pass, then refuses every match as unsupported."""

    def hello(self) -> EngineInfo:
        return EngineInfo(
            "refuser",
            "1",
            variants=None,
            plays={"gamerules-com": {"options": {"draw": ["pass"]}}},
        )

    def new_match(self, variant: str, options: Mapping[str, str], players: int) -> None:
        raise EngineRefusal(ErrorCode.UNSUPPORTED, "not today")


class RefusesWithoutDeclaring(RefusesWhatItDeclares):
    """Declares nothing (every variant, every option), and refuses every match."""

    def hello(self) -> EngineInfo:
        return EngineInfo("refuser", "1", variants=None)


def test_a_match_the_engine_declares_and_refuses_is_an_error_not_a_skip() -> None:
    runs = judged(RefusesWhatItDeclares, ["gamerules-com"])
    declared = [run for run in runs if dict(run.target.options) == {"draw": "pass"}]
    assert declared and {run.verdict for run in declared} == {Verdict.ERROR}
    assert all("declares" in run.message and "not today" in run.message for run in declared)
    # the runs under other values are not asked: skipped, as the engine does not play them
    assert {run.verdict for run in runs if run not in declared} == {Verdict.SKIP}
    # an engine that declares nothing may refuse what it does not play: skipped
    runs = judged(RefusesWithoutDeclaring, ["gamerules-com"])
    assert runs and {run.verdict for run in runs} == {Verdict.SKIP}
