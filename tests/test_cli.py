"""The ``matador`` command line: validate, list and show.

The CLI is driven in-process through ``reference_engine.cli.run`` (see the
``matador`` fixture, which also checks that no traceback is ever printed);
one test runs it as ``python -m reference_engine.cli``.
"""

from __future__ import annotations

import errno
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from reference_engine.cli import run
from reference_engine.errors import DealError
from reference_engine.exits import ExitStatus
from reference_engine.rules import (
    Catalog,
    OptionError,
    ProblemCode,
    parse_option_assignments,
)
from reference_engine.rules.datafiles import variants_dir

if TYPE_CHECKING:
    from conftest import CliResult

REPO = Path(__file__).resolve().parents[1]

#: One problem as ``validate`` and ``show`` print it: file:line:col: $.path: message (fix)
PROBLEM_LINE = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<path>\$\S*): (?P<message>.+) \((?P<fix>.+)\)$"
)
SUMMARY_LINE = re.compile(
    r"^matador validate: (?P<count>\d+) problem\(s\) in (?P<files>\d+) file\(s\) checked$"
)


def parsed(pattern: re.Pattern[str], line: str) -> re.Match[str]:
    """The match of ``pattern`` at the start of ``line``; the test fails if there is none."""
    match = pattern.match(line)
    assert match is not None, f"{line!r} does not match {pattern.pattern!r}"
    return match


def shipped_ids() -> list[str]:
    """The ids of the shipped variants, from the file names in variants/."""
    return sorted(path.stem for path in variants_dir().glob("*.yaml"))


# --------------------------------------------------------------------------- bad files


@dataclass(frozen=True)
class BadFile:
    """A broken variant file: how to build it and the document path of its problem."""

    json_path: str
    replace: tuple[tuple[str, str], ...] = ()
    append: str = ""
    content: bytes | None = None
    name: str = "my-variant.yaml"
    encoding: str = "utf-8"


BAD_FILES = {
    "yaml-syntax": BadFile("$", replace=(("title: Matador as", "title: Matador: as"),)),
    "duplicate-key": BadFile("$.title", append="title: Another title\n"),
    "unknown-field": BadFile("$.colour", append="colour: red\n"),
    "wrong-type": BadFile("$.rules.players.value", replace=(("value: [2, 3, 4]", 'value: "two"'),)),
    "not-in-enum": BadFile(
        "$.rules.opener.value", replace=(("value: highest_double", "value: biggest_double"),)
    ),
    "non-string-key": BadFile("$", append="on: true\n"),
    "yaml-tag": BadFile("$.x", append="x: !!python/object:os.system {}\n"),
    "recursive-alias": BadFile("$.loop[0]", append="loop: &a [*a]\n"),
    "merge-key": BadFile("$.merged", append="base: &x {a: 1}\nmerged:\n  <<: *x\n"),
    "not-utf8": BadFile(
        "$", replace=(("title: Matador as", "title: Matadoré as"),), encoding="latin-1"
    ),
    "not-a-mapping": BadFile("$", content=b"- a\n- b\n"),
    "id-mismatch": BadFile("$.id", name="other-name.yaml"),
    "missing-parent": BadFile("$.extends", append="extends: no-such-variant\n"),
    "extends-cycle": BadFile("$.extends", append="extends: my-variant\n"),
    "unknown-publication": BadFile(
        "$.publication",
        replace=(("publication: gamerules-com\nsummary", "publication: nowhere\nsummary"),),
    ),
    "unknown-gap": BadFile(
        "$.rules.turn_direction.gap", replace=(("gap: direction-silent", "gap: no-such-gap"),)
    ),
    "bad-default": BadFile(
        "$.options.draw.default", replace=(("default: until_playable", "default: sometimes"),)
    ),
    "deal-too-large": BadFile(
        "$.rules.hand_size",
        replace=(
            ("value: {two: 7, three: 6, four: 5}", "value: {two: 7, three: 7, four: 7}"),
            ("value: {two: 0, three: 0, four: 0}", "value: {two: 2, three: 2, four: 2}"),
        ),
    ),
    "player-counts": BadFile("$.rules.hand_size", replace=(("value: [2, 3, 4]", "value: [2, 3]"),)),
    "incoherent": BadFile(
        "$.rules.partnership", replace=(("value: none\n", "value: two_vs_two\n"),)
    ),
}

