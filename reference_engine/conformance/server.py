"""`matador engine`: the reference engine as a JSON-lines protocol process (spec/protocol.md).

The server trusts no line. Each one goes through the same gates, and the first
it fails decides the error reply (codes from :class:`ErrorCode`), after which
the server reads the next line; it stops only at the end of its input or on
``quit``:

1. Read with a bounded ``readline``: a line over :data:`MAX_LINE_BYTES` is
   answered ``line_too_long`` and the rest of it is skipped unread into memory.
2. Decode as UTF-8 and count the nesting before parsing: deeper than
   :data:`MAX_DEPTH` is ``too_deep`` (the parser would recurse on it).
3. Parse strict JSON: no ``NaN`` or ``Infinity``, no repeated key; a number
   longer than :data:`MAX_NUMBER_CHARS` or beyond a double is kept as an
   :class:`OutOfRange` the schema then refuses (Python would refuse or slowly
   convert a 5000-digit integer). Anything else is ``bad_request``.
4. Check the ``id`` (an error about a request without a usable id has
   ``"id": null``), the ``type``, then the whole request against its
   definition in spec/protocol.schema.json; a mismatch is ``bad_request``.
5. Hand the request to the engine, whose refusals carry their own codes.
"""

from __future__ import annotations

import json
import re
import sys
import traceback
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, BinaryIO, TextIO

from ..rules.datafiles import spec_dir
from ..strictjson import no_constants, unique_keys
from .codes import ErrorCode
from .engine import PROTOCOL_VERSION, Engine, EngineRefusal, ReferenceEngine

#: The longest request line read, in bytes, not counting its newline (1 MiB).
MAX_LINE_BYTES = 1 << 20
#: The deepest nesting of arrays and objects in a request (a real one nests 4 deep).
MAX_DEPTH = 32
#: The longest number read as a number; every number the protocol uses is far shorter.
MAX_NUMBER_CHARS = 32
#: Messages are cut to this many characters, so a reply never echoes a huge request.
MAX_MESSAGE_CHARS = 400

Handler = Callable[[Engine, Mapping[str, Any]], dict[str, Any]]


class _Malformed(Exception):
    """A line that is not a request at all: it gets an error with ``"id": null``."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class OutOfRange:
    """A JSON number the server does not convert: too long, or beyond a double's range."""

    text: str

    def __str__(self) -> str:
        if len(self.text) <= 24:
            return self.text
        return f"{self.text[:12]}... ({len(self.text)} characters long)"


# ---------------------------------------------------------------------------- the handlers


def _hello(engine: Engine, request: Mapping[str, Any]) -> dict[str, Any]:
    if request["protocol"] != PROTOCOL_VERSION:
        raise EngineRefusal(
            ErrorCode.UNSUPPORTED_PROTOCOL,
            f"this engine speaks {PROTOCOL_VERSION}, not {_shown(request['protocol'])}",
        )
    info = engine.hello()
    variants = None if info.variants is None else {k: dict(v) for k, v in info.variants.items()}
    return {
        "type": "hello",
        "name": info.name,
        "version": info.version,
        "protocol": PROTOCOL_VERSION,
        "variants": variants,
    }


def _new_match(engine: Engine, request: Mapping[str, Any]) -> dict[str, Any]:
    engine.new_match(request["variant"], request["options"], request["players"])
    return {"type": "ok"}


def _new_hand(engine: Engine, request: Mapping[str, Any]) -> dict[str, Any]:
    engine.new_hand(request["deal"])
    return {"type": "ok"}


def _apply(engine: Engine, request: Mapping[str, Any]) -> dict[str, Any]:
    reason = engine.apply(request["action"], request["player"])
    return {"type": "applied"} if reason is None else {"type": "refused", "reason": reason}


HANDLERS: dict[str, Handler] = {
    "hello": _hello,
    "new_match": _new_match,
    "new_hand": _new_hand,
    "legal": lambda engine, _: {"type": "legal", "actions": engine.legal()},
    "ends": lambda engine, _: {"type": "ends", "ends": engine.ends()},
    "to_act": lambda engine, _: {"type": "to_act", "seat": engine.to_act()},
    "apply": _apply,
    "result": lambda engine, _: {"type": "result", "result": engine.result()},
    "match": lambda engine, _: {"type": "match", **engine.match_state()},
}

#: Every request type; ``quit`` is answered by the server itself.
REQUEST_TYPES = (*HANDLERS, "quit")


# ---------------------------------------------------------------------------- answering


