"""``matador identify``: which shipped rules an engine really plays.

The reference engine, restricted to one variant, is that variant exactly; an
engine that plays an option other than the one it declares is named with that
option; the Node example is gamerules-com, and with ``--deviate`` it is still
closest to gamerules-com, differing on the three rules it breaks. Node is
needed for those (CI sets ``MATADOR_REQUIRE_NODE``: there they fail, not skip).
"""

from __future__ import annotations

import dataclasses
import io
import json
import shutil
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from fitting import flat

from reference_engine.cli import run
from reference_engine.conformance.analysis import identification as identify_module
from reference_engine.conformance.analysis.identification import Identification, identify
from reference_engine.conformance.protocol.interface import EngineInfo, ReferenceEngine
from reference_engine.conformance.session.runner import Runner
from reference_engine.engine.match import Match
from reference_engine.exits import ExitStatus
from reference_engine.rules import Catalog
from reference_engine.rules.vocabulary import Opener

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "conformance" / "examples" / "matador-engine.js"
NODE = shutil.which("node")


class OneVariant(ReferenceEngine):
    """The reference engine declaring one variant, with one value of some options.

    ``plays`` are option values it uses whatever the match asks: a secret.
    """

    def __init__(self, variant: str, declares: Mapping[str, str], plays: Mapping[str, str]) -> None:
        super().__init__()
        self.variant, self.declares, self.plays = variant, dict(declares), dict(plays)

    def hello(self) -> EngineInfo:
        declared = {name: [value] for name, value in self.declares.items()}
        return EngineInfo(name="one variant", version="1", variants={self.variant: declared})

    def new_match(self, variant: str, options: Mapping[str, str], players: int) -> None:
        super().new_match(variant, {**options, **self.plays}, players)


def identified(
    variant: str,
    declares: Mapping[str, str] | None = None,
    plays: Mapping[str, str] | None = None,
    hands: int = 4,
) -> Identification:
    catalog = Catalog.shipped()
    runner = Runner(
        lambda: OneVariant(variant, declares or {}, plays or {}),
        timeout=30,
        known_variants=catalog.ids(),
        catalog=catalog,
    )
    try:
        found, candidates, combinations = identify(runner, catalog, hands=hands, seed=1, top=3)
    finally:
        runner.close()
    assert candidates == combinations  # no two shipped combinations resolve alike
    assert len(found) == 1
    return found[0]


def test_the_progress_total_is_known_before_any_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """identify tells its progress (0, the variants declared) before it builds the
    candidates or plays a hand, and counts each variant as it is done."""
    told: list[tuple[int, int]] = []
    built = identify_module.__dict__["candidates"]

    def candidates(catalog: Catalog) -> Any:
        assert told == [(0, 1)], "the candidates were built before the total was told"
        return built(catalog)

    monkeypatch.setattr(identify_module, "candidates", candidates)
    catalog = Catalog.shipped()
    runner = Runner(
        lambda: OneVariant("dominorules-com", {}, {}),
        timeout=30,
        known_variants=catalog.ids(),
        catalog=catalog,
    )
    try:
        identify(
            runner, catalog, hands=1, seed=1, top=1, players=2,
            progress=lambda done, total: told.append((done, total)),
        )  # fmt: skip
    finally:
        runner.close()
    assert told == [(0, 1), (1, 1)]


@pytest.mark.parametrize(
    "variant",
    [
        pytest.param("gamerules-com", marks=pytest.mark.slow),
        pytest.param("german", marks=pytest.mark.slow),
        pytest.param("house", marks=pytest.mark.slow),
        pytest.param("jeux-de-hasard", marks=pytest.mark.slow),
    ],
)
def test_the_reference_restricted_to_a_variant_is_that_variant_exactly(variant: str) -> None:
    ranking = identified(variant).ranking
    assert ranking[0].candidate.label == variant
    assert ranking[0].exact, ranking[0].differs
    assert ranking[0].departs == ()
    # every candidate after it departs in as many rules or more: none is a better answer
    assert all(len(score.departs) >= len(ranking[0].departs) for score in ranking)


@pytest.mark.slow  # a whole identification: seconds each (CI runs it)
def test_a_declared_option_value_is_identified() -> None:
    ranking = identified("pagat", declares={"difference": "each_opponent_minus_own"}).ranking
    assert ranking[0].candidate.label == "pagat:difference=each_opponent_minus_own"
    assert ranking[0].exact


@pytest.mark.slow  # a whole identification: seconds each (CI runs it)
def test_an_option_played_but_not_declared_is_found() -> None:
    found = identified("pagat", plays={"difference": "each_opponent_minus_own"}, hands=6)
    first = found.ranking[0]
    assert first.candidate.label == "pagat:difference=each_opponent_minus_own"
    assert first.exact
    declared = next(s for s in found.ranking if s.candidate.label == "pagat")
    assert not declared.exact


class LowestDoubleOpens(OneVariant):
    """gamerules-com, but the lowest double opens."""

    def new_match(self, variant: str, options: Mapping[str, str], players: int) -> None:
        super().new_match(variant, options, players)
        rules = dataclasses.replace(self.catalog.resolve(variant), opener=Opener.LOWEST_DOUBLE)
        self._match = Match(rules, players)