# Bad files that once printed badly; each fix is named beside it.
FIXED_BAD_FILES = {
    "empty-file": (
        BadFile("$", content=b""),
        "catalog.read_variant_file reports an empty file with no line, column or path",
    ),
    "no-citation": (
        BadFile(
            "$.rules.turn_direction",
            replace=(("    gap: direction-silent\n", ""),),
        ),
        "catalog._explain gives the 'needs a citation' problem no fix",
    ),
    "control-character": (
        BadFile("$", append='x: "bell \x07"\n'),
        "yamldoc.parse_yaml lets yaml.reader.ReaderError escape: the CLI shows a traceback",
    ),
}


def _bad_file_params() -> list[object]:
    cases = {**BAD_FILES, **{name: case for name, (case, _) in FIXED_BAD_FILES.items()}}
    return [pytest.param(case, id=name) for name, case in cases.items()]


@pytest.fixture(params=_bad_file_params())
def bad_file(
    request: pytest.FixtureRequest,
    variant_text: Callable[..., str],
    write_yaml: Callable[..., Path],
) -> tuple[Path, BadFile]:
    """A broken variant file written to tmp_path, with its description."""
    case: BadFile = request.param
    if case.content is not None:
        raw = case.content
    else:
        raw = variant_text(replace=case.replace, append=case.append).encode(case.encoding)
    return write_yaml(raw, case.name), case


# --------------------------------------------------------------------------- validate


def test_validate_without_arguments_checks_every_shipped_variant(
    matador: Callable[..., CliResult],
) -> None:
    result = matador("validate")

    assert result.code == 0, result.err
    assert result.err == ""
    for variant_id in shipped_ids():
        assert variant_id in result.out


def test_validate_good_file_exits_0_and_names_it(
    matador: Callable[..., CliResult], write_variant: Callable[..., Path]
) -> None:
    path = write_variant("my-variant")

    result = matador("validate", path)

    assert result.code == 0, result.err
    assert result.out == "1 variant file(s) valid: my-variant\n"
    assert result.err == ""


def test_validate_shipped_file_by_path_exits_0(
    matador: Callable[..., CliResult], shipped_variant: Path
) -> None:
    result = matador("validate", shipped_variant)

    assert result.code == 0, result.err
    assert "gamerules-com" in result.out


def test_validate_bad_file_exits_1_with_one_located_line_per_problem(
    matador: Callable[..., CliResult], bad_file: tuple[Path, BadFile]
) -> None:
    path, case = bad_file

    result = matador("validate", path)

    assert result.code == 1
    assert result.out == ""
    *problems, summary = result.err_lines
    assert problems
    for line in problems:
        match = PROBLEM_LINE.match(line)
        assert match, line
        assert match["file"] == str(path)
    assert any(parsed(PROBLEM_LINE, line)["path"] == case.json_path for line in problems)
    assert parsed(SUMMARY_LINE, summary)["count"] == str(len(problems))


def test_validate_reports_every_problem_of_a_file(
    matador: Callable[..., CliResult], write_variant: Callable[..., Path]
) -> None:
    path = write_variant(
        replace=[
            ("value: highest_double", "value: biggest_double"),
            ("value: [2, 3, 4]", 'value: "two"'),
        ],
        append="colour: red\n",
    )

    result = matador("validate", path)

    assert result.code == 1
    assert result.err_lines[-1] == "matador validate: 3 problem(s) in 1 file(s) checked"
    assert len(result.err_lines) == 4


def test_validate_reports_problems_of_every_file_given(
    matador: Callable[..., CliResult],
    write_yaml: Callable[..., Path],
    child_text: Callable[..., str],
) -> None:
    orphan = write_yaml(child_text("orphan", "no-such-variant"), "orphan.yaml")
    broken = write_yaml("a: [1, 2\n", "broken.yaml")

    result = matador("validate", orphan, broken)

    assert result.code == 1
    files = {parsed(PROBLEM_LINE, line)["file"] for line in result.err_lines[:-1]}
    assert files == {str(orphan), str(broken)}
    assert result.err_lines[-1] == "matador validate: 2 problem(s) in 2 file(s) checked"


def test_validate_child_of_shipped_variant_exits_0(
    matador: Callable[..., CliResult],
    write_yaml: Callable[..., Path],
    child_text: Callable[..., str],
) -> None:
    text = child_text("child", "gamerules-com", rules={"hand_size": "{two: 6, three: 5, four: 4}"})

    result = matador("validate", write_yaml(text, "child.yaml"))

    assert result.code == 0, result.err
    assert "child" in result.out


