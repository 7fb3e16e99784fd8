"""The reference's side of a random match: what it answers, and how it follows an engine's opening.

A random match asks the reference what the engine is asked. The answers come
from the independent oracle (an engine of its own, in another process when the
engine under test runs in this one); the mirror, a match on this process's
reference, says which rules are at stake at each check.

When the engine opens otherwise than the rules let it (another seat, another
tile), the two would part at once and nothing after the opening would be
judged. The reference then follows the engine's line instead: the mirror plays
the hand again from its deal under the same rules, but with the engine's opener
laying the engine's tile (:meth:`ReferenceSide.anchor`), and answers for the rest
of the hand itself. Everything after the opening is judged under the real rules,
and what the opening broke is a divergence of its own. (The mirror is this
process's package: an in-process engine that is a modified copy of it is then
judged against itself for the rest of that hand.)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ...engine.actions import Action, AnyAction, Play
from ...engine.hand import Hand
from ...engine.match import Match
from ...engine.recordformat import outcome_data
from ...errors import DealError, IllegalActionError, NotationError
from ...rules import Rules
from ...rules.vocabulary import DesignatedOpener, Opener, OpeningTile
from .interface import Engine


class ReferenceSide:
    """The reference's answers in one random match (see the module's docstring)."""

    def __init__(self, oracle: Engine, rules: Rules, players: int) -> None:
        self.oracle, self.rules, self.players = oracle, rules, players
        self.mirror = Match(rules, players)
        #: The hand followed from the engine's own opening, when it opened otherwise.
        self.anchored: Hand | None = None

    @property
    def hand(self) -> Hand | None:
        """The reference's hand now being played, if one is."""
        if self.anchored is not None:
            return self.anchored
        return self.mirror.hands[-1] if self.mirror.hands else None

    def new_match(self, variant: str, options: Mapping[str, str]) -> None:
        self.oracle.new_match(variant, options, self.players)
        self.mirror = Match(self.rules, self.players)
        self.anchored = None

    def new_hand(self, deal: Any, data: Mapping[str, Any]) -> None:
        self.anchored = None
        self.mirror.new_hand(deal)
        self.oracle.new_hand(data)

    def to_act(self) -> int | None:
        if self.anchored is not None:
            return None if self.anchored.is_over else self.anchored.current
        return self.oracle.to_act()

    def legal(self) -> list[str]:
        if self.anchored is not None:
            return [str(action) for action in self.anchored.legal_actions()]
        return list(self.oracle.legal())

    def ends(self) -> list[str]:
        if self.anchored is not None:
            return [end.notation for end in self.anchored.ends]
        return list(self.oracle.ends())

    def result(self) -> Mapping[str, Any] | None:
        if self.anchored is not None:
            outcome = self.anchored.outcome
            return None if outcome is None else outcome_data(outcome)
        return self.oracle.result()

    def match_state(self) -> Mapping[str, Any]:
        return self.oracle.match_state()

    def apply(self, action: AnyAction) -> None:
        """Play ``action`` (legal for the reference) on its side."""
        if self.anchored is None:
            self.oracle.apply(str(action), None)
            self.mirror.hands[-1].apply(action)
        else:
            self.anchored.apply(action)

    def anchor(self, seat: int, text: str) -> bool:
        """Follow the engine's opening: ``seat`` lays ``text`` as the opening tile, the hand
        played on under the rules after it. False when that is no opening of this deal."""
        hand = self.mirror.hands[-1] if self.mirror.hands else None
        followed = None if hand is None else anchored(self.rules, hand, seat, text)
        if followed is None:
            return False
        self.anchored = followed
        return True


def anchored(rules: Rules, hand: Hand, seat: int, text: str) -> Hand | None:
    """``hand``'s deal played from the opening ``text`` laid by ``seat``, whatever the rules
    say of who opens with what, and under ``rules`` after it (None: no opening of this deal)."""
    try:
        action = Action.parse(text)
    except NotationError:
        return None
    if not isinstance(action, Play) or action.end is not None:
        return None
    free = dataclasses.replace(
        rules,
        opener=Opener.DESIGNATED,
        designated_opener=DesignatedOpener.BY_LOT_EACH_HAND,
        opening_tile=OpeningTile.ANY_TILE,
        opener_lacks_double=None,
    )
    try:
        followed = Hand(free, dataclasses.replace(hand.deal, designated=seat))
        followed.apply(action)
    except (DealError, IllegalActionError, ValueError):
        return None
    return followed
