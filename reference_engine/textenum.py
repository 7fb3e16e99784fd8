"""The base of every closed vocabulary: an enum whose members are their text.

Its own module, so that the modules every command loads (:mod:`.safeio`,
:mod:`.errors`, :mod:`.rules.errors`) can name their codes without loading the
rule model's vocabularies (:mod:`.rules.vocabulary`), which also give it.
"""

from __future__ import annotations

from enum import Enum


class TextEnum(str, Enum):
    """A closed vocabulary whose members compare equal to, and print as, their text."""

    def __str__(self) -> str:
        return str(self.value)
