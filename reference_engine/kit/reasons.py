"""Reason codes derived from the reference rules, for an adapter that asks for them.

An engine that says only yes or no to an action has no reason to give.
Asked (``reasons = "derived"``), the kit follows the engine's line on a
reference hand of the same deal and, when the engine refuses an action, gives
the reason the reference gives. The handshake says so, and so do the reports:
such a reason is the reference's, not the engine's. When the engine leaves the
reference's line (it accepts what the reference refuses), no more reasons are
derived for that hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..conformance.protocol.declarations import DERIVED_REASONS
from ..conformance.protocol.interface import REFUSED
from ..engine.actions import AnyAction

#: What the handshake says of reasons derived this way.
DERIVED = DERIVED_REASONS


class DerivedReasons:
    """The reference hand that follows an engine's line, to say why it refuses an action."""

    def __init__(self) -> None:
        self.hand: Any = None

    def deal(self, variant: str, options: Mapping[str, str], data: Mapping[str, Any]) -> None:
        """Start following a hand dealt as ``data``."""
        from ..engine.deal import Deal
        from ..engine.hand import Hand
        from ..rules import Catalog

        try:
            rules = Catalog.shipped().resolve(variant, dict(options))
            self.hand = Hand(rules, Deal.from_data(dict(data), rules))
        except Exception:  # a deal or variant the reference does not take: no reasons
            self.hand = None

    def follow(self, move: AnyAction, seat: int) -> None:
        """The engine did ``move`` for ``seat``."""
        if self.hand is None:
            return
        try:
            self.hand.apply(move, seat)
        except Exception:  # the engine left the reference's line: no more reasons
            self.hand = None

    def why(self, move: AnyAction, seat: int | None) -> str:
        """The reason the reference refuses ``move`` by ``seat`` (``refused`` when it would not)."""
        if self.hand is not None:
            from ..errors import IllegalActionError

            try:
                self.hand.verify(move, seat)
            except IllegalActionError as error:
                return error.reason.value
        return REFUSED
