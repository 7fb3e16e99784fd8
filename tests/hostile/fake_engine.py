"""An engine that misbehaves on purpose, one way per mode: ``fake_engine.py MODE [FILE]``.

Where a mode needs a working engine up to some point, it answers through the
reference engine's protocol server; the misbehaviour is then applied to the
request type the mode names. When FILE is given, the engine creates it as it
starts (so a test knows it is running). Modes:

- ``good``: a correct engine.
- ``crash_at_start``: writes to stderr and exits 3 before reading anything.
- ``exit_after_hello``: answers the handshake, then exits.
- ``never_answers``: reads requests and never replies.
- ``garbage``: answers every request with text that is not JSON.
- ``huge_line``: answers with a 10 MB line.
- ``partial_line``: writes half a reply with no newline, then waits.
- ``flood_stderr``: writes 20 MB to stderr, then answers correctly.
- ``flood_stderr_forever``: writes to stderr without end while answering.
- ``wrong_protocol``: greets with protocol ``matador-engine/99``.
- ``unsupported_protocol``: answers hello with an ``unsupported_protocol`` error.
- ``no_hello``: answers hello with ``{"type": "ok"}``.
- ``hello_no_name``, ``hello_bad_variants``, ``hello_variants_list``: malformed handshakes.
- ``declares_nothing``: declares an empty set of variants.
- ``hello_no_variants``: greets without saying which variants it plays.
- ``hollow``: declares every variant, then refuses every match as unsupported.
- ``declares_unknown``: declares only variants the suite does not have.
- ``wrong_id``: answers with the next request's id.
- ``id_as_string``, ``id_as_float``, ``id_as_bool``: answers with the id of the wrong type.
- ``not_object``: answers with a JSON array.
- ``nan``: answers ``result`` with NaN points.
- ``bad_utf8``: answers with bytes that are not UTF-8.
- ``deep_json``: answers ``legal`` with 100000 nested arrays.
- ``wrong_shape:TYPE``: answers requests of TYPE with a reply of the wrong shape.
- ``crash_on:TYPE``: exits 7 on the first request of TYPE (every new engine does).
- ``tamper:CHANGE``: answers as the reference does, with one change of type (floats for
  integers, a bool for 0 or 1, an extra result field, text for numbers, an action listed twice,
  a version that is a number).
- ``duplicate_key``: greets with the key ``id`` given twice.
- ``deaf``: never reads its input and never answers (as ``sleep`` would).
- ``slow:SECONDS [FILE]``: sleeps SECONDS before every reply after the handshake (and
  adds a byte to FILE for each).
- ``fork_child``: starts a child that sleeps holding the pipes, then answers.
- ``fork_child_exit``: starts such a child, then exits at once.
- ``ignore_term``: ignores SIGTERM, answers, and does not exit on ``quit``.
- ``stubborn:SECONDS [FILE]``: ``slow`` and ``ignore_term`` at once.
- ``escapes``: writes terminal escape sequences to stderr, then exits.
- ``close_stdout``: closes its standard output after the handshake, keeps running.
- ``stop_reading``: never reads its input after the handshake (its pipe fills).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from typing import Any

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
ARGUMENT = sys.argv[2] if len(sys.argv) > 2 else ""
KIND, _, PARAMETER = MODE.partition(":")


def write(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def reply(data: Any) -> None:
    write(json.dumps(data).encode() + b"\n")


def hello(request: dict[str, Any], **changes: Any) -> None:
    greeting = {
        "id": request.get("id"),
        "type": "hello",
        "name": f"fake engine ({MODE})",
        "version": "0",
        "protocol": "matador-engine/1",
        "variants": None,
    }
    greeting.update(changes)
    reply({key: value for key, value in greeting.items() if value is not ...})


def forever() -> None:
    while True:
        time.sleep(60)


def spawn_holder() -> None:
    """A child that keeps the inherited pipes open and sleeps."""
    if os.fork() == 0:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        forever()


def main() -> None:
    if ARGUMENT:
        with open(ARGUMENT, "a"):
            pass
    if KIND == "crash_at_start":
        sys.stderr.write("fake engine: cannot load my rule tables\n")
        sys.stderr.flush()
        sys.exit(3)
    if KIND == "fork_child_exit":
        spawn_holder()
        os._exit(0)
    if KIND == "fork_child":
        spawn_holder()
    if KIND in ("ignore_term", "stubborn"):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if KIND == "escapes":
        sys.stderr.write("\x1b]0;owned\x07\x1b[2J\x1b[31mred alert\n")
        sys.stderr.flush()
        sys.exit(5)
    if KIND == "flood_stderr":
        chunk = b"x" * 65536 + b"\n"
        for _ in range(320):
            sys.stderr.buffer.write(chunk)
        sys.stderr.buffer.write(b"fake engine: the end of my flood\n")
        sys.stderr.flush()

    answer: Any = None
    engine: Any = None
    if KIND not in FAILS_AT_HELLO and MODE != "tamper:version_number":
        from reference_engine.conformance.protocol.interface import ReferenceEngine
        from reference_engine.conformance.protocol.server import answer

        engine = ReferenceEngine()
        # Warm up before the handshake (its deadline allows for start-up), so that
        # the requests after it are answered at once even on a loaded machine.
        engine.catalog.resolve("gamerules-com")
    greeted = False
    seen: set[str] = set()
    for raw in sys.stdin.buffer:
        if KIND == "flood_stderr_forever":
            sys.stderr.buffer.write(b"noise " * 20000 + b"\n")
            sys.stderr.flush()
        try:
            request = json.loads(raw)
        except ValueError:
            continue
        kind = request.get("type")
        if not greeted and kind == "hello":
            greeted = True
            if special_hello(request):
                continue
            if KIND == "exit_after_hello":
                sys.exit(0)
            if KIND == "close_stdout":
                os.close(1)
                forever()
            if KIND == "stop_reading":
                forever()
            continue
        if misbehave(request, kind, seen):
            continue
        seen.add(str(kind))
        out, done = answer(engine, raw.decode())
        if KIND == "tamper":
            out = tamper(out)
        if KIND in ("slow", "stubborn") and kind != "hello":
            time.sleep(float(PARAMETER))
            if ARGUMENT:  # a file that counts the answers, one byte each
                with open(ARGUMENT, "a") as progress:
                    progress.write(".")
        if KIND in ("ignore_term", "stubborn") and done:
            reply(out)
            forever()
        reply(out)
        if done:
            break


#: Modes that misbehave on the handshake itself.
BROKEN_FROM_THE_START = (
    "never_answers",
    "garbage",
    "huge_line",
    "partial_line",
    "not_object",
    "wrong_id",
    "id_as_string",
    "id_as_float",
    "id_as_bool",
    "bad_utf8",
    "nan",
    "deep_json",
)

#: Modes that never get past the handshake, and so need no reference engine.
FAILS_AT_HELLO = {
    *BROKEN_FROM_THE_START,
    "wrong_protocol",
    "unsupported_protocol",
    "no_hello",
    "hello_no_name",
    "hello_bad_variants",
    "hello_variants_list",
    "declares_nothing",
    "declares_unknown",
    "hello_no_variants",
    "duplicate_key",
    "deaf",
}


def tamper(out: dict[str, Any]) -> dict[str, Any]:
    """The reference's answer with one change of type that Python's == would not see."""
    result = out.get("result")
    if PARAMETER == "legal_twice" and out.get("type") == "legal":
        out["actions"] = out["actions"] * 2
    elif isinstance(result, dict):
        if PARAMETER == "points_as_floats":
            result["pips"] = [float(p) for p in result["pips"]]
            result["points"] = [float(p) for p in result["points"]]
        elif PARAMETER == "winner_as_bool" and result["winner"] in (0, 1):
            result["winner"] = bool(result["winner"])  # True == 1 and False == 0
        elif PARAMETER == "result_extra_field":
            result["extra"] = 1
        elif PARAMETER == "points_as_text":
            result["pips"] = "lots"
    elif PARAMETER == "match_as_floats" and out.get("type") == "match":
        out["scores"] = [float(p) for p in out["scores"]]
    return out


def special_hello(request: dict[str, Any]) -> bool:
    """Answer the handshake the mode's way; False when the ordinary hello is still to come."""
    if KIND == "wrong_protocol":
        hello(request, protocol="matador-engine/99")
    elif KIND == "unsupported_protocol":
        reply(
            {
                "id": request["id"],
                "type": "error",
                "code": "unsupported_protocol",
                "message": "I speak matador-engine/2 only",
            }
        )
    elif KIND == "tamper" and PARAMETER == "version_number":
        hello(request, version=1.0)
    elif KIND == "duplicate_key":
        number = request["id"]
        line = f'{{"id": {number}, "id": {number}, "type": "hello", "name": "d", "version": "0", '
        write(line.encode() + b'"protocol": "matador-engine/1", "variants": null}\n')
    elif KIND == "deaf":
        forever()
    elif KIND == "no_hello":
        reply({"id": request["id"], "type": "ok"})
    elif KIND == "hello_no_name":
        hello(request, name=...)
    elif KIND == "hello_bad_variants":
        hello(request, variants={"pagat": {"crosswise": "berndt"}})
    elif KIND == "hello_variants_list":
        hello(request, variants=["pagat"])
    elif KIND == "hello_no_variants":
        hello(request, variants=...)
    elif KIND == "declares_nothing":
        hello(request, variants={})
    elif KIND == "declares_unknown":
        hello(request, variants={"my-house-rules": {}, "tiddlywinks": {}})
    elif KIND in BROKEN_FROM_THE_START:
        return misbehave(request, "hello", set())
    else:
        hello(request)
        return False
    return True


