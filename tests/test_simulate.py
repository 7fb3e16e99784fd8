"""`matador simulate` and its API: statistics, determinism, exact odds, strategies, reports.

Expected values are worked out by hand here (binomial coefficients of the
deal, textbook interval and test formulas), never read off a run.
"""

from __future__ import annotations

import csv
import io
import json
import os
import pickle
import random
import subprocess
import sys
from collections.abc import Sequence
from fractions import Fraction
from math import comb, sqrt
from pathlib import Path

import pytest
from fitting import flat, unfitted

from reference_engine.cli.app import run
from reference_engine.disputes import odds
from reference_engine.engine.actions import DRAW, PASS, AnyAction, Play
from reference_engine.engine.deal import Deal
from reference_engine.engine.hand import Hand
from reference_engine.engine.strategies import (
    STRATEGIES,
    UnknownStrategy,
    blocker,
    keep_matadors,
    strategy_named,
)
from reference_engine.engine.tiles import Tile
from reference_engine.rules import Catalog, Rules
from reference_engine.simulate import Statistics, Tally, simulate, simulate_all
from reference_engine.simulate.hosted import (
    HostedStrategy,
    StrategyFailed,
    Trusted,
    strategy_for,
)
from reference_engine.simulate.run import chunks, setup_for
from reference_engine.simulate.run import run as run_chunks
from reference_engine.simulate.stats import compare_means, compare_rates, mean_of, wilson

#: The module (the package's ``run`` is the function of the same name).
run_module = sys.modules["reference_engine.simulate.run"]

#: The 99.9% two-sided normal quantile: exact values must fall within this many
#: standard errors of a seeded estimate (the seats' hands of one deal are not
#: independent, so the 95% interval of the rate is not the right yardstick).
Z999 = 3.2905


def resolve(variant: str, **options: str) -> Rules:
    return Catalog.shipped().resolve(variant, options)


def near(estimate: float, exact: float, total: int) -> bool:
    spread = sqrt(exact * (1 - exact) / total)
    return abs(estimate - exact) <= Z999 * spread


# ---------------------------------------------------------------------- statistics


def test_wilson_interval_matches_the_formula_worked_by_hand() -> None:
    # 0 of 10: the interval is [0, z^2 / (n + z^2)] = [0, 3.8415 / 13.8415].
    empty = wilson(0, 10)
    assert empty.low == 0.0
    assert empty.high == pytest.approx(0.27753, abs=1e-5)
    # 5 of 10: centred on 1/2, half-width z*sqrt(1/40 + z^2/400)/(1 + z^2/10).
    half = wilson(5, 10)
    assert half.low == pytest.approx(0.23659, abs=1e-5)
    assert half.high == pytest.approx(0.76341, abs=1e-5)
    assert wilson(10, 10).high == 1.0
    assert wilson(0, 0).total == 0


def test_wilson_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_two_proportion_test_matches_the_textbook_example() -> None:
    # 45/100 against 60/100: pooled 0.525, standard error sqrt(.525 * .475 * .02)
    # = 0.070622, z = 2.1240, two-sided p = 0.03367.
    difference = compare_rates(wilson(45, 100), wilson(60, 100))
    assert difference.value == pytest.approx(0.15)
    assert difference.p_value == pytest.approx(0.03367, abs=1e-4)
    assert difference.significant
    assert not compare_rates(wilson(50, 100), wilson(55, 100)).significant


def test_mean_and_welch_test_from_histograms() -> None:
    # 1, 2, 3, 4 once each: mean 2.5, sample sd sqrt(5/3).
    mean = mean_of({1: 1, 2: 1, 3: 1, 4: 1})
    assert mean.value == 2.5
    assert mean.sd == pytest.approx(sqrt(5 / 3))
    assert mean.low == pytest.approx(2.5 - 1.959964 * sqrt(5 / 3) / 2, abs=1e-5)
    same = compare_means(mean, mean)
    assert same.value == 0 and same.p_value == pytest.approx(1.0)
    shifted = compare_means(mean_of({1: 100, 2: 100}), mean_of({2: 100, 3: 100}))
    assert shifted.value == 1.0 and shifted.significant


# ---------------------------------------------------------------------- exact odds


