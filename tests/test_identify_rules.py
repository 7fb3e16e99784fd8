"""identify judges each check at the state the engine reached, under each rule set on its own,
and names the rules an engine departs in.

The machinery: a table followed by mechanics alone gives the same legal actions as
the engine that played the line (``TableState``, ``hand_at``); a family's checks
depend on that family's rules only (so candidates alike there share them); the
candidate pool built from single options equals resolving every combination.
The judgement: engines that break one rule of a variant (a relay over the
reference) are named with that variant and that rule; the two example engines
with their planted rules; a rule the random hands never put to the test is
settled by a hand built for it; game records are judged like an engine.
"""

from __future__ import annotations

import dataclasses
import json
import random
import shutil
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from conftest import CliResult
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from reference_engine.conformance.analysis.agreement import Family, family_checks, family_rules
from reference_engine.conformance.analysis.candidates import candidates
from reference_engine.conformance.analysis.identification import (
    Identification,
    identify,
    identify_records,
)
from reference_engine.conformance.analysis.observe import Observation, observe
from reference_engine.conformance.analysis.ranking import project
from reference_engine.conformance.protocol.interface import EngineInfo, ReferenceEngine
from reference_engine.conformance.session.runner import Runner
from reference_engine.conformance.suite.casedata import Target
from reference_engine.engine.deal import Deal, shape_of
from reference_engine.engine.hand import Hand
from reference_engine.engine.match import Match
from reference_engine.engine.record import match_record, play_match
from reference_engine.engine.state import TableState, hand_at
from reference_engine.engine.strategies import STRATEGIES
from reference_engine.rules import Catalog, Rules
from reference_engine.rules.model import PerPlayers

ROOT = Path(__file__).resolve().parents[1]
CATALOG = Catalog.shipped()
VARIANTS = CATALOG.ids()
NODE = shutil.which("node")


# --------------------------------------------------------------------------- the machinery


@given(st.sampled_from(VARIANTS), st.integers(0, 2**32 - 1))
@settings(max_examples=examples(60), deadline=None)
def test_a_table_followed_by_mechanics_allows_what_the_engine_allows(
    variant: str, seed: int
) -> None:
    rules = CATALOG.resolve(variant)
    rng = random.Random(seed)
    players = rng.choice(rules.players)
    hand = Hand(rules, Deal.shuffled(rules, players, rng, designated=rng.randrange(players)))
    table: TableState | None = None
    while not hand.is_over:
        legal = hand.legal_actions()
        if table is not None:
            built = hand_at(rules, table)
            assert built.legal_actions() == legal
        action, seat = legal[rng.randrange(len(legal))], hand.current
        hand.apply(action)
        if table is None and hand.opener is not None:
            held = tuple(hand.hand_of(s) for s in range(players))
            left = tuple(hand.deal.boneyard[len(hand.deal.boneyard) - hand.boneyard_count :])
            table = TableState(held, hand.ends, left, hand.current, hand.opener, just_opened=True)
        elif table is not None:
            table = dataclasses.replace(table.after(action, seat, hand.ends), to_act=hand.current)
    if table is not None:
        assert hand_at(rules, table).outcome == hand.outcome


@pytest.fixture(scope="module")
def pool() -> list[Any]:
    return candidates(CATALOG)[0]


def reference(variant: str) -> Runner:
    return Runner(ReferenceEngine, timeout=30, known_variants=VARIANTS, catalog=CATALOG)


def observed(variant: str, hands: int = 3) -> Observation:
    rules = CATALOG.resolve(variant)
    runner = reference(variant)
    try:
        runner.engine()
        shapes = {n: [shape] for n in rules.players if (shape := shape_of(rules, n))}
        return observe(runner, Target(variant), rules, hands, shapes, 7)
    finally:
        runner.close()


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_reference_agrees_with_its_own_rules_in_every_check(variant: str) -> None:
    observation = observed(variant)
    rules = observation.rules
    for hand in observation.hands:
        for family in Family:
            if family is not Family.DEAL:
                assert False not in family_checks(family, rules, hand, True), (family, hand)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["gamerules-com", "german", "pagat"])
