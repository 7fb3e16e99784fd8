"""What an engine plays, observed: random hands on the engine, or the hands of its records.

:func:`observe` deals seeded random hands of a variant the engine declares and
plays them on the engine along its own legal actions, keeping at every step the
seat to act, the legal set, the action and the ends after it, then the result.
It deals the hand sizes the engine declares, and offers one deal of every other
size some candidate rule set deals (a :class:`Probe`: accepted or refused is a
fact about ``hand_size``), playing a few hands of each it accepts.
:func:`from_records` reads the same from game records (no legal sets, no seats:
what a log holds). :func:`follow` carries each hand's line out by plain
mechanics (:class:`~reference_engine.engine.state.TableState`), so every check
after a step one rule set refuses is still made at the state the engine reached.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...engine.actions import Action, AnyAction, Play
from ...engine.deal import Deal, needs_designated, sized
from ...engine.ends import OpenEnd
from ...engine.hand import Hand
from ...engine.state import TableState, hand_at, parse_end, state_of
from ...errors import DealError, NotationError
from ...rules.model import PLAYER_COUNT_KEYS, Rules
from ..judging.canonical import Mismatch, canonical, canonical_set
from ..judging.verdicts import EngineUnavailable
from ..protocol import requests
from ..protocol.interface import EngineFailure, EngineRefusal, Opening
from ..session.runner import Runner
from ..suite.casedata import Target
from ..transport import ahead

#: The keys of a hand's result that are compared.
RESULT_KEYS = ("termination", "winner", "pips", "points")
#: A hand longer than this is cut: the engine is taken to be looping.
MAX_STEPS = 1000
#: What is asked after every change: the seat to act, and what it may do.
_ASKED = (requests.query("to_act"), requests.query("legal"))
#: The actions that lay no tile, in the notation.
_LAYS_NOTHING = frozenset({"draw", "pass"})
#: Hands played of each other hand size the engine accepts.
PROBED_HANDS = 2


@dataclass(frozen=True)
class Step:
    """One step of a hand: who acted, what was legal, what was played, the ends after it.

    ``seat``, ``legal`` and ``ends`` are None where they are not known (a record
    says only the action; an engine that lays its own opening gives no legal set).
    """

    seat: int | None
    legal: frozenset[str] | None
    action: str
    ends: tuple[str, ...] | None


@dataclass(frozen=True)
class Parsed:
    """A step as read: the action, the legal set and the ends after it (as the engine gave
    them, None where it did not)."""

    action: AnyAction
    legal: frozenset[AnyAction] | None
    ends: tuple[OpenEnd, ...] | None


@dataclass(frozen=True)
class Observed:
    """One hand the engine played: the deal, its steps, its result, and ``states``: the
    table before each step and after the last, once the opening tile is down (None before
    it, or from a step that could not be carried out)."""

    players: int
    deal: Deal
    steps: tuple[Step, ...]
    result: Mapping[str, Any] | None
    states: tuple[TableState | None, ...] = ()
    #: Each step read once (None where it is not in the notation), for the checks.
    parsed: tuple[Parsed | None, ...] = ()

    @property
    def shape(self) -> tuple[int, ...]:
        """The tiles dealt to each seat."""
        return tuple(len(hand) for hand in self.deal.hands)


@dataclass(frozen=True)
class Probe:
    """Whether the engine accepted a deal of ``shape`` (tiles per seat) for ``players``."""

    players: int
    shape: tuple[int, ...]
    accepted: bool


@dataclass
class Observation:
    """Every hand observed for one target, the deals offered, what kept hands unobserved."""

    target: Target
    rules: Rules
    hands: list[Observed] = field(default_factory=list)
    probes: list[Probe] = field(default_factory=list)
    notes: Counter[str] = field(default_factory=Counter)
    #: Whether the engine keeps a score (points are compared only then).
    scoring: bool = True
    #: How many of the last hands were built to part candidates (not dealt at random).
    asked: int = 0
    #: Each match a record keeps whole: the results of its hands as claimed, and the
    #: match totals it claims (records only: an engine is observed on single hands).
    matches: list[tuple[tuple[Mapping[str, Any], ...], Mapping[str, Any]]] = field(
        default_factory=list
    )


class _Cut(Exception):
    """The engine's hand cannot be recorded (an answer outside the notation, a loop)."""


def observe(
    runner: Runner,
    target: Target,
    rules: Rules,
    hands: int,
    shapes: Mapping[int, Sequence[tuple[int, ...]]],
    seed: int,
) -> Observation:
    """For each player count in ``shapes``, a deal of each shape offered in turn (a
    :class:`Probe`), ``hands`` hands of the first the engine accepts and
    :data:`PROBED_HANDS` of every other it accepts.

    Stops early when the runner gives up on the engine (``runner.unavailable`` says why).
    """
    declaration = runner.info.declaration(target.variant) if runner.info else None
    observation = Observation(target, rules, scoring=declaration is None or declaration.scoring)
    rng = random.Random(seed)
    for players, offered in shapes.items():
        full = True  # the first shape the engine accepts gets ``hands`` hands
        for shape in offered:
            dealing = sized(rules, players, shape)
            for count in range(hands if full else PROBED_HANDS):
                deal = Deal.shuffled(dealing, players, rng, designated=rng.randrange(players))
                accepted = play_one(runner, target, rules, deal, rng, observation)
                if accepted is None:
                    return observation
                if count == 0:
                    _probed(observation, players, shape, accepted)
                if not accepted:
                    break
                full = False
    return observation


