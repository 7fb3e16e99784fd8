"""Where a hand is: being opened, in play, or over."""

from __future__ import annotations

from enum import Enum


class Phase(str, Enum):
    """Where a hand is."""

    OPENING = "opening"
    PLAY = "play"
    OVER = "over"
