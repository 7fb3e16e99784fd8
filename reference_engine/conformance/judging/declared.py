"""What an engine's declaration (``plays``) does to a run: cases it takes out, deviations it states.

A declaration says what an engine plays (:mod:`.declarations`). Three things
follow for the runner:

- :func:`not_applicable`: a case the engine cannot be asked (a player count it
  does not play, a deal it does not make) is skipped, saying why;
- :func:`stated_deviations`: a deal the engine declares and the rules do not
  make (five tiles each to three players where the rules deal six) is one
  deviation of ``hand_size`` for that player count, recorded once per variant
  and count as a run of its own (:data:`DECLARED_CASE`), so every report and
  the rule verdicts show it like any other;
- what is not judged in a case that is run (points without scoring, match
  totals without a match, reasons) is the expectations' (:mod:`.expectations`).
"""

from __future__ import annotations

from collections import Counter

from ...rules.kinds import Decides
from ...rules.model import Rules
from ...rules.parameters import deciding
from ..protocol.declarations import Declaration
from ..suite.casedata import Case, Target
from .verdicts import CaseRun, Check, Deviation, Verdict

#: The id of the run that holds the deviations a declaration states (no case file has it).
DECLARED_CASE = "declared-by-the-engine"


def rules_sizes(rules: Rules, players: int) -> tuple[int, ...] | None:
    """Each seat's hand size under ``rules`` with ``players`` (None: no such count)."""
    try:
        return rules.seat_sizes(players)
    except KeyError:
        return None


def dealt_otherwise(declaration: Declaration, rules: Rules, players: int) -> int | None:
    """The hand size the engine declares for ``players`` when it is not the rules' (else None)."""
    declared = declaration.hand_sizes.get(players)
    if declared is None:
        return None
    sizes = rules_sizes(rules, players)
    return None if sizes is None or sizes == (declared,) * players else declared


def not_applicable(declaration: Declaration, rules: Rules, case: Case) -> str | None:
    """Why ``case`` cannot be asked of an engine that declares ``declaration`` (None: it can)."""
    if not declaration.positions and any(hand.position for hand in case.hands):
        return (
            "not applicable: the case starts a hand at a position, and the engine does not "
            "declare that it takes positions (plays: positions)"
        )
    declared = dealt_otherwise(declaration, rules, case.players)
    if declared is not None:
        sizes = rules_sizes(rules, case.players) or ()
        return (
            f"not applicable: the engine deals {declared} tiles each to {case.players} players, "
            f"where the rules deal {_sizes(sizes)}; a deviation of "
            f"{' and '.join(deciding(Decides.DEAL))}, stated once "
            f"as {DECLARED_CASE}"
        )
    return None


def _sizes(sizes: tuple[int, ...]) -> str:
    if len(set(sizes)) == 1:
        return str(sizes[0])
    return "/".join(map(str, sizes)) + " (seat 0 first)"


def stated_deviations(
    declaration: Declaration, rules: Rules, case: Case, target: Target, seen: set[str]
) -> CaseRun | None:
    """The run holding the deviation the declaration states for ``case``'s player count,
    the first time it is met for this variant and count (``seen`` remembers); else None."""
    declared = dealt_otherwise(declaration, rules, case.players)
    key = f"{target.label()}/{case.players}"
    if declared is None or key in seen:
        return None
    seen.add(key)
    sizes = rules_sizes(rules, case.players) or ()
    deviation = Deviation(
        check=Check.DEAL,
        message=f"the engine declares it deals {declared} tiles each to {case.players} players",
        expected=_sizes(sizes),
        actual=str(declared),
        rules=deciding(Decides.DEAL),
    )
    return CaseRun(
        case=DECLARED_CASE,
        target=target,
        verdict=Verdict.FAIL,
        message=deviation.message,
        expected=deviation.expected,
        actual=deviation.actual,
        deviations=[deviation],
        failed=Counter(deciding(Decides.DEAL)),
        players=case.players,
    )