def test_a_family_s_checks_depend_on_that_family_s_rules_alone(
    variant: str, pool: list[Any]
) -> None:
    """Two candidates alike in a family's rules get that family's checks alike, whatever
    else they differ in: this is what lets identify check each projection once."""
    observation = observed(variant, 2)
    counts = {hand.players for hand in observation.hands}
    fitting = [c for c in pool if c.rules.max_pip == 6 and counts <= set(c.rules.players)]
    rng = random.Random(5)
    for family in (Family.OPENING, Family.PLAY, Family.SCORING):
        by_key: dict[Any, list[Rules]] = {}
        for candidate in fitting:
            by_key.setdefault(project(candidate.rules, family), []).append(candidate.rules)
        alike = [group for group in by_key.values() if len(group) > 1]
        for group in rng.sample(alike, min(12, len(alike))):
            first, other = rng.sample(group, 2)
            for hand in observation.hands:
                assert family_checks(family, first, hand, True) == family_checks(
                    family, other, hand, True
                ), (family, first.variant, first.chosen, other.variant, other.chosen)


@pytest.mark.slow
def test_the_pool_built_from_single_options_is_every_combination_resolved(
    pool: list[Any],
) -> None:
    from reference_engine.engine.compiled import content_key

    assert len(pool) == candidates(CATALOG)[1]
    for candidate in pool:
        resolved = CATALOG.resolve(candidate.variant, candidate.options)
        assert content_key(candidate.rules) == content_key(resolved), candidate.label
        assert dict(candidate.rules.chosen) == dict(resolved.chosen)


def test_every_rule_is_in_a_family_or_said_to_be_a_match_s() -> None:
    from reference_engine.conformance.analysis.agreement import match_rules
    from reference_engine.rules.parameters import BY_NAME

    covered = {name for family in Family for name in family_rules(family)}
    effectless = {name for name, p in BY_NAME.items() if p.consumer is None}
    assert covered | set(match_rules()) | effectless == set(BY_NAME)
    assert not covered & set(match_rules())


# --------------------------------------------------------------------------- engines judged


class Relay(ReferenceEngine):
    """The reference playing ``variant`` with one rule changed, declaring ``variant``."""

    def __init__(self, variant: str, change: Mapping[str, Any], sizes: Mapping[int, int]) -> None:
        super().__init__()
        self.variant, self.change, self.sizes = variant, dict(change), dict(sizes)

    def hello(self) -> EngineInfo:
        plays = {self.variant: {"hand_sizes": {str(n): s for n, s in self.sizes.items()}}}
        return EngineInfo(
            name="relay",
            version="1",
            variants={self.variant: {}},
            plays=plays if self.sizes else {},
        )

    def new_match(self, variant: str, options: Mapping[str, str], players: int) -> None:
        super().new_match(variant, options, players)
        rules = dataclasses.replace(self.catalog.resolve(variant), **self.change)
        self._match = Match(rules, players)


def identified(factory: Callable[[], Any], hands: int = 6, seed: int = 2) -> Identification:
    runner = Runner(factory, timeout=30, known_variants=VARIANTS, catalog=CATALOG)
    try:
        (found,), _, _ = identify(runner, CATALOG, hands=hands, seed=seed, top=3)
    finally:
        runner.close()
    return found


