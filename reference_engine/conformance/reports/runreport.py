"""Compliance reports: a terminal table, JSON lines (streamed), JUnit XML, and Markdown.

Every writer takes the case runs, the engine's handshake and a
:class:`RunSummary` (was the run complete? was the engine unavailable?). The
JSON-lines report can also be streamed with :class:`JsonLinesReport`: the
header first, then one line per case as each ends (flushed), then the footer,
so an interrupted run keeps every finished case. An engine that was never
available gets a short "not judged" summary, not a table of zeros; the
summary line counts the random games' divergences and errors, and says when
the run is incomplete. Nothing written contains NaN or Infinity.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO, cast

from ... import sinks
from ...text.tables import style_for
from ..analysis.rulereport import RuleVerdict, Standing, rule_verdicts
from ..analysis.ruletext import deviation_data, deviation_lines, rule_data, rule_lines
from ..judging.divergences import DifferentialResult
from ..protocol.declarations import DERIVED_REASONS
from ..protocol.interface import PROTOCOL_VERSION, EngineInfo
from ..session.runner import CaseRun, Verdict
from ..suite.casedata import SUITE_VERSION
from ..transport.latency import Slowness
from .randomreport import divergence_data, error_data, random_lines
from .rerun import rerun_text
from .verdicttable import alarmed, write_verdict_table

#: The widest the table's title is drawn (an engine's long name is cut).
TITLE_WIDTH = 76

VERDICTS = (
    Verdict.PASS,
    Verdict.FAIL,
    Verdict.ERROR,
    Verdict.SKIP,
    Verdict.BROKEN,
    Verdict.NOT_RUN,
)


def _utc_now() -> str:
    """The time now, as a run's :attr:`RunSummary.ended` is written."""
    from datetime import datetime, timezone

    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


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
    #: What the random games found, when they were played (``--random``).
    random: DifferentialResult | None = None
    #: How many case runs were run before the run stopped (None: all of the runs given).
    finished: int | None = None
    #: How close the engine's replies came to their deadlines.
    slowness: Slowness | None = None
    #: When the run ended (ISO 8601, UTC, to the second): the time every report of it shows,
    #: and what a report drawn again from its JSON lines shows too.
    ended: str = field(default_factory=lambda: _utc_now())
    #: The command that started the run (:func:`.rerun.run_command`), if known.
    command: str | None = None

    @property
    def complete(self) -> bool:
        """Whether every selected case was run to a verdict."""
        return self.interrupted is None

    def judged_nothing(self, runs: Sequence[CaseRun]) -> bool:
        """Whether the engine was unavailable before any case run got a verdict."""
        return bool(self.unavailable) and all(run.verdict is Verdict.NOT_RUN for run in runs)


def _dumps(data: Any) -> str:
    return sinks.json_text(data, default=str)


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
        if run.deviations:  # what did not hold before the engine failed (why a case stopped)
            lines.append("  before that, expectations did not hold:")
            for deviation in run.deviations:
                lines.extend("    " + line for line in deviation_lines(deviation))
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
        if not summary.judged_nothing(runs):
            lines.append(f"  {not_run} case run(s) not run")
    if runs and all(run.verdict is Verdict.SKIP for run in runs):
        lines.append(
            "NOTHING JUDGED: every selected case was skipped (the engine declares none of "
            "them, or refuses them); this run is not a pass"
        )
    if summary.interrupted:
        lines.append(interruption_line(summary, runs))
    slow = summary.slowness.line() if summary.slowness is not None else None
    if slow:
        lines.append(slow)
    return "\n".join(lines) + ("\n" if lines else "")


def interruption_line(summary: RunSummary, runs: Sequence[CaseRun]) -> str:
    """``INTERRUPTED by SIGINT after 12 of 246 case run(s) ...``: where the run stopped."""
    finished = summary.finished if summary.finished is not None else len(runs)
    # A signal's name, or the option that stops at the first deviation (--fail-fast).
    how = "STOPPED" if (summary.interrupted or "").startswith("--") else "INTERRUPTED"
    planned = summary.planned if summary.planned is not None else finished
    if summary.random is not None and finished >= planned:
        text = (
            f"{how} by {summary.interrupted} in the random games, after all {finished} case run(s)"
        )
    else:
        text = f"{how} by {summary.interrupted} after {finished} of {planned} case run(s)"
        if finished < planned:
            text += f" ({planned - finished} not run)"
    return text + ": the run is incomplete"


