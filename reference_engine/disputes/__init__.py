"""Settling disputes: every source side by side, one verb per module.

- ``naming``: a variant with options, read from ``ID:NAME=VALUE,...`` and ``-O``, and labelled back;
- ``comparison``: ``matador compare`` and ``matador diff`` (every rule of every variant, or of two);
- ``score``: ``matador score`` (what every variant awards for the same hand);
- ``probability``: ``matador odds`` (exact matador odds, and the tiles that answer an end);
- ``explain``: ``matador explain`` (a table question answered under every variant).

Everything here is read from the variant files and computed by the engine's
own functions; no rule is restated by hand.
"""

from __future__ import annotations

from .comparison import (
    Cell,
    cell,
    compare,
    comparison_document,
    diff,
    diff_text,
    rule_names,
    value_text,
)
from .naming import label, parse_target
from .probability import Odds, answers, main_rule, odds, odds_data, odds_text
from .score import Award, score_everywhere, score_text

__all__ = [
    "Award",
    "Cell",
    "Odds",
    "answers",
    "cell",
    "compare",
    "comparison_document",
    "diff",
    "diff_text",
    "label",
    "main_rule",
    "odds",
    "odds_data",
    "odds_text",
    "parse_target",
    "rule_names",
    "score_everywhere",
    "score_text",
    "value_text",
]
