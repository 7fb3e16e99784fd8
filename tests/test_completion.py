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
