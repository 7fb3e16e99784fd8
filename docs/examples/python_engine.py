"""A small Matador engine in plain Python, judged in process: an example for engine authors.

It plays ONE variant, gamerules-com with its default options, and was written
from spec/SPEC.md, not from the reference engine: it uses the package only for
the two types the in-process interface hands back and forth (``EngineInfo``,
the handshake's answer, and ``EngineRefusal``, a request refused with a code).
docs/python-engines.md describes that interface method by method.

The rules it plays: a double-six set whose touching halves sum to 7; 7, 6 or
5 tiles for 2, 3 or 4 players; the holder of the highest double opens with it
(nobody holds one: the hand is dealt again); a matador ([0-0], [1-6], [2-5],
[3-4]) goes on any end, in line, its player choosing which half stays open; a
player with no play draws until one comes and passes only when the boneyard
is empty; the hand ends on a domino or when every player has passed in a row;
the lowest total scores the others' pips less its own, a tie for lowest scores
nothing; the match goes to 100 points.

Run the suite against it, from a checkout::

    matador conform --engine python:docs/examples/python_engine.py:make_engine

or from an installed package, after ``matador example python --copy .``::

    matador conform --engine python:python_engine.py:make_engine
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reference_engine.conformance import EngineInfo, EngineRefusal

VARIANT = "gamerules-com"
#: The option values this engine plays: each option's default, and nothing else.
OPTIONS = {
    "draw": "until_playable",
    "difference": "total_minus_own",
    "no_double": "redeal",
    "blank_opens": "counts",
}
MAX_PIP = 6
SUM = 7
HAND_SIZE = {2: 7, 3: 6, 4: 5}
TARGET = 100

Tile = tuple[int, int]

_NUMBER = r"\d{1,2}"
_PLAY = re.compile(
    rf"(?:(?P<a>{_NUMBER})-(?P<b>{_NUMBER})|\[(?P<c>{_NUMBER})[-|](?P<d>{_NUMBER})\])"
    rf"(?:@(?P<end>L|R|E{_NUMBER})(?::(?P<open>{_NUMBER})|(?P<cross>x)|\^(?P<offset>{_NUMBER})))?"
)


def tile_of(text: str) -> Tile:
    """``"5-2"`` or ``"[2|5]"`` as ``(2, 5)``; a deal's tile is read the same way."""
    match = _PLAY.fullmatch(text.strip())
    if match is None or match["end"] is not None:
        raise ValueError(f"{text!r} is not a tile")
    a, b = int(match["a"] or match["c"]), int(match["b"] or match["d"])
    return (min(a, b), max(a, b))


def is_matador(tile: Tile) -> bool:
    """The matadors: [0-0] and the tiles whose halves make the sum."""
    return tile == (0, 0) or tile[0] + tile[1] == SUM


@dataclass(frozen=True)
class Play:
    """Putting a tile down: the opening (no end), or in line on end 0 (L) or 1 (R).

    ``shape`` is ``inline`` for ``TILE@END:OPEN``; this engine never lays a tile
    across the line, so a crosswise play is read only to be refused.
    """

    tile: Tile
    end: int | None = None
    open: int | None = None
    shape: str = "inline"

    def __str__(self) -> str:
        tile = f"{self.tile[0]}-{self.tile[1]}"
        return tile if self.end is None else f"{tile}@{'LR'[self.end]}:{self.open}"


Action = Play | str  # a Play, "draw" or "pass"


def parse_action(text: str) -> Action:
    """An action in the notation of spec/notation.md; a ``bad_notation`` refusal otherwise."""
    word = text.strip()
    if word.lower() == "draw":
        return "draw"
    if word.lower() in ("pass", "knock"):
        return "pass"
    match = _PLAY.fullmatch(word)
    if match is None:
        raise EngineRefusal("bad_notation", f"{text!r} is not an action in the notation")
    tile = tile_of(word.partition("@")[0])
    if match["end"] is None:
        return Play(tile)
    end = {"L": 0, "R": 1, "E0": 0, "E1": 1}.get(match["end"], 2)  # E2 on: never opened here
    opened = match["open"] or match["offset"]
    if opened is not None and int(opened) not in tile:
        raise EngineRefusal("bad_notation", f"{text!r} leaves open a value the tile lacks")
    shape = "inline" if match["open"] else "crosswise" if match["cross"] else "offset"
    return Play(tile, end, None if opened is None else int(opened), shape)