def _probed(observation: Observation, players: int, shape: tuple[int, ...], ok: bool) -> bool:
    """Keep the first answer to a deal of another shape; whether it was the first."""
    if any(p.players == players and p.shape == shape for p in observation.probes):
        return False
    observation.probes.append(Probe(players, shape, ok))
    return True


def play_one(
    runner: Runner,
    target: Target,
    rules: Rules,
    deal: Deal,
    rng: random.Random,
    observation: Observation,
    line: Sequence[str] = (),
) -> bool | None:
    """Play one hand on the engine (along ``line`` while the engine allows it, then at
    random among its legal actions) into ``observation``: whether it accepted the deal
    (None: it is unavailable)."""
    data = deal.to_data()
    if not needs_designated(rules):
        del data["designated"]  # the lot is for the candidates that use one
    try:
        observed = _play(runner, target, len(deal.hands), deal, data, rng, line)
    except EngineUnavailable:
        return None
    except EngineFailure as failure:
        observation.notes[f"the engine failed: {failure.message}"] += 1
        runner.count_failure(failure)
        runner.restart()
        return True
    except EngineRefusal as refusal:
        if refusal.code == "bad_deal":
            return False
        observation.notes[f"the engine refused a valid request: {refusal}"] += 1
        return True
    except _Cut as cut:
        observation.notes[str(cut)] += 1
        return True
    runner.failures_in_a_row = 0
    observation.hands.append(observed)
    return True


def _play(
    runner: Runner,
    target: Target,
    players: int,
    deal: Deal,
    data: Any,
    rng: random.Random,
    line: Sequence[str] = (),
) -> Observed:
    engine = runner.engine()
    engine.new_match(target.variant, target.options, players)
    # a program is written the questions after each change together with it (ahead.plan)
    ahead.plan(engine, [requests.new_hand(data), *_ASKED])
    opened = engine.new_hand(data)
    steps: list[Step] = []
    if isinstance(opened, Opening) and opened.action is not None:
        steps.append(Step(opened.seat, None, _canonical(opened.action), _ends(engine)))
    while (seat := engine.to_act()) is not None:
        try:
            legal = frozenset(canonical_set(engine.legal(), "the engine"))
        except Mismatch as mismatch:
            raise _Cut(mismatch.message) from None
        if not legal or len(steps) >= MAX_STEPS:
            raise _Cut("the engine has a seat to act but no legal action, or never ends a hand")
        wanted = line[len(steps)] if len(steps) < len(line) else None
        action = wanted if wanted in legal else sorted(legal)[rng.randrange(len(legal))]
        unchanged = action in _LAYS_NOTHING and steps and steps[-1].ends is not None
        asked = _ASKED if unchanged else (requests.query("ends"), *_ASKED)
        ahead.plan(engine, [requests.apply(action, None), *asked])
        reason = engine.apply(action, None)
        if reason is not None and not isinstance(reason, Mapping):
            raise _Cut(f"the engine refused an action it gave as legal ({reason})")
        # only a tile laid changes the ends (SPEC 7): after a draw or a pass they are not
        # asked again, which spares a request at a third of the steps
        ends = steps[-1].ends if unchanged else _ends(engine)
        steps.append(Step(seat, legal, action, ends))
    result = engine.result()
    ahead.settle(engine)
    kept = None if result is None else {key: result.get(key) for key in RESULT_KEYS}
    return follow(Observed(players, deal, tuple(steps), kept))


def _canonical(text: str) -> str:
    try:
        return canonical(text)
    except NotationError as error:
        raise _Cut(f"the engine laid an opening that is not in the notation: {error}") from None


def _ends(engine: Any) -> tuple[str, ...]:
    return tuple(" ".join(end.split()) for end in engine.ends())


def from_records(records: Iterable[Mapping[str, Any]], target: Target, rules: Rules) -> Observation:
    """The hands of game records of ``target`` as an observation: every action and result,
    and the hand sizes dealt as accepted deals."""
    observation = Observation(target, rules)
    for record in records:
        players = record["players"]
        results = tuple(raw["result"] for raw in record["hands"] if "result" in raw)
        if "match" in record and len(results) == len(record["hands"]):
            observation.matches.append((results, record["match"]))
        for raw in record["hands"]:
            try:
                deal = Deal.from_data(dict(raw["deal"]), sized_for(rules, raw["deal"], players))
            except (DealError, ValueError) as error:
                observation.notes[f"a deal cannot be read: {error}"] += 1
                continue
            steps = tuple(Step(None, None, text, None) for text in raw["actions"])
            kept = raw.get("result")
            observed = follow(Observed(players, deal, steps, kept), rules)
            observation.hands.append(observed)
            _probed(observation, players, observed.shape, True)
    return observation


