"""The game record format itself (spec/record.schema.json): its name, schema and result data.

What writing a record (:mod:`.record`) and judging one (:mod:`.replay`) share,
kept apart so that neither has to import the other.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..rules.schema import load_schema
from .scoring import Outcome

RECORD_FORMAT = "matador-record/1"


@cache
def record_schema() -> dict[str, Any]:
    """The record JSON Schema."""
    return load_schema("record.schema.json")


def outcome_data(outcome: Outcome) -> dict[str, Any]:
    """A hand's result as record data."""
    return {
        "termination": outcome.termination.value,
        "winner": outcome.winner,
        "pips": list(outcome.pips),
        "points": list(outcome.points),
    }
