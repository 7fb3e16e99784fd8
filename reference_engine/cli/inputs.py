"""The files a command line names as its inputs, and the output that may not be one of them.

``-o FILE`` must not replace what the command reads: a record it judges, a case
file of ``--cases``, the engine program of ``--engine``, a ``python:`` engine's
file or module, a strategy's module. Every word of the command line is read for
the files it may name (:func:`_files_in`), so a new option naming a file is
covered without being listed here.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterator, Sequence

from .arguments import UsageError

#: The options whose value is a file the command writes, not one it reads.
OUTPUT_OPTIONS = ("-o", "--output", "--plot", "--badge")


def refuse_input_as_output(output: str, argv: Sequence[str], option: str = "-o") -> None:
    """Raise :class:`UsageError` when ``output`` (the value of ``option``) is a file the
    command line also names (``replay game.json -o game.json`` would replace the record
    by its verdict), or a file that exists inside a folder it names (``replay games -o
    games/a.json``)."""
    for candidate in _named_files(argv):
        try:
            same = os.path.isfile(candidate) and os.path.samefile(candidate, output)
            root, resolved = os.path.realpath(candidate), os.path.realpath(output)
            inside = os.path.isdir(candidate) and os.path.exists(output)
            inside = inside and os.path.commonpath([resolved, root]) == root != resolved
        except (OSError, ValueError):
            same = inside = False
        if same or inside:
            where = "is" if same else "is inside a folder that is"
            raise UsageError(
                f"{option} {output}: that {where} also an input of this command ({candidate}); "
                "writing the output there would destroy it: give another file"
            )


def _named_files(argv: Sequence[str]) -> Iterator[str]:
    """Every word of ``argv`` that may name a file, but the outputs' own (``-o FILE``,
    ``--output FILE``, ``--output=FILE``, ``-oFILE``, ``--plot FILE``); ``--name=VALUE``
    gives VALUE."""
    words = iter(argv)
    for word in words:
        if word in OUTPUT_OPTIONS:
            next(words, None)
        elif word.startswith(("--output=", "--plot=", "--badge=")) or (
            word.startswith("-o") and len(word) > 2
        ):
            continue
        elif word.startswith("--") and "=" in word:
            yield from _files_in(word.partition("=")[2])
        else:
            yield from _files_in(word)


def _files_in(word: str) -> Iterator[str]:
    """The files one word may name: itself; each word of a command line (``--engine "node
    engine.js"``) and the program it runs, found on the PATH as a shell would; the file
    or module of a ``python:FILE.py:NAME`` or ``python:MODULE:NAME`` spec (also one of a
    list: ``--strategy python:mine.py:Mine,greedy``)."""
    yield word
    try:
        words = shlex.split(word) if any(c.isspace() for c in word) else [word]
    except ValueError:
        words = word.split()
    for number, token in enumerate(words):
        if token != word:
            yield token
        if number == 0 and os.sep not in token:
            import shutil  # (here: it costs a start-up its compression modules)

            found = shutil.which(token)
            if found is not None:
                yield found
        for part in token.split(","):  # (strategies: NAME,NAME...)
            if part.startswith("python:"):
                spec = part[len("python:") :]
                target = spec.rpartition(":")[0] or spec
                yield target
                parts = target.split(".")
                module = os.path.join(*parts)
                yield module + ".py"
                yield os.path.join(module, "__init__.py")
                for depth in range(1, len(parts)):  # (each package it is imported through)
                    yield os.path.join(*parts[:depth], "__init__.py")
