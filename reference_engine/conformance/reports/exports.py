"""Reports for other tools: JUnit XML for CI systems, Markdown to paste in a README.

Both carry what the terminal table does (:mod:`.report`): the verdicts, every
deviation, the verdict per rule, and the random games' divergences. The
Markdown report lists every failing expectation (:mod:`.failures`) with the
rules behind it, their SPEC sections and the variant file's citations.
"""

from __future__ import annotations

import socket
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TextIO
from xml.etree import ElementTree

from ... import sinks
from ..analysis.rulereport import RuleVerdict, Standing, rule_verdicts
from ..analysis.ruletext import blame_text, rule_lines
from ..judging.divergences import DifferentialResult
from ..judging.verdicts import CaseRun, Verdict
from ..protocol.interface import EngineInfo
from ..suite.casedata import SUITE_VERSION
from .failures import FailureRow, divergence_rows, failure_rows
from .randomreport import divergence_lines, error_lines
from .rerun import rerun_command
from .runreport import (
    VERDICTS,
    RunSummary,
    declared_lines,
    failure_text,
    not_judged_text,
    summary_line,
    summary_text,
    tally,
    totals,
)
from .speclinks import section_url


def write_junit(
    runs: Sequence[CaseRun],
    info: EngineInfo | None,
    stream: TextIO,
    summary: RunSummary | None = None,
) -> None:
    """JUnit XML: one test case per case run, grouped by variant, then one per rule.

    A broken case and a case not run (the engine unavailable) are errors with
    their own ``type``: neither is a pass. The ``rules`` suite has a test case
    per rule and value tested, failed with its smallest example when any
    expectation on it failed; its cases take no time of their own (they judge
    the case runs already timed). Each suite carries the attributes CI tools
    read (``name``, ``tests``, ``failures``, ``errors``, ``skipped``, ``time``,
    ``timestamp`` in ISO 8601, ``hostname``, ``id``, ``package``) counted from
    its own test cases; the root counts the case runs (and the random games and
    the run's own test case), not the rule verdicts, which judge those same runs
    again. The timestamp is the run's (when it ended). An engine that was
    never available is one errored test case, not one per case run; a run
    stopped early says so in an errored ``run complete`` test case.
    """
    context = _SuiteContext(
        stamp=summary.ended
        if summary is not None
        else datetime.now(timezone.utc).replace(microsecond=0).isoformat(),
        hostname=socket.gethostname() or "localhost",
        properties=_properties(info, summary),
    )
    suites = ElementTree.Element("testsuites", name="matador-conformance", timestamp=context.stamp)
    if summary is not None and (summary.judged_nothing(runs) or summary.interrupted):
        _junit_run(context.suite(suites, "run"), runs, summary)
    if summary is not None and summary.judged_nothing(runs):
        runs = []
    for variant in tally(runs):
        suite = context.suite(suites, variant)
        for run in runs:
            if run.variant == variant:
                _junit_case(suite, run)
    verdicts = rule_verdicts(runs, random=summary.random if summary is not None else None)
    rules_suite = context.suite(suites, "rules")
    for verdict in verdicts:
        case = ElementTree.SubElement(
            rules_suite,
            "testcase",
            classname="rules",
            name=f"{verdict.name} ({verdict.section})",
            time="0.0000",
        )
        if verdict.blamed_somewhere:
            message = blame_text(verdict)
            text = "\n".join(rule_lines([verdict]))
            kind = "rule" if verdict.standing is Standing.BROKEN else "implicated"
            ElementTree.SubElement(case, "failure", message=message, type=kind).text = text
        elif verdict.standing is Standing.NOT_JUDGED:
            ElementTree.SubElement(case, "skipped", message=blame_text(verdict))
        elif not verdict.quiet:
            ElementTree.SubElement(case, "system-out").text = blame_text(verdict)
    if summary is not None and summary.random is not None:
        _junit_random(context.suite(suites, "random games"), summary.random)
    for suite in suites:
        _count(suite, suite.findall("testcase"))
    runs_counted = [suite for suite in suites if suite is not rules_suite]
    _count(suites, [case for suite in runs_counted for case in suite.findall("testcase")])
    _inert(suites)
    ElementTree.indent(suites)
    stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    stream.write(ElementTree.tostring(suites, encoding="unicode") + "\n")


