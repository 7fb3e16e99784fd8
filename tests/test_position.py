"""Positions in the notation (spec/notation.md, "Positions"): read and written by the engine,
read the same by the explain page's script, and taken by ``matador explain --position``.

The positions come from hands played at random (the table at every turn, written out
and read back); the broken ones are written by hand, each with what the readers must say.
"""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import CliResult
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from reference_engine.engine.deal import Deal
from reference_engine.engine.hand import Hand
from reference_engine.engine.state import hand_at, parse_position, position_text, state_of
from reference_engine.errors import NotationError
from reference_engine.rules import Catalog

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "reference_engine" / "site" / "static" / "position.js"
CATALOG = Catalog.shipped()

EXAMPLE = "ends: 6, 3; seat 0: 1-2 3-4; seat 1: 5-5 0-2; seat 2: 4-6; boneyard: 4-4 2-6; to act: 1"

#: Texts that are no position, and what the readers say of each.
BROKEN = {
    "x": "'x' is no section of a position",
    "ends: 6, 3; seat 0: 1-2; seat 1: 3-4": "a position needs 'to act'",
    "seat 0: 1-2; seat 1: 3-4; to act: 0": "a position needs 'ends'",
    "ends: 6; seat 0: 1-2; seat 1: 3-4; to act: 0": (
        "a position is after the opening: it has two ends or more"
    ),
    "ends: 6, 3; seat 0: 1-2; seat 2: 3-4; to act: 0": (
        "a position gives every seat once, from seat 0: two to four seats"
    ),
    "ends: 6, 3; seat 0: 1-2; to act: 0": (
        "a position gives every seat once, from seat 0: two to four seats"
    ),
    "ends: 6, 3; seat 0: 1-2; seat 1: 2-1; to act: 0": (
        "a tile is held twice, or held and in the boneyard"
    ),
    "ends: 6, 3; seat 0: 1-2; seat 1: 3-4; boneyard: 1-2; to act: 0": (
        "a tile is held twice, or held and in the boneyard"
    ),
    "ends: 6, 3; seat 0: 1-2; seat 1: 3-4; to act: 2": (
        "the seat to act is seat 2, and the seats are 0 to 1"
    ),
    "ends: 6, 3; seat 0: 1-2; seat 1: 3-4; to act: one": "the seat to act is a number, not 'one'",
    "ends: 6, 3; seat 0: 1-2; seat 1: 3-4; to act: 0; drawn: 3-4": (
        "the tile drawn is one tile, in the hand of the seat to act"
    ),
    "ends: 6, 3; seat 0: 1-2; seat 0: 3-4; to act: 0": "seat 0 is given twice",
    "ends: 6, 3; ends: 6, 3; seat 0: 1-2; seat 1: 3-4; to act: 0": "'ends' is given twice",
    "ends: 6 odd free, 3; seat 0: 1-2; seat 1: 3-4; to act: 0": (
        "'6 odd free' is not an open end in the notation"
    ),
}


def test_the_example_of_the_notation_reads_and_writes_back() -> None:
    state = parse_position(EXAMPLE)
    assert len(state.hands) == 3 and state.to_act == 1
    assert [end.notation for end in state.ends] == ["6", "3"]
    assert position_text(state) == EXAMPLE.replace("5-5 0-2", "0-2 5-5")
    assert parse_position(position_text(state)) == state


@pytest.mark.parametrize(("text", "said"), sorted(BROKEN.items()))
def test_a_text_that_is_no_position_is_refused_saying_why(text: str, said: str) -> None:
    with pytest.raises(NotationError) as refused:
        parse_position(text)
    assert str(refused.value) == said


