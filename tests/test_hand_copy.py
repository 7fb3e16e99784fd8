"""A hand's copy is whole and independent, and stepping it is as fast as the original.

``Hand.copy`` copies each field by name (a search copies hands by the million, and
``copy.copy`` would leave both hands slower to step); these tests keep the list of
names complete as fields are added, and the copies independent.
"""

from __future__ import annotations

import random

import pytest
from shipped import SHIPPED_VARIANTS

from reference_engine.engine.deal import Deal
from reference_engine.engine.hand import Hand
from reference_engine.rules import Catalog

CATALOG = Catalog.shipped()


def _played(variant: str, players: int, seed: int, steps: int) -> Hand:
    rules = CATALOG.resolve(variant)
    rng = random.Random(seed)
    hand = Hand(rules, Deal.shuffled(rules, players, rng))
    for _ in range(steps):
        if hand.is_over:
            break
        legal = hand.legal_actions()
        hand.apply(legal[rng.randrange(len(legal))])
    return hand


@pytest.mark.parametrize("variant", SHIPPED_VARIANTS)
def test_a_copy_has_every_field_of_the_hand_and_the_same_values(variant: str) -> None:
    for steps in (0, 1, 5, 40):
        hand = _played(variant, CATALOG.resolve(variant).players[0], 3, steps)
        hand.outcome  # noqa: B018 (scored, so the copy must carry the score too)
        twin = hand.copy()
        assert type(twin) is type(hand)
        assert vars(twin).keys() == vars(hand).keys()
        for name, value in vars(hand).items():
            assert getattr(twin, name) == value, name


@pytest.mark.parametrize("variant", SHIPPED_VARIANTS)
def test_a_copy_plays_on_alone(variant: str) -> None:
    """Playing the copy to its end leaves the original where it was, and the original,
    played the same way, ends the same."""
    hand = _played(variant, CATALOG.resolve(variant).players[-1], 5, 3)
    before = (list(hand.history), [hand.hand_of(s) for s in range(hand.players)], hand.ends)
    twin = hand.copy()
    rng = random.Random(9)
    while not twin.is_over:
        legal = twin.legal_actions()
        twin.apply(legal[rng.randrange(len(legal))])
    after = (list(hand.history), [hand.hand_of(s) for s in range(hand.players)], hand.ends)
    assert after == before
    rng = random.Random(9)
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.apply(legal[rng.randrange(len(legal))])
    assert hand.history == twin.history and hand.outcome == twin.outcome
