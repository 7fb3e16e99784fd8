"""``replay`` checks every game record fully, and every problem is a located finding.

The records are real: ``matador play gamerules-com --seed 3 --json`` (and the
same for dutch, whose designated opener rotates). :data:`CORRUPTIONS` breaks
them one way each; every case has a stable id and says the first finding it
must produce: its kind, the JSON Pointer it names and, where a rule decides it,
the rule (and the reason code of an illegal action). The cases run here
in-process; tests/hostile/test_records.py runs a subset through the real
command line.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import inspect
import io
import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

from reference_engine.cli import run
from reference_engine.engine.actions import DRAW, Action, AnyAction, Play
from reference_engine.engine.deal import Deal, deal_problems
from reference_engine.engine.hand import Hand, Phase
from reference_engine.engine.hand.refusals import CITED_AS
from reference_engine.engine.match import Match
from reference_engine.engine.record import (
    FINDING_LIMIT,
    Finding,
    FindingKind,
    RecordSyntaxError,
    parse_record,
    record_schema,
    replay,
)
from reference_engine.errors import DealError, Reason
from reference_engine.rules import Catalog, Rules

Record = dict[str, Any]
#: An edit changes the record in place, or returns a :class:`Whole` that replaces it.
Edit = Callable[[Record], Any]


@dataclass(frozen=True)
class Whole:
    """What an edit returns to replace the whole record."""

    value: Any


@cache
def _played(variant: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    assert run(["play", variant, "--seed", "3", "--json"], out, err) == 0, err.getvalue()
    return out.getvalue()


def base_record(variant: str = "gamerules-com") -> Record:
    """A fresh copy of ``matador play VARIANT --seed 3 --json``."""
    record: Record = json.loads(_played(variant))
    return record


@cache
def _rules(variant: str) -> Rules:
    data = base_record(variant)
    return Catalog.shipped().resolve(data["variant"], data["options"])


def _hand(record: Record, index: int) -> Hand:
    rules = _rules(record["variant"])
    return Hand(rules, Deal.from_data(record["hands"][index]["deal"], rules))


def _steps(record: Record, index: int) -> Iterator[tuple[int, Hand, AnyAction]]:
    """Each action of hand ``index`` with the hand as it stands just before it."""
    hand = _hand(record, index)
    for number, text in enumerate(record["hands"][index]["actions"]):
        action = Action.parse(text)
        yield number, hand, action
        hand.apply(action)


@dataclass(frozen=True)
class Corruption:
    """One way to break a record, and the first finding it must produce."""

    id: str
    edit: Edit
    kind: FindingKind
    pointer: str
    rule: str | None = None
    reason: Reason | None = None
    says: str = ""
    variant: str = "gamerules-com"

    def build(self) -> Any:
        """The corrupted record."""
        record = base_record(self.variant)
        replaced = self.edit(record)
        return replaced.value if isinstance(replaced, Whole) else record


# --------------------------------------------------------------------------- edits


def put(*path: str | int, value: Any) -> Edit:
    """Set the value at ``path``."""

    def edit(record: Record) -> None:
        target: Any = record
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value

    return edit


def drop(*path: str | int) -> Edit:
    """Remove the member or element at ``path``."""

    def edit(record: Record) -> None:
        target: Any = record
        for part in path[:-1]:
            target = target[part]
        del target[path[-1]]

    return edit


def both(*edits: Edit) -> Edit:
    """Every edit in turn."""

    def edit(record: Record) -> None:
        for each in edits:
            each(record)

    return edit


def whole(value: Any) -> Edit:
    """Replace the whole record."""
    return lambda record: Whole(value)


def reseat(seats: int, players: int | None = None) -> Edit:
    """Deal every hand again to ``seats`` seats of the right size, from the same tiles."""

    def edit(record: Record) -> None:
        rules = _rules(record["variant"])
        size = rules.hand_size.for_players(seats)
        for raw in record["hands"]:
            deal = raw["deal"]
            tiles = [tile for hand in deal["hands"] for tile in hand] + deal["boneyard"]
            deal["hands"] = [tiles[seat * size : (seat + 1) * size] for seat in range(seats)]
            deal["boneyard"] = tiles[seats * size :]
        if players is not None:
            record["players"] = players

    return edit


def move_to_boneyard(record: Record) -> None:
    """Seat 0 of hand 1 gives its last tile to the boneyard: 6 tiles, the set still whole."""
    deal = record["hands"][0]["deal"]
    deal["boneyard"].append(deal["hands"][0].pop())


def move_to_hand(record: Record) -> None:
    """Seat 0 of hand 1 takes the last boneyard tile: 8 tiles, the set still whole."""
    deal = record["hands"][0]["deal"]
    deal["hands"][0].append(deal["boneyard"].pop())


def actions_of(index: int, change: Callable[[list[Any]], Any]) -> Edit:
    """Change the action list of hand ``index``."""
    return lambda record: change(record["hands"][index]["actions"]) and None


def replace_step(index: int, choose: Callable[[Hand, AnyAction], str | None]) -> Edit:
    """Replace the first action of hand ``index`` for which ``choose`` gives a replacement."""

    def edit(record: Record) -> None:
        for number, hand, action in _steps(record, index):
            replacement = choose(hand, action)
            if replacement is not None:
                record["hands"][index]["actions"][number] = replacement
                return
        raise AssertionError("no action to replace: has the seed's game changed?")

    return edit


def step_pointer(index: int, choose: Callable[[Hand, AnyAction], str | None]) -> str:
    """The pointer of the action :func:`replace_step` replaces."""
    record = base_record()
    for number, hand, action in _steps(record, index):
        if choose(hand, action) is not None:
            return f"/hands/{index}/actions/{number}"
    raise AssertionError("no action to replace: has the seed's game changed?")


def _tile_of_another_seat(hand: Hand, action: AnyAction) -> str | None:
    """Mid-hand, a play of a tile the seat to act does not hold but another seat does."""
    if hand.phase is not Phase.PLAY or len(hand.history) < 3 or not isinstance(action, Play):
        return None
    other = (hand.current + 1) % hand.players
    tiles = hand.hand_of(other)
    return f"{tiles[0]}@L:{tiles[0].low}" if tiles else None


def _right_after_the_opening(hand: Hand, action: AnyAction) -> str | None:
    """Right after the opening, a tile of the seat that just opened."""
    if len(hand.history) != 1:
        return None
    opener = (hand.current - 1) % hand.players
    tile = hand.hand_of(opener)[0]
    return f"{tile}@L:{tile.low}"


def _draw_holding_a_play(hand: Hand, action: AnyAction) -> str | None:
    """A draw by a seat that can play (gamerules-com: draw only with no play)."""
    legal = hand.legal_actions()
    if hand.phase is Phase.PLAY and hand.boneyard_count and DRAW not in legal and legal:
        return "draw"
    return None


def _pass_instead_of_drawing(hand: Hand, action: AnyAction) -> str | None:
    """A pass by a seat that must draw."""
    if hand.phase is Phase.PLAY and hand.legal_actions() == (DRAW,):
        return "pass"
    return None


def _tile_that_does_not_fit(hand: Hand, action: AnyAction) -> str | None:
    """A tile the seat holds that goes on neither end, and is no matador."""
    if hand.phase is not Phase.PLAY:
        return None
    playable = {a.tile for a in hand.legal_actions() if isinstance(a, Play)}
    rules = hand.rules
    for tile in hand.hand_of(hand.current):
        if tile not in playable and not rules.is_matador(tile.low, tile.high):
            return f"{tile}@L:{tile.high}"
    return None


def _tile_nobody_holds(hand: Hand, action: AnyAction) -> str | None:
    """Mid-hand, a play of a tile still in the boneyard."""
    if hand.phase is not Phase.PLAY or not hand.boneyard_count or len(hand.history) < 3:
        return None
    held = {tile for seat in range(hand.players) for tile in hand.hand_of(seat)}
    played = {a.tile for a in hand.history if isinstance(a, Play)}
    for tile in hand.deal.boneyard:
        if tile not in held and tile not in played:
            return f"{tile}@L:{tile.low}"
    return None


def wrong_designated(record: Record) -> None:
    """Hand 2 of the dutch record names the seat the rotation does not give."""
    deal = record["hands"][1]["deal"]
    deal["designated"] = 1 - deal["designated"]


def extra_hand(record: Record) -> None:
    """Another hand after the match was won."""
    record["hands"].append(copy.deepcopy(record["hands"][0]))


def deep(levels: int) -> list[Any]:
    """A list nested ``levels`` deep."""
    value: list[Any] = []
    for _ in range(levels):
        value = [value]
    return value


def unfinished(index: int, keep_result: bool) -> Edit:
    """Hand ``index`` stops one action short (its result kept or dropped)."""

    def edit(record: Record) -> None:
        raw = record["hands"][index]
        raw["actions"].pop()
        if not keep_result:
            del raw["result"]

    return edit


def last_hand_in_progress(record: Record) -> None:
    """The last hand stops short, with no result and no match totals: a match in progress."""
    last = record["hands"][-1]
    last["actions"].pop()
    del last["result"]
    del record["match"]


BAD_RECORD = FindingKind.BAD_RECORD
BAD_LOT = FindingKind.BAD_LOT
#: A variant whose first hand's designated opener is drawn by lot (SPEC 6.2).
DRAWN = "matadore-19th-century"


def lot_naming_the_other_seat(record: Record) -> None:
    """A lot of one round (two players) in which the seat the deal does not name draws 0-0."""
    designated = record["hands"][0]["deal"]["designated"]
    record["hands"][0]["lot"] = [["1-2", "0-0"]] if designated == 0 else [["0-0", "1-2"]]


BAD_VARIANT = FindingKind.BAD_VARIANT
BAD_PLAYERS = FindingKind.BAD_PLAYERS
BAD_DEAL = FindingKind.BAD_DEAL
MATCH_OVER = FindingKind.MATCH_OVER
BAD_NOTATION = FindingKind.BAD_NOTATION
ILLEGAL = FindingKind.ILLEGAL_ACTION
UNFINISHED = FindingKind.UNFINISHED_HAND
WRONG_RESULT = FindingKind.WRONG_RESULT
WRONG_MATCH = FindingKind.WRONG_MATCH_RESULT

HAND0 = "/hands/0/deal"

CORRUPTIONS = [
    # The record's shape (spec/record.schema.json).
    Corruption("players-1", put("players", value=1), BAD_RECORD, "/players", says="minimum"),
    Corruption("players-0", put("players", value=0), BAD_RECORD, "/players"),
    Corruption("players-99", put("players", value=99), BAD_RECORD, "/players", says="maximum"),
    Corruption("players-negative", put("players", value=-1), BAD_RECORD, "/players"),
    Corruption("players-string", put("players", value="2"), BAD_RECORD, "/players", says='"2"'),
    Corruption(
        "players-float", put("players", value=2.0), BAD_RECORD, "/players", says="decimal point"
    ),
    Corruption("players-true", put("players", value=True), BAD_RECORD, "/players", says="true"),
    Corruption("players-null", put("players", value=None), BAD_RECORD, "/players"),
    Corruption("players-missing", drop("players"), BAD_RECORD, "/players", says="missing"),
    Corruption("format-wrong", put("format", value="matador-record/2"), BAD_RECORD, "/format"),
    Corruption("variant-missing", drop("variant"), BAD_RECORD, "/variant", says="missing"),
    Corruption("variant-empty", put("variant", value=""), BAD_RECORD, "/variant"),
    Corruption("variant-number", put("variant", value=7), BAD_RECORD, "/variant"),
    Corruption("options-list", put("options", value=[]), BAD_RECORD, "/options"),
    Corruption("option-value-number", put("options", "draw", value=1), BAD_RECORD, "/options/draw"),
    Corruption("hands-object", put("hands", value={}), BAD_RECORD, "/hands", says="an array"),
    Corruption("hands-string", put("hands", value="all of them"), BAD_RECORD, "/hands"),
    Corruption("hand-list", put("hands", 0, value=[]), BAD_RECORD, "/hands/0"),
    Corruption("extra-field", put("comment", value="hi"), BAD_RECORD, "/comment", says="unknown"),
    Corruption("extra-hand-field", put("hands", 0, "note", value=1), BAD_RECORD, "/hands/0/note"),
    Corruption(
        "extra-deal-field", put("hands", 0, "deal", "seat", value=0), BAD_RECORD, f"{HAND0}/seat"
    ),
    Corruption(
        "extra-result-field",
        put("hands", 0, "result", "bonus", value=5),
        BAD_RECORD,
        "/hands/0/result/bonus",
    ),
    Corruption(
        "deal-hands-missing", drop("hands", 1, "deal", "hands"), BAD_RECORD, "/hands/1/deal/hands"
    ),
    Corruption(
        "action-number", put("hands", 0, "actions", 3, value=5), BAD_RECORD, "/hands/0/actions/3"
    ),
    Corruption(
        "action-null", put("hands", 0, "actions", 0, value=None), BAD_RECORD, "/hands/0/actions/0"
    ),
    Corruption(
        "tile-x",
        put("hands", 0, "deal", "hands", 0, 0, value="x"),
        BAD_RECORD,
        f"{HAND0}/hands/0/0",
        says="not a tile",
    ),
    Corruption(
        "tile-number",
        put("hands", 0, "deal", "hands", 0, 0, value=5),
        BAD_RECORD,
        f"{HAND0}/hands/0/0",
    ),
    Corruption(
        "designated-string",
        put("hands", 0, "deal", "designated", value="0"),
        BAD_RECORD,
        f"{HAND0}/designated",
    ),
    Corruption(
        "designated-negative",
        put("hands", 0, "deal", "designated", value=-1),
        BAD_RECORD,
        f"{HAND0}/designated",
    ),
    Corruption(
        "result-points-missing",
        drop("hands", 0, "result", "points"),
        BAD_RECORD,
        "/hands/0/result/points",
    ),
    Corruption(
        "match-winner-string", put("match", "winner", value="0"), BAD_RECORD, "/match/winner"
    ),
    Corruption("seed-string", put("seed", value="3"), BAD_RECORD, "/seed"),
    Corruption(
        "top-level-array", lambda record: Whole([record]), BAD_RECORD, "", says="not an array"
    ),
    Corruption("top-level-null", whole(None), BAD_RECORD, "", says="not null"),
    Corruption("top-level-string", whole("record"), BAD_RECORD, "", says="not a string"),
    Corruption("deeply-nested-option", put("options", "draw", value=deep(3000)), BAD_RECORD, ""),
    Corruption("huge-number", put("players", value=10**5000), BAD_RECORD, ""),
    Corruption(
        "huge-string-tile",
        put("hands", 0, "deal", "hands", 0, 0, value="9" * 3_000_000),
        BAD_RECORD,
        f"{HAND0}/hands/0/0",
    ),
    # The variant and its options.
    Corruption(
        "variant-unknown",
        put("variant", value="tiddlywinks"),
        BAD_VARIANT,
        "/variant",
        says="known variants",
    ),
    Corruption(
        "huge-string-variant", put("variant", value="x" * 5_000_000), BAD_VARIANT, "/variant"
    ),
    Corruption(
        "option-unknown",
        put("options", "doubles", value="spinners"),
        BAD_VARIANT,
        "/options/doubles",
    ),
    Corruption(
        "option-value-unknown",
        put("options", "draw", value="never"),
        BAD_VARIANT,
        "/options/draw",
        says="its values",
    ),
    Corruption(
        "option-name-with-slash",
        put("options", "a/b~c", value="1"),
        BAD_VARIANT,
        "/options/a~1b~0c",
    ),
    Corruption(
        "option-name-with-escape",
        put("options", "\x1b[2J", value="1"),
        BAD_VARIANT,
        "/options/\x1b[2J",
    ),
    # The number of players the variant allows.
    Corruption(
        "players-2-in-pagat",
        both(put("variant", value="pagat"), put("options", value={})),
        BAD_PLAYERS,
        "/players",
        rule="players",
    ),
    Corruption(
        "players-2-in-house",
        both(put("variant", value="house"), put("options", value={})),
        BAD_PLAYERS,
        "/players",
        rule="players",
    ),
    # Deals.
    Corruption(
        "players-3-deals-of-2",
        put("players", value=3),
        BAD_DEAL,
        f"{HAND0}/hands",
        rule="players",
        says="2 hands",
    ),
    Corruption(
        "players-4-deals-of-2", put("players", value=4), BAD_DEAL, f"{HAND0}/hands", rule="players"
    ),
    Corruption(
        "players-2-deals-of-4",
        reseat(4),
        BAD_DEAL,
        f"{HAND0}/hands",
        rule="players",
        says="4 hands",
    ),
    Corruption("players-2-deals-of-3", reseat(3), BAD_DEAL, f"{HAND0}/hands", rule="players"),
    Corruption(
        "deal-of-one-hand",
        both(reseat(2), put("hands", 0, "deal", "hands", value=[["0-0"]])),
        BAD_DEAL,
        f"{HAND0}/hands",
        rule="players",
    ),
    Corruption(
        "hand-of-6",
        move_to_boneyard,
        BAD_DEAL,
        f"{HAND0}/hands/0",
        rule="hand_size",
        says="6 tiles",
    ),
    Corruption(
        "hand-of-8", move_to_hand, BAD_DEAL, f"{HAND0}/hands/0", rule="hand_size", says="8 tiles"
    ),
    Corruption(
        "tile-missing",
        drop("hands", 0, "deal", "boneyard", 0),
        BAD_DEAL,
        HAND0,
        rule="max_pip",
        says="neither in a hand nor in the boneyard",
    ),
    Corruption(
        "tile-twice",
        put("hands", 0, "deal", "hands", 1, 0, value="0-1"),
        BAD_DEAL,
        f"{HAND0}/hands/1/0",
        rule="max_pip",
        says="0-1 is dealt twice",
    ),
    Corruption(
        "tile-7-7",
        put("hands", 0, "deal", "hands", 0, 0, value="7-7"),
        BAD_DEAL,
        f"{HAND0}/hands/0/0",
        rule="max_pip",
        says="not in the double-6 set",
    ),
    Corruption(
        "tile-unicode-digits",
        put("hands", 0, "deal", "hands", 0, 0, value="\u0660-\u0661"),
        BAD_DEAL,
        f"{HAND0}/hands/0/0",
        says="not a tile",
    ),
    Corruption(
        "boneyard-extra-tile",
        lambda record: record["hands"][0]["deal"]["boneyard"].append("6-6"),
        BAD_DEAL,
        f"{HAND0}/boneyard/14",
        rule="max_pip",
        says="dealt twice",
    ),
    Corruption(
        "boneyard-stranger",
        lambda record: record["hands"][0]["deal"]["boneyard"].append("9-9"),
        BAD_DEAL,
        f"{HAND0}/boneyard/14",
        rule="max_pip",
    ),
    Corruption(
        "designated-5",
        put("hands", 0, "deal", "designated", value=5),
        BAD_DEAL,
        f"{HAND0}/designated",
        says="not one of 0..1",
    ),
    Corruption(
        "bad-deal-in-hand-3",
        put("hands", 2, "deal", "hands", 0, 0, value="7-7"),
        BAD_DEAL,
        "/hands/2/deal/hands/0/0",
        rule="max_pip",
    ),
    Corruption(
        "designated-against-rotation",
        wrong_designated,
        BAD_DEAL,
        "/hands/1/deal/designated",
        rule="designated_opener",
        variant="dutch",
    ),
    Corruption(
        "designated-missing",
        drop("hands", 0, "deal", "designated"),
        BAD_DEAL,
        f"{HAND0}/designated",
        rule="designated_opener",
        variant="dutch",
    ),
    Corruption(
        "designated-out-of-range-dutch",
        put("hands", 0, "deal", "designated", value=2),
        BAD_DEAL,
        f"{HAND0}/designated",
        rule="designated_opener",
        variant="dutch",
    ),
    # The lot by drawing (the 19th-century rules draw one for the first hand).
    Corruption(
        "lot-names-another-seat",
        lot_naming_the_other_seat,
        BAD_LOT,
        "/hands/0/lot",
        rule="designated_opener",
        says="the lot names seat",
        variant=DRAWN,
    ),
    Corruption(
        "lot-tile-twice",
        put("hands", 0, "lot", value=[["0-0", "0-0"]]),
        BAD_LOT,
        "/hands/0/lot/0/1",
        rule="designated_opener",
        says="drawn twice",
        variant=DRAWN,
    ),
    Corruption(
        "lot-tie-left",
        put("hands", 0, "lot", value=[["1-2", "0-3"]]),
        BAD_LOT,
        "/hands/0/lot",
        rule="designated_opener",
        says="still tied",
        variant=DRAWN,
    ),
    Corruption(
        "lot-tile-off-the-set",
        put("hands", 0, "lot", value=[["0-0", "7-7"]]),
        BAD_LOT,
        "/hands/0/lot/0/1",
        says="a tile of the set",
        variant=DRAWN,
    ),
    Corruption("lot-not-rounds", put("hands", 0, "lot", value="0-0"), BAD_RECORD, "/hands/0/lot"),
    Corruption(
        "dealer-negative", put("hands", 0, "dealer", value=-1), BAD_RECORD, "/hands/0/dealer"
    ),
    Corruption(
        "dealer-no-seat",
        put("hands", 0, "dealer", value=2),
        BAD_DEAL,
        "/hands/0/dealer",
        rule="players",
        says="seats 0 to 1",
    ),
    # A hand after the end of the match.
    Corruption("hand-after-the-match", extra_hand, MATCH_OVER, "/hands/4", rule="target"),
    # Actions.
    Corruption(
        "action-bad-notation",
        put("hands", 0, "actions", 3, value="6-6@Q"),
        BAD_NOTATION,
        "/hands/0/actions/3",
    ),
    Corruption(
        "action-empty", put("hands", 0, "actions", 3, value=""), BAD_NOTATION, "/hands/0/actions/3"
    ),
    Corruption(
        "action-huge-string",
        put("hands", 1, "actions", 2, value="y" * 2_000_000),
        BAD_NOTATION,
        "/hands/1/actions/2",
    ),
    Corruption(
        "opening-not-the-highest-double",
        put("hands", 0, "actions", 0, value="2-2"),
        ILLEGAL,
        "/hands/0/actions/0",
        rule="opener",
        reason=Reason.WRONG_OPENING,
    ),
    Corruption(
        "opening-by-the-wrong-seat",
        put("hands", 0, "actions", 0, value="5-5"),
        ILLEGAL,
        "/hands/0/actions/0",
        rule="opener",
        reason=Reason.WRONG_OPENING,
        says="seat 0 holds 5-5",
    ),
    Corruption(
        "opening-with-a-placement",
        put("hands", 0, "actions", 0, value="6-6@L:6"),
        ILLEGAL,
        "/hands/0/actions/0",
        reason=Reason.NO_SUCH_END,
    ),
    Corruption(
        "opener-plays-again",
        replace_step(0, _right_after_the_opening),
        ILLEGAL,
        step_pointer(0, _right_after_the_opening),
        rule="opener_plays_again",
        reason=Reason.NOT_YOUR_TURN,
    ),
    Corruption(
        "out-of-turn",
        replace_step(0, _tile_of_another_seat),
        ILLEGAL,
        step_pointer(0, _tile_of_another_seat),
        reason=Reason.NOT_YOUR_TURN,
        says="turn",
    ),
    Corruption(
        "out-of-turn-in-hand-2",
        replace_step(1, _tile_of_another_seat),
        ILLEGAL,
        step_pointer(1, _tile_of_another_seat),
        reason=Reason.NOT_YOUR_TURN,
    ),
    Corruption(
        "tile-still-in-the-boneyard",
        replace_step(0, _tile_nobody_holds),
        ILLEGAL,
        step_pointer(0, _tile_nobody_holds),
        reason=Reason.TILE_NOT_IN_HAND,
    ),
    Corruption(
        "draw-holding-a-play",
        replace_step(0, _draw_holding_a_play),
        ILLEGAL,
        step_pointer(0, _draw_holding_a_play),
        rule="draw_when",
        reason=Reason.DRAW_NOT_ALLOWED,
    ),
    Corruption(
        "pass-instead-of-drawing",
        replace_step(0, _pass_instead_of_drawing),
        ILLEGAL,
        step_pointer(0, _pass_instead_of_drawing),
        rule="draw_when",
        reason=Reason.MUST_DRAW,
    ),
    Corruption(
        "tile-that-does-not-fit",
        replace_step(0, _tile_that_does_not_fit),
        ILLEGAL,
        step_pointer(0, _tile_that_does_not_fit),
        rule="sum_rule",
        reason=Reason.DOES_NOT_MATCH_END,
    ),
    Corruption(
        "action-after-the-end",
        actions_of(0, lambda actions: actions.append("pass")),
        ILLEGAL,
        "/hands/0/actions/34",
        reason=Reason.HAND_OVER,
    ),
    # Hands that stop short.
    Corruption(
        "unfinished-with-result", unfinished(0, keep_result=True), UNFINISHED, "/hands/0/result"
    ),
    Corruption(
        "unfinished-then-another-hand",
        unfinished(0, keep_result=False),
        UNFINISHED,
        "/hands/0/actions",
    ),
    # Results.
    Corruption(
        "result-points",
        put("hands", 0, "result", "points", value=[40, 0]),
        WRONG_RESULT,
        "/hands/0/result/points",
        rule="points",
        says="[50, 0]",
    ),
    Corruption(
        "result-pips",
        put("hands", 0, "result", "pips", value=[3, 52]),
        WRONG_RESULT,
        "/hands/0/result/pips",
        rule="hand_pips",
    ),
    Corruption(
        "result-winner",
        put("hands", 0, "result", "winner", value=1),
        WRONG_RESULT,
        "/hands/0/result/winner",
    ),
    Corruption(
        "result-termination",
        put("hands", 0, "result", "termination", value="domino"),
        WRONG_RESULT,
        "/hands/0/result/termination",
    ),
    Corruption(
        "match-scores",
        put("match", "scores", value=[149, 5]),
        WRONG_MATCH,
        "/match/scores",
        rule="points",
    ),
    Corruption(
        "match-hands-won", put("match", "hands_won", value=[4, 0]), WRONG_MATCH, "/match/hands_won"
    ),
    Corruption(
        "match-winner", put("match", "winner", value=1), WRONG_MATCH, "/match/winner", rule="target"
    ),
    Corruption(
        "match-winner-null", put("match", "winner", value=None), WRONG_MATCH, "/match/winner"
    ),
    Corruption("hands-empty", put("hands", value=[]), WRONG_MATCH, "/match/scores"),
]

BY_ID = {case.id: case for case in CORRUPTIONS}


def test_the_corruption_ids_are_unique_and_the_base_records_are_valid() -> None:
    assert len(BY_ID) == len(CORRUPTIONS) >= 80
    for variant in ("gamerules-com", "dutch"):
        report = replay(base_record(variant))
        assert report.ok, report.findings
        assert report.hands == 4


@pytest.mark.parametrize("case", CORRUPTIONS, ids=[case.id for case in CORRUPTIONS])
def test_a_corrupted_record_is_refused_where_it_breaks(case: Corruption) -> None:
    built = case.build()
    report = replay(built)
    assert not report.ok
    finding = report.finding
    assert finding is not None
    assert (finding.kind, finding.pointer) == (case.kind, case.pointer), str(finding)
    if case.rule is not None:
        assert finding.rule == case.rule, str(finding)
        rules = Catalog.shipped().resolve(built["variant"], built["options"])
        assert finding.citations == rules.provenance[CITED_AS.get(case.rule, case.rule)].cite
    if case.reason is not None:
        assert finding.reason == case.reason.value, str(finding)
    assert case.says in finding.message
    assert len(finding.message) < 1000
    assert len(str(finding)) < 1000


def test_every_kind_of_finding_is_exercised() -> None:
    assert {case.kind for case in CORRUPTIONS} == set(FindingKind)


def test_a_record_of_a_match_in_progress_is_valid() -> None:
    record = base_record()
    last_hand_in_progress(record)
    report = replay(record)
    assert report.ok, report.findings
    assert report.hands == 4 and len(report.outcomes) == 3


# --------------------------------------------------------------------------- every problem


def test_every_bad_deal_is_reported_not_just_the_first() -> None:
    report = replay(BY_ID["players-3-deals-of-2"].build())
    assert [f.pointer for f in report.findings] == [f"/hands/{i}/deal/hands" for i in range(4)]
    assert report.hands == 0


def test_a_deal_reports_each_of_its_problems_at_its_place() -> None:
    record = base_record()
    deal = record["hands"][0]["deal"]
    deal["hands"][0][0] = "7-7"
    deal["hands"][1][1] = "0-5"
    deal["boneyard"].append("2-5")
    report = replay(record)
    assert [(f.pointer, f.rule) for f in report.findings] == [
        (f"{HAND0}/hands/0/0", "max_pip"),
        (f"{HAND0}/hands/1/1", "max_pip"),
        (f"{HAND0}/boneyard/14", "max_pip"),
        (HAND0, "max_pip"),
    ]
    assert "0-1, 1-3" in report.findings[-1].message


def test_the_hands_before_a_problem_are_replayed_and_later_deals_still_checked() -> None:
    record = base_record()
    replace_step(1, _tile_of_another_seat)(record)
    record["hands"][3]["deal"]["hands"][0][0] = "7-7"
    report = replay(record)
    assert [(f.kind, f.pointer) for f in report.findings] == [
        (ILLEGAL, step_pointer(1, _tile_of_another_seat)),
        (BAD_DEAL, "/hands/3/deal/hands/0/0"),
        (BAD_DEAL, "/hands/3/deal"),
    ]
    assert report.hands == 2  # the match was followed into hand 1 (hand 2: on its own)
    assert len(report.outcomes) == 1


def test_a_problem_in_every_hand_is_named_after_one_the_match_cannot_follow() -> None:
    """An illegal action in hand 1 stops following the match, not judging the hands
    after it: hand 2's wrong points are still named, with the rule that scores."""
    record = base_record()
    replace_step(1, _tile_of_another_seat)(record)
    record["hands"][2]["result"]["points"] = [99, 0]
    report = replay(record)
    assert [(f.kind, f.pointer) for f in report.findings] == [
        (ILLEGAL, step_pointer(1, _tile_of_another_seat)),
        (WRONG_RESULT, "/hands/2/result/points"),
    ]
    assert report.findings[1].rule == "points"


