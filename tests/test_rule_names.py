"""Messages name the rule that refuses an action: the refusal's own, never the set's size
for a broken sum, and never ``None``.

The expected rules are worked out by hand from the variant (gamerules-com: double-six,
line sum 7, doubles inline, draw and pass only when nothing can be played, no reserve).
"""

from __future__ import annotations

import io
import re
from typing import Any

import pytest

from reference_engine.cli import run
from reference_engine.conformance.judging.attribution import FixedRule
from reference_engine.disputes.explain import Situation, answer
from reference_engine.engine.actions import Action, Play
from reference_engine.engine.deal import Deal
from reference_engine.engine.hand import Hand
from reference_engine.engine.hand.refusals import CITED_AS, SUM_RULE
from reference_engine.engine.record import match_record, play_match, replay
from reference_engine.engine.strategies import STRATEGIES
from reference_engine.errors import IllegalActionError, Reason
from reference_engine.rules import Catalog
from reference_engine.rules.parameters import BY_NAME

CATALOG = Catalog.shipped()


def test_the_sum_rule_is_named_as_the_conformance_reports_name_it() -> None:
    assert FixedRule.SUM_RULE.value == SUM_RULE
    assert CITED_AS == {SUM_RULE: "max_pip"}


def _refused(action: str, hand: str, ends: str, boneyard: int = 0) -> tuple[str | None, str | None]:
    situation = Situation.from_data(
        {"hand": hand.split(","), "ends": ends.split(","), "boneyard": boneyard, "action": action}
    )
    result = answer(CATALOG.resolve("gamerules-com"), situation)
    assert result.verdict == "no", result.legal
    return result.reason, result.rule


@pytest.mark.parametrize(
    ("action", "hand", "ends", "boneyard", "reason", "rule"),
    [
        # 1-2 on a 4: 1 + 4 = 5 and 2 + 4 = 6, neither is 7.
        ("1-2@R:2", "1-2,2-2,6-6", "5,4", 0, Reason.DOES_NOT_MATCH_END, SUM_RULE),
        # 6-6 on a 5: 11.
        ("6-6@L", "1-2,2-2,6-6", "5,4", 0, Reason.DOES_NOT_MATCH_END, SUM_RULE),
        # 1-2 fits the 5 with its 2 (leaving 1), not with its 1 (leaving 2).
        ("1-2@L:2", "1-2,2-2,6-6", "5,4", 0, Reason.PLACEMENT_NOT_ALLOWED, SUM_RULE),
        # 2-2 fits the 5, but doubles lie in line here, not across.
        ("2-2@Lx", "1-2,2-2,6-6", "5,4", 0, Reason.PLACEMENT_NOT_ALLOWED, "doubles"),
        # A tile can be played: no draw, and no pass.
        ("draw", "1-2,2-2,6-6", "5,4", 3, Reason.DRAW_NOT_ALLOWED, "draw_when"),
        ("pass", "1-2,2-2,6-6", "5,4", 0, Reason.MUST_PLAY, "pass_when"),
        # Nothing fits a 5 or a 4 (1-1: 6 and 5), and the boneyard has tiles.
        ("pass", "1-1", "5,4", 3, Reason.MUST_DRAW, "draw_when"),
    ],
)
def test_each_kind_of_refusal_names_its_rule(
    action: str, hand: str, ends: str, boneyard: int, reason: Reason, rule: str
) -> None:
    assert _refused(action, hand, ends, boneyard) == (reason.value, rule)


def _refused_under(
    variant: str, options: dict[str, str], action: str, data: dict[str, Any]
) -> tuple[str | None, str | None]:
    situation = Situation.from_data({**data, "action": action})
    result = answer(CATALOG.resolve(variant, options), situation)
    assert result.verdict == "no", result.legal
    return result.reason, result.rule


@pytest.mark.parametrize(
    ("variant", "options", "action", "data", "reason", "rule"),
    [
        # german: one tile is drawn, and only it may then be played (2-2 fits the 5 too).
        (
            "german",
            {},
            "2-2@L",
            {"hand": ["2-2", "1-2"], "ends": [5, 4], "boneyard": 3, "drawn": "1-2"},
            Reason.ONLY_DRAWN_TILE,
            "after_single_draw",
        ),
        # ... and under its other reading a drawn tile that fits must be played: no pass.
        (
            "german",
            {"drawn_tile": "must_play"},
            "pass",
            {"hand": ["1-2"], "ends": [5, 4], "boneyard": 3, "drawn": "1-2"},
            Reason.MUST_PLAY_DRAWN,
            "after_single_draw",
        ),
        # gamerules-com with two tiles kept back: two left, so nothing more is drawn.
        (
            "gamerules-com",
            {"draw": "reserve_two"},
            "draw",
            {"hand": ["1-1"], "ends": [5, 4], "boneyard": 2},
            Reason.RESERVE_REACHED,
            "reserve",
        ),
        # dominorules-com: nobody draws, and only matadors fit (3-4 and 0-0): one must go.
        (
            "dominorules-com",
            {},
            "pass",
            {"hand": ["0-0", "3-4"], "ends": [3, 5], "boneyard": 0},
            Reason.MUST_PLAY_MATADOR,
            "pass_when",
        ),
    ],
)
def test_refusals_after_a_draw_at_the_reserve_and_of_a_matador_name_their_rule(
    variant: str,
    options: dict[str, str],
    action: str,
    data: dict[str, Any],
    reason: Reason,
    rule: str,
) -> None:
    assert _refused_under(variant, options, action, data) == (reason.value, rule)


