"""The project's errors: one base, subclassed by cause; and the engine's typed refusals.

Every error the project raises on purpose derives from :class:`MatadorError`,
through the one cause it reports:

=======================  ===============================================
:class:`InputProblem`    what was given cannot be read or does not fit:
                         a file, the notation, a spec, a declaration
:class:`RulesRefuse`     the rules refuse it: an action, a deal
:class:`EngineProblem`   an engine or strategy under test broke the
                         protocol or its own word
:class:`MachineProblem`  the machine refused: an output cannot be
                         written, a library or a service is missing
=======================  ===============================================

Each concrete class also keeps the built-in base it always had
(``ValueError``, ``OSError``, ``RuntimeError``), so code that caught those
still does. Exceptions used only to steer control flow inside one module (a
case stopped early, a deadline raised into an engine, a signal) are not
errors and do not derive from it.

A refused action carries a :class:`Reason` from a closed vocabulary (what
conformance cases and the protocol compare), the rule that forbids it, and
that rule's citations, so a dispute can be settled by pointing at the source.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .textenum import TextEnum

if TYPE_CHECKING:
    from .rules.model import Citation


class Reason(TextEnum):
    """Why an action is refused: the closed vocabulary engines are compared on."""

    HAND_OVER = "hand_over"
    NOT_YOUR_TURN = "not_your_turn"
    TILE_NOT_IN_HAND = "tile_not_in_hand"
    NO_SUCH_END = "no_such_end"
    WRONG_OPENING = "wrong_opening"
    DOES_NOT_MATCH_END = "does_not_match_end"
    PLACEMENT_NOT_ALLOWED = "placement_not_allowed"
    MUST_PLAY_MATADOR = "must_play_matador"
    MUST_PLAY = "must_play"
    MUST_DRAW = "must_draw"
    PASS_NOT_ALLOWED = "pass_not_allowed"
    DRAW_NOT_ALLOWED = "draw_not_allowed"
    RESERVE_REACHED = "reserve_reached"
    ONLY_DRAWN_TILE = "only_drawn_tile"
    MUST_PLAY_DRAWN = "must_play_drawn"


class MatadorError(Exception):
    """The base of every error the project raises on purpose."""


class InputProblem(MatadorError):
    """What was given cannot be read or does not fit: a file, the notation, a spec."""


class RulesRefuse(MatadorError):
    """The rules refuse what was asked: an action, a deal."""


class EngineProblem(MatadorError):
    """An engine or a strategy under test broke the protocol or its own declaration."""


class MachineProblem(MatadorError):
    """The machine refused: an output cannot be written, a library or service is missing."""


class NotationError(InputProblem, ValueError):
    """Text that is not a tile or an action in the project's notation."""


class DealError(RulesRefuse, ValueError):
    """A deal that does not fit the rules: wrong hand sizes, unknown or repeated tiles."""


class IllegalActionError(RulesRefuse, ValueError):
    """An action the rules refuse, with the reason code and the rule that decides it."""

    def __init__(
        self,
        reason: Reason,
        message: str,
        *,
        rule: str | None = None,
        citations: tuple[Citation, ...] = (),
    ) -> None:
        self.reason = reason
        self.rule = rule
        self.citations = citations
        self.detail = message
        super().__init__(f"{reason.value}: {message}")
