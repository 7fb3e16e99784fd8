"""One hand of Matador under any resolved variant (spec/SPEC.md sections 6 to 9).

:class:`Hand` is a state machine with a verify / can / do trio:
:meth:`Hand.verify` raises :class:`IllegalActionError` with a reason code and
the rule that decides it, :meth:`Hand.is_legal` answers yes or no, and
:meth:`Hand.apply` verifies then changes the state. :meth:`Hand.legal_actions`
is the exact, canonically ordered set of actions for the player to act, which
is what engines are compared on. Every applied action goes to ``history``.

No variant is named here: every difference between sources comes from the
rules object, through the tables of :mod:`reference_engine.engine.compiled`,
and when a player may draw or pass, from the turn's predicates
(:mod:`reference_engine.engine.turn`).

The package's modules share one state on purpose: :mod:`.base` holds it
(:class:`~.base.HandFields`), :mod:`.opening` chooses the opener and lays the
first tile, :mod:`.steps` is :class:`Hand` itself (legal actions, verifying,
applying), :mod:`.refusals` says why an action is refused, and :mod:`.position`
builds a hand from what the player to act sees. Each imports only those before
it in that list.

Speed. Random playouts run millions of actions, so the turn is kept to table
look-ups and bit operations. Hands are bitmasks. The open ends are a shared
:class:`~reference_engine.engine.ends.Line` of the compiled table, which holds
every tile's placements on them as ready-made Play objects, so the legal
actions are built once per state by concatenating a few tuples.
:meth:`Hand.apply` recognises an offered action by identity: the line maps
that object's id() to what it does (the tile's bit and the line it leads to,
or a pass or a draw), and the bits of what the legal actions offer, kept with
them, say whether it is one of them; any other action is compared by value and
verified. A dealt hand is checked once
(:meth:`Deal.packed <reference_engine.engine.deal.Deal.packed>`), and a shuffled
one not at all; the outcome is scored when it is first read.
"""

from __future__ import annotations

from ..phase import Phase
from .steps import Hand

__all__ = ["Hand", "Phase"]
