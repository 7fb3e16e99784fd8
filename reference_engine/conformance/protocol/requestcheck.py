"""The protocol's requests against spec/protocol.schema.json: the check, and what it says.

The server (:mod:`.server`) asks :func:`id_problem` and :func:`request_problem`
about every request it parsed. The common requests are checked by hand first
(:func:`plainly_valid`), as the schema validator is slow: each hand check
accepts only what the schema plainly accepts and leaves everything else, valid
or not, to the validator, whose first error becomes a short message that names
the field. A number too long to read is kept as an :class:`OutOfRange`, which
the schema then refuses.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from ...rules.schema import load_schema


@dataclass(frozen=True)
class OutOfRange:
    """A JSON number the server does not convert: too long, or beyond a double's range."""

    text: str

    def __str__(self) -> str:
        if len(self.text) <= 24:
            return self.text
        return f"{self.text[:12]}... ({len(self.text)} characters long)"


@cache
def protocol_schema() -> dict[str, Any]:
    """The protocol's JSON Schema (spec/protocol.schema.json)."""
    return load_schema("protocol.schema.json")


@cache
def definition_validator(definition: str) -> Any:
    """A validator of ``#/$defs/DEFINITION``; integers are strictly integers (2.0 is not one)."""
    from ...rules.schema import strict_validator

    schema = protocol_schema()
    return strict_validator({"$defs": schema["$defs"], "$ref": f"#/$defs/{definition}"})


# The common requests, checked by hand before the (much slower) schema validator
# is asked: each check accepts only what the schema plainly accepts, and leaves
# everything else, valid or not, to the validator.
_LARGEST_ID = 2**53 - 1
_BARE = frozenset({"id", "type"})
_BARE_KINDS = frozenset({"legal", "ends", "to_act", "result", "match", "quit"})
_HELLO = frozenset({"id", "type", "protocol"})
_APPLY = frozenset({"id", "type", "action", "player"})
_NEW_MATCH = frozenset({"id", "type", "variant", "options", "players"})
_NEW_HAND = frozenset({"id", "type", "deal"})
_NEW_POSITION = frozenset({"id", "type", "position"})
_DEAL = frozenset({"hands", "boneyard", "designated"})
_TILE = re.compile(r"[0-9]{1,2}-[0-9]{1,2}")


def id_problem(value: Any) -> str | None:
    """What is wrong with a request's ``id``, or None."""
    if type(value) is int and 0 <= value <= _LARGEST_ID:
        return None
    return schema_problem(definition_validator("request_id"), value, "id")


def request_problem(kind: str, request: Mapping[str, Any]) -> str | None:
    """What is wrong with ``request``, of a known ``kind``, under its schema definition."""
    if plainly_valid(kind, request):
        return None
    return schema_problem(definition_validator(f"{kind}_request"), request)


def plainly_valid(kind: str, request: Mapping[str, Any]) -> bool:
    """Whether ``request`` (its id and type already checked) plainly follows the schema."""
    if kind == "apply":
        action, player = request.get("action"), request.get("player")
        return (
            request.keys() == _APPLY
            and type(action) is str
            and 1 <= len(action) <= 64
            and (player is None or _seat(player))
        )
    if kind == "new_match":
        options, players = request.get("options"), request.get("players")
        return (
            request.keys() == _NEW_MATCH
            and _short_text(request["variant"])
            and type(options) is dict
            and len(options) <= 64
            and all(_short_text(name) and _short_text(value) for name, value in options.items())
            and type(players) is int
            and 2 <= players <= 4
        )
    if kind == "new_hand":
        if "position" in request:
            position = request["position"]
            return (
                request.keys() == _NEW_POSITION
                and type(position) is str
                and 1 <= len(position) <= 4000
            )
        deal = request.get("deal")
        return (
            request.keys() == _NEW_HAND
            and type(deal) is dict
            and "hands" in deal
            and deal.keys() <= _DEAL
            and type(deal["hands"]) is list
            and 2 <= len(deal["hands"]) <= 4
            and all(_tiles(hand) for hand in deal["hands"])
            and ("boneyard" not in deal or _tiles(deal["boneyard"]))
            and ("designated" not in deal or _seat(deal["designated"]))
        )
    if kind == "hello":  # the first request of every run: no schema validator for it
        return request.keys() == _HELLO and _short_text(request["protocol"])
    return kind in _BARE_KINDS and request.keys() <= _BARE