def _inert(root: ElementTree.Element) -> None:
    """Every attribute and text of the tree through :func:`~reference_engine.sinks.xml`:
    a case's name, an engine's message or standard error may hold any character."""
    for element in root.iter():
        for name, value in element.attrib.items():
            element.attrib[name] = sinks.xml(value)
        if element.text:
            element.text = sinks.xml(element.text)


@dataclass(frozen=True)
class _SuiteContext:
    """What every suite of one report shares: when, where, and what was judged."""

    stamp: str
    hostname: str
    properties: tuple[tuple[str, str], ...]

    def suite(self, parent: ElementTree.Element, name: str) -> ElementTree.Element:
        suite = ElementTree.SubElement(
            parent,
            "testsuite",
            name=name,
            id=str(len(parent)),
            package="matador-conformance",
            timestamp=self.stamp,
            hostname=self.hostname,
        )
        properties = ElementTree.SubElement(suite, "properties")
        for key, value in self.properties:
            ElementTree.SubElement(properties, "property", name=key, value=value)
        return suite


def _properties(info: EngineInfo | None, summary: RunSummary | None) -> tuple[tuple[str, str], ...]:
    engine = (("engine", info.name), ("engine.version", info.version)) if info else ()
    slowness = summary.slowness if summary is not None else None
    slow = slowness.line() if slowness is not None else None
    noted = (("slow.replies", " ".join(slow.split())),) if slow else ()
    return (*engine, ("suite.version", SUITE_VERSION), *noted)


def _count(element: ElementTree.Element, cases: Sequence[ElementTree.Element]) -> None:
    """Set the totals of a suite (or the root) from the test cases under it."""
    element.set("tests", str(len(cases)))
    for kind, attribute in (("failure", "failures"), ("error", "errors"), ("skipped", "skipped")):
        element.set(attribute, str(sum(1 for case in cases if case.find(kind) is not None)))
    element.set("time", f"{sum(float(case.get('time', '0')) for case in cases):.4f}")


def _junit_case(suite: ElementTree.Element, run: CaseRun) -> None:
    """One case run: passed, or failed, errored, skipped, with what went wrong."""
    case = ElementTree.SubElement(
        suite,
        "testcase",
        classname=run.variant,
        name=f"{run.case}[{run.target.label()}]",
        time=f"{run.seconds:.4f}",
    )
    if run.verdict is Verdict.FAIL:
        ElementTree.SubElement(
            case, "failure", message=run.message, type=run.verdict.value
        ).text = failure_text(run)
    elif run.verdict in (Verdict.ERROR, Verdict.BROKEN, Verdict.NOT_RUN):
        ElementTree.SubElement(
            case, "error", message=run.message, type=run.verdict.value
        ).text = failure_text(run)
    elif run.verdict is Verdict.SKIP:
        ElementTree.SubElement(case, "skipped", message=run.message)


def _junit_run(suite: ElementTree.Element, runs: Sequence[CaseRun], summary: RunSummary) -> None:
    """The run as a whole: an engine never available, or a run stopped before its end."""
    if summary.judged_nothing(runs):
        name, message = "engine available", f"engine unavailable: {summary.unavailable}"
        text = summary_text(summary, runs) + not_judged_text(runs)
    else:
        name, message = "run complete", summary_text(summary, runs).strip().splitlines()[-1]
        text = summary_line(runs, summary)
    case = ElementTree.SubElement(suite, "testcase", classname="run", name=name, time="0")
    ElementTree.SubElement(case, "error", message=message, type="run").text = text


