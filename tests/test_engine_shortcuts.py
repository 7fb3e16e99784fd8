"""The engine's shortcuts change nothing a caller can see.

A deal made by :meth:`Deal.shuffled` writes its tiles out only when read; a
hand scores its outcome only when read; :meth:`Hand.apply` takes an action it
offered by identity, from the bits of what it offers. Each is held here to what
the long way gives: an eager deal of the same tiles, the pips left in the hands,
and a refusal for every action that is not among the legal ones now.
"""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest

from reference_engine.engine.actions import DRAW, PASS, Action, Play
from reference_engine.engine.deal import Deal
from reference_engine.engine.hand import Hand
from reference_engine.engine.tiles import full_set
from reference_engine.errors import DealError, IllegalActionError
from reference_engine.rules import Catalog, Rules

SEEDS = range(40)


def rules_of(variant: str) -> Rules:
    return Catalog.shipped().resolve(variant)


@pytest.mark.parametrize(("variant", "players"), [("pagat", 4), ("german", 2), ("polish", 3)])
def test_a_shuffled_deal_is_the_eager_deal_of_its_tiles(variant: str, players: int) -> None:
    rules = rules_of(variant)
    for seed in SEEDS:
        deal = Deal.shuffled(rules, players, random.Random(seed))
        hands, boneyard = deal.hands, deal.boneyard
        assert all(list(hand) == sorted(hand) for hand in hands), seed
        dealt = [tile for hand in hands for tile in hand] + list(boneyard)
        assert sorted(dealt) == list(full_set(rules.max_pip)), seed
        eager = Deal(hands=hands, boneyard=boneyard, designated=deal.designated)
        assert deal == eager and hash(deal) == hash(eager) and repr(deal) == repr(eager)
        assert Deal.from_data(deal.to_data(), rules) == deal
        assert pickle.loads(pickle.dumps(deal)) == deal
        assert dataclasses.replace(deal) == deal
        assert deal.packed(rules) == eager.packed(rules)


def test_a_shuffled_deal_reads_the_same_whichever_field_comes_first() -> None:
    rules = rules_of("pagat")
    first = Deal.shuffled(rules, 4, random.Random(3))
    boneyard_first = Deal.shuffled(rules, 4, random.Random(3))
    assert boneyard_first.boneyard == first.boneyard == ()  # four players get all 28
    assert boneyard_first.hands == first.hands
    assert [len(hand) for hand in first.hands] == [7, 7, 7, 7]


def test_a_bad_designated_seat_is_refused_when_the_hand_starts() -> None:
    rules = rules_of("pagat")
    deal = Deal.shuffled(rules, 4, random.Random(1), designated=4)
    assert len(deal.hands) == 4
    with pytest.raises(DealError, match=r"designated seat 4 is not one of 0\.\.3"):
        Hand(rules, deal)


def test_the_outcome_is_scored_when_read_from_the_hands_left() -> None:
    rules = rules_of("pagat")
    for seed in SEEDS:
        rng = random.Random(seed)
        hand = Hand(rules, Deal.shuffled(rules, 4, rng))
        while not hand.is_over:
            assert hand.outcome is None
            legal = hand.legal_actions()
            hand.apply(legal[rng.randrange(len(legal))])
        outcome = hand.outcome
        assert outcome is not None and hand.outcome is outcome
        left = tuple(sum(t.low + t.high for t in hand.hand_of(seat)) for seat in range(4))
        assert outcome.pips == left
        assert hand.copy().outcome == outcome


def test_apply_refuses_what_is_not_offered_now() -> None:
    rules = rules_of("pagat")
    for seed in SEEDS:
        rng = random.Random(seed)
        hand = Hand(rules, Deal.shuffled(rules, 4, rng))
        previous: tuple[object, ...] = ()
        while not hand.is_over:
            legal = hand.legal_actions()
            for stale in previous:  # offered to the seat before: none is legal now
                if stale not in legal:
                    with pytest.raises(IllegalActionError):
                        hand.apply(stale)  # type: ignore[arg-type]
            for other in (PASS, DRAW):  # no drawing here; a pass only when nothing fits
                if other not in legal:
                    with pytest.raises(IllegalActionError):
                        hand.apply(other)
            choice = legal[rng.randrange(len(legal))]
            previous = legal
            if len(hand.history) % 2:  # an equal action, not the same object: taken too
                choice = Action.parse(str(choice))
            hand.apply(choice)
            assert hand.history[-1] is choice
        assert all(isinstance(a, Play) or a is PASS for a in hand.history)