def test_validate_directory_is_invalid_input(
    matador: Callable[..., CliResult], tmp_path: Path
) -> None:
    result = matador("validate", tmp_path)

    assert result.code == 1
    assert result.err_lines == [f"matador validate: {tmp_path} is a directory; give variant files"]


def test_validate_missing_file_exits_1_and_names_it(
    matador: Callable[..., CliResult], tmp_path: Path
) -> None:
    path = tmp_path / "absent.yaml"

    result = matador("validate", path)

    assert result.code == 1
    assert result.err_lines[0].startswith(f"{path}: cannot read the file")
    assert "(check the path)" in result.err_lines[0]


@pytest.mark.slow  # a hostile document, as the other hostile-input tests
def test_alias_bomb_is_rejected_quickly_by_validate(
    matador: Callable[..., CliResult], write_yaml: Callable[..., Path]
) -> None:
    levels = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, 9):
        alias = f"*a{level - 1}"
        levels.append(f"a{level}: &a{level} [{', '.join([alias] * 9)}]")
    path = write_yaml("\n".join(levels) + "\n")

    result = matador("validate", path)

    assert result.code == 1
    assert "alias bomb" in result.err_lines[0]


# --------------------------------------------------------------------------- list


def test_list_prints_every_shipped_variant_id(matador: Callable[..., CliResult]) -> None:
    result = matador("list")

    assert result.code == 0
    rows = result.out.splitlines()[2:]  # under the header and its rule
    listed = {line.split()[0] for line in rows if line and not line.startswith(" ")}
    assert listed == set(shipped_ids())


def test_list_names_each_variant_publication(matador: Callable[..., CliResult]) -> None:
    result = matador("list")

    assert re.search(r"^gamerules-com +gamerules\.com, Matador$", result.out, re.MULTILINE)


def test_list_gives_one_line_per_variant_within_the_width(
    matador: Callable[..., CliResult],
) -> None:
    for width in (80, 50):
        lines = matador("list", "--width", str(width)).out.splitlines()
        assert len(lines) == 2 + len(shipped_ids())  # the header, its rule, a line each
        assert max(len(line) for line in lines) <= width
        assert {line.split()[0] for line in lines[2:]} == set(shipped_ids())


def test_list_long_adds_each_summary(matador: Callable[..., CliResult]) -> None:
    out = matador("list", "--long").out
    assert "Seven tiles each, the highest double opens" in " ".join(out.split())
    assert "summary" in out.splitlines()[0]