def _junit_random(suite: ElementTree.Element, result: DifferentialResult) -> None:
    """The random games: a failing test case per kind of divergence, an error each."""
    if not result.divergences and not result.errors:
        ElementTree.SubElement(
            suite, "testcase", classname="random", name=f"{result.hands} hands agree", time="0"
        )
    for divergence in result.divergences:
        lines = divergence_lines(divergence)
        case = ElementTree.SubElement(
            suite,
            "testcase",
            classname=f"random.{divergence.variant}",
            name=lines[0],
            time="0",
        )
        ElementTree.SubElement(
            case, "failure", message=lines[0], type="divergence"
        ).text = "\n".join(lines)
    for error in result.errors:
        case = ElementTree.SubElement(
            suite, "testcase", classname="random", name=str(error), time="0"
        )
        ElementTree.SubElement(case, "error", message=str(error), type="error").text = "\n".join(
            error_lines(error)
        )


def write_markdown(
    runs: Sequence[CaseRun],
    info: EngineInfo | None,
    stream: TextIO,
    summary: RunSummary | None = None,
) -> None:
    """Markdown for a README or an issue: the table, the rules, and every failure listed."""
    name = f"{info.name} {info.version}" if info else "engine"
    stream.write(f"Matador conformance of **{_text(name)}** (suite {SUITE_VERSION})\n\n")
    stream.write(f"**{_text(summary_line(runs, summary))}**\n\n")
    notes = summary_text(summary, runs)
    if summary is not None and summary.judged_nothing(runs):
        notes += not_judged_text(runs)
    else:
        verdicts = rule_verdicts(runs, random=summary.random if summary is not None else None)
        notes = "\n".join(filter(None, [notes, *declared_lines(info, verdicts)]))
    if notes:
        stream.write("".join(f"> {_note(line)}\n" for line in notes.splitlines()) + "\n")
    if summary is not None and summary.judged_nothing(runs):
        return  # no table of zeros
    header = " | ".join(v.value.replace("_", " ") for v in VERDICTS)
    stream.write(f"| variant | {header} |\n|---|" + "---:|" * len(VERDICTS) + "\n")
    for variant, counts in tally(runs).items():
        stream.write(
            f"| {_text(variant)} | " + " | ".join(str(counts[v]) for v in VERDICTS) + " |\n"
        )
    total = totals(runs)
    stream.write("| **all** | " + " | ".join(f"**{total[v]}**" for v in VERDICTS) + " |\n")
    if summary is not None and summary.random is not None:
        _markdown_random(summary.random, stream)
    verdicts = rule_verdicts(runs, random=summary.random if summary is not None else None)
    if verdicts:
        _markdown_rules(verdicts, stream)
    _markdown_failures(runs, stream, summary)


def _markdown_rules(verdicts: Sequence[RuleVerdict], stream: TextIO) -> None:
    """The verdict per rule, then each broken or implicated rule's smallest example."""
    stream.write(
        "\n## Rules\n\n| rule | section | held | failed | verdict | in cases | in random games |\n"
        "|---|---|---:|---:|---|---:|---:|\n"
    )
    for verdict in verdicts:
        standing = verdict.standing
        shown = f"**{standing.value}**" if verdict.blamed_somewhere else standing.value
        scripted = verdict.blamed or verdict.implicated
        random = verdict.random_blamed or verdict.random_implicated
        stream.write(
            f"| {_text(verdict.name)} | {_section(verdict.section)} | {verdict.held} "
            f"| {verdict.failed} "
            f"| {shown} | {scripted} | {random} |\n"
        )
    for verdict in verdicts:
        if verdict.quiet:
            continue
        stream.write(f"\n### {_text(verdict.name)} ({_section(verdict.section)})\n\n")
        stream.write(f"{_text(blame_text(verdict))}.\n\n")
        if verdict.source:
            stream.write(f"Source: {_text(verdict.source)}\n\n")
        lines = [line for line in rule_lines([verdict])[1:] if "source:" not in line]
        if lines:
            stream.write(sinks.markdown_fence(lines))


