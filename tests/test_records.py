"""Judging an engine from its game records: ``matador replay`` over a folder gives the
rule-by-rule verdict ``conform`` gives, and a record's lot is judged where the rules
draw one.

The records are matches the reference plays (``play_match``), judged under the
variant they name or relabelled to a variant that differs in one rule, so the
rule that must be broken is known from the rule sets alone; the lots are written
by hand from SPEC 6.2 (each seat one tile, the fewest pips leading, those tied
drawing again).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import CliResult
from fitting import flat
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from reference_engine.conformance.judging.verdicts import Check, Verdict
from reference_engine.conformance.records import judge_record, record_files
from reference_engine.engine.lot import read_lot
from reference_engine.engine.record import FindingKind, match_record, play_match, replay
from reference_engine.engine.strategies import STRATEGIES
from reference_engine.rules import Catalog

Record = dict[str, Any]
CATALOG = Catalog.shipped()


def played(variant: str, seed: int, players: int | None = None, **options: str) -> Record:
    """The record of a match the reference plays under ``variant`` with ``options``."""
    rules = CATALOG.resolve(variant, options)
    count = players if players is not None else min(rules.players)
    match = play_match(rules, count, seed=seed, strategy=STRATEGIES["random"])
    return match_record(match, seed=seed)


def relabelled(record: Record, **options: str) -> Record:
    """``record`` said to be played under other options of its variant."""
    moved = copy.deepcopy(record)
    moved["options"] = options
    return moved


# -- what the reference plays follows its rules --------------------------------


@pytest.mark.parametrize(
    ("variant", "players"),
    [
        ("pagat", 4),
        ("gamerules-com", 2),
        ("gamerules-com", 3),
        ("matadore-19th-century", 3),
        ("dutch", 2),
        ("britannica-1911", 4),
    ],
)
def test_the_records_the_reference_plays_pass_and_hold_their_rules(
    variant: str, players: int
) -> None:
    for seed in range(3):
        run = judge_record("r.json", played(variant, seed, players))
        assert run.verdict is Verdict.PASS, (seed, run.message)
        assert not run.failed
        assert {"hand_size", "end_of_hand"} <= set(run.held)


# -- one rule changed, one rule broken -----------------------------------------


def test_a_record_scored_by_another_difference_breaks_that_rule_alone() -> None:
    """Scored with the winner's pips off each loser's count, judged under pagat's total
    less the winner's own: every blocked hand with a difference differs in points."""
    for seed in range(4):
        record = relabelled(played("pagat", seed, difference="each_opponent_minus_own"))
        run = judge_record("r.json", record)
        assert run.verdict is Verdict.FAIL
        assert set(run.failed) == {"difference_among_several"}, seed
        assert {d.check for d in run.deviations} == {Check.RESULT}


def test_a_record_opened_with_the_highest_double_breaks_the_opening_tile_alone() -> None:
    """Under pagat any tile opens, from the designated seat; a record in which the
    holder of the highest double opens breaks the opening tile, and where the rules
    refuse its opening the hand is followed as laid: nothing after it is blamed."""
    failed: set[str] = set()
    for seed in range(8):
        run = judge_record("r.json", relabelled(played("pagat", seed, opening="highest_double")))
        failed |= set(run.failed)
        for deviation in run.deviations:
            assert deviation.check is Check.REFUSED
            assert deviation.step == 0  # the opening, and nothing after it
    assert failed == {"opening_tile"}


def test_an_action_the_rules_refuse_ends_the_judging_of_its_hand_only() -> None:
    """A pass during the opening is refused as pass_not_allowed (protocol.md, reason
    codes); the rest of that hand is not the reference's to follow, the next hand is
    judged on its own, and the match totals are no longer compared."""
    record = played("gamerules-com", 3, 2)
    assert len(record["hands"]) > 1
    record["hands"][0]["actions"].insert(0, "pass")
    run = judge_record("r.json", record)
    assert run.verdict is Verdict.FAIL
    (only,) = run.deviations
    assert (only.hand, only.step, only.check) == (0, 0, Check.REFUSED)
    assert (only.expected, only.actual) == ("pass_not_allowed", "accepted")
    intact = judge_record("r.json", played("gamerules-com", 3, 2))
    assert run.held["target"] < intact.held["target"]  # the match was not compared


def test_a_hand_after_the_match_was_won_is_blamed_on_the_target() -> None:
    record = played("pagat", 5)
    assert record["match"]["winner"] is not None
    record["hands"].append(copy.deepcopy(record["hands"][-1]))
    del record["match"]
    run = judge_record("r.json", record)
    assert run.verdict is Verdict.FAIL
    assert run.deviations[0].hand == len(record["hands"]) - 1
    assert "after the match was won" in run.deviations[0].message
    assert set(run.failed) == {"target"}


def test_a_record_of_an_unknown_variant_is_broken_not_failed() -> None:
    record = played("pagat", 1)
    record["variant"] = "no-such-variant"
    run = judge_record("r.json", record)
    assert run.verdict is Verdict.BROKEN
    assert "no-such-variant" in run.message
    run = judge_record("r.json", {"format": "matador-record/1"})
    assert run.verdict is Verdict.BROKEN
    assert "schema" in run.message


