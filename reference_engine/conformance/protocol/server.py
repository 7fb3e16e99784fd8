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
   definition in spec/protocol.schema.json (:mod:`.requestcheck`); a mismatch is
   ``bad_request``.
5. Hand the request to the engine, whose refusals carry their own codes.
"""

from __future__ import annotations

import json
import re
import sys
import traceback
from collections.abc import Callable, Iterator, Mapping
from typing import Any, BinaryIO, TextIO

from ... import strictjson
from .codes import ErrorCode
from .declarations import as_data, read_plays
from .interface import PROTOCOL_VERSION, Engine, EngineInfo, EngineRefusal, ReferenceEngine
from .requestcheck import OutOfRange, id_problem, request_problem, shown
from .requestcheck import protocol_schema as protocol_schema

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


# ---------------------------------------------------------------------------- the handlers


def _hello(engine: Engine, request: Mapping[str, Any]) -> dict[str, Any]:
    if request["protocol"] != PROTOCOL_VERSION:
        raise EngineRefusal(
            ErrorCode.UNSUPPORTED_PROTOCOL,
            f"this engine speaks {PROTOCOL_VERSION}, not {shown(request['protocol'])}",
        )
    info = engine.hello()
    if not isinstance(info, EngineInfo):
        raise EngineRefusal(
            ErrorCode.INTERNAL_ERROR,
            f"hello() must return an EngineInfo, not {type(info).__name__}",
        )
    variants = None if info.variants is None else {k: dict(v) for k, v in info.variants.items()}
    reply = {
        "type": "hello",
        "name": info.name,
        "version": info.version,
        "protocol": PROTOCOL_VERSION,
        "variants": variants,
    }
    plays = {
        variant: as_data(declared)
        for variant, declared in read_plays(info.plays, info.variants).items()
        if not declared.ordinary
    }
    if plays:
        reply["plays"] = plays
    if info.extra:
        reply["extra"] = dict(info.extra)
    return reply


def _new_match(engine: Engine, request: Mapping[str, Any]) -> dict[str, Any]:
    engine.new_match(request["variant"], request["options"], request["players"])
    return {"type": "ok"}


def _new_hand(engine: Engine, request: Mapping[str, Any]) -> dict[str, Any]:
    if "position" in request:  # (an engine that takes positions; spec/protocol.md)
        start = getattr(engine, "new_position", None)
        if not callable(start):
            raise EngineRefusal(ErrorCode.UNSUPPORTED, "this engine does not start at positions")
        start(request["position"])
        return {"type": "ok"}
    opened = engine.new_hand(request["deal"])
    if isinstance(opened, Mapping):  # an engine that lays its own opening says what it laid
        return {"type": "ok", "opened": opened.get("opened"), "opened_by": opened.get("opened_by")}
    return {"type": "ok"}


def _apply(engine: Engine, request: Mapping[str, Any]) -> dict[str, Any]:
    answer = engine.apply(request["action"], request["player"])
    if isinstance(answer, Mapping):  # accepted, and the engine says what it laid
        return {"type": "applied", "laid": answer.get("laid")}
    return {"type": "applied"} if answer is None else {"type": "refused", "reason": answer}


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
    "held": lambda engine, request: _held(engine, request["seat"]),
}


def _held(engine: Engine, seat: int) -> dict[str, Any]:
    """The optional ``held`` request: an engine without the method does not know it."""
    method = getattr(engine, "held", None)
    if not callable(method):
        raise EngineRefusal(ErrorCode.UNKNOWN_REQUEST, "this engine does not say what a seat holds")
    return {"type": "held", "tiles": method(seat)}


#: Every request type; ``quit`` is answered by the server itself.
REQUEST_TYPES = (*HANDLERS, "quit")


# ---------------------------------------------------------------------------- answering


def answer(
    engine: Engine,
    line: str | bytes,
    *,
    diagnostics: TextIO | None = None,
    failures: type[BaseException] = Exception,
) -> tuple[dict[str, Any], bool]:
    """The reply to one request line, and whether the session should end.

    ``diagnostics`` receives the traceback of an engine that fails unexpectedly
    (the reply is then ``internal_error``); ``failures`` are the exceptions taken
    as the engine failing (a host of untrusted code takes ``BaseException``: an
    exit or an interrupt the engine raises is its failure too).
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
    problem = id_problem(request["id"])
    if problem is not None:
        return _error(None, ErrorCode.BAD_REQUEST, problem), False
    request_id: int = request["id"]
    kind = request.get("type")
    if kind not in REQUEST_TYPES:
        if "type" not in request:
            return _error(request_id, ErrorCode.BAD_REQUEST, "the request has no type"), False
        if not isinstance(kind, str):
            message = f"type must be a string, not {shown(kind)}"
            return _error(request_id, ErrorCode.BAD_REQUEST, message), False
        message = f"unknown type {shown(kind)} (known: {', '.join(REQUEST_TYPES)})"
        return _error(request_id, ErrorCode.UNKNOWN_REQUEST, message), False
    problem = request_problem(kind, request)
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
    except failures as error:  # a bug in the engine must not end the session
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


#: The writer of reply lines, made once (``json.dumps`` would make one per reply).
_WRITER = json.JSONEncoder(separators=(",", ":"), allow_nan=False)


def encode(reply: Mapping[str, Any]) -> str:
    """``reply`` as one line of strict JSON (never NaN or Infinity), without the newline."""
    return _WRITER.encode(reply)


def serve(
    stdin: TextIO | BinaryIO,
    stdout: TextIO,
    engine: Engine | None = None,
    *,
    stderr: TextIO | None = None,
    failures: type[BaseException] = Exception,
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
            reply, done = answer(engine, line, diagnostics=diagnostics, failures=failures)
        try:
            text = encode(reply)
        except failures as error:  # (what the engine gave cannot be read or written)
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
        return strictjson.loads(text, _READER)
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


#: The reader of request lines, made once: strict JSON, with numbers kept in range.
_READER = strictjson.decoder(parse_int=_parse_int, parse_float=_parse_float)


def _kind_of(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    return shown(value)
