"""Judging an engine from its game records: the rule-by-rule verdict ``conform`` gives, from what
the engine played.

An engine that can only log its games (a game server, a program with no API)
is judged from its records (spec/record.schema.json): each record is one run,
named by its file, under the variant and options it names. Every action the
record holds is an action the engine allowed: the reference must allow it too
(a check of its own, blamed on the rules that refuse it, narrowed by
:mod:`.counterfactual` as a case's deviation is). Every result and match total
the record gives is compared with what the rules make of the hands, field by
field (:mod:`.base`). A lot drawn for the opener (``lot``: the tiles each seat
drew, round by round) is checked against the seat the deal names, where the
rules make the lot by drawing.

Each hand is judged on its own: where the reference cannot follow the record
(an action the rules refuse), the rest of that hand is not judged, the next hand
is, and the match totals are then not compared. An opening the rules refuse is
followed as laid (:func:`~.referenceside.anchored`), so what comes after it is
judged too.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from ..engine.actions import Action
from ..engine.deal import DESIGNATED_RULE, deal_problems, lot_is_drawn
from ..engine.hand.refusals import why_not
from ..engine.lot import read_lot
from ..engine.match import Match
from ..engine.recordcheck import RecordSyntaxError, parse_record, schema_findings
from ..engine.recordformat import outcome_data
from ..errors import NotationError
from ..exits import ExitStatus
from ..rules import Catalog, Rules, RulesError
from ..safeio import FileKind, FileProblem, InputError, read_input
from ..sinks import printable
from .judging import attribution, fields
from .judging.attribution import FixedRule
from .judging.checking import Checks, Reference
from .judging.counterfactual import Explainer
from .judging.verdicts import CaseRun, Check, Verdict
from .protocol.declarations import Declaration
from .protocol.interface import EngineInfo
from .protocol.referenceside import anchored
from .reports.runreport import RunSummary
from .suite.casedata import ScriptedHand, Step, Target
from .transport.signals import Interrupted, stop_on_signals

#: The rule whose lot a record's ``lot`` is checked against (SPEC 6.2).
_LOT_RULE = DESIGNATED_RULE


def judge_record(name: str, record: Any, catalog: Catalog | None = None) -> CaseRun:
    """One record judged as one run (``broken`` when it cannot be read as a match at all)."""
    catalog = catalog or Catalog.shipped()
    problems = schema_findings(record)
    if problems:
        return _broken(name, Target("?"), "the record breaks its schema: " + str(problems[0]))
    target = Target(record["variant"], dict(record["options"]))
    try:
        rules = catalog.resolve(target.variant, target.options)
    except RulesError as error:
        return _broken(name, target, f"the record's variant cannot be resolved: {error}")
    defaults = {option.name: option.default for option in rules.options}
    target = Target(
        target.variant, {k: v for k, v in target.options.items() if defaults.get(k) != v}
    )
    players = record["players"]
    if players not in rules.players:
        return _broken(name, target, f"{rules.variant} is not played by {players} players")
    run = CaseRun(case=name, target=target, verdict=Verdict.PASS, players=players)
    _Judge(run, rules, players, record).judge()
    if run.deviations:
        first = run.deviations[0]
        run.verdict, run.message = Verdict.FAIL, first.message
        run.expected, run.actual = first.expected, first.actual
        run.hand, run.step, run.history = first.hand, first.step, list(first.history)
    return run


def _broken(name: str, target: Target, message: str) -> CaseRun:
    return CaseRun(case=name, target=target, verdict=Verdict.BROKEN, message=message)


def _scripted(raw: Mapping[str, Any]) -> ScriptedHand:
    """A record's hand as a script: its deal and its actions, each one step."""
    return ScriptedHand(
        deal=raw["deal"],
        steps=tuple(Step(act=text) for text in raw["actions"]),
        result=raw.get("result"),
    )


