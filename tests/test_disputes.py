"""Settling disputes: compare, diff, score, odds. Expected values come from the source texts."""

from __future__ import annotations

import io
import json
from fractions import Fraction
from pathlib import Path

import pytest

from reference_engine.cli import run
from reference_engine.disputes import comparison_document, odds
from reference_engine.rules import Catalog

ROOT = Path(__file__).resolve().parents[1]


def matador(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return code, out.getvalue(), err.getvalue()


def rows(out: str) -> dict[str, str]:
    """A table's rows by their first word: the lines under the header and its rule that
    begin a row (a row's further lines begin with spaces)."""
    return {line.split()[0]: line for line in out.splitlines()[2:] if line[:1].strip()}


# --------------------------------------------------------------------------- score


def test_the_surveys_blocked_hand_scores_11_by_difference_and_27_by_the_britannica() -> None:
    # 000, "Le décompte": blocked, you keep 8 and the opponent 19.
    code, out, _ = matador("score", "--pips", "8,19", "--blocked")
    assert code == 0
    lines = rows(out)
    assert "seat 0 scores 27" in lines["britannica-1911"]
    for variant in ("gamerules-com", "jeux-de-hasard", "polish-base"):
        assert "seat 0 scores 11" in lines[variant], variant
    assert "not played by 2" in lines["pagat"]


def test_a_tie_for_lowest_scores_nothing_everywhere() -> None:
    code, out, _ = matador("score", "--pips", "9,9,14")
    assert code == 0
    played = [line for line in rows(out).values() if "not played" not in line]
    assert played and all("nobody scores" in line for line in played)


def test_a_domino_scores_the_others_pips() -> None:
    code, out, _ = matador("score", "--pips", "0,12,20", "--domino", "0")
    assert code == 0
    played = [line for line in rows(out).values() if "not played" not in line]
    assert played and all("seat 0 scores 32" in line for line in played)


def test_difference_with_several_losers_follows_each_variants_reading() -> None:
    code, out, _ = matador(
        "score", "--pips", "5,12,20", "--variant", "britannica-1911", "--variant", "polish-base"
    )
    assert code == 0
    assert "seat 0 scores 37" in out  # all hands: 5 + 12 + 20
    assert "seat 0 scores 27" in out  # difference, total minus own: 32 - 5


def test_teams_use_the_partnership_options() -> None:
    code, out, _ = matador("score", "--pips", "4,8,6,9", "--teams", "--format", "json")
    assert code == 0
    awards = {award["variant"]: award for award in json.loads(out)["awards"]}
    # sides 0+2 = 10 and 1+3 = 17: difference 7, all hands 27
    pagat = awards["pagat:partnership=two_vs_two"]
    assert (pagat["winner"], pagat["points"][0]) == (0, 7)
    britannica = awards["britannica-1911:four_players=two_vs_two"]
    assert (britannica["winner"], britannica["points"][0]) == (0, 27)
    assert not awards["gamerules-com"]["played"]
    assert "no partnership game" in awards["gamerules-com"]["by"]
    _, text, _ = matador("score", "--pips", "4,8,6,9", "--teams")
    assert "side 0 scores 7" in text and "side 0 scores 27" in text


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "--pips", "8,x"],
        ["score", "--pips", "8"],
        ["score", "--pips", "8,19", "--domino", "5"],
        ["score", "--pips", "8,19", "--domino", "1"],
        ["score", "--pips", "8,19", "--teams"],
        ["score"],
    ],
)
def test_score_usage_errors(argv: list[str]) -> None:
    code, _, err = matador(*argv)
    assert code == 2
    assert err


# --------------------------------------------------------------------------- odds


def answers(out: str) -> dict[str, list[str]]:
    """The rows of ``matador odds``'s second table (end, tiles, which), by the end's value."""
    table = out.split("\n\n")[1].splitlines()[3:]  # under its heading, header and rule
    return {line.split()[0]: line.split() for line in table if " of " in line}


def test_odds_reproduce_the_surveys_table() -> None:
    # 000, "Ce que font les matadors": 43.2 / 17.9 / 13.5 % for five tiles,
    # 29.2 / 25.0 / 25.3 % for seven.
    five, seven = odds(6, 5), odds(6, 7)
    assert [
        round(float(x) * 100, 1) for x in (five.no_matador, five.double_blank, five.two_or_more)
    ] == [43.2, 17.9, 13.5]
    assert [
        round(float(x) * 100, 1) for x in (seven.no_matador, seven.double_blank, seven.two_or_more)
    ] == [29.2, 25.0, 25.3]
    assert five.double_blank == Fraction(5, 28)


