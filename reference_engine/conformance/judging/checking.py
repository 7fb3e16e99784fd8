"""The record a case run keeps while it is played: the reference on the case's line, and each check.

:class:`Reference` is the reference engine following the case's scripted line,
to say which rules are at stake at each check (:mod:`.attribution`).
:class:`Checks` records every expectation of one case run: held, failed (a
:class:`~.verdicts.Deviation` with its rules, the place and the line that led
there) or not judged, because the engine's declaration takes it out
(:func:`unjudged_key`). :class:`Stop` ends a case that cannot go on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...engine.deal import Deal
from ...engine.hand import Hand
from ...engine.match import Match
from ...engine.state import parse_position
from ...errors import DealError, IllegalActionError, NotationError
from ...rules.model import Rules
from ...rules.vocabulary import TargetUnit
from ..protocol.declarations import Declaration
from . import attribution
from .attribution import FixedRule, Position, position_text
from .counterfactual import Explainer
from .verdicts import CaseRun, Check, Deviation


class Stop(Exception):
    """The case cannot go on: the engine left the scripted line, or fail-fast.

    ``skip`` is set when the case can go on past it all the same, played again
    from its start without that one attempt: the engine accepted an action the
    case tries only to see it refused (``(hand, step)``), or a deal it tries only
    to see refused (``(hand, None)``).
    """

    def __init__(self, skip: tuple[int, int | None] | None = None) -> None:
        super().__init__()
        self.skip = skip


class Reference:
    """The reference engine following the case's scripted line, to say which rules are at stake."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.rules = rules
        self.match: Match | None = Match(rules, players)
        self.hand: Hand | None = None
        #: The rules worked out at the position now, forgotten when it moves.
        self.known: attribution.Known = {}

    def new_hand(self, deal: Any) -> None:
        self.known = {}
        if self.match is None:
            return
        try:
            if self.hand is not None and self.hand.is_over:
                self.match.close_hand()
            self.hand = self.match.new_hand(Deal.from_data(dict(deal), self.rules))
        except (DealError, ValueError):
            self.match = self.hand = None

    def new_position(self, position: str) -> None:
        """The next hand, started at ``position`` (a case's, read when it was loaded)."""
        self.known = {}
        if self.match is None:
            return
        if self.hand is not None and self.hand.is_over:
            self.match.close_hand()
        try:
            self.hand = self.match.new_at(parse_position(position))
        except (DealError, NotationError, ValueError):
            self.match = self.hand = None

    def apply(self, text: str, seat: int | None) -> None:
        self.known = {}
        if self.hand is None:
            return
        try:
            self.hand.apply(attribution.parse_action(text), seat)
        except (IllegalActionError, NotationError):
            self.hand = None  # the case's line is not the reference's: no more attributions

    @property
    def position(self) -> Position:
        return Position(self.rules, self.hand)

    def held(self) -> tuple[str, ...] | None:
        """The tiles the seat to act holds, in canonical order (None once it cannot follow)."""
        hand = self.hand
        if hand is None or hand.is_over:
            return None
        return tuple(sorted(str(tile) for tile in hand.hand_of(hand.current)))

    def describe(self) -> str:
        """The position in the notation: the ends, the hand of the seat to act, the boneyard."""
        return position_text(self.hand)


