"""Actions compared in canonical notation: what an engine wrote, as the notation writes it.

An engine may write an action in any spelling the grammar reads (spec/notation.md);
the runner compares them after :func:`canonical` has rewritten each the one way
the notation writes it. A text outside the notation cannot be compared at all:
:func:`canonical_set` raises :class:`Mismatch`, naming who wrote it.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from ...errors import NotationError
from . import attribution


class Mismatch(Exception):
    """An answer that cannot be compared at all (an action outside the notation)."""

    def __init__(self, message: str, expected: Any = None, actual: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.expected = expected
        self.actual = actual


def canonical(action: str) -> str:
    """An action in canonical notation (raises NotationError); remembered, as a run asks often."""
    if len(action) > attribution.REMEMBERED_TEXT:
        return str(attribution.parse_action(action))
    return _canonical(action)


@lru_cache(maxsize=4096)
def _canonical(action: str) -> str:
    return str(attribution.parse_action(action))


def canonical_set(actions: Iterable[str], who: str) -> set[str]:
    """``actions`` in canonical notation; :class:`Mismatch` names ``who`` gave one that is not."""
    out = set()
    for action in actions:
        try:
            out.add(canonical(action))
        except NotationError as error:
            raise Mismatch(f"{who} gave an action that is not in the notation: {error}") from None
    return out
