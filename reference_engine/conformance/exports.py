"""Reports for other tools: JUnit XML for CI systems, Markdown to paste in a README.

Both carry what the terminal table does (:mod:`.report`): the verdicts, every
deviation, the verdict per rule, and the random games' divergences.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone
from typing import TextIO
from xml.etree import ElementTree

from .cases import SUITE_VERSION
from .differential import DifferentialResult
from .engine import EngineInfo
from .report import VERDICTS, RunSummary, _xml, failure_text, summary_text, tally, totals
from .rulereport import deviation_lines, divergence_lines, random_lines, rule_lines, rule_verdicts
from .verdicts import CaseRun, Verdict


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
    if summary is not None and summary.random is not None:
        _junit_random(suites, summary.random, stamp)
    stream.write(ElementTree.tostring(suites, encoding="unicode") + "\n")


def _junit_random(suites: ElementTree.Element, result: DifferentialResult, stamp: str) -> None:
    """A ``random games`` suite: a failing test case per kind of divergence, an error each."""
    suite = ElementTree.SubElement(
        suites,
        "testsuite",
        name="random games",
        tests=str(len(result.divergences) + len(result.errors) or 1),
        failures=str(len(result.divergences)),
        errors=str(len(result.errors)),
        skipped="0",
        timestamp=stamp,
    )
    if not result.divergences and not result.errors:
        ElementTree.SubElement(
            suite, "testcase", classname="random", name=f"{result.hands} hands agree"
        )
    for divergence in result.divergences:
        lines = divergence_lines(divergence)
        case = ElementTree.SubElement(suite, "testcase", classname="random", name=lines[0])
        ElementTree.SubElement(case, "failure", message=_xml(lines[0])).text = _xml(
            "\n".join(lines)
        )
    for error in result.errors:
        case = ElementTree.SubElement(suite, "testcase", classname="random", name=_xml(error))
        ElementTree.SubElement(case, "error", message=_xml(error), type="error")


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
    if summary is not None and summary.random is not None:
        stream.write("\n## Random games\n\n```text\n")
        stream.write("\n".join(random_lines(summary.random)) + "\n```\n")
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
