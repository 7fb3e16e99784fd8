"""The command line is consistent: one meaning per short flag, ``--version``, exit statuses,
``conform --fail-fast``, and progress bars drawn on a terminal only.

Every check that is about all commands walks ``matador``'s parser, so a command
added later is held to the same rules without a list to keep up to date.
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
from collections import defaultdict
from collections.abc import Callable, Iterator
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

import reference_engine
from reference_engine.cli import run
from reference_engine.cli.app import COMMANDS, build_parser
from reference_engine.exits import ExitStatus

if TYPE_CHECKING:
    from conftest import CliResult

REPO = Path(__file__).resolve().parents[1]


def _parsers() -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """``matador``'s parser and every command's, with the command line that reaches each."""
    top = build_parser(io.StringIO())
    stack: list[tuple[str, argparse.ArgumentParser]] = [("matador", top)]
    while stack:
        name, parser = stack.pop()
        yield name, parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for command, sub in action.choices.items():
                    stack.append((f"{name} {command}", sub))


def _options() -> Iterator[tuple[str, argparse.Action]]:
    for name, parser in _parsers():
        for action in parser._actions:
            if action.option_strings:
                yield name, action


def _commands() -> list[str]:
    return [name.split()[1] for name, _ in _parsers() if name != "matador"]


# --------------------------------------------------------------------------- short flags


def test_every_command_of_the_parser_has_a_handler_and_the_reverse() -> None:
    assert sorted(_commands()) == sorted(COMMANDS)


def test_a_short_flag_means_the_same_long_option_in_every_command() -> None:
    meanings: dict[str, set[tuple[str, ...]]] = defaultdict(set)
    where: dict[str, list[str]] = defaultdict(list)
    for command, action in _options():
        shorts = [s for s in action.option_strings if not s.startswith("--")]
        longs = tuple(sorted(s for s in action.option_strings if s.startswith("--")))
        for short in shorts:
            meanings[short].add(longs)
            where[short].append(command)
    clashes = {short: longs for short, longs in meanings.items() if len(longs) > 1}
    assert clashes == {}, {short: where[short] for short in clashes}
    # Every short flag stands for a long option that can be spelt out.
    assert all(longs != () for found in meanings.values() for longs in found)


def test_o_is_the_output_file_and_capital_o_a_rule_option_wherever_they_exist() -> None:
    outputs = options = 0
    for command, action in _options():
        if "--output" in action.option_strings:
            outputs += 1
            assert "-o" in action.option_strings, command
        if "--option" in action.option_strings:
            options += 1
            assert "-O" in action.option_strings, command
    # conform, simulate and sheet write files; show, play, sheet and simulate take options.
    assert outputs >= 3
    assert options >= 4


@pytest.mark.parametrize(
    ("argv", "seen"),
    [
        (["show", "gamerules-com", "-O", "draw=pass"], "draw"),
        (["sheet", "gamerules-com", "--format", "markdown", "-O", "draw=pass"], "draw"),
    ],
)
def test_capital_o_chooses_a_rule_option(
    matador: Callable[..., CliResult], argv: list[str], seen: str
) -> None:
    plain = matador(*argv[:-2])
    chosen = matador(*argv)

    assert (plain.code, chosen.code) == (0, 0)
    assert plain.out != chosen.out  # the option changed what is shown


def test_conform_writes_its_report_with_small_o(
    matador: Callable[..., CliResult], tmp_path: Path
) -> None:
    path = tmp_path / "report.json"

    result = matador("conform", "--case", "survey-annotated-*", "--report", "json", "-o", path)

    assert result.code == 0, result.err
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["type"] == "header"
    assert lines[-1]["type"] == "footer"


# --------------------------------------------------------------------------- --version


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_prints_the_installed_version(matador: Callable[..., CliResult], flag: str) -> None:
    result = matador(flag)

    assert result.code == 0
    assert result.out == f"matador {metadata.version('matador-reference')}\n"
    assert result.err == ""


def test_version_falls_back_to_the_package_version_when_not_installed(
    matador: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    def not_installed(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", not_installed)

    assert matador("--version").out == f"matador {reference_engine.__version__}\n"


def test_version_loads_no_heavy_stack() -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "reference_engine.cli", "--version"],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert done.returncode == 0
    imported = {
        line.rsplit("|", 1)[1].strip().split(".")[0]
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }
    assert imported & {"jsonschema", "weasyprint", "matplotlib", "jinja2", "rich", "yaml"} == set()


# --------------------------------------------------------------------------- exit statuses


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_unknown_option_is_a_usage_error_in_every_command(
    matador: Callable[..., CliResult], command: str
) -> None:
    result = matador(command, "--no-such-option")

    assert result.code == ExitStatus.USAGE
    assert result.err.startswith(f"matador {command}: ")  # the command is named, not only matador
    assert result.out == ""


#: A command line naming a file that does not exist, for each command that reads one.
MISSING_FILE = {
    "validate": ["validate", "{missing}.yaml"],
    "replay": ["replay", "{missing}.json"],
    "conform": ["conform", "--cases", "{missing}.yaml"],
    "cases": ["cases", "--cases", "{missing}.yaml"],
    "explain": ["explain", "{missing}.yaml"],
}


@pytest.mark.parametrize("command", sorted(MISSING_FILE))
def test_a_missing_file_is_invalid_input(
    matador: Callable[..., CliResult], tmp_path: Path, command: str
) -> None:
    missing = str(tmp_path / "absent")
    argv = [part.format(missing=missing) for part in MISSING_FILE[command]]

    result = matador(*argv)

    assert result.code == ExitStatus.INVALID, result.err
    assert missing in result.err
    assert len(result.err_lines) <= 2


#: A command line naming a variant that does not exist, for each command that takes one.
BAD_VARIANT = {
    "show": ["show", "no-such-variant"],
    "play": ["play", "no-such-variant"],
    "sheet": ["sheet", "no-such-variant", "--format", "markdown"],
    "simulate": ["simulate", "no-such-variant", "--hands", "1"],
    "compare": ["compare", "no-such-variant"],
    "diff": ["diff", "pagat", "no-such-variant"],
    "score": ["score", "--pips", "3,4", "--variant", "no-such-variant"],
    "odds": ["odds", "--variant", "no-such-variant"],
    "explain": ["explain", "--hand", "3-4", "--ends", "0,5", "--variant", "no-such-variant"],
    "conform": ["conform", "--variant", "no-such-variant"],
    "cases": ["cases", "--variant", "no-such-variant"],
    "site": ["site", "{tmp}/site", "--variant", "no-such-variant"],
}


@pytest.mark.parametrize("command", sorted(BAD_VARIANT))
def test_an_unknown_variant_is_invalid_input(
    matador: Callable[..., CliResult], tmp_path: Path, command: str
) -> None:
    result = matador(*(part.format(tmp=tmp_path) for part in BAD_VARIANT[command]))

    assert result.code == ExitStatus.INVALID, result.err
    assert "no-such-variant" in result.err
    assert result.err_lines[0].startswith(f"matador {command}: ")


def test_every_command_that_takes_a_variant_is_checked() -> None:
    takes = {
        name.split()[1]
        for name, action in _options_and_positionals()
        if {"variant", "variants", "first", "second"} & {action.dest}
    }
    assert takes <= set(BAD_VARIANT), takes - set(BAD_VARIANT)


def _options_and_positionals() -> Iterator[tuple[str, argparse.Action]]:
    for name, parser in _parsers():
        if name == "matador":
            continue
        for action in parser._actions:
            yield name, action


# --------------------------------------------------------------------------- progress bars


class Terminal(io.StringIO):
    """A stream that says it is a terminal, as standard error is in a shell."""

    def isatty(self) -> bool:
        return True


@pytest.mark.slow
def test_conform_draws_a_progress_bar_only_on_a_terminal() -> None:
    argv = ["conform", "--case", "german-draw-one-tile", "--random", "1", "--variant", "german"]
    plain_out, plain_err = io.StringIO(), io.StringIO()
    tty_out, tty_err = io.StringIO(), Terminal()

    plain = run(argv, plain_out, plain_err)
    tty = run(argv, tty_out, tty_err)

    assert (plain, tty) == (0, 0)
    assert plain_err.getvalue() == ""
    drawn = tty_err.getvalue()
    assert "cases" in drawn and "random games" in drawn
    assert "\r" in drawn or "\x1b" in drawn  # redrawn in place, then cleared
    # The report itself is the same either way.
    assert tty_out.getvalue() == plain_out.getvalue()


def test_a_progress_bar_is_not_hidden_by_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    from reference_engine.cli.progress import progress_bar

    monkeypatch.setenv("NO_COLOR", "1")
    stream = Terminal()
    with progress_bar(stream, 3, "steps") as advance:
        assert advance is not None
        advance(3)
    assert "steps" in stream.getvalue()
    with progress_bar(io.StringIO(), 3, "steps") as advance:
        assert advance is None


def test_a_counting_bar_takes_its_total_as_it_learns_it() -> None:
    from reference_engine.cli.progress import counting_bar

    stream = Terminal()
    with counting_bar(stream, "targets") as count:
        assert count is not None
        count(0, 4)
        count(4, 4)
    assert "4/4" in stream.getvalue()
    with counting_bar(io.StringIO(), "targets") as count:
        assert count is None


@pytest.mark.slow
def test_identify_draws_a_progress_bar_only_on_a_terminal() -> None:
    engine = "python:reference_engine.conformance.protocol.interface:ReferenceEngine"
    argv = ["identify", "--engine", engine, "--hands", "1", "--players", "2"]
    plain_out, plain_err = io.StringIO(), io.StringIO()
    tty_out, tty_err = io.StringIO(), Terminal()

    assert run(argv, plain_out, plain_err) == 0
    assert run(argv, tty_out, tty_err) == 0

    assert plain_err.getvalue() == ""
    assert "variants observed" in tty_err.getvalue()
    assert tty_out.getvalue() == plain_out.getvalue()


# --------------------------------------------------------------------------- conform --fail-fast

ZERO_ENGINE = '''
from typing import Any
from reference_engine.conformance.protocol.interface import ReferenceEngine


class ScoresNothing(ReferenceEngine):
    """Plays every hand right, then reports every hand's points as zero."""

    def result(self) -> Any:
        result = super().result()
        if result is None:
            return None
        return {**result, "points": [0] * len(result["points"])}
