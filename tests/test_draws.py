"""The engine's random draws are exactly those of random.Random's own methods.

:mod:`reference_engine.engine.draws` shuffles and chooses by calling
``getrandbits`` itself; every number it draws must be the one ``rng.shuffle``
and ``rng.randrange`` would have drawn, and the generator must be left in the
same state, or seeded simulations would change their numbers. A generator
whose class draws another way must be served by its own methods.
"""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from reference_engine.engine import draws
from reference_engine.engine.deal import Deal
from reference_engine.engine.hand import Hand
from reference_engine.engine.playout import play_out
from reference_engine.engine.tiles import full_set
from reference_engine.rules import Catalog


class OwnRandom(random.Random):
    """Replaces random() alone: Python then draws below n without getrandbits."""

    def random(self) -> float:
        return super().random()


class OwnBits(random.Random):
    """Replaces getrandbits (and random): below n is still drawn from getrandbits."""

    def getrandbits(self, k: int) -> int:
        return super().getrandbits(k)

    def random(self) -> float:
        return super().random()


class OwnShuffle(random.Random):
    """Shuffles its own way: reversed, then a plain shuffle."""

    def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
        x.reverse()
        super().shuffle(x)


KINDS = (random.Random, OwnRandom, OwnBits, OwnShuffle)


def test_the_draws_agree_with_this_python() -> None:
    assert draws._agrees()


def test_which_generators_are_drawn_from_directly() -> None:
    assert draws.bits_source(random.Random(1)) is not None
    assert draws.bits_source(OwnBits(1)) is not None
    assert draws.bits_source(OwnRandom(1)) is None
    assert draws.bits_source(OwnShuffle(1)) is None


@given(seed=st.integers(0, 2**64), count=st.integers(0, 80), kind=st.sampled_from(KINDS))
def test_shuffle_is_the_generators_own(seed: int, count: int, kind: type[random.Random]) -> None:
    ours, theirs = kind(seed), kind(seed)
    mine, order = list(range(count)), list(range(count))
    draws.shuffle(ours, mine)
    theirs.shuffle(order)
    assert mine == order
    assert ours.getstate() == theirs.getstate()


@given(
    seed=st.integers(0, 2**64),
    counts=st.lists(st.integers(1, 2**40), min_size=1, max_size=20),
    kind=st.sampled_from(KINDS),
)
def test_a_number_below_is_randrange(
    seed: int, counts: list[int], kind: type[random.Random]
) -> None:
    ours, theirs = kind(seed), kind(seed)
    assert [draws.number_below(ours, n) for n in counts] == [theirs.randrange(n) for n in counts]
    assert ours.getstate() == theirs.getstate()


@given(seed=st.integers(0, 2**32), counts=st.lists(st.integers(1, 300), min_size=1))
def test_below_from_getrandbits_is_randrange(seed: int, counts: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    bits = draws.bits_source(ours)
    assert bits is not None
    assert [draws.below(bits, n) for n in counts] == [theirs.randrange(n) for n in counts]


def _public_loop(hand: Hand, rng: random.Random) -> None:
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.apply(legal[0] if len(legal) == 1 else legal[rng.randrange(len(legal))])


def test_every_kind_of_generator_deals_and_plays_as_its_own_methods() -> None:
    """Deals and playouts with a generator of each kind: the tiles as rng.shuffle
    leaves them, and the hand the public loop plays with rng.randrange."""
    rules = Catalog.shipped().resolve("german")  # drawing, and a lot for the opener
    for kind in KINDS:
        for seed in range(30):
            deal = Deal.shuffled(rules, 2, kind(seed))
            # What rng.shuffle does to the tiles in canonical order, dealt in turn.
            rng = kind(seed)
            order = list(range(28))
            rng.shuffle(order)
            shuffled = [full_set(rules.max_pip)[index] for index in order]
            size = len(deal.hands[0])
            assert [sorted(hand) for hand in deal.hands] == [
                sorted(shuffled[:size]),
                sorted(shuffled[size : 2 * size]),
            ]
            assert list(deal.boneyard) == shuffled[2 * size :]
            fused, stepped = Hand(rules, deal), Hand(rules, deal)
            play_out(fused, kind(seed))
            _public_loop(stepped, kind(seed))
            assert fused.history == stepped.history
            assert fused.outcome == stepped.outcome
