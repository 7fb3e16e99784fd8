"""``matador completion SHELL``: print the shell completion script for bash, zsh or fish.

The script is generated from ``matador``'s own parser by shtab, so it knows
every command and option there is; shtab is imported only when this command
runs. docs/completion.md says how to install the script in each shell.
"""

from __future__ import annotations

import argparse
import io
import re
from collections.abc import Iterator
from typing import TextIO

from ..exits import ExitStatus
from .arguments import AddCommand, Handler

#: The shells a script is made for.
SHELLS = ("bash", "zsh", "fish")


def add_parsers(command: AddCommand) -> None:
    """Add ``completion`` to ``matador``'s commands."""
    completion = command("completion", "print the shell completion script (see docs/completion.md)")
    completion.add_argument("shell", choices=SHELLS, metavar="SHELL", help="bash, zsh or fish")


#: The metavars of arguments that name files: FILE, PATH, RECORD.json, SITUATION.yaml.
_NAMES_A_FILE = re.compile(r"FILE|PATH|DIR|FOLDER|\.(json|yaml)$")


def _actions(parser: argparse.ArgumentParser) -> Iterator[argparse.Action]:
    """Every argument of ``parser`` and of its commands."""
    for action in parser._actions:
        yield action
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                yield from _actions(command)


def _words() -> dict[str, tuple[str, tuple[str, ...]]]:
    """The names an argument completes to, by the argument's ``dest``, read now from the
    catalogue: variant ids, ``NAME=VALUE`` of every option, strategies, rule names; each
    with the name of its kind."""
    from ..engine.strategies import STRATEGIES
    from ..rules import Catalog
    from ..rules.parameters import PARAMETERS

    catalog = Catalog.shipped()
    ids = tuple(catalog.ids())
    options = sorted(
        {
            f"{option.name}={value.name}"
            for variant in ids
            for option in catalog.resolve(variant).options
            for value in option.values
        }
    )
    by_kind = {
        "variants": ids,
        "options": tuple(options),
        "strategies": tuple(STRATEGIES),
        "rules": tuple(parameter.name for parameter in PARAMETERS),
    }
    kinds = {
        "variant": "variants",
        "variants": "variants",
        "first": "variants",
        "second": "variants",
        "option": "options",
        "strategy": "strategies",
        "rule": "rules",
    }
    return {dest: (kind, by_kind[kind]) for dest, kind in kinds.items()}


def _static(kind: str, words: tuple[str, ...]) -> dict[str, object]:
    """A shtab completion of ``words`` for each shell, with the bash function it needs."""
    listed = " ".join(words)
    function = f"_matador_compgen_{kind}"
    return {
        "bash": function,
        "zsh": f"({listed})",
        "fish": f"(string split ' ' '{listed}')",
        "preamble": {"bash": f'{function}() {{\n  compgen -W "{listed}" -- "$1"\n}}\n'},
    }


def script(shell: str) -> str:
    """The completion script of ``matador`` for ``shell``: every command and option, file
    names where a file is named, and the shipped variant ids, option values, strategies
    and rule names where those are asked for."""
    import shtab

    from .app import build_parser

    # The parser's own help output is never written: completion only reads the parser.
    parser = build_parser(io.StringIO())
    words = _words()
    for action in _actions(parser):
        # An argument that names a file or folder completes to the files there.
        if isinstance(action.metavar, str) and _NAMES_A_FILE.search(action.metavar):
            action.complete = shtab.FILE  # type: ignore[attr-defined]
        elif action.dest in words and action.choices is None:
            action.complete = _static(*words[action.dest])  # type: ignore[attr-defined]
    text: str = shtab.complete(parser, shell=shell)
    return text if text.endswith("\n") else text + "\n"


def _completion(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    stdout.write(script(args.shell))
    return ExitStatus.OK


#: The handlers of this group's commands.
COMMANDS: dict[str, Handler] = {"completion": _completion}