def answer(
    engine: Engine, line: str | bytes, *, diagnostics: TextIO | None = None
) -> tuple[dict[str, Any], bool]:
    """The reply to one request line, and whether the session should end.

    ``diagnostics`` receives the traceback of an engine that fails unexpectedly
    (the reply is then ``internal_error``).
    """
    try:
        request = _parse(line)
    except _Malformed as malformed:
        return _error(None, malformed.code, malformed.message), False
    if not isinstance(request, dict):
        message = f"a request is a JSON object, not {_kind_of(request)}"
        return _error(None, ErrorCode.BAD_REQUEST, message), False
    if "id" not in request:
        return _error(None, ErrorCode.BAD_REQUEST, "the request has no id"), False
    problem = _id_problem(request["id"])
    if problem is not None:
        return _error(None, ErrorCode.BAD_REQUEST, problem), False
    request_id: int = request["id"]
    kind = request.get("type")
    if kind not in REQUEST_TYPES:
        if "type" not in request:
            return _error(request_id, ErrorCode.BAD_REQUEST, "the request has no type"), False
        if not isinstance(kind, str):
            message = f"type must be a string, not {_shown(kind)}"
            return _error(request_id, ErrorCode.BAD_REQUEST, message), False
        message = f"unknown type {_shown(kind)} (known: {', '.join(REQUEST_TYPES)})"
        return _error(request_id, ErrorCode.UNKNOWN_REQUEST, message), False
    problem = _request_problem(kind, request)
    if problem is not None:
        return _error(request_id, ErrorCode.BAD_REQUEST, f"{kind}: {problem}"), False
    if kind == "quit":
        return {"id": request_id, "type": "bye"}, True
    try:
        reply = HANDLERS[kind](engine, request)
    except EngineRefusal as refusal:
        try:
            code = ErrorCode(refusal.code)
        except ValueError:
            code, refusal.message = ErrorCode.INTERNAL_ERROR, f"{refusal.code}: {refusal.message}"
        return _error(request_id, code, refusal.message), False
    except Exception as error:  # a bug in the engine must not end the session
        if diagnostics is not None:
            diagnostics.write("".join(traceback.format_exception(error)))
            diagnostics.flush()
        message = f"the engine failed on {kind}: {type(error).__name__}: {error}"
        return _error(request_id, ErrorCode.INTERNAL_ERROR, message), False
    return {"id": request_id, **reply}, False


def _error(request_id: int | None, code: ErrorCode, message: str) -> dict[str, Any]:
    if len(message) > MAX_MESSAGE_CHARS:
        message = message[: MAX_MESSAGE_CHARS - 3] + "..."
    return {"id": request_id, "type": "error", "code": code.value, "message": message}


def encode(reply: Mapping[str, Any]) -> str:
    """``reply`` as one line of strict JSON (never NaN or Infinity), without the newline."""
    return json.dumps(reply, separators=(",", ":"), allow_nan=False)


def serve(
    stdin: TextIO | BinaryIO,
    stdout: TextIO,
    engine: Engine | None = None,
    *,
    stderr: TextIO | None = None,
) -> int:
    """Answer requests, one JSON object per line, until ``quit`` or end of input.

    ``stdin`` is read as bytes (through its ``buffer`` when it is a text stream);
    blank lines are skipped, every other line gets exactly one reply.
    """
    engine = engine or ReferenceEngine()
    diagnostics = sys.stderr if stderr is None else stderr
    for line in _lines(stdin):
        if line is None:
            message = f"the line is longer than {MAX_LINE_BYTES} bytes; it was skipped"
            reply, done = _error(None, ErrorCode.LINE_TOO_LONG, message), False
        elif not line.strip():
            continue
        else:
            reply, done = answer(engine, line, diagnostics=diagnostics)
        try:
            text = encode(reply)
        except (TypeError, ValueError) as error:
            message = f"the engine's reply cannot be written as JSON: {error}"
            text = encode(_error(reply.get("id"), ErrorCode.INTERNAL_ERROR, message))
        if len(text) > MAX_LINE_BYTES:
            message = f"the engine's reply is longer than {MAX_LINE_BYTES} bytes"
            text = encode(_error(reply.get("id"), ErrorCode.INTERNAL_ERROR, message))
        stdout.write(text + "\n")
        stdout.flush()
        if done:
            break
    engine.close()
    return 0


def _lines(stdin: TextIO | BinaryIO) -> Iterator[bytes | None]:
    """Each line of ``stdin`` as bytes, or None for a line over :data:`MAX_LINE_BYTES`."""
    stream: Any = getattr(stdin, "buffer", stdin)
    if stream is None:  # the process was started with its standard input closed
        return
    while True:
        line = _as_bytes(stream.readline(MAX_LINE_BYTES + 1))
        if not line:
            return
        if line.endswith(b"\n") or len(line) <= MAX_LINE_BYTES:
            yield line
            continue
        # Too long: skip the rest of the line a piece at a time, keeping none of it.
        while True:
            rest = _as_bytes(stream.readline(1 << 16))
            if not rest or rest.endswith(b"\n"):
                break
        yield None


def _as_bytes(data: str | bytes) -> bytes:
    # A lone surrogate from a text stream becomes bytes that are not UTF-8 (refused later).
    return data.encode("utf-8", errors="surrogatepass") if isinstance(data, str) else data