def not_judged_text(runs: Sequence[CaseRun]) -> str:
    """The short summary of a run whose engine was never available: no table of zeros."""
    variants = len({run.variant for run in runs})
    return (
        f"NOT JUDGED: {len(runs)} case run(s) over {variants} variant(s) not run\n"
        f"{summary_line(runs)}\n"
    )


def write_table(
    runs: Sequence[CaseRun],
    info: EngineInfo | None,
    stream: TextIO,
    summary: RunSummary | None = None,
) -> None:
    """The compliance table (variant x verdict) for a terminal, failures first; through a
    :class:`~reference_engine.sinks.Terminal`, whatever the stream, as it shows an
    engine's text."""
    stream = cast(TextIO, sinks.Terminal(stream))
    if summary is not None and summary.judged_nothing(runs):
        stream.write(summary_text(summary, runs) + not_judged_text(runs))
        return
    style = style_for(stream, getattr(stream, "width", None))
    for run in runs:
        if run.verdict in (Verdict.FAIL, Verdict.ERROR, Verdict.BROKEN):
            again = rerun_text(summary.command if summary else None, run, style.width)
            stream.write(alarmed(failure_text(run), style) + again + "\n\n")
    verdicts = rule_verdicts(runs, random=summary.random if summary is not None else None)
    broken_rules = rule_lines(verdicts)
    if broken_rules:
        stream.write("\n".join(alarmed(line, style) for line in broken_rules) + "\n\n")
    if summary is not None and summary.random is not None:
        stream.write("\n".join(random_lines(summary.random)) + "\n\n")
    notes = summary_text(summary, runs)
    if notes:
        stream.write(notes + "\n")
    declared = declared_lines(info, verdicts)
    if declared:
        stream.write("\n".join(declared) + "\n")
    title = f"Matador conformance: {info.name} {info.version}".strip() if info else ""
    title = title or "Matador conformance"
    if len(title) > TITLE_WIDTH:  # (cut, not wrapped: a line of it must not stand alone)
        title = title[: TITLE_WIDTH - 3] + "..."
    header = ["variant", *(verdict.value.replace("_", " ") for verdict in VERDICTS)]
    rows = [
        [variant, *(str(counts[v]) for v in VERDICTS)] for variant, counts in tally(runs).items()
    ]
    total = totals(runs)
    rows.append(["all", *(str(total[v]) for v in VERDICTS)])
    write_verdict_table(stream, title, header, rows)
    stream.write(summary_line(runs, summary) + "\n")
    stream.write(rules_line(verdicts) + "\n")


def run_notes(summary: RunSummary, runs: Sequence[CaseRun]) -> list[str]:
    """The run-level notes a report carries, a line each (for standard error when the
    report itself goes to a file or to a machine)."""
    notes = [summary.unavailable and f"engine unavailable: {summary.unavailable}"]
    if runs and all(run.verdict is Verdict.SKIP for run in runs):
        notes.append("no case was run: every selected case was skipped")
    if summary.random is not None and summary.random.problems:
        notes.append(summary.random.summary())
    if summary.interrupted:
        how, rest = interruption_line(summary, runs).split(" ", 1)
        notes.append(f"{how.lower()} {rest}")
    slow = summary.slowness.line() if summary.slowness is not None else None
    if slow:
        notes.append(" ".join(slow.replace("SLOW REPLIES", "slow replies", 1).split()))
    return [note for note in notes if note]


def summary_line(runs: Sequence[CaseRun], summary: RunSummary | None = None) -> str:
    """The one-line count: ``N passed, N failed, ...``, the random games' divergences and
    errors, and whether the run is incomplete or judged nothing."""
    total = totals(runs)
    text = (
        f"{total[Verdict.PASS]} passed, {total[Verdict.FAIL]} failed, "
        f"{total[Verdict.ERROR]} errored, {total[Verdict.SKIP]} skipped"
    )
    if total[Verdict.BROKEN]:
        text += f", {total[Verdict.BROKEN]} broken"
    if total[Verdict.NOT_RUN]:
        text += f", {total[Verdict.NOT_RUN]} not run"
    if summary is None:
        return text
    if summary.random is not None:
        random = summary.random
        text += f"; random games: {random.hands} hand(s), {len(random.found)} kind(s) of divergence"
        if random.errors:
            text += f", {len(random.errors)} error(s)"
    if summary.judged_nothing(runs):
        text += "; not judged: the engine was unavailable"
    elif summary.interrupted:
        how = "stopped" if summary.interrupted.startswith("--") else "interrupted"
        text += f"; incomplete: {how} by {summary.interrupted}"
    return text


