"""The survey's annotated two-player opening, move by move, on the engine itself.

Source: text 000, "Une ouverture commentée" (and its Kreyòl twin 002, "Yon
kòmansman jwèt, kou pa kou"). Two players, seven tiles each, the highest double
opening (the Britannica's and gamerules.com's deal). The legal sets are worked
out by hand from the rules the survey states: touching halves make seven, a
matador goes on any end with its player choosing the open half, doubles lie in
line.
"""

from __future__ import annotations

import pytest

from reference_engine.engine.actions import Action
from reference_engine.engine.deal import Deal
from reference_engine.engine.hand import Hand
from reference_engine.errors import IllegalActionError, Reason
from reference_engine.rules import Catalog

YOU = ["6-6", "3-5", "1-2", "0-4", "2-5", "4-4", "0-3"]
OPPONENT = ["4-6", "1-1", "0-5", "2-6", "3-3", "1-6", "2-4"]

# (seat to act, the legal actions, the move the text makes, the ends it gives after it)
MOVES = [
    (0, {"6-6"}, "6-6", ["6", "6"]),
    (1, {"1-1@L:1", "1-1@R:1", "1-6@L:1", "1-6@L:6", "1-6@R:1", "1-6@R:6"}, "1-1@L:1", ["1", "6"]),
    (0, {"1-2@R:2", "2-5@L:2", "2-5@L:5", "2-5@R:2", "2-5@R:5"}, "1-2@R:2", ["1", "2"]),
    (
        1,
        {"0-5@R:0", "4-6@L:4", "2-6@L:2", "1-6@L:1", "1-6@L:6", "1-6@R:1", "1-6@R:6"},
        "0-5@R:0",
        ["1", "0"],
    ),
    (0, {"2-5@L:2", "2-5@L:5", "2-5@R:2", "2-5@R:5"}, "2-5@R:5", ["1", "5"]),
    (
        1,
        {"4-6@L:4", "2-6@L:2", "2-6@R:6", "2-4@R:4", "1-6@L:1", "1-6@L:6", "1-6@R:1", "1-6@R:6"},
        "4-6@L:4",
        ["4", "5"],
    ),
    (0, {"0-3@L:0", "3-5@L:5"}, "0-3@L:0", ["0", "5"]),
]

# The text's last word: the opponent can still answer with 6-2 or 2-4 on the five,
# and put 1-6 on the blank (a matador, it may also go on the five).
LAST = {"2-6@R:6", "2-4@R:4", "1-6@L:1", "1-6@L:6", "1-6@R:1", "1-6@R:6"}


@pytest.mark.parametrize("variant", ["gamerules-com", "britannica-1911"])
def test_the_annotated_opening_move_by_move(variant: str) -> None:
    options = {"draw": "when_unable"} if variant == "britannica-1911" else {}
    rules = Catalog.shipped().resolve(variant, options)
    hand = Hand(rules, Deal.from_data({"hands": [YOU, OPPONENT]}, rules))
    for seat, legal, move, ends in MOVES:
        assert hand.current == seat
        assert {str(action) for action in hand.legal_actions()} == legal
        hand.apply(Action.parse(move))
        assert [end.notation for end in hand.ends] == ends
    assert hand.current == 1
    assert {str(action) for action in hand.legal_actions()} == LAST


def test_the_double_three_cannot_answer_the_five() -> None:
    # A [3-3] needs a four against it (text 000, "La règle du sept"): it cannot go on a 5.
    rules = Catalog.shipped().resolve("gamerules-com")
    hand = Hand(rules, Deal.from_data({"hands": [YOU, OPPONENT]}, rules))
    for _, _, move, _ in MOVES:
        hand.apply(Action.parse(move))
    with pytest.raises(IllegalActionError) as refused:
        hand.apply(Action.parse("3-3@R:3"))
    assert refused.value.reason is Reason.DOES_NOT_MATCH_END
    assert refused.value.rule == "sum_rule"
    assert refused.value.citations