@given(st.sampled_from(CATALOG.ids()), st.integers(0, 2**32 - 1))
@settings(max_examples=examples(40), deadline=None)
def test_every_table_a_hand_reaches_is_a_position_that_reads_back_to_it(
    variant: str, seed: int
) -> None:
    """At every ordinary turn of a hand played at random, the table written as a position
    and read back is the same table, and allows what the hand allows."""
    rules = CATALOG.resolve(variant)
    rng = random.Random(seed)
    players = rng.choice(rules.players)
    hand = Hand(rules, Deal.shuffled(rules, players, rng, designated=rng.randrange(players)))
    while not hand.is_over:
        legal = hand.legal_actions()
        if hand.opener is not None and not hand._forced_play:
            state = state_of(hand)
            again = parse_position(position_text(state))
            assert again == state
            assert hand_at(rules, again).legal_actions() == legal
        hand.apply(legal[rng.randrange(len(legal))])


# --------------------------------------------------------------------------- the page's reader


def page_reads(node: str, texts: list[str]) -> list[dict[str, Any]]:
    script = (
        f"const P = require({json.dumps(str(SCRIPT))});"
        "for (const t of JSON.parse(require('fs').readFileSync(0, 'utf8'))) {"
        "  try { console.log(JSON.stringify(P.parse(t))); }"
        "  catch (e) { console.log(JSON.stringify({error: e.message})); } }"
    )
    done = subprocess.run(
        [node, "-e", script], input=json.dumps(texts), capture_output=True, text=True, check=True
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def engine_reads(text: str) -> dict[str, Any]:
    try:
        state = parse_position(text)
    except NotationError as error:
        return {"error": str(error)}
    return {
        "players": len(state.hands),
        "hands": [[str(tile) for tile in held] for held in state.hands],
        "ends": [end.notation for end in state.ends],
        "boneyard": [str(tile) for tile in state.boneyard],
        "toAct": state.to_act,
        "passes": state.passes,
        "drawn": None if state.drawn is None else str(state.drawn),
        "opener": state.opener,
    }


def test_the_page_reads_every_position_as_the_engine_does(node: str) -> None:
    rng = random.Random(3)
    texts = [EXAMPLE, *BROKEN, "ENDS: 2/5 identical free, 3; Seat 0: [2|1]; seat 1: 4-3; To Act: 1"]
    for variant in ("german", "pagat", "gamerules-com"):
        rules = CATALOG.resolve(variant)
        players = min(rules.players)
        hand = Hand(rules, Deal.shuffled(rules, players, rng, designated=0))
        while not hand.is_over:
            if hand.opener is not None and not hand._forced_play:
                texts.append(position_text(state_of(hand)))
            legal = hand.legal_actions()
            hand.apply(legal[rng.randrange(len(legal))])
    for text, page in zip(texts, page_reads(node, texts), strict=True):
        engine = engine_reads(text)
        if "error" in engine:
            # (the page quotes as JSON does, the engine as Python does)
            assert "error" in page, text
            assert page["error"].replace('"', "'") == engine["error"], text
            continue
        page["ends"] = [end["text"] for end in page["ends"]]
        assert page == engine, text


# --------------------------------------------------------------------------- explain


def test_explain_answers_for_the_seat_to_act_of_a_position(
    matador: Callable[..., CliResult],
) -> None:
    text = (
        "ends: 6, 3; seat 0: 1-2 3-4; seat 1: 0-2 1-6 5-5; seat 2: 4-6; boneyard: 4-4 2-6; "
        "to act: 1"
    )
    done = matador("explain", "--position", text, "--variant", "gamerules-com", "--format", "json")
    assert done.code == 0, done.err
    data = json.loads(done.out)
    assert data["situation"]["position"] == text
    assert data["situation"]["hand"] == ["0-2", "1-6", "5-5"]
    (answer,) = data["variants"]
    # 6 and 3 call for a 1 and a 4 (sum 7); seat 1 has no 4, its 1-6 is a matador
    assert answer["legal"] == ["1-6@L:1", "1-6@L:6", "1-6@R:1", "1-6@R:6"]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--position", "x"], "cannot read the position: 'x' is no section of a position"),
        (["--position", EXAMPLE, "--hand", "1-2"], "give a position or what the player sees"),
    ],
)
def test_explain_says_what_is_wrong_with_a_position(
    matador: Callable[..., CliResult], argv: list[str], said: str
) -> None:
    done = matador("explain", *argv)
    assert done.code == 2
    assert said in done.err