def test_a_wrong_result_does_not_stop_the_replay() -> None:
    record = base_record()
    record["hands"][0]["result"]["points"] = [40, 0]
    record["hands"][2]["result"]["pips"] = [0, 0]
    report = replay(record)
    assert [f.pointer for f in report.findings] == [
        "/hands/0/result/points",
        "/hands/2/result/pips",
    ]
    assert report.hands == 4


def test_schema_findings_are_all_reported_in_record_order() -> None:
    record = base_record()
    record["players"] = "2"
    record["hands"][1]["actions"][0] = 5
    record["hands"][0]["deal"]["designated"] = -1
    del record["format"]
    report = replay(record)
    assert [f.pointer for f in report.findings] == [
        "/format",
        "/hands/0/deal/designated",
        "/hands/1/actions/0",
        "/players",
    ]
    assert (report.findings[2].hand, report.findings[2].action) == (1, 0)


def test_findings_past_the_limit_are_counted() -> None:
    record = base_record()
    record["hands"][0]["deal"]["boneyard"] += ["9-9"] * (FINDING_LIMIT + 10)
    report = replay(record)
    assert len(report.findings) == FINDING_LIMIT
    assert report.omitted == 10
    assert not report.ok


# --------------------------------------------------------------------------- findings


def test_a_finding_prints_its_pointer_place_message_and_kind() -> None:
    finding = replay(BY_ID["players-3-deals-of-2"].build()).finding
    assert str(finding) == (
        "/hands/0/deal/hands: hand 1: the deal has 2 hands, not one for each of the 3 players "
        "[bad_deal]"
    )
    finding = replay(BY_ID["opening-by-the-wrong-seat"].build()).finding
    assert str(finding).startswith("/hands/0/actions/0: hand 1, action 1: 5-5: seat 0 holds 5-5")
    assert str(finding).endswith("[illegal_action: wrong_opening]")


