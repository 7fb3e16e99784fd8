"""Game records (spec/record.schema.json): writing them, and replaying them to settle disputes."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import jsonschema

from .actions import Action
from .deal import Deal
from .errors import DealError, IllegalActionError, NotationError
from .match import Match
from .rules import Catalog, Citation, Rules, RulesError
from .rules.catalog import spec_dir
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


@dataclass(frozen=True)
class Finding:
    """The first thing wrong with a record, located by hand and action index."""

    kind: str
    message: str
    hand: int | None = None
    action: int | None = None
    reason: str | None = None
    rule: str | None = None
    citations: tuple[Citation, ...] = ()

    def __str__(self) -> str:
        where = []
        if self.hand is not None:
            where.append(f"hand {self.hand + 1}")
        if self.action is not None:
            where.append(f"action {self.action + 1}")
        text = (", ".join(where) + ": " if where else "") + self.message
        if self.reason:
            text += f" [{self.reason}]"
        return text


@dataclass
class ReplayReport:
    """What replaying a record found: nothing (it is valid) or its first problem."""

    finding: Finding | None = None
    hands: int = 0
    actions: int = 0
    outcomes: list[Outcome] = field(default_factory=list)
    match: Match | None = None

    @property
    def ok(self) -> bool:
        """Whether the record is legal and its results agree with the rules."""
        return self.finding is None


def replay(record: Any, catalog: Catalog | None = None) -> ReplayReport:
    """Replay ``record`` under its variant; stop at the first problem."""
    report = ReplayReport()
    validator = jsonschema.Draft202012Validator(record_schema())
    errors = sorted(validator.iter_errors(record), key=lambda e: list(e.absolute_path))
    if errors:
        error = errors[0]
        path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
        report.finding = Finding("bad_record", f"${path}: {error.message}")
        return report
    catalog = catalog or Catalog.shipped()
    try:
        rules = catalog.resolve(record["variant"], record["options"])
    except RulesError as error:
        report.finding = Finding("bad_variant", "; ".join(p.message for p in error.problems))
        return report
    match = Match(rules, record["players"])
    report.match = match
    for hand_index, raw in enumerate(record["hands"]):
        try:
            hand = match.new_hand(Deal.from_data(raw["deal"], rules))
        except (DealError, ValueError) as error:
            report.finding = Finding("bad_deal", str(error), hand=hand_index)
            return report
        report.hands += 1
        for action_index, text in enumerate(raw["actions"]):
            try:
                hand.apply(Action.parse(text))
            except NotationError as error:
                report.finding = Finding("bad_notation", str(error), hand_index, action_index)
                return report
            except IllegalActionError as error:
                report.finding = Finding(
                    "illegal_action",
                    f"{text} by seat {hand.current}: {error.detail}",
                    hand_index,
                    action_index,
                    reason=error.reason.value,
                    rule=error.rule,
                    citations=error.citations,
                )
                return report
            report.actions += 1
        if hand.outcome is None:
            if "result" in raw or hand_index < len(record["hands"]) - 1:
                report.finding = Finding(
                    "unfinished_hand", "the actions stop before the hand ends", hand_index
                )
                return report
            break
        report.outcomes.append(hand.outcome)
        if "result" in raw:
            mismatch = _compare(raw["result"], outcome_data(hand.outcome))
            if mismatch:
                report.finding = Finding("wrong_result", mismatch, hand_index)
                return report
        match.close_hand()
    if "match" in record:
        claimed = record["match"]
        actual = {"scores": match.scores, "hands_won": match.hands_won, "winner": match.winner}
        mismatch = _compare(claimed, actual)
        if mismatch:
            report.finding = Finding("wrong_match_result", mismatch)
    return report


def _compare(claimed: Mapping[str, Any], actual: Mapping[str, Any]) -> str | None:
    for key, value in claimed.items():
        if actual.get(key) != value:
            return f"the record says {key} {value!r}, the rules give {actual.get(key)!r}"
    return None