RELAYS = [
    # (variant, the one rule changed, the engine's declared hand sizes, the rule named)
    ("gamerules-com", {"hand_size": PerPlayers(two=6, three=6, four=5)}, {2: 6}, "hand_size"),
    # (a reserve of two is an option of gamerules-com: one tile is no shipped value)
    ("gamerules-com", {"reserve": PerPlayers(two=1, three=1, four=1)}, {}, "reserve"),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "change", "sizes", "rule"), [relay for relay in RELAYS if relay[3]]
)
def test_an_engine_breaking_one_rule_is_named_with_its_variant_and_that_rule(
    variant: str, change: Mapping[str, Any], sizes: Mapping[int, int], rule: str
) -> None:
    found = identified(lambda: Relay(variant, change, sizes))
    first = found.ranking[0]
    assert first.candidate.variant == variant
    assert first.departs == (rule,)
    assert {r for r, n in first.differs.items() if n} == {rule}
    assert found.inference is not None
    if rule in found.inference.dealt_rule:  # the deals offered tell the sizes dealt
        taken = {p.shape for p in found.observation.probes if p.accepted and p.players == 2}
        assert taken == {(6, 6)}
    else:
        assert found.inference.inferred(rule) == change[rule]


@pytest.mark.slow
def test_an_engine_scoring_otherwise_is_named_with_the_points_it_plays() -> None:
    other = CATALOG.resolve("pagat", {"difference": "each_opponent_minus_own"})
    change = {"difference_among_several": other.difference_among_several}
    found = identified(lambda: Relay("pagat", change, {}), hands=8)
    first = found.ranking[0]
    assert first.candidate.label == "pagat:difference=each_opponent_minus_own"
    assert first.departs == () and first.exact


class NoDoubleHeaviest(Relay):
    """gamerules-com, declared, with the holder of the heaviest tile opening when no double
    is dealt: what random hands of five to seven tiles almost never show."""

    def __init__(self) -> None:
        other = CATALOG.resolve("gamerules-com", {"no_double": "heaviest_tile"})
        super().__init__("gamerules-com", {"nobody_has_double": other.nobody_has_double}, {})


@pytest.mark.slow
def test_a_rule_the_random_hands_never_test_is_settled_by_a_hand_built_for_it() -> None:
    found = identified(NoDoubleHeaviest, hands=3)
    assert found.separation is not None
    asked = {parted.rule: parted.plays for parted in found.separation.parted}
    assert asked.get("nobody_has_double") == "heaviest_tile"
    assert found.ranking[0].candidate.label == "gamerules-com:no_double=heaviest_tile"
    assert found.ranking[0].departs == ()


@pytest.mark.slow
def test_the_tabletop_example_is_named_with_its_three_planted_rules() -> None:
    sys.path.insert(0, str(ROOT / "docs" / "examples"))
    try:
        from tabletop_adapter import TabletopAdapter  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    found = identified(TabletopAdapter)
    first = found.ranking[0]
    assert first.candidate.variant == "wikipedia-brandreth"
    named = set(first.departs) | {rule for rule, count in first.differs.items() if count}
    assert named == {"hand_size", "draw_when", "matador_modes"}


@pytest.mark.slow
def test_the_seven_up_example_is_named_with_its_three_planted_rules(node: str) -> None:
    from reference_engine.conformance.conform import engine_factory

    command = f"{node} {ROOT / 'docs' / 'examples' / 'seven-up-adapter.js'}"
    found = identified(engine_factory(command, 30), hands=8)
    first = found.ranking[0]
    assert first.candidate.variant == "gamerules-com"
    named = set(first.departs) | {rule for rule, count in first.differs.items() if count}
    # the heaviest tile opening without a double is an option of gamerules-com: the
    # candidate that has it names it in its label, the others depart in it
    assert first.candidate.options == {"no_double": "heaviest_tile"}
    assert named == {"points", "tie"}
    default = next(s for s in found.ranking if s.candidate.label == "gamerules-com")
    assert "nobody_has_double" in default.departs


# --------------------------------------------------------------------------- records


def records_of(variant: str, seeds: range, **options: str) -> list[dict[str, Any]]:
    rules = CATALOG.resolve(variant, options)
    return [
        match_record(play_match(rules, min(rules.players), seed=s, strategy=STRATEGIES["random"]))
        for s in seeds
    ]


@pytest.mark.slow
def test_records_are_identified_as_their_variant() -> None:
    (found,), _, _ = identify_records(records_of("dutch", range(3)), CATALOG)
    assert found.ranking[0].candidate.label == "dutch"
    assert found.ranking[0].exact


