"""Game records (spec/record.schema.json): writing them, and replaying them to settle disputes."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import jsonschema

from ..errors import DealError, IllegalActionError, NotationError, Reason
from ..rules import Catalog, Citation, Rules, RulesError
from ..rules.datafiles import spec_dir
from ..rules.schema import StrictValidator
from ..rules.vocabulary import TextEnum
from ..strictjson import NotStrictJson, unique_keys
from .actions import DRAW, Action, AnyAction, Play
from .deal import Deal, deal_problems
from .hand import Hand, Phase
from .match import Match
from .scoring import Outcome
from .strategies import Strategy

RECORD_FORMAT = "matador-record/1"


@cache
def record_schema() -> dict[str, Any]:
    """The record JSON Schema."""
    return json.loads((spec_dir() / "record.schema.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def outcome_data(outcome: Outcome) -> dict[str, Any]:
    """A hand's result as record data."""
    return {
        "termination": outcome.termination.value,
        "winner": outcome.winner,
        "pips": list(outcome.pips),
        "points": list(outcome.points),
    }


def match_record(
    match: Match,
    *,
    seed: int | None = None,
    strategy: str | None = None,
) -> dict[str, Any]:
    """The record of a match as played so far."""
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "variant": match.rules.variant,
        "options": dict(match.rules.chosen),
        "players": match.players,
    }
    if seed is not None:
        record["seed"] = seed
    if strategy is not None:
        record["strategy"] = strategy
    record["hands"] = [
        {
            "deal": hand.deal.to_data(),
            "actions": [str(action) for action in hand.history],
            **({"result": outcome_data(hand.outcome)} if hand.outcome else {}),
        }
        for hand in match.hands
    ]
    record["match"] = {
        "scores": list(match.scores),
        "hands_won": list(match.hands_won),
        "winner": match.winner,
    }
    return record


def play_match(
    rules: Rules,
    players: int,
    *,
    seed: int | None,
    strategy: Strategy,
    max_hands: int | None = None,
) -> Match:
    """Play a match (or its first ``max_hands`` hands) choosing actions with ``strategy``."""
    match = Match(rules, players, seed=seed)
    chooser = random.Random(None if seed is None else seed + 1)
    while not match.is_over and (max_hands is None or len(match.hands) < max_hands):
        hand = match.new_hand()
        while not hand.is_over:
            hand.apply(strategy(hand, hand.legal_actions(), chooser))
        match.close_hand()
    return match


# --------------------------------------------------------------------------- replay


class FindingKind(TextEnum):
    """What is wrong with a game record: the closed vocabulary of ``matador replay``.

    The description of spec/record.schema.json lists the same codes.
    """

    BAD_RECORD = "bad_record"
    """Not a game record by spec/record.schema.json: a field missing, unknown or mistyped."""

    BAD_VARIANT = "bad_variant"
    """The variant is unknown, or an option or option value is not one the variant offers."""

    BAD_PLAYERS = "bad_players"
    """The variant is not played by the record's number of players (rule ``players``)."""

    BAD_DEAL = "bad_deal"
    """A deal does not fit: its number of hands, a hand's size, its tiles (each tile of the set
    exactly once, boneyard included) or its designated seat (a seat that exists, and the one
    the rules fix for that hand)."""

    MATCH_OVER = "match_over"
    """A hand is recorded after a side had reached the target (rule ``target``)."""

    BAD_NOTATION = "bad_notation"
    """An action is not written in the notation of spec/notation.md."""

    ILLEGAL_ACTION = "illegal_action"
    """The rules refuse an action: the wrong seat opens, a tile played out of turn, a tile that
    does not fit, an action after the hand ended; the reason code says which."""

    UNFINISHED_HAND = "unfinished_hand"
    """The actions stop before the hand ends, yet the record gives its result or another hand
    follows."""

    WRONG_RESULT = "wrong_result"
    """A hand's result is not what the rules make of its actions."""

    WRONG_MATCH_RESULT = "wrong_match_result"
    """The match totals are not what the rules make of the hands."""


#: A message longer than this is cut when shown (a record can hold a string of megabytes).
MESSAGE_LIMIT = 400
#: Findings kept per report; the rest are counted in :attr:`ReplayReport.omitted`.
FINDING_LIMIT = 100
#: The most digits a number in a record file may have.
MAX_DIGITS = 1000


def json_pointer(path: Iterable[str | int]) -> str:
    """The JSON Pointer (RFC 6901) of ``path``: ``("hands", 1, "deal")`` -> ``/hands/1/deal``."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


def _shown(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, unprintable characters (controls) escaped."""
    if len(text) > limit:
        text = f"{text[:limit]}… ({len(text):,} characters)"
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


