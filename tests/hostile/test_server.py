"""`matador engine` under hostile requests: each gets a typed error, and the server goes on.

The requests are grouped into a few sessions (one process each, through
tests/hostile/harness.py, which fails on a hang, a traceback or a leftover
process). In a session every hostile line is followed by a valid probe, and
each hostile line is its own test item: the error code (from
:class:`ErrorCode`), the id, a message naming the problem, and the probe's
answer, which shows the server went on with its state untouched.
"""

from __future__ import annotations

import json
import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import jsonschema
import pytest

from reference_engine.conformance.protocol.codes import ErrorCode
from reference_engine.conformance.protocol.interface import PROTOCOL_VERSION, ReferenceEngine
from reference_engine.conformance.protocol.server import MAX_DEPTH, MAX_LINE_BYTES, protocol_schema
from reference_engine.engine.deal import Deal
from reference_engine.rules import Catalog

from .harness import run_matador

#: Every test here runs the real command in subprocesses: slow (run with --slow).
pytestmark = pytest.mark.slow

HELLO: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION}
MATCH: dict[str, Any] = {
    "type": "new_match",
    "variant": "gamerules-com",
    "options": {},
    "players": 2,
}
#: The deal of spec/protocol.md's example session: seat 0 opens with 6-6.
HANDS = [
    ["6-6", "3-5", "1-2", "0-4", "2-5", "4-4", "0-3"],
    ["4-6", "1-1", "0-5", "2-6", "3-3", "1-6", "2-4"],
]
DEAL: dict[str, Any] = {"hands": HANDS}
HUGE = "9" * 5000
#: Codes of lines the server cannot read as a request: their id is always null.
UNREAD = (ErrorCode.LINE_TOO_LONG, ErrorCode.TOO_DEEP)


def line(data: dict[str, Any]) -> bytes:
    """``data`` as one request line (without its newline)."""
    return json.dumps(data, separators=(",", ":")).encode()


def strict_json(text: str) -> Any:
    """``text`` as JSON, refusing NaN and the infinities."""

    def refuse(name: str) -> Any:
        raise ValueError(f"{name} in the server's output")

    return json.loads(text, parse_constant=refuse)


@dataclass(frozen=True)
class Hostile:
    """One hostile line and what the server must answer.

    ``request`` is a request without its id (the session gives it a fresh one,
    which the reply must carry), a request with its own (bad) id, or raw bytes
    (the reply's id is then null). ``mentions`` must appear in the message.
    """

    name: str
    request: dict[str, Any] | bytes
    code: ErrorCode
    mentions: str
    #: A valid integer written as a float (2.0): refused by the server, which
    #: reads integers strictly, though JSON Schema's "integer" alone allows it.
    integral_float: bool = False
    #: A probe to send instead of the session's own (with what the reply must hold).
    probe: tuple[bytes, dict[str, Any]] | None = None
    #: The id written in raw bytes, which the reply must carry.
    raw_id: int | None = None


@dataclass
class Session:
    """Lines sent in one process, and where each hostile line's reply and probe's reply are."""

    name: str
    probe: dict[str, Any]
    expect: dict[str, Any]
    lines: list[bytes] = field(default_factory=list)
    #: Line index -> the subset of the reply a setup or probe line must get.
    expected: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: Hostile name -> (the hostile, its line index, the id it must carry).
    hostiles: dict[str, tuple[Hostile, int, int | None]] = field(default_factory=dict)
    _next_id: int = 0

    def fresh_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def setup(self, request: dict[str, Any], expect: dict[str, Any]) -> None:
        """Send a valid request whose reply must hold ``expect``."""
        self.expected[len(self.lines)] = expect
        self.lines.append(line({"id": self.fresh_id(), **request}))

    def send(self, hostile: Hostile) -> None:
        """Send ``hostile``, then a probe."""
        request_id: int | None = None
        if isinstance(hostile.request, bytes):
            raw, request_id = hostile.request, hostile.raw_id
        elif "id" in hostile.request:
            raw = line(hostile.request)
        else:
            request_id = self.fresh_id()
            raw = line({"id": request_id, **hostile.request})
        if hostile.code in UNREAD:
            request_id = None
        assert hostile.name not in self.hostiles and b"\n" not in raw and raw.strip()
        self.hostiles[hostile.name] = (hostile, len(self.lines), request_id)
        self.lines.append(raw)
        if hostile.probe is not None:
            probe, expect = hostile.probe
            self.expected[len(self.lines)] = expect
            self.lines.append(probe)
        else:
            self.setup(self.probe, self.expect)