@pytest.mark.slow
def test_records_scored_otherwise_depart_in_the_scoring_rule() -> None:
    records = records_of("pagat", range(3), difference="each_opponent_minus_own")
    for record in records:
        record["options"] = {}
    (found,), _, _ = identify_records(records, CATALOG)
    first = found.ranking[0]
    assert first.candidate.label == "pagat:difference=each_opponent_minus_own"
    pagat = next(s for s in found.ranking if s.candidate.label == "pagat")
    assert pagat.departs == ("difference_among_several",)


def test_identify_takes_an_engine_or_records_not_both(
    tmp_path: Path, matador: Callable[..., CliResult]
) -> None:
    record = tmp_path / "a.json"
    record.write_text(json.dumps(records_of("dutch", range(1))[0]), encoding="utf-8")
    both = matador("identify", "--engine", "matador engine", "--records", record)
    assert both.code == 2 and "--engine" in both.err
    neither = matador("identify")
    assert neither.code == 2
    (tmp_path / "empty").mkdir()
    empty = matador("identify", "--records", tmp_path / "empty")
    assert empty.code == 1 and "no game record" in empty.err
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    done = matador("identify", "--records", tmp_path, "--format", "json")
    assert done.code == 1  # a record left out: the answer is of the others, and says so
    assert "left out" in done.err and "bad.json" in done.err
    data = json.loads(done.out)
    assert data["engine"] is None and data["targets"][0]["ranking"][0]["label"] == "dutch"


@pytest.mark.slow
@given(
    st.lists(
        st.sampled_from(["draw", "pass", "6-6", "0-0@L:0", "1-6@R:6", "x", "3-4@E2:4"]), max_size=12
    )
)
@settings(max_examples=examples(12), deadline=None)
def test_records_with_any_line_are_judged_up_to_where_they_break(actions: list[str]) -> None:
    """A record's line the mechanics cannot carry on (a tile nobody holds there, a word
    outside the notation) is judged up to that step: identify never fails on it."""
    (record,) = records_of("dutch", range(1))
    record["hands"][0]["actions"] = actions + record["hands"][0]["actions"]
    (found,), _, _ = identify_records([record], CATALOG)
    assert found.ranking
    assert all(len(h.states) == len(h.steps) + 1 for h in found.observation.hands)


def test_a_record_s_options_at_their_default_are_not_shown_as_chosen() -> None:
    (found,), _, _ = identify_records(records_of("dutch", range(1)), CATALOG)
    assert found.observation.target.options == {}


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["xs4all-matador", "german", "polish-base"])
def test_records_with_crosswise_matadors_are_judged_to_their_end(variant: str) -> None:
    """A record says neither who acts nor the ends a crosswise matador leaves: the rules it
    names say them, so every action and every result is judged, and all agree."""
    records = records_of(variant, range(2))
    (found,), _, _ = identify_records(records, CATALOG)
    first = found.ranking[0]
    assert first.candidate.label == variant and first.exact
    actions = sum(len(hand["actions"]) for record in records for hand in record["hands"])
    assert first.checks >= actions


@pytest.mark.slow
def test_records_show_the_target_their_matches_end_at() -> None:
    """dutch plays to 100 points; a candidate playing to 7 hands won ends those matches
    elsewhere, and departs in the target."""
    (found,), _, _ = identify_records(records_of("dutch", range(3)), CATALOG)
    hands_7 = next(s for s in found.ranking if s.candidate.label == "dutch:target=hands_7")
    assert "target" in hands_7.departs
    assert found.separation is not None and "target" not in found.separation.undetermined


def test_an_output_that_cannot_be_written_is_one_line(
    tmp_path: Path, matador: Callable[..., CliResult]
) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "a.json").write_text(json.dumps(records_of("dutch", range(1))[0]), encoding="utf-8")
    for argv in (["replay", folder], ["identify", "--records", folder]):
        result = matador(*argv, "-o", "/dev/full")
        assert result.code == 1
        assert result.err.strip().endswith("No space left on device")