@pytest.mark.slow  # a whole identification: seconds each (CI runs it)
def test_a_candidate_differing_only_on_who_opens_differs_on_the_opener() -> None:
    catalog = Catalog.shipped()
    runner = Runner(
        lambda: LowestDoubleOpens("gamerules-com", {}, {}),
        known_variants=catalog.ids(),
        catalog=catalog,
    )
    try:
        (found,), _, _ = identify(runner, catalog, hands=4, seed=3, top=1)
    finally:
        runner.close()
    first = found.ranking[0]
    assert first.candidate.label == "gamerules-com" and not first.exact
    # every later check is made at the engine's own state: nothing but the opening differs
    assert "opener" in first.differs
    assert set(first.differs) <= {"opener", "double_blank_opens"}, first.differs


# --------------------------------------------------------------------------- the command


def identify_command(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(["identify", *argv], out, err)
    return code, out.getvalue(), err.getvalue()


@cache
def node_answer(deviate: bool) -> tuple[int, str, dict[str, Any]]:
    command = f"{NODE} {EXAMPLE}" + (" --deviate" if deviate else "")
    # The status says whether a shipped rule set plays exactly what the engine plays:
    # the faithful example does, the deviating one does not (and stderr says so).
    expected = ExitStatus.INVALID if deviate else ExitStatus.OK
    code, text, err = identify_command("--engine", command, "--hands", "8")
    assert code == expected, err
    assert ("plays exactly" in err) == deviate, err
    code, out, err = identify_command("--engine", command, "--hands", "8", "--json")
    assert code == expected, err
    return code, text, json.loads(out)


@pytest.mark.slow  # a whole identification: seconds each (CI runs it)
def test_the_node_example_is_gamerules_com_exactly(node: str) -> None:
    _, text, data = node_answer(False)
    (target,) = data["targets"]
    assert target["variant"] == "gamerules-com"
    first = target["ranking"][0]
    assert first["label"] == "gamerules-com" and first["exact"] and first["differs"] == []
    assert first["departs"] == []
    assert "closest: gamerules-com (departs in no rule; 100 % of" in text
    assert all(len(line) <= 80 for line in text.splitlines())


@pytest.mark.slow  # a whole identification: seconds each (CI runs it)
def test_the_deviating_node_example_is_closest_to_gamerules_com(node: str) -> None:
    _, text, data = node_answer(True)
    first = data["targets"][0]["ranking"][0]
    assert first["label"] == "gamerules-com" and not first["exact"]
    sections = {item["rule"]: item["section"] for item in first["differs"]}
    for rule, section in {
        "opener": "SPEC 6.3",
        "matador_modes": "SPEC 7.3",
        "points": "SPEC 10.2",
    }.items():
        assert sections.get(rule) == section, sections
        assert f"{rule} ({section})" in text
    assert "closest: gamerules-com (departs in" in text
    assert all(len(line) <= 80 for line in text.splitlines())


@pytest.mark.parametrize(
    "argv",
    [
        [],  # --engine is required
        ["--engine", ""],
        ["--engine", "python:no_such_module_here:make"],
        ["--engine", "matador engine", "--hands", "0"],
        ["--engine", "matador engine", "--players", "0"],
        ["--engine", "matador engine", "--top", "-1"],
        ["--engine", "matador engine", "--timeout", "0"],
        ["--engine", "matador engine", "--seed", "x"],
    ],
)
def test_usage_errors_exit_2_without_a_traceback(argv: list[str]) -> None:
    code, out, err = identify_command(*argv)
    assert code == ExitStatus.USAGE, err
    assert "Traceback" not in out + err and err.strip()


def test_an_engine_that_cannot_start_is_unavailable(tmp_path: Path) -> None:
    code, out, err = identify_command("--engine", str(tmp_path / "no-such-engine"))
    assert code == ExitStatus.ENGINE_UNAVAILABLE
    assert "engine unavailable" in err and "Traceback" not in out + err


class Breaks(ReferenceEngine):
    """Greets, then fails on every hand."""

    def legal(self) -> list[str]:
        raise RuntimeError("broken on purpose")


@pytest.mark.slow
def test_an_engine_that_keeps_failing_is_unavailable_after_the_runner_gives_up() -> None:
    code, out, err = identify_command(
        "--engine", f"python:{__file__}:Breaks", "--hands", "2", "--json"
    )
    assert code == ExitStatus.ENGINE_UNAVAILABLE, err
    assert "failed 3 times in a row" in err
    # (the engine's own traceback is shown as its standard error, each line marked so)
    assert not any(line.startswith("Traceback") for line in (out + err).splitlines())
    assert json.loads(out)["unavailable"]


def test_no_declared_variant_for_the_players_asked_is_invalid(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No hand is observed, so no candidate is ever ranked: an empty pool spares
    # resolving every shipped option combination (seconds of CPU) for nothing.
    monkeypatch.setattr(identify_module, "candidates", lambda catalog: ([], 0))
    code, _, err = identify_command(
        "--engine", f"python:{__file__}:Breaks", "--players", "5", "--hands", "1"
    )
    assert code == ExitStatus.INVALID and "5 players" in flat(err)