def derived_reasons(info: EngineInfo | None) -> bool:
    """Whether the engine's refusal reasons are the adapter kit's, derived from the reference."""
    return info is not None and info.extra.get("reasons") == DERIVED_REASONS


def declared_lines(info: EngineInfo | None, verdicts: Sequence[RuleVerdict]) -> list[str]:
    """What the engine's declarations did to the run, said once: reasons that are not its
    own, and the rules nothing judged because it declares it does not do what they need."""
    lines = []
    if derived_reasons(info):
        lines.append(
            "reasons: the refusal reasons are derived from the reference rules by the adapter "
            "kit, not the engine's own"
        )
    unjudged = [v.name for v in verdicts if v.standing is Standing.NOT_JUDGED]
    if unjudged:
        lines.append(
            "not judged, as the engine declares it does not do what they need: "
            + "; ".join(unjudged)
        )
    return lines


def rules_line(verdicts: Sequence[RuleVerdict]) -> str:
    """The one-line count of rules by standing (:class:`~.rulereport.Standing`).

    A rule is called broken only when the deviations single it out
    (:mod:`.blame`); a possible cause is implicated; a rule named by a failed
    expectation that another rule explains is cleared, one whose failures only
    follow an earlier deviation a consequence; a rule the engine's declaration
    took out entirely is not judged.
    """
    standing = Counter(verdict.standing for verdict in verdicts)
    broken, implicated = standing[Standing.BROKEN], standing[Standing.IMPLICATED]
    text = (
        f"rules: {standing[Standing.HELD]} held everywhere, {broken} broken, "
        f"{implicated} implicated"
    )
    for extra, words in (
        (Standing.CLEARED, "cleared"),
        (Standing.CONSEQUENCE, "consequences"),
        (Standing.NOT_JUDGED, "not judged"),
    ):
        if standing[extra]:
            text += f", {standing[extra]} {words}"
    return text + (" (each named above, with its smallest example)" if broken or implicated else "")


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
                else {
                    "name": info.name,
                    "version": info.version,
                    "protocol": info.protocol,
                    "derived_reasons": derived_reasons(info),
                    "extra": dict(info.extra),
                },
            }
        )

    def count(self, run: CaseRun) -> None:
        """Count a case run in the footer without a line of its own (one never run)."""
        self.counts[run.verdict] += 1

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
                # (what a report rendered from this line needs: matador report)
                "file": run.file,
                "line": run.line,
                "players": run.players,
                "held": dict(run.held),
                "failed": dict(run.failed),
                "not_judged": dict(run.not_judged),
                "resumed": [list(place) for place in run.resumed],
            }
        )

    def footer(self, summary: RunSummary | None = None) -> None:
        """The per-rule verdicts (one ``rule`` line each), then the counts and completeness."""
        summary = summary or RunSummary()
        for verdict in rule_verdicts(self.runs, random=summary.random):
            self._line(rule_data(verdict))
        extra: dict[str, Any] = {}
        if summary.random is not None:
            for divergence in summary.random.divergences:
                self._line(divergence_data(divergence))
            extra = {
                "random_hands": summary.random.hands,
                "divergences": len(summary.random.divergences),
                "random_errors": [error_data(error) for error in summary.random.errors],
            }
        self._line(
            {
                "type": "footer",
                **{v.value: self.counts[v] for v in VERDICTS},
                "complete": summary.complete,
                "interrupted": summary.interrupted,
                "planned": summary.planned,
                "finished": summary.finished if summary.finished is not None else len(self.runs),
                "judged": not summary.judged_nothing(self.runs),
                "summary": summary_line(self.runs, summary),
                "engine_unavailable": summary.unavailable,
                "engine_stderr": summary.stderr,
                "slow_replies": _slow_data(summary.slowness),
                "ended": summary.ended,
                "command": summary.command,
                **extra,
            }
        )


def _slow_data(slowness: Slowness | None) -> dict[str, Any] | None:
    """How close the replies came to their deadlines (:mod:`.latency`), or None."""
    if slowness is None:
        return None
    return {
        "replies": slowness.replies,
        "over_half_the_deadline": slowness.close,
        "slowest": [
            {"request": reply.kind, "seconds": round(reply.seconds, 4), "deadline": reply.deadline}
            for reply in slowness.slowest
        ],
    }


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