class Checks:
    """Records every expectation of one case run: held or not, with its rules."""

    def __init__(
        self,
        run: CaseRun,
        reference: Reference,
        fail_fast: bool,
        declaration: Declaration,
    ) -> None:
        self.run = run
        self.reference = reference
        self.fail_fast = fail_fast
        self.declaration = declaration
        #: How many expectations were met (checked or not judged) so far, and how many
        #: of the first ones to leave uncounted: those a replay of the case meets again.
        self.met = 0
        self.quiet = 0
        #: Asks the engine what the seat to act holds (at the step being checked, before
        #: its act), for a deviation after a draw; its answer is kept for the step.
        self.probe: Callable[[], tuple[str, ...] | None] | None = None
        #: Narrows the rules of a deviation at a step to those that can explain it
        #: (:class:`~.counterfactual.Explainer`).
        self.explainer: Explainer | None = None
        #: Asks the engine who is to act at the step being checked (before its act).
        self.seat_probe: Callable[[], int | None] | None = None

    def counted(self) -> bool:
        """Meet one more expectation; whether it counts (it is not one met again)."""
        self.met += 1
        return self.met > self.quiet

    def unjudged(self, rules: tuple[str, ...] | Callable[[], tuple[str, ...]]) -> None:
        """An expectation the engine's declaration takes out of the judgement."""
        if not self.counted():
            return
        named = rules if isinstance(rules, tuple) else rules()
        self.run.not_judged.update(named or (FixedRule.PROTOCOL.value,))

    def check(
        self,
        held: bool,
        check: Check,
        rules: tuple[str, ...] | Callable[[], tuple[str, ...]],
        message: str,
        expected: Any = None,
        actual: Any = None,
        facets: Callable[[], tuple[tuple[str, ...], ...]] | None = None,
    ) -> None:
        """Count one expectation under its rules; one that failed becomes a deviation
        (``facets``: the rules behind each part of it, when its parts are separate facts)."""
        if not self.counted():
            return
        named = rules if isinstance(rules, tuple) else rules()
        if held:
            self.run.held.update(named)
            return
        parts = () if facets is None else facets()
        run, holds = self.run, None
        try:
            # asking the engine what it holds and who acts may find it broken: the
            # deviation is kept all the same, with the rules before they were narrowed
            holds = self._holds(check, actual)
            named, parts = self._narrowed(check, named, parts, expected, actual, holds)
        finally:
            run.failed.update(named)
            run.deviations.append(
                Deviation(
                    check=check,
                    message=message,
                    expected=expected,
                    actual=actual,
                    rules=named,
                    hand=run.hand,
                    step=run.step,
                    history=tuple(run.history),
                    position=self.reference.describe(),
                    facets=parts,
                    holds=holds,
                )
            )
        if self.fail_fast:
            raise Stop

    def _narrowed(
        self,
        check: Check,
        named: tuple[str, ...],
        parts: tuple[tuple[str, ...], ...],
        expected: Any,
        actual: Any,
        holds: tuple[str, ...] | None,
    ) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
        """The rules of a deviation narrowed by the explainer, where the engine holds what
        the reference holds (else the draw order may be the cause, which it cannot try)."""
        run = self.run
        same_hand = holds is None or holds == self.reference.held()
        if self.explainer is None or not same_hand or run.step is None or run.hand is None:
            return named, parts
        answers = {
            (d.step, d.check): d.actual
            for d in run.deviations
            if d.hand == run.hand and d.step is not None
        }
        return self.explainer(
            check,
            named,
            parts,
            expected,
            actual,
            (run.hand, run.step),
            answers,
            self._seat(check, actual),
        )

    def _seat(self, check: Check, actual: Any) -> Callable[[], int | None] | None:
        """Asks the engine who is to act, when nothing has changed since the step began."""
        if self.seat_probe is None or not self._unchanged(check, actual):
            return None
        return self.seat_probe

    @staticmethod
    def _unchanged(check: Check, actual: Any) -> bool:
        """Whether the engine is where the step began: the check comes before the act, or
        the act was refused."""
        before = check in (Check.TO_ACT, Check.LEGAL, Check.INCLUDES, Check.EXCLUDES)
        refused = check in (Check.ACCEPTED, Check.REFUSED) and actual not in (None, "accepted")
        return before or refused

    def _holds(self, check: Check, actual: Any) -> tuple[str, ...] | None:
        """What the engine says the seat to act holds, when a draw may have given it other
        tiles than the reference's and nothing has changed since the step began (the check
        comes before the act, or the act was refused)."""
        if self.probe is None or "draw" not in self.run.history:
            return None
        return self.probe() if self._unchanged(check, actual) else None

    def keys(
        self,
        check: Check,
        expected: Mapping[str, Any],
        actual: Mapping[str, Any],
        rules: Callable[[str], tuple[str, ...]],
    ) -> None:
        """Each key of a result or a match state the case gives, against the engine's;
        a key the engine's declaration leaves out (:func:`unjudged_key`) is not judged."""
        for key, value in expected.items():
            if unjudged_key(self.declaration, check, key, self.reference.rules):
                self.unjudged(rules(key))
                continue
            self.check(
                actual.get(key) == value,
                check,
                rules(key),
                f"{check.value} {key} differs",
                value,
                actual.get(key),
            )

    def writing(self, written: list[str], canonical_form: list[str], what: str) -> None:
        """Engines write actions and ends canonically (notation.md: writers MUST)."""
        odd = [
            (text, form) for text, form in zip(written, canonical_form, strict=True) if text != form
        ]
        self.check(
            not odd,
            Check.NOTATION,
            (FixedRule.PROTOCOL.value,),
            f"the engine writes {what} in a form other than the canonical one",
            [form for _, form in odd],
            [text for text, _ in odd],
        )

    def ends(
        self,
        written: list[str],
        expected: tuple[str, ...],
        rules: tuple[str, ...] | Callable[[], tuple[str, ...]],
        asked: str | None = None,
        laid: Callable[[list[str]], str | None] | None = None,
    ) -> None:
        """The open ends the engine gives against the case's. When they differ and
        ``laid`` names the action that leaves them, the engine laid that action instead
        of the one asked: that is the deviation (a case stops there)."""
        actual = [" ".join(end.split()) for end in written]
        self.writing(list(written), actual, "ends")
        if actual != list(expected) and asked is not None and laid is not None:
            instead = laid(actual)
            if instead is not None:
                self.laid_otherwise(asked, instead, " (by the ends it left)")
        self.check(
            actual == list(expected), Check.ENDS, rules, "open ends differ", list(expected), actual
        )

    def laid_otherwise(self, asked: str, laid: str, how: str = "") -> None:
        """The engine accepted ``asked`` and carried out ``laid``: one deviation, reported as
        exactly that (not as a rule of the game), and the case stops."""
        self.check(
            False,
            Check.LAID,
            (FixedRule.SAME_ACTION.value,),
            f"the engine accepted {asked} but laid {laid}{how}",
            asked,
            laid,
        )
        raise Stop


