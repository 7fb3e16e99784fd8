"""The coverage tells a rule value exercised from a rule value really checked.

An outside engine offered ``pass`` beside a fitting tile once the boneyard was
empty, and the gamerules-com cases of the time never looked at such a
position although they declared ``pass_when=no_play``. These tests hold the
decisive-check analysis (reference_engine/conformance/analysis/decisive.py) to that
story, worked out by hand.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from dataclasses import replace

import pytest
from shipped import shipped_cases

from reference_engine.cli.app import run
from reference_engine.conformance.analysis.decisive import (
    VARIED,
    Run,
    decisive_checks,
    unchecked,
)
from reference_engine.conformance.judging.counterfactual import altered
from reference_engine.conformance.suite.casedata import Case
from reference_engine.rules import Catalog
from reference_engine.rules.vocabulary import AfterSingleDraw, DrawsPerTurn, DrawWhen, PassWhen

CASES, _ = shipped_cases()
CATALOG = Catalog.shipped()


def _only(variant: str, cases: Sequence[Case]) -> list[Case]:
    """The cases with a target of ``variant``, every other target dropped."""
    kept = []
    for case in cases:
        targets = tuple(t for t in case.applies_to if t.variant == variant and not t.options)
        if targets:
            kept.append(replace(case, applies_to=targets))
    return kept


def test_the_varied_rules_are_the_closed_turn_rules() -> None:
    assert VARIED == ("draw_when", "draws_per_turn", "after_single_draw", "pass_when")


def test_altering_a_rule_fills_what_the_new_value_needs() -> None:
    rules = CATALOG.resolve("gamerules-com")
    one = altered(rules, "draws_per_turn", DrawsPerTurn.ONE)
    assert one is not None
    assert one.draws_per_turn is DrawsPerTurn.ONE
    assert one.after_single_draw is AfterSingleDraw.MAY_PLAY_DRAWN  # the first value
    never = CATALOG.resolve("dominorules-com")
    drawing = altered(never, "draw_when", DrawWhen.NO_PLAY)
    assert drawing is not None and drawing.draws_per_turn is DrawsPerTurn.UNLIMITED


def test_altering_to_the_same_value_or_a_rule_without_effect_is_nothing() -> None:
    rules = CATALOG.resolve("gamerules-com")
    assert altered(rules, "pass_when", PassWhen.NO_PLAY) is None
    # dominorules never draws, so draws_per_turn has no effect there
    assert altered(CATALOG.resolve("dominorules-com"), "draws_per_turn", DrawsPerTurn.ONE) is None


def test_the_empty_boneyard_hole_is_reported_without_the_passing_cases() -> None:
    # (the position cases close it too: one holds a fitting tile with the boneyard empty)
    holes = ("passing.yaml", "positions.yaml")
    before = _only("gamerules-com", [c for c in CASES if not c.file.endswith(holes)])
    found = unchecked(before, CATALOG, decisive_checks(before, CATALOG))
    assert ("pass_when=no_play", "gamerules-com") in {(u.rule_value, u.target) for u in found}


def test_the_passing_cases_close_it() -> None:
    cases = _only("gamerules-com", CASES)
    decisive = decisive_checks(cases, CATALOG)
    found = unchecked(cases, CATALOG, decisive)
    assert "pass_when=no_play" not in {u.rule_value for u in found}
    run = Run("pass-empty-boneyard-ordinary-tile-highest-double", "gamerules-com", "gamerules-com")
    # by hand: seat 1 holds [1-2], which fits, with the boneyard empty. Under
    # pass_when=always pass would be offered too; under only_matador_plays it
    # would not (the tile is no matador), so this check tells no_play from
    # always only.
    assert run in decisive.against["pass_when=no_play"]["always"]
    assert run not in decisive.against["pass_when=no_play"]["only_matador_plays"]


def test_the_stuck_matador_case_tells_no_play_from_only_matador_plays() -> None:
    cases = _only("gamerules-com", CASES)
    decisive = decisive_checks(cases, CATALOG)
    run = Run("stuck-matador-empty-boneyard-inline", "gamerules-com", "gamerules-com")
    # by hand: the only fitting tile is the matador [3-4]; only_matador_plays
    # and always would both offer pass beside it
    assert run in decisive.against["pass_when=no_play"]["only_matador_plays"]
    assert run in decisive.against["pass_when=no_play"]["always"]


def _conform(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(["conform", *argv], out, err)
    return code, out.getvalue()


@pytest.mark.slow
def test_the_coverage_prints_the_decisive_checks_at_80_columns() -> None:
    code, out = _conform("--coverage", "--width", "80")
    assert code == 0
    assert "decisive checks of the turn rules" in out
    assert all(len(line) <= 80 for line in out.splitlines())
    section = out.split("decisive checks of the turn rules", 1)[1].split("cases of each", 1)[0]
    rows = {line.split()[1]: line.split() for line in section.splitlines() if "_when=" in line}
    # status, token, cases, decisive, never told from
    assert rows["pass_when=no_play"][0] == "ok"
    assert rows["pass_when=no_play"][-1] == "-"
    assert rows["pass_when=always"][0] == "ok"


@pytest.mark.slow
def test_the_coverage_json_has_the_decisive_checks_and_the_unchecked_values() -> None:
    code, out = _conform("--coverage", "--report", "json")
    assert code == 0
    data = json.loads(out)
    assert "always" in data["decisive"]["pass_when=no_play"]
    assert all({"rule_value", "target", "cases"} <= set(u) for u in data["unchecked"])