def test_a_finding_escapes_control_characters_and_cuts_long_text() -> None:
    finding = replay(BY_ID["option-name-with-escape"].build()).finding
    assert finding is not None
    assert "\x1b" not in str(finding) and "\\x1b[2J" in str(finding)
    finding = replay(BY_ID["huge-string-variant"].build()).finding
    assert finding is not None
    assert finding.message.endswith(" characters)") and len(finding.message) < 1000


def _attribute_docstrings(cls: type) -> dict[str, str]:
    tree = ast.parse(inspect.getsource(cls))
    body = tree.body[0]
    assert isinstance(body, ast.ClassDef)
    found = {}
    for statement, following in zip(body.body, body.body[1:], strict=False):
        if (
            isinstance(statement, ast.Assign)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            target = statement.targets[0]
            assert isinstance(target, ast.Name)
            found[target.id] = following.value.value
    return found


def test_the_finding_kinds_are_a_documented_closed_vocabulary() -> None:
    documented = _attribute_docstrings(FindingKind)
    assert set(documented) == {kind.name for kind in FindingKind}
    description = record_schema()["description"]
    for kind in FindingKind:
        assert f"{kind.value} (" in description, kind
    assert {field.name for field in dataclasses.fields(Finding)} >= {"kind", "pointer", "rule"}


# --------------------------------------------------------------------------- the match model


def test_a_match_refuses_a_deal_with_the_wrong_number_of_seats() -> None:
    rules = _rules("gamerules-com")
    match = Match(rules, 2, seed=1)
    four = Deal.shuffled(rules, 4, random.Random(0))
    with pytest.raises(DealError, match="the deal has 4 hands, not one for each of the 2 players"):
        match.new_hand(four)
    assert match.hands == []
    three = Match(rules, 3, seed=1)
    with pytest.raises(DealError, match="2 hands"):
        three.new_hand(Deal.shuffled(rules, 2, random.Random(0)))
    hand = match.new_hand(Deal.shuffled(rules, 2, random.Random(0)))
    assert hand.players == 2


@pytest.mark.parametrize("players", [0, 1, 5, -1, 2.0, True, "2"])
def test_a_match_refuses_a_number_of_players_the_rules_do_not_allow(players: Any) -> None:
    with pytest.raises(DealError):
        Match(_rules("gamerules-com"), players)


def test_a_deal_built_in_python_with_a_bad_designated_seat_is_refused() -> None:
    rules = _rules("dutch")
    deal = Deal.shuffled(rules, 2, random.Random(0))
    wrong: list[Any] = ["0", 1.5, True, 2, -1]
    for designated in wrong:
        bad = dataclasses.replace(deal, designated=designated)
        with pytest.raises(DealError):
            bad.check(rules)


def test_deal_problems_locates_each_problem_in_the_deal() -> None:
    rules = _rules("gamerules-com")
    problems = deal_problems(
        {"hands": [["0-0", "x"], 5], "boneyard": "none", "designated": "1", "extra": 1}, rules
    )
    assert [problem.path for problem in problems] == [
        ("extra",),
        ("hands", 0, 1),
        ("hands", 1),
        ("boneyard",),
        ("designated",),
    ]
    assert deal_problems([], rules)[0].path == ()
    messages = [problem.message for problem in deal_problems({"hands": [[1, None, [2]]]}, rules)]
    assert [message.split(" is not")[0] for message in messages] == ["a number", "null", "a list"]


def test_deal_from_data_keeps_its_first_problem_message() -> None:
    rules = _rules("gamerules-com")
    with pytest.raises(DealError, match="gamerules-com is played by 2, 3, 4 players"):
        Deal.from_data({"hands": [[]]}, rules)
    data = base_record()["hands"][0]["deal"]
    data["hands"][0][0] = "0-3"
    with pytest.raises(DealError, match="0-3 is dealt twice"):
        Deal.from_data(data, rules)


# --------------------------------------------------------------------------- reading files


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b'{"players": NaN}', "NaN is not a JSON number"),
        (b'{"players": Infinity}', "Infinity is not a JSON number"),
        (b'{"players": -Infinity}', "-Infinity is not a JSON number"),
        (b'{"players": ' + b"9" * 5000 + b"}", "5,000 digits"),
        (b'{"players": -' + b"9" * 1001 + b"}", "1,001 digits"),
        (b'{"players": 1e999}', "1e999 is too large"),
        (b"[" * 30000 + b"]" * 30000, "nested too deeply"),
        ('{"strategy": "é"}'.encode("latin-1"), "not UTF-8"),
        (b"", "the file is empty"),
        (b"  \n", "the file is empty"),
        (b'{"players": 2', "not JSON"),
        (b'{"a": 1} {"b": 2}', "Extra data"),
    ],
)
def test_a_file_that_is_not_json_is_refused_with_a_reason(data: bytes, says: str) -> None:
    with pytest.raises(RecordSyntaxError, match=re.escape(says)):
        parse_record(data)