# ---------------------------------------------------------------------------- the sessions


#: The id of the raw lines that carry a valid one.
RAW_ID = 4242


def with_id(text: str) -> bytes:
    """A raw request line with a valid id (for lines json.dumps cannot write)."""
    return text.replace("ID", str(RAW_ID)).encode()


def with_number(request: dict[str, Any], name: str, number: str) -> bytes:
    """``request``, with a valid id, its field ``name`` set to ``number`` as written."""
    raw = line({"id": RAW_ID, **request, name: 0})
    assert raw.count(f'"{name}":0'.encode()) == 1
    return raw.replace(f'"{name}":0'.encode(), f'"{name}":{number}'.encode())


def padded(request: dict[str, Any], size: int) -> bytes:
    """``request`` as a line of exactly ``size`` bytes (spaces before the closing brace)."""
    text = line(request)
    return text[:-1] + b" " * (size - len(text)) + b"}"


PROTOCOL = [
    Hostile("not-json", b"hello there", ErrorCode.BAD_REQUEST, "not json"),
    Hostile("truncated-json", b'{"id": 1, "type": "legal"', ErrorCode.BAD_REQUEST, "not json"),
    Hostile("trailing-garbage", b'{"id": 1, "type": "legal"} x', ErrorCode.BAD_REQUEST, "not json"),
    Hostile("invalid-utf8", b'\xff\xfe{"id": 1}', ErrorCode.BAD_REQUEST, "utf-8"),
    Hostile(
        "invalid-utf8-in-a-string",
        b'{"id": 1, "type": "legal", "x": "\xc3\x28"}',
        ErrorCode.BAD_REQUEST,
        "utf-8",
    ),
    Hostile(
        "utf8-encoded-surrogate",
        b'{"id": 1, "type": "\xed\xa0\x80"}',
        ErrorCode.BAD_REQUEST,
        "utf-8",
    ),
    Hostile("nan", b'{"id": 1, "type": "legal", "x": NaN}', ErrorCode.BAD_REQUEST, "nan"),
    Hostile(
        "infinity", b'{"id": 1, "type": "legal", "x": Infinity}', ErrorCode.BAD_REQUEST, "infinity"
    ),
    Hostile(
        "minus-infinity",
        b'{"id": -Infinity, "type": "legal"}',
        ErrorCode.BAD_REQUEST,
        "infinity",
    ),
    Hostile(
        "repeated-key",
        b'{"id": 1, "type": "legal", "type": "quit"}',
        ErrorCode.BAD_REQUEST,
        "twice",
    ),
    Hostile("json-array", b'[{"id": 1, "type": "legal"}]', ErrorCode.BAD_REQUEST, "array"),
    Hostile("json-string", b'"legal"', ErrorCode.BAD_REQUEST, "object"),
    Hostile("json-number", b"42", ErrorCode.BAD_REQUEST, "object"),
    Hostile("json-null", b"null", ErrorCode.BAD_REQUEST, "object"),
    Hostile("empty-object", b"{}", ErrorCode.BAD_REQUEST, "id"),
    Hostile("id-true", {"id": True, "type": "legal"}, ErrorCode.BAD_REQUEST, "id"),
    Hostile("id-float", {"id": 1.5, "type": "legal"}, ErrorCode.BAD_REQUEST, "id"),
    Hostile(
        "id-integral-float",
        {"id": 1.0, "type": "legal"},
        ErrorCode.BAD_REQUEST,
        "id",
        integral_float=True,
    ),
    Hostile("id-string", {"id": "1", "type": "legal"}, ErrorCode.BAD_REQUEST, "id"),
    Hostile("id-missing", b'{"type": "legal"}', ErrorCode.BAD_REQUEST, "id"),
    Hostile("id-null", {"id": None, "type": "legal"}, ErrorCode.BAD_REQUEST, "id"),
    Hostile("id-negative", {"id": -1, "type": "legal"}, ErrorCode.BAD_REQUEST, "id"),
    Hostile("id-2-to-the-53", {"id": 2**53, "type": "legal"}, ErrorCode.BAD_REQUEST, "id"),
    Hostile(
        "id-5000-digits",
        f'{{"id": {HUGE}, "type": "legal"}}'.encode(),
        ErrorCode.BAD_REQUEST,
        "out of range",
    ),
    Hostile("id-1e400", b'{"id": 1e400, "type": "legal"}', ErrorCode.BAD_REQUEST, "out of range"),
    Hostile("type-missing", {}, ErrorCode.BAD_REQUEST, "type"),
    Hostile("type-number", {"type": 7}, ErrorCode.BAD_REQUEST, "type"),
    Hostile("type-null", {"type": None}, ErrorCode.BAD_REQUEST, "type"),
    Hostile("type-list", {"type": ["legal"]}, ErrorCode.BAD_REQUEST, "type"),
    Hostile("type-unknown", {"type": "frobnicate"}, ErrorCode.UNKNOWN_REQUEST, "frobnicate"),
    Hostile("type-empty", {"type": ""}, ErrorCode.UNKNOWN_REQUEST, "unknown type"),
    Hostile("type-lone-surrogate", {"type": "\ud800"}, ErrorCode.UNKNOWN_REQUEST, "unknown type"),
    Hostile("type-case", {"type": "LEGAL"}, ErrorCode.UNKNOWN_REQUEST, "legal"),
    Hostile("quit-with-a-bad-id", {"id": "x", "type": "quit"}, ErrorCode.BAD_REQUEST, "id"),
    Hostile(
        "line-of-2-mb",
        line({"id": 1, "type": "legal", "pad": "a" * (2 << 20)}),
        ErrorCode.LINE_TOO_LONG,
        "longer than",
    ),
    Hostile(
        "line-one-byte-too-long",
        padded({"id": 1, **HELLO}, MAX_LINE_BYTES + 1),
        ErrorCode.LINE_TOO_LONG,
        "longer than",
        # a line of exactly the limit is still read
        probe=(padded({"id": 4343, **HELLO}, MAX_LINE_BYTES), {"id": 4343, "type": "hello"}),
    ),
    Hostile("nested-10000-deep", b"[" * 10000 + b"]" * 10000, ErrorCode.TOO_DEEP, "nested"),
    Hostile(
        "nested-objects-in-a-field",
        with_id('{"id": ID, "type": "legal", "x": ' + '{"a": ' * 40 + "1" + "}" * 41),
        ErrorCode.TOO_DEEP,
        "nested",
    ),
    Hostile(
        "nested-one-too-deep",
        with_id('{"id": ID, "type": "legal", "x": ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}"),
        ErrorCode.TOO_DEEP,
        "nested",
    ),
    Hostile(
        "hello-another-version",
        {"type": "hello", "protocol": "matador-engine/2"},
        ErrorCode.UNSUPPORTED_PROTOCOL,
        "matador-engine/2",
    ),
    Hostile("hello-no-protocol", {"type": "hello"}, ErrorCode.BAD_REQUEST, "protocol"),
    Hostile(
        "hello-protocol-number", {"type": "hello", "protocol": 1}, ErrorCode.BAD_REQUEST, "protocol"
    ),
]

MATCHES = [
    Hostile("players-true", {**MATCH, "players": True}, ErrorCode.BAD_REQUEST, "players"),
    Hostile(
        "players-2.0",
        {**MATCH, "players": 2.0},
        ErrorCode.BAD_REQUEST,
        "players",
        integral_float=True,
    ),
    Hostile("players-minus-1", {**MATCH, "players": -1}, ErrorCode.BAD_REQUEST, "players"),
    Hostile("players-1", {**MATCH, "players": 1}, ErrorCode.BAD_REQUEST, "players"),
    Hostile("players-5", {**MATCH, "players": 5}, ErrorCode.BAD_REQUEST, "players"),
    Hostile("players-99", {**MATCH, "players": 99}, ErrorCode.BAD_REQUEST, "players"),
    Hostile(
        "players-5000-digits",
        with_number(MATCH, "players", HUGE),
        ErrorCode.BAD_REQUEST,
        "players: the number 9999",
        raw_id=RAW_ID,
    ),
    Hostile(
        "players-1e400",
        with_number(MATCH, "players", "1e400"),
        ErrorCode.BAD_REQUEST,
        "out of range",
        raw_id=RAW_ID,
    ),
    Hostile("players-string", {**MATCH, "players": "2"}, ErrorCode.BAD_REQUEST, "players"),
    Hostile("players-null", {**MATCH, "players": None}, ErrorCode.BAD_REQUEST, "players"),
    Hostile(
        "players-missing",
        {k: v for k, v in MATCH.items() if k != "players"},
        ErrorCode.BAD_REQUEST,
        "players",
    ),
    Hostile(
        "option-value-list",
        {**MATCH, "options": {"draw": ["until_playable"]}},
        ErrorCode.BAD_REQUEST,
        "options.draw",
    ),
    Hostile(
        "option-value-number", {**MATCH, "options": {"draw": 1}}, ErrorCode.BAD_REQUEST, "options"
    ),
    Hostile("options-list", {**MATCH, "options": []}, ErrorCode.BAD_REQUEST, "options"),
    Hostile(
        "options-missing",
        {k: v for k, v in MATCH.items() if k != "options"},
        ErrorCode.BAD_REQUEST,
        "options",
    ),
    Hostile("variant-number", {**MATCH, "variant": 7}, ErrorCode.BAD_REQUEST, "variant"),
    Hostile("variant-empty", {**MATCH, "variant": ""}, ErrorCode.BAD_REQUEST, "variant"),
    Hostile("variant-too-long", {**MATCH, "variant": "x" * 5000}, ErrorCode.BAD_REQUEST, "variant"),
    Hostile(
        "options-60000-of-them",
        {**MATCH, "options": {f"o{index}": "x" for index in range(60_000)}},
        ErrorCode.BAD_REQUEST,
        "64 fields or fewer",
    ),
    Hostile(
        "variant-unknown",
        {**MATCH, "variant": "no-such-variant"},
        ErrorCode.UNSUPPORTED,
        "no-such-variant",
    ),
    Hostile(
        "option-unknown", {**MATCH, "options": {"colour": "red"}}, ErrorCode.UNSUPPORTED, "colour"
    ),
    Hostile(
        "option-value-unknown",
        {**MATCH, "options": {"draw": "sometimes"}},
        ErrorCode.UNSUPPORTED,
        "sometimes",
    ),
    Hostile(
        "players-3-in-a-4-player-variant",
        {**MATCH, "variant": "pagat", "players": 3},
        ErrorCode.UNSUPPORTED,
        "not 3",
    ),
]

ORDER_BEFORE_MATCH = [
    Hostile(
        "new-hand-before-new-match",
        {"type": "new_hand", "deal": DEAL},
        ErrorCode.NO_MATCH,
        "new_match",
    ),
    Hostile("legal-before-new-match", {"type": "legal"}, ErrorCode.NO_MATCH, "new_match"),
    Hostile("ends-before-new-match", {"type": "ends"}, ErrorCode.NO_MATCH, "new_match"),
    Hostile("to-act-before-new-match", {"type": "to_act"}, ErrorCode.NO_MATCH, "new_match"),
    Hostile(
        "apply-before-new-match",
        {"type": "apply", "action": "6-6", "player": 7},
        ErrorCode.NO_MATCH,
        "new_match",
    ),
    Hostile("result-before-new-match", {"type": "result"}, ErrorCode.NO_MATCH, "new_match"),
    Hostile("match-before-new-match", {"type": "match"}, ErrorCode.NO_MATCH, "new_match"),
]
ORDER_BEFORE_HAND = [
    Hostile("legal-before-new-hand", {"type": "legal"}, ErrorCode.NO_HAND, "new_hand"),
    Hostile("ends-before-new-hand", {"type": "ends"}, ErrorCode.NO_HAND, "new_hand"),
    Hostile("to-act-before-new-hand", {"type": "to_act"}, ErrorCode.NO_HAND, "new_hand"),
    Hostile(
        "apply-before-new-hand",
        {"type": "apply", "action": "6-6", "player": None},
        ErrorCode.NO_HAND,
        "new_hand",
    ),
    Hostile("result-before-new-hand", {"type": "result"}, ErrorCode.NO_HAND, "new_hand"),
]
ORDER_IN_HAND = [
    Hostile(
        "new-hand-during-a-hand",
        {"type": "new_hand", "deal": DEAL},
        ErrorCode.HAND_IN_PROGRESS,
        "not over",
    ),
]
ORDER_AFTER_MATCH = [
    Hostile(
        "new-hand-after-the-match-is-won",
        {"type": "new_hand", "deal": DEAL},
        ErrorCode.MATCH_OVER,
        "won",
    ),
]


def deal(**fields: Any) -> dict[str, Any]:
    """A new_hand request with ``fields`` as its deal."""
    return {"type": "new_hand", "deal": fields}


SHORT = [hand[:6] for hand in HANDS]
SET = [f"{low}-{high}" for high in range(7) for low in range(high + 1)]
UNDEALT = [tile for tile in SET if tile not in HANDS[0] + HANDS[1]]
#: Three more hands of seven, as if for a four-player match.
FOUR = [SET[0:7], SET[7:14], SET[14:21], SET[21:28]]

DEALS = [
    Hostile("deal-number", {"type": "new_hand", "deal": 5}, ErrorCode.BAD_REQUEST, "deal"),
    Hostile(
        "deal-flat-list", {"type": "new_hand", "deal": HANDS[0]}, ErrorCode.BAD_REQUEST, "deal"
    ),
    Hostile("deal-string", {"type": "new_hand", "deal": "6-6 3-5"}, ErrorCode.BAD_REQUEST, "deal"),
    Hostile("deal-null", {"type": "new_hand", "deal": None}, ErrorCode.BAD_REQUEST, "deal"),
    Hostile("deal-missing", {"type": "new_hand"}, ErrorCode.BAD_REQUEST, "no deal field"),
    Hostile(
        "deal-and-position",
        {"type": "new_hand", "deal": {"hands": HANDS}, "position": "a position"},
        ErrorCode.BAD_REQUEST,
        "both a deal and a position",
    ),
    Hostile("hands-missing", deal(), ErrorCode.BAD_REQUEST, "hands"),
    Hostile("hands-string", deal(hands="6-6"), ErrorCode.BAD_REQUEST, "deal.hands"),
    Hostile(
        "hands-with-numbers",
        deal(hands=[[6, 6, 3, 5], [4, 6]]),
        ErrorCode.BAD_REQUEST,
        "deal.hands[0][0]",
    ),
    Hostile("hands-of-strings", deal(hands=HANDS[0][:2]), ErrorCode.BAD_REQUEST, "deal.hands[0]"),
    Hostile(
        "tile-not-a-tile",
        deal(hands=[["x-y", *HANDS[0][1:]], HANDS[1]]),
        ErrorCode.BAD_REQUEST,
        "x-y",
    ),
    Hostile(
        "tile-bracketed",
        deal(hands=[["[6-6]", *HANDS[0][1:]], HANDS[1]]),
        ErrorCode.BAD_REQUEST,
        "tile",
    ),
    Hostile("deal-unknown-field", deal(hands=HANDS, dealer=0), ErrorCode.BAD_REQUEST, "dealer"),
    Hostile(
        "designated-minus-1", deal(hands=HANDS, designated=-1), ErrorCode.BAD_REQUEST, "designated"
    ),
    Hostile(
        "designated-string", deal(hands=HANDS, designated="0"), ErrorCode.BAD_REQUEST, "designated"
    ),
    Hostile(
        "designated-true", deal(hands=HANDS, designated=True), ErrorCode.BAD_REQUEST, "designated"
    ),
    Hostile(
        "designated-5000-digits",
        with_id(
            line(deal(hands=HANDS, designated=0))
            .decode()
            .replace('{"type"', '{"id":ID,"type"')
            .replace('"designated":0', f'"designated":{HUGE}')
        ),
        ErrorCode.BAD_REQUEST,
        "out of range",
        raw_id=RAW_ID,
    ),
    Hostile("one-hand", deal(hands=HANDS[:1]), ErrorCode.BAD_REQUEST, "deal.hands"),
    Hostile("five-hands", deal(hands=[*FOUR, []]), ErrorCode.BAD_REQUEST, "deal.hands"),
    Hostile(
        "boneyard-string", deal(hands=HANDS, boneyard="0-0"), ErrorCode.BAD_REQUEST, "boneyard"
    ),
    Hostile(
        "a-hand-of-100000-tiles",
        deal(hands=[["0-0"] * 100_000, HANDS[1]]),
        ErrorCode.BAD_REQUEST,
        "190 items or fewer",
    ),
    Hostile(
        "a-boneyard-of-100000-tiles",
        deal(hands=HANDS, boneyard=["0-0"] * 100_000),
        ErrorCode.BAD_REQUEST,
        "190 items or fewer",
    ),
    Hostile("designated-seat-5", deal(hands=HANDS, designated=5), ErrorCode.BAD_DEAL, "designated"),
    Hostile(
        "duplicate-tile",
        deal(hands=[["6-6", *HANDS[0][1:]], ["6-6", *HANDS[1][1:]]]),
        ErrorCode.BAD_DEAL,
        "twice",
    ),
    Hostile(
        "foreign-tile-7-7",
        deal(hands=[["7-7", *HANDS[0][1:]], HANDS[1]]),
        ErrorCode.BAD_DEAL,
        "7-7",
    ),
    Hostile(
        "foreign-tile-10-10",
        deal(hands=[["10-10", *HANDS[0][1:]], HANDS[1]]),
        ErrorCode.BAD_DEAL,
        "10-10",
    ),
    Hostile("short-hands", deal(hands=SHORT), ErrorCode.BAD_DEAL, "holds 6 tiles"),
    Hostile("empty-hands", deal(hands=[[], []]), ErrorCode.BAD_DEAL, "holds 0 tiles"),
    Hostile(
        "three-hands-in-a-two-player-match",
        deal(hands=FOUR[:3]),
        ErrorCode.BAD_DEAL,
        "2 players",
    ),
    Hostile("four-hands-in-a-two-player-match", deal(hands=FOUR), ErrorCode.BAD_DEAL, "2 players"),
    Hostile(
        "boneyard-repeats-a-tile",
        deal(hands=HANDS, boneyard=[*UNDEALT[:-1], UNDEALT[0]]),
        ErrorCode.BAD_DEAL,
        "twice",
    ),
    Hostile(
        "boneyard-misses-a-tile",
        deal(hands=HANDS, boneyard=UNDEALT[:-1]),
        ErrorCode.BAD_DEAL,
        "neither",
    ),
]

APPLY: dict[str, Any] = {"type": "apply", "action": "6-6", "player": None}
APPLIES = [
    Hostile("player-7", {**APPLY, "player": 7}, ErrorCode.NO_SUCH_SEAT, "7"),
    Hostile("player-2-of-2", {**APPLY, "player": 2}, ErrorCode.NO_SUCH_SEAT, "seats 0..1"),
    Hostile("player-minus-1", {**APPLY, "player": -1}, ErrorCode.BAD_REQUEST, "player"),
    Hostile("player-string", {**APPLY, "player": "0"}, ErrorCode.BAD_REQUEST, "player"),
    Hostile("player-true", {**APPLY, "player": True}, ErrorCode.BAD_REQUEST, "player"),
    Hostile(
        "player-0.0", {**APPLY, "player": 0.0}, ErrorCode.BAD_REQUEST, "player", integral_float=True
    ),
    Hostile(
        "player-5000-digits",
        with_number(APPLY, "player", HUGE),
        ErrorCode.BAD_REQUEST,
        "player",
        raw_id=RAW_ID,
    ),
    Hostile(
        "player-missing",
        {"type": "apply", "action": "6-6"},
        ErrorCode.BAD_REQUEST,
        "player",
    ),
    Hostile("action-number", {**APPLY, "action": 66}, ErrorCode.BAD_REQUEST, "action"),
    Hostile("action-null", {**APPLY, "action": None}, ErrorCode.BAD_REQUEST, "action"),
    Hostile("action-list", {**APPLY, "action": ["6-6"]}, ErrorCode.BAD_REQUEST, "action"),
    Hostile("action-empty", {**APPLY, "action": ""}, ErrorCode.BAD_REQUEST, "action"),
    Hostile("action-too-long", {**APPLY, "action": "6" * 100_000}, ErrorCode.BAD_REQUEST, "action"),
    Hostile("action-missing", {"type": "apply", "player": None}, ErrorCode.BAD_REQUEST, "action"),
    Hostile(
        "action-not-notation",
        {**APPLY, "action": "frobnicate"},
        ErrorCode.BAD_NOTATION,
        "frobnicate",
    ),
    Hostile("action-no-such-end", {**APPLY, "action": "6-6@Q"}, ErrorCode.BAD_NOTATION, "6-6@q"),
    Hostile(
        "player-7-and-bad-notation",
        {**APPLY, "action": "frobnicate", "player": 7},
        ErrorCode.NO_SUCH_SEAT,
        "7",
    ),
]


def match_to_the_end(seed: int = 2024) -> list[dict[str, Any]]:
    """The new_hand and apply requests of a two-player gamerules-com match played to its end."""
    rules = Catalog.shipped().resolve("gamerules-com", {})
    engine = ReferenceEngine()
    engine.new_match("gamerules-com", {}, 2)
    rng = random.Random(seed)
    requests: list[dict[str, Any]] = []
    while engine.match_state()["winner"] is None:
        data = Deal.shuffled(rules, 2, rng).to_data()
        engine.new_hand(data)
        requests.append({"type": "new_hand", "deal": data})
        while engine.to_act() is not None:
            action = rng.choice(engine.legal())
            assert engine.apply(action, None) is None
            requests.append({"type": "apply", "action": action, "player": None})
    return requests


@cache
def sessions() -> dict[str, Session]:
    """Every session, built once (the match played to its end takes a moment)."""
    hello_probe = (HELLO, {"type": "hello", "protocol": PROTOCOL_VERSION})

    protocol = Session("protocol", *hello_probe)
    protocol.setup(HELLO, {"type": "hello"})
    for hostile in PROTOCOL:
        protocol.send(hostile)

    matches = Session("new_match", MATCH, {"type": "ok"})
    matches.setup(HELLO, {"type": "hello"})
    for hostile in MATCHES:
        matches.send(hostile)

    order = Session("order", *hello_probe)
    order.setup(HELLO, {"type": "hello"})
    for hostile in ORDER_BEFORE_MATCH:
        order.send(hostile)
    order.setup(MATCH, {"type": "ok"})
    for hostile in ORDER_BEFORE_HAND:
        order.send(hostile)
    order.setup({"type": "new_hand", "deal": DEAL}, {"type": "ok"})
    for hostile in ORDER_IN_HAND:
        order.send(hostile)
    order.setup(MATCH, {"type": "ok"})
    for request in match_to_the_end():
        order.setup(request, {"type": "ok" if request["type"] == "new_hand" else "applied"})
    for hostile in ORDER_AFTER_MATCH:
        order.send(hostile)

    deals = Session("new_hand", {"type": "match"}, {"type": "match", "scores": [0, 0]})
    deals.setup(HELLO, {"type": "hello"})
    deals.setup(MATCH, {"type": "ok"})
    for hostile in DEALS:
        deals.send(hostile)
    deals.setup({"type": "new_hand", "deal": DEAL}, {"type": "ok"})

    applies = Session("apply", {"type": "to_act"}, {"type": "to_act", "seat": 0})
    applies.setup(HELLO, {"type": "hello"})
    applies.setup(MATCH, {"type": "ok"})
    applies.setup({"type": "new_hand", "deal": DEAL}, {"type": "ok"})
    for hostile in APPLIES:
        applies.send(hostile)
    applies.setup({"type": "legal"}, {"type": "legal", "actions": ["6-6"]})
    applies.setup(APPLY, {"type": "applied"})

    return {session.name: session for session in (protocol, matches, order, deals, applies)}


ALL = [*PROTOCOL, *MATCHES, *ORDER_BEFORE_MATCH, *ORDER_BEFORE_HAND, *ORDER_IN_HAND]
ALL += [*ORDER_AFTER_MATCH, *DEALS, *APPLIES]
SESSION_OF = {
    hostile.name: name
    for name, group in [
        ("protocol", PROTOCOL),
        ("new_match", MATCHES),
        ("order", ORDER_BEFORE_MATCH + ORDER_BEFORE_HAND + ORDER_IN_HAND + ORDER_AFTER_MATCH),
        ("new_hand", DEALS),
        ("apply", APPLIES),
    ]
    for hostile in group
}


@dataclass(frozen=True)
class Transcript:
    """How one session ended: the exit status and every reply, parsed."""

    status: int
    replies: list[dict[str, Any]]
    raw: list[str]
    seconds: float


@pytest.fixture(scope="module")
def transcripts() -> dict[str, Transcript]:
    """Every session run once through the real `matador engine` (two at a time)."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(sessions(), pool.map(run_session, sessions().values()), strict=True))


def run_session(session: Session) -> Transcript:
    """Send ``session``'s lines, then ``quit``, to a fresh `matador engine`."""
    stdin = b"\n".join([*session.lines, line({"id": 999_999, "type": "quit"})]) + b"\n"
    finished = run_matador("engine", stdin=stdin, timeout=20)
    raw = finished.stdout.splitlines()
    replies = []
    for text in raw:
        try:
            replies.append(strict_json(text))
        except ValueError:
            replies.append({"not strict JSON": text[:200]})
    return Transcript(finished.status, replies, raw, finished.seconds)


# ---------------------------------------------------------------------------- the tests


def test_there_are_many_distinct_hostile_requests() -> None:
    assert len(ALL) >= 60
    assert len({hostile.name for hostile in ALL}) == len(ALL)
    lines = {h.request if isinstance(h.request, bytes) else line(h.request) for h in ALL}
    assert len(lines) >= 60


def test_every_error_code_but_internal_error_is_provoked() -> None:
    provoked = {hostile.code for hostile in ALL}
    assert provoked == set(ErrorCode) - {ErrorCode.INTERNAL_ERROR}


@pytest.mark.parametrize("name", sorted(sessions()))
def test_each_session_answers_every_line_in_strict_json_and_exits_0(
    name: str, transcripts: dict[str, Transcript]
) -> None:
    session, transcript = sessions()[name], transcripts[name]
    assert transcript.status == 0
    assert len(transcript.replies) == len(session.lines) + 1, "one reply per line"
    assert all("not strict JSON" not in reply for reply in transcript.replies)
    assert all(len(text.encode()) <= MAX_LINE_BYTES for text in transcript.raw)
    assert transcript.replies[-1] == {"id": 999_999, "type": "bye"}
    reply_schema = stock_validator("reply")
    for reply in transcript.replies:
        assert reply_schema.is_valid(reply), reply
    for index, expect in session.expected.items():
        reply = transcript.replies[index]
        assert reply.items() >= expect.items(), (session.lines[index][:200], reply)


@pytest.mark.parametrize("hostile", ALL, ids=[hostile.name for hostile in ALL])
def test_a_hostile_request_gets_its_error_and_the_server_goes_on(
    hostile: Hostile, transcripts: dict[str, Transcript]
) -> None:
    session = sessions()[SESSION_OF[hostile.name]]
    transcript = transcripts[session.name]
    _, index, request_id = session.hostiles[hostile.name]
    reply = transcript.replies[index]
    assert set(reply) == {"id", "type", "code", "message"}, reply
    assert reply["type"] == "error"
    assert reply["code"] == hostile.code.value
    assert ErrorCode(reply["code"]) is hostile.code
    assert reply["id"] == request_id and (reply["id"] is None) is (request_id is None)
    assert hostile.mentions.lower() in reply["message"].lower(), reply["message"]
    assert len(reply["message"]) <= 400
    probe = transcript.replies[index + 1]
    assert probe.items() >= session.expected[index + 1].items(), probe
    assert probe["id"] == strict_json(session.lines[index + 1].decode())["id"]


@cache
def stock_validator(definition: str) -> jsonschema.protocols.Validator:
    """A plain JSON Schema validator of ``#/$defs/DEFINITION`` (no stricter integers)."""
    schema = protocol_schema()
    subschema = {"$defs": schema["$defs"], "$ref": f"#/$defs/{definition}"}
    return jsonschema.Draft202012Validator(subschema)


SCHEMA_CASES = [hostile for hostile in ALL if isinstance(hostile.request, dict)]


@pytest.mark.parametrize("hostile", SCHEMA_CASES, ids=[hostile.name for hostile in SCHEMA_CASES])
def test_the_schema_agrees_with_the_server(hostile: Hostile) -> None:
    """The schema refuses what the server refuses as malformed, and allows what it takes up."""
    assert isinstance(hostile.request, dict)
    request = hostile.request if "id" in hostile.request else {"id": 1, **hostile.request}
    # The definition of the request's own type when there is one: "request" is a
    # oneOf, which a validator must check fully against every type (slow on a huge deal).
    kind = request.get("type")
    known = isinstance(kind, str) and f"{kind}_request" in protocol_schema()["$defs"]
    valid = stock_validator(f"{kind}_request" if known else "request").is_valid(request)
    if hostile.code in (ErrorCode.BAD_REQUEST, ErrorCode.UNKNOWN_REQUEST):
        assert valid is hostile.integral_float
    else:
        assert valid


def test_the_valid_requests_of_the_sessions_follow_the_schema() -> None:
    validator = stock_validator("request")
    for session in sessions().values():
        for index in session.expected:
            request = json.loads(session.lines[index])
            assert validator.is_valid(request), request
