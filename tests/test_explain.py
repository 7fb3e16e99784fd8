"""`matador explain`: a table question answered under every source at once.

Expected answers are worked out by hand from the sources (via the variant files'
readings), not read back from the engine.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from fitting import unfitted

from reference_engine.cli import run
from reference_engine.disputes.explain import Situation, answer
from reference_engine.engine.hand import Hand
from reference_engine.engine.tiles import Tile
from reference_engine.rules import Catalog

CATALOG = Catalog.shipped()


def matador(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return code, out.getvalue(), err.getvalue()


BLANK_QUESTION = Situation.from_data(
    {"hand": ["3-4", "2-6"], "ends": [0, 5], "boneyard": 4, "action": "3-4@L"}
)


def ways(variant: str, situation: Situation = BLANK_QUESTION) -> dict[str, tuple[str, int]]:
    result = answer(CATALOG.resolve(variant), situation)
    return {action: (end, len(followers)) for action, end, followers in result.placements}


def test_main_rule_matador_on_the_blank_either_half_open_ten_answers_each() -> None:
    # 000: a matador goes on any end, its player choosing the open half; an end
    # showing 3 or 4 is then answered by 10 of the 28 tiles.
    for variant in ("gamerules-com", "britannica-1911", "wikipedia-brandreth", "dutch"):
        assert ways(variant) == {"3-4@L:3": ("3", 10), "3-4@L:4": ("4", 10)}, variant


def test_jeux_de_hasard_matador_across_the_blank_then_only_a_blank() -> None:
    # 001: across the chain on a blank, then only a blank: the seven tiles with a blank.
    assert ways("jeux-de-hasard") == {"3-4@Lx": ("3/4 blank match_only", 7)}


def test_polish_base_matador_across_then_an_identical_half() -> None:
    # 004: the next tile must show a 3 or a 4 (13 tiles), or be another matador
    # put across (0-0, 1-6, 2-5; 3-4 itself has a 3): 16 tiles.
    assert ways("polish-base") == {"3-4@Lx": ("3/4 identical free", 16)}


def test_polish_variant_anything_may_follow() -> None:
    assert ways("polish") == {"3-4@Lx": ("3/4 any free", 28)}


def test_a_matador_across_with_both_ends_open_names_the_end_it_opens() -> None:
    """supplement (cardsdicedominoes.com): a matador across the line leaves both of its
    ends open. [3-4] across the right 6 leaves a 3 there (a 4 or a matador follows) and
    opens E2 showing its 4 (a 3 or a matador): ten tiles each."""
    situation = Situation.from_data(
        {"players": 4, "hand": ["3-4", "1-2"], "ends": [6, 6], "action": "3-4@Rx"}
    )
    threes = ["0-0", "0-3", "1-3", "1-6", "2-3", "2-5", "3-3", "3-4", "3-5", "3-6"]
    result = answer(CATALOG.resolve("cardsdicedominoes-com"), situation)
    assert [(a, end) for a, end, _ in result.placements] == [("3-4@Rx", "3")]
    assert result.opens == {
        "3-4@Rx": [
            ("E2", "4", threes),
        ]
    }
    code, out, _ = matador(
        "explain", "--variant", "cardsdicedominoes-com", "--players", "4",
        "--hand", "3-4,1-2", "--ends", "6,6", "--action", "3-4@Rx", "--format", "json",
    )  # fmt: skip
    assert code == 0
    (way,) = json.loads(out)["variants"][0]["proposed"]["ways"]
    assert way["opens"] == [{"end": "E2", "leaves": "4", "followers": threes}]


def test_german_four_ways_including_the_l_that_admits_no_matador() -> None:
    found = ways("german")
    assert found["3-4@L:3"] == ("3", 10) and found["3-4@L:4"] == ("4", 10)
    # T over a blank: the next tile repeats the 0 (seven tiles) or is a matador (three more).
    assert found["3-4@Lx"] == ("0 identical free", 10)
    # L: the protruding half must be matched by an ordinary tile: six tiles carry a 3
    # besides the matador 3-4.
    assert found["3-4@L^3"] == ("3 identical never", 6)


def test_an_impossible_play_is_refused_with_the_rule_that_decides() -> None:
    # jeux de hasard: off a blank a matador goes only by the seven rule; 3-4 on a 5 cannot.
    situation = Situation.from_data(
        {"hand": ["3-4"], "ends": [0, 5], "boneyard": 4, "action": "3-4@R"}
    )
    result = answer(CATALOG.resolve("jeux-de-hasard"), situation)
    assert (result.verdict, result.reason, result.rule) == (
        "no",
        "does_not_match_end",
        "matador_modes",
    )
    assert result.citations and result.citations[0].publication == "jeux-de-hasard"


def test_after_a_one_tile_draw_only_the_drawn_tile_may_be_played() -> None:
    # 004 German variant: one tile is drawn and may be used at once.
    situation = Situation.from_data(
        {"hand": ["1-2", "3-4"], "ends": [6, 6], "boneyard": 5, "drawn": "1-2", "action": "3-4@L"}
    )
    result = answer(CATALOG.resolve("german"), situation)
    assert (result.verdict, result.reason) == ("no", "only_drawn_tile")
    assert answer(CATALOG.resolve("german"), situation).legal == ["1-2@L:2", "1-2@R:2", "pass"]


def test_a_position_has_the_legal_set_of_spec_8_2() -> None:
    rules = CATALOG.resolve("gamerules-com")
    hand = Hand.at_position(
        rules, players=2, hand=(Tile(2, 6), Tile(0, 5)), ends=(0, 5), boneyard=3
    )
    assert [str(a) for a in hand.legal_actions()] == ["2-6@R:6"]
    stuck = Hand.at_position(rules, players=2, hand=(Tile(0, 5),), ends=(0, 0), boneyard=3)
    assert [str(a) for a in stuck.legal_actions()] == ["draw"]
    empty = Hand.at_position(rules, players=2, hand=(Tile(0, 5),), ends=(0, 0), boneyard=0)
    assert [str(a) for a in empty.legal_actions()] == ["pass"]


def test_explain_command_names_where_the_sources_disagree() -> None:
    code, out, _ = matador("explain", "--hand", "3-4,2-6", "--ends", "0,5", "--action", "3-4@L")
    assert code == 0
    assert "the sources disagree:" in out
    assert "pagat:\n  (no such situation: not played by 2 players)" in out
    assert "3-4@Lx leaves '3/4 blank match_only'" in out


def test_explain_from_a_situation_file(tmp_path: Path) -> None:
    path = tmp_path / "table.yaml"
    path.write_text("players: 4\nhand: [3-4, 0-0]\nends: [0, 2]\nboneyard: 0\naction: 0-0@L\n")
    code, out, _ = matador("explain", str(path), "--variant", "pagat", "--variant", "polish-base")
    assert code == 0
    assert "0-0@L:0 leaves '0'" in out  # pagat: in line, the double blank leaves a blank
    assert "0-0@Lx leaves '0 none never'" in out  # the Polish base: across, the end is closed


@pytest.mark.parametrize(
    "argv",
    [
        ["explain"],
        ["explain", "--hand", "3-4", "--ends", "0"],
        ["explain", "--hand", "3-4,3-4", "--ends", "0,5"],
        ["explain", "--hand", "3-4", "--ends", "0,5", "--action", "3-4@Q"],
        ["explain", "--hand", "3-4", "--ends", "0,5", "--drawn", "1-2"],
    ],
)
def test_explain_bad_input_is_a_clear_usage_error(argv: list[str]) -> None:
    code, _, err = matador(*argv)
    assert code == 2
    assert err.startswith("matador explain: ")


# --------------------------------------------------------------------------- options, JSON


def _with_option(name: str) -> list[str]:
    """The shipped variants that offer the option ``name``."""
    return [v for v in CATALOG.ids() if any(o.name == name for o in CATALOG.resolve(v).options)]


def test_capital_o_applies_an_option_to_every_variant_that_has_it() -> None:
    code, out, err = matador("explain", "--hand", "3-4", "--ends", "0,5", "-O", "set=double_nine")

    assert code == 0, err
    named = [line[:-1] for line in out.splitlines() if line.endswith(":") and " " not in line]
    having = set(_with_option("set"))
    assert having  # the larger sets are options of some variants
    assert named == [f"{v}:set=double_nine" if v in having else v for v in CATALOG.ids()]


def test_variant_takes_its_options_after_a_colon() -> None:
    argv = ["explain", "--hand", "9-9,1-2", "--ends", "9,5", "--players", "4"]

    code, out, err = matador(*argv, "--variant", "pagat:set=double_nine")

    assert code == 0, err
    assert out.splitlines()[1] == "pagat:set=double_nine:"
    assert out.splitlines()[2].startswith("  legal: ")  # a double-nine set holds 9-9


def test_a_tile_no_selected_set_holds_is_one_line_and_exit_1() -> None:
    code, out, err = matador("explain", "--hand", "9-9", "--ends", "0,5")

    assert (code, out) == (1, "")
    assert len(unfitted(err)) == 1
    assert err.startswith("matador explain: the tile 9-9 is in no selected variant's set")
    assert err.endswith("; give -O set=double_nine\n")


def test_an_option_no_selected_variant_has_is_named() -> None:
    code, _, err = matador(
        "explain", "--hand", "3-4", "--ends", "0,5", "--variant", "german", "-O", "crosswise=berndt"
    )

    assert code == 1
    assert "'crosswise'" in err and err.startswith("matador explain: ")


def test_explain_gives_each_variants_answer_as_json() -> None:
    argv = ["explain", "--hand", "3-4,2-6", "--ends", "0,5", "--boneyard", "4"]
    code, out, err = matador(*argv, "--action", "3-4@L", "--format", "json")

    assert code == 0, err
    data = json.loads(out)
    assert data["situation"] == {
        "players": 2,
        "hand": ["3-4", "2-6"],
        "ends": [0, 5],
        "boneyard": 4,
        "drawn": None,
        "action": "3-4@L",
        "position": None,
    }
    entries = {entry["variant"]: entry for entry in data["variants"]}
    assert list(entries) == CATALOG.ids()
    # The main rule: the matador 3-4 goes on the blank, either half left open.
    main = entries["gamerules-com"]
    assert main["possible"] and main["proposed"]["allowed"]
    assert {way["leaves"] for way in main["proposed"]["ways"]} == {"3", "4"}
    # Four players only: no such situation for two.
    assert entries["pagat"]["possible"] is False and entries["pagat"]["proposed"] is None


def test_score_takes_rule_options_and_variants_with_options() -> None:
    code, out, err = matador("score", "--pips", "3,4", "-O", "set=double_nine", "--format", "json")

    assert code == 0, err
    labels = [award["variant"] for award in json.loads(out)["awards"]]
    assert [label for label in labels if ":set=double_nine" in label] != []
    assert all(label.endswith(":set=double_nine") for label in labels if ":" in label)

    one = matador("score", "--pips", "3,4", "--variant", "german:set=double_nine")
    assert one[0] == 0 and "german:set=double_nine" in one[1]
