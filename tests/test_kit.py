"""The adapter kit: engines not written for the suite, hooked up in a few lines, judged exactly.

The two example engines of docs/examples/ were written with their own APIs and
three deviations each, planted on purpose and listed in their docstrings. The
rules expected broken below are those lists, worked out from SPEC.md when the
engines were written (which rule decides the behaviour changed), never read
back from a report. A kit adapter around the reference engine itself must be
judged as the reference is: the kit adds no deviation of its own.
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_engine.cli import run
from reference_engine.conformance.analysis.rulereport import Standing, rule_verdicts
from reference_engine.conformance.judging.verdicts import CaseRun, Verdict
from reference_engine.conformance.protocol.interface import EngineRefusal
from reference_engine.conformance.session.runner import Runner, select
from reference_engine.conformance.suite.casedata import Case
from reference_engine.engine.actions import AnyAction
from reference_engine.engine.deal import Deal
from reference_engine.engine.hand import Hand
from reference_engine.engine.match import Match
from reference_engine.kit import (
    Adapter,
    RiggedRandom,
    Table,
    fisher_yates_choices,
    rigged_floats,
    stack_for,
)
from reference_engine.kit.rigging import RiggingError
from reference_engine.rules import Catalog

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"
SEVEN_UP = EXAMPLES / "seven-up-adapter.js"
TABLETOP = EXAMPLES / "tabletop_adapter.py"

#: The rules each example engine breaks, from its docstring (worked out from SPEC.md).
SEVEN_UP_BROKEN = {"nobody_has_double", "tie", "points"}
TABLETOP_BROKEN = {"hand_size", "draw_when", "matador_modes"}

TILES = [(a, b) for a in range(7) for b in range(a, 7)]


# --------------------------------------------------------------------------- rigging a shuffle


@given(st.randoms(use_true_random=False), st.sampled_from(["backward", "forward"]))
def test_the_choices_make_the_shuffle_give_the_stack_wanted(
    rng: random.Random, direction: Any
) -> None:
    wanted = list(TILES)
    rng.shuffle(wanted)
    stack = list(TILES)
    choices = iter(fisher_yates_choices(TILES, wanted, direction))
    steps = range(len(stack) - 1, 0, -1) if direction == "backward" else range(len(stack) - 1)
    for i in steps:
        j = next(choices)
        stack[i], stack[j] = stack[j], stack[i]
    assert stack == wanted


@given(st.randoms(use_true_random=False))
def test_a_rigged_generator_rigs_every_common_shuffle(rng: random.Random) -> None:
    wanted = list(TILES)
    rng.shuffle(wanted)
    by_library = list(TILES)
    RiggedRandom(TILES, wanted).shuffle(by_library)
    assert by_library == wanted
    by_floats, floats = list(TILES), iter(rigged_floats(TILES, wanted))
    for i in range(len(by_floats) - 1, 0, -1):
        j = int(next(floats) * (i + 1))
        by_floats[i], by_floats[j] = by_floats[j], by_floats[i]
    assert by_floats == wanted
    forward, generator = list(TILES), RiggedRandom(TILES, wanted, direction="forward")
    for i in range(len(forward) - 1):
        j = generator.randrange(i, len(forward))
        forward[i], forward[j] = forward[j], forward[i]
    assert forward == wanted
    by_randint, generator = list(TILES), RiggedRandom(TILES, wanted)
    for i in range(len(by_randint) - 1, 0, -1):
        j = generator.randint(0, i)
        by_randint[i], by_randint[j] = by_randint[j], by_randint[i]
    assert by_randint == wanted


def test_a_rigged_generator_goes_on_as_a_seeded_one_afterwards() -> None:
    generator = RiggedRandom(TILES, TILES, seed=7)
    generator.shuffle(list(TILES))
    assert generator.random() == random.Random(7).random()


def test_a_stack_that_is_not_the_set_cannot_be_rigged() -> None:
    with pytest.raises(RiggingError):
        fisher_yates_choices(TILES, [*TILES[:-1], (6, 7)])
    with pytest.raises(RiggingError):
        fisher_yates_choices(TILES, TILES[:-1])


def test_the_stack_follows_the_way_the_engine_deals() -> None:
    hands = [[(0, 0), (0, 1)], [(1, 1), (1, 2)]]
    assert stack_for(hands, [(2, 2)]) == [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)]
    assert stack_for(hands, [(2, 2)], dealing="rounds") == [(0, 0), (1, 1), (0, 1), (1, 2), (2, 2)]
    assert stack_for(hands, [(2, 2)], from_end=True)[0] == (2, 2)


# --------------------------------------------------------------------------- the kit adds nothing


class ReferenceBehindTheKit(Adapter):
    """The reference engine as an engine author would wrap one: through the kit's hooks only."""

    name, version = "the reference behind the kit", "1"
    reasons = "engine"

    def new_game(self, variant: str, options: Mapping[str, str], players: int) -> None:
        self.match = Match(Catalog.shipped().resolve(variant, dict(options)), players)
        self.game_hand: Hand | None = None

    def start(self, table: Table) -> bool:
        if self.game_hand is not None:
            self.match.close_hand()
        try:
            self.game_hand = self.match.new_hand(Deal.from_data(dict(table.data), self.match.rules))
        except ValueError:
            return False
        return True

    def seat(self) -> int | None:
        assert self.game_hand is not None
        return None if self.game_hand.is_over else self.game_hand.current

    def moves(self) -> Iterable[AnyAction]:
        assert self.game_hand is not None
        return self.game_hand.legal_actions()

    def play(self, move: AnyAction, seat: int) -> bool | str:
        from reference_engine.errors import IllegalActionError

        assert self.game_hand is not None
        try:
            self.game_hand.apply(move, seat)
        except IllegalActionError as error:
            return error.reason.value
        return True

    def open_ends(self) -> Sequence[int | str]:
        assert self.game_hand is not None
        return [end.notation for end in self.game_hand.ends]

    def tiles(self, seat: int) -> Iterable[tuple[int, int]]:
        assert self.game_hand is not None
        return [(tile.low, tile.high) for tile in self.game_hand.hand_of(seat)]

    def winner(self) -> int | None:
        assert self.game_hand is not None and self.game_hand.outcome is not None
        return self.game_hand.outcome.winner

    def points(self) -> Sequence[int] | None:
        assert self.game_hand is not None and self.game_hand.outcome is not None
        return self.game_hand.outcome.points

    def termination(self) -> str:
        assert self.game_hand is not None and self.game_hand.outcome is not None
        return self.game_hand.outcome.termination.value

    def match_winner(self) -> int | None:
        if self.game_hand is not None and self.game_hand.is_over:
            self.match.close_hand()
        return self.match.winner


