"""Every command behaves alike: ``-o FILE`` wherever something is printed, the same exit
status for the same kind of mistake, rule options wherever variants are chosen.

Each check walks ``matador``'s parser, so a command added later is held to the
same rules; the command lines that run each command are listed once here, and a
test fails when a command has none.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from reference_engine.cli import run
from reference_engine.cli.app import PRINTS_NO_RESULT, build_parser
from reference_engine.exits import ExitStatus

if TYPE_CHECKING:
    from conftest import CliResult


def _commands() -> Iterator[tuple[str, argparse.ArgumentParser]]:
    top = build_parser(io.StringIO())
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            yield from action.choices.items()


def _having(dest: str) -> set[str]:
    """The commands with an argument whose ``dest`` is ``dest``."""
    return {
        name
        for name, parser in _commands()
        if any(action.dest == dest for action in parser._actions)
    }


#: A quick command line that succeeds and prints, for every command that takes ``-o``.
#: ``{record}`` is a game record made by ``play``, ``{run}`` a run's report made by ``conform``.
PRINTS = {
    "validate": ["validate"],
    "list": ["list"],
    "show": ["show", "pagat"],
    "play": ["play", "german", "--seed", "1", "--hands", "1"],
    "replay": ["replay", "{record}"],
    "conform": ["conform", "--case", "survey-annotated-*", "--report", "markdown"],
    "cases": ["cases", "--variant", "german"],
    "identify": [
        "identify",
        "--engine",
        "python:reference_engine.conformance.protocol.interface:ReferenceEngine",
        "--hands",
        "1",
        "--players",
        "2",
    ],
    "example": ["example", "python"],
    "sheet": ["sheet", "house", "--format", "markdown"],
    "compare": ["compare", "pagat", "german"],
    "diff": ["diff", "pagat", "german"],
    "score": ["score", "--pips", "3,4"],
    "odds": ["odds"],
    "explain": ["explain", "--hand", "3-4", "--ends", "0,5"],
    "simulate": ["simulate", "german", "--hands", "20", "--jobs", "1"],
    "completion": ["completion", "bash"],
    "report": ["report", "{run}"],
}

#: Slow to run (an engine is observed): run with --slow.
SLOW = {"identify"}


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game record made by ``play``, once for the module (no test changes it)."""
    out, err = io.StringIO(), io.StringIO()
    code = run(["play", "german", "--seed", "3", "--hands", "1", "--format", "json"], out, err)
    assert code == 0, err.getvalue()
    path = tmp_path_factory.mktemp("record") / "game.json"
    path.write_text(out.getvalue(), encoding="utf-8")
    # and beside it, ``{run}``: a run's JSON-lines report, made by conform
    out = io.StringIO()
    code = run(["conform", "--case", "survey-annotated-*", "--report", "json"], out, err)
    assert code == 0, err.getvalue()
    (path.parent / "run.jsonl").write_text(out.getvalue(), encoding="utf-8")
    return path


def _argv(command: str, record: Path) -> list[str]:
    return [part.format(record=record, run=record.parent / "run.jsonl") for part in PRINTS[command]]


def _params() -> list[object]:
    return [
        pytest.param(command, marks=pytest.mark.slow) if command in SLOW else command
        for command in sorted(PRINTS)
    ]


# --------------------------------------------------------------------------- -o FILE


def test_every_command_that_prints_a_result_takes_small_o() -> None:
    takes = _having("output")
    every = {name for name, _ in _commands()}
    assert takes == every - PRINTS_NO_RESULT
    assert set(PRINTS) == takes  # each has a command line below


@pytest.mark.parametrize("command", _params())
def test_small_o_writes_what_the_command_prints(
    matador: Callable[..., CliResult], tmp_path: Path, record: Path, command: str
) -> None:
    argv = _argv(command, record)
    path = tmp_path / "out" / "written.txt"
    path.parent.mkdir()

    printed = matador(*argv)
    written = matador(*argv, "-o", path)

    assert (printed.code, written.code) == (0, 0), written.err
    assert printed.out
    assert path.read_bytes() == printed.out.encode("utf-8")
    assert printed.out not in written.out  # not also printed
    assert [p.name for p in path.parent.iterdir()] == ["written.txt"]  # no temporary left


@pytest.mark.parametrize("command", ["list", "show", "simulate", "sheet"])
def test_small_o_dash_is_standard_output(matador: Callable[..., CliResult], command: str) -> None:
    argv = _argv(command, Path("unused"))

    assert matador(*argv, "-o", "-").out == matador(*argv).out


