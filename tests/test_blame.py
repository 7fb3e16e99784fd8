"""Blaming the right rule: an engine with one planted mistake is told that rule, and no other.

Each engine here is the reference engine with one behaviour changed on
purpose. The blame expected of each is derived by hand from SPEC.md: which
rule decides the behaviour changed (its section), and why the other rules a
deviation touches are innocent (a consequence of an earlier deviation in the
same hand, another rule that explains it, or an answer that shows the hand
ended). It is never read back from the program.
"""

from __future__ import annotations

import dataclasses
import io
import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any
from xml.etree import ElementTree

import pytest
from shipped import shipped_cases

from reference_engine.conformance.analysis.rulereport import RuleVerdict, Standing, rule_verdicts
from reference_engine.conformance.games.differential import DifferentialResult, differential
from reference_engine.conformance.judging.blame import Place, assign, evidence_flags
from reference_engine.conformance.judging.verdicts import CaseRun, Check, Deviation, Verdict
from reference_engine.conformance.protocol.interface import EngineRefusal, ReferenceEngine
from reference_engine.conformance.reports.runreport import RunSummary, rules_line
from reference_engine.conformance.reports.writers import WRITERS
from reference_engine.conformance.session.runner import Runner, select
from reference_engine.conformance.suite.casedata import Case, Target
from reference_engine.engine.deal import Deal
from reference_engine.rules import Catalog, Rules
from reference_engine.rules.model import PerPlayers
from reference_engine.rules.vocabulary import Opener, Points

# --------------------------------------------------------------------------- planted bugs


class TieGoesToTheFirstLowest(ReferenceEngine):
    """A blocked hand tied for the lowest total is won by the first lowest seat (SPEC 10.3)."""

    def result(self) -> Mapping[str, Any] | None:
        result = super().result()
        if result is None or result["winner"] is not None or result["termination"] != "blocked":
            return result
        pips = list(result["pips"])
        first = pips.index(min(pips))
        points = [0] * len(pips)
        points[first] = sum(pips) - 2 * pips[first]
        return {**result, "winner": first, "points": points}


class DrawsFromTheOtherEnd(ReferenceEngine):
    """Takes the boneyard's last tile where the draw order says its first (SPEC 5.6)."""

    def new_hand(self, deal: Mapping[str, Any]) -> None:
        data = dict(deal)
        match = self._match
        if match is not None and isinstance(data.get("hands"), list):
            try:
                full = Deal.from_data(data, match.rules).to_data()
            except ValueError:
                full = data
            data["boneyard"] = list(reversed(full.get("boneyard", [])))
        super().new_hand(data)


class EndsAfterOnePassFewer(ReferenceEngine):
    """Ends a hand after every player but one has passed in a row (SPEC 9: all of them)."""

    def __init__(self, catalog: Catalog | None = None) -> None:
        super().__init__(catalog)
        self.passes = 0
        self.ended = False

    def new_hand(self, deal: Mapping[str, Any]) -> None:
        super().new_hand(deal)
        self.passes, self.ended = 0, False

    def legal(self) -> list[str]:
        return [] if self.ended else super().legal()

    def to_act(self) -> int | None:
        return None if self.ended else super().to_act()

    def apply(self, action: str, player: int | None) -> str | None:
        if self.ended:
            return "hand_over"
        reason = super().apply(action, player)
        if reason is None:
            self.passes = self.passes + 1 if action == "pass" else 0
            players = self._need_hand().players
            self.ended = self.passes == players - 1 and not self._need_hand().is_over
        return reason


def with_rules(change: Callable[[str, Rules], Rules]) -> type[ReferenceEngine]:
    """The reference engine playing every variant with ``change`` applied to its rules."""

    class Changed(Catalog):
        def resolve(self, variant: str, options: Mapping[str, str] | None = None) -> Rules:
            return change(variant, shipped().resolve(variant, options))

        def __getattr__(self, name: str) -> Any:
            return getattr(shipped(), name)

    class Engine(ReferenceEngine):
        def __init__(self, catalog: Catalog | None = None) -> None:
            super().__init__(catalog)
            self.catalog = Changed.__new__(Changed)

    return Engine


@cache
def shipped() -> Catalog:
    return Catalog.shipped()


def opener_plays_once(variant: str, rules: Rules) -> Rules:
    """german with opener_plays_again false (SPEC 6.5)."""
    return dataclasses.replace(rules, opener_plays_again=False) if variant == "german" else rules


