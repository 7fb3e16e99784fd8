"""Judging one mutant: the unmodified suite against a mutated copy of the engine, over the protocol.

:func:`run_mutant` copies the package (``reference_engine/``, with the data
files the engine process reads: ``spec/`` and ``variants/``, which
``rules/datafiles.py`` finds beside the package) into a temporary folder,
applies the mutant to the copy, and runs the real command line of the checkout:

    python -m reference_engine.cli conform --report json \\
        --engine "env PYTHONPATH=<copy> python -m reference_engine.cli engine"

The judge (``conform``: the cases, the runner, the reference engine it reads
the rules from) imports the unmodified checkout, through ``PYTHONPATH``; only
the engine process imports the copy. Both run in a neutral working folder, so
that neither finds the other's package through the current directory.

A mutant is *killed* when at least one case gets the verdict ``fail``. A run
in which the engine broke the protocol (an ``error`` or ``not_run`` verdict,
and no ``fail``), or the judge itself did not finish, is *crashed*: the engine
was not shown wrong by a case. Anything else *survived*.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from .mutants import Mutant

#: The checkout: the judge's package, and the source the mutants are applied to.
REPO = Path(__file__).resolve().parents[2]
PACKAGE = "reference_engine"
#: The data folders the engine process reads (rules/datafiles.py looks for them
#: beside the package when it has no ``_data`` of its own).
DATA_DIRS = ("spec", "variants")
#: The longest a whole suite run may take before it counts as crashed.
RUN_TIMEOUT = 300.0
#: The runner's deadline for each request (generous: the machine may be busy).
REQUEST_TIMEOUT = "20"
START_TIMEOUT = "60"


class Status(str, Enum):
    """What became of a mutant."""

    KILLED = "killed"
    SURVIVED = "survived"
    CRASHED = "crashed"


@dataclass(frozen=True)
class CaseVerdict:
    """One line of the JSON report: a case run under one variant (with options)."""

    case: str
    variant: str
    options: tuple[tuple[str, str], ...]
    verdict: str


@dataclass(frozen=True)
class Outcome:
    """How the suite judged one mutant."""

    mutant: str
    status: Status
    #: The ids of the cases with at least one ``fail``, sorted.
    killers: tuple[str, ...]
    verdicts: tuple[CaseVerdict, ...] = ()
    #: The name the engine gave in its hello (from the report's header).
    engine_name: str | None = None
    #: For a crash: what went wrong.
    detail: str = ""
    seconds: float = 0.0
    counts: dict[str, int] = field(default_factory=dict)


class MutantNotApplicable(Exception):
    """The mutant's ``old`` text is not in its file exactly once (the source has changed)."""


def apply_mutant(mutant: Mutant, package: Path) -> None:
    """Replace the mutant's ``old`` by its ``new`` in the package at ``package``."""
    path = package / mutant.file
    text = path.read_text(encoding="utf-8")
    count = text.count(mutant.old)
    if count != 1:
        raise MutantNotApplicable(
            f"{mutant.id}: its old text occurs {count} times in {PACKAGE}/{mutant.file}, "
            "not once; update the mutant to the source as it is now"
        )
    path.write_text(text.replace(mutant.old, mutant.new), encoding="utf-8")


def copy_package(destination: Path) -> Path:
    """Copy the package and the data it reads into ``destination``; return ``destination``."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "_data")
    shutil.copytree(REPO / PACKAGE, destination / PACKAGE, ignore=ignore)
    for name in DATA_DIRS:
        shutil.copytree(REPO / name, destination / name, ignore=ignore)
    return destination


@contextmanager
def mutant_copy(mutant: Mutant | None) -> Iterator[Path]:
    """A temporary folder holding ``work/`` (the neutral working folder) and ``engine/``.

    ``engine/`` is the copy of the package with ``mutant`` applied (None: unchanged).
    """
    with tempfile.TemporaryDirectory(prefix="matador-mutant-") as temporary:
        root = Path(temporary)
        (root / "work").mkdir()
        copy_package(root / "engine")
        if mutant is not None:
            apply_mutant(mutant, root / "engine" / PACKAGE)
        yield root


def engine_command(copy: Path) -> str:
    """The ``--engine`` command that runs the reference engine from ``copy``."""
    return shlex.join(
        [
            "env",
            f"PYTHONPATH={copy}",
            "PYTHONDONTWRITEBYTECODE=1",
            sys.executable,
            "-m",
            f"{PACKAGE}.cli",
            "engine",
        ]
    )


def judge_command(copy: Path) -> list[str]:
    """The ``conform`` command line: the checkout's runner against the engine in ``copy``."""
    return [
        sys.executable,
        "-m",
        f"{PACKAGE}.cli",
        "conform",
        "--engine",
        engine_command(copy),
        "--report",
        "json",
        "--timeout",
        REQUEST_TIMEOUT,
        "--start-timeout",
        START_TIMEOUT,
    ]


