"""`matador conform`: run the suite against an engine and report."""

from __future__ import annotations

import argparse
import contextlib
import io
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from ..rules import Catalog
from .cases import Case, Target, load_cases
from .coverage import coverage_text
from .engine import Engine, ReferenceEngine, load_python_engine
from .process import ProcessEngine
from .report import WRITERS, totals
from .runner import Divergence, Runner, Verdict, differential, select


def engine_factory(spec: str | None, timeout: float) -> Callable[[], Engine]:
    """A factory for the engine named on the command line."""
    if spec is None:
        return ReferenceEngine
    if spec.startswith("python:"):
        return load_python_engine(spec.removeprefix("python:"))
    return lambda: ProcessEngine(spec, timeout=timeout)


def _case_paths(items: list[str]) -> list[Path] | None:
    if not items:
        return None
    paths: list[Path] = []
    for item in items:
        path = Path(item)
        paths.extend(sorted(path.rglob("*.yaml")) if path.is_dir() else [path])
    return paths


def conform(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Run the selected cases (and random games) and write the report; 0 when nothing failed."""
    if args.timeout <= 0:
        stderr.write("matador conform: --timeout must be a positive number of seconds\n")
        return 2
    if args.random is not None and args.random < 1:
        stderr.write("matador conform: --random must be at least 1\n")
        return 2
    catalog = Catalog.shipped()
    cases, problems = load_cases(_case_paths(args.cases), catalog)
    if problems:
        for problem in problems:
            stderr.write(f"{problem}\n")
        stderr.write(f"{len(problems)} problem(s) in the case files\n")
        return 1
    if args.coverage:
        stdout.write(coverage_text(cases, catalog))
        return 0
    unknown = [v for v in args.variant if v not in catalog.ids()]
    if unknown:
        stderr.write(
            f"matador conform: unknown variant(s) {', '.join(unknown)}; see matador list\n"
        )
        return 2
    runs = select(cases, variants=args.variant, case_globs=args.case, rules=args.rule)
    if not runs:
        stderr.write("matador conform: no case matches the selection\n")
        return 1
    try:
        factory = engine_factory(args.engine, args.timeout)
    except ValueError as error:
        stderr.write(f"matador conform: {error}\n")
        return 2
    runner = Runner(factory)
    try:
        results = runner.run(runs)
        divergences: list[Divergence] = []
        errors: list[str] = []
        compared = 0
        if args.random:
            targets = _random_targets(cases, args.variant, runner, catalog)
            compared, divergences, errors = differential(
                runner,
                targets,
                args.random,
                args.seed,
                lambda t: _players(t, cases, catalog),
                catalog,
            )
    finally:
        runner.close()
    out: TextIO
    sink = open(args.output, "w", encoding="utf-8") if args.output else None  # noqa: SIM115
    with sink or contextlib.nullcontext():
        out = sink or stdout
        WRITERS[args.report](results, runner.info, out)
        if args.random:
            _write_divergences(
                out if args.report == "table" else stderr, compared, divergences, errors
            )
    count = totals(results)
    failed = count[Verdict.FAIL] + count[Verdict.ERROR] + len(divergences) + len(errors)
    if args.output:
        stdout.write(
            f"report written to {args.output}: {count[Verdict.PASS]} passed, "
            f"{count[Verdict.FAIL]} failed, {count[Verdict.ERROR]} errored, "
            f"{count[Verdict.SKIP]} skipped\n"
        )
    return 1 if failed else 0


def _random_targets(
    cases: list[Case], variants: list[str], runner: Runner, catalog: Catalog
) -> list[Target]:
    runner.engine()
    info = runner.info
    targets = []
    for variant in variants or catalog.ids():
        if info is not None and info.supports(variant, {}) is not None:
            continue
        targets.append(Target(variant))
    return targets


def _players(target: Target, cases: list[Case], catalog: Catalog) -> int:
    return min(catalog.resolve(target.variant, target.options).players)


def _write_divergences(
    out: TextIO, compared: int, divergences: list[Divergence], errors: list[str]
) -> None:
    buffer = io.StringIO()
    buffer.write(f"random differential: {compared} hand(s) compared with the reference engine\n")
    for divergence in divergences:
        history = " ".join(divergence.history) or "(the deal)"
        buffer.write(
            f"DIVERGENCE {divergence.variant}: after {history}\n"
            f"  deal: {divergence.deal}\n"
            f"  reference: {' '.join(divergence.expected)}\n"
            f"  engine:    {' '.join(divergence.actual)}\n"
        )
    for error in errors:
        buffer.write(f"ERROR {error}\n")
    out.write(buffer.getvalue())