def difference_for_all_hands(variant: str, rules: Rules) -> Rules:
    """britannica-1911 scoring the difference where it scores all hands (SPEC 10.2)."""
    if variant == "britannica-1911" and rules.points is Points.ALL_HANDS:
        return dataclasses.replace(rules, points=Points.DIFFERENCE)
    return rules


def lowest_double_opens(variant: str, rules: Rules) -> Rules:
    """The lowest double opens where the highest should (SPEC 6.3)."""
    if rules.opener is Opener.HIGHEST_DOUBLE:
        return dataclasses.replace(rules, opener=Opener.LOWEST_DOUBLE)
    return rules


# --------------------------------------------------------------------------- judging


@cache
def cases() -> tuple[Case, ...]:
    loaded, problems = shipped_cases()
    assert problems == ()
    return tuple(loaded)


def judge(engine: type[ReferenceEngine], variant: str) -> list[CaseRun]:
    runner = Runner(engine)
    try:
        return [runner.run_case(case, t) for case, t in select(cases(), variants=[variant])]
    finally:
        runner.close()


def standing(verdicts: Sequence[RuleVerdict]) -> dict[str, set[str]]:
    """The rule names by standing (broken, implicated, held)."""
    out: dict[str, set[str]] = {s.value: set() for s in Standing}
    for verdict in verdicts:
        out[verdict.standing.value].add(verdict.rule)
    return out


def blamed(engine: type[ReferenceEngine], variant: str) -> dict[str, set[str]]:
    runs = judge(engine, variant)
    assert any(run.verdict is Verdict.FAIL for run in runs), "the planted bug must show"
    return standing(rule_verdicts(runs))


def test_a_tie_won_by_the_first_seat_blames_the_tie_rule_alone() -> None:
    # The winner check names hand_pips, tie and the end of a hand; the points
    # check names points, difference_among_several and tie. Made at the same
    # place, they share one cause: only tie explains both.
    found = blamed(TieGoesToTheFirstLowest, "gamerules-com")
    assert found["broken"] == {"tie"}
    innocent = {"hand_pips", "points", "difference_among_several", "end_of_hand"}
    assert not innocent & (found["broken"] | found["implicated"])


def test_drawing_from_the_wrong_end_blames_the_draw_order_alone() -> None:
    # After a draw the engine holds other tiles than the reference: it offers a
    # tile the seat does not hold, or none of one it does, or refuses one with
    # tile_not_in_hand. Only the draw order (the deal, SPEC 5.6) explains every
    # such place; reserve, doubles, matador_modes, draw_when and the sum rule
    # each explain some of them at most.
    found = blamed(DrawsFromTheOtherEnd, "gamerules-com")
    assert found["broken"] == {"deal"}
    assert not {"reserve", "doubles", "matador_modes", "draw_when", "sum_rule"} & found["broken"]


def test_a_hand_ended_a_pass_early_blames_the_end_of_a_hand() -> None:
    # No seat to act, no legal action, hand_over: the engine says the hand is
    # over where the reference plays on, which SPEC 9 decides, not pass_when.
    found = blamed(EndsAfterOnePassFewer, "gamerules-com")
    assert found["broken"] == {"end_of_hand"}
    assert not {"pass_when", "turn_order"} & (found["broken"] | found["implicated"])


def test_an_opener_who_does_not_play_again_blames_that_rule_alone() -> None:
    # The first deviation of each hand is the seat to act after the opening,
    # which only opener_plays_again decides; what follows in the hand follows from it.
    found = blamed(with_rules(opener_plays_once), "german")
    assert found["broken"] == {"opener_plays_again"}
    assert not {"reserve", "draws_per_turn", "sum_rule"} & found["broken"]


def test_difference_scoring_under_all_hands_does_not_blame_the_partnership() -> None:
    # points alone is named by the hands played singly; the two_vs_two hand
    # names partnership and points, and points explains it. The match's
    # winner then differs as a consequence of its scores: target is innocent.
    found = blamed(with_rules(difference_for_all_hands), "britannica-1911")
    assert found["broken"] == {"points"}
    assert not {"partnership", "target"} & (found["broken"] | found["implicated"])


def test_the_lowest_double_opening_does_not_blame_the_double_blank() -> None:
    found = blamed(with_rules(lowest_double_opens), "gamerules-com")
    assert found["broken"] == {"opener"}
    assert "double_blank_opens" not in found["broken"] | found["implicated"]


# --------------------------------------------------------------------------- the rule itself


def key(name: str) -> tuple[str, str]:
    return (name, "")


