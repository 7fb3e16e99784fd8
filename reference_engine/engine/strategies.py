"""Simple ways of choosing among the legal actions, for `matador play` and tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .actions import AnyAction, Play
from .hand import Hand

Strategy = Callable[[Hand, Sequence[AnyAction], random.Random], AnyAction]


def random_choice(hand: Hand, legal: Sequence[AnyAction], rng: random.Random) -> AnyAction:
    """Any legal action, uniformly."""
    return legal[rng.randrange(len(legal))]


def first_legal(hand: Hand, legal: Sequence[AnyAction], rng: random.Random) -> AnyAction:
    """The first legal action in canonical order."""
    return legal[0]


def heaviest(hand: Hand, legal: Sequence[AnyAction], rng: random.Random) -> AnyAction:
    """Shed pips: play the heaviest tile that goes; draw or pass only when nothing goes."""
    plays = [action for action in legal if isinstance(action, Play)]
    if not plays:
        return legal[0]
    return max(plays, key=lambda play: (play.tile.pips, [-k for k in play.sort_key()]))


STRATEGIES: dict[str, Strategy] = {
    "random": random_choice,
    "first": first_legal,
    "heaviest": heaviest,
}
