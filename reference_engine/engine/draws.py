"""Random numbers exactly as :class:`random.Random` draws them, with fewer calls.

Deals and random playouts draw a number for every tile shuffled and every
choice made; through ``rng.shuffle`` and ``rng.randrange`` each is two or three
calls of Python code around one call of ``rng.getrandbits``. This module draws
the very same numbers from the same generator, calling ``getrandbits`` itself:

* :func:`shuffle` is ``rng.shuffle(items)``;
* :func:`number_below` is ``rng.randrange(n)``;
* :func:`bits_source` gives ``rng.getrandbits`` when a number below ``n`` is
  ``getrandbits(n.bit_length())`` drawn again while it is ``n`` or more, as
  ``rng.randrange(n)`` draws it, and None when it is not (a generator whose
  class draws another way), so that the caller uses ``rng.randrange``.

Whether a generator draws this way is decided per class: the class must keep
``random.Random``'s own ``shuffle``, ``randrange`` and its below-``n`` method
that uses ``getrandbits`` (the one Python picks for a class that does not
replace ``random()`` alone). And once per process, on a fixed seed, the numbers
drawn here are compared with those of ``shuffle`` and ``randrange``
themselves: should a Python version draw otherwise, every generator falls back
to its own methods and the answers stay the same.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

#: ``rng.getrandbits``: a number of the given bits.
Bits = Callable[[int], int]

_RANDOM = random.Random
#: random.Random's number below n drawn with getrandbits (private: None if a Python lacks it).
_BELOW_WITH_BITS = getattr(_RANDOM, "_randbelow_with_getrandbits", None)


def bits_source(rng: random.Random) -> Bits | None:
    """``rng.getrandbits`` when numbers below ``n`` may be drawn from it as
    :func:`below` draws them (the numbers ``rng.randrange(n)`` gives), else None."""
    kind = type(rng)
    exact = _EXACT.get(kind)
    if exact is None:
        exact = _EXACT[kind] = _draws_with_bits(kind)
    return rng.getrandbits if exact else None


def below(bits: Bits, count: int) -> int:
    """A number in ``range(count)`` (``count`` > 0), as ``rng.randrange(count)`` draws it
    from the generator whose ``getrandbits`` is ``bits`` (:func:`bits_source`).

    Callers on a hot path write these three lines out instead of calling this.
    """
    size = count.bit_length()
    number = bits(size)
    while number >= count:
        number = bits(size)
    return number


def number_below(rng: random.Random, count: int) -> int:
    """``rng.randrange(count)``, the same number, drawn with fewer calls when it can be."""
    bits = bits_source(rng)
    return rng.randrange(count) if bits is None else below(bits, count)


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle ``items`` in place: the order ``rng.shuffle(items)`` leaves."""
    bits = bits_source(rng)
    if bits is None:
        rng.shuffle(items)
    else:
        _shuffle(bits, items)


def _shuffle(bits: Bits, items: list[Any]) -> None:
    """Fisher-Yates from the top, as random.Random.shuffle: position ``top`` swaps
    with a position below ``top + 1``, drawn with the bits ``top + 1`` needs."""
    count = len(items)
    steps = _STEPS.get(count)
    if steps is None:
        steps = _STEPS[count] = tuple(
            (top, (top + 1).bit_length()) for top in range(count - 1, 0, -1)
        )
    for top, size in steps:
        other = bits(size)
        while other > top:
            other = bits(size)
        items[top], items[other] = items[other], items[top]


#: Per class of generator: whether it draws as this module does (:func:`_draws_with_bits`).
_EXACT: dict[type, bool] = {}
#: Per length shuffled: each step's top position and the bits its draw takes.
_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}


def _draws_with_bits(kind: type[random.Random]) -> bool:
    """Whether generators of class ``kind`` shuffle and draw below ``n`` with
    getrandbits as this module does."""
    return (
        _BELOW_WITH_BITS is not None
        and getattr(kind, "shuffle", None) is _RANDOM.shuffle
        and getattr(kind, "randrange", None) is _RANDOM.randrange
        and getattr(kind, "_randbelow", None) is _BELOW_WITH_BITS
        and _agrees()
    )


@cache
def _agrees() -> bool:
    """Whether, on this Python, the numbers drawn here are those ``random.Random``
    draws itself (checked once, on a fixed seed, for shuffles and choices)."""
    ours, theirs = _RANDOM(20240601), _RANDOM(20240601)
    bits = ours.getrandbits
    for count in (1, 2, 3, 7, 28, 55, 200):
        mine, order = list(range(count)), list(range(count))
        _shuffle(bits, mine)
        theirs.shuffle(order)
        if mine != order or below(bits, count) != theirs.randrange(count):
            return False
    return True
