"""Compliance reports: a terminal table, JSON lines (streamed), JUnit XML, and Markdown.

Every writer takes the case runs, the engine's handshake and a
:class:`RunSummary` (was the run complete? was the engine unavailable?). The
JSON-lines report can also be streamed with :class:`JsonLinesReport`: the
header first, then one line per case as each ends (flushed), then the footer,
so an interrupted run keeps every finished case. Nothing written contains
NaN or Infinity.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, TextIO
from xml.etree import ElementTree

from .cases import SUITE_VERSION
from .engine import PROTOCOL_VERSION, EngineInfo
from .rulereport import (
    RuleVerdict,
    deviation_data,
    deviation_lines,
    rule_data,
    rule_lines,
    rule_verdicts,
)
from .runner import CaseRun, Verdict

VERDICTS = (
    Verdict.PASS,
    Verdict.FAIL,
    Verdict.ERROR,
    Verdict.SKIP,
    Verdict.BROKEN,
    Verdict.NOT_RUN,
)


@dataclass(frozen=True)
class RunSummary:
    """What a report says about the run as a whole, beyond its case verdicts."""

    #: How many case runs were selected (more than were run when interrupted).
    planned: int | None = None
    #: The signal that interrupted the run (``SIGINT``, ``SIGTERM``), if one did.
    interrupted: str | None = None
    #: Why the engine is unavailable, if it is; said once, not per case.
    unavailable: str | None = None
    #: The tail of the unavailable engine's standard error.
    stderr: str = ""

    @property
    def complete(self) -> bool:
        """Whether every selected case was run to a verdict."""
        return self.interrupted is None


#: Characters XML 1.0 cannot carry (an engine's messages and stderr may hold any).
_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _dumps(data: Any) -> str:
    return json.dumps(data, default=str, allow_nan=False, ensure_ascii=False)


def tally(runs: Sequence[CaseRun]) -> dict[str, Counter[Verdict]]:
    """Verdict counts per variant, in variant order."""
    table: dict[str, Counter[Verdict]] = {}
    for run in sorted(runs, key=lambda r: r.variant):
        table.setdefault(run.variant, Counter())[run.verdict] += 1
    return table


def totals(runs: Sequence[CaseRun]) -> Counter[Verdict]:
    """Verdict counts over the whole run."""
    return Counter(run.verdict for run in runs)


def failure_text(run: CaseRun) -> str:
    """What went wrong in a failed or errored run: every deviation, its rules, how we got there."""
    where = f"{run.file}:{run.line}" if run.line else run.file
    lines = [f"{run.verdict.value.upper()} {run.case} [{run.target.label()}] ({where})"]
    if run.verdict is Verdict.FAIL and run.deviations:
        count = len(run.deviations)
        if count > 1:
            lines.append(f"  {count} expectations did not hold:")
        for deviation in run.deviations:
            lines.extend("  " + line for line in deviation_lines(deviation))
    else:
        place = []
        if run.hand is not None:
            place.append(f"hand {run.hand + 1}")
        if run.step is not None:
            place.append(f"step {run.step + 1}")
        lines.append("  " + (", ".join(place) + ": " if place else "") + run.message)
        if run.history:
            lines.append("  after: " + " ".join(run.history))
    if run.stderr:
        lines.append("  engine stderr (last lines):")
        lines.extend("    " + line for line in run.stderr.splitlines())
    return "\n".join(lines)


def summary_text(summary: RunSummary | None, runs: Sequence[CaseRun]) -> str:
    """The run-level notes: an unavailable engine (once), an interruption."""
    if summary is None:
        return ""
    lines = []
    if summary.unavailable:
        not_run = sum(1 for run in runs if run.verdict is Verdict.NOT_RUN)
        lines.append(f"ENGINE UNAVAILABLE: {summary.unavailable}")
        if summary.stderr:
            lines.append("  engine stderr (last lines):")
            lines.extend("    " + line for line in summary.stderr.splitlines())
        lines.append(f"  {not_run} case run(s) not run")
    if runs and all(run.verdict is Verdict.SKIP for run in runs):
        lines.append(
            "NOTHING JUDGED: every selected case was skipped (the engine declares none of "
            "them, or refuses them); this run is not a pass"
        )
    if summary.interrupted:
        planned = f" of {summary.planned}" if summary.planned is not None else ""
        lines.append(
            f"INTERRUPTED by {summary.interrupted} after {len(runs)}{planned} case run(s); "
            "the report holds the finished ones"
        )
    return "\n".join(lines) + ("\n" if lines else "")


def write_table(
    runs: Sequence[CaseRun],
    info: EngineInfo | None,
    stream: TextIO,
    summary: RunSummary | None = None,
) -> None:
    """The compliance table (variant x verdict) for a terminal, failures first."""
    from rich.console import Console
    from rich.table import Table

    for run in runs:
        if run.verdict in (Verdict.FAIL, Verdict.ERROR, Verdict.BROKEN):
            stream.write(failure_text(run) + "\n\n")
    verdicts = rule_verdicts(runs)
    broken_rules = rule_lines(verdicts)
    if broken_rules:
        stream.write("\n".join(broken_rules) + "\n\n")
    notes = summary_text(summary, runs)
    if notes:
        stream.write(notes + "\n")
    console = Console(file=stream, width=80, no_color=not stream.isatty())
    title = f"Matador conformance: {info.name} {info.version}" if info else "Matador conformance"
    table = Table(title=title)
    table.add_column("variant")
    for verdict in VERDICTS:
        table.add_column(verdict.value.replace("_", " "), justify="right")
    for variant, counts in tally(runs).items():
        table.add_row(variant, *(str(counts[v]) for v in VERDICTS))
    total = totals(runs)
    table.add_row("all", *(str(total[v]) for v in VERDICTS), style="bold")
    console.print(table)
    stream.write(summary_line(runs) + "\n")
    stream.write(rules_line(verdicts) + "\n")


def summary_line(runs: Sequence[CaseRun]) -> str:
    """The one-line count of verdicts: ``N passed, N failed, ...``."""
    total = totals(runs)
    text = (
        f"{total[Verdict.PASS]} passed, {total[Verdict.FAIL]} failed, "
        f"{total[Verdict.ERROR]} errored, {total[Verdict.SKIP]} skipped"
    )
    if total[Verdict.BROKEN]:
        text += f", {total[Verdict.BROKEN]} broken"
    if total[Verdict.NOT_RUN]:
        text += f", {total[Verdict.NOT_RUN]} not run"
    return text


def rules_line(verdicts: Sequence[RuleVerdict]) -> str:
    """The one-line count of rules: how many held everywhere, how many an engine broke."""
    broken = sum(1 for verdict in verdicts if verdict.failed)
    text = f"rules: {len(verdicts) - broken} held everywhere, {broken} broken"
    return text + (" (each named above, with its smallest example)" if broken else "")


class JsonLinesReport:
    """The JSON-lines report, written as the run goes: header, one line per case, footer."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.counts: Counter[Verdict] = Counter()
        self.runs: list[CaseRun] = []

    def _line(self, data: Any) -> None:
        self.stream.write(_dumps(data) + "\n")
        self.stream.flush()

    def header(self, info: EngineInfo | None) -> None:
        """The first line: suite and protocol versions, and the engine's handshake."""
        self._line(
            {
                "type": "header",
                "suite_version": SUITE_VERSION,
                "protocol": PROTOCOL_VERSION,
                "engine": None
                if info is None
                else {"name": info.name, "version": info.version, "protocol": info.protocol},
            }
        )

    def case(self, run: CaseRun) -> None:
        """One finished case run."""
        self.counts[run.verdict] += 1
        self.runs.append(run)
        self._line(
            {
                "type": "case",
                "case": run.case,
                "variant": run.variant,
                "options": dict(run.target.options),
                "verdict": run.verdict.value,
                "message": run.message,
                "hand": run.hand,
                "step": run.step,
                "expected": run.expected,
                "actual": run.actual,
                "history": run.history,
                "failure": None if run.failure is None else run.failure.value,
                "stderr": run.stderr,
                "deviations": [deviation_data(deviation) for deviation in run.deviations],
                "seconds": round(run.seconds, 4),
            }
        )

    def footer(self, summary: RunSummary | None = None) -> None:
        """The per-rule verdicts (one ``rule`` line each), then the counts and completeness."""
        summary = summary or RunSummary()
        for verdict in rule_verdicts(self.runs):
            self._line(rule_data(verdict))
        self._line(
            {
                "type": "footer",
                **{v.value: self.counts[v] for v in VERDICTS},
                "complete": summary.complete,
                "interrupted": summary.interrupted,
                "engine_unavailable": summary.unavailable,
                "engine_stderr": summary.stderr,
            }
        )


