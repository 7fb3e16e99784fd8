"""Writing game records (spec/record.schema.json): playing a match, and the record of one.

:func:`play_match` plays a match with a strategy and :func:`match_record`
writes what was played as a record. Reading a record back and judging it
against the rules is :mod:`.replay` (with :mod:`.findings` and
:mod:`.recordcheck`); those names, and the format's own (:mod:`.recordformat`),
are re-exported here, where callers have always imported them.
"""

from __future__ import annotations

import random
from typing import Any

from ..rules import Rules
from .findings import (
    FINDING_LIMIT,
    MESSAGE_LIMIT,
    Finding,
    FindingKind,
    ReplayReport,
    json_pointer,
)
from .match import Match
from .recordcheck import MAX_ARRAY, MAX_DIGITS, RecordSyntaxError, parse_record
from .recordformat import RECORD_FORMAT, outcome_data, record_schema
from .replay import replay
from .strategies import Strategy

__all__ = [
    "FINDING_LIMIT",
    "MAX_ARRAY",
    "MAX_DIGITS",
    "MESSAGE_LIMIT",
    "RECORD_FORMAT",
    "Finding",
    "FindingKind",
    "RecordSyntaxError",
    "ReplayReport",
    "json_pointer",
    "match_record",
    "outcome_data",
    "parse_record",
    "play_match",
    "record_schema",
    "replay",
]


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