class _Judge:
    """The checks of one record, hand by hand."""

    def __init__(self, run: CaseRun, rules: Rules, players: int, record: Any) -> None:
        self.run, self.rules, self.players, self.record = run, rules, players, record
        self.reference = Reference(rules, players)
        self.checks = Checks(run, self.reference, False, Declaration())
        self.checks.explainer = Explainer(
            [_scripted(raw) for raw in record["hands"]], rules, players, True, lambda _: set()
        )
        #: Whether the match totals still follow the record's hands.
        self.followed = True

    def judge(self) -> None:
        for index, raw in enumerate(self.record["hands"]):
            self.run.hand, self.run.step, self.run.history = index, None, []
            self._hand(index, raw)
        if "match" in self.record and self.followed and self.reference.match is not None:
            self._match(self.record["match"])

    def _hand(self, index: int, raw: Mapping[str, Any]) -> None:
        checks, deal = self.checks, raw["deal"]
        match = self._closed_match()
        if self.followed and match is not None and match.is_over:
            checks.check(
                False,
                Check.DEAL,
                attribution.match_rules(self.rules, "winner"),
                "the record plays a hand after the match was won",
                None,
                "a deal",
            )
            self.followed = False
        broken = deal_problems(dict(deal), self.rules, self.players)
        if broken:
            rules = attribution.broken_deal_rules(self.rules, deal, self.players)
            checks.check(
                False,
                Check.DEAL,
                rules,
                "the record deals what the rules do not",
                "a deal of the rules",
                broken[0].message,
            )
            self.followed = False
            return
        checks.check(True, Check.DEAL, attribution.deal_rules(self.rules, deal), "")
        if raw.get("dealer", 0) >= self.players:
            checks.check(
                False,
                Check.DEAL,
                (FixedRule.DEAL.value,),
                "the record's dealer is no seat of the match",
                f"a seat below {self.players}",
                raw["dealer"],
            )
        if "lot" in raw:
            self._lot(raw["lot"], deal.get("designated"))
        match = self.reference.match
        expected = None if match is None or not self.followed else match.expected_designated()
        if expected is not None and deal.get("designated") != expected:
            checks.check(
                False,
                Check.DEAL,
                (_LOT_RULE,),
                "the record's deal names another designated opener than the rules",
                expected,
                deal.get("designated"),
            )
            self.followed = False
        if not self.followed:
            self.reference = Reference(self.rules, self.players)  # this hand on its own
            checks.reference = self.reference
        self.reference.new_hand(deal)
        if self.reference.hand is None:
            return
        for number, text in enumerate(raw["actions"]):
            self.run.step = number
            if not self._action(text):
                self.followed = False
                return
        self.run.step = None
        self._result(raw)

    def _closed_match(self) -> Match | None:
        """The reference's match, its last hand counted once it is over."""
        match = self.reference.match
        if match is not None and match.hands and match.hands[-1].is_over:
            match.close_hand()
        return match

    def _action(self, text: str) -> bool:
        """Check one action the engine played; whether the hand can be followed past it."""
        hand, checks = self.reference.hand, self.checks
        assert hand is not None
        position = self.reference.position
        rules = attribution.action_rules(position, text)
        try:
            action = Action.parse(text)
        except NotationError:
            checks.check(
                False,
                Check.NOTATION,
                (FixedRule.PROTOCOL.value,),
                f"{text!r} is not an action in the notation",
                "an action",
                text,
            )
            return False
        if hand.is_legal(action):
            checks.check(True, Check.ACCEPTED, rules, "")
            self.reference.apply(text, None)
            self.run.history.append(text)
            return True
        reason = why_not(hand, action).reason.value
        checks.check(
            False,
            Check.REFUSED,
            rules,
            f"{text} was played, which the rules refuse",
            reason,
            "accepted",
        )
        seat = None if hand.is_over else hand.current
        followed = None if seat is None else anchored(self.rules, hand, seat, text)
        if followed is None:
            return False  # not an opening: the rest of the hand is not the reference's
        self.reference.hand = followed
        self.run.history.append(text)
        return True

    def _result(self, raw: Mapping[str, Any]) -> None:
        hand, checks = self.reference.hand, self.checks
        assert hand is not None
        if "result" not in raw:
            return
        claimed = raw["result"]
        if hand.outcome is None:
            rules = attribution.result_rules(self.reference.position, "termination")
            checks.check(
                False,
                Check.RESULT,
                rules,
                "the record ends the hand before the rules do",
                None,
                claimed,
            )
            self.followed = False
            return
        position = self.reference.position
        differs = fields.result_rules(position, claimed)
        made = outcome_data(hand.outcome)
        for key, value in made.items():
            held = claimed.get(key) == value
            rules = attribution.result_rules(position, key) if held or differs is None else differs
            checks.check(
                held, Check.RESULT, rules, f"result {key} differs", value, claimed.get(key)
            )
        if made != {key: claimed.get(key) for key in made}:
            self.followed = False

    def _match(self, claimed: Mapping[str, Any]) -> None:
        match = self._closed_match()
        assert match is not None
        self.run.hand = self.run.step = None
        differs = fields.match_rules(match, claimed)
        made = {"scores": match.scores, "hands_won": match.hands_won, "winner": match.winner}
        for key, value in made.items():
            held = claimed.get(key) == value
            rules = attribution.match_rules(self.rules, key) if held or differs is None else differs
            self.checks.check(
                held, Check.MATCH, rules, f"match {key} differs", value, claimed.get(key)
            )

    def _lot(self, rounds: Any, designated: Any) -> None:
        """A lot drawn for the opener: a lot by drawing naming the deal's designated seat,
        where the rules make the lot by drawing (SPEC 6.2); elsewhere it is not judged."""
        if not lot_is_drawn(self.rules):
            self.checks.unjudged((_LOT_RULE,))
            return
        named, problems = read_lot(rounds, self.players, self.rules.max_pip)
        if problems:
            self.checks.check(
                False,
                Check.DEAL,
                (_LOT_RULE,),
                "the lot is not a lot by drawing",
                "a lot by drawing",
                problems[0].message,
            )
            return
        self.checks.check(
            named == designated,
            Check.DEAL,
            (_LOT_RULE,),
            "the lot drawn names another seat than the deal's designated opener",
            named,
            designated,
        )


