"""Every failing expectation of a run as a row a report can list, with its rules' citations.

The Markdown and HTML reports list each :class:`~.verdicts.Deviation` of each
failed case run, not only counts: :func:`failure_rows` gives one
:class:`FailureRow` per deviation, with the case, the hand and step (counted
from 1), what was expected and what the engine gave (as every report writes
them, :func:`~.rulereport.shown`), and for each rule behind it the SPEC section
and the citation of the variant file that sets its value (publication,
section and paraphrase; the option or gap it comes through). The position is
read back from its notation (:func:`read_position`) so that it can be drawn.
Runs that did not get as far as an expectation (an error, a broken case, a
case not run) are :class:`ProblemRow` s. Each divergence of the random games
is a row too (:func:`divergence_rows`), with the game that reproduces it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from ...notation import END, NUMBER, halves
from ...rules import Catalog, Citation, Rules
from ...rules.errors import RulesError
from ...rules.sources import titled
from ..analysis.rulereport import FIXED_NAMES, value_label
from ..analysis.ruletext import difference_lines, shown
from ..judging.attribution import section
from ..judging.divergences import DifferentialResult
from ..judging.verdicts import CaseRun, Deviation, Verdict
from .randomreport import as_deviation, replay_lines

#: The verdicts of a run that never reached its expectations.
PROBLEMS = (Verdict.ERROR, Verdict.BROKEN, Verdict.NOT_RUN)

_END = re.compile(rf"(?:^| )(?P<name>{END}):")
_HOLDS = re.compile(rf"^seat (?P<seat>{NUMBER}) to act holds ?(?P<tiles>.*)$")
_BONEYARD = re.compile(r"^boneyard (?P<count>[0-9]+)$")


@dataclass(frozen=True)
class RuleNote:
    """A rule behind a failure: its name and value, its SPEC section, where the value comes from."""

    rule: str
    name: str
    section: str
    sources: tuple[Citation, ...] = ()
    #: The option (``name=value``) that set the value, if one did.
    option: str = ""
    #: The gap in the source whose reading the value is, if it is one.
    gap: str = ""

    @property
    def citation(self) -> str:
        """The citation in one line ("" for a rule the SPEC fixes for every variant)."""
        parts = [f"option {self.option}"] if self.option else []
        parts.extend(
            f"{c.publication}, {c.section} (text {c.text}): {c.says}" for c in self.sources
        )
        if self.gap:
            parts.append(f"a reading of gap {self.gap}")
        return "; ".join(parts)


@dataclass(frozen=True)
class OpenEnd:
    """One open end of the line: its name (``L``), its values and its notation."""

    name: str
    values: tuple[int, ...]
    notation: str


@dataclass(frozen=True)
class PositionView:
    """A position as the runner wrote it, read back: ends, the hand to act, the boneyard."""

    text: str
    ends: tuple[OpenEnd, ...] = ()
    seat: int | None = None
    hand: tuple[tuple[int, int], ...] = ()
    boneyard: int | None = None
    over: bool = False


@dataclass(frozen=True)
class FailureRow:
    """One expectation an engine did not meet, ready to list."""

    #: Its place in the report, from 1 (an anchor for links).
    number: int
    case: str
    variant: str
    target: str
    file: str
    line: int | None
    check: str
    message: str
    hand: int | None
    step: int | None
    expected: str
    got: str
    differences: tuple[str, ...]
    rules: tuple[RuleNote, ...]
    position: PositionView | None
    history: tuple[str, ...]
    #: For a random game's divergence: the game (players, strategy, seed), and its replay.
    game: str = ""
    replay: tuple[str, ...] = ()

    @property
    def anchor(self) -> str:
        """Its fragment identifier: ``failure-3``, or ``divergence-3`` for a random game's."""
        return f"{'divergence' if self.game else 'failure'}-{self.number}"

    @property
    def where(self) -> str:
        """``hand 1, step 2`` (from 1), ``hand 1`` for a hand's result, or ``the match``."""
        place = []
        if self.hand is not None:
            place.append(f"hand {self.hand + 1}")
        if self.step is not None:
            place.append(f"step {self.step + 1}")
        return ", ".join(place) or "the match"

    @property
    def rule_names(self) -> tuple[str, ...]:
        """The rules behind it, by registry name."""
        return tuple(note.rule for note in self.rules)


@dataclass(frozen=True)
class ProblemRow:
    """A case run that reached no verdict on its expectations: an error, broken, not run."""

    case: str
    variant: str
    target: str
    verdict: str
    message: str
    stderr: str


