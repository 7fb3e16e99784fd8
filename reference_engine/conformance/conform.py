"""`matador conform`: run the suite against an engine and report, losing nothing.

The output path is checked before anything runs. The JSON-lines report is
streamed (a line per case, flushed as each ends); every report file is
written through a temporary file and renamed into place. SIGINT, SIGTERM and
SIGHUP stop the run cleanly (:mod:`.signals`): the engine's process group is
stopped, the report keeps every finished case and says the run was
interrupted, and the exit status is 128 + the signal (130, 143, 129); the
case runs it kept from running are counted as not run, per variant, and the
random games keep every divergence found before it. The report always says
how the run ended; when it goes to a file or is for a machine, one line each
says so on standard error too. Exit statuses: :class:`~reference_engine.exits.ExitStatus`.
"""

from __future__ import annotations

import argparse
import contextlib
import io
from collections.abc import Callable, Iterator
from typing import TextIO, cast

from ..exits import ExitStatus
from ..pyload import check_spec
from ..rules import Catalog
from ..safeio import AtomicFile, OutputError, check_output_path
from ..sinks import Terminal
from .games.differential import DifferentialResult, Divergence, differential, game_targets
from .protocol.interface import Engine, EngineInfo, ReferenceEngine, load_python_engine
from .reports.badge import write_badge
from .reports.rerun import run_command
from .reports.runreport import JsonLinesReport, RunSummary, run_notes, summary_line, totals
from .reports.writers import WRITERS
from .session.runner import CaseRun, EngineUnavailable, Runner, Verdict, select
from .suite.casedata import Case, Target, load_cases
from .suite.selection import case_inputs_problem, case_paths, filter_problem, nothing_selected
from .transport import pyhost
from .transport.process import ProcessEngine
from .transport.signals import Interrupted, deferred, stop_on_signals

#: What stopped a run at its first deviation, as the report's ``interrupted`` says it.
FAIL_FAST = "--fail-fast"


def engine_factory(
    spec: str | None,
    timeout: float,
    start_timeout: float | None = None,
    *,
    in_process: bool = False,
) -> Callable[[], Engine]:
    """A factory for the engine named on the command line (ValueError if it names none).

    A ``python:`` engine runs in a process of its own (:mod:`.pyhost`), as any program
    does; ``in_process`` loads it into the judge instead (faster, and trusting its code).
    """
    if spec is None:
        return ReferenceEngine
    if spec.startswith("python:"):
        if in_process:
            return load_python_engine(spec.removeprefix("python:"))
        check_spec(spec.removeprefix("python:"))  # (its form and whereabouts, nothing run)
        hosted = pyhost.command(spec.removeprefix("python:"))
        return lambda: ProcessEngine(hosted, timeout=timeout, start_timeout=start_timeout)
    if not spec.strip():
        raise ValueError("--engine is empty; give a command, or python:MODULE:FACTORY")
    return lambda: ProcessEngine(spec, timeout=timeout, start_timeout=start_timeout)


def engine_runner(
    args: argparse.Namespace, catalog: Catalog, command: str, stderr: TextIO, **options: bool
) -> Runner | None:
    """The runner of the engine ``--engine`` names, with its deadlines, judging by ``catalog``.

    None once the usage error is written (``--engine`` names no engine).
    """
    try:
        factory = engine_factory(
            args.engine,
            args.timeout,
            args.start_timeout,
            in_process=getattr(args, "in_process", False),
        )
    except ValueError as error:
        stderr.write(f"matador {command}: --engine: {error}\n")
        return None
    return Runner(
        factory,
        timeout=args.timeout,
        start_timeout=args.start_timeout,
        known_variants=catalog.ids(),
        catalog=catalog,
        **options,
    )


@contextlib.contextmanager
def _destination(output: str | None, stdout: TextIO, *, keep_partial: bool) -> Iterator[TextIO]:
    """Standard output, or an atomically written file (kept when interrupted if asked)."""
    if not output or output == "-":
        yield stdout
        return
    with AtomicFile(output, keep_partial=keep_partial) as sink:
        # (the file gets what standard output would: no control sequence from an engine)
        yield cast(TextIO, Terminal(sink.guarded()))