def sized_for(rules: Rules, deal: Mapping[str, Any], players: int) -> Rules:
    """``rules`` dealing what ``deal`` deals (its hands' sizes), to read it."""
    hands = deal.get("hands")
    if not isinstance(hands, list) or len(hands) != players or players not in PLAYER_COUNT_KEYS:
        return rules
    return sized(rules, players, tuple(len(hand) for hand in hands))


# --------------------------------------------------------------------------- following


def follow(observed: Observed, rules: Rules | None = None) -> Observed:
    """``observed`` with the table before each step, once the opening tile is down, carried
    out by mechanics; cut after a step that cannot be carried out (without its result,
    which cannot be judged then).

    A record says neither who acts nor the ends after an action: where ``rules`` (the
    rules the record names) allow the action, they say both (a crosswise matador's
    ends, the opener who plays again); where they do not, the mechanics guess them (the
    holder of the tile laid, the next seat, the ends an inline placement writes).
    """
    deal, players = observed.deal, observed.players
    designated = deal.designated if deal.designated is not None else 0
    table = TableState.dealt(deal, designated)
    states: list[TableState | None] = []
    parsed = tuple(_parsed(step) for step in observed.steps)
    own = _own(rules, observed) if rules is not None else None
    for index, step in enumerate(observed.steps):
        read = parsed[index]
        guided = None
        if rules is not None and step.seat is None and read is not None:
            guided = _guided(rules, observed, table, own, read.action)
        if guided is not None:
            actor, after, own = guided
            if actor != table.to_act:
                table = dataclasses.replace(table, to_act=actor, drawn=None, just_opened=False)
        states.append(table if table.opened else None)
        try:
            if read is None:
                raise ValueError("not in the notation")
            if guided is not None and after is not None:
                table = after
            else:
                seat = _seat(table, read.action, step, players)
                table = table.after(read.action, seat, read.ends)
        except ValueError:
            # a line the mechanics cannot carry on (a tile the seat does not hold, an
            # action outside the notation) is judged up to that step; its end cannot be
            cut = index + 1
            return dataclasses.replace(
                observed,
                steps=observed.steps[:cut],
                result=None,
                states=(*states, None),
                parsed=parsed[:cut],
            )
        following = observed.steps[index + 1].seat if index + 1 < len(observed.steps) else None
        if following is not None and following != table.to_act:
            table = dataclasses.replace(table, to_act=following, drawn=None, just_opened=False)
    final = table if table.opened else None
    return dataclasses.replace(observed, states=(*states, final), parsed=parsed)


def _own(rules: Rules, observed: Observed) -> Hand | None:
    """The hand under ``rules`` from the deal, to follow the steps before the opening."""
    try:
        return Hand(sized(rules, observed.players, observed.shape), observed.deal)
    except (DealError, ValueError):
        return None


def _guided(
    rules: Rules, observed: Observed, table: TableState, own: Hand | None, action: AnyAction
) -> tuple[int, TableState | None, Hand | None] | None:
    """Who does ``action`` at ``table`` and the table after it, as ``rules`` say, with the
    hand still followed before the opening; None where the rules do not allow it."""
    if table.opened:
        hand: Hand | None = hand_at(sized(rules, observed.players, observed.shape), table)
    else:
        hand = own
    if hand is None or hand.is_over:
        return None
    offered = next((a for a in hand.legal_actions() if a == action), None)
    if offered is None:
        return None
    actor = hand.current
    hand.apply(offered)
    if hand.opener is None:
        return actor, None, hand  # still before the opening: the mechanics carry it
    return actor, state_of(hand), None


def _parsed(step: Step) -> Parsed | None:
    try:
        legal = None if step.legal is None else frozenset(map(_action, step.legal))
        ends = None if step.ends is None else tuple(map(parse_end, step.ends))
        return Parsed(_action(step.action), legal, ends)
    except NotationError:
        return None


def _action(text: str) -> AnyAction:
    """An action read, remembered: a hand's actions come back again and again."""
    found = _READ.get(text)
    if found is None:
        found = Action.parse(text)
        if len(_READ) < 50_000:
            _READ[text] = found
    return found


_READ: dict[str, AnyAction] = {}


def _seat(table: TableState, action: AnyAction, step: Step, players: int) -> int:
    """Who did ``action``: the seat the engine named, else the holder of the tile laid, else
    the seat the table has to act."""
    if step.seat is not None:
        return step.seat
    if isinstance(action, Play):
        for seat in range(players):
            if action.tile in table.hands[seat]:
                return seat
    return table.to_act