def misbehave(request: dict[str, Any], kind: Any, seen: set[str]) -> bool:
    """Misbehave on this request if the mode says so; True when it did (no proper answer)."""
    if KIND == "hollow" and kind == "new_match":
        reply({"id": request["id"], "type": "error", "code": "unsupported", "message": "no"})
        return True
    if KIND == "never_answers":
        return True
    if KIND == "garbage":
        write(b"hello world, I am not JSON\n")
        return True
    if KIND == "huge_line":
        write(b'{"id": 1, "pad": "' + b"y" * 10_000_000 + b'"}\n')
        return True
    if KIND == "partial_line":
        write(b'{"id": ' + str(request.get("id")).encode())
        return True
    if KIND == "not_object":
        reply([request.get("id"), "hello"])
        return True
    if KIND == "wrong_id":
        reply({"id": int(request.get("id", 0)) + 1, "type": "hello", "name": "x"})
        return True
    if KIND in ("id_as_float", "id_as_bool"):
        number = request["id"]
        reply(
            {
                "id": float(number) if KIND == "id_as_float" else True,
                "type": "hello",
                "name": "x",
                "protocol": "matador-engine/1",
            }
        )
        return True
    if KIND == "id_as_string":
        reply({"id": str(request.get("id")), "type": "hello", "name": "x", "protocol": "x"})
        return True
    if KIND == "bad_utf8":
        write(b'{"id": 1, "type": "hello", "name": "\xff\xfe"}\n')
        return True
    if KIND == "nan" and kind == "hello":
        write(b'{"id": %d, "type": "hello", "name": "n", "version": NaN}\n' % request["id"])
        return True
    if KIND == "deep_json":
        write(b'{"id": %d, "type": "legal", "actions": ' % request["id"] + b"[" * 100000 + b"\n")
        return True
    if KIND == "wrong_shape" and kind == PARAMETER:
        reply({"id": request["id"], "type": kind, "actions": "6-6", "ends": 5, "seat": "0"})
        return True
    if KIND == "crash_on" and kind == PARAMETER:
        sys.stderr.write(f"fake engine: segmentation fault in {kind}\n")
        sys.stderr.flush()
        os._exit(7)
    return False


if __name__ == "__main__":
    main()
