"""Every shell command of the README, found by parsing its ```sh blocks, run or checked.

Each command line (comments stripped, ``&&`` chains split into steps) is one of:

- ``matador ...``: run through the installed entry point, in a subprocess,
  from a temporary folder (so it works away from the checkout, as a user runs
  it); it must exit 0, and make every file it names (or its comment names)
  that was not there before. Files of the checkout it names (the Node example)
  are copied into the folder first; a file an earlier command of the same
  block writes is made by running that command first. Slow ones are marked slow.
- ``python -m pip install ...``: checked, not run: it installs from a checkout
  (``.``, ``'.[extras]'``) or a wheel, never by the distribution's name (it is
  not published), and every extra it names exists in pyproject.toml.
- ``python -m pytest ...``: checked, not run (the suite is running): the files
  and options it names exist, and so does a Hypothesis profile it selects.
- anything else: listed in :data:`NOT_RUN` with the reason, or the test fails.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from projectfile import extras

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"

#: README commands that are not run, each with the reason.
NOT_RUN: dict[str, str] = {
    'matador conform --engine "./my-engine" --random 500': (
        "./my-engine stands for the reader's own engine; the same options run in "
        "tests/test_conformance.py against the reference"
    ),
    'matador identify --engine "./my-engine"': (
        "./my-engine stands for the reader's own engine; identify runs in tests/test_identify.py"
    ),
}

#: The width every command's terminal output fits when it goes to a pipe.
TERMINAL_WIDTH = 80

#: Formats whose output is data for a program, not lines for a terminal.
_DATA_FORMATS = frozenset({"json", "jsonl", "junit", "html", "csv", "markdown", "svg"})


def _stdout_is_data(command: Command) -> bool:
    """Whether the command writes data (JSON, HTML, Markdown...) rather than text to read."""
    argv = command.argv
    formats = {argv[i + 1] for i, word in enumerate(argv[:-1]) if word == "--format"}
    formats |= {word.split("=", 1)[1] for word in argv if word.startswith("--format=")}
    return bool(formats & _DATA_FORMATS) or "--json" in argv


#: Names of files a command makes: in the command or in its comment.
_FILE_NAME = re.compile(r"(?<![\w/.-])[\w-]+\.(?:pdf|png|svg|json|jsonl|html|md|csv|xml)\b")


@dataclass(frozen=True)
class Command:
    """One step of a README command line: its text, its comment, and where it is."""

    text: str
    comment: str
    block: int
    index: int

    @property
    def argv(self) -> list[str]:
        """The words of the step, environment assignments left out."""
        words = shlex.split(self.text)
        while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", words[0]):
            words.pop(0)
        return words

    @property
    def env(self) -> dict[str, str]:
        """The environment assignments before the program (``NAME=value``)."""
        found = {}
        for word in shlex.split(self.text):
            if not re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", word):
                break
            name, _, value = word.partition("=")
            found[name] = value
        return found


def _split_comment(line: str) -> tuple[str, str]:
    """A shell line as (command, comment): a ``#`` outside quotes after a space starts it."""
    quote = ""
    for at, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (at == 0 or line[at - 1].isspace()):
            return line[:at].rstrip(), line[at + 1 :].strip()
    return line.rstrip(), ""


def _split_and(command: str) -> list[str]:
    """The steps of a ``&&`` chain (outside quotes)."""
    steps, quote, start = [], "", 0
    for at, char in enumerate(command):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif command.startswith("&&", at):
            steps.append(command[start:at].strip())
            start = at + 2
    steps.append(command[start:].strip())
    return [step for step in steps if step]


def readme_commands(text: str) -> list[Command]:
    """Every command step of the ```sh blocks of ``text``, in order."""
    found: list[Command] = []
    blocks = re.findall(r"^```sh\n(.*?)^```$", text, flags=re.M | re.S)
    for number, block in enumerate(blocks):
        lines: list[tuple[str, str]] = []
        pending = ""
        for raw in block.splitlines():
            if pending:
                raw, pending = pending + raw.lstrip(), ""
            if raw.rstrip().endswith("\\"):
                pending = raw.rstrip()[:-1].rstrip() + " "
                continue
            command, comment = _split_comment(raw)
            if not command:
                if comment and raw[:1].isspace() and lines:  # a comment carried on
                    previous, said = lines[-1]
                    lines[-1] = (previous, f"{said} {comment}".strip())
                continue
            lines.append((command, comment))
        for command, comment in lines:
            for step in _split_and(command):
                found.append(Command(step, comment, number, len(found)))
    return found


COMMANDS = readme_commands(README.read_text(encoding="utf-8"))


def _kind(command: Command) -> str:
    argv = command.argv
    if command.text in NOT_RUN:
        return "not run"
    if argv[:1] == ["matador"]:
        return "run"
    if argv[:4] == ["python", "-m", "pip", "install"]:
        return "pip"
    if argv[:3] == ["python", "-m", "pytest"]:
        return "pytest"
    return "unknown"


def _slow(command: Command) -> bool:
    """Every command run is a subprocess; PDFs, simulations and conformance runs take
    seconds each. The quick loop only checks that each is run or excused."""
    if _kind(command) == "run":
        return True
    argv = command.argv
    verb = argv[1] if len(argv) > 1 else ""
    if verb == "sheet":
        return "--format" not in argv
    if verb == "conform":
        return "--coverage" not in argv
    return verb in ("simulate", "identify", "site")


