"""A reading a variant file calls unplayable names what the rule model lacks, and the
model still lacks it.

An alternative reading of a gap is either offered (``option``), or kept out for
one of two reasons a file must not confuse: the model cannot play it
(``unplayable_because``, with ``lacks`` naming what it lacks), or the model could
but nothing in the source points to it (``not_offered_because``). Each kind of
lack has a check here of the place the model would gain it (a vocabulary, the
action, the registry of rules); when the model gains it, the check fails, and
the reading must be offered or its reason rewritten.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
import yaml
from shipped import SHIPPED_VARIANTS

from reference_engine.engine.actions import Play
from reference_engine.rules import vocabulary
from reference_engine.rules.datafiles import variants_dir
from reference_engine.rules.model import Alternative
from reference_engine.rules.parameters import NAMES
from reference_engine.rules.vocabulary import ModelLack

#: The rules of the model when these checks were written: a lack that no vocabulary
#: holds would come as a new rule (who takes the extra tiles, a draw before the lead...).
RULES_TODAY = frozenset(
    {
        "max_pip",
        "players",
        "hand_size",
        "reserve",
        "partnership",
        "turn_direction",
        "opener",
        "designated_opener",
        "opening_tile",
        "double_blank_opens",
        "opener_lacks_double",
        "nobody_has_double",
        "opener_plays_again",
        "doubles",
        "matador_modes",
        "draw_when",
        "draws_per_turn",
        "after_single_draw",
        "pass_when",
        "hand_pips",
        "points",
        "difference_among_several",
        "tie",
        "target",
    }
)


def _values(vocabulary_name: str) -> set[str]:
    return {member.value for member in getattr(vocabulary, vocabulary_name)}


def _no_new_rule() -> bool:
    return set(NAMES) == RULES_TODAY


#: For each lack, whether the model still lacks it, read where it would be gained.
STILL_LACKING: dict[ModelLack, Callable[[], bool]] = {
    ModelLack.CROSSWISE_DOUBLES: lambda: _values("DoublesPlacement") == {"inline"},
    ModelLack.LIGHTEST_TILE_OPENING: lambda: (
        _values("NobodyHasDouble") == {"redeal", "designated_draws_until_double", "heaviest_tile"}
    ),
    ModelLack.RANKING_BY_HIGHER_HALF: lambda: (
        _values("NobodyHasDouble") == {"redeal", "designated_draws_until_double", "heaviest_tile"}
    ),
    ModelLack.FIXED_OPEN_HALF: lambda: (
        _values("OpenValues") == {"outer_half", "both_halves", "covered_value", "two_ends"}
    ),
    ModelLack.WAY_OF_LAYING_IN_THE_ACTION: lambda: (
        {field.name for field in dataclasses.fields(Play)} == {"tile", "end", "shape", "open"}
    ),
    ModelLack.ANOTHER_END_ACCESS: lambda: (
        _values("MatadorAccess") == {"free", "match_only", "never"}
    ),
    ModelLack.LEAD_TO_LAST_WINNER: lambda: (
        _values("DesignatedOpener")
        == {
            "by_lot_each_hand",
            "by_lot_then_rotate",
            "by_lot_then_rotate_from_opener",
            "lowest_drawn_each_hand",
            "lowest_drawn_then_rotate",
        }
    ),
    ModelLack.HIGHEST_TILE_LOT: lambda: (
        not any("highest" in v for v in _values("DesignatedOpener"))
    ),
    ModelLack.DRAW_AND_PASS_AS_PASS: _no_new_rule,
    ModelLack.DRAW_BEFORE_THE_LEAD: _no_new_rule,
    ModelLack.SIDE_WON_BY_LOWEST_PLAYER: lambda: (
        _no_new_rule() and _values("Partnership") == {"none", "two_vs_two"}
    ),
    ModelLack.EXTRA_TILE_TO_LAST_SEAT: _no_new_rule,
    ModelLack.HAND_SIZE_PER_TABLE: _no_new_rule,
}


def _alternatives() -> list[tuple[str, str, Alternative]]:
    """Every alternative reading of every gap of the shipped files, in force or not."""
    found = []
    for variant in SHIPPED_VARIANTS:
        data = yaml.safe_load((variants_dir() / f"{variant}.yaml").read_text(encoding="utf-8"))
        for gap in data.get("gaps", []):
            found += [(variant, gap["id"], Alternative(**alt)) for alt in gap["alternatives"]]
    return found


def test_every_lack_has_its_check() -> None:
    assert set(STILL_LACKING) == set(ModelLack)


@pytest.mark.parametrize(
    "variant, gap, alternative",
    [item for item in _alternatives() if item[2].unplayable_because],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_an_unplayable_reading_names_what_the_model_still_lacks(
    variant: str, gap: str, alternative: Alternative
) -> None:
    assert alternative.lacks is not None, (
        f"{variant}: gap {gap}: an unplayable alternative must name what the model lacks "
        "(lacks); a reading the model can play is offered, or not_offered_because"
    )
    lack = ModelLack(alternative.lacks)
    assert STILL_LACKING[lack](), (
        f"{variant}: gap {gap}: the model no longer lacks {lack.value}: offer "
        f"{alternative.description!r} as an option, or say why not"
    )


def test_every_kind_of_lack_is_named_by_a_shipped_reading() -> None:
    named = {alt.lacks for _, _, alt in _alternatives() if alt.lacks}
    assert named == {lack.value for lack in ModelLack}


def test_no_alternative_is_both_not_offered_and_unplayable() -> None:
    for variant, gap, alt in _alternatives():
        reasons = [alt.option, alt.unplayable_because, alt.not_offered_because]
        assert sum(reason is not None for reason in reasons) == 1, (variant, gap)
        assert (alt.lacks is not None) == (alt.unplayable_because is not None), (variant, gap)


def test_a_check_fails_once_the_model_gains_what_it_lacked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A double laid across, added to the rule of doubles, ends the lack a file names."""

    class DoublesPlacement(vocabulary.TextEnum):
        INLINE = "inline"
        CROSSWISE = "crosswise"

    assert STILL_LACKING[ModelLack.CROSSWISE_DOUBLES]()
    monkeypatch.setattr(vocabulary, "DoublesPlacement", DoublesPlacement)
    assert not STILL_LACKING[ModelLack.CROSSWISE_DOUBLES]()
