"""The adapter kit: an existing engine judged by the suite, with a few dozen lines of glue.

:class:`Adapter` (the hooks an author fills in), :class:`Move` (actions made
from what an engine knows), :class:`Table` (a hand to deal), :func:`serve` (the
protocol on standard input and output), and deal injection for engines that
only shuffle (:mod:`.rigging`). docs/adapter-kit.md is the guide.
"""

from .adapter import Adapter, serve
from .checks import KitError
from .moves import LEFT, RIGHT, Move, candidates, tile_of
from .rigging import RiggedRandom, fisher_yates_choices, rigged_floats, stack_for
from .table import Table

__all__ = [
    "LEFT",
    "RIGHT",
    "Adapter",
    "KitError",
    "Move",
    "RiggedRandom",
    "Table",
    "candidates",
    "fisher_yates_choices",
    "rigged_floats",
    "serve",
    "stack_for",
    "tile_of",
]
