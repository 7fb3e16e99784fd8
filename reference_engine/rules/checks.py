"""The semantic checks of variant files and resolved rules (spec/SPEC.md section 12.4)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .errors import Problem, ProblemCode
from .model import (
    PLAYER_COUNT_KEYS,
    MatadorMode,
    PerPlayers,
    Rules,
)
from .parameters import BY_NAME, CONDITIONAL, unknown_rule_hint
from .sources import Registry
from .variantfile import VariantFile
from .vocabulary import (
    EndFilter,
    Fit,
    MatadorAccess,
    MatadorTiles,
    MatchRule,
    OpenValues,
    Partnership,
    Shape,
)
from .yamldoc import Path as DocPath


def check_references(variant: VariantFile, known: Registry) -> list[Problem]:
    """Citations name known publications and texts; gap references exist."""
    problems = []
    data = variant.data
    gap_ids = {gap["id"] for gap in data.get("gaps", [])}

    def citations(path: DocPath, raw: Iterable[Mapping[str, str]] | None) -> None:
        for index, citation in enumerate(raw or ()):
            if citation["publication"] not in known.publications:
                problems.append(
                    variant.problem(
                        ProblemCode.UNKNOWN_PUBLICATION,
                        (*path, index, "publication"),
                        f"unknown publication {citation['publication']!r}",
                        "known: " + ", ".join(sorted(known.publications)),
                    )
                )
            if citation["text"] not in known.texts:
                problems.append(
                    variant.problem(
                        ProblemCode.UNKNOWN_TEXT,
                        (*path, index, "text"),
                        f"unknown source text {citation['text']!r}",
                        "known: " + ", ".join(sorted(known.texts)),
                    )
                )

    def rule_entries(path: DocPath, rules: Mapping[str, Any], *, in_option: bool = False) -> None:
        for rule, entry in rules.items():
            if in_option and rule in BY_NAME and not BY_NAME[rule].optionable:
                problems.append(
                    variant.problem(
                        ProblemCode.NOT_OPTIONABLE,
                        (*path, rule),
                        f"an option may not change {rule!r}: it changes no legal action or score",
                        "set it in the variant's own rules, or make a separate variant",
                    )
                )
            citations((*path, rule, "cite"), entry.get("cite"))
            if "gap" in entry and entry["gap"] not in gap_ids:
                problems.append(
                    variant.problem(
                        ProblemCode.UNKNOWN_GAP,
                        (*path, rule, "gap"),
                        f"refers to gap {entry['gap']!r}, which this file does not record",
                        "add it under gaps, or fix the id",
                    )
                )

    if data["publication"] not in known.publications:
        problems.append(
            variant.problem(
                ProblemCode.UNKNOWN_PUBLICATION,
                ("publication",),
                f"unknown publication {data['publication']!r}",
                "known: " + ", ".join(sorted(known.publications)),
            )
        )
    rule_entries(("rules",), data.get("rules", {}))
    options = data.get("options", {})
    for name, option in options.items():
        for value_name, value in option["values"].items():
            citations(("options", name, "values", value_name, "cite"), value.get("cite"))
            rule_entries(
                ("options", name, "values", value_name, "rules"),
                value.get("rules", {}),
                in_option=True,
            )
    for index, gap in enumerate(data.get("gaps", [])):
        citations(("gaps", index, "cite"), gap.get("cite"))
        for rule_index, rule in enumerate(gap["rules"]):
            if rule not in BY_NAME:
                problems.append(
                    variant.problem(
                        ProblemCode.UNKNOWN_RULE,
                        ("gaps", index, "rules", rule_index),
                        f"no rule called {rule!r}",
                        unknown_rule_hint(),
                    )
                )
        for alt_index, alternative in enumerate(gap["alternatives"]):
            if "option" not in alternative:
                continue
            name, _, value = alternative["option"].partition("=")
            if name not in options or value not in options[name]["values"]:
                problems.append(
                    variant.problem(
                        ProblemCode.UNKNOWN_OPTION,
                        ("gaps", index, "alternatives", alt_index, "option"),
                        f"alternative names option {alternative['option']!r}, "
                        "which this file does not declare",
                        "declare the option, or say why the alternative is not offered",
                    )
                )
    for index, note in enumerate(data.get("notes", [])):
        citations(("notes", index, "cite"), note["cite"])
    return problems


def check_rules(rules: Rules) -> list[tuple[str, ProblemCode, str, str]]:
    """Checks across rules that the schema cannot express: (rule, code, message, fix)."""
    found: list[tuple[str, ProblemCode, str, str]] = []
    for rule in sorted(CONDITIONAL):
        if getattr(rules, rule) is None and rules.applicable(rule):
            found.append(
                (
                    rule,
                    ProblemCode.MISSING_RULE,
                    f"rule {rule!r} is required by the variant's other rules",
                    f"add rules.{rule} (SPEC.md says when it is needed)",
                )
            )
    for name in ("hand_size", "reserve"):
        per: PerPlayers = getattr(rules, name)
        given = {count for count, key in PLAYER_COUNT_KEYS.items() if getattr(per, key) is not None}
        if given != set(rules.players):
            found.append(
                (
                    name,
                    ProblemCode.PLAYER_COUNTS,
                    f"{name} is given for {sorted(given)} players but the variant allows "
                    f"{list(rules.players)}",
                    "give exactly one entry per allowed player count",
                )
            )
    for players in rules.players:
        try:
            entry = rules.hand_size.entry(players)
            reserve = rules.reserve.for_players(players)
        except KeyError:
            continue
        if isinstance(entry, str):  # every tile dealt out: nothing can stay behind
            if reserve:
                found.append(
                    (
                        "reserve",
                        ProblemCode.DEAL_TOO_LARGE,
                        f"every tile is dealt to {players} players, so no reserve of "
                        f"{reserve} can stay in the boneyard",
                        "give a reserve of 0 where the hand size is all",
                    )
                )
            continue
        hand = entry
        if hand < 1:
            found.append(
                (
                    "hand_size",
                    ProblemCode.INCOHERENT,
                    f"a hand of {hand} tiles for {players} players",
                    "deal at least one tile",
                )
            )
        if hand * players + reserve > rules.tile_count:
            found.append(
                (
                    "hand_size",
                    ProblemCode.DEAL_TOO_LARGE,
                    f"{players} players x {hand} tiles + a reserve of {reserve} is "
                    f"{hand * players + reserve}, more than the {rules.tile_count} tiles "
                    f"of the double-{rules.max_pip} set",
                    "deal fewer tiles or lower the reserve for this player count",
                )
            )
    if rules.partnership is Partnership.TWO_VS_TWO and rules.players != (4,):
        found.append(
            (
                "partnership",
                ProblemCode.INCOHERENT,
                "two_vs_two needs exactly four players",
                "set players to [4] or partnership to none",
            )
        )
    for index, mode in enumerate(rules.matador_modes):
        for message in _mode_incoherence(mode):
            found.append(
                ("matador_modes", ProblemCode.INCOHERENT, f"mode {index}: {message}", "see SPEC.md")
            )
    for i, first in enumerate(rules.matador_modes):
        for j in range(i + 1, len(rules.matador_modes)):
            second = rules.matador_modes[j]
            if (
                first.shape is second.shape
                and _tiles_overlap(first.tiles, second.tiles)
                and _ends_overlap(first.ends, second.ends)
                and (first.open is not second.open or first.leaves != second.leaves)
            ):
                found.append(
                    (
                        "matador_modes",
                        ProblemCode.INCOHERENT,
                        f"modes {i} and {j} can put the same matador down in the same shape "
                        "but leave different ends",
                        "make their tiles, ends or shapes disjoint",
                    )
                )
    return found


def _mode_incoherence(mode: MatadorMode) -> list[str]:
    problems = []
    lies_along = mode.shape in (Shape.INLINE, Shape.CROSSWISE_OFFSET)
    if lies_along and mode.open is not OpenValues.OUTER_HALF:
        problems.append(f"a {mode.shape} matador leaves its outer half open")
    if mode.shape is Shape.CROSSWISE and mode.open is OpenValues.OUTER_HALF:
        problems.append("a crosswise matador has no single outer half")
    if mode.fit is Fit.MATCH and mode.shape is not Shape.INLINE:
        problems.append("a matador that fits like an ordinary tile lies inline")
    if mode.leaves.match is MatchRule.NONE and mode.leaves.matadors is not MatadorAccess.NEVER:
        problems.append("a dead end (match none) admits no matador either")
    return problems


def _tiles_overlap(first: MatadorTiles, second: MatadorTiles) -> bool:
    return MatadorTiles.ALL in (first, second) or first is second


def _ends_overlap(first: EndFilter, second: EndFilter) -> bool:
    return EndFilter.ANY in (first, second) or first is second
