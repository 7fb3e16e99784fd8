"""The sheet model: what a rule sheet says, built from the resolved rules.

Nothing in the sheet code states a rule. Every sentence is a catalogue entry
keyed by the rule and its value (``rule.<name>.<value>``, see :func:`value_key`),
filled with the variant's numbers; the tables are computed from the engine's
compiled placement tables (:mod:`reference_engine.engine.compiled`) and the worked
example from :func:`reference_engine.engine.scoring.score`. The templates only
lay the model out.

This module gathers the model's public names; the work is done in:

- :mod:`.parts`: the sheet's frozen dataclasses (:class:`Sheet` and its parts);
- :mod:`.sentences`: the rule sentences;
- :mod:`.figures`: the tile drawings and the tables;
- :mod:`.examples`: the worked scoring examples;
- :mod:`.options`: the options table, the "agree before you play" box and the sources;
- :mod:`.build`: :func:`build_sheet`, assembling the sheet section by section.
"""

from __future__ import annotations

from .build import build_sheet, command_line
from .examples import EXAMPLE_PIPS, SEAT_NAMES
from .figures import tile_text
from .options import shown_gaps
from .parts import DealRow, Diagram, GapItem, ModeCard, OptionRow, Sheet, SourceItem, SumRow
from .sentences import VALUE_RULES, mode_lines, mode_summary, mode_title, rule_sentences, value_key

__all__ = [
    "EXAMPLE_PIPS",
    "SEAT_NAMES",
    "VALUE_RULES",
    "DealRow",
    "Diagram",
    "GapItem",
    "ModeCard",
    "OptionRow",
    "Sheet",
    "SourceItem",
    "SumRow",
    "build_sheet",
    "command_line",
    "mode_lines",
    "mode_summary",
    "mode_title",
    "rule_sentences",
    "shown_gaps",
    "tile_text",
    "value_key",
]
