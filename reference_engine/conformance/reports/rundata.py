"""A run read back from its JSON-lines report: the record every other format is drawn from.

``matador conform --report json`` writes the run as it goes: a header (the
engine), a line per case run with everything a report shows of it (its
verdict, each deviation with its rules, facets and position, the expectations
that held and failed per rule, the steps it was played again without), the
rules, and a footer. :func:`read_run` reads such a file back into the same
:class:`~.verdicts.CaseRun` objects, :class:`~.engine.EngineInfo` and
:class:`~.report.RunSummary` the run had, so ``matador report`` draws any
format from it as the run itself would have, and :func:`compare` says what
changed between two runs of an engine. The random games' divergences are
counted in the footer but not read back (a report drawn from the file says
so).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ... import strictjson
from ...errors import InputProblem
from ...sinks import inline, printable
from ..analysis.rulereport import RuleVerdict, Standing, rule_verdicts
from ..judging.verdicts import CaseRun, Check, Deviation, Verdict
from ..protocol.interface import EngineInfo, FailureKind
from ..suite.casedata import Target
from ..transport.latency import Slowness, SlowReply
from .runreport import RunSummary

#: What a run needs to be read: the JSON report's first line names it.
HEADER = "header"


class RunFileError(InputProblem, ValueError):
    """A file that is not a run's JSON-lines report, or not all of one; says where."""


@dataclass(frozen=True)
class SavedRun:
    """A run as its report keeps it."""

    runs: tuple[CaseRun, ...]
    info: EngineInfo | None
    summary: RunSummary
    #: How many random games the run played (their divergences are not read back).
    random_hands: int = 0


def read_run(lines: Iterable[str], where: str) -> SavedRun:
    """The run whose JSON-lines report ``lines`` are; RunFileError naming ``where``."""
    runs: list[CaseRun] = []
    info: EngineInfo | None = None
    footer: Mapping[str, Any] | None = None
    headed = False
    reader = strictjson.decoder()
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        place = f"{where}:{number}"
        try:
            data = strictjson.loads(text, reader)
        except ValueError as error:
            raise RunFileError(f"{place}: not a line of JSON ({error})") from None
        kind = data.get("type") if isinstance(data, dict) else None
        if not headed:
            if kind != HEADER:
                raise RunFileError(
                    f"{place}: the first line is no run header; give the file "
                    "matador conform --report json wrote"
                )
            headed = True
            info = _engine(data.get("engine"), place)
        elif kind == "case":
            runs.append(_case(data, place))
        elif kind == "footer":
            footer = data
    if not headed:
        raise RunFileError(f"{where}: empty; give the file matador conform --report json wrote")
    if footer is None:
        raise RunFileError(f"{where}: no footer: the run was cut off before it ended")
    return SavedRun(tuple(runs), info, _summary(footer), _int(footer.get("random_hands"), 0))


def _engine(data: Any, place: str) -> EngineInfo | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise RunFileError(f"{place}: the engine is not an object")
    extra = data.get("extra")
    return EngineInfo(
        inline(data.get("name", "")),
        inline(data.get("version", "")),
        inline(data.get("protocol", "")),
        extra=dict(extra) if isinstance(extra, dict) else {},
    )


