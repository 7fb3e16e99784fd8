"""Smoke tests: every shipped variant, option value and player count plays to the end.

For each variant, its defaults and each non-default option value chosen alone
(the choices a loader must check, SPEC section 12.3), and each player count the
resolved rules allow, random hands are dealt with a fixed seed and played with
random legal actions to the end. The whole file runs in a couple of seconds;
it is meant to catch a crash or a hand that never ends anywhere in the catalogue.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from reference_engine.engine import compiled as compiled_module
from reference_engine.engine.actions import Draw, Pass, Play
from reference_engine.engine.compiled import compiled
from reference_engine.engine.deal import Deal
from reference_engine.engine.hand import Hand
from reference_engine.engine.record import play_match
from reference_engine.engine.scoring import Outcome, Termination
from reference_engine.engine.strategies import STRATEGIES
from reference_engine.engine.tiles import full_set
from reference_engine.rules import Catalog, Rules
from reference_engine.rules.vocabulary import DrawWhen, Partnership, TargetUnit

HANDS = 30
SEED = 20240601
#: A hand played with legal actions only must end within this many actions.
MAX_ACTIONS = 2000

Choice = tuple[tuple[str, str], ...]


@cache
def resolved(variant: str, choice: Choice) -> Rules:
    return Catalog.shipped().resolve(variant, dict(choice))


def _configs() -> list[tuple[str, Choice, int]]:
    configs = []
    for variant in Catalog.shipped().ids():
        choices: list[Choice] = [()]
        for option in resolved(variant, ()).options:
            choices += [((option.name, v.name),) for v in option.values if v.name != option.default]
        for choice in choices:
            for players in resolved(variant, choice).players:
                configs.append((variant, choice, players))
    return configs


CONFIGS = _configs()
IDS = [f"{v}-{'+'.join(f'{k}={x}' for k, x in c) or 'defaults'}-{p}p" for v, c, p in CONFIGS]


def test_every_variant_and_option_value_is_smoke_tested() -> None:
    variants = {variant for variant, _, _ in CONFIGS}
    assert variants == set(Catalog.shipped().ids()) and len(variants) == 15
    for variant in variants:
        for option in resolved(variant, ()).options:
            for value in option.values:
                chosen = ((option.name, value.name),)
                assert value.name == option.default or any(
                    config[:2] == (variant, chosen) for config in CONFIGS
                ), (variant, chosen)


def play_hand(rules: Rules, deal: Deal, rng: random.Random) -> Hand:
    hand = Hand(rules, deal)
    for _ in range(MAX_ACTIONS):
        if hand.is_over:
            break
        legal = hand.legal_actions()
        assert legal, "a hand that is not over always offers an action"
        hand.apply(legal[rng.randrange(len(legal))])
    assert hand.is_over, f"no end after {MAX_ACTIONS} actions"
    return hand


@pytest.mark.parametrize(("variant", "choice", "players"), CONFIGS, ids=IDS)
def test_random_hands_play_to_the_end(variant: str, choice: Choice, players: int) -> None:
    rules = resolved(variant, choice)
    rng = random.Random(SEED)
    entry = rules.hand_size.entry(players)
    if entry == "all":  # SPEC 5.3: the set shared out, the first seats taking one more
        share, extra = divmod(rules.tile_count, players)
        sizes = [share + 1] * extra + [share] * (players - extra)
    else:
        sizes = [int(entry)] * players
    sides = 2 if rules.partnership is Partnership.TWO_VS_TWO else players
    endings = set()
    for _ in range(HANDS):
        deal = Deal.shuffled(rules, players, rng)
        assert [len(held) for held in deal.hands] == sizes
        assert sorted([*deal.boneyard, *(t for held in deal.hands for t in held)]) == list(
            full_set(rules.max_pip)
        )
        hand = play_hand(rules, deal, rng)
        outcome = hand.outcome
        assert isinstance(outcome, Outcome)
        assert hand.legal_actions() == ()
        assert len(outcome.pips) == players and len(outcome.points) == sides
        assert outcome.pips == hand.pips()
        assert all(points >= 0 for points in outcome.points)
        assert sum(1 for points in outcome.points if points) <= 1  # only the winner scores
        if outcome.termination is Termination.DOMINO:
            assert outcome.went_out is not None and hand.hand_of(outcome.went_out) == ()
            assert isinstance(hand.history[-1], Play)
        elif outcome.termination is Termination.BLOCKED:
            assert all(isinstance(a, Pass) for a in hand.history[-players:])
        else:
            assert outcome.termination is Termination.REDEAL and hand.history == []
        endings.add(outcome.termination)
    assert endings & {Termination.DOMINO, Termination.BLOCKED}


@pytest.mark.parametrize(("variant", "choice", "players"), CONFIGS[::7], ids=IDS[::7])
def test_the_same_seed_plays_the_same_hands(variant: str, choice: Choice, players: int) -> None:
    rules = resolved(variant, choice)

    def histories() -> list[list[str]]:
        rng = random.Random(SEED)
        return [
            [str(a) for a in play_hand(rules, Deal.shuffled(rules, players, rng), rng).history]
            for _ in range(3)
        ]

    first = histories()
    assert first == histories()
    assert any(first)


@pytest.mark.parametrize(
    "strategy",
    # (the expert searches at every decision: its whole matches are the slow suite's)
    [
        pytest.param(name, marks=pytest.mark.slow) if name == "expert" else name
        for name in sorted(STRATEGIES)
    ],
)
@pytest.mark.parametrize(
    ("variant", "players"),
    [("gamerules-com", 2), ("pagat", 4), ("house", 3), ("german", 3), ("jeux-de-hasard", 4)],
)
def test_whole_matches_reach_their_target(variant: str, players: int, strategy: str) -> None:
    rules = resolved(variant, ())
    match = play_match(rules, players, seed=SEED, strategy=STRATEGIES[strategy], max_hands=400)
    assert match.is_over and match.winner is not None
    counts = match.scores if rules.target.unit is TargetUnit.POINTS else match.hands_won
    assert counts[match.winner] >= rules.target.value
    assert all(hand.is_over for hand in match.hands)
    drew = any(isinstance(a, Draw) for hand in match.hands for a in hand.history)
    nothing_to_draw = all(
        len(hand.deal.boneyard) <= rules.reserve.for_players(players) for hand in match.hands
    )
    assert drew or nothing_to_draw or rules.draw_when is DrawWhen.NEVER


def test_tables_stay_shared_by_equal_rules_when_their_memory_is_emptied(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tables remembered by content are forgotten past a bound: those remembered by
    rules object go with them, or equal rules would no longer share one table."""
    first = Catalog.shipped().resolve("pagat")
    compiled(first)
    full = {("another set of rules", number): None for number in range(257)}
    monkeypatch.setattr(compiled_module, "_BY_CONTENT", full)
    # (a copy: put back as it was afterwards, consistent with the content memory)
    monkeypatch.setattr(compiled_module, "_BY_OBJECT", dict(compiled_module._BY_OBJECT))
    again = Catalog.load().resolve("pagat")
    assert compiled(again) is compiled(first)


def test_compiled_tables_are_shared_by_equal_rules_only() -> None:
    """Tables are built once per set of rule values, whichever object carries them."""
    catalog = Catalog.shipped()
    # A catalog resolves the same variant to the same object; another catalog, to its own.
    first, again = catalog.resolve("pagat"), Catalog.load().resolve("pagat")
    assert first is not again and compiled(first) is compiled(again)
    other = catalog.resolve("pagat", {"crosswise": "berndt"})
    assert compiled(other) is not compiled(first)
    assert compiled(other).rules.matador_modes == other.matador_modes