@pytest.mark.parametrize("target", ["/proc/x", "/nonexistent/dir/x", "{tmp}"])
@pytest.mark.parametrize("command", sorted(set(PRINTS) - SLOW))
def test_an_output_that_cannot_be_written_is_a_usage_error_in_every_command(
    matador: Callable[..., CliResult], tmp_path: Path, record: Path, command: str, target: str
) -> None:
    output = target.format(tmp=tmp_path)  # a folder, where a file is wanted

    result = matador(*_argv(command, record), "-o", output)

    assert result.code == ExitStatus.USAGE, result.err
    assert result.out == ""
    assert result.err_lines == [
        f"matador {command}: cannot write {output}: {_why(result.err_lines[0])}"
    ]


def _why(err: str) -> str:
    return err.split(": ", 2)[2].rstrip("\n")


def test_a_write_that_fails_after_the_file_was_made_is_invalid(
    matador: Callable[..., CliResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    def disk_full(descriptor: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)

    result = matador("list", "-o", tmp_path / "list.txt")

    assert result.code == ExitStatus.INVALID
    assert "No space left on device" in result.err
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- exit statuses


#: A command line naming its input, for each command whose argument is an input file.
INPUT_FILE = {
    "validate": ["validate", "{input}"],
    "replay": ["replay", "{input}"],
    "explain": ["explain", "{input}"],
}

_NAMES_A_FILE = re.compile(r"PATH|FILE|\.(json|yaml)$")


def test_every_command_reading_a_file_is_checked() -> None:
    reading = {
        name
        for name, parser in _commands()
        for action in parser._actions
        if not action.option_strings
        and isinstance(action.metavar, str)
        and _NAMES_A_FILE.search(action.metavar)
    }
    assert reading == set(INPUT_FILE)


@pytest.mark.parametrize("kind", ["directory", "missing"])
@pytest.mark.parametrize("command", sorted(INPUT_FILE))
def test_an_input_that_is_a_directory_or_missing_is_invalid_input(
    matador: Callable[..., CliResult], tmp_path: Path, command: str, kind: str
) -> None:
    given = tmp_path if kind == "directory" else tmp_path / "absent.json"

    result = matador(*(part.format(input=given) for part in INPUT_FILE[command]))

    assert result.code == ExitStatus.INVALID, result.err
    assert str(given) in result.err
    # validate reports each file's problems as FILE:LINE:COL: ..., as compilers do.
    said_by = f"{given}: " if (command, kind) == ("validate", "missing") else f"matador {command}: "
    assert result.err_lines[0].startswith(said_by)


@pytest.mark.parametrize(
    "form", [["-o", "{same}"], ["--output", "{same}"], ["--output={same}"], ["-o", "./{name}"]]
)
@pytest.mark.parametrize("command", [*sorted(INPUT_FILE), "conform"])
def test_the_output_is_never_one_of_the_inputs(
    matador: Callable[..., CliResult],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    form: list[str],
) -> None:
    """``replay game.json -o game.json`` would replace the record by its verdict."""
    monkeypatch.chdir(tmp_path)
    given = tmp_path / "input.yaml"
    given.write_text("kept: as it was\n", encoding="utf-8")
    line = INPUT_FILE.get(command, ["conform", "--cases", "{input}"])
    argv = [part.format(input=given) for part in line]
    argv += [part.format(same=given, name=given.name) for part in form]

    result = matador(*argv)

    assert result.code == ExitStatus.USAGE, result.err
    assert len(result.err_lines) == 1
    assert "also an input of this command" in result.err
    assert given.read_text(encoding="utf-8") == "kept: as it was\n"


#: Command lines whose input is a program or Python code, named as each command takes it.
CODE_INPUTS = {
    "program engine": (["conform", "--engine", "python {file}"], "engine.py"),
    "python engine file": (["conform", "--engine", "python:{file}:Engine"], "engine.py"),
    "python engine module": (["conform", "--engine", "python:pkg.mine:Engine"], "pkg/mine.py"),
    "python engine package": (["conform", "--engine", "python:pkg.mine:Engine"], "pkg/__init__.py"),
    "identify engine": (["identify", "--engine", "python {file}"], "engine.py"),
    "strategy": (["simulate", "pagat", "--strategy", "greedy,python:{file}:S"], "mine.py"),
}


@pytest.mark.parametrize("kind", sorted(CODE_INPUTS))
def test_the_output_is_never_the_code_under_test(
    matador: Callable[..., CliResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """An engine program, a Python engine's file or module, a strategy's module: each is an
    input, found in a command line, a spec or a list, and -o may not replace it."""
    monkeypatch.chdir(tmp_path)
    line, name = CODE_INPUTS[kind]
    code = tmp_path / name
    code.parent.mkdir(exist_ok=True)
    code.write_text("# the code under test\n", encoding="utf-8")
    argv = [part.format(file=name) for part in line]

    result = matador(*argv, "-o", name)

    assert result.code == ExitStatus.USAGE, result.err
    assert "also an input of this command" in result.err
    assert code.read_text(encoding="utf-8") == "# the code under test\n"


def test_a_plot_is_never_the_strategy_under_test(
    matador: Callable[..., CliResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code = tmp_path / "mine.png"  # (a module named as the plot would be: still an input)
    code.write_text("# the code under test\n", encoding="utf-8")
    (tmp_path / "mine.py").write_text("# the strategy\n", encoding="utf-8")
    result = matador(
        "simulate", "pagat", "--hands", "1", "--strategy", "python:mine.png:S", "--plot", "mine.png"
    )
    assert result.code == ExitStatus.USAGE, result.err
    assert "--plot mine.png: that is also an input of this command" in result.err
    assert code.read_text(encoding="utf-8") == "# the code under test\n"


def test_the_report_and_the_plot_are_never_one_file(
    matador: Callable[..., CliResult], tmp_path: Path
) -> None:
    plot = tmp_path / "same.svg"
    link = tmp_path / "link.svg"
    link.symlink_to(plot)
    for output in (plot, link):
        result = matador(
            "simulate", "pagat", "--hands", "5", "-o", str(output), "--plot", str(plot)
        )
        assert result.code == ExitStatus.USAGE, result.err
        assert "are one file" in result.err
    assert not plot.exists()


def test_example_copy_refuses_an_output_it_would_copy_over(
    matador: Callable[..., CliResult], tmp_path: Path
) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    result = matador("example", "node", "--copy", str(folder), "-o", str(folder / "README.md"))
    assert result.code == ExitStatus.USAGE
    assert "--copy writes that file" in result.err
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("through_a_link", [False, True])
def test_a_replaced_output_keeps_its_permissions(
    matador: Callable[..., CliResult], tmp_path: Path, through_a_link: bool
) -> None:
    """A private file written again stays private, also when -o names a link to it."""
    private = tmp_path / "private.txt"
    private.write_text("old\n", encoding="utf-8")
    private.chmod(0o600)
    named = private
    if through_a_link:
        named = tmp_path / "link.txt"
        named.symlink_to(private)
    result = matador("list", "-o", str(named))
    assert result.code == 0, result.err
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert "pagat" in private.read_text(encoding="utf-8")
    assert named.is_symlink() is through_a_link


def test_small_o_dev_null_is_written_to_not_replaced(matador: Callable[..., CliResult]) -> None:
    """``-o /dev/null`` discards the output, as the shell idiom expects; the device stays."""
    null = Path(os.devnull)
    if not null.exists() or not stat.S_ISCHR(null.stat().st_mode):
        pytest.skip("no character device at os.devnull")
    for argv in (["list"], ["show", "pagat"], ["conform", "--variant", "house"]):
        result = matador(*argv, "-o", os.devnull)
        assert result.code == 0, result.err
        assert result.out == ""
        assert stat.S_ISCHR(null.stat().st_mode)


#: A command line choosing a rule option no variant has, for each command taking -O.
UNKNOWN_OPTION = {
    "show": ["show", "pagat"],
    "play": ["play", "german"],
    "sheet": ["sheet", "german", "--format", "markdown"],
    "simulate": ["simulate", "german", "--hands", "1"],
    "compare": ["compare"],
    "diff": ["diff", "pagat", "german"],
    "score": ["score", "--pips", "3,4"],
    "odds": ["odds"],
    "explain": ["explain", "--hand", "3-4", "--ends", "0,5"],
}


def test_every_command_choosing_variants_takes_rule_options() -> None:
    chooses = _having("variant") | _having("variants") | _having("first")
    # conform, cases and site only filter shipped variants and cases by id.
    assert chooses - _having("option") == {"conform", "cases", "site"}
    assert _having("option") == set(UNKNOWN_OPTION)


@pytest.mark.parametrize("command", sorted(UNKNOWN_OPTION))
def test_an_unknown_rule_option_is_invalid_input(
    matador: Callable[..., CliResult], command: str
) -> None:
    result = matador(*UNKNOWN_OPTION[command], "-O", "no_such_option=1")

    assert result.code == ExitStatus.INVALID, result.err
    assert len(result.err_lines) == 1
    assert result.err.startswith(f"matador {command}: ")
    assert "'no_such_option'" in result.err


@pytest.mark.parametrize("command", sorted(UNKNOWN_OPTION))
def test_a_rule_option_not_written_name_equals_value_is_a_usage_error(
    matador: Callable[..., CliResult], command: str
) -> None:
    result = matador(*UNKNOWN_OPTION[command], "-O", "draw")

    assert result.code == ExitStatus.USAGE, result.err
    assert len(result.err_lines) == 1
    assert "'draw' is not NAME=VALUE" in result.err


@pytest.mark.parametrize("command", ["conform", "cases"])
def test_an_unknown_rule_is_invalid_input(matador: Callable[..., CliResult], command: str) -> None:
    result = matador(command, "--rule", "no_such_rule")

    assert result.code == ExitStatus.INVALID
    assert result.err.startswith(f"matador {command}: --rule: no rule called 'no_such_rule'")


@pytest.mark.parametrize("command", ["conform", "cases"])
def test_a_case_folder_without_case_files_is_said_so(
    matador: Callable[..., CliResult], tmp_path: Path, command: str
) -> None:
    (tmp_path / "notes.txt").write_text("no cases here\n", encoding="utf-8")

    result = matador(command, "--cases", tmp_path)

    assert result.code == ExitStatus.INVALID
    assert result.err_lines == [f"matador {command}: --cases: no case file (*.yaml) in {tmp_path}"]


def test_replay_names_itself_on_every_line_it_starts(
    matador: Callable[..., CliResult], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    path.write_text("{}", encoding="utf-8")

    result = matador("replay", path)

    assert result.code == ExitStatus.INVALID
    starts = [line for line in result.err_lines if not line.startswith("  ")]
    assert starts and all(line.startswith(f"matador replay: {path}: ") for line in starts)


# --------------------------------------------------------------------------- the README


def test_the_readme_lists_each_exit_status_once() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Exit statuses", 1)[1].split("\n## ", 1)[0]
    listed = [
        int(number)
        for line in section.splitlines()
        if line.startswith("| ") and line[2:3].isdigit()
        for number in re.findall(r"\d+", line.split("|")[1])
    ]
    assert sorted(listed) == sorted(set(listed))
    assert set(ExitStatus) <= set(listed)


# --------------------------------------------------------------------------- formats


def test_play_takes_format_json_and_the_old_json_flag(matador: Callable[..., CliResult]) -> None:
    argv = ("play", "german", "--seed", "5", "--hands", "1")

    new, old, text = matador(*argv, "--format", "json"), matador(*argv, "--json"), matador(*argv)

    assert new.out == old.out
    assert json.loads(new.out)["variant"] == "german"
    assert not text.out.startswith("{")


def test_validate_gives_its_problems_as_json(
    matador: Callable[..., CliResult], tmp_path: Path
) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("id: broken\n", encoding="utf-8")

    result = matador("validate", path, "--format", "json")

    assert result.code == ExitStatus.INVALID
    data = json.loads(result.out)
    assert (data["valid"], data["files"]) == (False, 1)
    assert {problem["file"] for problem in data["problems"]} == {str(path)}
    # Among them, the missing title (a required field of every variant file).
    assert any("'title'" in problem["message"] for problem in data["problems"])


def test_replay_gives_its_verdict_as_json(
    matador: Callable[..., CliResult], record: Path, tmp_path: Path
) -> None:
    valid = json.loads(matador("replay", record, "--format", "json").out)
    assert (valid["valid"], valid["variant"], valid["hands"], valid["problems"]) == (
        True,
        "german",
        1,
        [],
    )

    broken = tmp_path / "broken.json"
    game = json.loads(record.read_text(encoding="utf-8"))
    game["players"] = 5
    broken.write_text(json.dumps(game), encoding="utf-8")
    result = matador("replay", broken, "--format", "json")

    assert result.code == ExitStatus.INVALID
    problems = json.loads(result.out)["problems"]
    assert problems and problems[0]["pointer"].startswith("/")
    assert {"kind", "message", "reason", "rule", "citations"} <= set(problems[0])


def test_every_command_that_prints_for_a_person_takes_width() -> None:
    from reference_engine.cli.app import PRINTS_DATA

    parser = build_parser(io.StringIO())
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    lacking = [
        name
        for name, sub in commands.choices.items()
        if name not in PRINTS_DATA and not any(a.dest == "width" for a in sub._actions)
    ]
    assert lacking == []


@pytest.mark.parametrize(
    "argv",
    [
        ["list"],
        ["show", "pagat"],
        ["compare"],
        ["diff", "pagat", "german"],
        ["score", "--pips", "8,19"],
        ["explain", "--hand", "3-4,2-6", "--ends", "0,5", "--action", "3-4@L"],
        ["cases"],
        ["validate", "variants/gamerules-com.yaml"],
        ["example", "node"],
        ["show", "no-such-variant"],
    ],
    ids=lambda argv: " ".join(argv),
)
def test_what_a_command_prints_fits_a_narrow_width(
    matador: Callable[..., CliResult], argv: list[str]
) -> None:
    root = Path(__file__).resolve().parents[1]
    words = [str(root / word) if word.startswith("variants/") else word for word in argv]
    result = matador(*words, "--width", "50")  # (the fixture holds every line to 50 columns)
    assert result.out or result.err