def test_dealt_hands_without_a_matador_match_the_exact_odds() -> None:
    rules = resolve("britannica-1911")
    stats = simulate(rules, hands=3000, players=3, seed=11)
    exact = odds(6, 7).no_matador  # C(24, 7) / C(28, 7): four matadors in 28 tiles
    assert exact == Fraction(comb(24, 7), comb(28, 7))
    assert stats.tally.dealt == 9000
    assert near(stats.tally.no_matador / stats.tally.dealt, float(exact), stats.tally.dealt)


@pytest.mark.slow
def test_redeal_rate_matches_the_chance_no_double_is_dealt() -> None:
    # Britannica, two players of seven: a redeal when none of the 7 doubles is
    # among the 14 tiles dealt, C(21, 14) / C(28, 14) = 0.0029.
    stats = simulate(resolve("britannica-1911"), hands=20_000, players=2, seed=5)
    exact = comb(21, 14) / comb(28, 14)
    assert near(stats.tally.redeals / stats.hands, exact, stats.hands)


def test_top_double_redeal_rate_is_the_chance_the_six_six_stays_undealt() -> None:
    # The [6-6] holder opens, else a redeal: 14 of the 28 tiles are dealt to two
    # players, so the [6-6] is undealt half the time.
    rules = resolve("dominorules-com", opening="double_six")
    stats = simulate(rules, hands=4000, players=2, seed=2)
    assert near(stats.tally.redeals / stats.hands, 0.5, stats.hands)


def test_the_rates_of_a_hand_add_up() -> None:
    stats = simulate(resolve("german"), hands=1500, players=3, seed=4)
    tally = stats.tally
    assert tally.dominoes + tally.blocked == stats.played
    assert sum(tally.wins) + tally.ties == stats.played
    assert tally.ties <= tally.blocked
    assert sum(tally.actions.values()) == stats.played
    assert stats.hand_length.value > 0


# ---------------------------------------------------------------------- determinism


def test_chunks_cover_the_count_and_depend_only_on_it() -> None:
    plan = list(chunks(1234, 7, 500))
    assert [chunk.count for chunk in plan] == [500, 500, 234]
    assert [chunk.number for chunk in plan] == [0, 1, 2]


def test_the_same_seed_gives_the_same_numbers_in_any_chunk_order() -> None:
    rules = resolve("german")
    whole = simulate(rules, hands=1200, players=2, seed=9).tally
    tallies, _ = run_chunks([(rules, 2, ["random"])], count=1200, matches=False, seed=9)
    assert tallies[0] == whole
    again = Tally()
    parts = [simulate(rules, hands=1200, players=2, seed=9).tally]
    for part in reversed(parts):
        again.merge(part)
    assert again == whole
    assert simulate(rules, hands=1200, players=2, seed=10).tally != whole


def test_worker_processes_give_the_numbers_of_one_process() -> None:
    rules = resolve("pagat")
    one = simulate(rules, hands=1500, seed=3, strategies=["keep-matadors", "random"])
    two = simulate(rules, hands=1500, seed=3, strategies=["keep-matadors", "random"], jobs=2)
    assert two.tally == one.tally
    assert two.metrics() == one.metrics()


def test_a_worker_unpickles_a_target_once_and_keeps_few() -> None:
    """Every chunk of a target is played with one Rules object (its tables found by
    identity), and a worker keeps a bounded number of targets."""
    rules = resolve("german")
    packed = pickle.dumps(setup_for(rules, 2, ["random"], False))
    first = run_module._unpacked(packed)
    assert run_module._unpacked(bytes(packed)) is first  # equal bytes: the same setup
    assert first.rules == rules and first.rules is not rules
    played = [run_module._indexed((0, packed, chunk)) for chunk in chunks(1000, 5, 500)]
    alone = Tally()
    for _, tally in played:
        alone.merge(tally)
    assert alone == simulate(rules, hands=1000, players=2, seed=5).tally
    for count in range(run_module.KEPT_SETUPS + 3):
        setup = run_module.Setup(rules, 2, ("random",) * (count + 1), False)
        run_module._unpacked(pickle.dumps(setup))
    assert len(run_module._UNPACKED) <= run_module.KEPT_SETUPS


@pytest.mark.slow
def test_a_dask_cluster_gives_the_numbers_of_a_local_run() -> None:
    distributed = pytest.importorskip("distributed")
    rules = resolve("german")
    local = simulate(rules, matches=12, players=2, seed=8)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        remote = simulate(rules, matches=12, players=2, seed=8, scheduler=cluster.scheduler_address)
    assert remote.tally == local.tally