'''


@pytest.fixture(scope="module")
def zero_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("zero")
    (folder / "zero_engine.py").write_text(ZERO_ENGINE, encoding="utf-8")
    # (a file spec: the engine runs in a process of its own, which has no sys.path of ours)
    yield f"python:{folder / 'zero_engine.py'}:ScoresNothing"


@pytest.fixture(scope="module")
def zero_full_report(zero_engine: str) -> list[dict[str, object]]:
    """The JSON lines of a whole run of the zero engine, made once for the tests that compare."""
    out, err = io.StringIO(), io.StringIO()
    code = run(["conform", "--engine", zero_engine, "--report", "json"], out, err)
    assert code == ExitStatus.INVALID and "Traceback" not in out.getvalue() + err.getvalue()
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _json_report(result: CliResult) -> list[dict[str, object]]:
    return [json.loads(line) for line in result.out.splitlines()]


def test_fail_fast_stops_the_whole_run_at_the_first_failing_case(
    matador: Callable[..., CliResult], zero_engine: str, zero_full_report: list[dict[str, object]]
) -> None:
    cases = [line for line in zero_full_report if line["type"] == "case"]
    first_failure = next(n for n, line in enumerate(cases) if line["verdict"] == "fail")

    result = matador("conform", "--engine", zero_engine, "--report", "json", "--fail-fast")

    assert result.code == ExitStatus.INVALID
    judged = [line for line in _json_report(result) if line["type"] == "case"]
    # Every case up to the first failing one is judged as in a full run; none after it.
    assert [line["case"] for line in judged] == [line["case"] for line in cases][
        : first_failure + 1
    ]
    assert judged[-1]["verdict"] == "fail"
    footer = _json_report(result)[-1]
    assert footer["type"] == "footer"
    assert (footer["complete"], footer["interrupted"]) == (False, "--fail-fast")
    assert f"after {first_failure + 1} of {len(cases)} case run(s)" in result.err


def test_x_is_fail_fast_and_the_table_says_the_run_was_stopped(
    matador: Callable[..., CliResult], zero_engine: str
) -> None:
    result = matador("conform", "--engine", zero_engine, "-x")

    assert result.code == ExitStatus.INVALID
    assert "by --fail-fast after" in result.out


def test_first_deviation_stops_each_case_but_runs_them_all(
    matador: Callable[..., CliResult], zero_engine: str, zero_full_report: list[dict[str, object]]
) -> None:
    full = zero_full_report
    short = _json_report(
        matador("conform", "--engine", zero_engine, "--report", "json", "--first-deviation")
    )

    def cases(lines: list[dict[str, object]]) -> list[object]:
        return [(line["case"], line["verdict"]) for line in lines if line["type"] == "case"]

    assert cases(short) == cases(full)
    assert short[-1]["complete"] is True
    failed = [line for line in short if line.get("verdict") == "fail"]
    assert failed
    assert all(len(line["deviations"]) == 1 for line in failed)  # type: ignore[arg-type]
