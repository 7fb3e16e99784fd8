"""The rule sentences: a rule as the sheet states it, from the translation catalogue.

Every sentence is a catalogue entry keyed by the rule and its value
(``rule.<name>.<value>``, see :func:`value_key`), filled with the variant's
numbers; which rules take a sentence by value comes from the rule registry
(:mod:`reference_engine.rules.parameters`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from ..rules import MatadorMode, Rules
from ..rules.model import ALL_TILES
from ..rules.parameters import PARAMETERS, Sentence, parameter
from ..rules.vocabulary import MatchRule, OpenValues
from .catalogue import Translator
from .figures import _deal_rows

#: Rules whose sentence is ``rule.<name>.<value>`` for an enum or boolean value.
VALUE_RULES: tuple[str, ...] = tuple(p.name for p in PARAMETERS if p.sentence is Sentence.BY_VALUE)


def value_key(rule: str, value: object) -> str:
    """The catalogue key of the sentence for ``rule`` having ``value``."""
    return parameter(rule).value_key(value)


def _set_name(tr: Translator, max_pip: int) -> str:
    key = f"set.{max_pip}"
    return tr.t(key) if key in tr.entries else tr.t("set.other", n=max_pip)


def _per_players_text(tr: Translator, key: str, rules: Rules, name: str) -> str:
    """A per-player-count number as one sentence: the same for all, or listed by count."""
    value = getattr(rules, name)
    counts = [value.entry(players) for players in rules.players]
    if len(set(counts)) == 1:
        if counts[0] == ALL_TILES:
            return tr.t(f"{key}.all")
        return tr.tn(f"{key}.same", int(counts[0]))
    items = [
        tr.t(f"{key}.all_by_players", players=players)
        if count == ALL_TILES
        else tr.tn(f"{key}.by_players", int(count), players=players)
        for players, count in zip(rules.players, counts, strict=True)
    ]
    return tr.t(f"{key}.listed", list=tr.join(items, "and"))


def _reserves(rules: Rules) -> list[int]:
    return [rules.reserve.for_players(players) for players in rules.players]


def _no_draw_notes(rules: Rules, tr: Translator) -> list[str]:
    """For each player count whose deal leaves nothing to draw, a sentence saying so."""
    notes = []
    for row in _deal_rows(rules):
        if row.boneyard == 0:
            notes.append(tr.tn("deal.no_boneyard", row.players))
        elif row.boneyard <= row.reserve:
            notes.append(tr.tn("deal.reserve_only", row.players))
    return notes


def rule_sentences(rules: Rules, name: str, tr: Translator, *, short: bool = False) -> list[str]:
    """The sentences that state rule ``name`` as ``rules`` have it.

    A rule the registry states by value has its value's sentence; a composed one
    is stated by its entry in :data:`COMPOSERS`. ``short`` gives the compact form
    used in the options table and the "agree before you play" box (per-player
    numbers inline, one line per matador mode).
    """
    if name in VALUE_RULES:
        return [tr.t(value_key(name, getattr(rules, name)))]
    return COMPOSERS[name](rules, tr, short)


def _equipment(rules: Rules, tr: Translator, short: bool) -> list[str]:
    return [
        tr.tn(
            "rule.max_pip.set",
            rules.tile_count,
            set=_set_name(tr, rules.max_pip),
            n=rules.max_pip,
        )
    ]


def _player_counts(rules: Rules, tr: Translator, short: bool) -> list[str]:
    return [tr.t("rule.players", players=tr.join(str(n) for n in rules.players))]


def _dealt(rules: Rules, tr: Translator, short: bool) -> list[str]:
    if short:
        return [_per_players_text(tr, "rule.hand_size", rules, "hand_size")]
    return [tr.t("rule.hand_size.dealt")]


def _kept(rules: Rules, tr: Translator, short: bool) -> list[str]:
    reserves = _reserves(rules)
    notes = _no_draw_notes(rules, tr) if short else []
    if not any(reserves):
        # In short, a deal with nothing to draw for every player count says just that.
        everyone = short and len(notes) == len(rules.players)
        return ([] if everyone else [tr.t("rule.reserve.none")]) + notes
    if len(set(reserves)) == 1:
        kept = [tr.tn("rule.reserve.kept", reserves[0])]
    elif short:
        kept = [_per_players_text(tr, "rule.reserve", rules, "reserve")]
    else:
        kept = [tr.t("rule.reserve.kept_table")]
    return kept + notes


def _doubles_laid(rules: Rules, tr: Translator, short: bool) -> list[str]:
    d = min(3, rules.max_pip)
    return [tr.t(value_key("doubles", rules.doubles), d=d, need=rules.line_sum - d)]


def _pips_counted(rules: Rules, tr: Translator, short: bool) -> list[str]:
    d = min(4, rules.max_pip)
    return [tr.t(value_key("hand_pips", rules.hand_pips), d=d, pips=2 * d)]


def _match_target(rules: Rules, tr: Translator, short: bool) -> list[str]:
    suffix = "_sides" if rules.teams else ""
    return [tr.tn(f"rule.target.{rules.target.unit}{suffix}", rules.target.value)]


def _modes(rules: Rules, tr: Translator, short: bool) -> list[str]:
    return [mode_summary(rules, mode, tr) for mode in rules.matador_modes]


#: How a sheet states each rule the registry marks composed: its sentences, from the
#: rules and the translator (``short``: the compact form). ``tests/test_sheets.py``
#: holds the keys to the registry's composed rules.
COMPOSERS: Mapping[str, Callable[[Rules, Translator, bool], list[str]]] = MappingProxyType(
    {
        "max_pip": _equipment,
        "players": _player_counts,
        "hand_size": _dealt,
        "reserve": _kept,
        "doubles": _doubles_laid,
        "matador_modes": _modes,
        "hand_pips": _pips_counted,
        "target": _match_target,
    }
)


def mode_title(mode: MatadorMode, tr: Translator) -> str:
    """The heading of a matador mode (by how it lies and whether it must fit)."""
    return tr.t(f"mode.title.{mode.shape}.{mode.fit}")


def mode_lines(rules: Rules, mode: MatadorMode, tr: Translator) -> list[tuple[str, str]]:
    """A matador mode as labelled lines: which, where, how, what stays open, what follows."""
    lines = [
        (tr.t("mode.label.tiles"), tr.t(f"mode.tiles.{mode.tiles}")),
        (tr.t("mode.label.ends"), tr.t(f"mode.ends.{mode.ends}")),
        (tr.t("mode.label.how"), tr.t(f"mode.how.{mode.shape}.{mode.fit}", sum=rules.line_sum)),
    ]
    dead = mode.leaves.match is MatchRule.NONE
    if mode.leaves.match in (MatchRule.SUM, MatchRule.IDENTICAL):  # the values matter only then
        lines.append((tr.t("mode.label.open"), tr.t(_open_key(mode))))
    following = tr.t(f"mode.next.{mode.leaves.match}", sum=rules.line_sum)
    lines.append((tr.t("mode.label.next"), following))
    if not dead:
        lines.append((tr.t("mode.label.after"), tr.t(f"mode.after.{mode.leaves.matadors}")))
    return lines


def _open_key(mode: MatadorMode) -> str:
    if mode.open is OpenValues.OUTER_HALF:
        return f"mode.open.outer_half_{mode.fit}"
    return f"mode.open.{mode.open}"


def mode_summary(rules: Rules, mode: MatadorMode, tr: Translator) -> str:
    """A matador mode in one sentence (for the options and the agree box)."""
    matters = mode.leaves.match in (MatchRule.SUM, MatchRule.IDENTICAL)
    key = "mode.summary" if matters else "mode.summary_short"
    return tr.t(
        key,
        title=mode_title(mode, tr),
        tiles=tr.t(f"mode.tiles.{mode.tiles}"),
        ends=tr.t(f"mode.ends.{mode.ends}"),
        open=tr.t(_open_key(mode)),
        next=tr.t(f"mode.next.{mode.leaves.match}", sum=rules.line_sum),
    )


__all__ = [
    "COMPOSERS",
    "VALUE_RULES",
    "mode_lines",
    "mode_summary",
    "mode_title",
    "rule_sentences",
    "value_key",
]