def test_matches_count_hands_per_match_and_the_first_openers_wins() -> None:
    stats = simulate(resolve("german", target="hands_7"), matches=25, players=2, seed=1)
    tally = stats.tally
    assert tally.matches + tally.unfinished == 25
    assert sum(tally.match_hands.values()) == tally.matches
    # To seven hands won: at least seven hands, and no more than 13 decided ones
    # plus the ties and redeals along the way.
    assert min(tally.match_hands) >= 7
    assert 0 <= tally.first_wins <= tally.matches
    keys = [metric.key for metric in stats.metrics()]
    assert keys[-4:] == [
        "hands_per_match",
        "first_wins_match",
        "wins_match_side_0",
        "wins_match_side_1",
    ]
    # every finished match has one winning side
    assert sum(tally.match_wins) == tally.matches and len(tally.match_wins) == 2


def test_shared_seeds_give_two_variants_with_one_deal_shape_the_same_deals() -> None:
    first, second = simulate_all(
        [resolve("german"), resolve("german", target="hands_7")], hands=600, players=2, seed=6
    )
    # Only the match target differs: hands are played identically.
    assert first.tally == second.tally


def test_rules_of_ones_own_travel_to_worker_processes() -> None:
    import dataclasses

    changed = dataclasses.replace(resolve("german"), opener_plays_again=False)
    one = simulate(changed, hands=1000, players=2, seed=4)
    assert simulate(changed, hands=1000, players=2, seed=4, jobs=2).tally == one.tally
    assert one.tally != simulate(resolve("german"), hands=1000, players=2, seed=4).tally


def test_a_strategy_other_processes_cannot_import_needs_one_process() -> None:
    def mine(hand: Hand, legal: Sequence[AnyAction], rng: random.Random) -> AnyAction:
        return legal[0]

    rules = resolve("german")
    assert simulate(rules, hands=30, players=2, strategies=[mine]).strategies[0].endswith("mine")
    with pytest.raises(ValueError, match="jobs=1"):
        simulate(rules, hands=30, players=2, strategies=[mine], jobs=2)


def test_bad_arguments_are_refused() -> None:
    rules = resolve("german")
    for bad in (
        {"hands": 0},
        {"hands": 10, "matches": 10},
        {},
        {"hands": 10, "players": 9},
        {"hands": 10, "strategies": []},
    ):
        with pytest.raises(ValueError):
            simulate(rules, **bad)


# ---------------------------------------------------------------------- strategies


def hand_at(variant: str, hands: list[list[str]], boneyard: list[str] | None = None) -> Hand:
    rules = resolve(variant)
    data = {"hands": hands, "designated": 0}
    if boneyard is not None:
        data["boneyard"] = boneyard
    return Hand(rules, Deal.from_data(data, rules))


def test_every_strategy_always_returns_a_legal_action() -> None:
    rng = random.Random(0)
    for name, strategy in STRATEGIES.items():
        for variant in ("pagat", "german", "polish", "britannica-1911"):
            rules = resolve(variant)
            for _ in range(20):
                hand = Hand(rules, Deal.shuffled(rules, min(rules.players), rng))
                while not hand.is_over:
                    legal = hand.legal_actions()
                    action = strategy(hand, legal, rng)
                    assert action in legal, (name, variant)
                    hand.apply(action)


def test_keep_matadors_spends_a_matador_last() -> None:
    rng = random.Random(0)
    six, double = Play(Tile(1, 6), 0, open=6), Play(Tile(2, 2), 1, open=2)
    assert keep_matadors(hand_for_rules(), [six, double, DRAW], rng) is double
    assert keep_matadors(hand_for_rules(), [six, DRAW], rng) is DRAW
    blank = Play(Tile(0, 0), 0, open=0)
    assert keep_matadors(hand_for_rules(), [blank, PASS], rng) is PASS
    # Only matadors go: the heaviest first, so [0-0] is kept longest.
    four = Play(Tile(3, 4), 1, open=4)
    assert keep_matadors(hand_for_rules(), [blank, four], rng) is four


def hand_for_rules() -> Hand:
    rules = resolve("pagat")
    return Hand(rules, Deal.shuffled(rules, 4, random.Random(1)))


