"""Readable transcripts of matches, rebuilt from each hand's deal and history."""

from __future__ import annotations

from .actions import AnyAction, Draw, Play
from .hand import Hand
from .match import Match
from .scoring import Outcome, Termination


def describe_action(seat: int, action: AnyAction) -> str:
    """What ``seat`` does, in words."""
    if isinstance(action, Play):
        return f"seat {seat} {'opens with' if action.end is None else 'plays'} {action}"
    if isinstance(action, Draw):
        return f"seat {seat} draws"
    return f"seat {seat} passes"


def describe_outcome(outcome: Outcome) -> str:
    """One line: how the hand ended and who scored what."""
    if outcome.termination is Termination.REDEAL:
        return "nobody held a double that may open: the hand is dealt again"
    pips = ", ".join(map(str, outcome.pips))
    how = (
        f"domino by seat {outcome.went_out}"
        if outcome.termination is Termination.DOMINO
        else "blocked"
    )
    if outcome.winner is None:
        return f"{how}; pips left {pips}; tie for lowest, nobody scores"
    return f"{how}; pips left {pips}; side {outcome.winner} scores {outcome.points[outcome.winner]}"


def transcript(match: Match, seed: int) -> str:
    """The whole match as text: each deal, every action with the ends after it, results, totals."""
    rules = match.rules
    options = ", ".join(f"{k}={v}" for k, v in rules.chosen.items()) or "none"
    out = [f"{rules.variant}, {match.players} players, seed {seed}; options: {options}"]
    for number, played in enumerate(match.hands, start=1):
        deal = played.deal
        out.append(f"hand {number}: boneyard {len(deal.boneyard)} tile(s)")
        if deal.designated is not None:
            out.append(f"  designated opener (by lot or in turn): seat {deal.designated}")
        for seat, tiles in enumerate(deal.hands):
            out.append(f"  seat {seat} holds " + " ".join(map(str, tiles)))
        hand = Hand(rules, deal)
        for action in played.history:
            seat = hand.current
            hand.apply(action)
            ends = " | ".join(map(str, hand.ends))
            out.append(f"    {describe_action(seat, action):<28} ends {ends}")
        if played.outcome is not None:
            out.append(f"  {describe_outcome(played.outcome)}")
    totals = ", ".join(f"side {side}: {score}" for side, score in enumerate(match.scores))
    out.append(f"scores: {totals}")
    winner = match.winner
    out.append(
        f"side {winner} wins the match ({rules.target.value} {rules.target.unit.value})"
        if winner is not None
        else "the match is not finished"
    )
    return "\n".join(out) + "\n"
