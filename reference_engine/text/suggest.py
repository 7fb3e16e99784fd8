"""Did you mean: the known names closest to one a person mistyped.

Every message that refuses an unknown name (a command, a variant, an option or
its value, a case id, a choice of a flag) offers the nearest known ones first,
so a typo is fixed without reading the whole list.
"""

from __future__ import annotations

from collections.abc import Iterable


def closest(word: str, known: Iterable[str], most: int = 3) -> list[str]:
    """The known names nearest to ``word`` (at most ``most``), nearest first."""
    import difflib  # (here: only a refused name needs it)

    choices = sorted(set(known))
    found = difflib.get_close_matches(word, choices, n=most, cutoff=0.6)
    if word:  # and the longer names it begins ("pol" for "polish" and "polish-base")
        found += [choice for choice in choices if choice.startswith(word) and choice not in found]
    return found[:most]


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """``did you mean 'x'?`` (or ``'x' or 'y'``) for ``word``, or "" when nothing is near."""
    found = closest(word, known)
    if not found:
        return ""
    return "did you mean " + " or ".join(repr(name) for name in found) + "?"


def with_suggestion(fix: str, word: str, known: Iterable[str]) -> str:
    """``fix`` preceded by a did-you-mean for ``word``, when one is near."""
    hint = did_you_mean(word, known)
    return f"{hint} {fix}" if hint else fix
