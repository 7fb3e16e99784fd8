"""The lot by drawing (SPEC 6.2): which seat the tiles drawn for the opener name.

Under ``lowest_drawn_each_hand`` and ``lowest_drawn_then_rotate`` each player
draws one tile, the fewest pips leading; those tied draw again from the tiles
left, until one remains. A game record may keep the lot as it was drawn
(``lot``: one list per round, a tile per seat, ``null`` for a seat not drawing
in that round); :func:`read_lot` checks that it is a lot of the rules and says
the seat it names, which must be the deal's designated opener.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import NotationError
from .tiles import Tile


@dataclass(frozen=True)
class LotProblem:
    """One way a lot is not a lot of the rules: where in it (round, seat) and what."""

    path: tuple[int, ...]
    message: str


def read_lot(rounds: Any, players: int, max_pip: int) -> tuple[int | None, list[LotProblem]]:
    """The seat the lot ``rounds`` names, and every way it breaks the lot's rules.

    A lot is read round by round: the first round has a tile for every seat; each
    later round a tile for exactly the seats tied for the fewest pips in the round
    before, and ``null`` for every other. No tile is drawn twice (the tiles drawn
    stay out until the lot is made). The seat is None when the lot breaks them, or
    its last round leaves a tie.
    """
    problems: list[LotProblem] = []
    if not isinstance(rounds, list) or not rounds:
        return None, [LotProblem((), "a lot is a list of rounds, each a tile or null per seat")]
    drawing = set(range(players))
    seen: set[Tile] = set()
    named: int | None = None
    for number, drawn in enumerate(rounds):
        if not drawing:
            problems.append(LotProblem((number,), "a round after the lot had named its seat"))
            break
        pips = _round(drawn, number, players, drawing, max_pip, seen, problems)
        if pips is None:
            break
        lowest = min(pips.values())
        drawing = {seat for seat, count in pips.items() if count == lowest}
        if len(drawing) == 1:
            (named,) = drawing
            drawing = set()
    else:
        if drawing:
            tied = ", ".join(map(str, sorted(drawing)))
            problems.append(LotProblem((), f"the lot stops with seats {tied} still tied"))
    return (None, problems) if problems else (named, [])


def _round(
    drawn: Any,
    number: int,
    players: int,
    drawing: set[int],
    max_pip: int,
    seen: set[Tile],
    problems: list[LotProblem],
) -> dict[int, int] | None:
    """The pips each drawing seat drew in one round (None when the round is broken)."""
    if not isinstance(drawn, Sequence) or isinstance(drawn, str) or len(drawn) != players:
        problems.append(
            LotProblem((number,), f"a round of the lot has one entry per seat ({players})")
        )
        return None
    pips: dict[int, int] = {}
    before = len(problems)
    for seat, text in enumerate(drawn):
        if seat not in drawing:
            if text is not None:
                problems.append(
                    LotProblem((number, seat), f"seat {seat} draws in a round it is not tied in")
                )
            continue
        tile = _tile(text, max_pip)
        if tile is None:
            problems.append(
                LotProblem(
                    (number, seat),
                    f"seat {seat} must draw a tile of the set here, not {_shown(text)}",
                )
            )
            continue
        if tile in seen:
            problems.append(LotProblem((number, seat), f"{tile} is drawn twice in the lot"))
        seen.add(tile)
        pips[seat] = tile.low + tile.high
    return None if len(problems) > before else pips


def _tile(text: Any, max_pip: int) -> Tile | None:
    if not isinstance(text, str):
        return None
    try:
        tile = Tile.parse(text)
    except NotationError:
        return None
    return tile if tile.high <= max_pip else None


def _shown(value: Any) -> str:
    """A value of the record as JSON writes it (``null``, ``"7-9"``), short."""
    import json

    try:
        return json.dumps(value)[:40]
    except (TypeError, ValueError):
        return "a value JSON cannot hold"
