"""The shipped variant files: valid, fully cited, and faithful to their sources.

Expected values are written by hand from the source texts (named in each
test); they are not read back from the loader.
"""

from __future__ import annotations

import json
import re

import pytest
from fingerprint import Fingerprint
from shipped import SHIPPED_VARIANTS

from reference_engine.rules import Catalog, Rules, registry
from reference_engine.rules.convert import CONVERTERS
from reference_engine.rules.datafiles import spec_dir
from reference_engine.rules.parameters import VOCABULARIES
from reference_engine.rules.vocabulary import (
    AfterSingleDraw,
    DesignatedOpener,
    DrawsPerTurn,
    DrawWhen,
    GapKind,
    MatadorAccess,
    MatchRule,
    NobodyHasDouble,
    Opener,
    OpeningTile,
    PassWhen,
    Points,
    Shape,
    TargetUnit,
    TurnDirection,
)

VARIANT_IDS = list(SHIPPED_VARIANTS)

CATALOG = Catalog.shipped()


def rules(variant: str, **options: str) -> Rules:
    return CATALOG.resolve(variant, options)


def gaps_on(resolved: Rules, rule: str) -> list[GapKind]:
    return [gap.kind for gap in resolved.gaps if rule in gap.rules]


# --------------------------------------------------------------------------- validity


def test_exactly_the_fifteen_variants_ship() -> None:
    assert sorted(CATALOG.ids()) == sorted(VARIANT_IDS)


def test_every_shipped_variant_is_valid() -> None:
    assert [str(problem) for problem in CATALOG.problems()] == []


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_every_rule_is_cited_or_explained_by_a_gap(variant: str) -> None:
    resolved = rules(variant)
    gap_ids = {gap.id for gap in resolved.gaps}
    for rule in CONVERTERS:
        if getattr(resolved, rule) is None:
            assert not resolved.applicable(rule), rule
            continue
        provenance = resolved.provenance[rule]
        assert provenance.cite or provenance.gap, rule
        if provenance.gap:
            assert provenance.gap in gap_ids, (rule, provenance.gap)


def _option_choices() -> list[tuple[str, str, str]]:
    return [
        (variant, option.name, value.name)
        for variant in VARIANT_IDS
        for option in rules(variant).options
        for value in option.values
    ]


@pytest.mark.parametrize(("variant", "option", "value"), _option_choices())
def test_every_option_value_resolves_and_changes_what_it_says(
    variant: str, option: str, value: str
) -> None:
    resolved = rules(variant, **{option: value})
    assert resolved.chosen[option] == value
    declared = next(o for o in resolved.options if o.name == option).value(value)
    for rule in declared.changes:
        assert resolved.provenance[rule].option == (option, value)


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_gap_alternatives_name_playable_options(variant: str) -> None:
    resolved = rules(variant)
    for gap in resolved.gaps:
        for alternative in gap.alternatives:
            if alternative.option is None:
                assert alternative.why_not_offered
                continue
            name, _, value = alternative.option.partition("=")
            assert rules(variant, **{name: value}).chosen[name] == value


def test_schema_enums_match_the_python_vocabularies() -> None:
    schema = json.loads((spec_dir() / "variant.schema.json").read_text(encoding="utf-8"))
    for name, vocabulary in VOCABULARIES.items():
        assert schema["$defs"][name]["enum"] == [member.value for member in vocabulary], name


def test_schema_rules_match_the_rule_converters() -> None:
    schema = json.loads((spec_dir() / "variant.schema.json").read_text(encoding="utf-8"))
    assert list(schema["$defs"]["rules"]["properties"]) == list(CONVERTERS)


def test_every_schema_property_has_a_description() -> None:
    schema = json.loads((spec_dir() / "variant.schema.json").read_text(encoding="utf-8"))
    missing = []

    def visit(node: object, path: str) -> None:
        if isinstance(node, dict):
            for name, sub in node.get("properties", {}).items():
                if "description" not in sub:
                    missing.append(f"{path}.{name}")
            for key, sub in node.items():
                visit(sub, f"{path}.{key}")
        elif isinstance(node, list):
            for index, sub in enumerate(node):
                visit(sub, f"{path}[{index}]")

    visit(schema, "$")
    assert missing == []


# --------------------------------------------------------------------------- the deal