@cache
def cases() -> tuple[Case, ...]:
    from shipped import shipped_cases

    loaded, problems = shipped_cases()
    assert problems == ()
    return tuple(loaded)


def judged(factory: Any, variants: Sequence[str]) -> list[CaseRun]:
    """The runs of ``variants``' cases; those that start at a position are left out, as the
    kit takes none (they are skipped for it, test_a_kit_engine_is_asked_no_position)."""
    chosen = [
        (case, target)
        for case, target in select(cases(), variants=list(variants))
        if not any(hand.position for hand in case.hands)
    ]
    runner = Runner(factory)
    try:
        return list(runner.each(chosen))
    finally:
        runner.close()


def test_a_kit_engine_is_asked_no_position() -> None:
    at_positions = [
        (case, target)
        for case, target in select(cases(), variants=["gamerules-com"])
        if any(hand.position for hand in case.hands)
    ]
    runner = Runner(ReferenceBehindTheKit)
    try:
        runs = list(runner.each(at_positions))
    finally:
        runner.close()
    assert runs and {run.verdict for run in runs} == {Verdict.SKIP}
    assert all("takes positions" in run.message for run in runs)


def standing(runs: Sequence[CaseRun]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {kind.value: set() for kind in Standing}
    for verdict in rule_verdicts(runs):
        found[verdict.standing.value].add(verdict.rule)
    return found


@pytest.mark.parametrize("variant", ["gamerules-com", "pagat", "german", "jeux-de-hasard"])
def test_the_kit_around_the_reference_breaks_nothing(variant: str) -> None:
    runs = judged(ReferenceBehindTheKit, [variant])
    assert {run.verdict for run in runs} <= {Verdict.PASS}, [
        (run.case, run.message) for run in runs if run.verdict is not Verdict.PASS
    ]
    # it declares everything; only a request of an unknown type cannot be asked in process
    assert {rule for run in runs for rule in run.not_judged} <= {"protocol"}


class NoScoreNoReasons(ReferenceBehindTheKit):
    """The same, with no score, no match and no reasons: those checks are not judged."""

    reasons = "none"
    points = Adapter.points
    match_winner = Adapter.match_winner

    def play(self, move: AnyAction, seat: int) -> bool | str:
        return super().play(move, seat) is True  # refused, with no reason given


def test_what_an_adapter_leaves_out_is_declared_and_not_judged() -> None:
    declared = NoScoreNoReasons().hello().declaration("gamerules-com")
    assert (declared.scoring, declared.matches, declared.reasons) == (False, False, False)
    runs = judged(NoScoreNoReasons, ["gamerules-com", "britannica-1911"])
    assert {run.verdict for run in runs} <= {Verdict.PASS}
    unjudged = {rule for run in runs for rule in run.not_judged}
    assert {"points", "protocol"} <= unjudged
    found = standing(runs)
    assert found["broken"] == found["implicated"] == set()


class DerivedReasons(NoScoreNoReasons):
    """Reasons worked out by the kit from the reference rules, said so in the handshake."""

    reasons = "derived"


def test_derived_reasons_are_the_references_and_say_so() -> None:
    info = DerivedReasons().hello()
    assert info.declaration("gamerules-com").reasons
    assert "reference rules" in info.extra["reasons"]
    runs = judged(DerivedReasons, ["gamerules-com"])
    assert {run.verdict for run in runs} <= {Verdict.PASS}


def test_an_adapter_that_refuses_a_deal_the_rules_accept_breaks_hand_size() -> None:
    class FiveTilesOnly(ReferenceBehindTheKit):
        def start(self, table: Table) -> bool:
            return all(len(hand) == 5 for hand in table.hands) and super().start(table)

    found = standing(judged(FiveTilesOnly, ["gamerules-com"]))
    assert found["broken"] == {"hand_size"}
    assert found["implicated"] == set()


def test_the_kit_refuses_out_of_order_requests_with_the_protocols_codes() -> None:
    adapter = ReferenceBehindTheKit()
    with pytest.raises(EngineRefusal) as refused:
        adapter.legal()
    assert refused.value.code == "no_match"
    adapter.new_match("gamerules-com", {}, 2)
    with pytest.raises(EngineRefusal) as refused:
        adapter.apply("draw", None)
    assert refused.value.code == "no_hand"
    deal = {
        "hands": [
            ["6-6", "3-5", "1-2", "0-4", "2-5", "4-4", "0-3"],
            ["4-6", "1-1", "0-5", "2-6", "3-3", "1-6", "2-4"],
        ]
    }
    adapter.new_hand(deal)
    with pytest.raises(EngineRefusal) as refused:
        adapter.new_hand(deal)
    assert refused.value.code == "hand_in_progress"
    with pytest.raises(EngineRefusal) as refused:
        adapter.apply("6-6", 5)
    assert refused.value.code == "no_such_seat"
    with pytest.raises(EngineRefusal) as refused:
        adapter.apply("six", None)
    assert refused.value.code == "bad_notation"
    assert adapter.apply("1-1", 1) == "not_your_turn"
    assert adapter.apply("6-6", None) is None
    assert adapter.held(0) == ["0-3", "0-4", "1-2", "2-5", "3-5", "4-4"]


# --------------------------------------------------------------------------- the two examples


def test_each_example_adapter_is_at_most_sixty_lines() -> None:
    for adapter in (SEVEN_UP, TABLETOP):
        assert len(adapter.read_text(encoding="utf-8").splitlines()) <= 60, adapter.name


def _tabletop() -> Any:
    sys.path.insert(0, str(EXAMPLES))
    try:
        from tabletop_adapter import TabletopAdapter  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(EXAMPLES))
    return TabletopAdapter


