"""The action and tile notation (spec/notation.md): writing, reading and canonical order."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from profiles import examples

from reference_engine.engine import tiles as tile_module
from reference_engine.engine.actions import (
    DRAW,
    PASS,
    Action,
    AnyAction,
    Draw,
    Pass,
    Play,
    sort_actions,
)
from reference_engine.engine.tiles import Tile, full_set
from reference_engine.errors import NotationError
from reference_engine.rules.vocabulary import Shape

# --------------------------------------------------------------------------- strategies

halves = st.integers(0, 18)  # max_pip goes up to 18 (SPEC section 5.1)
tiles = st.builds(Tile.of, halves, halves)


@st.composite
def plays(draw: st.DrawFn) -> Play:
    tile = draw(tiles)
    end = draw(st.one_of(st.sampled_from([None, 0, 1]), st.integers(2, 99)))
    if end is None:
        return Play(tile)
    shape = draw(st.sampled_from(list(Shape)))
    if shape is Shape.CROSSWISE:
        return Play(tile, end, shape, None)
    return Play(tile, end, shape, draw(st.sampled_from([tile.low, tile.high])))


actions = st.one_of(plays(), st.just(DRAW), st.just(PASS))


def every_action(max_pip: int) -> list[AnyAction]:
    """Every action the Play constructor accepts for the set, plus draw and pass."""
    found: list[AnyAction] = [DRAW, PASS]
    for tile in full_set(max_pip):
        found.append(Play(tile))
        for end in (0, 1):
            found.append(Play(tile, end, Shape.CROSSWISE, None))
            for half in {tile.low, tile.high}:
                found.append(Play(tile, end, Shape.INLINE, half))
                found.append(Play(tile, end, Shape.CROSSWISE_OFFSET, half))
    return found


def tile_writings(tile: Tile) -> list[str]:
    """The ways a reader must accept a tile (notation.md, "Tiles")."""
    low, high = tile
    orders = [(low, high), (high, low)]
    return [f"{a}-{b}" for a, b in orders] + [
        f"[{a}{bar}{b}]" for a, b in orders for bar in ("-", "|")
    ]


# --------------------------------------------------------------------------- round trip


@settings(max_examples=examples(300))
@given(actions)
@example(DRAW)
@example(PASS)
@example(Play(Tile(3, 10), 1, Shape.CROSSWISE_OFFSET, 10))
def test_parse_write_round_trip(action: AnyAction) -> None:
    text = str(action)
    assert Action.parse(text) == action
    assert str(Action.parse(text)) == text
    assert text == text.strip() and "[" not in text and "|" not in text
    assert Action.parse(f"  {text}\t") == action


def test_every_double_twelve_action_round_trips_and_is_written_once() -> None:
    written: dict[str, AnyAction] = {}
    for action in every_action(12):
        text = str(action)
        assert Action.parse(text) == action, text
        assert written.setdefault(text, action) == action, f"{text} names two actions"
    # 91 tiles: one opening, and per end one crosswise, inline and offset per half.
    doubles, others = 13, 91 - 13
    assert len(written) == 2 + doubles * (1 + 2 * 3) + others * (1 + 2 * 5)


@settings(max_examples=examples(200))
@given(plays(), st.data())
def test_every_tile_writing_reads_as_the_same_action(play: Play, data: st.DataObject) -> None:
    writing = data.draw(st.sampled_from(tile_writings(play.tile)))
    text = str(play)
    rest = text[len(str(play.tile)) :]
    assert Action.parse(writing + rest) == play
    assert str(Action.parse(writing + rest)) == text  # the canonical writing


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("6-6", Play(Tile(6, 6))),
        ("2-5@R:5", Play(Tile(2, 5), 1, Shape.INLINE, 5)),
        ("5-2@R:5", Play(Tile(2, 5), 1, Shape.INLINE, 5)),
        ("2-5@L:2", Play(Tile(2, 5), 0, Shape.INLINE, 2)),
        ("2-5@Lx", Play(Tile(2, 5), 0, Shape.CROSSWISE, None)),
        ("2-5@R^5", Play(Tile(2, 5), 1, Shape.CROSSWISE_OFFSET, 5)),
        ("[5|2]@R^2", Play(Tile(2, 5), 1, Shape.CROSSWISE_OFFSET, 2)),
        ("10-3@L:10", Play(Tile(3, 10), 0, Shape.INLINE, 10)),
        ("1-6@E2:6", Play(Tile(1, 6), 2, Shape.INLINE, 6)),
        ("3-4@E12x", Play(Tile(3, 4), 12, Shape.CROSSWISE, None)),
        ("2-5@E0:5", Play(Tile(2, 5), 0, Shape.INLINE, 5)),
        ("2-5@E1x", Play(Tile(2, 5), 1, Shape.CROSSWISE, None)),
        ("draw", DRAW),
        ("DRAW", DRAW),
        ("Draw", DRAW),
        (" pass ", PASS),
        ("PASS", PASS),
        ("knock", PASS),
        ("KNOCK", PASS),
    ],
)
def test_the_examples_of_the_notation(text: str, expected: AnyAction) -> None:
    action = Action.parse(text)
    assert action == expected
    assert type(action) is type(expected)


def test_draw_and_pass_are_single_values() -> None:
    assert Action.parse("DRAW") is DRAW and isinstance(DRAW, Draw)
    assert Action.parse("knock") is PASS and isinstance(PASS, Pass)
    assert Action.parse(" pass ") == Pass() and Action.parse("draw") == Draw()
    assert str(Action.parse("knock")) == "pass" and str(Action.parse("DRAW")) == "draw"


# --------------------------------------------------------------------------- tiles


@pytest.mark.parametrize("text", ["5-2", "2-5", "[2-5]", "[5|2]", "[2|5]", "[5-2]", " 2-5 "])
def test_tile_parse_accepts_every_writing_and_normalises(text: str) -> None:
    tile = Tile.parse(text)
    assert tile == Tile(2, 5) and (tile.low, tile.high) == (2, 5)
    assert str(tile) == "2-5"


@given(halves, halves)
def test_tile_parse_normalises_to_low_high(a: int, b: int) -> None:
    expected = Tile(min(a, b), max(a, b))
    for writing in tile_writings(expected):
        tile = Tile.parse(writing)
        assert tile == expected and tile.low <= tile.high
        assert str(tile) == f"{min(a, b)}-{max(a, b)}"
    assert Tile.of(a, b) == Tile.of(b, a) == expected
    assert expected.pips == a + b


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "2-",
        "-5",
        "2",
        "25",
        "2--5",
        "2-5-6",
        "a-b",
        "2/5",
        "123-4",
        "7-7@Q:7",
        "2-5@R",
        "2-5@",
        "2-5@R:",
        "2-5@R^",
        "2-5@r:5",
        "2-5@RX",
        "2-5@Rx5",
        "2-5@R:5:5",
        "2-5 @R:5",
        "2-5@R;5",
        "drawx",
        "draw draw",
        "passs",
        "play",
        "2-5@R^x",
    ],
)
def test_garbage_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError) as refused:
        Action.parse(text)
    assert isinstance(refused.value, ValueError)
    message = str(refused.value)
    assert repr(text) in message and "2-5@R:5" in message  # the text, and an example


@pytest.mark.parametrize(
    ("text", "half"), [("2-5@R:3", 3), ("2-5@L^4", 4), ("6-6@L:5", 5), ("0-0@R^1", 1)]
)
def test_an_open_value_must_be_a_half_of_the_tile(text: str, half: int) -> None:
    with pytest.raises(NotationError, match=f"{half} is not a half of"):
        Action.parse(text)


@pytest.mark.parametrize("text", ["", "2-", "-2", "2-5-6", "x", "2/5", "123-1", "2-5@R:5"])
def test_tile_parse_refuses_garbage(text: str) -> None:
    with pytest.raises(NotationError, match="is not a tile"):
        Tile.parse(text)


@pytest.mark.parametrize("text", ["", "2-", "x", "2/5", "123-1"])
def test_a_text_that_is_no_tile_is_refused_again_and_not_remembered(text: str) -> None:
    for _ in range(2):
        with pytest.raises(NotationError, match="is not a tile"):
            Tile.parse(text)
    assert text not in tile_module._READ


def test_remembered_tiles_are_those_read_afresh_and_their_number_is_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tile_module, "_READ", {})
    monkeypatch.setattr(tile_module, "READ_LIMIT", 50)
    writings = [w for t in full_set(9) for w in tile_writings(t)]
    first = [Tile.parse(writing) for writing in writings]
    again = [Tile.parse(writing) for writing in writings]
    assert again == first == [Tile.parse(f" {writing} ") for writing in writings]
    assert len(tile_module._READ) == 50 < len(writings)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((Tile(2, 5), None, Shape.CROSSWISE, None), "opening tile"),
        ((Tile(2, 5), None, Shape.INLINE, 5), "opening tile"),
        ((Tile(2, 5), 100, Shape.INLINE, 5), "not an end number"),
        ((Tile(2, 5), -1, Shape.INLINE, 5), "not an end number"),
        ((Tile(2, 5), 0, Shape.INLINE, None), "crosswise"),
        ((Tile(2, 5), 0, Shape.CROSSWISE_OFFSET, None), "crosswise"),
        ((Tile(2, 5), 0, Shape.CROSSWISE, 5), "crosswise"),
        ((Tile(2, 5), 1, Shape.INLINE, 3), "3 is not a half of 2-5"),
    ],
)
def test_the_play_constructor_refuses_impossible_plays(
    args: tuple[Tile, int | None, Shape, int | None], message: str
) -> None:
    with pytest.raises(NotationError, match=message):
        Play(*args)


alphabet = st.sampled_from(list("0123456789-|[]@LRx^: draw pass knock \t"))


@settings(max_examples=examples(400))
@given(st.one_of(st.text(alphabet, max_size=12), st.text(max_size=12)))
@example("٢-٥")  # non-ASCII digits
def test_any_text_is_an_action_or_a_notation_error(text: str) -> None:
    try:
        action = Action.parse(text)
    except NotationError:
        return
    canonical = str(action)
    assert Action.parse(canonical) == action
    assert str(Action.parse(canonical)) == canonical


# --------------------------------------------------------------------------- order


def test_canonical_order_of_the_notation() -> None:
    # Plays by tile (low, then high), end (L, R, E2, ... by number), shape (inline, crosswise,
    # offset), open value; then draw; then pass. The opening tile has no end.
    ordered = [
        "0-6",
        "1-6@L:1",
        "1-6@L:6",
        "1-6@Lx",
        "1-6@L^1",
        "1-6@L^6",
        "1-6@R:1",
        "1-6@Rx",
        "1-6@E2:6",
        "1-6@E10x",
        "2-2@L:2",
        "2-5@R:5",
        "2-6@L:6",
        "3-4@R^3",
        "draw",
        "pass",
    ]
    parsed = [Action.parse(text) for text in ordered]
    for shuffled in (parsed[::-1], parsed[1::2] + parsed[::2]):
        assert [str(a) for a in sort_actions(list(shuffled))] == ordered


@settings(max_examples=examples(100))
@given(st.lists(actions, unique=True, max_size=25))
def test_sort_key_orders_like_the_notation(some: list[AnyAction]) -> None:
    def key(action: AnyAction) -> tuple[int, ...]:
        if isinstance(action, Draw):
            return (1,)
        if isinstance(action, Pass):
            return (2,)
        shape = [Shape.INLINE, Shape.CROSSWISE, Shape.CROSSWISE_OFFSET].index(action.shape)
        end = -1 if action.end is None else action.end
        open_value = -1 if action.open is None else action.open
        return (0, action.tile.low, action.tile.high, end, shape, open_value)

    assert sort_actions(some) == sorted(some, key=key)
    keys = [action.sort_key() for action in some]
    assert len(set(keys)) == len(keys)  # distinct actions never tie


# --------------------------------------------------------------------------- the grammar


def test_the_grammar_in_the_spec_is_the_one_the_readers_use() -> None:
    """The EBNF of spec/notation.md and the productions of notation.py agree word for word."""
    import re as regex

    import reference_engine.notation as notation

    root = Path(__file__).resolve().parents[1]
    text = (root / "spec" / "notation.md").read_text(encoding="utf-8")
    block = text.split("```ebnf\n", 1)[1].split("```", 1)[0]
    spec = [line.strip() for line in block.splitlines() if line.strip()]
    source = Path(notation.__file__).read_text(encoding="utf-8")
    code = regex.findall(r"^#: (\w+ = .*;)$", source, flags=regex.MULTILINE)
    assert spec == code


@pytest.mark.parametrize(
    "text", ["[ 2-5 ]", "[2 - 5]", "2 -5", "\u0662-\u0665", "２-５", "[2-5", "2|5"]
)
def test_no_reader_takes_a_spelling_outside_the_grammar(text: str) -> None:
    with pytest.raises(NotationError):
        Tile.parse(text)
    with pytest.raises(NotationError):
        Action.parse(text)
    with pytest.raises(NotationError):
        Action.parse(f"{text}@L:2")


@given(st.integers(0, 18), st.integers(0, 18))
def test_every_tile_of_every_set_round_trips_through_both_readers(a: int, b: int) -> None:
    tile = Tile.of(a, b)
    assert Tile.parse(str(tile)) == tile
    assert Action.parse(str(tile)) == Play(tile)
    for end in (0, 1):
        for play in (
            Play(tile, end, Shape.INLINE, a),
            Play(tile, end, Shape.CROSSWISE, None),
            Play(tile, end, Shape.CROSSWISE_OFFSET, b),
        ):
            assert Action.parse(str(play)) == play
