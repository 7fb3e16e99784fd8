"""The perfect-information search and the ``expert`` player built on it (issue: numbers
under good play).

* :class:`~reference_engine.engine.search.Search` finds, on small positions of every
  player count, the value an exhaustive minimax over the same hand finds;
* the expert decides from its seat's view only: dealing the tiles it cannot see
  otherwise, consistently with that view, changes nothing it does;
* it plays well: over seeded two-player hands, seats swapped, it outscores the best
  simple heuristic.
"""

from __future__ import annotations

import random

import pytest

from reference_engine.engine.deal import Deal
from reference_engine.engine.expert import expert, sample, view_of
from reference_engine.engine.hand import Hand
from reference_engine.engine.phase import Phase
from reference_engine.engine.scoring import side_of
from reference_engine.engine.search import Search
from reference_engine.engine.strategies import STRATEGIES
from reference_engine.rules import Catalog, Rules


def _rules(variant: str) -> Rules:
    return Catalog.shipped().resolve(variant)


def _position(rules: Rules, players: int, seed: int, left: int) -> Hand | None:
    """A hand played at random until ``left`` tiles are still in hands and boneyard."""
    rng = random.Random(seed)
    hand = Hand(rules, Deal.shuffled(rules, players, rng))
    while not hand.is_over and _tiles_left(hand) > left:
        hand.apply(rng.choice(hand.legal_actions()))
    return None if hand.is_over or hand.phase is not Phase.PLAY else hand


def _tiles_left(hand: Hand) -> int:
    return sum(len(hand.hand_of(seat)) for seat in range(hand.players)) + hand.boneyard_count


def _minimax(hand: Hand, seat: int) -> float:
    """Every line of play, no pruning, no table: the value the search must find."""
    if hand.is_over:
        outcome = hand.outcome
        assert outcome is not None
        if outcome.winner is None:
            return 0.0
        mine = side_of(hand.rules, hand.players, seat)
        points = outcome.points[outcome.winner]
        return float(points if outcome.winner == mine else -points)
    values = []
    for action in hand.legal_actions():
        after = hand.copy()
        after.apply(action)
        values.append(_minimax(after, seat))
    ours = side_of(hand.rules, hand.players, hand.current) == side_of(
        hand.rules, hand.players, seat
    )
    return max(values) if ours else min(values)


@pytest.mark.parametrize(
    ("variant", "players"),
    [("gamerules-com", 2), ("german", 3), ("pagat", 4), ("dutch", 2), ("wikipedia-brandreth", 3)],
)
def test_the_search_finds_what_an_exhaustive_search_finds(variant: str, players: int) -> None:
    rules = _rules(variant)
    checked = 0
    for seed in range(60):
        hand = _position(rules, players, seed, left=12)
        if hand is None:
            continue
        for seat in range(players):
            assert Search(seat).value(hand) == _minimax(hand, seat), (variant, seed, seat)
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def test_the_search_values_each_action_as_the_hand_after_it() -> None:
    rules = _rules("gamerules-com")
    hand = _position(rules, 2, 3, left=12)
    assert hand is not None
    seat = hand.current
    for action, value in Search(seat).action_values(hand):
        after = hand.copy()
        after.apply(action)
        assert value == _minimax(after, seat)


@pytest.mark.parametrize(("variant", "players"), [("gamerules-com", 2), ("german", 3)])
def test_the_expert_never_reads_a_hidden_tile(variant: str, players: int) -> None:
    rules = _rules(variant)
    compared = 0
    for seed in range(40):
        hand = _position(rules, players, seed, left=16)
        if hand is None or len(hand.legal_actions()) < 2:
            continue
        view = view_of(hand)
        # the same view, the unseen tiles dealt otherwise: another hand the seat cannot
        # tell from this one
        other = sample(hand, view, random.Random(seed + 1000))
        assert view_of(other) == view
        assert other._hands != hand._hands or other._boneyard != hand._boneyard
        first = expert(hand, hand.legal_actions(), random.Random(7), samples=4, depth=6)
        second = expert(other, other.legal_actions(), random.Random(7), samples=4, depth=6)
        assert first == second
        compared += 1
    assert compared >= 5


def test_a_sample_keeps_what_the_seat_knows() -> None:
    rules = _rules("gamerules-com")
    for seed in range(30):
        hand = _position(rules, 2, seed, left=18)
        if hand is None:
            continue
        view = view_of(hand)
        guess = sample(hand, view, random.Random(seed))
        assert guess._hands[view.seat] == hand._hands[view.seat]
        assert [mask.bit_count() for mask in guess._hands] == list(view.counts)
        assert guess.boneyard_count == hand.boneyard_count
        for seat, void in enumerate(view.voids):
            if seat != view.seat:
                assert not guess._hands[seat] & void  # (a void the deal could respect)


def test_the_expert_outscores_the_best_heuristic_head_to_head() -> None:
    """Seeded two-player hands of gamerules-com, each dealt twice with the seats swapped."""
    rules = _rules("gamerules-com")
    rng = random.Random(11)
    points = {"expert": 0, "heaviest": 0}
    for game in range(12):
        for expert_seat in (0, 1):
            hand = Hand(rules, Deal.shuffled(rules, 2, random.Random(game)))
            while not hand.is_over:
                name = "expert" if hand.current == expert_seat else "heaviest"
                hand.apply(STRATEGIES[name](hand, hand.legal_actions(), rng))
            outcome = hand.outcome
            assert outcome is not None
            if outcome.winner is not None:
                winner = "expert" if outcome.winner == expert_seat else "heaviest"
                points[winner] += outcome.points[outcome.winner]
    assert points["expert"] > 1.5 * points["heaviest"], points


def test_the_search_benchmark_visits_its_budget_of_positions() -> None:
    """benchmarks/bench_search.py: our engine's depth-first search, by copy and apply."""
    import importlib.util
    import sys
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "benchmarks"
    sys.path.insert(0, str(folder))
    try:
        spec = importlib.util.spec_from_file_location("bench_search", folder / "bench_search.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(folder))
    search = module.matador_search(1, 300)
    visited = [search() for _ in range(3)]
    # (it stops at the first position past its budget, with that position's siblings)
    assert all(300 <= count < 330 for count in visited), visited