def write_json(
    runs: Sequence[CaseRun],
    info: EngineInfo | None,
    stream: TextIO,
    summary: RunSummary | None = None,
) -> None:
    """JSON lines: a header, one line per case run, a footer."""
    report = JsonLinesReport(stream)
    report.header(info)
    for run in runs:
        report.case(run)
    report.footer(summary)


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
    expectation on it failed. Totals and the time of the report are on every
    suite and on the root.
    """
    stamp = datetime.now(timezone.utc).replace(microsecond=0).isoformat()
    total = totals(runs)
    suites = ElementTree.Element(
        "testsuites",
        name="matador-conformance",
        tests=str(len(runs)),
        failures=str(total[Verdict.FAIL]),
        errors=str(total[Verdict.ERROR] + total[Verdict.BROKEN] + total[Verdict.NOT_RUN]),
        skipped=str(total[Verdict.SKIP]),
        time=f"{sum(run.seconds for run in runs):.4f}",
        timestamp=stamp,
    )
    for variant in tally(runs):
        chosen = [run for run in runs if run.variant == variant]
        counts = totals(chosen)
        suite = ElementTree.SubElement(
            suites,
            "testsuite",
            name=variant,
            tests=str(len(chosen)),
            failures=str(counts[Verdict.FAIL]),
            errors=str(counts[Verdict.ERROR] + counts[Verdict.BROKEN] + counts[Verdict.NOT_RUN]),
            skipped=str(counts[Verdict.SKIP]),
            time=f"{sum(run.seconds for run in chosen):.4f}",
            timestamp=stamp,
        )
        for run in chosen:
            case = ElementTree.SubElement(
                suite,
                "testcase",
                classname=variant,
                name=f"{run.case}[{run.target.label()}]",
                time=f"{run.seconds:.4f}",
            )
            if run.verdict is Verdict.FAIL:
                ElementTree.SubElement(case, "failure", message=_xml(run.message)).text = _xml(
                    failure_text(run)
                )
            elif run.verdict in (Verdict.ERROR, Verdict.BROKEN, Verdict.NOT_RUN):
                ElementTree.SubElement(
                    case, "error", message=_xml(run.message), type=run.verdict.value
                ).text = _xml(failure_text(run))
            elif run.verdict is Verdict.SKIP:
                ElementTree.SubElement(case, "skipped", message=_xml(run.message))
    verdicts = rule_verdicts(runs)
    rules_suite = ElementTree.SubElement(
        suites,
        "testsuite",
        name="rules",
        tests=str(len(verdicts)),
        failures=str(sum(1 for verdict in verdicts if verdict.failed)),
        errors="0",
        skipped="0",
        timestamp=stamp,
    )
    for verdict in verdicts:
        case = ElementTree.SubElement(
            rules_suite, "testcase", classname="rules", name=f"{verdict.name} ({verdict.section})"
        )
        if verdict.failed:
            message = f"{verdict.failed} expectation(s) failed, {verdict.held} held"
            text = "\n".join(rule_lines([verdict]))
            ElementTree.SubElement(case, "failure", message=_xml(message)).text = _xml(text)
    stream.write(ElementTree.tostring(suites, encoding="unicode") + "\n")


def write_markdown(
    runs: Sequence[CaseRun],
    info: EngineInfo | None,
    stream: TextIO,
    summary: RunSummary | None = None,
) -> None:
    """A Markdown table for a README badge section."""
    name = f"{info.name} {info.version}" if info else "engine"
    stream.write(f"Matador conformance of **{name}** (suite {SUITE_VERSION})\n\n")
    notes = summary_text(summary, runs)
    if notes:
        stream.write("".join(f"> {line}\n" for line in notes.splitlines()) + "\n")
    header = " | ".join(v.value.replace("_", " ") for v in VERDICTS)
    stream.write(f"| variant | {header} |\n|---|" + "---:|" * len(VERDICTS) + "\n")
    for variant, counts in tally(runs).items():
        stream.write(f"| {variant} | " + " | ".join(str(counts[v]) for v in VERDICTS) + " |\n")
    total = totals(runs)
    stream.write("| **all** | " + " | ".join(f"**{total[v]}**" for v in VERDICTS) + " |\n")
    verdicts = rule_verdicts(runs)
    if not verdicts:
        return
    stream.write("\n## Rules\n\n| rule | section | held | failed |\n|---|---|---:|---:|\n")
    for verdict in verdicts:
        failed = f"**{verdict.failed}**" if verdict.failed else "0"
        name = _cell(verdict.name)
        stream.write(f"| {name} | {verdict.section} | {verdict.held} | {failed} |\n")
    for verdict in verdicts:
        if not verdict.failed or verdict.example is None:
            continue
        run, deviation = verdict.example
        stream.write(f"\n### {_cell(verdict.name)} ({verdict.section})\n\n")
        if verdict.source:
            stream.write(f"Source: {_cell(verdict.source)}\n\n")
        stream.write(f"Smallest example: `{run.case}` [{run.target.label()}]\n\n```text\n")
        stream.write("\n".join(deviation_lines(deviation)) + "\n```\n")


def _cell(text: str) -> str:
    """Text safe in a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


WRITERS = {
    "table": write_table,
    "json": write_json,
    "junit": write_junit,
    "markdown": write_markdown,
}