def judge_environment() -> dict[str, str]:
    """The judge's environment: the checkout first on the path, nothing else changed."""
    environment = dict(os.environ)
    environment["PYTHONPATH"] = str(REPO)
    environment.pop("PYTHONHOME", None)
    return environment


def run_suite(root: Path, timeout: float = RUN_TIMEOUT) -> subprocess.CompletedProcess[str]:
    """Run the judge in ``root/work`` against the engine copy in ``root/engine``."""
    return subprocess.run(
        judge_command(root / "engine"),
        cwd=root / "work",
        env=judge_environment(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@dataclass(frozen=True)
class Report:
    """What the JSON-lines report says."""

    verdicts: tuple[CaseVerdict, ...]
    engine_name: str | None
    complete: bool
    counts: dict[str, int]
    #: Why the engine was given up on, with the end of its standard error (if it was).
    unavailable: str = ""


def parse_report(text: str) -> Report:
    """Read the JSON-lines report: the header's engine, each case line, the footer."""
    verdicts: list[CaseVerdict] = []
    engine_name: str | None = None
    complete = False
    counts: dict[str, int] = {}
    unavailable = ""
    for line in text.splitlines():
        if not line.strip():
            continue
        record: Any = json.loads(line)
        if not isinstance(record, dict):
            continue
        kind = record.get("type")
        if kind == "header":
            engine = record.get("engine")
            if isinstance(engine, dict) and isinstance(engine.get("name"), str):
                engine_name = engine["name"]
        elif kind == "case":
            options = record.get("options") or {}
            verdicts.append(
                CaseVerdict(
                    case=str(record["case"]),
                    variant=str(record["variant"]),
                    options=tuple(sorted((str(k), str(v)) for k, v in options.items())),
                    verdict=str(record["verdict"]),
                )
            )
        elif kind == "footer":
            complete = bool(record.get("complete"))
            why = record.get("engine_unavailable")
            if why:
                unavailable = f"{why} {_tail(str(record.get('engine_stderr') or ''))}".strip()
    for verdict in verdicts:
        counts[verdict.verdict] = counts.get(verdict.verdict, 0) + 1
    return Report(tuple(verdicts), engine_name, complete, counts, unavailable)


def judge(mutant_id: str, finished: subprocess.CompletedProcess[str], seconds: float) -> Outcome:
    """The outcome of one run of the judge."""
    try:
        report = parse_report(finished.stdout)
    except (ValueError, KeyError) as error:
        return Outcome(
            mutant_id,
            Status.CRASHED,
            (),
            detail=f"the report could not be read ({error}); exit {finished.returncode}: "
            + _tail(finished.stderr),
            seconds=seconds,
        )
    killers = tuple(sorted({v.case for v in report.verdicts if v.verdict == "fail"}))
    if killers:
        status = Status.KILLED
        detail = ""
    elif not report.complete or not report.verdicts or finished.returncode not in (0, 1, 4):
        status = Status.CRASHED
        detail = f"the judge did not finish (exit {finished.returncode}): " + _tail(finished.stderr)
    elif any(v.verdict in ("error", "not_run") for v in report.verdicts):
        status = Status.CRASHED
        detail = "the engine broke the protocol: " + ", ".join(
            f"{count} {verdict}" for verdict, count in sorted(report.counts.items())
        )
        if report.unavailable:
            detail += f" ({report.unavailable})"
    else:
        status = Status.SURVIVED
        detail = ""
    return Outcome(
        mutant_id,
        status,
        killers,
        report.verdicts,
        report.engine_name,
        detail,
        seconds,
        report.counts,
    )


def run_mutant(mutant: Mutant | None, timeout: float = RUN_TIMEOUT) -> Outcome:
    """Judge ``mutant`` (None: the unmodified engine, run the same way)."""
    name = "unmodified" if mutant is None else mutant.id
    started = time.monotonic()
    with mutant_copy(mutant) as root:
        try:
            finished = run_suite(root, timeout)
        except subprocess.TimeoutExpired:
            return Outcome(
                name,
                Status.CRASHED,
                (),
                detail=f"the suite did not finish in {timeout:.0f} s",
                seconds=time.monotonic() - started,
            )
    return judge(name, finished, time.monotonic() - started)


def _tail(text: str, lines: int = 5) -> str:
    return " | ".join(text.strip().splitlines()[-lines:])
