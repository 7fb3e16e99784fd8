"""Random differential games: an engine played beside the reference, everything compared.

:func:`differential` plays random matches on the engine under test and on an
independent reference engine with the same deals and the same choices, for
every player count a variant allows, for each option combination sampled
(the defaults, and each other value of each option the engine declares), and
for several strategies of choosing among the legal actions. At every step it
compares the seat to act, the legal actions and the ends; at the end of each
hand, the result (how it ended, the winner, pips and points per seat); after
each hand, the match's scores, hands won and winner. It keeps going after a
divergence as long as both engines accept the same action, and reports each
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
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..engine.actions import Action
from ..engine.deal import Deal
from ..engine.match import Match
from ..engine.strategies import STRATEGIES
from ..errors import IllegalActionError, NotationError
from ..rules import Catalog, Rules
from . import attribution
from .attribution import Position
from .cases import Target
from .engine import Engine, EngineFailure, EngineRefusal, ReferenceEngine
from .expectations import Mismatch, canonical_set
from .verdicts import Check, EngineUnavailable

if TYPE_CHECKING:
    from .runner import Runner

#: The strategies random games cycle through.
GAME_STRATEGIES = ("random", "heaviest", "first")

#: At most this many hands in one random match.
MAX_HANDS = 3

#: The isolated reference program (``-I``: no PYTHONPATH, no user site, no cwd).
ISOLATED_REFERENCE = f"{sys.executable} -I -m reference_engine.cli engine"


@dataclass(frozen=True)
class Divergence:
    """Where an engine and the reference part in a random game, and how to replay it."""

    check: Check
    #: The result or match key compared (``points``), empty for a step's check.
    key: str
    target: Target
    players: int
    strategy: str
    #: The match's deals up to the divergence, and the actions played in each hand.
    deals: tuple[Mapping[str, Any], ...]
    histories: tuple[tuple[str, ...], ...]
    expected: Any
    actual: Any
    rules: tuple[str, ...]
    position: str = ""

    @property
    def variant(self) -> str:
        """The variant id the game was played under."""
        return self.target.variant

    @property
    def options(self) -> Mapping[str, str]:
        """The option values the game was played with."""
        return self.target.options

    @property
    def history(self) -> list[str]:
        """The actions of the hand the divergence is in."""
        return list(self.histories[-1]) if self.histories else []

    @property
    def deal(self) -> Mapping[str, Any]:
        """The deal of the hand the divergence is in."""
        return self.deals[-1] if self.deals else {}

    @property
    def size(self) -> int:
        """How long a game shows it: every action of every hand, and the hands."""
        return sum(len(history) for history in self.histories) + len(self.histories)

    @property
    def kind(self) -> tuple[str, str, str, tuple[str, ...]]:
        """What makes two divergences the same kind: variant, check, key, rules."""
        return (self.target.label(), self.check.value, self.key, self.rules)

    @property
    def what(self) -> str:
        """The check in words."""
        return f"{self.check.value} {self.key}".strip()


@dataclass
class DifferentialResult:
    """What the random games found."""

    hands: int = 0
    divergences: list[Divergence] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def game_targets(catalog: Catalog, variants: Sequence[str], runner: Runner) -> list[Target]:
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


def reference_for(runner: Runner) -> Callable[[], Engine]:
    """The independent reference: isolated in its own process when the engine is in-process."""
    from .process import ProcessEngine

    in_process = not _is_program(runner)
    if in_process:
        return lambda: ProcessEngine(ISOLATED_REFERENCE, timeout=60, start_timeout=60)
    return ReferenceEngine


def _is_program(runner: Runner) -> bool:
    from .process import ProcessEngine

    try:
        return isinstance(runner.engine(), ProcessEngine)
    except EngineUnavailable:
        return True


def differential(
    runner: Runner,
    targets: Sequence[Target],
    games: int,
    seed: int,
    catalog: Catalog | None = None,
    *,
    reference: Callable[[], Engine] | None = None,
    progress: Callable[[int], None] | None = None,
) -> DifferentialResult:
    """Play ``games`` random hands per target on the engine and the reference, comparing all."""
    catalog = catalog or Catalog.shipped()
    make_reference = reference if reference is not None else reference_for(runner)
    result = DifferentialResult()
    found: dict[tuple[str, str, str, tuple[str, ...]], Divergence] = {}
    oracle: Engine | None = None
    try:
        oracle = make_reference()
        for target in targets:
            rules = catalog.resolve(target.variant, target.options)
            played = 0
            for index, (players, strategy) in enumerate(_plan(rules, games)):
                if played >= games:
                    break
                rng = random.Random(f"{seed}:{target.label()}:{index}")
                try:
                    engine = runner.engine()
                    game = _Game(engine, oracle, rules, target, players, strategy, rng)
                    game.max_hands = min(MAX_HANDS, games - played)
                    hands = game.play()
                except EngineUnavailable as unavailable:
                    result.errors.append(f"{target.label()}: not run: {unavailable.message}")
                    return merged_result(result, found)
                except EngineFailure as failure:
                    result.errors.append(f"{target.label()}: {failure.message}")
                    runner.count_failure(failure)
                    runner.restart()
                    break
                except EngineRefusal as refusal:
                    if refusal.code == "unsupported":
                        continue  # a player count or option the engine does not play
                    result.errors.append(
                        f"{target.label()}: the engine refused a valid request: {refusal}"
                    )
                    break
                runner.failures_in_a_row = 0
                played += hands
                result.hands += hands
                if progress is not None:
                    progress(hands)
                keep_shortest(found, game.divergences)
    finally:
        if oracle is not None:
            oracle.close()
    return merged_result(result, found)


def keep_shortest(
    found: dict[tuple[str, str, str, tuple[str, ...]], Divergence],
    divergences: Sequence[Divergence],
) -> None:
    """Keep, for each kind of divergence, the shortest game that shows it."""
    for divergence in divergences:
        best = found.get(divergence.kind)
        if best is None or divergence.size < best.size:
            found[divergence.kind] = divergence


def merged_result(
    result: DifferentialResult, found: Mapping[Any, Divergence]
) -> DifferentialResult:
    result.divergences = sorted(found.values(), key=lambda d: (d.target.label(), d.size))
    return result


def _plan(rules: Rules, games: int) -> Iterator[tuple[int, str]]:
    """Player count and strategy of each match, cycling through both.

    A match ends early when the engine cannot follow the reference's line (no
    action both allow), so matches are offered until ``games`` hands were
    played to their end, at most ``10 * games`` of them.
    """
    combos = [(players, strategy) for players in rules.players for strategy in GAME_STRATEGIES]
    for index in range(10 * max(1, games)):
        yield combos[index % len(combos)]


class _Game:
    """One random match played on both engines, step by step."""

    def __init__(
        self,
        engine: Engine,
        oracle: Engine,
        rules: Rules,
        target: Target,
        players: int,
        strategy: str,
        rng: random.Random,
    ) -> None:
        self.engine, self.oracle, self.rules = engine, oracle, rules
        self.target, self.players, self.strategy, self.rng = target, players, strategy, rng
        self.mirror = Match(rules, players)
        self.deals: list[Mapping[str, Any]] = []
        self.histories: list[list[str]] = []
        self.divergences: list[Divergence] = []
        self.max_hands = MAX_HANDS

    def play(self) -> int:
        """Play the match; the number of hands played to their end on both engines."""
        self.oracle.new_match(self.target.variant, self.target.options, self.players)
        self.engine.new_match(self.target.variant, self.target.options, self.players)
        finished = 0
        for _ in range(self.max_hands):
            if self.mirror.hands:
                self.mirror.close_hand()
            if self.mirror.is_over:
                break
            deal = Deal.shuffled(
                self.rules, self.players, self.rng, designated=self.mirror.expected_designated()
            )
            data = deal.to_data()
            self.deals.append(data)
            self.histories.append([])
            self.mirror.new_hand(deal)
            self.oracle.new_hand(data)
            self.engine.new_hand(data)
            if not self._play_hand():
                break
            finished += 1
            self._compare_keys(Check.MATCH, self.oracle.match_state(), self.engine.match_state())
        return finished

    def _play_hand(self) -> bool:
        """Play one hand to its end; False when the engine cannot follow the line."""
        hand = self.mirror.hands[-1]
        strategy = STRATEGIES[self.strategy]
        while True:
            position = Position(self.rules, hand)
            seat = self.oracle.to_act()
            self._compare(Check.TO_ACT, "", seat, self.engine.to_act(), position)
            if seat is None:
                self._compare_keys(Check.RESULT, self.oracle.result(), self.engine.result())
                return True
            expected = canonical_set(self.oracle.legal(), "the reference")
            try:
                actual = canonical_set(self.engine.legal(), "the engine")
            except Mismatch as mismatch:
                actual = {mismatch.message}
            self._compare(Check.LEGAL, "", sorted(expected), sorted(actual), position)
            common = sorted(expected & actual)
            if not common:
                return False  # no action both allow: the engine cannot follow from here
            choices = [Action.parse(text) for text in common]
            action = str(strategy(hand, choices, self.rng))
            behind = attribution.legal_rules(position, [action])  # read before it is played
            self.oracle.apply(action, None)
            reason = self.engine.apply(action, None)
            if reason is not None:  # the engine refuses what it offered
                self._compare(Check.ACCEPTED, "", "accepted", reason, position, behind)
                return False
            self.histories[-1].append(action)
            try:
                hand.apply(Action.parse(action))
            except (IllegalActionError, NotationError):
                return False
            expected_ends = [" ".join(end.split()) for end in self.oracle.ends()]
            actual_ends = [" ".join(end.split()) for end in self.engine.ends()]
            self._compare(Check.ENDS, "", expected_ends, actual_ends, position, behind)

    def _compare_keys(
        self, check: Check, expected: Mapping[str, Any] | None, actual: Mapping[str, Any] | None
    ) -> None:
        hand = self.mirror.hands[-1] if self.mirror.hands else None
        position = Position(self.rules, hand)
        if expected is None or actual is None:
            self._compare(check, "", expected, actual, position)
            return
        for key, value in expected.items():
            self._compare(check, key, value, actual.get(key), position)

    def _compare(
        self,
        check: Check,
        key: str,
        expected: Any,
        actual: Any,
        position: Position,
        behind: tuple[str, ...] | None = None,
    ) -> None:
        if expected == actual:
            return
        self.divergences.append(
            Divergence(
                check=check,
                key=key,
                target=self.target,
                players=self.players,
                strategy=self.strategy,
                deals=tuple(self.deals),
                histories=tuple(tuple(history) for history in self.histories),
                expected=expected,
                actual=actual,
                rules=behind
                if behind is not None
                else _rules(check, key, expected, actual, position),
                position="",
            )
        )


def _rules(
    check: Check, key: str, expected: Any, actual: Any, position: Position
) -> tuple[str, ...]:
    if check is Check.TO_ACT:
        return attribution.to_act_rules(position)
    if check is Check.LEGAL:
        return attribution.legal_rules(position, set(expected) ^ set(actual))
    if check is Check.RESULT:
        return attribution.result_rules(position, key)
    return attribution.match_rules(position.rules, key)