@pytest.mark.parametrize(
    ("variant", "players", "hands"),
    [
        # 000, "Distribution et pioche": pagat, four players, seven each.
        ("pagat", (4,), {"four": 7}),
        # 000: Wikipedia citing Brandreth, two to four players, five each.
        ("wikipedia-brandreth", (2, 3, 4), {"two": 5, "three": 5, "four": 5}),
        # 000: gamerules.com, 7 for two, 6 for three, 5 for four.
        ("gamerules-com", (2, 3, 4), {"two": 7, "three": 6, "four": 5}),
        # 000 and the supplement: the Britannica deals seven each; two to four play.
        ("britannica-1911", (2, 3, 4), {"two": 7, "three": 7, "four": 7}),
        # 001: seven each for two or three, five for four.
        ("jeux-de-hasard", (2, 3, 4), {"two": 7, "three": 7, "four": 5}),
        # 004, "Rozdanie": 8 / 6 / 5.
        ("polish-base", (2, 3, 4), {"two": 8, "three": 6, "four": 5}),
        ("polish", (2, 3, 4), {"two": 8, "three": 6, "four": 5}),
        ("dutch", (2, 3, 4), {"two": 8, "three": 6, "four": 5}),
        ("german", (2, 3, 4), {"two": 8, "three": 6, "four": 5}),
        # 004, house variant: three players, seven tiles each.
        ("house", (3,), {"three": 7}),
    ],
)
def test_deal(variant: str, players: tuple[int, ...], hands: dict[str, int]) -> None:
    resolved = rules(variant)
    assert resolved.players == players
    assert resolved.hand_size.as_dict() == hands
    assert resolved.max_pip == 6


def test_two_tile_reserve_where_the_sources_keep_two_tiles_back() -> None:
    # 000 and the supplement (Britannica); 001 (draw until two tiles remain).
    assert rules("britannica-1911").reserve.for_players(2) == 2
    assert rules("britannica-1911").reserve.for_players(3) == 2
    assert rules("jeux-de-hasard").reserve.as_dict() == {"two": 2, "three": 2, "four": 2}
    for variant in ("pagat", "wikipedia-brandreth", "polish-base", "house"):
        assert set(rules(variant).reserve.as_dict().values()) == {0}, variant


def test_jeux_de_hasard_plays_to_the_left() -> None:
    # 001: the opener's left-hand neighbour plays next.
    assert rules("jeux-de-hasard").turn_direction is TurnDirection.LEFT


# --------------------------------------------------------------------------- opening


def test_highest_double_opens_where_the_survey_says_so() -> None:
    # 000: Wikipedia, gamerules.com and the Britannica; 001; 004 German variant.
    for variant in (
        "wikipedia-brandreth",
        "gamerules-com",
        "britannica-1911",
        "jeux-de-hasard",
        "german",
    ):
        assert rules(variant).opener is Opener.HIGHEST_DOUBLE, variant


def test_pagat_chooses_the_opener_by_lot_and_some_groups_force_the_highest_double() -> None:
    resolved = rules("pagat")
    assert resolved.opener is Opener.DESIGNATED
    assert resolved.opening_tile is OpeningTile.ANY_TILE
    forced = rules("pagat", opening="highest_double")
    assert forced.opening_tile is OpeningTile.HIGHEST_DOUBLE
    assert forced.opener_lacks_double is not None


def test_polish_base_opening() -> None:
    # 004, "Otwarcie": by lot, then in turn; highest double; pass the right on;
    # nobody has one: the due starter draws until a double.
    resolved = rules("polish-base")
    assert resolved.opener is Opener.DESIGNATED
    assert resolved.designated_opener is DesignatedOpener.BY_LOT_THEN_ROTATE
    assert resolved.opening_tile is OpeningTile.HIGHEST_DOUBLE
    assert resolved.nobody_has_double is NobodyHasDouble.DESIGNATED_DRAWS_UNTIL_DOUBLE
    assert resolved.opener_plays_again is False


def test_german_opener_plays_the_second_tile_too() -> None:
    assert rules("german").opener_plays_again is True


def test_house_opens_with_the_lowest_double_other_than_double_blank() -> None:
    resolved = rules("house")
    assert resolved.opener is Opener.LOWEST_DOUBLE
    assert resolved.double_blank_opens is False


# --------------------------------------------------------------------------- matadors


