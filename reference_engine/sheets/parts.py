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
    hand: int
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
class OptionRow:
    """An option: the value in force with what it means, and the other values."""

    name: str
    value: str
    marker: str
    text: str
    others: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class GapItem:
    """A point the source does not settle, as the "agree before you play" box shows it."""

    label: str
    kind: str
    about: str | None
    plays: str
    options: tuple[str, ...]


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
    extends: str | None
    equipment: tuple[str, ...]
    matadors_intro: str
    matadors: tuple[Diagram, ...]
    deal: tuple[str, ...]
    deal_rows: tuple[DealRow, ...]
    show_reserve: bool
    deal_notes: tuple[str, ...]
    opening: tuple[str, ...]
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
    sources: tuple[SourceItem, ...]


__all__ = [
    "DealRow",
    "Diagram",
    "GapItem",
    "ModeCard",
    "OptionRow",
    "Sheet",
    "SourceItem",
    "SumRow",
]
