"""What the kit holds an adapter's hooks to, so that a slip in the glue is said as one, not
judged as a rule of the game broken.

Every hook's answer is checked as it comes: a seat to act outside the match, an
end that is neither a number nor an end as the protocol writes one, a tile that
is not a pair of numbers, a move that is not an action, a ``play`` that answers
something other than done, refused or another move. Each raises
:class:`KitError` naming the hook, what it gave and what it must give; in
process the runner reports it as the engine raising, as a program the server
answers ``internal_error``, and either way the case errors: no rule is blamed.
:func:`missing_hooks` lists the hooks an adapter class lacks, for the handshake.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..engine.actions import Action, AnyAction, Draw, Pass, Play
from ..errors import EngineProblem, NotationError, Reason
from ..rules.vocabulary import MatadorAccess, MatchRule

#: The page an adapter's author reads.
GUIDE = "docs/adapter-kit.md"

#: An end as the protocol writes one: ``5``, or ``2/5 identical free``.
END_TEXT = re.compile(
    r"\d{1,2}(/\d{1,2})?( ("
    + "|".join(rule.value for rule in MatchRule)
    + ") ("
    + "|".join(access.value for access in MatadorAccess)
    + "))?"
)

#: The hooks every adapter gives (besides ``moves`` or ``allows``).
REQUIRED = ("start", "seat", "play", "open_ends", "tiles", "winner")


class KitError(EngineProblem):
    """An adapter's hook gave what the kit cannot use (the message says which and why)."""


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def missing_hooks(overrides: Any) -> list[str]:
    """The hooks an adapter lacks; ``overrides(name)`` says whether it gives one."""
    missing = [name for name in REQUIRED if not overrides(name)]
    if not overrides("moves") and not overrides("allows"):
        missing.append("moves (or allows)")
    return missing


def seat_of(value: Any, players: int, hook: str = "seat()") -> int | None:
    """A seat to act (None once the hand is over), or KitError."""
    if value is None:
        return None
    if type(value) is not int or not 0 <= value < players:
        raise KitError(
            f"{hook} gave {_shown(value)}: the seat to act is a number from 0 to "
            f"{players - 1}, or None once the hand is over ({GUIDE})"
        )
    return value


def winner_of(value: Any, sides: int) -> int | None:
    """The winning side of a hand, or KitError."""
    if value is None:
        return None
    if type(value) is not int or not 0 <= value < sides:
        raise KitError(
            f"winner() gave {_shown(value)}: the winner is a side from 0 to {sides - 1} "
            f"(a seat when everyone plays alone), or None for a tie ({GUIDE})"
        )
    return value


def end_of(value: Any) -> str:
    """One open end as the protocol writes it, or KitError."""
    if type(value) is int and 0 <= value <= 99:
        return str(value)
    if isinstance(value, str) and END_TEXT.fullmatch(value):
        return value
    raise KitError(
        f"open_ends() gave the end {_shown(value)}: an end is the number it shows, or as "
        f"the protocol writes it ('2/5 identical free') ({GUIDE})"
    )


def pair_of(value: Any, hook: str) -> tuple[int, int]:
    """A tile as a pair of numbers, or KitError."""
    try:
        low, high = value
    except (TypeError, ValueError):
        low = high = None
    if type(low) is not int or type(high) is not int or min(low, high) < 0:
        raise KitError(f"{hook} gave the tile {_shown(value)}: a tile is a pair of numbers")
    return (min(low, high), max(low, high))


def move_of(value: Any, hook: str = "moves()") -> AnyAction:
    """An action (a Move, or one written in the notation), or KitError."""
    if isinstance(value, (Play, Draw, Pass)):
        return value
    if isinstance(value, str):
        try:
            return Action.parse(value)
        except NotationError:
            pass
    raise KitError(
        f"{hook} gave {_shown(value)}: make each move with Move (Move.inline(2, 5, 1, 5), "
        f"Move.draw...) or write it in the notation ({GUIDE})"
    )


def moves_of(values: Iterable[Any]) -> list[AnyAction]:
    """Every move ``moves()`` gave, or KitError."""
    if values is None or isinstance(values, (str, bytes)):
        raise KitError(f"moves() gave {_shown(values)}: it gives the legal moves, a list")
    return [move_of(value) for value in values]


def played(value: Any, reasons: bool) -> bool | str | AnyAction:
    """What ``play()`` answered: True (None) done, False or (an adapter that gives reasons,
    ``reasons``) a reason code refused, or the move done instead; KitError for anything
    else, a reason from an adapter that says it gives none among them."""
    if value is None or value is True:
        return True
    if isinstance(value, str):
        if not reasons:
            raise KitError(
                f"play() gave {_shown(value)}: a refusal reason comes only from an adapter "
                f"whose reasons are the engine's (reasons = 'engine'); else answer False ({GUIDE})"
            )
        if value not in {reason.value for reason in Reason}:
            raise KitError(
                f"play() gave {_shown(value)}, which is no refusal reason of spec/protocol.md"
            )
        return value
    if value is False or isinstance(value, (Play, Draw, Pass)):
        return value
    raise KitError(
        f"play() gave {_shown(value)}: it answers True (done), False (refused), a refusal "
        f"reason, or the Move it did instead ({GUIDE})"
    )