# -- the lot by drawing ----------------------------------------------------------


@pytest.mark.parametrize(
    ("rounds", "players", "seat"),
    [
        ([["2-3", "0-1", "4-4"]], 3, 1),
        ([["1-2", "0-3", "5-5"], ["0-0", "1-1", None]], 3, 0),
        ([["1-2", "0-3", "5-5"], ["1-1", "0-1", None]], 3, 1),
        ([["1-2", "0-3", "5-5"], ["0-1", "1-0", None]], 3, None),  # a tile drawn twice
        ([["0-2", "1-1", "0-0", "3-6"]], 4, 2),
        ([["0-1", "1-0"]], 2, None),  # the same tile, twice in a round
        ([["1-2", "0-3", "5-5"]], 3, None),  # seats 0 and 1 still tied
        ([["1-2", "0-3", "5-5"], ["0-0", None, None]], 3, None),  # seat 1 must draw again
        ([["1-2", "0-3", "5-5"], ["0-0", "1-1", "2-2"]], 3, None),  # seat 2 is out
        ([["0-1", "2-2", "3-3"], ["0-0", None, None]], 3, None),  # a round after the lot
        ([["0-1", "2-2", "3-9"]], 3, None),  # not a tile of a double-six set
        ([["0-1", "2-2"]], 3, None),  # one seat short
        ([], 3, None),
        ("0-0", 3, None),
    ],
)
def test_a_lot_names_the_seat_that_drew_fewest_pips(
    rounds: Any, players: int, seat: int | None
) -> None:
    named, problems = read_lot(rounds, players, 6)
    assert named == seat
    assert bool(problems) == (seat is None)


@given(st.lists(st.integers(0, 27), min_size=3, max_size=3, unique=True))
@settings(max_examples=examples(100))
def test_a_first_round_without_a_tie_names_the_lightest_tile(indices: list[int]) -> None:
    tiles = [(low, high) for high in range(7) for low in range(high + 1)]
    drawn = [tiles[i] for i in indices]
    pips = [sum(tile) for tile in drawn]
    named, problems = read_lot([[f"{a}-{b}" for a, b in drawn]], 3, 6)
    if pips.count(min(pips)) == 1:
        assert (named, problems) == (pips.index(min(pips)), [])
    else:
        assert named is None and problems


def lot_naming(seat: int, players: int) -> list[list[str | None]]:
    """A one-round lot in which ``seat`` draws 0-0 and every other seat a heavier tile."""
    heavier = iter(["1-2", "3-4", "5-6"])
    return [["0-0" if s == seat else next(heavier) for s in range(players)]]


def test_a_lot_is_judged_where_the_rules_draw_one() -> None:
    """The 19th-century rules make the first hand's lot by drawing, then rotate."""
    record = played("matadore-19th-century", 2, 3)
    designated = record["hands"][0]["deal"]["designated"]
    record["hands"][0]["lot"] = lot_naming(designated, 3)
    run = judge_record("r.json", record)
    assert run.verdict is Verdict.PASS
    assert "designated_opener" in run.held
    assert replay(record).ok
    record["hands"][0]["lot"] = lot_naming((designated + 1) % 3, 3)
    run = judge_record("r.json", record)
    assert set(run.failed) == {"designated_opener"}
    assert (run.deviations[0].expected, run.deviations[0].actual) == (
        (designated + 1) % 3,
        designated,
    )
    findings = replay(record).findings
    assert [(f.kind, f.pointer, f.rule) for f in findings] == [
        (FindingKind.BAD_LOT, "/hands/0/lot", "designated_opener")
    ]


def test_a_lot_that_is_no_lot_by_drawing_is_a_finding_where_it_is() -> None:
    record = played("matadore-19th-century", 2, 3)
    record["hands"][0]["lot"] = [["0-0", "0-0", "1-1"]]
    findings = replay(record).findings
    assert [(f.kind, f.pointer) for f in findings] == [(FindingKind.BAD_LOT, "/hands/0/lot/0/1")]
    assert set(judge_record("r.json", record).failed) == {"designated_opener"}


def test_a_lot_under_rules_that_choose_the_opener_at_random_is_not_judged() -> None:
    record = played("pagat", 2)
    record["hands"][0]["lot"] = lot_naming(
        (record["hands"][0]["deal"].get("designated", 0) + 1) % 4, 4
    )
    record["hands"][0]["dealer"] = 3
    assert replay(record).ok
    run = judge_record("r.json", record)
    assert run.verdict is Verdict.PASS
    assert "designated_opener" in run.not_judged


# -- the command -----------------------------------------------------------------


def folder_of(tmp_path: Path, records: dict[str, Record]) -> Path:
    folder = tmp_path / "games"
    (folder / "day2").mkdir(parents=True)
    for name, record in records.items():
        (folder / name).write_text(json.dumps(record), encoding="utf-8")
    return folder


