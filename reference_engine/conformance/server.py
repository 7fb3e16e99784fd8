"""`matador engine`: the reference engine as a JSON-lines protocol process (spec/protocol.md)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from .engine import PROTOCOL_VERSION, Engine, EngineRefusal, ReferenceEngine

Handler = Callable[[Engine, Mapping[str, Any]], dict[str, Any]]


def _hello(engine: Engine, request: Mapping[str, Any]) -> dict[str, Any]:
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
    variant, options, players = request["variant"], request.get("options", {}), request["players"]
    if not isinstance(variant, str) or not isinstance(options, dict):
        raise EngineRefusal("bad_request", "variant must be a string and options a mapping")
    if isinstance(players, bool) or not isinstance(players, int):
        raise EngineRefusal("bad_request", "players must be an integer")
    engine.new_match(variant, options, players)
    return {"type": "ok"}


def _new_hand(engine: Engine, request: Mapping[str, Any]) -> dict[str, Any]:
    engine.new_hand(request["deal"])
    return {"type": "ok"}


def _apply(engine: Engine, request: Mapping[str, Any]) -> dict[str, Any]:
    action = request["action"]
    if not isinstance(action, str):
        raise EngineRefusal("bad_request", "action must be a string")
    player = request.get("player")
    reason = engine.apply(action, player)
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


def answer(engine: Engine, line: str) -> tuple[dict[str, Any], bool]:
    """The reply to one request line, and whether the session should end."""
    try:
        request = json.loads(line)
    except json.JSONDecodeError as error:
        reply = {
            "id": None,
            "type": "error",
            "code": "bad_request",
            "message": f"not JSON: {error}",
        }
        return reply, False
    if not isinstance(request, dict):
        reply = {"id": None, "type": "error", "code": "bad_request", "message": "not an object"}
        return reply, False
    request_id = request.get("id")
    kind = request.get("type")
    if kind == "quit":
        return {"id": request_id, "type": "bye"}, True
    handler = HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        reply = {"type": "error", "code": "unknown_request", "message": f"unknown type {kind!r}"}
    else:
        try:
            reply = handler(engine, request)
        except EngineRefusal as refusal:
            reply = {"type": "error", "code": refusal.code, "message": refusal.message}
        except KeyError as missing:
            reply = {"type": "error", "code": "bad_request", "message": f"missing field {missing}"}
    return {"id": request_id, **reply}, False


def serve(stdin: TextIO, stdout: TextIO, engine: Engine | None = None) -> int:
    """Answer requests, one JSON object per line, until ``quit`` or end of input."""
    engine = engine or ReferenceEngine()
    for line in stdin:
        if not line.strip():
            continue
        reply, done = answer(engine, line)
        stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        stdout.flush()
        if done:
            break
    engine.close()
    return 0