def unjudged_key(declaration: Declaration, check: Check, key: str, rules: Rules) -> bool:
    """Whether a result or match key is out of the judgement of an engine that declares
    ``declaration``: points and scores without scoring (and a match won on points), any
    match total without a match."""
    if check is Check.MATCH and not declaration.matches:
        return True
    if declaration.scoring:
        return False
    if check is Check.RESULT:
        return key == "points"
    return key == "scores" or (key == "winner" and rules.target.unit is TargetUnit.POINTS)


#: The most times a case is played again to go on past attempts the engine accepted.
MOST_REPLAYS = 8


class Replay:
    """The attempts a replay of a case leaves out, and how many expectations come before
    each (met again, they are not counted twice)."""

    def __init__(self, skips: dict[tuple[int, int | None], int]) -> None:
        self.skips = skips
        self.checks: Checks | None = None
        self.starts: dict[tuple[int, int | None], int] = {}

    def quiet(self) -> int:
        """How many of the first expectations were counted by an earlier play."""
        return max(self.skips.values(), default=0)

    def at(self, where: tuple[int, int | None]) -> bool:
        """Mark the start of a step (or of a hand's deal); whether to leave it out."""
        if self.checks is not None:
            self.starts.setdefault(where, self.checks.met)
        return where in self.skips

    def met_before(self, where: tuple[int, int | None]) -> int:
        return self.starts.get(where, 0)
