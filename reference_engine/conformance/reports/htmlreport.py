"""The HTML conformance report: one self-contained page a person can read and filter.

:func:`write_html` renders ``templates/report.html.j2`` (Jinja2, imported only
here, and this module only when ``--report html`` is asked for) into a single
file: inline CSS and script, tiles drawn as inline SVG
(:mod:`reference_engine.sheets.svg`), no external resource. The page holds the
compliance table (verdicts per variant), the verdict per rule
(:mod:`.rulereport`) with the variant file's citations of each rule said once,
every case run, and the failing expectations (:mod:`.failures`) grouped by
variant and case run, each run with the command that reruns it
(:mod:`.rerun`): each expectation with its position drawn as tiles, what was
expected and what the engine gave, and the rules behind it, linked to their
row and to their SPEC section (:mod:`.speclinks`). In a long report only the
case runs holding a rule's smallest example are unfolded; a link to a failure
unfolds it. Each divergence of the random games is drawn the same way, with
the game and the deals that replay it. A "failing only" checkbox and filters
by variant and by rule show and hide rows; the page reads the same without
its script.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import TextIO

import jinja2
from markupsafe import Markup

from ... import sinks
from ...sheets import svg
from ..analysis.rulereport import FIXED_NAMES, RuleVerdict, Standing, rule_verdicts
from ..analysis.ruletext import blame_text
from ..judging.verdicts import CaseRun, Verdict
from ..protocol.interface import PROTOCOL_VERSION, EngineInfo
from ..suite.casedata import SUITE_VERSION
from .failures import (
    FailureRow,
    OpenEnd,
    PositionView,
    RuleNote,
    divergence_rows,
    failure_rows,
    problem_rows,
)
from .rerun import rerun_command
from .runreport import (
    VERDICTS,
    RunSummary,
    rules_line,
    summary_line,
    summary_text,
    tally,
    totals,
)
from .speclinks import section_url

TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"

#: The verdicts that make a row "failing" for the filter.
_FAILING = frozenset({Verdict.FAIL, Verdict.ERROR, Verdict.BROKEN, Verdict.NOT_RUN})

#: Points per user unit of the tile drawings (a tile is 40 units wide).
_SCALE = 1.3

#: At most this many tiles of a hand in one row of its drawing.
_TILES_PER_ROW = 7


@dataclass(frozen=True)
class VariantRow:
    """One row of the compliance table."""

    variant: str
    counts: tuple[int, ...]
    failing: bool
    #: Whether the failures section lists expectations of this variant.
    listed: bool


@dataclass(frozen=True)
class RuleRow:
    """One rule of the per-rule profile, with the failure its smallest example is."""

    verdict: RuleVerdict
    #: The number of the failure that is its smallest example (0: none).
    example: int
    example_label: str
    #: How the rule stands, in words (empty when it held).
    blame: str = ""
    #: The rule as a failure names it, with its citations (None: no failure names it).
    note: RuleNote | None = None


@dataclass(frozen=True)
class CaseRow:
    """One case run, for the list of every case run."""

    case: str
    target: str
    variant: str
    verdict: str
    failing: bool
    seconds: float
    rules: str
    #: The number of its first failure in the failures section (0: none).
    first_failure: int
    message: str


@dataclass(frozen=True)
class CaseFailures:
    """The failing expectations of one case run, with the command that reruns it."""

    case: str
    target: str
    file: str
    line: int | None
    rerun: str | None
    failures: tuple[FailureRow, ...]

    @property
    def anchor(self) -> str:
        """Its fragment identifier: ``case-`` and the number of its first failure."""
        return f"case-{self.failures[0].number}"


@dataclass(frozen=True)
class FailureGroup:
    """The failures of one variant, by case run."""

    variant: str
    cases: tuple[CaseFailures, ...]

    @property
    def failures(self) -> tuple[FailureRow, ...]:
        """Every failing expectation of the variant, in order."""
        return tuple(row for case in self.cases for row in case.failures)


@dataclass(frozen=True)
class RuleChoice:
    """One entry of the filter by rule."""

    rule: str
    label: str


def slug(text: str) -> str:
    """``text`` as a fragment identifier: letters, digits and hyphens."""
    return "".join(c if c.isascii() and c.isalnum() else "-" for c in text.lower())


def breakable(text: str) -> Markup:
    """``text`` escaped, with line breaks allowed after its commas and before a ``[``.

    A variant with options (``ID[NAME=VALUE,NAME=VALUE]``) is one long word.
    """
    html = sinks.html(text)
    return Markup(html.replace(",", ",<wbr>").replace("[", "<wbr>["))


# --------------------------------------------------------------------------- tiles


def _end_picture(end: OpenEnd, x: float, y: float) -> list[str]:
    """An open end: the outer half of the line's last tile, its values' pips, its name."""
    size, parts = svg.UNIT, []
    edge = size * 0.03  # half the stroke: the outline stays inside the clip
    for index, value in enumerate(end.values or (0,)):
        left = x + index * (size + 4)
        # A nested <svg> clips a tile to its first half: a square with the end's pips.
        parts.append(
            f'<svg x="{left}" y="{y}" width="{size}" height="{size}" viewBox="0 0 {size} {size}">'
            + svg.tile(value, value, 0, 0, size=size)
            + f'<rect x="{edge}" y="{edge}" width="{size - 2 * edge}" height="{size - 2 * edge}" '
            f'rx="{size * 0.14}" fill="none" stroke="{svg.INK}" stroke-width="{2 * edge}"/>'
            "</svg>"
        )
    width = max(1, len(end.values)) * (size + 4) - 4
    parts.append(svg.label(end.name, x + width / 2, y + size * 1.6, size=size))
    return parts


def ends_svg(position: PositionView) -> Markup:
    """The open ends of the line, left to right ("" when no tile is down)."""
    if not position.ends:
        return Markup("")
    pad, x, body = 4.0, 4.0, []
    for end in position.ends:
        body.extend(_end_picture(end, x, pad))
        x += max(1, len(end.values)) * (svg.UNIT + 4) + svg.UNIT * 0.6
    title = "the open ends: " + ", ".join(f"{end.name} {end.notation}" for end in position.ends)
    return Markup(svg.document(x, pad + svg.UNIT * 1.9, body, sinks.printable(title), scale=_SCALE))


def hand_svg(position: PositionView) -> Markup:
    """The tiles of the seat to act, in rows of at most seven."""
    if not position.hand:
        return Markup("")
    size, gap, pad = svg.UNIT, 4.0, 2.0
    rows = [
        position.hand[start : start + _TILES_PER_ROW]
        for start in range(0, len(position.hand), _TILES_PER_ROW)
    ]
    body = [
        svg.tile(first, second, pad + column * (2 * size + gap), pad + row * (size + gap))
        for row, tiles in enumerate(rows)
        for column, (first, second) in enumerate(tiles)
    ]
    width = pad * 2 + min(len(position.hand), _TILES_PER_ROW) * (2 * size + gap) - gap
    height = pad * 2 + len(rows) * (size + gap) - gap
    held = " ".join(f"{first}-{second}" for first, second in position.hand)
    title = f"seat {position.seat} holds {held}"
    return Markup(svg.document(width, height, body, sinks.printable(title), scale=_SCALE))


# --------------------------------------------------------------------------- the page


def _shown(value: object) -> object:
    """A value as a template shows it: markup as it is, anything else printable (and then
    escaped by the template)."""
    return value if isinstance(value, (Markup, int, float)) else sinks.printable(value)


@cache
def environment() -> jinja2.Environment:
    """The template environment (autoescaped; a missing name is an error, not a blank)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIR),
        autoescape=True,
        # every value shown: markup the report built itself, or text made printable
        # (an engine's text may hold control, invisible and text-reversing characters)
        finalize=_shown,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["slug"] = slug
    env.filters["breakable"] = breakable
    env.filters["spec_links"] = spec_links
    env.globals["ends_svg"] = ends_svg
    env.globals["hand_svg"] = hand_svg
    return env


