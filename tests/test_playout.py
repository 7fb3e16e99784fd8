"""play_out() plays the very hand the public loop plays, under every rule it can meet.

:func:`reference_engine.engine.playout.play_out` writes an ordinary turn out as one
loop instead of calling ``legal_actions()`` and ``apply()``; simulations use it.
It must stay the same game: for every shipped variant, every value of every
option it offers, every value of the rules that decide a turn (draw, pass, the
single draw and what follows it) and of the opener's second tile, and every
player count, the two loops are played side by side on the same seeded deals,
and must end with the same history, the same outcome, the same state in every
field, and the random generator in the same state (the same numbers drawn).
"""

from __future__ import annotations

import random
import types
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import cast

import pytest

from reference_engine.conformance.analysis.decisive import VARIED
from reference_engine.conformance.judging.counterfactual import altered
from reference_engine.engine import playout as playout_module
from reference_engine.engine.actions import DRAW, PASS, AnyAction, Play
from reference_engine.engine.deal import Deal
from reference_engine.engine.hand import Hand
from reference_engine.engine.playout import play_out
from reference_engine.engine.strategies import random_choice
from reference_engine.rules import Catalog, Rules
from reference_engine.rules.parameters import BY_NAME
from reference_engine.simulate.tally import play_hand

SEEDS = range(25)


def _public_loop(hand: Hand, rng: random.Random) -> None:
    """The loop play_out() stands for, written with the public methods only."""
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.apply(legal[0] if len(legal) == 1 else legal[rng.randrange(len(legal))])


def _rule_sets() -> Iterator[tuple[str, Rules]]:
    """Every shipped variant under each option value, and under each other value of
    the turn rules and of the opener's second tile (where it applies)."""
    catalog = Catalog.shipped()
    for variant in catalog.ids():
        base = catalog.resolve(variant)
        yield variant, base
        for option in base.options:
            for value in option.values:
                if value.name != option.default:
                    label = f"{variant}:{option.name}={value.name}"
                    yield label, catalog.resolve(variant, {option.name: value.name})
        for rule in (*VARIED, "opener_plays_again"):
            for other in BY_NAME[rule].values or (True, False):
                changed = altered(base, rule, other)
                if changed is not None:
                    yield f"{variant} with {rule}={other}", changed


RULE_SETS = dict(_rule_sets())


def _state(hand: Hand) -> dict[str, object]:
    """Every field of a hand, the deal and the lazily scored outcome aside."""
    return {name: value for name, value in vars(hand).items() if name not in ("deal", "_outcome")}


@pytest.mark.parametrize(
    "label",
    # Each variant as shipped, and under each other value of the turn rules, in the
    # quick loop; under each value of its options, with --slow (CI).
    [pytest.param(label, marks=pytest.mark.slow if ":" in label else ()) for label in RULE_SETS],
)
def test_play_out_plays_the_public_loops_hand(label: str) -> None:
    rules = RULE_SETS[label]
    for players in rules.players:
        for seed in SEEDS:
            deal = Deal.shuffled(rules, players, random.Random(seed))
            stepped, fused = Hand(rules, deal), Hand(rules, deal)
            one, other = random.Random(seed), random.Random(seed)
            _public_loop(stepped, one)
            play_out(fused, other)
            where = f"{label}, {players} players, seed {seed}"
            assert fused.history == stepped.history, where
            assert fused.outcome == stepped.outcome, where
            assert _state(fused) == _state(stepped), where
            assert other.getstate() == one.getstate(), where


def test_the_rule_sets_reach_every_kind_of_turn() -> None:
    """The sweep above is only worth something if its hands draw, draw once, pass
    beside a placement, and lay the opener's second tile: it does all of these."""
    seen: set[str] = set()
    for rules in RULE_SETS.values():
        for players in rules.players:
            for seed in range(10):
                hand = Hand(rules, Deal.shuffled(rules, players, random.Random(seed)))
                table = hand.table
                play_out(hand, random.Random(seed))
                history = hand.history
                if DRAW in history:
                    seen.add("draw")
                    if table.one_draw_per_turn:
                        seen.add("single draw")
                if PASS in history and table.pass_always:
                    seen.add("pass beside a placement")
                if table.opener_plays_again and sum(isinstance(a, Play) for a in history) > 1:
                    seen.add("opener's second tile")
                if hand.outcome is not None:
                    seen.add(hand.outcome.termination.value)
    assert seen >= {
        "draw",
        "single draw",
        "pass beside a placement",
        "opener's second tile",
        "domino",
        "blocked",
    }


def test_play_out_continues_a_hand_already_under_way() -> None:
    """A hand part played through the public methods is finished the same way."""
    rules = Catalog.shipped().resolve("german")
    for seed in SEEDS:
        deal = Deal.shuffled(rules, 2, random.Random(seed))
        stepped, fused = Hand(rules, deal), Hand(rules, deal)
        one, other = random.Random(seed), random.Random(seed)
        for hand, rng in ((stepped, one), (fused, other)):
            for _ in range(3):
                if not hand.is_over:
                    legal = hand.legal_actions()
                    hand.apply(legal[0] if len(legal) == 1 else legal[rng.randrange(len(legal))])
        _public_loop(stepped, one)
        play_out(fused, other)
        assert fused.history == stepped.history
        assert _state(fused) == _state(stepped)