def test_list_survives_a_shipped_variant_with_unknown_publication(
    matador: Callable[..., CliResult],
    write_variant: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = write_variant(
        replace=[("publication: gamerules-com\nsummary", "publication: x\nsummary")]
    )
    catalog = Catalog.load([path], with_shipped=False)
    monkeypatch.setattr(Catalog, "shipped", classmethod(lambda cls: catalog))

    result = matador("list")

    assert "my-variant" in result.out


def test_list_runs_as_a_module() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "reference_engine.cli", "list"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert completed.returncode == 0, completed.stderr
    assert "gamerules-com" in completed.stdout
    assert completed.stderr == ""


# --------------------------------------------------------------------------- show


def test_show_prints_rules_with_their_citations(matador: Callable[..., CliResult]) -> None:
    result = matador("show", "gamerules-com")

    assert result.code == 0, result.err
    lines = result.out.splitlines()
    row = next(line for line in lines if line.startswith("max_pip "))
    assert row.split() == ["max_pip", "6", "[1]"]
    cited = next(line for line in lines if line.startswith("[1]  "))
    assert cited.startswith("[1]  gamerules.com, Matador, text 000, opening paragraphs: ")


def test_show_prints_the_gap_behind_an_uncited_rule(matador: Callable[..., CliResult]) -> None:
    result = matador("show", "gamerules-com")

    row = next(line for line in result.out.splitlines() if line.startswith("turn_direction "))
    assert row.split() == ["turn_direction", "unspecified", "direction-silent"]


@pytest.fixture(scope="module")
def shown_json() -> dict[str, Any]:
    out, err = io.StringIO(), io.StringIO()
    assert run(["show", "gamerules-com", "--json"], out, err) == 0, err.getvalue()
    shown: dict[str, Any] = json.loads(out.getvalue())
    return shown


def test_show_json_gives_max_pip_6(shown_json: dict[str, Any]) -> None:
    assert shown_json["rules"]["max_pip"]["value"] == 6


def test_show_json_every_set_rule_has_a_citation_or_a_gap(shown_json: dict[str, Any]) -> None:
    for name, entry in shown_json["rules"].items():
        if entry["set_by"] is not None:
            assert entry["cite"] or entry["gap"], name


def test_show_json_unset_rules_are_the_inapplicable_ones(shown_json: dict[str, Any]) -> None:
    for name, entry in shown_json["rules"].items():
        if entry["set_by"] is None:
            assert entry["value"] is None, name
            assert entry["applicable"] is False, name


def test_show_json_citations_are_complete(shown_json: dict[str, Any]) -> None:
    for name, entry in shown_json["rules"].items():
        for citation in entry["cite"]:
            assert set(citation) == {"publication", "text", "section", "says"}, name
            assert all(citation.values()), name


def test_show_with_option_shows_the_rule_it_sets(matador: Callable[..., CliResult]) -> None:
    result = matador("show", "gamerules-com", "-O", "draw=pass", "--width", "240")

    assert result.code == 0, result.err
    lines = result.out.splitlines()
    row = next(line for line in lines if line.startswith("draw_when "))
    assert row.split()[:2] == ["draw_when", "never"] and "set by option draw=pass" in row
    option = next(line for line in lines if line.startswith("*draw="))
    assert option.split("  ")[0] == "*draw=pass (chosen)"  # marked: not the default
    assert "  until_playable, reserve_two, one_then_pass, one_may_keep  " in option


def test_show_json_with_option_records_the_option(matador: Callable[..., CliResult]) -> None:
    result = matador("show", "gamerules-com", "--option", "draw=pass", "--json")

    draw_when = json.loads(result.out)["rules"]["draw_when"]
    assert draw_when["value"] == "never"
    assert draw_when["set_by"] == {"variant": "gamerules-com", "option": "draw=pass"}


def test_show_unknown_variant_exits_1_listing_the_known_ones(
    matador: Callable[..., CliResult],
) -> None:
    result = matador("show", "nope")

    assert result.code == 1
    assert result.out == ""
    assert result.err_lines == [
        "matador show: no variant 'nope' (known variants: " + ", ".join(shipped_ids()) + ")"
    ]


@pytest.mark.parametrize("option", ["draw", "=pass", "draw="])
def test_show_option_without_name_equals_value_is_a_usage_error(
    matador: Callable[..., CliResult], option: str
) -> None:
    result = matador("show", "gamerules-com", "--option", option)

    assert result.code == 2  # a malformed command line, as the README's table says
    assert result.out == ""
    assert result.err_lines == [
        f"matador show: option {option!r} is not NAME=VALUE (write it as --option NAME=VALUE)"
    ]


def test_option_without_equals_sign_is_bad_option_syntax() -> None:
    with pytest.raises(OptionError) as raised:
        parse_option_assignments(["draw"])

    assert raised.value.codes == {ProblemCode.BAD_OPTION_SYNTAX}


@pytest.mark.parametrize(
    ("option", "expected"),
    [
        ("nope=x", "matador show: variant 'gamerules-com' has no option 'nope'"),
        (
            "draw=sometimes",
            "matador show: option 'draw' of 'gamerules-com' has no value 'sometimes'",
        ),
    ],
)
def test_show_unknown_option_or_value_exits_1(
    matador: Callable[..., CliResult], option: str, expected: str
) -> None:
    result = matador("show", "gamerules-com", "-O", option)

    assert result.code == 1
    assert result.err_lines[0].startswith(expected)


def test_show_option_given_twice_differently_exits_1(matador: Callable[..., CliResult]) -> None:
    result = matador("show", "gamerules-com", "-O", "draw=pass", "-O", "draw=reserve_two")

    assert result.code == 1
    assert "given twice" in result.err


# --------------------------------------------------------------------------- usage


def test_no_arguments_prints_help_and_exits_2(matador: Callable[..., CliResult]) -> None:
    result = matador()

    assert result.code == 2
    assert result.out.startswith("usage: matador")
    for command in ("validate", "list", "show"):
        assert command in result.out


def test_help_exits_0(matador: Callable[..., CliResult]) -> None:
    result = matador("--help")

    assert result.code == 0
    assert result.out.startswith("usage: matador")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(["frobnicate"], "invalid choice: 'frobnicate'", id="unknown-subcommand"),
        pytest.param(["show"], "the following arguments are required: ID", id="missing-id"),
        pytest.param(["show", "gamerules-com", "--bogus"], "unrecognized arguments", id="bad-flag"),
        pytest.param(["list", "extra"], "unrecognized arguments", id="extra-argument"),
    ],
)
def test_usage_error_exits_2_with_one_line(
    matador: Callable[..., CliResult], argv: list[str], message: str
) -> None:
    result = matador(*argv)

    assert result.code == 2
    assert len(result.err_lines) == 1
    assert result.err_lines[0].startswith("matador")
    assert message in result.err_lines[0]


