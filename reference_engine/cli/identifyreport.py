"""The answers of ``matador identify``: text that fits 80 columns, Markdown and JSON.

Each says, per variant the engine was observed under, the closest candidates: the rules
each departs in with the value the engine plays, the rules no shipped value explains,
what the hands built to part the closest found, and what stays undetermined.
"""

from __future__ import annotations

import argparse
import math
import re
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .. import sinks
from ..sinks import printable

if TYPE_CHECKING:
    from ..conformance.analysis.identification import Identification
    from ..conformance.analysis.ranking import Score
    from ..conformance.protocol.interface import EngineInfo

#: The width the text answer fits.
WIDTH = 80


def _percent(score: Score) -> str:
    """The agreement in percent, one decimal, never rounded up to 100 unless exact."""
    return "100" if score.exact else f"{math.floor(score.agreement * 1000) / 10:.1f}"


def _differs(score: Score) -> list[str]:
    """``rule (SPEC x.y) xN`` for each rule differing, the most frequent first."""
    from ..conformance.judging.attribution import section

    return [
        f"{rule} ({section(rule)}) x{count}" if rule else f"unattributed x{count}"
        for rule, count in score.differs.most_common()
        if count
    ]


def _fill(text: str, indent: str = "  ") -> list[str]:
    """A sentence broken at spaces to fit WIDTH."""
    return textwrap.wrap(
        text, WIDTH, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
    )


def _flow(start: str, pieces: Sequence[tuple[str, str]], indent: str = "    ") -> list[str]:
    """``start`` then each (separator, text) piece, a line broken before a piece that
    would pass WIDTH (a piece is never broken)."""
    lines = [start]
    for separator, text in pieces:
        if lines[-1].strip() and len(lines[-1]) + len(separator) + len(text) > WIDTH:
            lines.append(indent + text)
        else:
            lines[-1] += (separator if lines[-1].strip() else "") + text
    return lines


def _label(label: str) -> list[tuple[str, str]]:
    """A label as pieces: it may break after each comma between its options."""
    parts = re.split(r"(?<=,)", label)
    return [(" ", parts[0]), *(("", part) for part in parts[1:])]


def _items(items: Sequence[str], labels: bool = False) -> list[tuple[str, str]]:
    """Items separated by commas; labels may also break after their own commas."""
    pieces: list[tuple[str, str]] = []
    for number, item in enumerate(items):
        parts = _label(item) if labels else [(" ", item)]
        if number < len(items) - 1:
            parts[-1] = (parts[-1][0], parts[-1][1] + ",")
        pieces.extend(parts)
    return pieces


def _plays(found: Identification, rule: str) -> str:
    """What the engine plays of ``rule``, as found (the hand sizes: as the deals showed)."""
    from ..conformance.analysis.rulereport import value_label

    inference = found.inference
    if inference is None:
        return ""
    if rule in inference.dealt_rule:
        taken = sorted({(p.players, p.shape) for p in found.observation.probes if p.accepted})
        return ", ".join(
            f"{'/'.join(map(str, sorted(set(shape))))} for {n} players" for n, shape in taken
        )
    return value_label(inference.rules_with(rule), rule)


def _score_lines(found: Identification, start: str, score: Score) -> list[str]:
    lines = _flow(start, [*_label(score.candidate.label), *_words(_said(score))])
    for rule in score.departs:
        lines.extend(
            _fill(
                f"    {_rule(rule)}: the engine plays {_plays(found, rule)} "
                f"(x{score.differs.get(rule, 0)})",
                "      ",
            )
        )
    rest = [item for item in _differs(score) if item.split(" ")[0] not in score.departs]
    if rest:
        lines.extend(_flow("    no shipped value explains:", _items(rest), "      "))
    return lines


def _said(score: Score) -> str:
    departs = len(score.departs)
    how = "departs in no rule" if not departs else f"departs in {departs} rule(s)"
    if not score.checks:
        return f"({how})"
    return f"({how}; {_percent(score)} % of {score.checks} checks agree as it is)"


def _rule(rule: str) -> str:
    from ..conformance.judging.attribution import section

    return f"{rule} ({section(rule)})"


def _words(text: str) -> list[tuple[str, str]]:
    return [(" ", word) for word in text.split()]


def _target_label(found: Identification) -> str:
    from ..conformance.analysis.identification import label

    target = found.observation.target
    return label(target.variant, target.options)


