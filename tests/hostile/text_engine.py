"""A program engine that puts a text of the test's choosing into one field it controls.

    python text_engine.py FIELD TEXT_AS_JSON

It answers as the reference engine does (``matador engine``), but for FIELD,
which carries TEXT (a JSON string, so any text, a lone surrogate included, can
be passed):

- ``name``, ``version``: the handshake's name or version;
- ``protocol``: the protocol the handshake names (so the engine is refused);
- ``variants``: the declared variants are pagat, with an option TEXT of value TEXT,
  and a variant named TEXT;
- ``refusal``: the reason of every refused action, and the message of every error;
- ``error``: every ``ends`` request answered with an error whose message is TEXT;
- ``legal``: TEXT as one more legal action, ``ends``: as one more open end;
- ``stderr``: TEXT on standard error (as UTF-8, a lone surrogate as its bytes), then
  the engine stops at the first match;
- ``unasked``: TEXT as a line of its own before the first reply to ``new_match``;
- ``laid``: every accepted play answered as laid TEXT.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from reference_engine.conformance.protocol import server
from reference_engine.conformance.protocol.interface import ReferenceEngine


def altered(field: str, text: str, kind: str, reply: dict[str, Any]) -> dict[str, Any]:
    """``reply`` to a request of ``kind`` with ``text`` put into ``field``."""
    if kind == "hello" and field in ("name", "version", "protocol"):
        reply[field] = text
    elif kind == "hello" and field == "variants":
        reply["variants"] = {"pagat": {text: [text]}, text: {}}
    elif field == "refusal" and reply.get("type") == "refused":
        reply["reason"] = text
    elif field == "refusal" and reply.get("type") == "error":
        reply["message"] = text
    elif field == "error" and kind == "ends":
        reply = {"id": reply["id"], "type": "error", "code": "internal_error", "message": text}
    elif field == "legal" and kind == "legal":
        reply["actions"].append(text)
    elif field == "ends" and kind == "ends":
        reply["ends"].append(text)
    elif field == "laid" and reply.get("type") == "applied":
        reply["laid"] = text
    return reply


def main() -> int:
    field, text = sys.argv[1], json.loads(sys.argv[2])
    engine = ReferenceEngine()
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        try:
            kind = str(json.loads(line).get("type"))
        except (ValueError, AttributeError):
            kind = ""
        if kind == "new_match" and field == "stderr":
            sys.stderr.buffer.write(text.encode("utf-8", "surrogatepass") + b"\n")
            sys.stderr.flush()
            return 3
        if kind == "new_match" and field == "unasked":
            out.write(text.encode("utf-8", "surrogatepass") + b"\n")
        reply, done = server.answer(engine, line)
        reply = altered(field, text, kind, reply)
        out.write(json.dumps(reply).encode() + b"\n")
        out.flush()
        if done:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
