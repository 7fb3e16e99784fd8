"""Every table of the CLI fits the width it is given, in plain text and on a terminal.

The shared layout (reference_engine/text/tables.py) is checked on small tables
whose every width is worked out by hand; then every table command is run over
every shipped variant, piped and on a (pretend) terminal of 80 columns, and
no line may be longer than 80.
"""

from __future__ import annotations

import io
import json
import re

import pytest

from reference_engine.cli import run
from reference_engine.rules import Catalog
from reference_engine.text.tables import (
    Cell,
    Column,
    Style,
    column_blocks,
    markdown,
    render,
    style_for,
    table,
    widths,
    wrap,
)

VARIANTS = Catalog.shipped().ids()
ANSI = re.compile(r"\x1b\[[0-9;]*m")


class Terminal(io.StringIO):
    """Standard output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def matador(*argv: str, terminal: bool = False) -> str:
    out, err = (Terminal() if terminal else io.StringIO()), io.StringIO()
    code = run(list(argv), out, err)
    assert code == 0, err.getvalue()
    return out.getvalue()


# --------------------------------------------------------------------------- the layout


def test_wrap_breaks_at_spaces_and_a_long_word_after_underscores() -> None:
    assert wrap("two: 7, three: 6", 9) == ["two: 7,", "three: 6"]
    assert wrap("designated_draws_until_double", 12) == ["designated_", "draws_until_", "double"]
    assert wrap("abcdefghij", 4) == ["abcd", "efgh", "ij"]
    assert wrap("one\ntwo three", 20) == ["one", "two three"]


def test_columns_keep_their_natural_width_when_the_table_fits() -> None:
    grid = table(["a", "bbb"], [["xxxx", "y"]])
    # widths 4 and 3, with the two-space gap: 9 columns in all
    assert widths(grid, 9) == [4, 3]
    assert render(grid, Style(width=9)) == ["a     bbb", "----  ---", "xxxx  y"]


def test_the_widest_column_is_narrowed_first_and_its_cells_wrap() -> None:
    grid = table(["rule", "value"], [["max_pip", "one two three four five six"]])
    # 7 + 2 + 27 = 36 > 24: the value column shrinks to 24 - 9 = 15
    assert widths(grid, 24) == [7, 15]
    assert render(grid, Style(width=24))[2:] == ["max_pip  one two three", "         four five six"]


def test_a_marked_cell_is_led_by_a_star_in_plain_text_and_coloured_on_a_terminal() -> None:
    grid = table(["v"], [[Cell("x", marked=True)], ["y"]])
    assert render(grid, Style()) == ["v", "--", "*x", "y"]
    coloured = render(grid, Style(colour=True))
    assert "*" not in "".join(coloured) and "\x1b[1;33mx\x1b[0m" in coloured[2]


def test_column_blocks_repeat_the_first_column_and_fit_the_width() -> None:
    grid = table(["rule", *"ABCDE"], [["r", *(["x" * 8] * 5)]])
    # rule (4) + gap, then each 8-wide column with its gap: 4 + 10 + 10 + 10 = 34 <= 35
    blocks = column_blocks(grid, 35)
    assert [[c.header for c in block.columns] for block in blocks] == [
        ["rule", "A", "B", "C"],
        ["rule", "D", "E"],
    ]


def test_markdown_escapes_pipes_and_marks_in_bold() -> None:
    grid = table([Column("a"), Column("n", right=True)], [[Cell("x|y", marked=True), "1"]])
    assert markdown(grid) == ["| a | n |", "|---|---:|", "| **x\\|y** | 1 |"]


@pytest.mark.parametrize(
    ("terminal", "environ", "given", "expected"),
    [
        (False, {"COLUMNS": "120"}, None, Style(80, False)),
        (False, {}, 100, Style(100, False)),
        (True, {"COLUMNS": "120"}, None, Style(120, True)),
        (True, {"COLUMNS": "120", "NO_COLOR": ""}, None, Style(120, False)),
        (True, {"COLUMNS": "90", "TERM": "dumb"}, 70, Style(70, False)),
        (True, {"COLUMNS": "10"}, None, Style(40, True)),
    ],
    ids=["pipe", "pipe-width", "terminal", "no-color", "dumb", "narrow"],
)
def test_style_for_a_stream(
    terminal: bool, environ: dict[str, str], given: int | None, expected: Style
) -> None:
    stream = Terminal() if terminal else io.StringIO()
    assert style_for(stream, given, environ) == expected


# --------------------------------------------------------------------------- every table fits


def _commands() -> list[list[str]]:
    commands = [["list"], ["compare"], ["conform", "--coverage"]]
    commands += [["score", "--pips", pips] for pips in ("8,19", "10,20,30", "0,12,20,7")]
    commands += [["score", "--pips", "4,8,6,9", "--teams"], ["odds", "--set", "12", "--hand", "9"]]
    for variant in VARIANTS:
        commands += [["show", variant], ["compare", variant, "pagat:crosswise=berndt"]]
        commands += [["diff", variant, "pagat"], ["odds", "--variant", variant]]
    return commands


@pytest.mark.slow
@pytest.mark.parametrize("terminal", [False, True], ids=["piped", "terminal"])
@pytest.mark.parametrize("argv", _commands(), ids=" ".join)
def test_every_table_fits_80_columns(
    argv: list[str], terminal: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.delenv("NO_COLOR", raising=False)
    out = matador(*argv, terminal=terminal)

    if not terminal:
        assert "\x1b[" not in out  # colour only on a terminal
    long = [line for line in ANSI.sub("", out).splitlines() if len(line) > 80]
    assert long == []


def test_colour_on_a_terminal_unless_no_color_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert "\x1b[1m" in matador("score", "--pips", "8,19", terminal=True)
    monkeypatch.setenv("NO_COLOR", "")
    assert "\x1b[" not in matador("score", "--pips", "8,19", terminal=True)


def test_a_width_given_is_kept_in_a_pipe() -> None:
    out = matador("compare", "--width", "60")
    lines = out.splitlines()
    assert max(map(len, lines)) <= 60
    assert max(map(len, matador("compare").splitlines())) > 60  # 80 without it


def test_a_width_below_forty_is_a_usage_error() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run(["show", "pagat", "--width", "30"], out, err) == 2
    assert "at least 40" in err.getvalue()


# --------------------------------------------------------------------------- what the tables say


def test_compare_splits_the_variants_into_blocks_each_with_every_rule() -> None:
    out = matador("compare")
    blocks = [block for block in out.split("\n\n") if block.startswith("rule ")]
    headers = [block.splitlines()[0].split()[1:] for block in blocks]
    # 15 variants, 4 columns of 12 beside a rule column of 24 in 80 columns
    assert [len(names) for names in headers] == [4, 4, 4, 3]
    for block in blocks:
        rules = [line.split()[0] for line in block.splitlines()[2:] if not line.startswith(" ")]
        assert rules[0] == "max_pip" and rules[-1] == "target" and len(rules) == 24


def test_compare_marks_the_value_unlike_the_rest_of_its_row() -> None:
    # pagat's opener is designated (by lot), german's the holder of the highest double
    out = matador("compare", "pagat", "german", "pagat:crosswise=berndt")
    row = next(line for line in out.splitlines() if line.startswith("opener "))
    # the value in words, "*highest double", 15 long in a cell of 12: it breaks between
    # words, never inside one
    assert row.split() == ["opener", "designated", "*highest", "designated"]
    after = out.splitlines()[out.splitlines().index(row) + 1]
    assert after.split() == ["double"]  # (the cell's next line: between words)
    players = next(line for line in out.splitlines() if line.startswith("max_pip "))
    assert "*" not in players  # every variant plays the double-six set


def test_compare_codes_the_matador_modes_and_keys_them() -> None:
    out = matador("compare", "pagat", "pagat:crosswise=berndt")
    row = next(line for line in out.splitlines() if line.startswith("matador_modes "))
    assert row.split() == ["matador_modes", "A", "*B?"]
    assert "matador_modes A  all on any ends, free fit, inline" in out


def test_show_numbers_each_citation_once_and_names_the_gap_read() -> None:
    out = matador("show", "pagat")
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line[:1].isalpha()}
    # pagat's deal: one paragraph cited for players, hand size and reserve
    assert rows["players"][1:] == ["4", "[2]"]
    assert rows["hand_size"][1:] == ["four:", "7", "[2]"]
    assert rows["reserve"][-1] == "no-boneyard-yet-drawing"
    assert out.count("\n[2]  ") == 1


def test_the_old_json_flag_is_the_json_format_and_hidden() -> None:
    assert matador("show", "pagat", "--json") == matador("show", "pagat", "--format", "json")
    assert matador("odds", "--json") == matador("odds", "--format", "json")
    assert "--json" not in matador("show", "--help")


@pytest.mark.slow
def test_markdown_and_json_of_the_new_formats() -> None:
    listed = json.loads(matador("list", "--format", "json"))
    assert [entry["id"] for entry in listed] == VARIANTS
    assert matador("list", "--format", "markdown").startswith("| variant | publication |")
    differ = json.loads(matador("diff", "polish-base", "german", "--format", "json"))
    assert differ["second"] == "german" and "opener" in [d["rule"] for d in differ["differ"]]
    coverage = json.loads(matador("conform", "--coverage", "--report", "json"))
    assert coverage["matrix"]["players"]["pagat"] >= 1
