"""Compliance reports: a terminal table, JSON lines, JUnit XML, and Markdown."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any, TextIO
from xml.etree import ElementTree

from .cases import SUITE_VERSION
from .engine import PROTOCOL_VERSION, EngineInfo
from .runner import CaseRun, Verdict

VERDICTS = (Verdict.PASS, Verdict.FAIL, Verdict.ERROR, Verdict.SKIP)


def tally(runs: Sequence[CaseRun]) -> dict[str, Counter[Verdict]]:
    """Verdict counts per variant, in variant order."""
    table: dict[str, Counter[Verdict]] = {}
    for run in sorted(runs, key=lambda r: r.variant):
        table.setdefault(run.variant, Counter())[run.verdict] += 1
    return table


def totals(runs: Sequence[CaseRun]) -> Counter[Verdict]:
    """Verdict counts over the whole run."""
    return Counter(run.verdict for run in runs)


def _diff(expected: Any, actual: Any) -> list[str]:
    if isinstance(expected, list) and isinstance(actual, list):
        missing = [item for item in expected if item not in actual]
        extra = [item for item in actual if item not in expected]
        lines = []
        if missing:
            lines.append("    expected but missing: " + " ".join(map(str, missing)))
        if extra:
            lines.append("    present but unexpected: " + " ".join(map(str, extra)))
        if not lines:
            lines.append(f"    expected {expected!r}, got {actual!r}")
        return lines
    return [f"    expected: {expected!r}", f"    actual:   {actual!r}"]


def failure_text(run: CaseRun) -> str:
    """What went wrong in a failed or errored run, where, and how we got there."""
    where = f"{run.file}:{run.line}" if run.line else run.file
    lines = [f"{run.verdict.value.upper()} {run.case} [{run.target.label()}] ({where})"]
    place = []
    if run.hand is not None:
        place.append(f"hand {run.hand + 1}")
    if run.step is not None:
        place.append(f"step {run.step + 1}")
    lines.append("  " + (", ".join(place) + ": " if place else "") + run.message)
    if run.verdict is Verdict.FAIL and (run.expected is not None or run.actual is not None):
        lines.extend(_diff(run.expected, run.actual))
    if run.history:
        lines.append("  history: " + " ".join(run.history))
    return "\n".join(lines)


def write_table(runs: Sequence[CaseRun], info: EngineInfo | None, stream: TextIO) -> None:
    """The compliance table (variant x verdict) for a terminal, failures first."""
    from rich.console import Console
    from rich.table import Table

    for run in runs:
        if run.verdict in (Verdict.FAIL, Verdict.ERROR):
            stream.write(failure_text(run) + "\n\n")
    console = Console(file=stream, width=100, no_color=not stream.isatty())
    title = f"Matador conformance: {info.name} {info.version}" if info else "Matador conformance"
    table = Table(title=title)
    table.add_column("variant")
    for verdict in VERDICTS:
        table.add_column(verdict.value, justify="right")
    for variant, counts in tally(runs).items():
        table.add_row(variant, *(str(counts[v]) for v in VERDICTS))
    total = totals(runs)
    table.add_row("all", *(str(total[v]) for v in VERDICTS), style="bold")
    console.print(table)
    stream.write(_summary(runs) + "\n")


def _summary(runs: Sequence[CaseRun]) -> str:
    total = totals(runs)
    return (
        f"{total[Verdict.PASS]} passed, {total[Verdict.FAIL]} failed, "
        f"{total[Verdict.ERROR]} errored, {total[Verdict.SKIP]} skipped"
    )


def write_json(runs: Sequence[CaseRun], info: EngineInfo | None, stream: TextIO) -> None:
    """JSON lines: a header, one line per case run, a footer."""
    header = {
        "type": "header",
        "suite_version": SUITE_VERSION,
        "protocol": PROTOCOL_VERSION,
        "engine": None
        if info is None
        else {"name": info.name, "version": info.version, "protocol": info.protocol},
    }
    stream.write(json.dumps(header) + "\n")
    for run in runs:
        line = {
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
            "seconds": round(run.seconds, 4),
        }
        stream.write(json.dumps(line, default=str) + "\n")
    total = totals(runs)
    stream.write(json.dumps({"type": "footer", **{v.value: total[v] for v in VERDICTS}}) + "\n")


def write_junit(runs: Sequence[CaseRun], info: EngineInfo | None, stream: TextIO) -> None:
    """JUnit XML, one test case per case run, grouped by variant."""
    suites = ElementTree.Element("testsuites", name="matador-conformance")
    for variant in tally(runs):
        chosen = [run for run in runs if run.variant == variant]
        counts = totals(chosen)
        suite = ElementTree.SubElement(
            suites,
            "testsuite",
            name=variant,
            tests=str(len(chosen)),
            failures=str(counts[Verdict.FAIL]),
            errors=str(counts[Verdict.ERROR]),
            skipped=str(counts[Verdict.SKIP]),
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
                ElementTree.SubElement(case, "failure", message=run.message).text = failure_text(
                    run
                )
            elif run.verdict is Verdict.ERROR:
                ElementTree.SubElement(case, "error", message=run.message).text = failure_text(run)
            elif run.verdict is Verdict.SKIP:
                ElementTree.SubElement(case, "skipped", message=run.message)
    stream.write(ElementTree.tostring(suites, encoding="unicode") + "\n")


def write_markdown(runs: Sequence[CaseRun], info: EngineInfo | None, stream: TextIO) -> None:
    """A Markdown table for a README badge section."""
    name = f"{info.name} {info.version}" if info else "engine"
    stream.write(f"Matador conformance of **{name}** (suite {SUITE_VERSION})\n\n")
    stream.write("| variant | pass | fail | error | skip |\n|---|---:|---:|---:|---:|\n")
    for variant, counts in tally(runs).items():
        stream.write(f"| {variant} | " + " | ".join(str(counts[v]) for v in VERDICTS) + " |\n")
    total = totals(runs)
    stream.write("| **all** | " + " | ".join(f"**{total[v]}**" for v in VERDICTS) + " |\n")


WRITERS = {
    "table": write_table,
    "json": write_json,
    "junit": write_junit,
    "markdown": write_markdown,
}