def test_a_wrong_opening_names_the_rule_of_who_opens_with_what() -> None:
    # gamerules-com: the holder of the highest double opens with it; seat 0 holds 6-6.
    rules = CATALOG.resolve("gamerules-com")
    seat_0 = ["6-6", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"]
    seat_1 = ["1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "2-2"]
    hand = Hand(rules, Deal.from_data({"hands": [seat_0, seat_1]}, rules))

    with pytest.raises(IllegalActionError) as refused:
        hand.verify(Action.parse("0-1"))

    assert (refused.value.reason, refused.value.rule) == (Reason.WRONG_OPENING, "opener")
    assert refused.value.citations == rules.provenance["opener"].cite


def test_a_refusal_that_no_rule_makes_names_none_and_says_why() -> None:
    assert _refused("5-2@L", "1-2,2-2,6-6", "5,4") == (Reason.TILE_NOT_IN_HAND.value, None)

    out, err = io.StringIO(), io.StringIO()
    argv = ["explain", "--hand", "1-2,6-6", "--ends", "5,4", "--action", "5-2@L"]
    assert run([*argv, "--variant", "gamerules-com"], out, err) == 0
    assert "  5-2@L: not allowed [tile_not_in_hand] (seat 0 does not hold 2-5)\n" in out.getvalue()


#: Proposals to ask about, with hands and ends that reach every kind of refusal somewhere.
QUESTIONS = [
    ("0-0,3-4", "3,5", 0, action)
    for action in ("3-4@L", "3-4@R", "3-4@R:4", "0-0@L", "0-0@Rx", "5-2@L", "draw", "pass")
] + [
    ("1-2,2-2,6-6", "5,4", boneyard, action)
    for boneyard in (0, 3)
    for action in ("1-2@R:2", "1-2@L:2", "2-2@Lx", "2-2@L^2", "6-6@L", "draw", "pass")
]


@pytest.mark.parametrize(("hand", "ends", "boneyard", "action"), QUESTIONS)
def test_explain_never_names_a_rule_that_is_none_or_the_set_size(
    hand: str, ends: str, boneyard: int, action: str
) -> None:
    out, err = io.StringIO(), io.StringIO()
    argv = ["explain", "--hand", hand, "--ends", ends, "--boneyard", str(boneyard)]

    assert run([*argv, "--action", action], out, err) == 0, err.getvalue()

    text = out.getvalue()
    assert "None" not in text
    for rule in re.findall(r"by rule (\S+)", text):
        assert rule in BY_NAME or rule == SUM_RULE, rule
        assert rule != "max_pip"  # the set's size never refuses a placement
    placement = r"not allowed \[(does_not_match_end|placement_not_allowed)\] by rule (\S+)"
    for _, rule in re.findall(placement, text):
        # Every end here is plain, and every variant plays double-six (line sum 7): 0-0 and
        # 3-4 are matadors, 1-2 an ordinary tile, 2-2 and 6-6 ordinary doubles.
        if action.startswith(("0-0", "3-4")):
            assert rule == "matador_modes"
        elif action.startswith("1-2"):
            assert rule == SUM_RULE
        else:
            assert rule in {SUM_RULE, "doubles"}


def _broken_sum(record: dict[str, Any]) -> tuple[int, str]:
    """Where the first hand can break the sum rule, and how: an ordinary tile the player to
    act holds, laid on a plain end that neither of its halves adds up to 7 with."""
    rules = CATALOG.resolve(record["variant"], record["options"])
    hand = Hand(rules, Deal.from_data(record["hands"][0]["deal"], rules))
    for number, text in enumerate(record["hands"][0]["actions"]):
        ends = hand.ends
        if len(ends) == 2 and all(end.is_plain for end in ends):
            for tile in hand.hand_of(hand.current):
                if rules.is_matador(tile.low, tile.high) or tile.is_double:
                    continue
                for end, open_end in enumerate(ends):
                    (value,) = open_end.values
                    if value and all(half + value != 7 for half in (tile.low, tile.high)):
                        return number, f"{tile}@{'LR'[end]}:{tile.high}"
        hand.apply(Action.parse(text))
    raise AssertionError("no position with a tile that breaks the sum")


def test_replay_names_the_sum_rule_for_a_broken_sum_and_cites_the_set_sources() -> None:
    rules = CATALOG.resolve("gamerules-com")
    match = play_match(rules, 2, seed=3, strategy=STRATEGIES["random"], max_hands=1)
    record = match_record(match, seed=3, strategy="random")
    number, broken = _broken_sum(record)
    record["hands"][0]["actions"][number] = broken
    record["hands"][0]["actions"] = record["hands"][0]["actions"][: number + 1]
    record["hands"][0].pop("result", None)
    record.pop("match", None)

    report = replay(record)

    finding = report.finding
    assert finding is not None
    assert (finding.reason, finding.rule) == (Reason.DOES_NOT_MATCH_END.value, SUM_RULE)
    assert finding.citations == rules.provenance["max_pip"].cite
    assert finding.citations  # the sources that give double-six give the sum of seven


def test_a_refusal_that_names_a_rule_cites_its_sources() -> None:
    rules = CATALOG.resolve("gamerules-com")
    situation = Situation.from_data({"hand": ["1-2", "2-2"], "ends": ["5", "4"], "boneyard": 0})
    position = answer(rules, situation)
    assert position.possible
    hand = Hand.at_position(rules, players=2, hand=situation.hand, ends=(5, 4), boneyard=0)
    for text in ("1-2@R:2", "1-2@L:2", "2-2@Lx", "pass"):
        action = Action.parse(text)
        with pytest.raises(IllegalActionError) as refused:
            hand.verify(action)
        error = refused.value
        assert error.rule is not None
        cited = CITED_AS.get(error.rule, error.rule)
        assert error.citations == rules.provenance[cited].cite
        if isinstance(action, Play) and not action.tile.is_double:
            assert error.rule == SUM_RULE