def test_matadors_of_the_larger_sets() -> None:
    # 000, "Les variantes à connaître" and 004's double-nine variant.
    nine = rules("polish-base", set="double_nine")
    assert nine.line_sum == 10
    assert nine.matadors() == ((0, 0), (1, 9), (2, 8), (3, 7), (4, 6), (5, 5))
    assert nine.is_matador(5, 5)
    twelve = rules("pagat", set="double_twelve")
    assert twelve.line_sum == 13
    assert len(twelve.matadors()) == 7
    assert rules("pagat").matadors() == ((0, 0), (1, 6), (2, 5), (3, 4))


@pytest.mark.parametrize(
    "variant", ["pagat", "wikipedia-brandreth", "gamerules-com", "britannica-1911", "dutch"]
)
def test_main_rule_matador_on_any_end_inline_with_the_open_half_chosen(variant: str) -> None:
    modes = rules(variant).matador_modes
    assert any(
        mode.shape is Shape.INLINE
        and mode.fit.value == "free"
        and mode.ends.value == "any"
        and mode.open.value == "outer_half"
        and mode.leaves.match is MatchRule.SUM
        for mode in modes
    )


def test_jeux_de_hasard_crosswise_matador_on_a_blank_takes_only_a_blank() -> None:
    crosswise = [m for m in rules("jeux-de-hasard").matador_modes if m.shape is Shape.CROSSWISE]
    assert len(crosswise) == 1
    assert crosswise[0].ends.value == "blank"
    assert crosswise[0].leaves.match is MatchRule.BLANK


def test_polish_base_crosswise_matador_takes_an_identical_half() -> None:
    # 004: to a crosswise [5|2] one may add [5|1] or [2|2].
    modes = rules("polish-base").matador_modes
    crosswise = [m for m in modes if m.shape is Shape.CROSSWISE and m.tiles.value != "double_blank"]
    assert [m.leaves.match for m in crosswise] == [MatchRule.IDENTICAL]
    assert [m.open.value for m in crosswise] == ["both_halves"]


def test_polish_base_crosswise_fit_is_a_reading_with_its_alternatives() -> None:
    # "pasuje" (fits) a crosswise matador's half: the same number, or making seven.
    resolved = rules("polish-base")
    blank = [m for m in resolved.matador_modes if m.tiles.value == "double_blank"]
    assert [m.leaves.match for m in blank] == [MatchRule.NONE]
    assert GapKind.AMBIGUOUS in gaps_on(resolved, "matador_modes")
    identical = rules("polish-base", double_blank="matches_blank")
    assert all(m.leaves.match is not MatchRule.NONE for m in identical.matador_modes)
    sevens = rules("polish-base", double_blank="seven_rule")
    crosswise = [m for m in sevens.matador_modes if m.shape is Shape.CROSSWISE]
    assert {m.leaves.match for m in crosswise} == {MatchRule.SUM}
    only = rules("polish-base", double_blank="matadors_only")
    blank = [m for m in only.matador_modes if m.tiles.value == "double_blank"]
    assert [m.leaves.match for m in blank] == [MatchRule.SUM]


def test_polish_variant_anything_on_a_matador() -> None:
    resolved = rules("polish")
    assert {m.leaves.match for m in resolved.matador_modes} == {MatchRule.ANY}
    assert resolved.pass_when is PassWhen.ONLY_MATADOR_PLAYS


def test_german_four_ways() -> None:
    modes = rules("german").matador_modes
    assert len(modes) == 4
    offset = [m for m in modes if m.shape is Shape.CROSSWISE_OFFSET]
    assert offset[0].leaves.matadors is MatadorAccess.NEVER
    assert offset[0].leaves.match is MatchRule.IDENTICAL
    t_shape = [m for m in modes if m.shape is Shape.CROSSWISE]
    assert t_shape[0].open.value == "covered_value"
    by_sum = [m for m in modes if m.fit.value == "match"]
    assert by_sum[0].tiles.value == "all_but_double_blank"


def test_pagat_offers_the_three_crosswise_versions() -> None:
    option = next(o for o in rules("pagat").options if o.name == "crosswise")
    assert {"berndt", "english", "central_european"} <= {v.name for v in option.values}
    english = rules("pagat", crosswise="english").matador_modes
    assert any(m.ends.value == "blank" and m.leaves.match is MatchRule.BLANK for m in english)
    berndt = rules("pagat", crosswise="berndt").matador_modes
    assert any(m.shape is Shape.CROSSWISE and m.leaves.match is MatchRule.SUM for m in berndt)


# --------------------------------------------------------------------------- drawing