def places(*groups: set[str]) -> list[Place]:
    return [Place(frozenset(key(name) for name in group)) for group in groups]


def test_a_rule_every_smallest_explanation_needs_is_broken() -> None:
    blame = assign(places({"a"}, {"a", "b"}, {"a", "c"}))
    assert blame.broken == {key("a")}
    assert blame.implicated == Counter()


def test_rules_no_deviation_singles_out_are_only_implicated() -> None:
    # {a, b} twice: a alone or b alone explains both; neither is singled out.
    blame = assign(places({"a", "b"}, {"a", "b"}))
    assert blame.broken == frozenset()
    assert blame.implicated == Counter({(key("a"), False): 2, (key("b"), False): 2})
    # three places, each explained by two of three rules: three smallest explanations.
    assert assign(places({"a", "b"}, {"b", "c"}, {"a", "c"})).broken == frozenset()


def test_the_summary_line_never_calls_an_implicated_rule_broken() -> None:
    verdicts = [
        RuleVerdict("points", "difference", "SPEC 10.2", 3, 1, None, "", implicated=1),
        RuleVerdict("tie", "nobody_scores", "SPEC 10.3", 3, 1, None, "", implicated=1),
        RuleVerdict("hand_pips", "full", "SPEC 10.1", 5, 0, None, ""),
    ]
    assert rules_line(verdicts).startswith("rules: 1 held everywhere, 0 broken, 2 implicated")


def deviation(check: Check, step: int | None, hand: int = 0) -> Deviation:
    return Deviation(check, "", None, None, ("turn_order",), hand=hand, step=step)


def test_a_deviation_after_an_earlier_one_in_its_hand_is_a_consequence() -> None:
    run = CaseRun("case", Target("gamerules-com"), Verdict.FAIL)
    run.deviations = [
        deviation(Check.TO_ACT, 3),
        deviation(Check.LEGAL, 3),  # same place: evidence too
        deviation(Check.LEGAL, 5),  # later in the hand
        deviation(Check.RESULT, None),  # the hand's result after it
        deviation(Check.LEGAL, 1, hand=1),  # another hand: fresh evidence
        deviation(Check.MATCH, None, hand=1),  # the match after any deviation
    ]
    assert evidence_flags(run) == [True, True, False, False, True, False]


# --------------------------------------------------------------------------- random games


class ScoresOneMore(ReferenceEngine):
    """Scores a hand's winner one point more than the difference (SPEC 10.2)."""

    def result(self) -> Mapping[str, Any] | None:
        result = super().result()
        if result is None or result["winner"] is None:
            return result
        points = list(result["points"])
        points[result["winner"]] += 1
        return {**result, "points": points}


def play(engine: type[ReferenceEngine], games: int) -> DifferentialResult:
    runner = Runner(engine)
    try:
        return differential(
            runner, [Target("gamerules-com")], games=games, seed=0, reference=ReferenceEngine
        )
    finally:
        runner.close()


def test_random_divergences_count_in_the_rule_profile_apart_from_the_cases() -> None:
    found = play(ScoresOneMore, 12)
    assert found.divergences
    verdicts = {v.rule: v for v in rule_verdicts([], random=found)}
    points = verdicts["points"]
    assert points.standing is Standing.BROKEN
    assert points.random_blamed >= 1 and points.blamed == 0 and points.failed == 0
    assert points.random_example is not None
    assert " 1 broken" in rules_line(list(verdicts.values()))


class CrashesOnce(ReferenceEngine):
    """Raises on the tenth action it is asked to play, once in the whole run."""

    applied = 0

    def apply(self, action: str, player: int | None) -> str | None:
        CrashesOnce.applied += 1
        if CrashesOnce.applied == 10:
            raise RuntimeError("boom")
        return super().apply(action, player)


def test_a_random_game_error_carries_its_game_and_the_games_go_on() -> None:
    CrashesOnce.applied = 0
    found = play(CrashesOnce, 12)
    assert len(found.errors) == 1
    error = found.errors[0]
    assert (error.game, error.seed, error.players) == (1, 0, 2)
    assert error.request.startswith("apply ") and "boom" in error.message
    assert len(error.deals) == 1 and len(error.histories[0]) == 9
    assert found.hands == 12  # a fresh engine played the next games