def _first_failures(runs: Sequence[CaseRun]) -> tuple[dict[int, int], dict[int, int]]:
    """The failure number of each deviation and of each run's first one, by ``id``."""
    by_deviation: dict[int, int] = {}
    by_run: dict[int, int] = {}
    number = 0
    for run in runs:
        if run.verdict is not Verdict.FAIL:
            continue
        for deviation in run.deviations:
            number += 1
            by_deviation[id(deviation)] = number
            by_run.setdefault(id(run), number)
    return by_deviation, by_run


def _rule_rows(
    verdicts: Sequence[RuleVerdict],
    numbers: dict[int, int],
    failures: Sequence[FailureRow] = (),
) -> list[RuleRow]:
    """A row per rule and value; its citations said once, here, for every failure naming it."""
    notes: dict[str, RuleNote] = {}
    for failure in failures:
        for named in failure.rules:
            notes.setdefault(named.name, named)
    rows = []
    for verdict in verdicts:
        number, label = 0, ""
        if verdict.example is not None:
            run, deviation = verdict.example
            number = numbers.get(id(deviation), 0)
            label = f"{run.case} [{run.target.label()}]"
        if not verdict.blamed_somewhere:
            number, label = 0, ""
        blame = "" if verdict.quiet else blame_text(verdict)
        rows.append(
            RuleRow(
                verdict=verdict,
                example=number,
                example_label=label,
                blame=blame,
                note=notes.get(verdict.name),
            )
        )
    return rows


def _case_rows(runs: Sequence[CaseRun], first: dict[int, int]) -> list[CaseRow]:
    return [
        CaseRow(
            case=run.case,
            target=run.target.label(),
            variant=run.variant,
            verdict=run.verdict.value,
            failing=run.verdict in _FAILING,
            seconds=run.seconds,
            rules=" ".join(sorted(set(run.held) | set(run.failed))),
            first_failure=first.get(id(run), 0),
            message=run.message if run.verdict is not Verdict.PASS else "",
        )
        for run in runs
    ]


