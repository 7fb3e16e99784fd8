"""``matador example``: where the example engines are installed, or a copy of one to start from.

``matador example node`` prints the path of the Node.js example engine that
ships with the package, so an installed suite can run it from any folder
(``matador conform --engine "node $(matador example node)"``); ``python``
gives the Python example, an in-process engine. ``--copy DIR`` copies the
example and the README that says how to run it into DIR (made, with its
parents, when it does not exist), refusing to overwrite a file there. Exit 0
when done, 1 when the example is not installed or a file is in the way, 2 for
a DIR that is not a folder or cannot be made.
"""

from __future__ import annotations

import argparse
import os
import shlex
from pathlib import Path
from typing import TextIO

from ..exits import ExitStatus
from .arguments import AddCommand, Choices, Handler

#: The ``--engine`` of each example, once its path is known (quoted for a shell).
ENGINE = {
    "node": "node {path}",
    "python": "python:{path}:make_engine",
}


def _languages() -> list[str]:
    from ..rules.datafiles import EXAMPLES

    return list(EXAMPLES)


def add_parsers(command: AddCommand) -> None:
    """Add ``example`` to ``matador``'s commands."""
    example = command("example", "print the path of an example engine, or copy it to start from")
    example.add_argument(
        "language",
        metavar="LANGUAGE",
        choices=Choices(_languages),
        help="the example's language: node (a program) or python (in process)",
    )
    example.add_argument(
        "--copy",
        metavar="DIR",
        help="copy the example and its README into the folder DIR (never overwriting)",
    )


def _example(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..rules.datafiles import EXAMPLE_COMPANIONS, EXAMPLES_README, data_root, example_path

    source = example_path(args.language)
    readme = data_root() / EXAMPLES_README
    companions = tuple(data_root() / name for name in EXAMPLE_COMPANIONS.get(args.language, ()))
    for path in (source,) if args.copy is None else (source, readme, *companions):
        if not path.is_file():
            stderr.write(
                f"matador example: {path} is missing: the package is not fully installed\n"
            )
            return ExitStatus.INVALID
    if args.copy is None:
        stdout.write(f"{source}\n")
        return ExitStatus.OK
    output = getattr(args, "output", None)
    sources = (source, readme, *companions)
    if output not in (None, "-") and _writes(sources, Path(args.copy), Path(output)):
        stderr.write(
            f"matador example: -o {output}: --copy writes that file; give the output another name\n"
        )
        return ExitStatus.USAGE
    return _copy(sources, Path(args.copy), args.language, stdout, stderr)


def _writes(sources: tuple[Path, ...], folder: Path, output: Path) -> bool:
    """Whether copying ``sources`` into ``folder`` would write the file ``output``."""
    aimed = os.path.realpath(output)
    return any(os.path.realpath(folder / source.name) == aimed for source in sources)


def _copy(
    sources: tuple[Path, ...], folder: Path, language: str, stdout: TextIO, stderr: TextIO
) -> int:
    """Copy ``sources`` into ``folder``: all of them, or, when one is in the way, none."""
    from ..safeio import write_atomically

    if not folder.exists() and not folder.is_symlink():
        try:
            folder.mkdir(parents=True)  # a new folder (and its parents): nothing to overwrite
        except OSError as error:
            stderr.write(f"matador example: --copy: cannot make {folder}: {error.strerror}\n")
            return ExitStatus.USAGE
    if not folder.is_dir():
        stderr.write(f"matador example: --copy: {folder} is not a folder\n")
        return ExitStatus.USAGE
    targets = [folder / source.name for source in sources]
    for target in targets:
        if target.exists() or target.is_symlink():
            stderr.write(
                f"matador example: {target} already exists; nothing was copied "
                "(remove it, or copy into another folder)\n"
            )
            return ExitStatus.INVALID
    for source, target in zip(sources, targets, strict=True):
        write_atomically(target, source.read_bytes())
    names = [target.name for target in targets]
    copied = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
    stdout.write(f"copied {copied} to {folder}\n")
    engine = ENGINE[language].format(path=shlex.quote(str(targets[0])))
    stdout.write(f"run it: matador conform --engine {shlex.quote(engine)}\n")
    return ExitStatus.OK


#: The command's handler, by name.
COMMANDS: dict[str, Handler] = {"example": _example}