@dataclass(frozen=True, kw_only=True)
class Finding:
    """One thing wrong with a record: what (``kind``), where (``pointer``), and the rule.

    ``pointer`` is a JSON Pointer into the record (``/hands/1/deal/hands/2``,
    ``/hands/0/actions/17``; empty for the record as a whole). ``hand`` and
    ``action`` are the same place as indices, for the message. ``reason`` is the
    :class:`~reference_engine.errors.Reason` code of an illegal action; ``rule``
    is the rule parameter that decides the problem, when one does, and
    ``citations`` are that rule's sources.
    """

    kind: FindingKind
    message: str
    pointer: str = ""
    hand: int | None = None
    action: int | None = None
    reason: str | None = None
    rule: str | None = None
    citations: tuple[Citation, ...] = ()

    def __post_init__(self) -> None:
        if len(self.message) > MESSAGE_LIMIT:
            object.__setattr__(self, "message", _shown(self.message))

    def __str__(self) -> str:
        parts = [_shown(self.pointer, 120)] if self.pointer else []
        where = []
        if self.hand is not None:
            where.append(f"hand {self.hand + 1}")
        if self.action is not None:
            where.append(f"action {self.action + 1}")
        if where:
            parts.append(", ".join(where))
        parts.append(_shown(self.message))
        code = f"{self.kind}: {self.reason}" if self.reason else str(self.kind)
        return f"{': '.join(parts)} [{code}]"


@dataclass
class ReplayReport:
    """What replaying a record found: nothing (it is valid) or every problem, in record order."""

    findings: list[Finding] = field(default_factory=list)
    #: Findings past :data:`FINDING_LIMIT`, counted but not kept.
    omitted: int = 0
    hands: int = 0
    actions: int = 0
    outcomes: list[Outcome] = field(default_factory=list)
    match: Match | None = None

    @property
    def finding(self) -> Finding | None:
        """The first problem in the record, if any."""
        return self.findings[0] if self.findings else None

    @property
    def ok(self) -> bool:
        """Whether the record is legal and its results agree with the rules."""
        return not self.findings and not self.omitted

    def add(self, finding: Finding) -> None:
        """Keep ``finding`` (or count it, past the limit)."""
        if len(self.findings) < FINDING_LIMIT:
            self.findings.append(finding)
        else:
            self.omitted += 1


class RecordSyntaxError(ValueError):
    """A record file that is not JSON at all: not UTF-8, not JSON, or JSON no record holds."""