def _groups(
    rows: Sequence[FailureRow], runs: Sequence[CaseRun], command: str | None
) -> list[FailureGroup]:
    """The failures by variant, then by case run (in the order of the runs)."""
    by_run = {(run.case, run.target.label()): run for run in runs if run.verdict is Verdict.FAIL}
    cases: dict[tuple[str, str], list[FailureRow]] = {}
    for row in rows:
        cases.setdefault((row.case, row.target), []).append(row)
    grouped: dict[str, list[CaseFailures]] = {}
    for (case, target), mine in cases.items():
        run = by_run.get((case, target))
        rerun = rerun_command(command, run) if run is not None else None
        first = mine[0]
        grouped.setdefault(first.variant, []).append(
            CaseFailures(case, target, first.file, first.line, rerun, tuple(mine))
        )
    return [FailureGroup(variant, tuple(grouped[variant])) for variant in sorted(grouped)]


#: Up to this many failing expectations, every case run's failures are shown unfolded.
UNFOLDED = 12


def _open_cases(groups: Sequence[FailureGroup], rules: Sequence[RuleRow]) -> frozenset[str]:
    """The case runs shown unfolded: every one in a short report, else those holding a
    rule's smallest example (the rest fold under their summary line)."""
    cases = [case for group in groups for case in group.cases]
    if sum(len(case.failures) for case in cases) <= UNFOLDED:
        return frozenset(case.anchor for case in cases)
    examples = {row.example for row in rules if row.example}
    return frozenset(
        case.anchor for case in cases if any(row.number in examples for row in case.failures)
    )


def spec_links(text: str) -> Markup:
    """``text`` escaped, each ``SPEC 6.3`` in it a link to that section of the specification."""

    def linked(found: re.Match[str]) -> str:
        url = section_url(found[0])
        return f'<a href="{sinks.html(url)}">{found[0]}</a>' if url else found[0]

    return Markup(re.sub(r"SPEC \d+(?:\.\d+)*", linked, sinks.html(text)))


def render_html(
    runs: Sequence[CaseRun],
    info: EngineInfo | None,
    summary: RunSummary | None = None,
    *,
    now: datetime | None = None,
) -> str:
    """The report as one HTML document."""
    failures = failure_rows(runs)
    by_deviation, by_run = _first_failures(runs)
    verdicts = rule_verdicts(runs, random=summary.random if summary is not None else None)
    groups = _groups(failures, runs, summary.command if summary is not None else None)
    listed = {group.variant for group in groups}
    variant_rows = [
        VariantRow(
            variant=variant,
            counts=tuple(counts[v] for v in VERDICTS),
            failing=any(counts[v] for v in _FAILING),
            listed=variant in listed,
        )
        for variant, counts in tally(runs).items()
    ]
    rule_names = sorted({verdict.rule for verdict in verdicts})
    choices = [RuleChoice(rule, FIXED_NAMES.get(rule, rule)) for rule in rule_names]
    total = totals(runs)
    if now is not None:
        stamp = now.replace(microsecond=0).isoformat()
    else:
        stamp = summary.ended if summary is not None else RunSummary().ended
    rule_rows = _rule_rows(
        verdicts,
        by_deviation,
        [*failures, *divergence_rows(summary.random if summary is not None else None)],
    )
    template = environment().get_template("report.html.j2")
    return template.render(
        engine=f"{info.name} {info.version}" if info else "an unnamed engine",
        suite_version=SUITE_VERSION,
        protocol=PROTOCOL_VERSION,
        generated=stamp,
        summary=summary_line(runs, summary),
        notes=summary_text(summary, runs).splitlines(),
        judged=summary is None or not summary.judged_nothing(runs),
        verdict_names=[v.value.replace("_", " ") for v in VERDICTS],
        variant_rows=variant_rows,
        totals=[total[v] for v in VERDICTS],
        rule_rows=rule_rows,
        broken_rules=sum(1 for verdict in verdicts if verdict.standing is Standing.BROKEN),
        rules_line=rules_line(verdicts).partition(" (")[0],
        case_rows=_case_rows(runs, by_run),
        groups=groups,
        open_cases=_open_cases(groups, rule_rows),
        failure_count=len(failures),
        problems=problem_rows(runs),
        random=summary.random if summary is not None else None,
        divergences=divergence_rows(summary.random if summary is not None else None),
        variants=[row.variant for row in variant_rows],
        rule_choices=choices,
    )


def write_html(
    runs: Sequence[CaseRun],
    info: EngineInfo | None,
    stream: TextIO,
    summary: RunSummary | None = None,
) -> None:
    """The report as one self-contained HTML page (``--report html``)."""
    stream.write(render_html(runs, info, summary))