def text_answer(
    info: EngineInfo | None,
    found: list[Identification],
    args: argparse.Namespace,
    pool: int,
    combinations: int,
) -> list[str]:
    from ..sinks import printable

    if info is not None:
        lines = _fill(
            f"engine: {printable(info.name)} {printable(info.version)}; seed {args.seed}, "
            f"{args.hands} hand(s) per player count"
        )
    else:
        lines = [f"records: {', '.join(args.records)}"]
    lines.append(f"{pool} candidates: the shipped variants, {combinations} option combinations")
    for one in found:
        observation, ranking = one.observation, one.ranking
        counts = sorted({hand.players for hand in observation.hands})
        lines.append("")
        lines.extend(
            _fill(
                f"{_target_label(one)}: {len(observation.hands)} hand(s) "
                f"({', '.join(map(str, counts)) or 'no'} players), "
                f"{len(observation.probes)} deal size(s) offered, {len(ranking)} candidates fit"
            )
        )
        for note, count in observation.notes.items():
            lines.extend(_fill(f"note: {count} hand(s) not observed: {printable(note)}"))
        if not ranking or not observation.hands:
            lines.append("closest: nothing to compare")
            continue
        lines.extend(_score_lines(one, "closest:", ranking[0]))
        lines.extend(_separation_lines(one))
        shown = [s for s in ranking[1 : args.top or None] if s not in one.tied]
        if shown:
            lines.append("next:")
            for score in shown:
                lines.extend(_score_lines(one, "  ", score))
    return lines


def _separation_lines(one: Identification) -> list[str]:
    lines: list[str] = []
    separation = one.separation
    if separation is not None:
        for parted in separation.parted:
            if parted.plays is None:
                said = "its answer matched neither"
            else:
                said = f"it plays {parted.plays}"
            lines.extend(
                _fill(
                    f"asked: {parted.rule} ({' or '.join(parted.values)}), parted by "
                    f"{parted.by}: {said}"
                )
            )
    tied = [score.candidate.label for score in one.tied]
    if tied:
        lines.append("as close (no hand told them apart):")
        for label in tied[:8]:
            # one candidate a line; a long one goes on under it, indented further
            lines.extend(_flow("  ", _label(printable(label)), "      "))
        if len(tied) > 8:
            lines.append(f"  and {len(tied) - 8} more")
        if separation is not None and separation.undetermined:
            lines.append("undetermined:")
            for rule in separation.undetermined:
                lines.extend(_fill(f"  {_rule(rule)}: {separation.why.get(rule, '')}", "    "))
    return lines


def markdown_answer(found: list[Identification], args: argparse.Namespace) -> list[str]:
    """The ranking in Markdown: a table of candidates for each variant observed."""
    from ..text.tables import Column, markdown, table

    lines: list[str] = []
    for one in found:
        ranking = one.ranking[: args.top or None] if one.observation.hands else []
        label = sinks.markdown(_target_label(one))
        lines += ["", f"## {label}: {len(one.observation.hands)} hand(s)", ""]
        lines += markdown(
            table(
                [
                    "candidate",
                    Column("departs in", right=True),
                    Column("agreement %", right=True),
                    Column("checks", right=True),
                    "differs on",
                ],
                [
                    [
                        s.candidate.label,
                        str(len(s.departs)),
                        _percent(s) if s.checks else "",
                        str(s.checks or ""),
                        ", ".join(_differs(s)),
                    ]
                    for s in ranking
                ],
            )
        )
    return lines[1:]


def _score_data(found: Identification, score: Score) -> dict[str, Any]:
    from ..conformance.judging.attribution import section

    candidate = score.candidate
    return {
        "label": candidate.label,
        "aliases": list(candidate.labels[1:]),
        "variant": candidate.variant,
        "options": dict(candidate.options),
        "departs": [
            {"rule": rule, "section": section(rule), "plays": _plays(found, rule)}
            for rule in score.departs
        ],
        "agreement": round(score.agreement, 6) if score.checks else None,
        "exact": score.exact,
        "checks": score.checks,
        "agreed": score.agreed,
        "differs": [
            {"rule": rule or None, "section": section(rule) if rule else None, "count": count}
            for rule, count in score.differs.most_common()
            if count
        ],
    }


def json_answer(
    info: EngineInfo | None,
    found: list[Identification],
    args: argparse.Namespace,
    pool: int,
    combinations: int,
    unavailable: str | None,
) -> dict[str, Any]:
    targets = []
    for one in found:
        observation, ranking = one.observation, one.ranking
        separation = one.separation
        targets.append(
            {
                "label": _target_label(one),
                "variant": observation.target.variant,
                "options": dict(observation.target.options),
                "players": sorted({hand.players for hand in observation.hands}),
                "hands": len(observation.hands),
                "deals_offered": [
                    {"players": p.players, "sizes": list(p.shape), "accepted": p.accepted}
                    for p in observation.probes
                ],
                "candidates": len(ranking),
                "notes": [{"note": note, "hands": n} for note, n in observation.notes.items()],
                "tied": [s.candidate.label for s in one.tied],
                "asked": [
                    {"rule": p.rule, "values": list(p.values), "plays": p.plays, "by": p.by}
                    for p in (separation.parted if separation else [])
                ],
                "undetermined": [
                    {"rule": rule, "why": separation.why.get(rule, "")}
                    for rule in separation.undetermined
                ]
                if separation
                else [],
                "ranking": [_score_data(one, s) for s in ranking[: args.top or None]],
            }
        )
    return {
        "engine": None if info is None else {"name": info.name, "version": info.version},
        "records": list(getattr(args, "records", None) or []) or None,
        "seed": args.seed,
        "hands": args.hands,
        "candidates": pool,
        "combinations": combinations,
        "targets": targets,
        "unavailable": unavailable,
    }