def parse_record(data: bytes) -> Any:
    """The JSON value in ``data``, read strictly; raises :class:`RecordSyntaxError`.

    Refused: bytes that are not UTF-8, ``NaN`` and the infinities (not JSON),
    numbers with more than :data:`MAX_DIGITS` digits or too large for a float,
    nesting deeper than Python's recursion limit. A leading byte order mark is
    ignored, as RFC 8259 allows.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordSyntaxError(
            f"not UTF-8 text: byte 0x{data[error.start]:02x} at offset {error.start} "
            "cannot be decoded; save the record as UTF-8"
        ) from None
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise RecordSyntaxError("the file is empty; a record is a JSON object")
    try:
        return json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_int=_integer,
            parse_float=_finite,
            object_pairs_hook=unique_keys,
        )
    except json.JSONDecodeError as error:
        raise RecordSyntaxError(
            f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    except NotStrictJson as error:
        raise RecordSyntaxError(
            f"not a record: {error} (nothing is merged or overwritten)"
        ) from None
    except RecursionError:
        raise RecordSyntaxError(
            "not a record: its arrays and objects are nested too deeply to read"
        ) from None


def _refuse_constant(name: str) -> Any:
    raise RecordSyntaxError(f"not JSON: {name} is not a JSON number (JSON has no NaN or infinity)")


def _integer(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise RecordSyntaxError(
            f"a number of {digits:,} digits; a record's numbers have at most {MAX_DIGITS}"
        )
    return int(text)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise RecordSyntaxError(f"the number {_shown(text, 40)} is too large")
    return value


def replay(record: Any, catalog: Catalog | None = None) -> ReplayReport:
    """Check ``record`` fully against its variant; report every problem, in record order.

    First the record's shape (spec/record.schema.json); a record that breaks it
    is not read further. Then the variant and its options, the number of
    players, and every deal on its own (seats, hand sizes, tiles, designated
    seat). Then the hands are replayed in order with the engine, which decides
    who opens, whose turn it is and what is legal, up to the first hand that
    cannot be replayed (a bad deal, a refused action, actions that stop short);
    results are compared on the way, and the match totals at the end when every
    hand was replayed.
    """
    report = ReplayReport()
    for finding in _schema_findings(record):
        report.add(finding)
    if not report.ok:
        return report
    catalog = catalog or Catalog.shipped()
    rules = _resolve(record, catalog, report)
    if rules is None:
        return report
    players = record["players"]
    if players not in rules.players:
        allowed = ", ".join(map(str, rules.players))
        report.add(
            Finding(
                kind=FindingKind.BAD_PLAYERS,
                message=f"{rules.variant} is played by {allowed} players, not {players}",
                pointer="/players",
                **_rule(rules, "players"),
            )
        )
        return report
    match = Match(rules, players)
    report.match = match
    hands = record["hands"]
    replaying = True
    for index, raw in enumerate(hands):
        problems = deal_problems(raw["deal"], rules, players)
        for problem in problems:
            report.add(
                Finding(
                    kind=FindingKind.BAD_DEAL,
                    message=problem.message,
                    pointer=json_pointer(("hands", index, "deal", *problem.path)),
                    hand=index,
                    **_rule(rules, problem.rule),
                )
            )
        if problems:
            replaying = False
        elif replaying:
            replaying = _replay_hand(match, raw, index, index == len(hands) - 1, report)
    if replaying and "match" in record:
        actual = {"scores": match.scores, "hands_won": match.hands_won, "winner": match.winner}
        for key, claimed, value in _mismatches(record["match"], actual):
            report.add(
                Finding(
                    kind=FindingKind.WRONG_MATCH_RESULT,
                    message=f"the record says {key} {claimed}, the rules give {value}",
                    pointer=json_pointer(("match", key)),
                    **_rule(rules, _MATCH_RULES.get(key)),
                )
            )
    return report


#: The rule that decides each part of a hand's result and of the match totals.
_RESULT_RULES = {"pips": "hand_pips", "points": "points"}
_MATCH_RULES = {"scores": "points", "winner": "target"}


def _rule(rules: Rules, rule: str | None) -> dict[str, Any]:
    """``rule`` and its citations, as :class:`Finding` fields."""
    provenance = rules.provenance.get(rule) if rule else None
    return {"rule": rule, "citations": provenance.cite if provenance else ()}


@cache
def _validator() -> Any:
    """The record schema's validator, where ``integer`` means a whole number written as one.

    jsonschema counts ``2.0`` as an integer; ``players: 2.0`` should not pass for two.
    """
    return StrictValidator(record_schema())


#: The longest array any record may hold (the schema's largest ``maxItems``).
MAX_ARRAY = 10_000


def _oversized(record: Any) -> tuple[tuple[str | int, ...], int] | None:
    """The path and length of the first array longer than :data:`MAX_ARRAY`, if any."""
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), record)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, list):
            if len(value) > MAX_ARRAY:
                return path, len(value)
            stack.extend(((*path, index), item) for index, item in enumerate(value))
        elif isinstance(value, dict):
            stack.extend(((*path, key), item) for key, item in value.items())
    return None


def _schema_findings(record: Any) -> list[Finding]:
    """Every way ``record`` breaks spec/record.schema.json, located by JSON Pointer."""
    if not isinstance(record, dict):
        return [
            Finding(
                kind=FindingKind.BAD_RECORD,
                message=f"a record is a JSON object with format, variant, options, players and "
                f"hands, not {_json_kind(record)}",
            )
        ]
    oversized = _oversized(record)
    if oversized is not None:
        # Validating a million items takes the schema validator minutes: say it at once.
        path, size = oversized
        return [
            _located(
                FindingKind.BAD_RECORD,
                f"an array of {size:,} items; no array of a record holds more than {MAX_ARRAY:,}",
                path,
            )
        ]
    try:
        errors = sorted(
            _validator().iter_errors(record),
            key=lambda e: [(isinstance(part, str), part) for part in e.absolute_path],
        )
        findings: dict[tuple[str, str], Finding] = {}
        for error in errors:
            for path, message in _explain(error):
                finding = _located(FindingKind.BAD_RECORD, message, path)
                findings.setdefault((finding.pointer, finding.message), finding)
        return list(findings.values())
    except (RecursionError, ValueError):
        # Only a record built in Python gets here (a file's JSON is refused by
        # parse_record first): a value too deep or a number too long to print.
        return [
            Finding(
                kind=FindingKind.BAD_RECORD,
                message="a value is nested too deeply, or a number is too long, to be checked",
            )
        ]


def _explain(error: jsonschema.ValidationError) -> list[tuple[tuple[str | int, ...], str]]:
    """The places and messages of one schema error (a missing or unknown field at its own place)."""
    path = tuple(error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = list(schema.get("properties", {}))
        return [
            ((*path, name), f"unknown field {name!r} (the fields here: {', '.join(allowed)})")
            for name in error.instance
            if name not in allowed
        ]
    if error.validator == "required" and isinstance(error.instance, dict):
        required = error.validator_value if isinstance(error.validator_value, list) else []
        return [
            ((*path, name), f"the field {name!r} is missing")
            for name in required
            if name not in error.instance
        ]
    if error.validator == "type":
        wanted = (
            error.validator_value
            if isinstance(error.validator_value, list)
            else [error.validator_value]
        )
        names = " or ".join(_TYPE_NAMES.get(str(name), str(name)) for name in wanted)
        hint = (
            " (write whole numbers without a decimal point)"
            if isinstance(error.instance, float)
            else ""
        )
        return [(path, f"{_json_value(error.instance)} is not {names}{hint}")]
    if error.validator == "pattern" and schema == record_schema()["$defs"]["tile"]:
        return [(path, f'{_json_value(error.instance)} is not a tile (write it like "2-5")')]
    return [(path, error.message)]


_TYPE_NAMES = {
    "object": "an object",
    "array": "an array",
    "string": "a string",
    "integer": "an integer",
    "null": "null",
}


def _json_value(value: Any) -> str:
    """A value as JSON when it is short and simple, else what kind of value it is."""
    if isinstance(value, (str, bool, float)) or value is None:
        return _shown(json.dumps(value), 60)
    if isinstance(value, int):
        return str(value) if -(10**30) < value < 10**30 else "a very long number"
    return _json_kind(value)


def _located(kind: FindingKind, message: str, path: tuple[str | int, ...]) -> Finding:
    """A finding at ``path`` in the record, with the hand and action it falls in."""
    hand = action = None
    if len(path) >= 2 and path[0] == "hands" and isinstance(path[1], int):
        hand = path[1]
        if len(path) >= 4 and path[2] == "actions" and isinstance(path[3], int):
            action = path[3]
    return Finding(kind=kind, message=message, pointer=json_pointer(path), hand=hand, action=action)


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "true or false"
    if value is None:
        return "null"
    return "a number" if isinstance(value, int | float) else f"a {type(value).__name__}"


def _resolve(record: dict[str, Any], catalog: Catalog, report: ReplayReport) -> Rules | None:
    """The rules the record names; else None, with a finding at the variant or each bad option."""
    variant, options = record["variant"], record["options"]
    try:
        plain = catalog.resolve(variant)
    except RulesError as error:
        report.add(
            Finding(kind=FindingKind.BAD_VARIANT, message=_problems(error), pointer="/variant")
        )
        return None
    offered = {option.name: option for option in plain.options}
    for name, value in options.items():
        option = offered.get(name)
        if option is None:
            known = ", ".join(offered) or "none"
            message = f"{variant} has no option {name!r} (its options: {known})"
        elif value not in {choice.name for choice in option.values}:
            known = ", ".join(choice.name for choice in option.values)
            message = f"option {name} of {variant} has no value {value!r} (its values: {known})"
        else:
            continue
        report.add(
            Finding(
                kind=FindingKind.BAD_VARIANT,
                message=message,
                pointer=json_pointer(("options", name)),
            )
        )
    if not report.ok:
        return None
    try:
        return catalog.resolve(variant, options)
    except RulesError as error:
        report.add(
            Finding(kind=FindingKind.BAD_VARIANT, message=_problems(error), pointer="/options")
        )
        return None


def _problems(error: RulesError) -> str:
    return "; ".join(
        problem.message + (f" ({problem.fix})" if problem.fix else "") for problem in error.problems
    )


def _replay_hand(
    match: Match, raw: dict[str, Any], index: int, last: bool, report: ReplayReport
) -> bool:
    """Replay one hand of the record; whether the match can be followed past it."""
    rules = match.rules
    here = ("hands", index)
    if match.is_over:
        report.add(
            Finding(
                kind=FindingKind.MATCH_OVER,
                message=f"the match was over before this hand: side {match.winner} had reached "
                f"the target of {rules.target.value} {rules.target.unit}",
                pointer=json_pointer(here),
                hand=index,
                **_rule(rules, "target"),
            )
        )
        return False
    expected = match.expected_designated()
    designated = raw["deal"].get("designated")
    if expected is not None and designated != expected:
        report.add(
            Finding(
                kind=FindingKind.BAD_DEAL,
                message=f"the rules make seat {expected} the designated opener of this hand, "
                f"but the deal names seat {designated}",
                pointer=json_pointer((*here, "deal", "designated")),
                hand=index,
                **_rule(rules, "designated_opener"),
            )
        )
        return False
    try:
        hand = match.new_hand(Deal.from_data(raw["deal"], rules))
    except (DealError, ValueError) as error:  # every cause is checked above: a safety net
        report.add(
            Finding(
                kind=FindingKind.BAD_DEAL,
                message=str(error),
                pointer=json_pointer((*here, "deal")),
                hand=index,
            )
        )
        return False
    report.hands += 1
    for number, text in enumerate(raw["actions"]):
        try:
            action = Action.parse(text)
            hand.apply(action)
        except NotationError as error:
            report.add(
                Finding(
                    kind=FindingKind.BAD_NOTATION,
                    message=str(error),
                    pointer=json_pointer((*here, "actions", number)),
                    hand=index,
                    action=number,
                )
            )
            return False
        except IllegalActionError as error:
            report.add(_illegal(hand, action, error, index, number))
            return False
        report.actions += 1
    outcome = hand.outcome
    if outcome is None:
        if "result" in raw:
            report.add(
                Finding(
                    kind=FindingKind.UNFINISHED_HAND,
                    message="the record gives a result, but the actions stop before the hand ends",
                    pointer=json_pointer((*here, "result")),
                    hand=index,
                )
            )
            return False
        if not last:
            report.add(
                Finding(
                    kind=FindingKind.UNFINISHED_HAND,
                    message="the actions stop before the hand ends, and another hand follows",
                    pointer=json_pointer((*here, "actions")),
                    hand=index,
                )
            )
            return False
        return True  # a record of a match in progress
    report.outcomes.append(outcome)
    if "result" in raw:
        for key, claimed, value in _mismatches(raw["result"], outcome_data(outcome)):
            report.add(
                Finding(
                    kind=FindingKind.WRONG_RESULT,
                    message=f"the record says {key} {claimed}, the rules give {value}",
                    pointer=json_pointer((*here, "result", key)),
                    hand=index,
                    **_rule(rules, _RESULT_RULES.get(key)),
                )
            )
    match.close_hand()
    return True


def _illegal(
    hand: Hand, action: AnyAction, error: IllegalActionError, index: int, number: int
) -> Finding:
    """The finding for a refused action; a tile another seat holds is a wrong opener or turn.

    A record does not say who acts: the engine's turn order does. A tile that
    is in another seat's hand was put down by the wrong seat, so the refusal
    names the rule that fixes who opens (or whether the opener plays again).
    """
    reason, rule, detail = error.reason, error.rule, error.detail
    seat = hand.current
    message = f"{action} by seat {seat}: {detail}"
    holder = _holder(hand, action) if reason is Reason.TILE_NOT_IN_HAND else None
    if holder is not None and holder != seat:
        assert isinstance(action, Play)
        if hand.phase is Phase.OPENING:
            legal = hand.legal_actions()
            reason = Reason.WRONG_OPENING
            rule = "nobody_has_double" if DRAW in legal else "opener"
            allowed = ", ".join(map(str, legal))
            detail = (
                f"seat {holder} holds {action.tile}, but the rules make seat {seat} "
                f"open this hand (with: {allowed})"
            )
        else:
            reason = Reason.NOT_YOUR_TURN
            opened = bool(hand.history) and _is_opening(hand.history[-1])
            rule = "opener_plays_again" if opened else None
            detail = f"seat {holder} holds {action.tile}, but it is seat {seat}'s turn"
        message = f"{action}: {detail}"
    return Finding(
        kind=FindingKind.ILLEGAL_ACTION,
        message=message,
        pointer=json_pointer(("hands", index, "actions", number)),
        hand=index,
        action=number,
        reason=reason.value,
        **_rule(hand.rules, rule),
    )


def _holder(hand: Hand, action: AnyAction) -> int | None:
    """The seat holding the tile ``action`` plays, if a seat does."""
    if not isinstance(action, Play):
        return None
    for seat in range(hand.players):
        if action.tile in hand.hand_of(seat):
            return seat
    return None


def _is_opening(action: AnyAction) -> bool:
    return isinstance(action, Play) and action.end is None


def _mismatches(
    claimed: Mapping[str, Any], actual: Mapping[str, Any]
) -> list[tuple[str, str, str]]:
    """Each key whose claimed value differs from the actual one, with both written as JSON."""
    return [
        (key, json.dumps(value), json.dumps(actual.get(key)))
        for key, value in claimed.items()
        if actual.get(key) != value
    ]
