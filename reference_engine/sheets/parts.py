"""The parts of a rule sheet: frozen dataclasses holding what the sheet shows.

A :class:`Sheet` is everything one rule sheet shows, already in its language;
the other classes are its tables, drawings and boxes. They hold text and
numbers only: :mod:`.build` fills them, the templates lay them out.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Diagram:
    """A drawing: SVG for HTML and PDF, a line of text for Markdown, and its caption."""

    svg: str
    text: str
    caption: str


@dataclass(frozen=True)
class DealRow:
    """One player count of the deal table."""

    players: int
    #: Tiles each, or the larger and smaller hands ("10/9") when every tile is dealt.
    hand: str
    boneyard: int
    reserve: int


@dataclass(frozen=True)
class SumRow:
    """One end value of the sum-rule table: what it needs and which tiles answer it."""

    end: int
    need: str
    count: str
    ordinary: str
    matadors: str


@dataclass(frozen=True)
class ModeCard:
    """One way of playing a matador: labelled lines and a diagram."""

    title: str
    lines: tuple[tuple[str, str], ...]
    diagram: Diagram | None


@dataclass(frozen=True)
class OptionValueRow:
    """One value of an option: its summary and what it changes, in the rules' own sentences."""

    name: str
    summary: str
    rules: str


@dataclass(frozen=True)
class OptionRow:
    """An option: what it decides, the value in force and the other values."""

    name: str
    summary: str
    value: str
    marker: str
    in_force: OptionValueRow
    others: tuple[OptionValueRow, ...]


@dataclass(frozen=True)
class Alternative:
    """Another reading of a gap, and the option that plays it (if the variant offers one)."""

    text: str
    option: str | None


@dataclass(frozen=True)
class GapItem:
    """A point the source does not settle, as the "agree before you play" box shows it."""

    label: str
    kind: str
    about: str
    reading: str
    why: str
    alternatives: tuple[Alternative, ...]


@dataclass(frozen=True)
class NoteItem:
    """A note of the variant that states no rule: a custom, advice, a name, history..."""

    kind: str
    text: str


@dataclass(frozen=True)
class SourceItem:
    """A publication cited, with the passages (text and sections) the sheet relies on."""

    title: str
    passages: tuple[str, ...]


@dataclass(frozen=True)
class Sheet:
    """Everything one rule sheet shows, already in its language."""

    lang: str
    variant: str
    tile_count: int
    title: str
    publication: str
    command: str
    untranslated: tuple[str, ...]
    untranslated_note: str
    extends: str | None
    equipment: tuple[str, ...]
    matadors_intro: str
    matadors: tuple[Diagram, ...]
    deal: tuple[str, ...]
    deal_rows: tuple[DealRow, ...]
    show_reserve: bool
    deal_notes: tuple[str, ...]
    opening: tuple[str, ...]
    sum_heading: str
    sum_rule: tuple[str, ...]
    sum_example: Diagram | None
    sum_rows: tuple[SumRow, ...]
    sum_notes: tuple[str, ...]
    modes_intro: str
    modes: tuple[ModeCard, ...]
    drawing: tuple[str, ...]
    end: tuple[str, ...]
    scoring: tuple[str, ...]
    examples: tuple[str, ...]
    target: tuple[str, ...]
    options: tuple[OptionRow, ...]
    gaps: tuple[GapItem, ...]
    notes: tuple[NoteItem, ...]
    sources: tuple[SourceItem, ...]


__all__ = [
    "Alternative",
    "DealRow",
    "Diagram",
    "GapItem",
    "ModeCard",
    "NoteItem",
    "OptionRow",
    "OptionValueRow",
    "Sheet",
    "SourceItem",
    "SumRow",
]