# --------------------------------------------------------------------------- files and outputs


class _FailingOutput(io.StringIO):
    """Standard output that fails as a closed pipe or a full disk does, after ``room`` chars."""

    def __init__(self, error: OSError, room: int = 0) -> None:
        super().__init__()
        self.error = error
        self.room = room

    def write(self, text: str) -> int:
        if len(self.getvalue()) + len(text) > self.room:
            raise self.error
        return super().write(text)


@pytest.mark.parametrize("argv", [["list"], ["compare"], ["show", "gamerules-com", "--json"]])
def test_closed_standard_output_ends_quietly_with_status_141(argv: list[str]) -> None:
    err = io.StringIO()

    code = run(argv, _FailingOutput(BrokenPipeError(32, "Broken pipe"), room=100), err)

    assert code == ExitStatus.BROKEN_PIPE
    assert ExitStatus.BROKEN_PIPE.value == 141
    assert err.getvalue() == ""


def test_full_disk_on_standard_output_is_one_clear_line() -> None:
    err = io.StringIO()
    full = _FailingOutput(OSError(errno.ENOSPC, "No space left on device"))

    code = run(["compare"], full, err)

    assert code == 1
    assert err.getvalue() == "matador compare: cannot write the output: No space left on device\n"


def test_help_to_a_closed_output_ends_quietly() -> None:
    err = io.StringIO()

    assert run(["--help"], _FailingOutput(BrokenPipeError()), err) == ExitStatus.BROKEN_PIPE
    assert err.getvalue() == ""


@pytest.mark.parametrize("command", ["validate", "conform", "explain", "replay"])
@pytest.mark.parametrize("value", ["0", "-1", "abc", "1.5", ""])
def test_max_bytes_must_be_a_positive_whole_number(
    matador: Callable[..., CliResult], command: str, value: str
) -> None:
    result = matador(command, "--max-bytes", value, "--help")

    assert result.code == 2
    assert result.err_lines == [
        f"matador {command}: argument --max-bytes: give a positive whole number of bytes, "
        f"not {value!r}"
    ]


def test_validate_max_bytes_lowers_and_raises_the_limit(
    matador: Callable[..., CliResult], write_variant: Callable[..., Path]
) -> None:
    path = write_variant()
    size = path.stat().st_size

    below = matador("validate", "--max-bytes", size - 1, path)
    exact = matador("validate", "--max-bytes", size, path)

    assert below.code == 1
    assert below.err_lines[0] == (
        f"{path}: cannot read the file: larger than the limit of {size - 1:,} bytes "
        "(if the file is really meant, raise the limit with --max-bytes)"
    )
    assert exact.code == 0, exact.err


def test_validate_pipe_is_refused_without_blocking(
    matador: Callable[..., CliResult], tmp_path: Path
) -> None:
    path = tmp_path / "pipe.yaml"
    os.mkfifo(path)

    result = matador("validate", path)

    assert result.code == 1
    assert result.err_lines[0] == (
        f"{path}: cannot read the file: a named pipe, not a regular file (give a file)"
    )


def test_explain_situation_with_yaml_1_1_boolean_is_located(
    matador: Callable[..., CliResult], tmp_path: Path
) -> None:
    path = tmp_path / "table.yaml"
    path.write_text("players: 2\nhand: [3-4]\nends: [0, 3]\naction: off\n", encoding="utf-8")

    result = matador("explain", path)

    assert result.code == 1
    assert result.err_lines[0].startswith(f"{path}:4:9: $.action: 'off' is a boolean")


@pytest.mark.parametrize(
    ("make", "says"),
    [
        pytest.param(lambda tmp: tmp / "no" / "sheet.md", "the folder", id="missing-folder"),
        pytest.param(lambda tmp: tmp, "give", id="directory"),
    ],
)
def test_sheet_output_that_cannot_be_written_is_said_before_any_work(
    matador: Callable[..., CliResult], tmp_path: Path, make: Callable[[Path], Path], says: str
) -> None:
    path = make(tmp_path)

    result = matador("sheet", "gamerules-com", "--format", "markdown", "-o", path)

    assert result.code == 2
    assert result.out == ""
    assert result.err_lines[0].startswith(f"matador sheet: cannot write {path}: ")
    assert says in result.err


