"""The random games as every report writes them: lines of text, and plain data.

A divergence is reported like a failed expectation of a case: the variant and
options, the game (players, strategy, seed) to reproduce it, the hand and
step, the position, what the reference gave and what the engine gave, the
rules behind it with their SPEC sections; then the deals and actions that
replay it. The table, Markdown and JUnit reports use :func:`random_lines` and
:func:`divergence_lines`; the JSON report :func:`divergence_data`; the HTML and
Markdown reports also list each divergence as a row with its citations
(:func:`~.failures.divergence_rows`).
"""

from __future__ import annotations

import json
from typing import Any

from ..analysis.ruletext import difference_lines, rules_text
from ..judging.attribution import section
from ..judging.divergences import DifferentialResult, Divergence, GameError
from ..judging.verdicts import Check, Deviation


def as_deviation(divergence: Divergence) -> Deviation:
    """The divergence as a case's deviation would be (hands and steps from 0)."""
    expected, actual = divergence.expected, divergence.actual
    if divergence.check is Check.MATCH and divergence.key == "winner":
        expected, actual = _winner(expected), _winner(actual)
    step = divergence.step
    return Deviation(
        check=divergence.check,
        message=divergence.message,
        expected=expected,
        actual=actual,
        rules=divergence.rules,
        hand=max(0, divergence.hand - 1),
        step=None if step is None else step - 1,
        history=tuple(divergence.history),
        position=divergence.position,
    )


def _winner(side: Any) -> Any:
    """A match's winner in words: ``side 1``, or ``no winner yet``."""
    return "no winner yet" if side is None else f"side {side}"


def where(divergence: Divergence) -> str:
    """``hand 2, step 5`` (from 1), or ``hand 2, its result`` / ``the match after hand 2``."""
    hand = max(1, divergence.hand)
    if divergence.check is Check.RESULT:
        return f"hand {hand}, its result"
    if divergence.check is Check.MATCH:
        return f"the match after hand {hand}"
    return f"hand {hand}, step {divergence.step}"


def replay_lines(divergence: Divergence) -> list[str]:
    """The deal of each hand of the match up to the divergence, and the actions played."""
    lines = []
    for number, (deal, history) in enumerate(
        zip(divergence.deals, divergence.histories, strict=True), start=1
    ):
        lines.append(f"hand {number} deal: {json.dumps(deal, separators=(',', ':'))}")
        lines.append("  played: " + (" ".join(history) or "nothing yet"))
    return lines


def divergence_lines(divergence: Divergence) -> list[str]:
    """One random game's divergence: what, where, the rules behind it, and how to replay it."""
    head = (
        f"DIVERGENCE {divergence.target.label()} {divergence.game_text}, "
        f"{where(divergence)}: {divergence.message}"
    )
    lines = [head]
    lines.extend("  " + line for line in difference_lines(as_deviation(divergence)))
    if divergence.rules:
        lines.append("  rule: " + rules_text(divergence.rules))
    if divergence.position:
        lines.append("  the reference's position: " + divergence.position)
    lines.extend("  " + line for line in replay_lines(divergence))
    return lines


def divergence_data(divergence: Divergence) -> dict[str, Any]:
    """One divergence as plain data (the JSON report's ``divergence`` lines)."""
    return {
        "type": "divergence",
        "variant": divergence.variant,
        "options": dict(divergence.options),
        "seed": divergence.seed,
        "game": divergence.game,
        "players": divergence.players,
        "strategy": divergence.strategy,
        "hand": divergence.hand,
        "step": divergence.step,
        "check": divergence.check.value,
        "key": divergence.key,
        "message": divergence.message,
        "expected": divergence.expected,
        "actual": divergence.actual,
        "rules": list(divergence.rules),
        "sections": [section(rule) for rule in divergence.rules],
        "position": divergence.position,
        "deals": [dict(deal) for deal in divergence.deals],
        "histories": [list(history) for history in divergence.histories],
    }


def error_lines(error: GameError) -> list[str]:
    """One random game the engine failed in: what happened, and the deals and actions so far."""
    lines = [f"ERROR {error}"]
    for number, (deal, history) in enumerate(zip(error.deals, error.histories, strict=True), 1):
        lines.append(f"  hand {number} deal: {json.dumps(deal, separators=(',', ':'))}")
        lines.append("    played: " + (" ".join(history) or "nothing yet"))
    return lines


def error_data(error: GameError) -> dict[str, Any]:
    """One random game's error as plain data (the JSON report's ``random_errors``)."""
    return {
        "variant": error.target.variant if error.target is not None else error.label,
        "options": dict(error.target.options) if error.target is not None else {},
        "message": error.message,
        "failure": error.failure or None,
        "request": error.request or None,
        "seed": error.seed,
        "game": error.game,
        "players": error.players,
        "strategy": error.strategy or None,
        "hand": len(error.deals) if error.deals else None,
        "deals": [dict(deal) for deal in error.deals],
        "histories": [list(history) for history in error.histories],
    }


def random_lines(result: DifferentialResult) -> list[str]:
    """The random games' summary, every divergence, and every error with its game."""
    lines = [result.summary()]
    for divergence in result.divergences:
        lines.extend(divergence_lines(divergence))
    for error in result.errors:
        lines.extend(error_lines(error))
    return lines