def test_blocker_closes_an_end_against_a_player_short_of_matadors() -> None:
    # Seat 0 holds [0-3] and [5-6] against ends 4 and 2; seat 1 holds one tile.
    # [0-3] on the 4 leaves a blank, which no ordinary tile answers (0 + 7 is
    # off the set), and the 5s answer the 2: five unseen ordinary tiles (0-5,
    # 1-5, 3-5, 4-5, 5-5). [5-6] on the 2 leaves 4 and 6, answered by ten
    # (1-3, 2-3, 3-3, 3-5, 3-6 and 0-1, 1-1, 1-2, 1-4, 1-5). The chance that
    # seat 1's one tile of the 26 unseen is not one of the four matadors is
    # 22/26, over one half: the blocker closes; keep-matadors sheds pips.
    rules = resolve("german")
    hand = Hand.at_position(
        rules, players=2, hand=[Tile(0, 3), Tile(5, 6)], ends=(4, 2), boneyard=0
    )
    legal = hand.legal_actions()
    rng = random.Random(0)
    assert blocker(hand, legal, rng) == Play(Tile(0, 3), 0, open=0)
    assert keep_matadors(hand, legal, rng) == Play(Tile(5, 6), 1, open=6)


def test_the_help_names_every_built_in_strategy() -> None:
    from reference_engine.cli.simulate import STRATEGY_HELP

    assert STRATEGY_HELP.split(", ") == list(STRATEGIES)


def test_strategies_by_name_and_by_module() -> None:
    assert strategy_named("blocker") is blocker
    spec = "python:reference_engine.engine.strategies:heaviest"
    assert strategy_named(spec) is STRATEGIES["heaviest"]
    trusted = strategy_for(spec, in_process=True)  # (loaded here, held to legal answers)
    assert isinstance(trusted, Trusted) and trusted.name == spec
    hosted = strategy_for(spec)  # (in a process of its own: nothing of it imported here)
    assert isinstance(hosted, HostedStrategy) and hosted.name == spec
    for bad in ("nosuch", "python:no_such_module_here:x"):
        with pytest.raises(UnknownStrategy):
            strategy_for(bad)
    with pytest.raises(UnknownStrategy, match="has no attribute"):
        strategy_named("python:random:not_there")


SIMULATE = (sys.executable, "-m", "reference_engine.cli", "simulate", "pagat")