def test_a_finished_hand_is_left_alone() -> None:
    rules = Catalog.shipped().resolve("pagat")
    hand = Hand(rules, Deal.shuffled(rules, 4, random.Random(1)))
    play_out(hand, random.Random(1))
    history, rng = list(hand.history), random.Random(5)
    before = rng.getstate()
    play_out(hand, rng)
    assert hand.history == history and rng.getstate() == before


def _like_random_choice(hand: Hand, legal: Sequence[AnyAction], rng: random.Random) -> AnyAction:
    return random_choice(hand, legal, rng)


def test_simulations_play_random_seats_with_play_out() -> None:
    """The simulator's play_hand gives the same hand whether or not it takes the fast loop."""
    rules = Catalog.shipped().resolve("polish")
    for seed in range(30):
        deal = Deal.shuffled(rules, 3, random.Random(seed))
        fast, slow = Hand(rules, deal), Hand(rules, deal)
        play_hand(fast, [random_choice], random.Random(seed))
        # A strategy that is not random_choice itself, but chooses as it does,
        # takes the step-by-step loop.
        play_hand(slow, [_like_random_choice], random.Random(seed))
        assert fast.history == slow.history
        assert fast.outcome == slow.outcome


def test_a_rule_set_differs_from_its_base_where_it_says() -> None:
    """The labels are honest: an altered rule set differs from its variant's rules."""
    catalog = Catalog.shipped()
    for label, rules in RULE_SETS.items():
        if " with " in label:
            variant, change = label.split(" with ")
            rule, _ = change.split("=")
            base = catalog.resolve(variant)
            assert getattr(rules, rule) != getattr(base, rule), label


# ---------------------------------------------------------------------------- teeth
#: Plausible mistakes in play_out()'s own loop, as (what is wrong, text, replacement):
#: the sweep above must notice each (the conformance suite judges the public
#: methods, not this loop).
PLAYOUT_MUTANTS = (
    (
        "draws past the reserve",
        "without_play[drawn < limit]",
        "without_play[drawn <= limit]",
    ),
    ("a placement does not end a run of passes", "                passes = 0\n", ""),
    ("blocked one pass late", "if passes >= players:", "if passes > players:"),
    ("a single draw does not end the drawing", "            if one_draw:", "            if False:"),
    ("no draw or pass beside a placement", "            if optional:", "            if False:"),
    (
        "the seat after a pass plays again",
        "                return\n            seat = following[seat]\n",
        "                return\n",
    ),
    ("a drawn tile is not taken", "hands[seat] = held | bit", "hands[seat] = held"),
    (
        "a choice is drawn with a bit too few",
        "                size = count.bit_length()\n",
        "                size = count.bit_length() - 1\n",
    ),
    (
        "a choice of the last action is drawn again",
        "                while number >= count:\n",
        "                while number >= count - 1:\n",
    ),
    (
        "the opening tile is one place off",
        "for _ in range(place):",
        "for _ in range(place - 1):",
    ),
)


def _mutated_play_out(old: str, new: str) -> Callable[[Hand, random.Random], None]:
    """play_out() of a copy of the module with ``old`` replaced by ``new`` (once)."""
    source = Path(playout_module.__file__).read_text(encoding="utf-8")
    assert source.count(old) == 1, old
    module = types.ModuleType("reference_engine.engine._mutated_playout")
    module.__package__ = "reference_engine.engine"
    exec(compile(source.replace(old, new), "<mutant>", "exec"), module.__dict__)
    return cast(Callable[[Hand, random.Random], None], module.play_out)


def _first_difference(play: Callable[[Hand, random.Random], None]) -> str | None:
    """The first rule set and seed where ``play`` parts from the public loop, if any."""
    for label, rules in RULE_SETS.items():
        for players in rules.players:
            for seed in range(8):
                deal = Deal.shuffled(rules, players, random.Random(seed))
                stepped, fused = Hand(rules, deal), Hand(rules, deal)
                _public_loop(stepped, random.Random(seed))
                try:
                    play(fused, random.Random(seed))
                except Exception as error:  # a mutant may also crash
                    return f"{label}: {type(error).__name__}"
                if fused.history != stepped.history or _state(fused) != _state(stepped):
                    return f"{label}, {players} players, seed {seed}"
    return None


@pytest.mark.parametrize(
    ("what", "old", "new"), PLAYOUT_MUTANTS, ids=[m[0] for m in PLAYOUT_MUTANTS]
)
def test_the_sweep_catches_a_mistake_in_play_out(what: str, old: str, new: str) -> None:
    assert _first_difference(_mutated_play_out(old, new)) is not None, what


def test_the_unmutated_copy_passes_the_sweep() -> None:
    """The copying itself changes nothing: a copy with no change agrees everywhere."""
    assert _first_difference(_mutated_play_out("def play_out(", "def play_out(")) is None