def _markdown_failures(
    runs: Sequence[CaseRun], stream: TextIO, summary: RunSummary | None = None
) -> None:
    """Every failing expectation, grouped by case run: a heading per run with the command
    that reruns it, a row per expectation (the rules' citations are said once, under
    Rules); then the runs that errored or were broken, each with its command too."""
    rows = failure_rows(runs)
    command = summary.command if summary is not None else None
    if rows:
        stream.write(f"\n## Failures\n\n{len(rows)} expectation(s) did not hold.\n")
    failed = [run for run in runs if run.verdict is Verdict.FAIL and run.deviations]
    start = 0
    for run in failed:
        mine = rows[start : start + len(run.deviations)]
        start += len(run.deviations)
        stream.write(f"\n### {_code(run.case)} {_text(f'[{run.target.label()}]')}\n\n")
        rerun = rerun_command(command, run)
        if rerun:
            stream.write(f"Rerun: {_code(rerun)}\n\n")
        stream.write("| step | expected | got | rule | section |\n|---|---|---|---|---|\n")
        for row in mine:
            _markdown_row(row, stream)
    problems = [run for run in runs if run.verdict in (Verdict.ERROR, Verdict.BROKEN)]
    if problems:
        stream.write("\n## Errors and broken cases\n\n| case | verdict | what happened |\n")
        stream.write("|---|---|---|\n")
    for run in problems:
        cells = [_code(run.case), _text(f"[{run.target.label()}]"), run.verdict.value]
        rerun = rerun_command(command, run)
        again = f"; rerun: {_code(rerun)}" if rerun else ""
        cells = [f"{cells[0]} {cells[1]}", cells[2], _text(run.message) + again]
        stream.write("| " + " | ".join(cells) + " |\n")


def _markdown_row(row: FailureRow, stream: TextIO) -> None:
    """One failing expectation as a table row: where, what was expected and given, by which
    rules (their citations are the Rules section's)."""
    rules = "; ".join(note.name for note in row.rules) or "none named"
    sections = ", ".join(
        _section(section) for section in dict.fromkeys(n.section for n in row.rules)
    )
    cells = [
        _text(f"{row.where}: {row.message}"),
        _value(row.expected),
        _value(row.got),
        _text(rules),
        sections,
    ]
    stream.write("| " + " | ".join(cells) + " |\n")


def _markdown_random(result: DifferentialResult, stream: TextIO) -> None:
    """The random games: their count, a row per divergence, the errors, then the replays."""
    stream.write(f"\n## Random games\n\n{_text(result.summary())}.\n")
    rows = divergence_rows(result)
    if rows:
        stream.write(
            "\n| variant, game | step | expected | got | rule | section |\n"
            "|---|---|---|---|---|---|\n"
        )
    for row in rows:
        stream.write(f"| {_text(f'[{row.target}] {row.game}')} ")
        _markdown_row(row, stream)
    if result.errors:
        stream.write("\n" + "".join(f"- ERROR {_text(str(error))}\n" for error in result.errors))
        replays = [error for error in result.errors if error.deals]
        if replays:
            stream.write("\nTo replay each error: the deals and the actions played.\n\n")
            stream.write(sinks.markdown_fence([ln for e in replays for ln in error_lines(e)]))
    if rows:
        stream.write("\nTo replay each divergence: the deals and the actions played.\n\n")
        lines = [line for d in result.divergences for line in divergence_lines(d)]
        stream.write(sinks.markdown_fence(lines))


def _note(line: str) -> str:
    """A line of the run's notes, its indentation kept (an engine's standard error shows
    under the line that says whose it is, never as a line of the report's own)."""
    indent = len(line) - len(line.lstrip(" "))
    return "&ensp;" * indent + _text(line)


def _section(section: str) -> str:
    """``SPEC 6.3`` as a link to that section of the specification (as text when unknown)."""
    url = section_url(section)
    return f"[{_text(section)}]({url})" if url else _text(section)


def _text(text: str) -> str:
    """Any text, the engine's included, as literal Markdown on one line (also in a cell)."""
    return sinks.markdown(text)


def _code(text: str) -> str:
    """Any text as a code span that fits in a table cell."""
    return sinks.markdown_code(text, cell=True)


def _value(text: str) -> str:
    """An expected or given value as a code span (none: an empty cell)."""
    return _code(text) if text else ""