def test_a_byte_order_mark_is_ignored_and_numbers_stay_exact() -> None:
    assert parse_record(b'\xef\xbb\xbf{"seed": 12345678901234567890, "x": 2.5}') == {
        "seed": 12345678901234567890,
        "x": 2.5,
    }


# --------------------------------------------------------------------------- the command


def test_replay_prints_every_finding_with_its_rule_and_sources(
    tmp_path: Path, matador: Callable[..., Any]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(BY_ID["players-3-deals-of-2"].build()), encoding="utf-8")
    done = matador("replay", path)
    assert done.code == 1 and done.out == ""
    lines = done.err_lines
    assert lines[0] == (
        f"matador replay: {path}: /hands/0/deal/hands: hand 1: the deal has 2 hands, "
        "not one for each of the 3 players [bad_deal]"
    )
    assert lines[1] == "  rule: players"
    assert lines[2].startswith("  source: gamerules-com [text 000, ")
    assert sum(line.startswith(f"matador replay: {path}: /hands/") for line in lines) == 4
    assert lines[-1] == f"matador replay: {path}: invalid: 4 problem(s)"


def test_replay_says_valid_for_a_good_record(tmp_path: Path, matador: Callable[..., Any]) -> None:
    path = tmp_path / "game.json"
    path.write_text(_played("gamerules-com"), encoding="utf-8")
    done = matador("replay", path)
    assert done.code == 0, done.err
    assert done.out_lines[0].startswith(
        f"{path}: valid: 4 hand(s), 137 action(s) legal under gamerules-com"
    )


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"[]", "not an array [bad_record]"),
        (b"{}", "/format: the field 'format' is missing [bad_record]"),
        (b'{"players": NaN}', "NaN is not a JSON number"),
        (b"\xff\xfe{}", "not UTF-8 text"),
    ],
)
def test_replay_refuses_a_broken_file_without_a_traceback(
    tmp_path: Path, matador: Callable[..., Any], content: bytes, says: str
) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(content)
    done = matador("replay", path)
    assert done.code == 1
    assert says in done.err and str(path) in done.err


