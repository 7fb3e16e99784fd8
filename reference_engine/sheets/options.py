"""The options table, the "agree before you play" box, the notes and the sources.

Each option with its summary, the value in force and what the other values
would change, the gaps in the source behind a value in force (what the source
leaves open, the reading taken, why, and the other readings), the variant's
notes, and the publications cited. The variant's own prose is printed in the
sheet's language through :meth:`.catalogue.Translator.prose`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..rules import Catalog, Citation, Gap, MatadorMode, Rules, RulesError, registry
from ..rules.parameters import NAMES
from .catalogue import Translator, english_glosses
from .parts import Alternative, GapItem, NoteItem, OptionRow, OptionValueRow, SourceItem
from .sentences import mode_summary, rule_sentences
from .translations import PUBLICATIONS, SECTIONS, section_place


def _changed_rules(option_values: Iterable[tuple[str, ...]]) -> list[str]:
    changed: list[str] = []
    for changes in option_values:
        for name in changes:
            if name not in changed:
                changed.append(name)
    return changed


def _summary(
    rules: Rules,
    names: Iterable[str],
    tr: Translator,
    modes: Sequence[MatadorMode] | None = None,
) -> str:
    """The short sentences of the applicable rules among ``names``.

    ``modes``, when given, are the matador modes to state instead of all of them.
    """
    sentences = []
    for name in names:
        if not rules.applicable(name):
            continue
        if name == "matador_modes" and modes is not None:
            sentences += [mode_summary(rules, mode, tr) for mode in modes]
        else:
            sentences += rule_sentences(rules, name, tr, short=True)
    return " ".join(sentences)


def _distinct(
    modes: Sequence[MatadorMode], others: Sequence[Sequence[MatadorMode]]
) -> list[MatadorMode]:
    """The modes of ``modes`` that some of ``others`` lacks (all of them if none)."""
    distinct = [mode for mode in modes if any(mode not in other for other in others)]
    return distinct or list(modes)


def _options(rules: Rules, tr: Translator, catalog: Catalog) -> tuple[OptionRow, ...]:
    """Each option with its summary, the value in force and the others, each with what it changes.

    Where an option changes the matador modes, only the modes that differ
    between its values are stated.
    """
    rows = []
    for option in rules.options:
        in_force = rules.chosen[option.name]
        changed = _changed_rules(value.changes for value in option.values)
        resolved: dict[str, Rules | None] = {}
        for value in option.values:
            if value.name == in_force:
                continue
            try:
                other = catalog.resolve(rules.variant, {**rules.chosen, option.name: value.name})
            except RulesError:
                other = None
            resolved[value.name] = other
        modes = [other.matador_modes for other in resolved.values() if other is not None]
        values = {}
        for value in option.values:
            if value.name == in_force:
                text = _summary(rules, changed, tr, _distinct(rules.matador_modes, modes))
            else:
                other = resolved[value.name]
                text = (
                    ""
                    if other is None
                    else _summary(
                        other, changed, tr, _distinct(other.matador_modes, [rules.matador_modes])
                    )
                )
            place = f"options.{option.name}.values.{value.name}.summary"
            values[value.name] = OptionValueRow(
                name=value.name,
                summary=tr.prose(option.variant, place, value.summary),
                rules=text or tr.t("options.no_effect"),
            )
        rows.append(
            OptionRow(
                name=option.name,
                summary=tr.prose(option.variant, f"options.{option.name}.summary", option.summary),
                value=in_force,
                marker=tr.t("options.default" if in_force == option.default else "options.chosen"),
                in_force=values[in_force],
                others=tuple(row for name, row in values.items() if name != in_force),
            )
        )
    return tuple(rows)


def shown_gaps(rules: Rules) -> list[Gap]:
    """The gaps behind a rule value in force: some applicable rule's entry names the gap."""
    shown = []
    for gap in rules.gaps:
        for name in gap.rules:
            provenance = rules.provenance.get(name)
            if provenance is not None and provenance.gap == gap.id and rules.applicable(name):
                shown.append(gap)
                break
    return shown


def _gaps(rules: Rules, tr: Translator) -> tuple[GapItem, ...]:
    items = []
    for gap in shown_gaps(rules):
        names = [name for name in gap.rules if rules.applicable(name)] or list(gap.rules)
        place = f"gaps.{gap.id}"
        items.append(
            GapItem(
                label=" · ".join(tr.t(f"label.{name}") for name in names),
                kind=tr.t(f"agree.kind.{gap.kind}"),
                about=tr.prose(gap.variant, f"{place}.about", gap.about),
                reading=tr.prose(gap.variant, f"{place}.reading", gap.reading),
                why=tr.prose(gap.variant, f"{place}.why", gap.why),
                alternatives=tuple(
                    Alternative(
                        text=tr.prose(
                            gap.variant, f"{place}.alternatives.{index}", alt.description
                        ),
                        option=None if alt.option is None else f"--option {alt.option}",
                    )
                    for index, alt in enumerate(gap.alternatives)
                ),
            )
        )
    return tuple(items)


def _notes(rules: Rules, tr: Translator) -> tuple[NoteItem, ...]:
    """The notes of the variant and of those it extends (base first, each in file order)."""
    items = []
    counted: dict[str, int] = {}
    for note in rules.notes:
        index = counted.get(note.variant, 0)
        counted[note.variant] = index + 1
        items.append(
            NoteItem(
                kind=tr.t(f"note.kind.{note.kind}"),
                text=tr.prose(note.variant, f"notes.{index}", note.text),
            )
        )
    return tuple(items)


def _citations(rules: Rules) -> list[Citation]:
    cited: list[Citation] = []
    for name in NAMES:
        provenance = rules.provenance.get(name)
        if provenance is not None and rules.applicable(name):
            cited.extend(provenance.cite)
    for gap in shown_gaps(rules):
        cited.extend(gap.cite)
    return cited


def _sources(rules: Rules, tr: Translator) -> tuple[SourceItem, ...]:
    grouped: dict[str, dict[str, list[str]]] = {}
    for citation in _citations(rules):
        sections = grouped.setdefault(citation.publication, {}).setdefault(citation.text, [])
        if citation.section not in sections:
            sections.append(citation.section)
    titles = registry().publications
    return tuple(
        SourceItem(
            title=tr.prose(PUBLICATIONS, publication, titles.get(publication, publication)),
            passages=tuple(
                tr.t(
                    "sources.passage",
                    text=_text_name(text, tr),
                    sections=tr.t("list.semicolon").join(
                        _section_name(text, section, tr) for section in sections
                    ),
                )
                for text, sections in texts.items()
            ),
        )
        for publication, texts in grouped.items()
    )


def _text_name(text: str, tr: Translator) -> str:
    """A cited text as the sheet names it: by what it is (a numbered text the catalogue
    describes), else its id, a word translated."""
    if text.isdigit():
        key = f"sources.texts.{text}"
        return tr.t(key) if key in tr.entries else tr.t("sources.text", id=text)
    return tr.t("sources.text", id=tr.prose(SECTIONS, section_place(text), text))


def _section_name(text: str, section: str, tr: Translator) -> str:
    """A cited section as the sheet names it: translated, or, on an English sheet, as its
    text writes it with the English in parentheses when the text is in another language."""
    place = section_place(text, section)
    named = tr.prose(SECTIONS, place, section)
    gloss = english_glosses().get(place) if tr.lang == "en" else None
    return f"{named} ({gloss})" if gloss else named


__all__ = ["shown_gaps"]