def test_replay_over_a_folder_gives_the_verdict_by_rule(
    tmp_path: Path, matador: Callable[..., CliResult]
) -> None:
    folder = folder_of(
        tmp_path,
        {
            "a.json": played("pagat", 1),
            "day2/b.json": relabelled(played("pagat", 2, difference="each_opponent_minus_own")),
            "notes.txt": {"not": "a record"},
        },
    )
    result = matador("replay", folder)
    assert result.code == 1
    assert "RULE difference_among_several" in result.out
    assert "broken" in result.out
    assert "1 passed, 1 failed" in result.out
    result = matador("replay", folder, "--report", "json")
    lines = [json.loads(line) for line in result.out.splitlines()]
    cases = {line["case"]: line["verdict"] for line in lines if line["type"] == "case"}
    assert cases == {str(folder / "a.json"): "pass", str(folder / "day2/b.json"): "fail"}
    standing = {line["rule"]: line["standing"] for line in lines if line["type"] == "rule"}
    assert standing["difference_among_several"] == "broken"
    assert {rule for rule, value in standing.items() if value in ("broken", "implicated")} == {
        "difference_among_several"
    }
    assert result.code == 1
    assert "1 of 2 records" in result.err


def test_replay_of_records_that_all_follow_their_rules_exits_0(
    tmp_path: Path, matador: Callable[..., CliResult]
) -> None:
    folder = folder_of(tmp_path, {f"{seed}.json": played("pagat", seed) for seed in range(3)})
    result = matador("replay", folder, folder / "0.json", "--report", "markdown")
    assert result.code == 0, result.err
    assert "3 passed" in result.out  # a record named twice is judged once
    assert "game records (3 file(s))" in result.out


def test_an_unreadable_record_in_a_folder_is_a_broken_run_not_a_crash(
    tmp_path: Path, matador: Callable[..., CliResult]
) -> None:
    folder = folder_of(tmp_path, {"a.json": played("pagat", 1)})
    (folder / "b.json").write_text("{broken", encoding="utf-8")
    (folder / "c.json").write_bytes(b"\xff\xfe")
    result = matador("replay", folder, "--report", "json")
    verdicts = {
        Path(line["case"]).name: line["verdict"]
        for line in map(json.loads, result.out.splitlines())
        if line["type"] == "case"
    }
    assert verdicts == {"a.json": "pass", "b.json": "broken", "c.json": "broken"}
    assert result.code == 1


def test_every_entry_named_json_in_a_folder_is_judged_or_refused_by_name(
    tmp_path: Path, matador: Callable[..., CliResult]
) -> None:
    """A pipe, a folder or a broken link named like a record, and a record whose name ends
    in capitals, are not passed over in silence."""
    import os

    folder = folder_of(tmp_path, {"a.json": played("pagat", 1), "B.JSON": played("pagat", 2)})
    os.mkfifo(folder / "pipe.json")
    (folder / "dir.json").mkdir()
    (folder / "gone.json").symlink_to(tmp_path / "nowhere.json")
    result = matador("replay", folder, "--report", "json")
    verdicts = {
        Path(line["case"]).name: line["verdict"]
        for line in map(json.loads, result.out.splitlines())
        if line["type"] == "case"
    }
    assert verdicts == {
        "B.JSON": "pass",
        "a.json": "pass",
        "dir.json": "broken",
        "gone.json": "broken",
        "pipe.json": "broken",
    }
    assert result.code == 1


def test_an_output_inside_a_folder_read_is_refused(
    tmp_path: Path, matador: Callable[..., CliResult]
) -> None:
    folder = folder_of(tmp_path, {"a.json": played("pagat", 1)})
    before = (folder / "a.json").read_bytes()
    for argv in (["replay", folder], ["identify", "--records", folder]):
        result = matador(*argv, "-o", folder / "a.json")
        assert result.code == 2 and "inside" in result.err
    assert (folder / "a.json").read_bytes() == before


def test_replay_says_what_it_cannot_judge(
    tmp_path: Path, matador: Callable[..., CliResult]
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    cases: list[tuple[list[Path | str], int, str]] = [
        ([tmp_path / "nowhere", "--report", "table"], 1, "nowhere: no such file or folder"),
        ([empty], 1, "no game record (*.json) in this folder"),
        ([empty, "--format", "json"], 2, "--format is for one record"),
    ]
    for argv, code, said in cases:
        result = matador("replay", *argv)
        assert result.code == code, argv
        assert said in flat(result.err)
        assert not result.out


def test_record_files_reads_folders_in_name_order(tmp_path: Path) -> None:
    folder = folder_of(tmp_path, {"b.json": {}, "a.json": {}, "day2/c.json": {}})
    assert [p.relative_to(folder).as_posix() for p in record_files([folder])] == [
        "a.json",
        "b.json",
        "day2/c.json",
    ]


def test_a_dealer_who_is_no_seat_is_a_deal_the_rules_do_not_make() -> None:
    record = played("pagat", 1)
    record["hands"][0]["dealer"] = 4
    run = judge_record("r.json", record)
    assert run.verdict is Verdict.FAIL
    (deviation,) = run.deviations
    assert (deviation.check, deviation.actual) == (Check.DEAL, 4)