def test_replay_of_a_folder_without_records_says_so(
    tmp_path: Path, matador: Callable[..., Any]
) -> None:
    done = matador("replay", tmp_path)
    assert done.code == 1
    assert done.err_lines[0].startswith(f"matador replay: {tmp_path}: no game record (*.json)")
    assert len(done.err_lines) == 1


# --------------------------------------------------------------------------- never a crash

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | st.sampled_from(["0-0", "6-6", "7-7", "draw", "pass", "6-6@L:6", "gamerules-com", "dutch"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


def _containers(value: Any) -> Iterator[dict[str, Any] | list[Any]]:
    """Every object and array in ``value``, itself included."""
    if isinstance(value, dict | list):
        yield value
        for item in value.values() if isinstance(value, dict) else value:
            yield from _containers(item)


# 150 examples by default (CI); the quick loop runs a quarter of them, as everywhere else.
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), variant=st.sampled_from(["gamerules-com", "dutch"]))
def test_replay_never_raises_on_a_randomly_broken_record(data: st.DataObject, variant: str) -> None:
    record = base_record(variant)
    for _ in range(data.draw(st.integers(1, 3), label="edits")):
        places = list(_containers(record))
        container = data.draw(st.sampled_from(places), label="where")
        if not container:
            continue
        keys = list(container) if isinstance(container, dict) else list(range(len(container)))
        key = data.draw(st.sampled_from(keys), label="which")
        action = data.draw(st.sampled_from(["replace", "delete", "swap"]), label="how")
        if action == "replace":
            container[key] = data.draw(JSON_VALUES, label="value")
        elif action == "delete":
            del container[key]
        elif isinstance(container, list) and len(container) > 1:
            other = data.draw(st.integers(0, len(container) - 1), label="with")
            container[key], container[other] = container[other], container[key]
    report = replay(record)
    for finding in report.findings:
        assert isinstance(finding.kind, FindingKind)
        assert finding.pointer == "" or finding.pointer.startswith("/")
        str(finding)