@pytest.mark.slow
def test_a_strategy_in_the_current_folder_needs_no_pythonpath(tmp_path: Path) -> None:
    """``python:MODULE:NAME`` and ``python:FILE.py:NAME`` are found from where the user works,
    in the worker processes too."""
    (tmp_path / "my_strategies.py").write_text(
        "def last(hand, legal, rng):\n    return legal[-1]\n", encoding="utf-8"
    )
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    for spec in ("python:my_strategies:last", "python:./my_strategies.py:last"):
        done = subprocess.run(
            [*SIMULATE, "--hands", "40", "--strategy", spec, "--jobs", "2", "--format", "json"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["targets"][0]["hands"] == 40
    done = subprocess.run(
        [*SIMULATE, "--hands", "10", "--strategy", "python:my_strategies:nope"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert len(unfitted(done.stderr)) == 1 and "has no attribute 'nope'" in flat(done.stderr)
    assert "Traceback" not in done.stderr


# ---------------------------------------------------------------------- the command


def matador(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(["simulate", *argv], out, err)
    return status, out.getvalue(), err.getvalue()


def test_the_table_compares_two_variants_in_80_columns() -> None:
    status, out, err = matador(
        "german", "german:drawn_tile=must_play", "--hands", "800", "--players", "2", "--jobs", "1"
    )
    assert status == 0, err
    assert "A = german, 2 players" in out
    assert "B = german:drawn_tile=must_play" in out
    assert "B - A" in out and "opener's side wins" in out
    assert max(map(len, out.splitlines())) <= 80


def test_json_and_csv_reports_carry_the_same_figures() -> None:
    args = ("german", "britannica-1911", "--hands", "500", "--players", "2", "--jobs", "1")
    status, out, _ = matador(*args, "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert [t["label"] for t in data["targets"]] == ["german", "britannica-1911"]
    blocked = data["targets"][1]["metrics"]["blocked"]
    assert blocked["kind"] == "rate" and blocked["low"] <= blocked["value"] <= blocked["high"]
    assert set(data["comparisons"][0]["metrics"]) >= {"blocked", "points", "opener_wins"}
    status, out, _ = matador(*args, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    row = next(r for r in rows if r["target"] == "B" and r["metric"] == "blocked")
    assert float(row["value"]) == pytest.approx(blocked["value"])
    assert row["significant"] in ("True", "False")


def test_options_for_every_variant_and_output_to_a_file(tmp_path: object) -> None:
    from pathlib import Path

    target = Path(str(tmp_path)) / "report.json"
    status, out, err = matador(
        "german", "-O", "target=hands_7", "--hands", "200", "--players", "2",
        "--format", "json", "--output", str(target), "--jobs", "1",
    )  # fmt: skip
    assert status == 0, err
    assert out == ""
    assert json.loads(target.read_text())["targets"][0]["label"] == "german:target=hands_7"


@pytest.mark.parametrize(
    ("argv", "status", "message"),
    [
        (["nosuch", "--hands", "10"], 1, "nosuch"),
        (["german", "--hands", "0"], 2, "positive"),
        (["german", "--strategy", "clever"], 2, "no strategy 'clever'"),
        (["german", "--players", "7", "--hands", "10"], 1, "played by"),
        (["german:target", "--hands", "10"], 2, "NAME=VALUE"),
        (["german:target=hands_7", "-O", "target=points_100"], 2, "sets target"),
        (["german", "--hands", "10", "--plot", "out.pdf"], 2, ".png or FILE.svg"),
        (["german", "--hands", "10", "--jobs", "100000"], 2, "use a Dask cluster"),
    ],
)
def test_bad_command_lines_say_what_is_wrong(argv: list[str], status: int, message: str) -> None:
    got, _, err = matador(*argv)
    assert got == status
    assert message in err
    assert "Traceback" not in err


@pytest.mark.slow
def test_plot_draws_a_png(tmp_path: object) -> None:
    from pathlib import Path

    pytest.importorskip("matplotlib")
    picture = Path(str(tmp_path)) / "sim.png"
    status, _, err = matador(
        "german", "britannica-1911", "--hands", "300", "--players", "2", "--plot", str(picture)
    )
    assert status == 0, err
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_statistics_are_frozen() -> None:
    stats = simulate(resolve("german"), hands=20, players=2)
    assert isinstance(stats, Statistics)
    with pytest.raises(AttributeError):
        stats.seed = 3  # type: ignore[misc]


def _session_processes(session: int) -> list[int]:
    """The processes still alive in a session (from /proc), zombies left out."""
    from pathlib import Path

    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session and fields[0] != "Z":
            found.append(int(entry.name))
    return found


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_prints_what_was_gathered_and_leaves_no_process(jobs: str) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    command = [sys.executable, "-m", "reference_engine.cli", "simulate", "german"]
    command += ["--hands", "50000000", "--players", "2", "--jobs", jobs]
    child = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    time.sleep(6)  # start-up, the workers' spawn, and some chunks
    os.killpg(child.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
    out, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    assert "stopped by SIGINT" in out and "A = german" in out
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "stopped by SIGINT" in err
    deadline = time.monotonic() + 10
    while _session_processes(child.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _session_processes(child.pid) == []


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["german", "pagat"])
def test_the_results_page_is_what_a_fresh_run_gives(variant: str) -> None:
    from reference_engine.simulate.page import check

    assert check(Catalog.shipped(), variant) is None


def test_the_results_page_has_a_row_and_a_command_for_every_shipped_variant() -> None:
    from reference_engine.simulate.page import PAGE

    page = PAGE.read_text(encoding="utf-8")
    for variant in Catalog.shipped().ids():
        assert f"| `{variant}` |" in page, variant
        assert f"`matador simulate {variant} --hands" in page, variant


def test_plot_without_matplotlib_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name)
    )
    status, out, err = matador("german", "--hands", "10", "--plot", "sim.png")
    assert status == 1 and out == ""
    assert "--plot needs matplotlib" in err and "[plot]" in err


def test_usage_errors_name_the_command_once() -> None:
    _, _, err = matador("german", "--strategy", "clever")
    assert err.count("matador simulate:") == 1


# --------------------------------------------------------------------------- the report's header


def _german(hands: int) -> Statistics:

    return simulate_all([Catalog.shipped().resolve("german")], hands=hands)[0]


def test_the_header_says_how_many_hands_were_dealt_played_and_dealt_again() -> None:
    from reference_engine.simulate.report import table

    result = _german(300)
    redealt = result.tally.redeals

    head = table([result]).splitlines()[:2]

    assert head[0] == "300 hands asked for each; strategy random; seed 0"
    played = f"300 hands dealt, {300 - redealt:,} played"
    if redealt:
        played += f"; {redealt} dealt again without play"
    assert head[1] == f"  A = german, 2 players ({played})"


def test_the_header_of_an_interrupted_run_says_what_was_asked_and_played() -> None:
    from dataclasses import replace

    from reference_engine.simulate.report import table

    result = replace(_german(100), requested=400_000, interrupted="SIGINT")

    head = table([result]).splitlines()[:3]

    assert head[0] == "400,000 hands asked for each, stopped by SIGINT; strategy random; seed 0"
    assert head[1].startswith(
        "  A = german, 2 players (100 of 400,000 hands dealt before the stop, "
    )
    assert head[2] == "  stopped by SIGINT: these are the chunks finished before it"


def test_markdown_gives_the_figures_as_one_table() -> None:
    status, out, _ = matador("german", "pagat", "--hands", "50", "--format", "markdown")

    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "50 hands asked for each; strategy random; seed 0"
    assert lines[2].startswith("- A = german, 2 players (")
    assert "| figure | A | B | B - A |" in lines
    rows = [line for line in lines if line.startswith("| ")]
    # Every figure of either target is a row, after the header and its rule.
    figures = {m.key for r in _two() for m in r.metrics()}
    assert len(rows) == 1 + len(figures)


def _two() -> tuple[Statistics, ...]:

    catalog = Catalog.shipped()
    return simulate_all([catalog.resolve("german"), catalog.resolve("pagat")], hands=50)


# ---------------------------------------------------------------------- hosted strategies

HOSTILE_STRATEGIES = """\
import sys, time
print("printed at import")
def prints(hand, legal, rng):
    print("thinking aloud")
    return legal[0]
def nonsense(hand, legal, rng):
    return "nonsense"
def exits(hand, legal, rng):
    sys.exit(0)
def raises(hand, legal, rng):
    raise BaseException("boom")
def hangs(hand, legal, rng):
    time.sleep(600)
"""


@pytest.fixture
def hostile_strategies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "hostile_strategies.py").write_text(HOSTILE_STRATEGIES, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.slow
@pytest.mark.usefixtures("hostile_strategies")
@pytest.mark.parametrize("mode", [(), ("--in-process",)], ids=["hosted", "in-process"])
def test_what_a_strategy_prints_never_reaches_the_report(mode: tuple[str, ...]) -> None:
    status, out, err = matador(
        "pagat", "--hands", "30", "--strategy", "python:hostile_strategies:prints",
        "--format", "json", *mode,
    )  # fmt: skip
    assert status == 0, err
    assert json.loads(out)["targets"][0]["hands"] == 30
    assert "thinking" not in out and "printed at import" not in out
    if not mode:  # hosted, and well: what it wrote on its standard error is not shown
        assert "thinking" not in err


@pytest.mark.slow
@pytest.mark.usefixtures("hostile_strategies")
@pytest.mark.parametrize("mode", [(), ("--in-process",)], ids=["hosted", "in-process"])
@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("nonsense", "nonsense"),
        ("nonsense", "which is not one of the legal actions"),
        ("exits", "it raised SystemExit"),
        ("raises", "it raised BaseException: boom"),
    ],
)
def test_a_strategy_that_misbehaves_is_one_line(
    name: str, says: str, mode: tuple[str, ...]
) -> None:
    strategy = f"python:hostile_strategies:{name}"
    status, out, err = matador("pagat", "--hands", "30", "--strategy", strategy, *mode)
    if mode:  # (loaded here, its import printed to standard error)
        err = err.replace("printed at import\n", "")
    assert status == 1 and out == ""
    assert len(unfitted(err)) == 1 and err.startswith(
        f"matador simulate: strategy python:hostile_strategies:{name}: "
    )
    assert says in flat(err) and "Traceback" not in err


@pytest.mark.slow
@pytest.mark.usefixtures("hostile_strategies")
def test_a_hosted_strategy_that_hangs_is_stopped_at_its_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from reference_engine.simulate import hosted

    monkeypatch.setattr(hosted, "DEADLINE", 2.0)
    with pytest.raises(StrategyFailed, match="chose nothing within 2 s"):
        simulate(resolve("pagat"), hands=5, strategies=["python:hostile_strategies:hangs"])