def _case(data: Mapping[str, Any], place: str) -> CaseRun:
    try:
        options = data.get("options") or {}
        run = CaseRun(
            case=inline(data["case"]),
            target=Target(
                inline(data["variant"]), {inline(k): inline(v) for k, v in options.items()}
            ),
            verdict=Verdict(data["verdict"]),
            message=inline(data.get("message", "")),
            file=inline(data.get("file", "")),
            line=data.get("line"),
            hand=data.get("hand"),
            step=data.get("step"),
            expected=data.get("expected"),
            actual=data.get("actual"),
            history=[inline(action) for action in data.get("history") or []],
            seconds=float(data.get("seconds") or 0.0),
            failure=None if data.get("failure") is None else FailureKind(data["failure"]),
            stderr=printable(data.get("stderr", "")),
            deviations=[_deviation(item) for item in data.get("deviations") or []],
            held=Counter(data.get("held") or {}),
            failed=Counter(data.get("failed") or {}),
            not_judged=Counter(data.get("not_judged") or {}),
            players=_int(data.get("players"), 0),
            resumed=[(int(hand), step) for hand, step in data.get("resumed") or []],
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise RunFileError(f"{place}: a case line of the wrong shape ({error})") from None
    return run


def _deviation(data: Mapping[str, Any]) -> Deviation:
    holds = data.get("holds")
    return Deviation(
        Check(data["check"]),
        inline(data["message"]),
        data.get("expected"),
        data.get("actual"),
        tuple(inline(rule) for rule in data.get("rules") or []),
        hand=data.get("hand"),
        step=data.get("step"),
        history=tuple(inline(action) for action in data.get("history") or []),
        position=inline(data.get("position") or ""),
        facets=tuple(tuple(inline(rule) for rule in facet) for facet in data.get("facets") or []),
        holds=None if holds is None else tuple(inline(tile) for tile in holds),
    )


def _summary(footer: Mapping[str, Any]) -> RunSummary:
    slow = footer.get("slow_replies")
    slowness = None
    if isinstance(slow, dict):
        slowness = Slowness(
            _int(slow.get("replies"), 0),
            _int(slow.get("over_half_the_deadline"), 0),
            tuple(
                SlowReply(str(item["request"]), float(item["seconds"]), float(item["deadline"]))
                for item in slow.get("slowest") or []
                if isinstance(item, dict)
            ),
        )
    interrupted = footer.get("interrupted")
    return RunSummary(
        planned=footer.get("planned"),
        interrupted=None if interrupted is None else str(interrupted),
        unavailable=footer.get("engine_unavailable") or None,
        stderr=str(footer.get("engine_stderr") or ""),
        finished=footer.get("finished"),
        slowness=slowness,
        command=footer["command"] if isinstance(footer.get("command"), str) else None,
        **({"ended": footer["ended"]} if isinstance(footer.get("ended"), str) else {}),
    )


def _int(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


# --------------------------------------------------------------------------- comparing


@dataclass(frozen=True)
class Change:
    """What differs between two runs of an engine."""

    #: Rules (with their values) broken or implicated now, not before.
    broken: tuple[str, ...]
    #: Rules broken or implicated before, not now.
    fixed: tuple[str, ...]
    #: Case runs whose verdict changed: (case [variant], before, now).
    verdicts: tuple[tuple[str, str, str], ...]
    #: Case runs in one run only: (case [variant], "before" or "now").
    alone: tuple[tuple[str, str], ...]

    @property
    def worse(self) -> bool:
        """Whether the newer run breaks a rule the older did not, or fails a case it passed."""
        return bool(self.broken) or any(
            before == Verdict.PASS.value and now != Verdict.PASS.value
            for _, before, now in self.verdicts
        )


def compare(old: SavedRun, new: SavedRun) -> Change:
    """What changed from ``old`` to ``new``."""
    was, now = _blamed(rule_verdicts(old.runs)), _blamed(rule_verdicts(new.runs))
    before = {_label(run): run.verdict.value for run in old.runs}
    after = {_label(run): run.verdict.value for run in new.runs}
    return Change(
        broken=tuple(sorted(now - was)),
        fixed=tuple(sorted(was - now)),
        verdicts=tuple(
            (label, before[label], after[label])
            for label in sorted(before.keys() & after.keys())
            if before[label] != after[label]
        ),
        alone=tuple(
            sorted(
                [(label, "before") for label in before.keys() - after.keys()]
                + [(label, "now") for label in after.keys() - before.keys()]
            )
        ),
    )


def _blamed(verdicts: Sequence[RuleVerdict]) -> set[str]:
    return {
        f"{verdict.name} ({verdict.section})"
        for verdict in verdicts
        if verdict.standing in (Standing.BROKEN, Standing.IMPLICATED)
    }


def _label(run: CaseRun) -> str:
    return f"{run.case} [{run.target.label()}]"


def change_lines(change: Change) -> list[str]:
    """The change in words, a line each (none when nothing changed)."""
    lines = [f"newly broken: {rule}" for rule in change.broken]
    lines += [f"fixed: {rule}" for rule in change.fixed]
    lines += [f"{label}: {before} -> {now}" for label, before, now in change.verdicts]
    lines += [f"{label}: only in the {which} run" for label, which in change.alone]
    return lines
