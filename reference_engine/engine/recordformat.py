"""The game record format itself (spec/record.schema.json): its name, schema and result data.

What writing a record (:mod:`.record`) and judging one (:mod:`.replay`) share,
kept apart so that neither has to import the other.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from ..rules.datafiles import spec_dir
from .scoring import Outcome

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
