"""The suite has teeth: deliberately broken engines are each caught by at least one case.

Each mutant is the reference engine with one thing wrong, the kind of mistake a
third-party engine makes: a rule value misread (applied to the resolved rules
before the engine sees them) or a piece of logic wrong (patched for the run).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from functools import cache

import pytest
from shipped import reference_runs, shipped_cases

from reference_engine.conformance.protocol.interface import ReferenceEngine
from reference_engine.conformance.session.runner import Runner, Verdict, select
from reference_engine.engine import compiled as compiled_module
from reference_engine.engine import tiletable as tiletable_module
from reference_engine.engine.actions import DRAW, PASS, AnyAction, Play
from reference_engine.engine.compiled import Compiled
from reference_engine.engine.ends import OpenEnd
from reference_engine.engine.hand import Hand
from reference_engine.engine.hand import base as hand_module
from reference_engine.engine.scoring import Outcome, Termination, score
from reference_engine.engine.tiles import Tile
from reference_engine.rules import Catalog, MatadorMode, PerPlayers, Rules
from reference_engine.rules.vocabulary import (
    AfterSingleDraw,
    DrawsPerTurn,
    DrawWhen,
    MatchRule,
    Opener,
    OpeningTile,
    PassWhen,
    Points,
    Shape,
)

CASES, _ = shipped_cases()


class MutantCatalog(Catalog):
    """A catalogue whose resolved rules pass through ``mutate``."""

    def __init__(self, mutate: Callable[[Rules], Rules]) -> None:
        shipped = Catalog.shipped()
        super().__init__(shipped.files)
        self._mutate = mutate

    def resolve(self, variant_id: str, options: Mapping[str, str] | None = None) -> Rules:
        return self._mutate(super().resolve(variant_id, options))


def _rules_mutant(
    mutate: Callable[[Rules], Rules],
) -> Callable[[pytest.MonkeyPatch], Callable[[], ReferenceEngine]]:
    def install(monkeypatch: pytest.MonkeyPatch) -> Callable[[], ReferenceEngine]:
        catalog = MutantCatalog(mutate)
        return lambda: ReferenceEngine(catalog)

    return install


def _patched(
    target: object, name: str, value: object
) -> Callable[[pytest.MonkeyPatch], Callable[[], ReferenceEngine]]:
    def install(monkeypatch: pytest.MonkeyPatch) -> Callable[[], ReferenceEngine]:
        monkeypatch.setattr(target, name, value)
        # rebuild the tables under the patch: the compiled tables, and what they
        # share per tile set (fresh caches for the patch, the old ones after it)
        monkeypatch.setattr(compiled_module, "_BY_CONTENT", {})
        monkeypatch.setattr(compiled_module, "_BY_OBJECT", {})
        monkeypatch.setattr(compiled_module, "_PLACEMENTS", {})
        for shared in ("_set_indices", "_chunk_pips"):
            monkeypatch.setattr(
                tiletable_module, shared, cache(getattr(tiletable_module, shared).__wrapped__)
            )
        return ReferenceEngine

    return install


# ---- logic mutants


def _identical_admits(self: OpenEnd, half: int, line_sum: int) -> bool:
    if self.match is MatchRule.SUM:
        return half in self.values  # matches equal numbers, as in ordinary dominoes
    original: Callable[[OpenEnd, int, int], bool] = OpenEnd.__dict__["_original_admits"]
    return original(self, half, line_sum)  # pragma: no cover


def _blank_takes_anything(original: Callable[..., bool]) -> Callable[..., bool]:
    def admits(self: OpenEnd, half: int, line_sum: int) -> bool:
        if self.match is MatchRule.SUM and self.values == (0,):
            return True
        return original(self, half, line_sum)

    return admits


#: What ``Compiled._by_mode`` returns: each placement's (shape, open half) key and new end.
_Placements = list[tuple[tuple[Shape, int | None], tuple[OpenEnd, OpenEnd | None]]]


def _fixed_open_half(
    original: Callable[[Compiled, MatadorMode, OpenEnd, Tile], _Placements],
) -> Callable[[Compiled, MatadorMode, OpenEnd, Tile], _Placements]:
    def by_mode(self: Compiled, mode: MatadorMode, end: OpenEnd, tile: Tile) -> _Placements:
        found = original(self, mode, end, tile)
        # the matador always leaves its high half open, whatever the player wants
        return [
            (key, new_end)
            for key, new_end in found
            if key[0] is not Shape.INLINE or key[1] == tile.high or mode.fit.value == "match"
        ]

    return by_mode


def _doubles_once(self: Tile) -> int:
    return self.low if self.low == self.high else self.low + self.high


def _tie_scores(
    rules: Rules, pips: tuple[int, ...], termination: Termination, went_out: int | None = None
) -> Outcome:
    outcome = score(rules, pips, termination, went_out)
    if outcome.winner is None and termination is Termination.BLOCKED:
        lowest = min(range(len(outcome.side_pips)), key=lambda side: outcome.side_pips[side])
        points = tuple(
            sum(outcome.side_pips) - outcome.side_pips[lowest] if side == lowest else 0
            for side in range(len(outcome.side_pips))
        )
        return replace(outcome, winner=lowest, points=points)
    return outcome


def _swap_opener(rules: Rules) -> Rules:
    if rules.opener is Opener.HIGHEST_DOUBLE:
        return replace(rules, opener=Opener.LOWEST_DOUBLE)
    if rules.opener is Opener.DESIGNATED and rules.opening_tile is OpeningTile.HIGHEST_DOUBLE:
        return replace(rules, opening_tile=OpeningTile.ANY_TILE)
    return rules


def _swap_points(rules: Rules) -> Rules:
    swapped = Points.ALL_HANDS if rules.points is Points.DIFFERENCE else Points.DIFFERENCE
    return replace(rules, points=swapped)


def _inline_only(rules: Rules) -> Rules:
    inline = tuple(mode for mode in rules.matador_modes if mode.shape is Shape.INLINE)
    return replace(rules, matador_modes=inline or rules.matador_modes)


MUTANTS = {
    "identical-number matching": lambda mp: (
        mp.setattr(OpenEnd, "_original_admits", OpenEnd.admits, raising=False),
        _patched(OpenEnd, "admits", _identical_admits)(mp),
    )[1],
    "a blank end accepts any tile": lambda mp: _patched(
        OpenEnd, "admits", _blank_takes_anything(OpenEnd.admits)
    )(mp),
    "a matador cannot choose its open half": lambda mp: _patched(
        compiled_module.Compiled, "_by_mode", _fixed_open_half(compiled_module.Compiled._by_mode)
    )(mp),
    "doubles counted once": lambda mp: _patched(Tile, "pips", property(_doubles_once))(mp),
    "a tie that scores": lambda mp: _patched(hand_module, "score", _tie_scores)(mp),
    "the reserve ignored": _rules_mutant(
        lambda r: replace(r, reserve=PerPlayers(**{k: 0 for k in r.reserve.as_dict()}))
    ),
    "the wrong opener": _rules_mutant(_swap_opener),
    "drawing allowed with a playable tile": _rules_mutant(
        lambda r: replace(r, draw_when=DrawWhen.ALWAYS) if r.draw_when is not DrawWhen.NEVER else r
    ),
    "passing allowed with a playable tile": _rules_mutant(
        lambda r: replace(r, pass_when=PassWhen.ALWAYS)
    ),
    "difference and all-hands scoring confused": _rules_mutant(_swap_points),
    "no crosswise matadors": _rules_mutant(_inline_only),
    "the opener never plays a second tile": _rules_mutant(
        lambda r: replace(r, opener_plays_again=False)
    ),
    "the double blank counts as an opening double": _rules_mutant(
        lambda r: replace(r, double_blank_opens=True)
    ),
}


@contextmanager
def _engine_for(name: str) -> Iterator[Callable[[], ReferenceEngine]]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        yield MUTANTS[name](monkeypatch)


def test_there_are_at_least_ten_mutants() -> None:
    assert len(MUTANTS) >= 10


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_every_mutant_is_caught_by_at_least_one_case(name: str) -> None:
    with _engine_for(name) as factory:
        results = Runner(factory).run(select(CASES))
    caught = [r.case for r in results if r.verdict in (Verdict.FAIL, Verdict.ERROR)]
    assert caught, f"no case catches the mutant: {name}"


def test_the_reference_engine_itself_passes_everything() -> None:
    results = reference_runs()
    assert [r.case for r in results if r.verdict is not Verdict.PASS] == []


# ---- stuck players: what a player may do once nothing can be drawn
#
# Each of these is caught by the scripted cases alone (conformance/cases/
# passing.yaml above all) on every variant and option value where it changes
# an answer, not merely somewhere in the suite.


def _nothing_to_draw(hand: Hand) -> bool:
    """Whether the player to act cannot draw: nobody draws, or the boneyard is at its reserve."""
    table = hand.table
    return not table.draws or hand.boneyard_count <= table.reserve_for(hand.players)


def _ordinary_turn(hand: Hand) -> bool:
    """After the opening, before any draw in the turn."""
    return bool(hand.ends) and hand.drawn_this_turn is None


def _pass_when_stuck(hand: Hand, legal: tuple[AnyAction, ...]) -> tuple[AnyAction, ...]:
    # the outside engine's mistake: with nothing to draw, pass is offered beside the plays
    plays = any(isinstance(action, Play) for action in legal)
    if _ordinary_turn(hand) and _nothing_to_draw(hand) and plays and PASS not in legal:
        return (*legal, PASS)
    return legal


def _draw_from_nothing(hand: Hand, legal: tuple[AnyAction, ...]) -> tuple[AnyAction, ...]:
    # draw is offered although the boneyard is empty (or down to the reserve)
    if hand.table.draws and _ordinary_turn(hand) and _nothing_to_draw(hand) and DRAW not in legal:
        return (*legal, DRAW)
    return legal


def _offers(
    change: Callable[[Hand, tuple[AnyAction, ...]], tuple[AnyAction, ...]],
) -> Callable[[pytest.MonkeyPatch], Callable[[], ReferenceEngine]]:
    """A mutant that offers different legal actions (what it accepts is unchanged)."""

    def legal(self: ReferenceEngine) -> list[str]:
        hand = self._need_hand()
        return [str(action) for action in change(hand, hand.legal_actions())]

    def install(monkeypatch: pytest.MonkeyPatch) -> Callable[[], ReferenceEngine]:
        monkeypatch.setattr(ReferenceEngine, "legal", legal)
        return ReferenceEngine

    return install


def _matador_forced(rules: Rules) -> Rules:
    if rules.pass_when is PassWhen.ONLY_MATADOR_PLAYS:
        return replace(rules, pass_when=PassWhen.NO_PLAY)
    return rules


_Install = Callable[[pytest.MonkeyPatch], Callable[[], ReferenceEngine]]

#: Each stuck-player mutant, and which resolved rules it changes an answer under.
STUCK_MUTANTS: dict[str, tuple[_Install, Callable[[Rules], bool]]] = {
    "pass offered beside a fitting tile when nothing can be drawn": (
        _offers(_pass_when_stuck),
        lambda rules: rules.pass_when is not PassWhen.ALWAYS,
    ),
    "draw offered with the boneyard empty or at its reserve": (
        _offers(_draw_from_nothing),
        lambda rules: rules.draw_when is not DrawWhen.NEVER,
    ),
    "a stuck matador forced where the player may keep it and pass": (
        _rules_mutant(_matador_forced),
        lambda rules: rules.pass_when is PassWhen.ONLY_MATADOR_PLAYS,
    ),
}

#: The rules that decide what a stuck player may do.
_TURN_RULES = ("draw_when", "pass_when", "draws_per_turn", "after_single_draw")


def _turn_configurations() -> dict[str, Rules]:
    """Every variant at its defaults, and each option value changing its turn rules or reserve."""
    catalog = Catalog.shipped()
    found: dict[str, Rules] = {}
    for variant in catalog.ids():
        base = catalog.resolve(variant)
        found[variant] = base
        for option in base.options:
            for value in option.values:
                if value.name == option.default:
                    continue
                rules = catalog.resolve(variant, {option.name: value.name})
                shared = set(base.players) & set(rules.players)
                if any(getattr(rules, r) != getattr(base, r) for r in _TURN_RULES) or any(
                    rules.reserve.for_players(n) != base.reserve.for_players(n) for n in shared
                ):
                    found[f"{variant}[{option.name}={value.name}]"] = rules
    return found


def test_the_turn_configurations_include_every_drawing_option() -> None:
    labels = set(_turn_configurations())
    # by hand from the variant files: the options that change drawing or passing
    for label in (
        "gamerules-com[draw=pass]",
        "gamerules-com[draw=reserve_two]",
        "gamerules-com[draw=one_then_pass]",
        "gamerules-com[draw=one_may_keep]",
        "britannica-1911[knock=holding_matadors]",
        "britannica-1911[draw=no_seven]",
        "pagat[stuck_matador=may_pass]",
        "german[drawn_tile=must_play]",
        "house[after_draw=any_tile]",
    ):
        assert label in labels
    assert "pagat[set=double_nine]" not in labels
    assert DrawsPerTurn.ONE in {r.draws_per_turn for r in _turn_configurations().values()}
    assert AfterSingleDraw.MAY_PLAY_ANY in {
        r.after_single_draw for r in _turn_configurations().values()
    }


@pytest.mark.parametrize("name", sorted(STUCK_MUTANTS))
def test_every_stuck_player_mutant_is_caught_wherever_it_matters(name: str) -> None:
    install, matters = STUCK_MUTANTS[name]
    needed = {label for label, rules in _turn_configurations().items() if matters(rules)}
    assert needed
    runs = [(case, target) for case, target in select(CASES) if target.label() in needed]
    with pytest.MonkeyPatch.context() as monkeypatch:
        results = Runner(install(monkeypatch)).run(runs)
    caught = {r.target.label() for r in results if r.verdict in (Verdict.FAIL, Verdict.ERROR)}
    assert sorted(needed - caught) == [], f"{name}: not caught on these"
