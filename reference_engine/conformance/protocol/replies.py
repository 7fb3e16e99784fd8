"""What a well-formed answer from an engine under test is, for both transports.

The program driver (:mod:`.process`) and the in-process guard (:mod:`.inprocess`)
pass every answer through these checks before the runner compares anything
with a case, so the comparison never meets a value of the wrong type: reply
lines are strict JSON (UTF-8, no ``NaN`` or ``Infinity``, no key twice); an
integer is an integer (never ``2.0``, never ``true``); the ``result`` object
has exactly its four fields (spec/protocol.md, spec/protocol.schema.json); a
list of legal actions names each action once. A check that fails raises
:class:`BadReply`, which the transports turn into a ``bad_reply`` failure.

Text an engine supplies (its name, its messages, its standard error) is shown
through :func:`reference_engine.sinks.printable`, so it cannot drive the
terminal it is printed on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import strictjson
from ...errors import EngineProblem
from ...sinks import inline, printable

TERMINATIONS = ("domino", "blocked", "redeal")


class BadReply(EngineProblem, ValueError):
    """An answer of the wrong shape or types; the message says what is wrong."""


def short(value: Any, limit: int = 200) -> str:
    """A printable ``repr`` of ``value``, cut to ``limit`` characters."""
    text = printable(repr(value))
    return text if len(text) <= limit else text[: limit - 3] + "..."


#: The reader of reply lines, made once (a run reads thousands of lines).
_READER = strictjson.decoder()


def strict_json(raw: bytes) -> Any:
    """The JSON value of one reply line, read strictly; ValueError says why it is not JSON."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8") from None
    try:
        return strictjson.loads(text, _READER)
    except RecursionError:
        raise ValueError("nested too deep") from None


def is_integer(value: object) -> bool:
    """Whether ``value`` is a JSON integer: an int, not a bool, not a float."""
    return type(value) is int


def integers(value: object, what: str) -> list[int]:
    """A list of integers, or BadReply."""
    if not isinstance(value, list) or not all(is_integer(item) for item in value):
        raise BadReply(f"{what} must be a list of integers, got {short(value)}")
    return list(value)


def seat_or_none(value: object, what: str) -> int | None:
    """A seat number (an integer, not negative) or None, or BadReply."""
    if value is None or (isinstance(value, int) and is_integer(value) and value >= 0):
        return value
    raise BadReply(f"{what} must be a seat number or null, got {short(value)}")


def strings(value: object, what: str, *, once: bool = False) -> list[str]:
    """A list of strings (each given once, if ``once``), or BadReply."""
    if not isinstance(value, (list, tuple)) or not all(isinstance(item, str) for item in value):
        raise BadReply(f"{what} must be a list of strings, got {short(value)}")
    if once and len(set(value)) != len(value):
        repeated = sorted({item for item in value if value.count(item) > 1})
        raise BadReply(f"{what}: {', '.join(map(short, repeated[:5]))} given more than once")
    return [inline(item) for item in value]


def reason(value: object) -> str | None:
    """An apply answer: None (applied) or a reason code (a string), or BadReply."""
    if value is None or isinstance(value, str):
        return value if value is None else inline(value)
    raise BadReply(f"a refusal's reason must be a string, got {short(value)}")


def hand_result(value: object) -> dict[str, Any] | None:
    """A hand's result: None while the hand goes on, else exactly its four fields."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise BadReply(f"the result must be an object or null, got {short(value)}")
    fields = {"termination", "winner", "pips", "points"}
    if set(value) != fields:
        missing, extra = sorted(fields - set(value)), sorted(set(value) - fields, key=str)
        parts = [f"missing {', '.join(missing)}" if missing else ""]
        parts.append(f"unknown {', '.join(map(short, extra))}" if extra else "")
        raise BadReply(
            "the result has exactly termination, winner, pips and points ("
            + "; ".join(part for part in parts if part)
            + ")"
        )
    termination = value["termination"]
    if termination not in TERMINATIONS or not isinstance(termination, str):
        raise BadReply(f"the result's termination must be one of {', '.join(TERMINATIONS)}")
    return {
        "termination": termination,
        "winner": seat_or_none(value["winner"], "the result's winner"),
        "pips": integers(value["pips"], "the result's pips"),
        "points": integers(value["points"], "the result's points"),
    }


def match_totals(value: object) -> dict[str, Any]:
    """The match totals: scores and hands won per side, and the winner; or BadReply."""
    if not isinstance(value, Mapping):
        raise BadReply(f"the match totals must be an object, got {short(value)}")
    missing = [key for key in ("scores", "hands_won", "winner") if key not in value]
    if missing:
        raise BadReply(f"the match totals lack {', '.join(missing)}")
    return {
        "scores": integers(value["scores"], "the match scores"),
        "hands_won": integers(value["hands_won"], "the match's hands won"),
        "winner": seat_or_none(value["winner"], "the match winner"),
    }


def action_text(value: object, what: str) -> str:
    """An action an engine names (a string of at most 64 characters), or BadReply."""
    if not isinstance(value, str) or not 0 < len(value) <= 64:
        raise BadReply(f"{what} must be an action in the notation, got {short(value)}")
    return inline(value)


def opening(fields: Mapping[str, Any]) -> tuple[str | None, int | None] | None:
    """What an engine that opens itself laid (``opened``, ``opened_by``), or None when it
    says nothing; BadReply when it says half of it or the wrong types."""
    if "opened" not in fields and "opened_by" not in fields:
        return None
    if "opened" not in fields or "opened_by" not in fields:
        raise BadReply("an opening names the action laid ('opened') and its seat ('opened_by')")
    opened = fields["opened"]
    laid = None if opened is None else action_text(opened, "the opening laid")
    return laid, seat_or_none(fields["opened_by"], "the seat that opened")