def test_every_report_gives_a_random_error_its_game_and_the_rules_their_random_blame() -> None:
    CrashesOnce.applied = 0
    crashed = play(CrashesOnce, 6)
    found = play(ScoresOneMore, 12)
    found.errors.extend(crashed.errors)
    summary = RunSummary(random=found)
    reports = {}
    for kind in ("table", "json", "junit", "markdown", "html"):
        out = io.StringIO()
        WRITERS[kind]([], None, out, summary)
        reports[kind] = out.getvalue()
    lines = [json.loads(line) for line in reports["json"].splitlines()]
    footer = lines[-1]
    (error,) = footer["random_errors"]
    assert (error["game"], error["seed"], error["players"]) == (1, 0, 2)
    assert error["request"].startswith("apply ") and len(error["histories"][0]) == 9
    points = next(line for line in lines if line["type"] == "rule" and line["rule"] == "points")
    assert points["standing"] == "broken" and points["random_blamed"] >= 1
    for kind in ("table", "markdown", "junit"):
        assert "gamerules-com (game 1 (2 players, random play), seed 0" in reports[kind], kind
        assert "hand 1 deal: " in reports[kind], kind
    assert "1 broken" in reports["table"]
    rules = next(s for s in ElementTree.fromstring(reports["junit"]) if s.get("name") == "rules")
    failing = [c.get("name") for c in rules if c.find("failure") is not None]
    assert failing == ["points = difference (SPEC 10.2)"]
    assert "game 1 (2 players, random play), seed 0" in reports["html"]


# --------------------------------------------------------------------------- one or two rules


class DealsFiveToThree(ReferenceEngine):
    """Deals five tiles to each of three players, refusing gamerules.com's six (SPEC 5.3)."""

    def new_hand(self, deal: Mapping[str, Any]) -> None:
        hands = deal.get("hands")
        if isinstance(hands, list) and len(hands) == 3 and any(len(hand) != 5 for hand in hands):
            raise EngineRefusal("bad_deal", "five tiles each to three players")
        super().new_hand(deal)


class MustPlayForAMatador(ReferenceEngine):
    """Refuses a pass with must_play where the only tiles that fit are matadors, where the
    protocol's reason is must_play_matador (protocol.md's table of reasons)."""

    def apply(self, action: str, player: int | None) -> str | None:
        reason = super().apply(action, player)
        return "must_play" if reason == "must_play_matador" else reason


def one_more_in_reserve(variant: str, rules: Rules) -> Rules:
    """A reserve one tile larger than the rules keep, for every player count (SPEC 5.3)."""
    counts = {key: int(value) + 1 for key, value in rules.reserve.as_dict().items()}
    return dataclasses.replace(rules, reserve=PerPlayers(**counts))


@pytest.mark.parametrize(
    ("engine", "variants", "rule"),
    [
        (DealsFiveToThree, ["gamerules-com"], "hand_size"),
        (ScoresOneMore, ["gamerules-com", "pagat", "britannica-1911"], "points"),
        (MustPlayForAMatador, ["pagat", "gamerules-com", "wikipedia-brandreth"], "protocol"),
        (with_rules(one_more_in_reserve), ["gamerules-com", "wikipedia-brandreth"], "reserve"),
    ],
    ids=["deal size", "score", "refusal reason", "reserve"],
)
def test_a_relay_that_changes_one_rule_is_judged_exactly_under_every_variant(
    engine: type[ReferenceEngine], variants: list[str], rule: str
) -> None:
    # The same deviation, judged under each variant whose cases reach it, breaks the
    # same rule and nothing else: no other rule broken or implicated.
    for variant in variants:
        found = blamed(engine, variant)
        assert found["broken"] == {rule}, (variant, found)
        assert found["implicated"] == set(), (variant, found)


def test_no_report_calls_a_rule_held_when_an_expectation_on_it_failed() -> None:
    runs = judge(with_rules(one_more_in_reserve), "gamerules-com") + judge(
        MustPlayForAMatador, "pagat"
    )
    verdicts = rule_verdicts(runs)
    assert any(verdict.failed for verdict in verdicts)
    for verdict in verdicts:
        if verdict.failed:
            assert verdict.standing is not Standing.HELD, verdict
    out = io.StringIO()
    WRITERS["json"](runs, None, out, None)
    for line in map(json.loads, out.getvalue().splitlines()):
        if line["type"] == "rule" and line["failed"]:
            assert line["standing"] != "held", line
    out = io.StringIO()
    WRITERS["markdown"](runs, None, out, None)
    for row in out.getvalue().splitlines():
        cells = [cell.strip() for cell in row.split("|")]
        if len(cells) > 6 and cells[4].isdigit() and int(cells[4]):
            assert cells[5] != "held", row
