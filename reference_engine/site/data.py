"""What the site's pages show, gathered from the resolved rules: plain, frozen view records.

Nothing here knows a rule's meaning: values are written by
:func:`~reference_engine.disputes.comparison.value_text` (what ``matador
compare`` prints), rules are grouped as SPEC.md groups them
(:data:`~reference_engine.rules.present.SECTIONS`), and citations, gaps,
options and notes are read from the :class:`~reference_engine.rules.Rules`
object. The templates of :mod:`.pages` only lay these records out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..disputes.comparison import in_words, value_text
from ..rules import Catalog, Citation, Rules
from ..rules.model import Gap
from ..rules.parameters import NAMES, parameter
from ..rules.present import SECTIONS
from ..rules.sources import registry, titled
from ..sheets import svg


@dataclass(frozen=True, kw_only=True)
class RuleView:
    """One rule of one variant: its value, whether it applies, where it was set and why."""

    rule: str
    value: str
    applicable: bool
    set_by: str  # "", "option NAME=VALUE" or "inherited from VARIANT"
    cites: tuple[Citation, ...]
    gap: str | None
    gap_reading: str = ""


@dataclass(frozen=True, kw_only=True)
class Section:
    """A group of rules as SPEC.md presents them."""

    title: str
    anchor: str
    rules: tuple[RuleView, ...]


@dataclass(frozen=True, kw_only=True)
class Reading:
    """Another reading of a gap, and how (or why not) it can be played."""

    description: str
    how: str


@dataclass(frozen=True, kw_only=True)
class GapView:
    """A silence, contradiction or ambiguity the variant file records."""

    id: str
    kind: str
    rules: tuple[str, ...]
    about: str
    reading: str
    why: str
    alternatives: tuple[Reading, ...]
    cites: tuple[Citation, ...]


@dataclass(frozen=True, kw_only=True)
class ValueView:
    """One value of an option."""

    name: str
    summary: str
    is_default: bool
    cites: tuple[Citation, ...]
    changes: tuple[RuleView, ...]


@dataclass(frozen=True, kw_only=True)
class OptionView:
    """An option of a variant with its values."""

    name: str
    summary: str
    values: tuple[ValueView, ...]


@dataclass(frozen=True, kw_only=True)
class NoteView:
    """Advice or background the source gives that is not a rule."""

    kind: str
    text: str
    cites: tuple[Citation, ...]


@dataclass(frozen=True, kw_only=True)
class Figure:
    """A tile drawn as SVG with its caption."""

    svg: str
    caption: str


@dataclass(frozen=True, kw_only=True)
class VariantView:
    """Everything a variant's page shows, at the variant's default options."""

    id: str
    title: str
    publication: str
    summary: str
    chain: tuple[str, ...]
    options: tuple[OptionView, ...]
    sections: tuple[Section, ...]
    gaps: tuple[GapView, ...]
    notes: tuple[NoteView, ...]
    matadors: tuple[Figure, ...]


@dataclass(frozen=True, kw_only=True)
class MatrixRow:
    """One rule across every variant, and whether the variants differ on it."""

    rule: str
    group: str
    spec: str
    about: str
    differs: bool
    cells: tuple[RuleView, ...]


def anchor(text: str) -> str:
    """An id for an HTML anchor made of ``text``'s letters and digits."""
    return "-".join("".join(c if c.isalnum() else " " for c in text.lower()).split())


def rule_view(rules: Rules, rule: str) -> RuleView:
    """The view of ``rule`` under ``rules``."""
    provenance = rules.provenance.get(rule)
    set_by = ""
    if provenance is not None and provenance.option:
        set_by = "option " + "=".join(provenance.option)
    elif provenance is not None and provenance.variant != rules.variant:
        set_by = f"inherited from {provenance.variant}"
    return RuleView(
        rule=rule,
        value=in_words(value_text(rules, rule)),
        applicable=rules.applicable(rule),
        set_by=set_by,
        cites=titled(provenance.cite) if provenance else (),
        gap=provenance.gap if provenance else None,
        gap_reading=next(
            (gap.reading for gap in rules.gaps if provenance and gap.id == provenance.gap), ""
        ),
    )


def _gap(gap: Gap) -> GapView:
    readings = tuple(
        Reading(
            description=alt.description,
            how=f"play it with --option {alt.option}"
            if alt.option
            else f"not offered: {alt.why_not_offered or ''}",
        )
        for alt in gap.alternatives
    )
    return GapView(
        id=gap.id,
        kind=gap.kind.value,
        rules=gap.rules,
        about=gap.about,
        reading=gap.reading,
        why=gap.why,
        alternatives=readings,
        cites=titled(gap.cite),
    )


def _changes(chosen: Rules, option: str, value: str) -> tuple[RuleView, ...]:
    """The rules that choosing ``option=value`` sets, as ``chosen`` (so resolved) reads them."""
    return tuple(
        rule_view(chosen, name)
        for name in NAMES
        if (provenance := chosen.provenance.get(name)) is not None
        and provenance.option == (option, value)
    )


def _under_options(catalog: Catalog, rules: Rules) -> dict[tuple[str, str], Rules]:
    """The variant resolved with each value of each option (the others at their defaults)."""
    return {
        (option.name, value.name): rules
        if rules.chosen[option.name] == value.name
        else catalog.resolve(rules.variant, {option.name: value.name})
        for option in rules.options
        for value in option.values
    }


def variant_view(catalog: Catalog, rules: Rules) -> VariantView:
    """The page of one variant (``catalog`` resolves it under each option's values)."""
    under = _under_options(catalog, rules)
    gaps = {gap.id: gap for gap in rules.gaps}
    for resolved in under.values():  # a gap some option's reading brings with it
        gaps.update({gap.id: gap for gap in resolved.gaps if gap.id not in gaps})
    sections = tuple(
        Section(
            title=title,
            anchor=anchor(title),
            rules=tuple(rule_view(rules, name) for name in names),
        )
        for title, names in SECTIONS.items()
    )
    options = tuple(
        OptionView(
            name=option.name,
            summary=option.summary,
            values=tuple(
                ValueView(
                    name=value.name,
                    summary=value.summary,
                    is_default=value.name == option.default,
                    cites=titled(value.cite),
                    changes=_changes(under[option.name, value.name], option.name, value.name),
                )
                for value in option.values
            ),
        )
        for option in rules.options
    )
    matadors = tuple(
        Figure(svg=svg.single_tile(low, high, f"the matador {low}-{high}"), caption=f"{low}-{high}")
        for low, high in rules.matadors()
    )
    return VariantView(
        id=rules.variant,
        title=rules.title,
        publication=registry().publications.get(rules.publication, rules.publication),
        summary=rules.summary,
        chain=rules.chain,
        options=options,
        sections=sections,
        gaps=tuple(_gap(gap) for gap in gaps.values()),
        notes=tuple(
            NoteView(kind=note.kind.value, text=note.text, cites=titled(note.cite))
            for note in rules.notes
        ),
        matadors=matadors,
    )


def matrix(rules_list: Sequence[Rules]) -> tuple[MatrixRow, ...]:
    """Every rule as a row, every variant as a cell, in the order of SPEC.md."""
    rows = []
    for group, names in SECTIONS.items():
        for name in names:
            cells = tuple(rule_view(rules, name) for rules in rules_list)
            shown = {(cell.value, cell.applicable) for cell in cells}
            info = parameter(name)
            rows.append(
                MatrixRow(
                    rule=name,
                    group=group,
                    spec=info.spec,
                    about=info.about,
                    differs=len(shown) > 1,
                    cells=cells,
                )
            )
    return tuple(rows)
