"""``matador completion SHELL``: a script for each shell, that names every command and that
the shell itself accepts (bash always; zsh and fish when they are installed)."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from reference_engine.cli import run
from reference_engine.cli.app import COMMANDS
from reference_engine.cli.completion import SHELLS

REPO = Path(__file__).resolve().parents[1]

#: How each shell checks a script's syntax without running it.
SYNTAX_CHECK = {"bash": ["bash", "-n"], "zsh": ["zsh", "-n"], "fish": ["fish", "--no-execute"]}


def _script(shell: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    assert run(["completion", shell], out, err) == 0, err.getvalue()
    assert err.getvalue() == ""
    return out.getvalue()


@pytest.mark.parametrize("shell", SHELLS)
def test_each_shell_gets_a_script_naming_every_command(shell: str) -> None:
    script = _script(shell)

    assert script.strip()
    assert "matador" in script
    missing = [command for command in COMMANDS if command not in script]
    assert missing == []


@pytest.mark.parametrize("shell", SHELLS)
def test_the_shell_accepts_the_script(shell: str, tmp_path: Path) -> None:
    program = SYNTAX_CHECK[shell]
    if shutil.which(program[0]) is None:
        pytest.skip(f"{program[0]} is not installed")
    path = tmp_path / f"matador.{shell}"
    path.write_text(_script(shell), encoding="utf-8")

    done = subprocess.run([*program, str(path)], capture_output=True, text=True, check=False)

    assert done.returncode == 0, done.stderr


def test_bash_completes_options_and_file_arguments() -> None:
    script = _script("bash")

    assert "--fail-fast" in script and "--first-deviation" in script
    # A record, a variant file, case files and an output file complete to file names.
    for argument in ("replay_pos_0", "validate_pos_0", "conform___cases", "sheet__o"):
        assert f"_shtab_matador_{argument}_COMPGEN=_shtab_compgen_files" in script


def test_an_unknown_shell_is_a_usage_error() -> None:
    out, err = io.StringIO(), io.StringIO()

    assert run(["completion", "powershell"], out, err) == 2
    assert "invalid choice" in err.getvalue()
    assert out.getvalue() == ""


def test_shtab_is_loaded_only_by_the_completion_command() -> None:
    def imported(*argv: str) -> set[str]:
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "reference_engine.cli", *argv],
            capture_output=True,
            text=True,
            cwd=REPO,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return {
            line.rsplit("|", 1)[1].strip().split(".")[0]
            for line in done.stderr.splitlines()
            if line.startswith("import time:") and "|" in line
        }

    assert "shtab" not in imported("--help")
    assert "shtab" in imported("completion", "bash")


#: Completes the words given, as bash does at <TAB>, and prints the candidates.
COMPLETE = """
source "$1"
shift
COMP_WORDS=("$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE="${COMP_WORDS[*]}"
COMP_POINT=${#COMP_LINE}
COMPREPLY=()
_shtab_matador
printf '%s\\n' "${COMPREPLY[@]}"
"""


@pytest.fixture(scope="module")
def bash_script(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    path = tmp_path_factory.mktemp("completion") / "matador.bash"
    path.write_text(_script("bash"), encoding="utf-8")
    return path


def _complete(script: Path, *words: str) -> list[str]:
    done = subprocess.run(
        ["bash", "-c", COMPLETE, "complete", str(script), "matador", *words],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return sorted(line for line in done.stdout.splitlines() if line)


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        # Variant ids, as a command's argument and after --variant.
        (("show", "pa"), ["pagat"]),
        (("explain", "--variant", "ger"), ["german"]),
        (("diff", "pagat", "polish"), ["polish", "polish-base"]),
        # A rule option as NAME=VALUE, every value of it some variant offers.
        (
            ("play", "pagat", "-O", "set="),
            ["set=double_nine", "set=double_six", "set=double_twelve"],
        ),
        # Strategies, languages and rules.
        (("simulate", "german", "--strategy", "keep"), ["keep-matadors"]),
        (("sheet", "pagat", "--lang", ""), ["en", "fr", "ht", "pl"]),
        (("cases", "--rule", "matador_"), ["matador_modes"]),
        # Commands and options, as before.
        (("expl",), ["explain"]),
        (("replay", "--for"), ["--format"]),
    ],
)
def test_bash_completes_names_from_the_catalogue(
    bash_script: Path, words: tuple[str, ...], expected: list[str]
) -> None:
    assert _complete(bash_script, *words) == expected


def test_the_completion_lists_every_shipped_variant(bash_script: Path) -> None:
    from reference_engine.rules import Catalog

    assert _complete(bash_script, "show", "") == sorted(Catalog.shipped().ids())