def test_sheet_failing_after_the_check_keeps_the_existing_file(
    matador: Callable[..., CliResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from reference_engine.sheets import render

    path = tmp_path / "sheet.md"
    path.write_text("last week's sheet\n", encoding="utf-8")

    def fail(sheet: object) -> str:
        raise DealError("rendering failed half-way")

    monkeypatch.setattr(render, "render_markdown", fail)
    result = matador("sheet", "gamerules-com", "--format", "markdown", "-o", path)

    assert result.code == 1
    assert path.read_text(encoding="utf-8") == "last week's sheet\n"
    assert sorted(tmp_path.iterdir()) == [path]


@pytest.mark.parametrize(
    "argv",
    [
        ["show", "gamerules-com", "--json"],
        ["play", "gamerules-com", "--seed", "1", "--hands", "1", "--json"],
        ["odds", "--json"],
    ],
    ids=["show", "play", "odds"],
)
def test_json_output_is_strict_json(matador: Callable[..., CliResult], argv: list[str]) -> None:
    result = matador(*argv)

    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} in the JSON output")

    assert result.code == 0, result.err
    json.loads(result.out, parse_constant=refuse)


def test_json_output_refuses_nan_rather_than_writing_it() -> None:
    from reference_engine.cli import _json_text

    with pytest.raises(ValueError, match="not JSON compliant"):
        _json_text({"odds": float("nan")})


# --------------------------------------------------------------------------- 80 columns


def test_show_never_breaks_an_option_value_at_80_columns(
    matador: Callable[..., CliResult],
) -> None:
    import re

    from reference_engine.rules import Catalog

    rules = Catalog.shipped().resolve("pagat")
    values = {value.name for option in rules.options for value in option.values}

    out = matador("show", "pagat", "--width", "80").out

    lines = out.split("options (choose", 1)[1].split("\n\n", 1)[0].splitlines()
    about = lines[1].index("about")  # the option columns end where "about" begins
    words = {word for line in lines[3:] for word in re.split(r"[ ,]+", line[:about]) if word}
    # Every word of the option columns is a whole value or NAME=VALUE, never a part of one.
    assert {word for word in words if word.split("=")[-1] not in values} == set()
    assert "central_european_identical" in words
    assert all(len(line) <= 80 for line in out.splitlines())


def test_a_sheet_title_does_not_say_matador_twice(matador: Callable[..., CliResult]) -> None:
    house = matador("sheet", "house", "--format", "markdown").out.splitlines()
    french = matador("sheet", "pagat", "--lang", "fr", "--format", "markdown").out.splitlines()

    # Both titles start with the game's name, so neither is prefixed with it again.
    assert house[2] == "# Matador, the Polish page author's house variant for three"
    assert french[2] == "# Matador décrit sur pagat (page de Joe Celko)"


def test_a_pdf_sheet_is_not_written_to_standard_output(matador: Callable[..., CliResult]) -> None:
    result = matador("sheet", "pagat", "-o", "-")
    assert result.code == 2
    assert result.out == ""
    assert result.err.startswith("matador sheet: -o -: a PDF is written to a file")
    assert not Path("-").exists()


def test_a_sheet_takes_its_options_in_the_variant_as_show_does(
    matador: Callable[..., CliResult],
) -> None:
    joined = matador("sheet", "pagat:set=double_nine", "--format", "markdown")
    flagged = matador("sheet", "pagat", "-O", "set=double_nine", "--format", "markdown")
    assert joined.code == flagged.code == 0, joined.err
    assert joined.out == flagged.out
    assert "set=double_nine" in joined.out.splitlines()[0]


def test_slow_commands_say_what_they_are_doing_on_a_terminal_only() -> None:
    """sheet and site take seconds: on a terminal a spinner says what is being done
    (cleared when done); in a pipe or a file nothing is drawn."""
    import time

    from reference_engine.cli.progress import working

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    drawn = Terminal()
    with working(drawn, "laying out the sheet") as say:
        time.sleep(0.2)
        say("writing the file")
        time.sleep(0.2)
    assert "laying out the sheet" in drawn.getvalue()
    assert "writing the file" in drawn.getvalue()
    piped = io.StringIO()
    with working(piped, "laying out the sheet") as say:
        say("writing the file")
    assert piped.getvalue() == ""
