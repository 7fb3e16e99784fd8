"""Ways of choosing among the legal actions: the strategy interface and the built-in players.

A strategy is any callable ``strategy(hand, legal, rng) -> action``:

* ``hand`` is the :class:`~reference_engine.engine.hand.Hand` in play, with the
  seat to act in ``hand.current``;
* ``legal`` is ``hand.legal_actions()``, never empty, in canonical order;
* ``rng`` is the :class:`random.Random` the caller seeds, the only source of
  chance a strategy may use (so a seeded game replays exactly);
* it returns one element of ``legal`` (the very object: the engine recognises
  it by identity, which is fastest).

A fair strategy looks only at what the seat to act can see: its own tiles
(``hand.hand_of(hand.current)``), the open ends, the actions played so far
(``hand.history``), how many tiles each seat holds and the boneyard count.
The built-in ones do. `matador play` and `matador simulate` take them by name
(:data:`STRATEGIES`), or any callable as ``python:MODULE:NAME``
(:func:`strategy_named`).

``keep-matadors`` and ``blocker`` follow the sources' own advice (the French
texts' strategy sections): keep the matadors, [0-0] longest, and spend one only
when nothing else goes; close an end against a player who is likely short of
matadors, so that only a matador can answer it; do not open a blank end
without a matador of one's own.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import comb

from ..errors import InputProblem
from .actions import DRAW, PASS, AnyAction, Play
from .expert import expert
from .hand import Hand

Strategy = Callable[[Hand, Sequence[AnyAction], random.Random], AnyAction]


def random_choice(hand: Hand, legal: Sequence[AnyAction], rng: random.Random) -> AnyAction:
    """Any legal action, uniformly."""
    return legal[rng.randrange(len(legal))]


def first_legal(hand: Hand, legal: Sequence[AnyAction], rng: random.Random) -> AnyAction:
    """The first legal action in canonical order."""
    return legal[0]


def _weight(play: Play) -> tuple[int, list[int]]:
    """Heavier tiles first; among placements of one tile, the first in canonical order."""
    return (play.tile.pips, [-k for k in play.sort_key()])


def heaviest(hand: Hand, legal: Sequence[AnyAction], rng: random.Random) -> AnyAction:
    """Shed pips: play the heaviest tile that goes; draw or pass only when nothing goes."""
    plays = [action for action in legal if isinstance(action, Play)]
    if not plays:
        return legal[0]
    return max(plays, key=_weight)


def _is_matador(hand: Hand, play: Play) -> bool:
    table = hand.table
    return bool(table.matador_mask >> table.index[play.tile] & 1)


def keep_matadors(hand: Hand, legal: Sequence[AnyAction], rng: random.Random) -> AnyAction:
    """Heaviest first, but a matador only when nothing else goes (not even a draw or pass).

    When a matador must go, the heaviest goes first, so [0-0] is kept longest.
    """
    plays = [action for action in legal if isinstance(action, Play)]
    plain = [play for play in plays if not _is_matador(hand, play)]
    if plain:
        return max(plain, key=_weight)
    for fallback in (DRAW, PASS):
        if fallback in legal:
            return fallback
    return max(plays, key=_weight)


def blocker(hand: Hand, legal: Sequence[AnyAction], rng: random.Random) -> AnyAction:
    """Keep-matadors, closing ends against a next player likely short of matadors.

    The next player is taken to be short when, by the tiles this seat cannot
    see, the chance that none of their tiles is a matador is at least one
    half (the sources' own figure: 43% for a hand of five). Then, among the
    placements, the one leaving the fewest unseen ordinary tiles able to
    answer any open end goes first (an end only a matador answers leaves
    none). Otherwise it plays as keep-matadors, except that it will not leave
    such a closed end while holding no matador of its own.
    """
    plays = [action for action in legal if isinstance(action, Play) and action.end is not None]
    if not plays:
        return keep_matadors(hand, legal, rng)
    table = hand.table
    mine = table.mask(hand.hand_of(hand.current))
    unseen = (1 << len(table.tiles)) - 1 & ~mine & ~_played(hand)
    plain = [play for play in plays if not _is_matador(hand, play)] or plays
    answers = {
        id(play): _answers_after(hand, play) & unseen & ~table.matador_mask for play in plain
    }
    if _likely_short(hand, unseen):
        return min(plain, key=lambda play: (answers[id(play)].bit_count(), _lighter(play)))
    chosen = keep_matadors(hand, legal, rng)
    if isinstance(chosen, Play) and chosen.end is not None and not mine & table.matador_mask:
        open_ones = [play for play in plain if answers[id(play)]]
        if open_ones and not answers[id(chosen)]:
            return max(open_ones, key=_weight)
    return chosen


def _lighter(play: Play) -> tuple[int, list[int]]:
    pips, order = _weight(play)
    return (-pips, [-k for k in order])


def _played(hand: Hand) -> int:
    """The tiles on the table, as a mask."""
    table = hand.table
    mask = 0
    for action in hand.history:
        if isinstance(action, Play):
            mask |= 1 << table.index[action.tile]
    return mask


def _answers_after(hand: Hand, play: Play) -> int:
    """Every tile that could be placed on some open end once ``play`` is down."""
    table = hand.table
    end, _, leaves, adds = table.effects[id(play)]
    ends = list(hand.end_kinds)
    ends[end] = leaves
    if adds >= 0:
        ends.append(adds)
    fit = 0
    for kind in ends:
        fit |= table.fit(kind)
    return fit


def _likely_short(hand: Hand, unseen: int) -> bool:
    """Whether the next seat holds no matador with a chance of one half or more."""
    table = hand.table
    following = (hand.current + 1) % hand.players
    held = len(hand.hand_of(following))
    pool = unseen.bit_count()
    matadors = (unseen & table.matador_mask).bit_count()
    if held > pool or held == 0:
        return False
    return comb(pool - matadors, held) * 2 >= comb(pool, held)


#: The built-in strategies by name.
STRATEGIES: dict[str, Strategy] = {
    "random": random_choice,
    "first": first_legal,
    "heaviest": heaviest,
    "keep-matadors": keep_matadors,
    "blocker": blocker,
    "expert": expert,
}


class UnknownStrategy(InputProblem, ValueError):
    """A strategy name that is neither built in nor an importable ``python:MODULE:NAME``."""


def strategy_named(name: str) -> Strategy:
    """A built-in strategy, or ``python:MODULE:NAME`` (or ``python:FILE.py:NAME``), any
    callable a module defines, looked for first in the current folder and loaded into
    this process (which trusts its code; ``simulate`` plays one in a process of its
    own: :func:`reference_engine.simulate.hosted.strategy_for`)."""
    from ..pyload import PythonSpecError, load_callable

    found = STRATEGIES.get(name)
    if found is not None:
        return found
    rest = python_spec(name)
    try:
        return load_callable(
            rest, noun="NAME", example="my_strategies:greedy", purpose="chooses an action"
        )
    except PythonSpecError as error:
        raise UnknownStrategy(f"strategy {name!r}: {error}") from None


def python_spec(name: str) -> str:
    """The SPEC of a ``python:SPEC`` strategy name; UnknownStrategy for any other unknown name."""
    prefix, _, rest = name.partition(":")
    if prefix != "python" or not rest:
        raise UnknownStrategy(
            f"no strategy {name!r}: give one of {', '.join(STRATEGIES)} or python:MODULE:NAME"
        )
    return rest