def test_odds_command_prints_fractions_percentages_and_answers() -> None:
    code, out, _ = matador("odds", "--set", "6", "--hand", "5")
    assert code == 0
    assert "43.2 %" in out and "17.9 %" in out and "13.5 %" in out
    assert "5/28" in out
    # 000, "La règle du sept": 10 of 28 for an end showing 1 to 6, but 4 for a blank.
    ends = answers(out)
    assert ends["0"][:4] == ["0", "4", "of", "28"]
    for value in range(1, 7):
        assert ends[str(value)][:4] == [str(value), "10", "of", "28"]


def test_odds_for_double_nine_count_six_matadors() -> None:
    code, out, _ = matador("odds", "--set", "9", "--hand", "7", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["tiles"] == 55 and data["matadors"] == 6
    assert sorted(data["answers"]["0"]) == ["0-0", "1-9", "2-8", "3-7", "4-6", "5-5"]


def test_odds_under_a_variant_with_other_matador_rules() -> None:
    # jeux de hasard: off a blank a matador goes only by the sum rule, so an end
    # showing 6 is answered by the seven tiles carrying a 1.
    code, out, _ = matador("odds", "--variant", "jeux-de-hasard", "--hand", "7")
    assert code == 0
    ends = answers(out)
    assert ends["6"][:4] == ["6", "7", "of", "28"]
    assert ends["0"][:4] == ["0", "4", "of", "28"]


@pytest.mark.parametrize(
    "argv",
    [
        ["odds", "--hand", "0"],
        ["odds", "--hand", "29"],
        ["odds", "--set", "9", "--variant", "pagat"],
    ],
)
def test_odds_usage_errors(argv: list[str]) -> None:
    code, _, err = matador(*argv)
    assert code == 2
    assert err


# --------------------------------------------------------------------------- compare and diff


def test_compare_markdown_has_a_row_per_rule_and_a_column_per_variant() -> None:
    code, out, _ = matador("compare", "pagat", "polish-base", "--format", "markdown")
    assert code == 0
    header = out.splitlines()[0]
    assert header == "| rule | pagat | polish-base |"
    assert "| hand_size | four: 7 —" in out
    assert "[gap: " in out
    assert "### Options" in out and "crosswise" in out


def test_compare_html_is_a_table() -> None:
    code, out, _ = matador("compare", "house", "--format", "html")
    assert code == 0
    assert out.startswith("<table>") and "<th>house</th>" in out


def test_docs_comparison_is_fresh() -> None:
    path = ROOT / "docs" / "comparison.md"
    assert path.read_text(encoding="utf-8") == comparison_document(Catalog.shipped()), (
        "docs/comparison.md is stale: run `matador compare --format markdown > docs/comparison.md`"
    )


def test_diff_shows_only_what_differs_with_citations() -> None:
    code, out, _ = matador("diff", "polish-base", "german")
    assert code == 0
    assert "opener_plays_again" in rows(out.split("\n", 1)[1]) and "max_pip" not in out
    code, out, _ = matador("diff", "polish-base", "german", "--format", "markdown")
    assert code == 0
    assert "polish-page (004, Warianty: wariant niemiecki)" in out


def test_diff_a_variant_against_itself_with_an_option() -> None:
    code, out, _ = matador("diff", "pagat", "pagat:crosswise=berndt")
    assert code == 0
    assert out.startswith("1 rule(s) differ")
    assert list(rows(out.split("\n", 1)[1])) == ["matador_modes"] and "crosswise" in out


def test_diff_of_identical_rules() -> None:
    code, out, _ = matador("diff", "gamerules-com", "gamerules-com")
    assert code == 0
    assert "have the same rules" in out


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["diff", "pagat", "nope"], 1),
        (["diff", "pagat", "pagat:crosswise"], 2),
        (["diff", "pagat", "pagat:crosswise=diagonal"], 1),
        (["compare", "pagat:zzz=1"], 1),
    ],
)
def test_diff_and_compare_errors(argv: list[str], code: int) -> None:
    got, _, err = matador(*argv)
    assert got == code
    assert err


def test_an_option_given_twice_in_a_target_is_refused_not_overwritten() -> None:
    from reference_engine.disputes import parse_target

    with pytest.raises(ValueError, match="option 'crosswise' given twice"):
        parse_target("pagat:crosswise=english,crosswise=berndt")
    assert parse_target("pagat:crosswise=berndt,crosswise=berndt") == (
        "pagat",
        {"crosswise": "berndt"},
    )