def test_the_object_oriented_example_is_judged_exactly_in_process() -> None:
    runs = judged(_tabletop(), ["wikipedia-brandreth"])
    found = standing(runs)
    assert found["broken"] == TABLETOP_BROKEN
    assert found["implicated"] == set()
    # no score, no reasons: declared, so their checks are not judged, never failed
    unjudged = {rule for run in runs for rule in run.not_judged}
    assert {"points", "protocol"} <= unjudged
    assert not {"points", "protocol"} & {rule for run in runs for rule in run.failed}


def _conform_json(engine: str, variant: str) -> list[dict[str, Any]]:
    out, err = io.StringIO(), io.StringIO()
    code = run(["conform", "--engine", engine, "--variant", variant, "--report", "json"], out, err)
    assert code == 1, err.getvalue()
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _broken(lines: list[dict[str, Any]]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for line in lines:
        if line["type"] == "rule":
            found.setdefault(line["standing"], set()).add(line["rule"])
    return found


@pytest.mark.slow  # the example as a program, over the protocol
def test_the_object_oriented_example_is_judged_exactly_over_the_protocol() -> None:
    engine = f"{sys.executable} {TABLETOP}"
    found = _broken(_conform_json(engine, "wikipedia-brandreth"))
    assert found["broken"] == TABLETOP_BROKEN
    assert "implicated" not in found


@pytest.mark.usefixtures("node")
def test_the_example_that_deals_and_opens_itself_is_judged_exactly() -> None:
    lines = _conform_json(f"{shutil.which('node')} {SEVEN_UP}", "gamerules-com")
    found = _broken(lines)
    assert found["broken"] == SEVEN_UP_BROKEN
    assert "implicated" not in found
    # every rule that failed is reported as such, never as held
    for line in lines:
        if line["type"] == "rule" and line["failed"]:
            assert line["standing"] != "held", line


def _report(engine: str, variant: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    run(["conform", "--engine", engine, "--variant", variant, "--report", "markdown"], out, err)
    return out.getvalue().replace(str(ROOT) + os.sep, "")


@pytest.mark.usefixtures("node")
@pytest.mark.parametrize(
    ("name", "engine", "variant"),
    [
        (
            "tabletop-report.md",
            "python:docs/examples/tabletop_adapter.py:TabletopAdapter",
            "wikipedia-brandreth",
        ),
        ("seven-up-report.md", "node docs/examples/seven-up-adapter.js", "gamerules-com"),
    ],
)
def test_the_example_reports_in_docs_are_fresh(
    name: str, engine: str, variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    expected = _report(engine, variant)
    path = EXAMPLES / name
    if os.environ.get("MATADOR_REGENERATE"):
        path.write_text(expected, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == expected, (
        f"docs/examples/{name} is stale: rerun with MATADOR_REGENERATE=1"
    )


@pytest.mark.usefixtures("node")
def test_the_javascript_kit_rigs_a_shuffle_as_the_python_one_does() -> None:
    wanted = list(TILES)
    random.Random(3).shuffle(wanted)
    script = (
        "const kit = require(process.argv[1]);"
        "const tiles = JSON.parse(process.argv[2]), wanted = JSON.parse(process.argv[3]);"
        "const r = kit.riggedRandom(tiles, wanted); const s = tiles.slice();"
        "for (let i = s.length - 1; i > 0; i--) { const j = Math.floor(r() * (i + 1));"
        " [s[i], s[j]] = [s[j], s[i]]; }"
        "process.stdout.write(JSON.stringify(s));"
    )
    kit = ROOT / "conformance" / "examples" / "matador-kit.js"
    node = shutil.which("node") or "node"
    done = subprocess.run(
        [node, "-e", script, str(kit), json.dumps(TILES), json.dumps(wanted)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert [tuple(tile) for tile in json.loads(done.stdout)] == wanted


# --------------------------------------------------------------------------- slips in the glue


class Slips(ReferenceBehindTheKit):
    """The reference behind the kit with one hook answering what no hook may."""

    slip = ""

    def seat(self) -> int | None:
        seat = super().seat()
        return seat + 10 if self.slip == "seat" and seat is not None else seat

    def open_ends(self) -> Sequence[int | str]:
        ends = super().open_ends()
        return [f"{end}!" for end in ends] if self.slip == "ends" else ends

    def moves(self) -> Iterable[AnyAction]:
        moves = list(super().moves())
        return [("L", (1, 2)) for _ in moves] if self.slip == "moves" else moves  # type: ignore[misc]

    def play(self, move: AnyAction, seat: int) -> Any:
        done = super().play(move, seat)
        return 42 if self.slip == "play" and done is True else done

    def winner(self) -> Any:
        return "north" if self.slip == "winner" else super().winner()


@pytest.mark.parametrize(
    ("slip", "said"),
    [
        ("seat", "seat() gave"),
        ("ends", "open_ends() gave the end"),
        ("moves", "moves() gave"),
        ("play", "play() gave 42"),
        ("winner", "winner() gave 'north'"),
    ],
)
def test_a_slip_in_an_adapter_errors_the_case_saying_which_hook_and_blames_no_rule(
    slip: str, said: str
) -> None:
    class Slipping(Slips):
        pass

    Slipping.slip = slip
    runs = judged(Slipping, ["gamerules-com"])
    errored = [run for run in runs if run.verdict in (Verdict.ERROR, Verdict.NOT_RUN)]
    assert errored and any(said in run.message for run in errored), {r.message for r in errored}
    found = standing(runs)
    assert found["broken"] == found["implicated"] == set()


def test_an_adapter_without_its_hooks_fails_the_handshake_naming_them() -> None:
    class Bare(Adapter):
        def start(self, table: Table) -> bool:
            return True

    runs = judged(Bare, ["gamerules-com"])
    assert {run.verdict for run in runs} == {Verdict.NOT_RUN}
    assert "gives no seat, play, open_ends, tiles, winner, moves (or allows)" in runs[0].message


def test_what_an_engine_prints_as_a_program_does_not_reach_the_replies(tmp_path: Path) -> None:
    program = tmp_path / "noisy.py"
    program.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from test_kit import ReferenceBehindTheKit\n"
        "from reference_engine.kit import serve\n"
        "class Noisy(ReferenceBehindTheKit):\n"
        "    def play(self, move, seat):\n"
        "        print('playing', move)\n"
        "        return super().play(move, seat)\n"
        "serve(Noisy)\n",
        encoding="utf-8",
    )
    out, err = io.StringIO(), io.StringIO()
    argv = ["conform", "--engine", f"{sys.executable} {program}", "--variant", "gamerules-com"]
    code = run(argv, out, err)
    assert code == 0, out.getvalue() + err.getvalue()


@pytest.mark.usefixtures("node")
@pytest.mark.parametrize(
    ("slip", "said"),
    [("seat", "seat() gave 12"), ("ends", "openEnds() gave the end"), ("hooks", "gives no tiles")],
)
def test_the_javascript_kit_says_which_hook_slipped(
    slip: str, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MATADOR_KIT", str(ROOT / "conformance" / "examples" / "matador-kit.js"))
    seven_up = json.dumps(str(EXAMPLES / "seven-up.js"))
    adapter = (EXAMPLES / "seven-up-adapter.js").read_text(encoding="utf-8")
    adapter = adapter.replace('require("./seven-up.js")', f"require({seven_up})")
    if slip == "seat":
        adapter = adapter.replace("return this.game.over ? null : this.game.turn;", "return 12;")
    elif slip == "ends":
        adapter = adapter.replace("[this.game.left, this.game.right]", '["L!", "R!"]')
    else:
        adapter = adapter.replace("tiles(seat) {", "notTiles(seat) {")
    program = tmp_path / "slip.js"
    program.write_text(adapter, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    node = shutil.which("node") or "node"
    code = run(["conform", "--engine", f"{node} {program}", "--variant", "gamerules-com"], out, err)
    assert code in (1, 4)
    assert said in out.getvalue(), out.getvalue()
    assert "RULE" not in out.getvalue()