def _params(kind: str) -> list[object]:
    chosen = [command for command in COMMANDS if _kind(command) == kind]
    return [
        pytest.param(command, id=command.text, marks=[pytest.mark.slow] if _slow(command) else [])
        for command in chosen
    ]


def test_the_readme_has_commands_of_every_kind() -> None:
    kinds = {_kind(command) for command in COMMANDS}
    assert {"run", "pip", "pytest"} <= kinds
    assert len([c for c in COMMANDS if _kind(c) == "run"]) >= 20


def test_every_readme_command_is_run_checked_or_excused() -> None:
    unknown = [command.text for command in COMMANDS if _kind(command) == "unknown"]
    assert unknown == [], "run these in tests/test_readme.py, or list them in NOT_RUN with why"


def test_every_excused_command_is_still_in_the_readme() -> None:
    texts = {command.text for command in COMMANDS}
    assert sorted(set(NOT_RUN) - texts) == []


def test_the_parser_reads_comments_chains_and_carried_comments() -> None:
    text = (
        "```sh\n"
        "python -m pip install . && matador conform   # the main job\n"
        'matador conform --engine "a # b"\n'
        "matador explain --hand 3-4 \\\n"
        "    --action 3-4@L\n"
        "                 # carried on\n"
        "```\n"
    )
    found = [(c.text, c.comment) for c in readme_commands(text)]

    assert found == [
        ("python -m pip install .", "the main job"),
        ("matador conform", "the main job"),
        ('matador conform --engine "a # b"', ""),
        ("matador explain --hand 3-4 --action 3-4@L", "carried on"),
    ]


@pytest.mark.parametrize("command", _params("pip"))
def test_pip_install_lines_install_from_a_checkout_with_real_extras(command: Command) -> None:
    targets = [word for word in command.argv[4:] if not word.startswith("-")]
    assert targets, command.text
    for target in targets:
        match = re.fullmatch(r"\.(?:\[([a-z0-9,-]+)\])?|\S+\.whl", target)
        assert match, f"{target!r}: install from a checkout ('.[extra]') or a wheel's path"
        named = set(match.group(1).split(",")) if match.group(1) else set()
        assert named <= extras(), f"no such extra: {sorted(named - extras())}"


@pytest.mark.parametrize("command", _params("pytest"))
def test_pytest_lines_name_real_files_options_and_profiles(command: Command) -> None:
    words = command.argv[3:]
    for before, word in zip(["", *words], words, strict=False):
        if word.startswith("-"):
            assert word in ("--slow", "-n", "-q", "-x"), f"unknown option {word}"
        elif before == "-n":
            assert word.isdigit() or word in ("auto", "logical"), f"-n {word}: a count, or auto"
        else:
            assert (REPO / word).exists(), f"{word} does not exist"
    profile = command.env.get("HYPOTHESIS_PROFILE")
    if profile is not None:
        from hypothesis import settings

        settings.get_profile(profile)  # raises if there is no such profile


def _words(command: Command) -> list[str]:
    """The command's words, and the words inside each (``--engine "node x.js"``)."""
    found = []
    for word in command.argv:
        try:
            found += shlex.split(word)
        except ValueError:  # an unpaired quote inside: keep the word whole
            found.append(word)
    return found


def _makes(command: Command) -> list[str]:
    """The files a command names, in its words or its comment."""
    return _FILE_NAME.findall(command.text) + _FILE_NAME.findall(command.comment)


def _run(command: Command, folder: Path) -> subprocess.CompletedProcess[str]:
    bin_dir = str(Path(sys.executable).parent)
    env = {
        **os.environ,
        "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
        "MPLBACKEND": "Agg",
    }
    return subprocess.run(
        ["bash", "-c", command.text],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )


def _needs(command: Command) -> None:
    """Skip (or fail, where CI requires it) when a command's tool is missing."""
    if "node" in _words(command) and shutil.which("node") is None:
        if os.environ.get("MATADOR_REQUIRE_NODE"):
            pytest.fail("node is required here (MATADOR_REQUIRE_NODE) but not installed")
        pytest.skip("node is not installed")
    if command.argv[1:2] == ["sheet"] and "--format" not in command.argv:
        pytest.importorskip("weasyprint")
    if "--plot" in command.argv:
        pytest.importorskip("matplotlib")


@pytest.mark.parametrize("command", _params("run"))
def test_readme_command_runs_from_another_folder(command: Command, tmp_path: Path) -> None:
    _needs(command)
    words = _words(command)
    for word in words:
        if not word.startswith("-") and "/" in word and (REPO / word).is_file():
            (tmp_path / word).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(REPO / word, tmp_path / word)
    for earlier in COMMANDS[: command.index]:
        makes_an_input = set(_makes(earlier)) & set(words)
        if earlier.block == command.block and _kind(earlier) == "run" and makes_an_input:
            made = _run(earlier, tmp_path)
            assert made.returncode == 0, f"{earlier.text}:\n{made.stderr}"
    before = set(os.listdir(tmp_path))

    result = _run(command, tmp_path)

    assert result.returncode == 0, f"exit {result.returncode}:\n{result.stderr[-2000:]}"
    wide = [
        line
        for line in (result.stdout + result.stderr).splitlines()
        if len(line) > TERMINAL_WIDTH and not _stdout_is_data(command)
    ]
    assert wide == [], f"{len(wide)} line(s) wider than {TERMINAL_WIDTH} columns: {wide[:3]}"
    for name in _makes(command):
        if name not in before:
            assert (tmp_path / name).is_file(), f"{name} was not made"
            assert (tmp_path / name).stat().st_size > 0, f"{name} is empty"