def record_files(paths: Sequence[Path]) -> list[Path]:
    """The records ``paths`` name: each file, and every entry named ``*.json`` (in any
    case) under each folder, in name order, each once; an entry that is no regular file
    (a pipe, a folder, a broken link) is kept, to be refused by name when it is read.
    Raises :class:`InputError` for a path that does not exist or a folder with none."""
    files: list[Path] = []
    for path in paths:
        if not path.is_dir():
            if not path.exists():
                raise InputError(FileProblem.NOT_FOUND, path, "no such file or folder")
            files.append(path)
            continue
        found = sorted(p for p in path.rglob("*") if p.suffix.lower() == ".json")
        if not found:
            raise InputError(FileProblem.NOT_FOUND, path, "no game record (*.json) in this folder")
        files.extend(found)
    seen: set[str] = set()
    once = []
    for file in files:
        key = os.path.realpath(file) if not file.is_symlink() else str(file.absolute())
        if key not in seen:
            seen.add(key)
            once.append(file)
    return once


def judge_files(paths: Sequence[Path], report: str, stdout: TextIO, stderr: TextIO) -> int:
    """``matador replay`` over several records or folders: a run per record, the report of
    ``conform`` in format ``report``; 0 when every record follows its rules. A signal ends
    the judging: the records judged so far are reported, the rest counted as not run."""
    from .reports.writers import WRITERS

    try:
        files = record_files(paths)
    except InputError as error:
        stderr.write(f"matador replay: {error}\n")
        return ExitStatus.INVALID
    catalog = Catalog.shipped()
    runs: list[CaseRun] = []
    interrupted: Interrupted | None = None
    try:
        with stop_on_signals():
            for file in files:
                name = printable(str(file))
                try:
                    record = parse_record(read_input(file, FileKind.JSON))
                except (InputError, RecordSyntaxError) as error:
                    runs.append(_broken(name, Target("?"), f"the record cannot be read: {error}"))
                    continue
                runs.append(judge_record(name, record, catalog))
    except Interrupted as stop:
        interrupted = stop
    summary = RunSummary(planned=len(files), interrupted=interrupted.name if interrupted else None)
    judged = EngineInfo(name="game records", version=f"({len(files)} file(s))")
    WRITERS[report](runs, judged, stdout, summary)
    if interrupted is not None:
        stderr.write(
            f"matador replay: interrupted by {interrupted.name}: "
            f"{len(runs)} of {len(files)} records judged\n"
        )
        return interrupted.status
    bad = sum(run.verdict is not Verdict.PASS for run in runs)
    if bad and report != "table":
        stderr.write(f"matador replay: {bad} of {len(runs)} records do not follow their rules\n")
    return ExitStatus.INVALID if bad else ExitStatus.OK


def load_records(files: Sequence[Path], catalog: Catalog) -> tuple[list[Any], list[str]]:
    """The records in ``files`` that can be read as records of a shipped variant, and why
    each other cannot (``FILE: reason``)."""
    found, problems = [], []
    for file in files:
        shown = printable(str(file))
        try:
            record = parse_record(read_input(file, FileKind.JSON))
        except InputError as error:
            problems.append(printable(str(error)))
            continue
        except RecordSyntaxError as error:
            problems.append(f"{shown}: {error}")
            continue
        broken = schema_findings(record)
        if broken:
            problems.append(f"{shown}: the record breaks its schema: {broken[0]}")
            continue
        try:
            catalog.resolve(record["variant"], dict(record["options"]))
        except RulesError as error:
            problems.append(f"{shown}: {error}")
            continue
        found.append(record)
    return found, problems