class HandState:
    """One hand: what each seat holds, the boneyard, the open ends and whose turn it is."""

    def __init__(self, hands: list[list[Tile]], boneyard: list[Tile]) -> None:
        self.hands = hands
        self.boneyard = boneyard
        self.ends: list[int] = []
        self.current = 0
        self.passes = 0
        self.result: dict[str, Any] | None = None
        self.counted = False
        self.opening: Tile | None = None
        for double in range(MAX_PIP, -1, -1):  # the highest double held opens
            holders = [seat for seat, hand in enumerate(hands) if (double, double) in hand]
            if holders:
                self.current, self.opening = holders[0], (double, double)
                return
        self.finish("redeal", None)

    def legal(self) -> list[Action]:
        """The seat to act's legal actions, in the canonical order of the notation."""
        if self.result is not None:
            return []
        if self.opening is not None and not self.ends:
            return [Play(self.opening)]
        plays: list[Action] = []
        for tile in sorted(self.hands[self.current]):
            for end, value in enumerate(self.ends):
                if is_matador(tile):
                    opens = set(tile)  # on any end, its player choosing the open half
                else:
                    opens = {tile[1 - i] for i in (0, 1) if tile[i] + value == SUM}
                plays.extend(Play(tile, end, open_) for open_ in sorted(opens))
        if plays:
            return plays
        return ["draw" if self.boneyard else "pass"]

    def apply(self, action: Action) -> str | None:
        """Carry ``action`` out for the seat to act; or, changing nothing, say why not."""
        if self.result is not None:
            return "hand_over"
        legal = self.legal()
        if action not in legal:
            return self.why_not(action, legal)
        hand = self.hands[self.current]
        if action == "draw":
            hand.append(self.boneyard.pop(0))
            return None
        if action == "pass":
            self.passes += 1
            if self.passes == len(self.hands):
                self.finish("blocked", None)
            else:
                self.current = (self.current + 1) % len(self.hands)
            return None
        assert isinstance(action, Play)
        hand.remove(action.tile)
        if action.end is None:
            self.ends = list(action.tile)
        else:
            assert action.open is not None
            self.ends[action.end] = action.open
        self.passes = 0
        if not hand:
            self.finish("domino", self.current)
        else:
            self.current = (self.current + 1) % len(self.hands)
        return None

    def why_not(self, action: Action, legal: list[Action]) -> str:
        """The one reason an action is refused, in the order spec/protocol.md checks them."""
        plays = [play for play in legal if isinstance(play, Play)]
        opening = not self.ends
        if isinstance(action, Play):
            if opening != (action.end is None) or (action.end or 0) > 1:
                return "no_such_end"
            if action.tile not in self.hands[self.current]:
                return "tile_not_in_hand"
            if opening:
                return "wrong_opening"
            fits = [play for play in plays if (play.tile, play.end) == (action.tile, action.end)]
            return "placement_not_allowed" if fits else "does_not_match_end"
        if action == "draw":
            return "draw_not_allowed" if opening or self.boneyard else "reserve_reached"
        if opening:
            return "pass_not_allowed"
        if self.boneyard:
            return "pass_not_allowed" if plays else "must_draw"
        return "must_play_matador" if all(is_matador(p.tile) for p in plays) else "must_play"

    def finish(self, termination: str, went_out: int | None) -> None:
        """End the hand: the winner scores the others' pips less its own."""
        pips = [sum(a + b for a, b in hand) for hand in self.hands]
        winner = went_out
        if termination == "blocked":
            lowest = [seat for seat, count in enumerate(pips) if count == min(pips)]
            winner = lowest[0] if len(lowest) == 1 else None  # a tie: nobody scores
        points = [0] * len(pips)
        if winner is not None:
            others = sum(pips) - pips[winner]
            points[winner] = max(0, others - pips[winner])
        self.result = {"termination": termination, "winner": winner, "pips": pips, "points": points}


