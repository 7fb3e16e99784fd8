"""The bare playout the benchmark measures against plays the engine's very game.

benchmarks/bare_playout.py is a hand-written bitmask playout of the rules the
benchmark gives the engine (benchmarks/bench_engine.py, ``matador_rules``); the
ratio of their speeds means something only if both play the same hands. Both
deal and choose with the same seeded generator, so for every seed they must go
through the same positions: at every step the baseline's legal moves are the
engine's legal actions (tile, end and value left open, in the same order; a
pass as a pass), and the hand ends the same way, with the same pips and points.
The benchmark times the engine through ``play_out``, which plays the public
loop's hands (tests/test_playout.py); it is checked here against the baseline too.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from reference_engine.engine.actions import PASS, AnyAction, Play
from reference_engine.engine.deal import Deal
from reference_engine.engine.hand import Hand
from reference_engine.engine.playout import play_out
from reference_engine.rules.model import Rules

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
#: A move as the baseline writes it: (tile index, end, value left open).
Move = tuple[int, int | None, int | None]
SEEDS = range(1500)


def _load(name: str) -> ModuleType:
    """A script of benchmarks/ as a module (the folder is not a package)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


bare = _load("bare_playout")
bench = _load("bench_engine")


def _move(action: AnyAction) -> Move:
    """An engine action written as the baseline writes its moves."""
    if action is PASS:
        return bare.PASS  # type: ignore[no-any-return]
    assert isinstance(action, Play), action
    return (bare.TILES.index(tuple(action.tile)), action.end, action.open)


def _engine_hand(rules: Rules, players: int, seed: int) -> tuple[Hand, list[list[Move]]]:
    """The engine's hand for ``seed``, played as the benchmark plays it, and its legal moves."""
    rng = random.Random(seed)
    hand = Hand(rules, Deal.shuffled(rules, players, rng))
    steps: list[list[Move]] = []
    while not hand.is_over:
        legal = hand.legal_actions()
        steps.append([_move(action) for action in legal])
        hand.apply(legal[0] if len(legal) == 1 else legal[rng.randrange(len(legal))])
    return hand, steps


@pytest.mark.parametrize("players", [4, 2])
def test_the_bare_playout_plays_the_engines_hands(players: int) -> None:
    rules = bench.matador_rules(players)
    for seed in SEEDS:
        hand, steps = _engine_hand(rules, players, seed)
        trace: list[list[Move]] = []
        result = bare.play_hand(random.Random(seed), players, bench.HAND_SIZE, trace)
        for number, (ours, theirs) in enumerate(zip(steps, trace, strict=False)):
            assert theirs == ours, f"seed {seed}, step {number}"
        assert len(trace) == len(steps), f"seed {seed}"
        outcome = hand.outcome
        assert outcome is not None
        assert (result.termination, result.winner) == (outcome.termination.value, outcome.winner)
        assert (result.pips, result.points) == (outcome.pips, outcome.points), f"seed {seed}"
        assert result.actions == len(hand.history)
        assert result.placed == sum(isinstance(action, Play) for action in hand.history)
        fused_rng = random.Random(seed)
        fused = Hand(rules, Deal.shuffled(rules, players, fused_rng))
        play_out(fused, fused_rng)
        assert fused.history == hand.history, f"seed {seed}"
        assert fused.outcome == outcome


def test_the_engine_plays_pagat_dealt_as_the_peer() -> None:
    """Only the deal changes: the placement, passing and scoring rules stay pagat's."""
    pagat = bench.Catalog.shipped().resolve(bench.VARIANT)
    for players in (4, 2):
        rules = bench.matador_rules(players)
        assert rules.players == (players,)
        assert rules.hand_size.for_players(players) == bench.HAND_SIZE
        assert not rules.reserve.for_players(players)
        for name in ("matador_modes", "opener", "opening_tile", "pass_when", "points"):
            assert getattr(rules, name) == getattr(pagat, name), name
