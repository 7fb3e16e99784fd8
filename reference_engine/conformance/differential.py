"""Random differential games: an engine's legal actions compared with the reference's.

:func:`differential` deals random hands, plays them on both engines with the
same random choices, and reports the first step of each game where the legal
sets differ, or where the engine refuses an action the reference allows.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine.deal import Deal
from ..rules import Catalog
from .cases import Target
from .engine import Engine, EngineFailure, EngineRefusal, ReferenceEngine
from .expectations import Mismatch, canonical_set
from .verdicts import EngineUnavailable

if TYPE_CHECKING:
    from .runner import Runner


@dataclass
class Divergence:
    """Where an engine's legal actions first differ from the reference's in a random game."""

    variant: str
    options: Mapping[str, str]
    deal: Mapping[str, Any]
    history: list[str]
    expected: list[str]
    actual: list[str]


def differential(
    runner: Runner,
    targets: Sequence[Target],
    games: int,
    seed: int,
    players_for: Callable[[Target], int],
    catalog: Catalog | None = None,
) -> tuple[int, list[Divergence], list[str]]:
    """Play ``games`` random hands per target on both engines, comparing legal sets each step.

    Returns the number of hands compared, the divergences (the one with the
    shortest history first, per target), and error messages.
    """
    catalog = catalog or Catalog.shipped()
    rng = random.Random(seed)
    compared = 0
    found: list[Divergence] = []
    errors: list[str] = []
    for target in targets:
        rules = catalog.resolve(target.variant, target.options)
        players = players_for(target)
        shortest: Divergence | None = None
        for _ in range(games):
            deal = Deal.shuffled(rules, players, rng)
            reference = ReferenceEngine(catalog)
            reference.new_match(target.variant, target.options, players)
            reference.new_hand(deal.to_data())
            try:
                engine = runner.engine()
                engine.new_match(target.variant, target.options, players)
                engine.new_hand(deal.to_data())
                divergence = _compare_game(engine, reference, rng, target, deal)
            except EngineUnavailable as unavailable:
                errors.append(f"{target.label()}: not run: {unavailable.message}")
                return compared, found, errors
            except EngineFailure as failure:
                errors.append(f"{target.label()}: {failure.message}")
                runner.count_failure(failure)
                runner.restart()
                break
            except EngineRefusal as refusal:
                errors.append(f"{target.label()}: the engine refused a valid request: {refusal}")
                break
            runner.failures_in_a_row = 0
            compared += 1
            if divergence and (shortest is None or len(divergence.history) < len(shortest.history)):
                shortest = divergence
        if shortest is not None:
            found.append(shortest)
    return compared, found, errors


def _compare_game(
    engine: Engine, reference: ReferenceEngine, rng: random.Random, target: Target, deal: Deal
) -> Divergence | None:
    history: list[str] = []
    while reference.to_act() is not None:
        expected = sorted(canonical_set(reference.legal(), "the reference"))
        try:
            actual = sorted(canonical_set(engine.legal(), "the engine"))
        except Mismatch as mismatch:
            actual = [mismatch.message]
        if actual != expected:
            return Divergence(
                target.variant, target.options, deal.to_data(), history, expected, actual
            )
        action = expected[rng.randrange(len(expected))]
        reference.apply(action, None)
        reason = engine.apply(action, None)
        history.append(action)
        if reason is not None:
            return Divergence(
                target.variant,
                target.options,
                deal.to_data(),
                history[:-1],
                [action],
                [f"refused: {reason}"],
            )
    return None