def read_position(text: str) -> PositionView | None:
    """The position a deviation gives in the notation, read back (None when it gives none)."""
    if not text:
        return None
    if text == "the hand is over":
        return PositionView(text=text, over=True)
    ends: tuple[OpenEnd, ...] = ()
    seat: int | None = None
    hand: tuple[tuple[int, int], ...] = ()
    boneyard: int | None = None
    for part in text.split("; "):
        if part.startswith("ends "):
            ends = _read_ends(part.removeprefix("ends "))
        elif (holds := _HOLDS.match(part)) is not None:
            seat = int(holds["seat"])
            tiles = [halves(word) for word in holds["tiles"].split()]
            hand = tuple(tile for tile in tiles if tile is not None)
        elif (count := _BONEYARD.match(part)) is not None:
            boneyard = int(count["count"])
    return PositionView(text=text, ends=ends, seat=seat, hand=hand, boneyard=boneyard)


def _read_ends(text: str) -> tuple[OpenEnd, ...]:
    """``L:5 R:2/5 identical free`` as open ends (an end's notation may hold spaces)."""
    marks = list(_END.finditer(text))
    ends = []
    for mark, following in zip(marks, [*marks[1:], None], strict=True):
        notation = text[mark.end() : following.start() if following else len(text)].strip()
        first = notation.split(" ", 1)[0]
        values = tuple(int(v) for v in first.split("/") if v.isdigit())
        ends.append(OpenEnd(name=mark["name"], values=values, notation=notation))
    return tuple(ends)


def rule_note(rules: Rules, rule: str) -> RuleNote:
    """``rule`` under ``rules``: its name with the value in force, section and citations."""
    value = value_label(rules, rule)
    name = f"{rule} = {value}" if value else FIXED_NAMES.get(rule, rule)
    provenance = rules.provenance.get(rule)
    if provenance is None:
        return RuleNote(rule=rule, name=name, section=section(rule))
    sources = tuple(
        replace(cite, says=" ".join(cite.says.split())) for cite in titled(provenance.cite)
    )
    return RuleNote(
        rule=rule,
        name=name,
        section=section(rule),
        sources=tuple(dict.fromkeys(sources)),
        option="=".join(provenance.option) if provenance.option else "",
        gap=provenance.gap or "",
    )


def _row(number: int, run: CaseRun, deviation: Deviation, rules: Rules | None) -> FailureRow:
    key = ""
    if deviation.check.value in ("result", "match") and len(deviation.message.split()) > 1:
        key = deviation.message.split()[1]  # "points differ": the seat-ordered key
    notes = tuple(
        rule_note(rules, rule) if rules is not None else RuleNote(rule, rule, section(rule))
        for rule in deviation.rules
    )
    return FailureRow(
        number=number,
        case=run.case,
        variant=run.variant,
        target=run.target.label(),
        file=run.file,
        line=run.line,
        check=deviation.check.value,
        message=deviation.message,
        hand=deviation.hand,
        step=deviation.step,
        expected=shown(deviation.expected, key),
        got=shown(deviation.actual, key),
        differences=tuple(difference_lines(deviation)),
        rules=notes,
        position=read_position(deviation.position),
        history=deviation.history,
    )


def _resolved(catalog: Catalog, variant: str, options: Mapping[str, str]) -> Rules | None:
    try:
        return catalog.resolve(variant, dict(options))
    except RulesError:  # a variant or option this catalog lacks: no citations
        return None


def divergence_rows(
    result: DifferentialResult | None, catalog: Catalog | None = None
) -> list[FailureRow]:
    """One row per kind of divergence the random games found, numbered from 1."""
    if result is None:
        return []
    catalog = catalog if catalog is not None else Catalog.shipped()
    rows: list[FailureRow] = []
    for divergence in result.divergences:
        rules = _resolved(catalog, divergence.variant, divergence.options)
        run = CaseRun(case="random games", target=divergence.target, verdict=Verdict.FAIL)
        row = _row(len(rows) + 1, run, as_deviation(divergence), rules)
        rows.append(
            replace(
                row,
                case=f"random {divergence.game_text}",
                check=divergence.what,
                game=divergence.game_text,
                replay=tuple(replay_lines(divergence)),
            )
        )
    return rows


def failure_rows(runs: Iterable[CaseRun], catalog: Catalog | None = None) -> list[FailureRow]:
    """One row per deviation of every failed run, in the order of the runs."""
    catalog = catalog if catalog is not None else Catalog.shipped()
    resolved: dict[str, Rules | None] = {}
    rows: list[FailureRow] = []
    for run in runs:
        if run.verdict is not Verdict.FAIL:
            continue
        label = run.target.label()
        if label not in resolved:
            resolved[label] = _resolved(catalog, run.target.variant, run.target.options)
        for deviation in run.deviations:
            rows.append(_row(len(rows) + 1, run, deviation, resolved[label]))
    return rows


def problem_rows(runs: Sequence[CaseRun]) -> list[ProblemRow]:
    """The runs that errored, were broken, or were not run."""
    return [
        ProblemRow(
            case=run.case,
            variant=run.variant,
            target=run.target.label(),
            verdict=run.verdict.value,
            message=run.message,
            stderr=run.stderr,
        )
        for run in runs
        if run.verdict in PROBLEMS
    ]
