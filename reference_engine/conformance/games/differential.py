"""Random differential games: an engine played beside the reference, everything compared.

:func:`differential` plays random matches on the engine under test and on an
independent reference engine with the same deals and the same choices, for
every player count a variant allows, for each option combination sampled
(the defaults, and each other value of each option the engine declares), and
for several strategies of choosing among the legal actions. At every step it
compares the seat to act, the legal actions and the ends; at the end of each
hand, the result (how it ended, the winner, pips and points per seat); after
each hand, the match's scores, hands won and winner. It keeps going after a
divergence as long as both engines accept the same action; where they part
(a hand or match over on one side only, a request refused) the match stops
with that divergence and the next match begins (:mod:`.randomgame`). It reports each
kind of divergence once (per variant, check and rules behind it), by the
shortest game that shows it, with the deals and histories that reproduce it.

The reference is independent of the engine under test: when the engine is a
Python object in this process, the reference runs as a separate program
started in isolated mode (``python -I``, which ignores ``PYTHONPATH``), so a
modified copy of this package put in front of the path is never compared
with itself.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from ...rules import Catalog, Rules
from ..judging.divergences import DifferentialResult, Divergence, GameError
from ..judging.verdicts import EngineUnavailable
from ..protocol.interface import (
    Engine,
    EngineFailure,
    EngineInfo,
    EngineRefusal,
    ReferenceEngine,
)
from ..suite.casedata import Target
from .randomgame import MAX_HANDS, RandomMatch, Unsupported

__all__ = [
    "GAME_STRATEGIES",
    "MAX_HANDS",
    "DifferentialResult",
    "Divergence",
    "Session",
    "differential",
    "game_targets",
]


class Session(Protocol):
    """The engine's session the games are played on (the runner's, :mod:`..session.runner`).

    It starts the engine and gives it up after too many failures in a row; the
    games tell it each failure and each game finished without one.
    """

    @property
    def info(self) -> EngineInfo | None:
        """What the engine said in ``hello``, once it was greeted."""

    def engine(self) -> Engine:
        """The live engine, started if need be; EngineUnavailable if it cannot be."""

    def count_failure(self, failure: EngineFailure) -> None:
        """One more failure in a row; the session gives up on the engine at its limit."""

    def count_success(self) -> None:
        """A game or case ended without a failure: the count in a row starts again."""

    def restart(self) -> None:
        """Throw the engine away; the next :meth:`engine` starts a new one."""


#: The strategies random games cycle through.
GAME_STRATEGIES = ("random", "heaviest", "first")

#: The isolated reference program (``-I``: no PYTHONPATH, no user site, no cwd).
ISOLATED_REFERENCE = f"{sys.executable} -I -m reference_engine.cli engine"


def game_targets(catalog: Catalog, variants: Sequence[str], runner: Session) -> list[Target]:
    """The defaults of each variant the engine declares, and each other option value it does."""
    info = runner.info
    targets: list[Target] = []
    for variant in variants or catalog.ids():
        if info is not None and info.supports(variant, {}) is not None:
            continue
        targets.append(Target(variant))
        for option in catalog.resolve(variant).options:
            for value in option.values:
                options = {option.name: value.name}
                if value.name == option.default:
                    continue
                if info is None or info.supports(variant, options) is None:
                    targets.append(Target(variant, options))
    return targets


def reference_for(runner: Session) -> Callable[[], Engine]:
    """The independent reference: isolated in its own process when the engine is in-process."""
    from ..transport.process import ProcessEngine

    in_process = not _is_program(runner)
    if in_process:
        return lambda: ProcessEngine(ISOLATED_REFERENCE, timeout=60, start_timeout=60)
    return ReferenceEngine


def _is_program(runner: Session) -> bool:
    from ..transport.process import ProcessEngine

    try:
        return isinstance(runner.engine(), ProcessEngine)
    except EngineUnavailable:
        return True


def differential(
    runner: Session,
    targets: Sequence[Target],
    games: int,
    seed: int,
    catalog: Catalog | None = None,
    *,
    reference: Callable[[], Engine] | None = None,
    progress: Callable[[int], None] | None = None,
    into: DifferentialResult | None = None,
) -> DifferentialResult:
    """Play ``games`` random hands per target on the engine and the reference, comparing all.

    The result is filled in ``into`` (a new one if not given) as the games go,
    so a caller stopped by a signal keeps what was found before it.
    """
    catalog = catalog or Catalog.shipped()
    make_reference = reference if reference is not None else reference_for(runner)
    result = into if into is not None else DifferentialResult()
    oracle: Engine | None = None
    try:
        oracle = make_reference()
        for target in targets:
            if not _play_target(runner, oracle, catalog, target, games, seed, result, progress):
                break
    finally:
        if oracle is not None:
            oracle.close()
    return result


def _play_target(
    runner: Session,
    oracle: Engine,
    catalog: Catalog,
    target: Target,
    games: int,
    seed: int,
    result: DifferentialResult,
    progress: Callable[[int], None] | None,
) -> bool:
    """Play one target's matches into ``result``; False when the engine is unavailable.

    A match the engine parts from the reference in ends there, and the next one
    begins; a broken protocol (a crash, a hang) is an error with its game, and
    the next game begins on a fresh engine, as the scripted runner restarts
    one; an engine the runner gave up on (too many failures in a row) ends them all.
    """
    rules = catalog.resolve(target.variant, target.options)
    played = 0
    for index, (players, strategy) in enumerate(_plan(rules, games)):
        if played >= games:
            break
        rng = random.Random(f"{seed}:{target.label()}:{index}")
        game: RandomMatch | None = None
        try:
            engine = runner.engine()
            info = runner.info
            game = RandomMatch(
                engine,
                oracle,
                rules,
                target,
                players,
                strategy,
                rng,
                seed=seed,
                game=index + 1,
                declaration=None if info is None else info.declaration(target.variant),
            )
            game.max_hands = min(MAX_HANDS, games - played)
            game.play()
        except Unsupported:
            continue  # a player count or option the engine does not play
        except EngineUnavailable as unavailable:
            result.errors.append(GameError(target.label(), f"not run: {unavailable.message}"))
            return False
        except EngineFailure as failure:
            # like the scripted runner: a fresh engine for the next game, until too many in a row
            message, kind = failure.message, failure.kind.value
            result.errors.append(
                game.error(message, kind)
                if game is not None
                else GameError(target.label(), message)
            )
            runner.count_failure(failure)
            runner.restart()
            continue
        except EngineRefusal as refusal:  # the reference itself refused: the judge's fault
            message = f"the reference refused a request: {refusal}"
            result.errors.append(
                game.error(message) if game is not None else GameError(target.label(), message)
            )
            return True
        finally:
            if game is not None:
                result.hands += game.hands
                played += game.hands
                result.keep(game.divergences)
                if progress is not None and game.hands:
                    progress(game.hands)
        runner.count_success()
    return True


def _plan(rules: Rules, games: int) -> Iterator[tuple[int, str]]:
    """Player count and strategy of each match, cycling through both.

    A match ends early when the engine parts from the reference's line
    (:mod:`.randomgame`), so matches are offered until ``games`` hands were
    compared, at most ``10 * games`` of them.
    """
    combos = [(players, strategy) for players in rules.players for strategy in GAME_STRATEGIES]
    for index in range(10 * max(1, games)):
        yield combos[index % len(combos)]
