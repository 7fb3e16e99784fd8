"""Assembling a rule sheet: each section's sentences, tables and drawings, in order.

:func:`build_sheet` puts together the rule sentences (:mod:`.sentences`), the
drawings and tables (:mod:`.figures`), the worked examples (:mod:`.examples`)
and the options, gaps and sources (:mod:`.options`) into a :class:`.Sheet`.
"""

from __future__ import annotations

from ..engine.compiled import compiled
from ..rules import Catalog, Rules, registry
from ..rules.vocabulary import NobodyHasDouble, Opener
from .catalogue import Translator
from .examples import _examples
from .figures import (
    _blank_note,
    _deal_rows,
    _matador_tiles,
    _mode_picture,
    _sum_example,
    _sum_rows,
)
from .options import _gaps, _notes, _options, _sources
from .parts import ModeCard, Sheet
from .sentences import _no_draw_notes, _reserves, mode_lines, mode_title, rule_sentences
from .translations import PUBLICATIONS


def command_line(rules: Rules, lang: str) -> str:
    """The ``matador sheet`` command that makes this sheet."""
    defaults = {option.name: option.default for option in rules.options}
    chosen = "".join(
        f" --option {name}={value}"
        for name, value in sorted(rules.chosen.items())
        if defaults.get(name) != value
    )
    language = "" if lang == "en" else f" --lang {lang}"
    return f"matador sheet {rules.variant}{chosen}{language}"


def _opening(rules: Rules, tr: Translator) -> list[str]:
    names = ["opener"]
    designated_first = rules.opener is Opener.DESIGNATED
    if designated_first and rules.applicable("designated_opener"):
        names.append("designated_opener")
    names += ["opening_tile", "opener_lacks_double"]
    if rules.applicable("nobody_has_double"):
        names += ["double_blank_opens", "nobody_has_double"]
        if (
            not designated_first
            and rules.nobody_has_double is NobodyHasDouble.DESIGNATED_DRAWS_UNTIL_DOUBLE
        ):
            names.append("designated_opener")
    names.append("opener_plays_again")
    return [
        sentence
        for name in names
        if rules.applicable(name)
        for sentence in rule_sentences(rules, name, tr)
    ]


def _drawing(rules: Rules, tr: Translator) -> tuple[list[str], list[str]]:
    """The drawing and passing sentences, and the deal notes on boneyards nobody draws from."""
    drawing = rule_sentences(rules, "draw_when", tr)
    notes: list[str] = []
    if rules.applicable("draws_per_turn"):
        for name in ("draws_per_turn", "after_single_draw"):
            if rules.applicable(name):
                drawing += rule_sentences(rules, name, tr)
        if any(_reserves(rules)):
            drawing += rule_sentences(rules, "reserve", tr)
        notes = _no_draw_notes(rules, tr)
    drawing += rule_sentences(rules, "pass_when", tr)
    return drawing, notes


def build_sheet(
    rules: Rules,
    lang: str,
    *,
    catalog: Catalog | None = None,
    translator: Translator | None = None,
) -> Sheet:
    """The rule sheet of ``rules`` in ``lang`` (``catalog`` resolves the other option values)."""
    tr = translator if translator is not None else Translator.for_language(lang)
    catalog = catalog if catalog is not None else Catalog.shipped()
    already = len(tr.untranslated)  # a translator may serve several sheets
    tables = compiled(rules)
    teams = rules.teams
    rows = _deal_rows(rules)
    drawing, deal_notes = _drawing(rules, tr)
    matadors = rules.matadors()
    sum_notes = [_blank_note(rules, tables, tr)]
    sum_notes += rule_sentences(rules, "doubles", tr)
    scoring = rule_sentences(rules, "hand_pips", tr) + rule_sentences(rules, "points", tr)
    if rules.applicable("difference_among_several") and not teams:
        scoring += rule_sentences(rules, "difference_among_several", tr)
    parents = [f"{parent}.yaml" for parent in reversed(rules.chain[:-1])]
    title = tr.prose(rules.variant, "title", rules.title)
    publication = tr.prose(
        PUBLICATIONS,
        rules.publication,
        registry().publications.get(rules.publication, rules.publication),
    )
    options, gaps, notes = _options(rules, tr, catalog), _gaps(rules, tr), _notes(rules, tr)
    sources = _sources(rules, tr)
    untranslated = tuple(f"{variant}: {place}" for variant, place in tr.untranslated[already:])
    return Sheet(
        lang=lang,
        variant=rules.variant,
        tile_count=rules.tile_count,
        title=title,
        publication=publication,
        command=command_line(rules, lang),
        untranslated=untranslated,
        untranslated_note=tr.tn("sheet.untranslated", len(untranslated)) if untranslated else "",
        extends=tr.t("sheet.extends", parents=tr.join(parents, "and")) if parents else None,
        equipment=tuple(rule_sentences(rules, "max_pip", tr)),
        matadors_intro=tr.tn("rule.max_pip.matadors", len(matadors), sum=rules.line_sum),
        matadors=_matador_tiles(rules),
        deal=tuple(
            rule_sentences(rules, "players", tr)
            + rule_sentences(rules, "hand_size", tr)
            + rule_sentences(rules, "partnership", tr)
            + rule_sentences(rules, "turn_direction", tr)
        ),
        deal_rows=rows,
        show_reserve=any(row.reserve for row in rows),
        deal_notes=tuple(deal_notes),
        opening=tuple(_opening(rules, tr)),
        sum_heading=tr.t("heading.sum_rule_sevens" if rules.line_sum == 7 else "heading.sum_rule"),
        sum_rule=(tr.t("rule.max_pip.line_sum", sum=rules.line_sum),),
        sum_example=_sum_example(rules, tr),
        sum_rows=_sum_rows(rules, tables, tr),
        sum_notes=tuple(sum_notes),
        modes_intro=tr.tn("rule.matador_modes.intro", len(rules.matador_modes)),
        modes=tuple(
            ModeCard(
                title=mode_title(mode, tr),
                lines=tuple(mode_lines(rules, mode, tr)),
                diagram=_mode_picture(rules, tables, mode, tr),
            )
            for mode in rules.matador_modes
        ),
        drawing=tuple(drawing),
        end=(
            tr.t("end.domino_sides" if teams else "end.domino"),
            tr.t("end.block_sides" if teams else "end.block"),
            *rule_sentences(rules, "tie", tr),
        ),
        scoring=tuple(scoring),
        examples=_examples(rules, tr),
        target=tuple(rule_sentences(rules, "target", tr)),
        options=options,
        gaps=gaps,
        notes=notes,
        sources=sources,
    )


__all__ = ["build_sheet", "command_line"]