def test_drawing_rules() -> None:
    # pagat: a player who could only play a matador may draw instead.
    assert rules("pagat").draw_when is DrawWhen.ONLY_MATADOR_PLAYS
    # Britannica (supplement): may draw even holding a playable tile.
    assert rules("britannica-1911").draw_when is DrawWhen.ALWAYS
    # 001: draw if no seven can be made and no matador is (or is wanted to be) laid.
    assert rules("jeux-de-hasard").draw_when is DrawWhen.ONLY_MATADOR_PLAYS
    # 004 German: one tile only, which may be played at once.
    german = rules("german")
    assert german.draws_per_turn is DrawsPerTurn.ONE
    assert german.after_single_draw is AfterSingleDraw.MAY_PLAY_DRAWN
    # 004 house: tactical drawing, one tile, may pass with a playable tile once the stock is out.
    house = rules("house")
    assert house.draw_when is DrawWhen.ALWAYS
    assert house.draws_per_turn is DrawsPerTurn.ONE
    assert house.pass_when is PassWhen.ALWAYS
    # Wikipedia's other rule: one draw, pass if it does not play.
    one = rules("wikipedia-brandreth", draw="one_then_pass")
    assert one.draws_per_turn is DrawsPerTurn.ONE


# --------------------------------------------------------------------------- scoring


def test_scoring_rules() -> None:
    # 000: difference for pagat and gamerules.com; all hands for the Britannica.
    assert rules("pagat").points is Points.DIFFERENCE
    assert rules("gamerules-com").points is Points.DIFFERENCE
    assert rules("britannica-1911").points is Points.ALL_HANDS
    assert rules("britannica-1911", scoring="difference").points is Points.DIFFERENCE
    # 001 and 004: the difference rule.
    assert rules("jeux-de-hasard").points is Points.DIFFERENCE
    assert rules("polish-base").points is Points.DIFFERENCE


def test_targets() -> None:
    assert rules("pagat").target.value == 100
    assert rules("jeux-de-hasard").target.value == 150
    house = rules("house").target
    assert (house.unit, house.value) == (TargetUnit.HANDS, 7)
    seven = rules("polish-base", target="hands_7").target
    assert (seven.unit, seven.value) == (TargetUnit.HANDS, 7)


# --------------------------------------------------------------------------- recorded gaps


def test_the_gaps_the_sources_force_are_recorded() -> None:
    # pagat: four hands of seven leave no boneyard, yet pagat speaks of drawing.
    assert GapKind.CONTRADICTION in gaps_on(rules("pagat"), "reserve")
    # Britannica: a two-tile reserve cannot hold with four players of seven tiles.
    assert GapKind.CONTRADICTION in gaps_on(rules("britannica-1911"), "reserve")
    # gamerules.com: the survey gives no drawing rule.
    assert GapKind.SILENT in gaps_on(rules("gamerules-com"), "draw_when")
    # Wikipedia: the survey gives no scoring rule.
    assert GapKind.SILENT in gaps_on(rules("wikipedia-brandreth"), "points")
    # The difference rule with more than one loser.
    for variant in ("pagat", "gamerules-com"):
        assert gaps_on(rules(variant), "difference_among_several"), variant
    # pagat's partnership game: how sides score.
    assert GapKind.SILENT in gaps_on(rules("pagat", partnership="two_vs_two"), "partnership")


def test_notes_keep_advice_and_custom_apart_from_rules() -> None:
    kinds = {note.kind.value for note in rules("britannica-1911").notes}
    assert {"custom", "advice"} <= kinds


# --------------------------------------------------------------------------- own words


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def _strings(node: object) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        # A section is a locator: the source's own heading, quoted on purpose.
        return [s for key, value in node.items() if key != "section" for s in _strings(value)]
    if isinstance(node, list):
        return [s for value in node for s in _strings(value)]
    return []


def test_no_sentence_is_copied_from_the_sources(source_fingerprint: Fingerprint) -> None:
    """No run of eight words from a source text appears in a variant file."""
    sources = sorted(registry().texts.values())
    assert set(sources) <= set(source_fingerprint.files), "a registered text has no fingerprint"
    copied: list[tuple[str, str]] = []
    for variant_id, variant in CATALOG.files.items():
        for text in _strings(variant.data):
            runs = source_fingerprint.copied(text, "words8", sources)
            copied.extend((variant_id, run) for run in runs)
    assert copied == []