def conform(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Run the selected cases (and random games) and write the report; 0 when nothing failed."""
    try:
        with stop_on_signals():
            return _conform(args, stdout, stderr)
    except Interrupted as stop:  # before the run started, or while it was being written up
        stderr.write(f"matador conform: interrupted by {stop.name}\n")
        return stop.status


def _conform(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    judging = [
        flag
        for flag, given in (
            ("--engine", args.engine is not None),
            ("--random", args.random is not None),
            ("--fail-fast", args.fail_fast),
            ("--first-deviation", args.first_deviation),
            ("--badge", args.badge is not None),
        )
        if given
    ]
    if args.coverage and judging:
        # A CI job that added --coverage would otherwise go green whatever the engine does.
        stderr.write(
            f"matador conform: --coverage describes the cases and judges no engine; "
            f"drop {' and '.join(judging)}, or run the coverage on its own\n"
        )
        return ExitStatus.USAGE
    if args.random is not None and args.random < 1:
        stderr.write("matador conform: --random must be at least 1\n")
        return ExitStatus.USAGE
    for flag, path in (("--output", args.output), ("--badge", args.badge)):
        try:
            if path and path != "-":
                check_output_path(path)
        except OutputError as error:
            stderr.write(f"matador conform: {flag}: {error}\n")
            return ExitStatus.USAGE
    cases_problem = case_inputs_problem(args.cases)
    if cases_problem is not None:
        stderr.write(f"matador conform: --cases: {cases_problem}\n")
        return ExitStatus.INVALID
    catalog = Catalog.shipped()
    early = None if args.coverage else _prestarted(args, catalog)
    try:
        return _load_and_run(args, catalog, early, stdout, stderr)
    finally:
        if early is not None:
            early.close()


def _prestarted(args: argparse.Namespace, catalog: Catalog) -> Runner | None:
    """The engine's runner with the engine already starting, or None.

    The engine program starts while the cases load, instead of after. A mistake
    in ``--engine`` is left for :func:`_load_and_run` to report in its turn.
    """
    stop_case = args.fail_fast or args.first_deviation
    runner = engine_runner(args, catalog, "conform", io.StringIO(), fail_fast=stop_case)
    if runner is not None:
        runner.prestart()
    return runner


def _load_and_run(
    args: argparse.Namespace,
    catalog: Catalog,
    early: Runner | None,
    stdout: TextIO,
    stderr: TextIO,
) -> int:
    """Load and select the cases, then run them on ``early`` (or a runner made now)."""
    # A signal while the cases load (the engine is already starting) waits for them,
    # so that the report can say what was planned and that none of it ran.
    early_stop: Interrupted | None = None
    try:
        with deferred():
            cases, problems = load_cases(case_paths(args.cases), catalog)
    except Interrupted as stop:
        early_stop = stop
    if problems:
        for problem in problems:
            stderr.write(f"{problem}\n")
        stderr.write(
            f"{len(problems)} problem(s) in the case files; no engine was run "
            "(the cases are at fault, not an engine)\n"
        )
        return ExitStatus.BROKEN_CASE
    if args.coverage:
        from ..cli.progress import counting_bar
        from .analysis.coverage import coverage_output  # (and the decisive replays)

        width = getattr(args, "width", None)
        with (
            _destination(args.output, stdout, keep_partial=False) as out,
            counting_bar(stderr, "replaying cases", "runs") as count,
        ):
            out.write(coverage_output(cases, catalog, args.report, width, out, count))
        return ExitStatus.OK
    why = filter_problem(args.variant, args.rule, catalog.ids())
    if why is not None:
        stderr.write(f"matador conform: {why}\n")
        return ExitStatus.INVALID
    runs = select(cases, variants=args.variant, case_globs=args.case, rules=args.rule)
    if not runs:
        stderr.write(f"matador conform: {nothing_selected(cases, args.case)}\n")
        return ExitStatus.INVALID
    # --fail-fast stops the run at its first deviation, so each case stops there too.
    stop_case = args.fail_fast or args.first_deviation
    runner = (
        early
        if early is not None
        else engine_runner(args, catalog, "conform", stderr, fail_fast=stop_case)
    )
    if runner is None:
        return ExitStatus.USAGE
    return _run(args, runner, runs, catalog, stdout, stderr, early_stop)


def _run(
    args: argparse.Namespace,
    runner: Runner,
    runs: list[tuple[Case, Target]],
    catalog: Catalog,
    stdout: TextIO,
    stderr: TextIO,
    early_stop: Interrupted | None = None,
) -> int:
    streamed = args.report == "json"
    to_file = bool(args.output and args.output != "-")
    results: list[CaseRun] = []
    random_result: DifferentialResult | None = None
    interrupted: Interrupted | None = None
    stopped: str | None = None
    headed = False
    with _destination(args.output, stdout, keep_partial=True) as out:
        stream = JsonLinesReport(out) if streamed else None
        try:
            try:
                if early_stop is not None:
                    raise early_stop
                info = _greet(runner)
                if stream is not None:
                    stream.header(info)
                    headed = True
                stopped = _judge(args.fail_fast, runner, runs, results, stream, stderr)
                if args.random and runner.unavailable is None and stopped is None:
                    # filled in place: a signal during the games keeps what they found
                    random_result = DifferentialResult(on_new=_announcer(stderr))
                    _random_games(args, runner, catalog, stderr, random_result)
            finally:
                # After a signal, further ones are ignored until the report is written.
                runner.close()
        except Interrupted as stop:
            interrupted = stop
            runner.close()  # again: the signal may have cut the first stop short
        finished = len(results)
        if interrupted:  # (--fail-fast asked to judge no further: its report ends there)
            _not_run(runs, results, stream, interrupted.name)
        unavailable = runner.unavailable
        summary = RunSummary(
            planned=len(runs),
            interrupted=interrupted.name if interrupted else stopped,
            unavailable=unavailable.message if unavailable else None,
            stderr=unavailable.stderr if unavailable else "",
            random=random_result,
            finished=finished,
            slowness=runner.latency.summary(),
            command=run_command(
                args.engine,
                args.cases,
                {"--timeout": args.timeout, "--start-timeout": args.start_timeout},
                getattr(args, "in_process", False),
            ),
        )
        if stream is not None:
            if not headed:  # interrupted before the engine had greeted
                stream.header(runner.info)
            stream.footer(summary)
        else:
            WRITERS[args.report](results, runner.info, out, summary)
    if to_file:
        stdout.write(f"report written to {args.output}: {summary_line(results, summary)}\n")
    if to_file or args.report != "table":
        # The report says all this; a report in a file or for a machine is not what a
        # person reads on the terminal, so one line each says it there too (stderr).
        stderr.writelines(f"matador conform: {note}\n" for note in run_notes(summary, results))
    if args.badge and (problem := write_badge(args.badge, results, summary)):
        stderr.write(f"matador conform: --badge: {problem}\n")
        return ExitStatus.INVALID
    return _status(results, summary, interrupted)


def _not_run(
    runs: list[tuple[Case, Target]],
    results: list[CaseRun],
    stream: JsonLinesReport | None,
    why: str,
) -> None:
    """Mark every planned case run a signal kept the run from as not run.

    The JSON lines keep a line for each finished case only; their footer counts these.
    """
    for case, target in runs[len(results) :]:
        run = CaseRun(
            case=case.id,
            target=target,
            verdict=Verdict.NOT_RUN,
            message=f"not run: the run was stopped by {why}",
            file=case.file,
            line=case.line,
        )
        results.append(run)
        if stream is not None:
            stream.count(run)


def _announcer(stderr: TextIO) -> Callable[[Divergence], None] | None:
    """Says each new kind of divergence on standard error as it is found (no bar drawn)."""
    from ..cli.progress import is_terminal

    if is_terminal(stderr):
        return None  # the progress bar has the line; the report lists them all

    def say(divergence: Divergence) -> None:
        stderr.write(
            f"matador conform: divergence in {divergence.target.label()} "
            f"{divergence.game_text}: {divergence.message}\n"
        )
        stderr.flush()

    return say


def _judge(
    fail_fast: bool,
    runner: Runner,
    runs: list[tuple[Case, Target]],
    results: list[CaseRun],
    stream: JsonLinesReport | None,
    stderr: TextIO,
) -> str | None:
    """Run the cases into ``results`` (and ``stream``), with a progress bar on a terminal.

    Returns what stopped the run before its last case (:data:`FAIL_FAST`), or None.
    """
    from ..cli.progress import progress_bar

    with progress_bar(stderr, len(runs), "cases") as advance:
        for result in runner.each(runs):
            with deferred():  # (kept and written whole: the footer counts the lines written)
                results.append(result)
                if stream is not None:
                    stream.case(result)
            if advance is not None:
                advance(1)
            if fail_fast and result.verdict in (Verdict.FAIL, Verdict.ERROR):
                return FAIL_FAST
    return None


def _greet(runner: Runner) -> EngineInfo | None:
    """Start the engine before the first case, so the report's header can name it."""
    with contextlib.suppress(EngineUnavailable):
        runner.engine()
    return runner.info


def _status(
    results: list[CaseRun],
    summary: RunSummary,
    interrupted: Interrupted | None,
) -> int:
    if interrupted is not None:
        return interrupted.status
    count = totals(results)
    if summary.unavailable:
        return ExitStatus.ENGINE_UNAVAILABLE
    diverged = summary.random.problems if summary.random is not None else 0
    if count[Verdict.FAIL] + count[Verdict.ERROR] + diverged:
        return ExitStatus.INVALID
    if count[Verdict.BROKEN]:
        return ExitStatus.BROKEN_CASE
    if not count[Verdict.PASS] and count[Verdict.SKIP]:
        return ExitStatus.INVALID  # nothing was judged: no pass to report
    return ExitStatus.OK


def _random_games(
    args: argparse.Namespace,
    runner: Runner,
    catalog: Catalog,
    stderr: TextIO,
    into: DifferentialResult,
) -> DifferentialResult:
    """The random games of ``--random`` (over ``--jobs`` engines) into ``into``, with a bar."""
    try:
        engine = runner.engine()
    except EngineUnavailable:
        return into
    targets = game_targets(catalog, args.variant, runner)
    jobs = max(1, min(args.jobs, len(targets)))
    if jobs > 1 and not isinstance(engine, ProcessEngine):
        stderr.write("matador conform: --jobs runs engine programs side by side; ")
        stderr.write("an in-process engine plays its random games in one job\n")
        jobs = 1

    def play(progress: Callable[[int], None] | None) -> DifferentialResult:
        if jobs == 1:
            return differential(
                runner, targets, args.random, args.seed, catalog, progress=progress, into=into
            )
        assert isinstance(engine, ProcessEngine)
        from .session.parallel import in_parallel

        return in_parallel(
            engine.command,
            (engine.timeout, engine.start_timeout),
            targets,
            args.random,
            args.seed,
            jobs=jobs,
            progress=progress,
            into=into,
        )

    from ..cli.progress import progress_bar

    with progress_bar(stderr, args.random * len(targets), "random games") as advance:
        return play(advance)