class ExampleEngine:
    """The engine the runner talks to: one method a request of spec/protocol.md."""

    def __init__(self) -> None:
        self.players = 0
        self.scores: list[int] = []
        self.hands_won: list[int] = []
        self.hand: HandState | None = None
        self.started = False

    def hello(self) -> EngineInfo:
        return EngineInfo(
            name="python example engine",
            version="1.0",
            variants={VARIANT: {name: [value] for name, value in OPTIONS.items()}},
        )

    def new_match(self, variant: str, options: Mapping[str, str], players: int) -> None:
        odd = {name: value for name, value in options.items() if OPTIONS.get(name) != value}
        if variant != VARIANT or odd or players not in HAND_SIZE:
            raise EngineRefusal(
                "unsupported", f"only {VARIANT} with its default options, for 2 to 4 players"
            )
        self.players, self.started, self.hand = players, True, None
        self.scores, self.hands_won = [0] * players, [0] * players

    def new_hand(self, deal: Mapping[str, Any]) -> None:
        if not self.started:
            raise EngineRefusal("no_match", "no match yet: start one with new_match")
        if self.hand is not None and self.hand.result is None:
            raise EngineRefusal("hand_in_progress", "the current hand is not over")
        self._count()
        if self._winner() is not None:
            raise EngineRefusal("match_over", "the match has a winner")
        self.hand = HandState(*self._dealt(deal))

    def _dealt(self, deal: Mapping[str, Any]) -> tuple[list[list[Tile]], list[Tile]]:
        """The deal's hands and boneyard; a ``bad_deal`` refusal when the match cannot play it."""
        full = [(a, b) for a in range(MAX_PIP + 1) for b in range(a, MAX_PIP + 1)]
        try:
            hands = [[tile_of(text) for text in hand] for hand in deal["hands"]]
            dealt = [tile for hand in hands for tile in hand]
            rest = deal.get("boneyard")
            undealt = [tile for tile in full if tile not in dealt]
            boneyard = undealt if rest is None else [tile_of(text) for text in rest]
        except (KeyError, TypeError, ValueError) as error:
            raise EngineRefusal("bad_deal", f"the deal cannot be read: {error}") from None
        if len(hands) != self.players or any(len(h) != HAND_SIZE[self.players] for h in hands):
            raise EngineRefusal("bad_deal", f"deal {HAND_SIZE[self.players]} tiles to each seat")
        if sorted(dealt + boneyard) != full:
            raise EngineRefusal("bad_deal", "the hands and the boneyard are not the set, once each")
        designated = deal.get("designated")
        if designated is not None and designated not in range(self.players):
            raise EngineRefusal("bad_deal", f"seat {designated} is not a seat of this match")
        return hands, boneyard

    def legal(self) -> list[str]:
        return [str(action) for action in self._hand().legal()]

    def ends(self) -> list[str]:
        return [str(value) for value in self._hand().ends]

    def to_act(self) -> int | None:
        hand = self._hand()
        return None if hand.result is not None else hand.current

    def apply(self, action: str, player: int | None) -> str | None:
        hand = self._hand()
        if player is not None and player not in range(self.players):
            raise EngineRefusal("no_such_seat", f"seat {player} is not a seat of this match")
        parsed = parse_action(action)
        if hand.result is not None:
            return "hand_over"
        if player is not None and player != hand.current:
            return "not_your_turn"
        return hand.apply(parsed)

    def result(self) -> Mapping[str, Any] | None:
        return self._hand().result

    def match_state(self) -> Mapping[str, Any]:
        if not self.started:
            raise EngineRefusal("no_match", "no match yet: start one with new_match")
        self._count()
        return {"scores": self.scores, "hands_won": self.hands_won, "winner": self._winner()}

    def close(self) -> None:
        self.hand = None

    def _hand(self) -> HandState:
        if not self.started:
            raise EngineRefusal("no_match", "no match yet: start one with new_match")
        if self.hand is None:
            raise EngineRefusal("no_hand", "no hand yet: start one with new_hand")
        return self.hand

    def _count(self) -> None:
        """Add a finished hand to the match totals, once."""
        hand = self.hand
        if hand is None or hand.result is None or hand.counted:
            return
        hand.counted = True
        for seat, points in enumerate(hand.result["points"]):
            self.scores[seat] += points
        if hand.result["winner"] is not None:
            self.hands_won[hand.result["winner"]] += 1

    def _winner(self) -> int | None:
        reached = [seat for seat, score in enumerate(self.scores) if score >= TARGET]
        return reached[0] if reached else None


def make_engine() -> ExampleEngine:
    """The factory ``--engine python:...:make_engine`` names: a fresh engine."""
    return ExampleEngine()
