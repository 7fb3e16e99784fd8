"""What random differential games find: each divergence, and the games' running tally.

A :class:`Divergence` is one place where the engine under test and the
reference part in a random game: the check (the seat to act, the legal
actions, a request the engine refused, a hand's result, the match), the
rules behind it, the position, and the deals and actions that replay it. A
:class:`DifferentialResult` keeps, as the games go, how many hands were
compared, each kind of divergence once (by the shortest game that shows it)
and the errors (each a :class:`GameError`, with the game that replays it);
it is filled in place, so a run stopped half-way (a signal) still has
everything found before it stopped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..suite.casedata import Target
from .verdicts import Check

#: What makes two divergences the same kind: variant, check, key, rules.
Kind = tuple[str, str, str, tuple[str, ...]]


@dataclass(frozen=True)
class Divergence:
    """Where an engine and the reference part in a random game, and how to replay it."""

    check: Check
    #: The result or match key compared (``points``), or the request refused (``new_hand``).
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
    #: The position at the divergence, in the notation (as a case's deviation gives it).
    position: str = ""
    #: The seed of the random games, and this match's number among its variant's.
    seed: int | None = None
    game: int | None = None

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
    def hand(self) -> int:
        """The hand the divergence is in, from 1 (0: before the first deal)."""
        return len(self.deals)

    @property
    def step(self) -> int | None:
        """The step of its hand, from 1 (None for a hand's result or the match after it)."""
        if self.check in (Check.RESULT, Check.MATCH):
            return None
        return len(self.history) + 1

    @property
    def size(self) -> int:
        """How long a game shows it: every action of every hand, and the hands."""
        return sum(len(history) for history in self.histories) + len(self.histories)

    @property
    def kind(self) -> Kind:
        """What makes two divergences the same kind: variant, check, key, rules."""
        return (self.target.label(), self.check.value, self.key, self.rules)

    @property
    def what(self) -> str:
        """The check in words: ``result points``, ``request new_hand``."""
        return f"{self.check.value} {self.key}".strip()

    @property
    def message(self) -> str:
        """What happened, in a sentence."""
        if self.check is Check.REQUEST:
            return f"the engine refused the request {self.key}, which the reference accepts"
        if self.check is Check.ACCEPTED:
            return "the engine refused an action it offered, which the reference accepts"
        if (self.expected is None) != (self.actual is None):
            # No seat to act: the hand is over. A match winner: the match is over.
            if self.check is Check.TO_ACT:
                engine_ended = self.actual is None
                return _ended("hand", engine_ended)
            if self.check is Check.MATCH and self.key == "winner":
                return _ended("match", self.actual is not None)
        return f"{self.what} differs"

    @property
    def game_text(self) -> str:
        """The game it is in: ``game 3 (4 players, random play), seed 0``."""
        game = f"game {self.game}" if self.game is not None else "a game"
        seed = f", seed {self.seed}" if self.seed is not None else ""
        return f"{game} ({self.players} players, {self.strategy} play){seed}"


@dataclass(frozen=True)
class GameError:
    """A random game the engine failed in (crashed, hung, broke the protocol), and how to replay it.

    A game that was never begun (the engine unavailable) has no game, deals or request.
    """

    label: str
    message: str
    target: Target | None = None
    players: int | None = None
    strategy: str = ""
    #: The match's deals so far, and the actions played in each hand.
    deals: tuple[Mapping[str, Any], ...] = ()
    histories: tuple[tuple[str, ...], ...] = ()
    #: The request the engine failed on (``apply 3-4@L:4``), and the kind of failure.
    request: str = ""
    failure: str = ""
    seed: int | None = None
    game: int | None = None

    @property
    def game_text(self) -> str:
        """The game it is in: ``game 3 (4 players, random play), seed 0``, or empty."""
        if self.game is None:
            return ""
        seed = f", seed {self.seed}" if self.seed is not None else ""
        return f"game {self.game} ({self.players} players, {self.strategy} play){seed}"

    def __str__(self) -> str:
        where = f" ({self.game_text}, hand {len(self.deals)})" if self.game_text else ""
        request = f" on {self.request}" if self.request else ""
        return f"{self.label}{where}{request}: {self.message}"


@dataclass
class DifferentialResult:
    """What the random games found so far (filled in place as they are played)."""

    hands: int = 0
    errors: list[GameError] = field(default_factory=list)
    #: Each kind of divergence, by the shortest game that shows it.
    found: dict[Kind, Divergence] = field(default_factory=dict)
    #: Called with each kind of divergence the first time it is found.
    on_new: Callable[[Divergence], None] | None = field(default=None, repr=False)

    @property
    def divergences(self) -> list[Divergence]:
        """Every kind of divergence found, by variant, shortest first."""
        return sorted(self.found.values(), key=lambda d: (d.target.label(), d.size))

    def keep(self, divergences: Sequence[Divergence]) -> None:
        """Keep, for each kind of divergence, the shortest game that shows it."""
        for divergence in divergences:
            best = self.found.get(divergence.kind)
            if best is None or divergence.size < best.size:
                self.found[divergence.kind] = divergence
            if best is None and self.on_new is not None:
                self.on_new(divergence)

    def merge(self, other: DifferentialResult) -> None:
        """Add another run's hands, errors and divergences (each kind still once)."""
        self.hands += other.hands
        self.errors.extend(other.errors)
        self.keep(other.divergences)

    @property
    def problems(self) -> int:
        """How many things the games found wrong: kinds of divergence and errors."""
        return len(self.found) + len(self.errors)

    def summary(self) -> str:
        """``random games: 50 hand(s) compared, 2 kind(s) of divergence, 1 error``."""
        text = (
            f"random games: {self.hands} hand(s) compared with the reference engine, "
            f"{len(self.found)} kind(s) of divergence"
        )
        if self.errors:
            text += f", {len(self.errors)} error(s)"
        return text


def _ended(what: str, by_engine: bool) -> str:
    if by_engine:
        return f"the engine ended the {what}; the reference goes on"
    return f"the reference ended the {what}; the engine goes on"