def _short_text(value: Any) -> bool:
    return type(value) is str and 1 <= len(value) <= 100


def _seat(value: Any) -> bool:
    return type(value) is int and value >= 0


def _tiles(value: Any) -> bool:
    """A list of at most 190 tiles, each plainly written (``2-5``)."""
    return (
        type(value) is list
        and len(value) <= 190
        and all(type(tile) is str and _TILE.fullmatch(tile) for tile in value)
    )


def schema_problem(validator: Any, instance: Any, root: str = "") -> str | None:
    """What is wrong with ``instance`` under ``validator`` (its first error), or None."""
    error = next(iter(validator.iter_errors(instance)), None)
    if error is None:
        return None
    where = root + "".join(
        f"[{step}]" if isinstance(step, int) else f".{step}" for step in error.absolute_path
    )
    where = where.lstrip(".") or "the request"
    value, rule, keyword = error.instance, error.validator_value, error.validator
    if isinstance(value, OutOfRange) and keyword == "type":
        return f"{where}: the number {value} is out of range"
    if keyword == "type":
        expected = [rule] if isinstance(rule, str) else list(rule)
        wanted = " or ".join(_TYPE_NAMES.get(name, name) for name in expected)
        return f"{where} must be {wanted}, not {shown(value)}"
    if keyword == "required":
        missing = [name for name in rule if name not in value]
        return f"{where} has no {missing[0] if missing else rule[0]} field"
    if keyword == "minimum":
        return f"{where} must be at least {rule}, not {shown(value)}"
    if keyword == "maximum":
        return f"{where} must be at most {rule}, not {shown(value)}"
    if keyword in _BOUNDS:
        return f"{where} must have {_BOUNDS[keyword].format(rule)}, not {shown(value)}"
    if keyword == "pattern":
        return f"{where}: {shown(value)} is not written like {_EXAMPLES.get(rule, rule)}"
    if keyword == "additionalProperties":
        extra = sorted(set(value) - set(error.schema.get("properties", {})))
        return f"{where} has unknown field(s): {', '.join(map(shown, extra))}"
    if keyword == "oneOf":
        fields = [sub.get("required", [None])[0] for sub in rule]
        if all(isinstance(name, str) for name in fields):  # `new_hand`: a deal or a position
            given = [name for name in fields if name in value]
            if given:
                return f"{where} has both a {' and a '.join(given)}: give one"
            return f"{where} has " + " and ".join(f"no {name} field" for name in fields)
        return f"{where} must be null or a seat number (0 or more), not {shown(value)}"
    return f"{where}: {error.message}"


_TYPE_NAMES = {
    "integer": "an integer",
    "string": "a string",
    "object": "an object",
    "array": "an array",
    "null": "null",
    "number": "a number",
    "boolean": "true or false",
}
_BOUNDS = {
    "minLength": "{} characters or more",
    "maxLength": "{} characters or fewer",
    "minItems": "{} items or more",
    "maxItems": "{} items or fewer",
    "maxProperties": "{} fields or fewer",
}
_EXAMPLES = {"^[0-9]{1,2}-[0-9]{1,2}$": 'a tile ("2-5")'}


def shown(value: Any, limit: int = 60) -> str:
    """``value`` as JSON for a message, cut short."""
    if isinstance(value, OutOfRange):
        return f"the number {value}"
    text = json.dumps(value, default=str, ensure_ascii=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."