# ---------------------------------------------------------------------------- parsing


# A JSON string (unrolled: no backtracking), and the brackets left once strings are gone.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def _parse(line: str | bytes) -> Any:
    """A line as strict JSON, or :class:`_Malformed`."""
    if isinstance(line, bytes):
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as error:
            message = f"not JSON: the line is not UTF-8 (byte {error.start}: {error.reason})"
            raise _Malformed(ErrorCode.BAD_REQUEST, message) from None
    else:
        text = line
    depth = _depth(text)
    if depth > MAX_DEPTH:
        message = f"arrays and objects are nested {depth} deep; at most {MAX_DEPTH} are read"
        raise _Malformed(ErrorCode.TOO_DEEP, message)
    try:
        return json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=no_constants,
            object_pairs_hook=unique_keys,
        )
    except ValueError as error:  # json.JSONDecodeError, or a hook's refusal
        raise _Malformed(ErrorCode.BAD_REQUEST, f"not JSON: {error}") from None


def _depth(text: str) -> int:
    """How deep arrays and objects nest in ``text`` (brackets inside strings not counted)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return 0  # cannot be too deep: no need to look closer
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _parse_int(text: str) -> int | OutOfRange:
    return int(text) if len(text) <= MAX_NUMBER_CHARS else OutOfRange(text)


def _parse_float(text: str) -> float | OutOfRange:
    value = float(text)
    if len(text) > MAX_NUMBER_CHARS or value in (float("inf"), float("-inf")):
        return OutOfRange(text)
    return value


# ---------------------------------------------------------------------------- the schema


@cache
def protocol_schema() -> dict[str, Any]:
    """The protocol's JSON Schema (spec/protocol.schema.json)."""
    return json.loads((spec_dir() / "protocol.schema.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@cache
def _validator(definition: str) -> Any:
    """A validator of ``#/$defs/DEFINITION``; integers are strictly integers (2.0 is not one)."""
    from ..rules.schema import StrictValidator

    schema = protocol_schema()
    return StrictValidator({"$defs": schema["$defs"], "$ref": f"#/$defs/{definition}"})


# The common requests, checked by hand before the (much slower) schema validator
# is asked: each check accepts only what the schema plainly accepts, and leaves
# everything else, valid or not, to the validator.
_LARGEST_ID = 2**53 - 1
_BARE = frozenset({"id", "type"})
_BARE_KINDS = frozenset({"legal", "ends", "to_act", "result", "match", "quit"})
_APPLY = frozenset({"id", "type", "action", "player"})


def _id_problem(value: Any) -> str | None:
    """What is wrong with a request's ``id``, or None."""
    if type(value) is int and 0 <= value <= _LARGEST_ID:
        return None
    return _problem(_validator("request_id"), value, "id")


def _request_problem(kind: str, request: Mapping[str, Any]) -> str | None:
    """What is wrong with ``request``, of a known ``kind``, under its schema definition."""
    if _plainly_valid(kind, request):
        return None
    return _problem(_validator(f"{kind}_request"), request)


def _plainly_valid(kind: str, request: Mapping[str, Any]) -> bool:
    """Whether ``request`` (its id and type already checked) plainly follows the schema."""
    if kind == "apply":
        action, player = request.get("action"), request.get("player")
        return (
            request.keys() == _APPLY
            and type(action) is str
            and 1 <= len(action) <= 64
            and (player is None or (type(player) is int and player >= 0))
        )
    return kind in _BARE_KINDS and request.keys() <= _BARE


def _problem(validator: Any, instance: Any, root: str = "") -> str | None:
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
        return f"{where} must be {wanted}, not {_shown(value)}"
    if keyword == "required":
        missing = [name for name in rule if name not in value]
        return f"{where} has no {missing[0] if missing else rule[0]} field"
    if keyword == "minimum":
        return f"{where} must be at least {rule}, not {_shown(value)}"
    if keyword == "maximum":
        return f"{where} must be at most {rule}, not {_shown(value)}"
    if keyword in _BOUNDS:
        return f"{where} must have {_BOUNDS[keyword].format(rule)}, not {_shown(value)}"
    if keyword == "pattern":
        return f"{where}: {_shown(value)} is not written like {_EXAMPLES.get(rule, rule)}"
    if keyword == "additionalProperties":
        extra = sorted(set(value) - set(error.schema.get("properties", {})))
        return f"{where} has unknown field(s): {', '.join(map(_shown, extra))}"
    if keyword == "oneOf":  # `player`: null or a seat
        return f"{where} must be null or a seat number (0 or more), not {_shown(value)}"
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


def _kind_of(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    return _shown(value)


def _shown(value: Any, limit: int = 60) -> str:
    """``value`` as JSON for a message, cut short."""
    if isinstance(value, OutOfRange):
        return f"the number {value}"
    text = json.dumps(value, default=str, ensure_ascii=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."
