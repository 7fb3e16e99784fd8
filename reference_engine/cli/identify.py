"""``matador identify``: which shipped rules an engine really plays, ranked by agreement.

The work is :mod:`reference_engine.conformance.identify`, imported only when the
command runs; this module holds the command's options and writes its answer:
text that fits 80 columns, Markdown or JSON (``--format``). Exit 0 when it ran,
4 when the engine is unavailable, 2 for a usage error, 1 when no hand could be
observed.
"""

from __future__ import annotations

import argparse
import math
import re
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from ..exits import ExitStatus
from .arguments import (
    AddCommand,
    Handler,
    deadline_arguments,
    engine_argument,
    format_arguments,
    positive_int,
)
from .output import json_text
from .progress import counting_bar

if TYPE_CHECKING:
    from ..conformance.engine import EngineInfo
    from ..conformance.identify import Identification, Score

#: The width the text answer fits.
WIDTH = 80


def add_parsers(command: AddCommand) -> None:
    """Add ``identify`` to ``matador``'s commands."""
    identify = command("identify", "which shipped rules does an engine really play?")
    engine_argument(identify)
    identify.add_argument(
        "--hands",
        type=positive_int,
        default=30,
        metavar="N",
        help="hands per player count (default 30)",
    )
    identify.add_argument("--seed", type=int, default=0, help="seed of the deals and choices")
    identify.add_argument(
        "--players", type=positive_int, metavar="N", help="only hands of N players"
    )
    identify.add_argument(
        "--top", type=int, default=5, metavar="K", help="candidates shown (default 5; 0: all)"
    )
    format_arguments(identify, json_alias=True, width=False)
    deadline_arguments(identify)


def _identify(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..conformance.cli import engine_runner
    from ..conformance.identify import identify
    from ..conformance.runner import EngineUnavailable
    from ..conformance.signals import Interrupted, stop_on_signals
    from ..rules import Catalog

    if args.top < 0:
        stderr.write("matador identify: --top must be 0 (all) or more\n")
        return ExitStatus.USAGE
    catalog = Catalog.shipped()
    runner = engine_runner(args, catalog, "identify", stderr)
    if runner is None:
        return ExitStatus.USAGE
    top = args.top or None
    try:
        with stop_on_signals(), counting_bar(stderr, "variants observed") as progress:
            try:
                found, pool, combinations = identify(
                    runner,
                    catalog,
                    hands=args.hands,
                    seed=args.seed,
                    players=args.players,
                    top=top,
                    progress=progress,
                )
            finally:
                runner.close()
    except Interrupted as stop:
        runner.close()
        stderr.write(f"matador identify: interrupted by {stop.name}\n")
        return stop.status
    except EngineUnavailable as failed:
        _unavailable(failed.message, failed.stderr, stderr)
        return ExitStatus.ENGINE_UNAVAILABLE
    assert runner.info is not None
    if args.format == "json":
        unavailable = runner.unavailable.message if runner.unavailable else None
        data = _data(runner.info, found, args, pool, combinations, unavailable)
        stdout.write(json_text(data))
    elif args.format == "markdown":
        stdout.write("\n".join(_markdown(found, args)) + "\n")
    else:
        stdout.write("\n".join(_text(runner.info, found, args, pool, combinations)) + "\n")
    if runner.unavailable is not None:
        _unavailable(runner.unavailable.message, runner.unavailable.stderr, stderr)
        return ExitStatus.ENGINE_UNAVAILABLE
    if not any(found_one.observation.hands for found_one in found):
        why = f"played by {args.players} players" if args.players else "observed"
        stderr.write(f"matador identify: no hand of a variant the engine declares was {why}\n")
        return ExitStatus.INVALID
    return ExitStatus.OK


def _unavailable(message: str, tail: str, stderr: TextIO) -> None:
    stderr.write(f"matador identify: engine unavailable: {message}\n")
    if tail:
        stderr.write("".join(f"  engine stderr: {line}\n" for line in tail.splitlines()))


# --------------------------------------------------------------------------- the answer


def _percent(score: Score) -> str:
    """The agreement in percent, one decimal, never rounded up to 100 unless exact."""
    return "100" if score.exact else f"{math.floor(score.agreement * 1000) / 10:.1f}"


def _differs(score: Score) -> list[str]:
    """``rule (SPEC x.y) xN`` for each rule differing, the most frequent first."""
    from ..conformance.attribution import section

    return [
        f"{rule} ({section(rule)}) x{count}" if rule else f"unattributed x{count}"
        for rule, count in score.differs.most_common()
    ]


def _fill(text: str) -> list[str]:
    """A sentence broken at spaces to fit WIDTH."""
    return textwrap.wrap(
        text, WIDTH, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False
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


def _words(text: str) -> list[tuple[str, str]]:
    return [(" ", word) for word in text.split()]


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


def _score_lines(start: str, score: Score) -> list[str]:
    label = _label(score.candidate.label)
    if score.exact:
        return _flow(start, [*label, *_words(f"(100 % of {score.checks} checks agree)")])
    items = _differs(score)
    if score.unexplained:
        items.append(f"{score.unexplained} checks unexplained once its rules were left")
    said = [("  ", _percent(score)), *_words(f"% of {score.checks} checks;")]
    return _flow(start, [*label, *said, *([(" ", "differs on:")] if items else []), *_items(items)])


def _target_label(found: Identification) -> str:
    from ..conformance.identify import label

    target = found.observation.target
    return label(target.variant, target.options)


def _text(
    info: EngineInfo,
    found: list[Identification],
    args: argparse.Namespace,
    pool: int,
    combinations: int,
) -> list[str]:
    from ..conformance.replies import printable

    lines = _fill(
        f"engine: {printable(info.name)} {printable(info.version)}; seed {args.seed}, "
        f"{args.hands} hand(s) per player count"
    )
    lines.append(f"{pool} candidates: the shipped variants, {combinations} option combinations")
    for one in found:
        observation, ranking = one.observation, one.ranking
        counts = sorted({hand.players for hand in observation.hands})
        checks = ranking[0].checks if ranking else 0
        lines.append("")
        lines.extend(
            _fill(
                f"{_target_label(one)}: {len(observation.hands)} hand(s) "
                f"({', '.join(map(str, counts)) or 'no'} players), {checks} checks, "
                f"{len(ranking)} candidates fit"
            )
        )
        for note, count in observation.notes.items():
            lines.extend(_fill(f"note: {count} hand(s) not observed: {printable(note)}"))
        if not ranking or not observation.hands:
            lines.append("closest: nothing to compare")
            continue
        shown = ranking[: args.top or None]
        lines.extend(_score_lines("closest:", ranking[0]))
        ties = [s.candidate.label for s in ranking[1:] if s.exact and ranking[0].exact]
        if ties:
            lines.extend(
                _flow("also exact (these hands do not tell them apart):", _items(ties, True), "  ")
            )
        rest = [score for score in shown[1:] if not score.exact]
        if rest:
            lines.append("next:")
            for score in rest:
                lines.extend(_score_lines("  ", score))
    return lines


def _markdown(found: list[Identification], args: argparse.Namespace) -> list[str]:
    """The ranking in Markdown: a table of candidates for each variant observed."""
    from .tables import Column, markdown, table

    lines: list[str] = []
    for one in found:
        ranking = one.ranking[: args.top or None] if one.observation.hands else []
        lines += ["", f"## {_target_label(one)}: {len(one.observation.hands)} hand(s)", ""]
        lines += markdown(
            table(
                [
                    "candidate",
                    Column("agreement %", right=True),
                    Column("checks", right=True),
                    "differs on",
                ],
                [
                    [s.candidate.label, _percent(s), str(s.checks), ", ".join(_differs(s))]
                    for s in ranking
                ],
            )
        )
    return lines[1:]


def _score_data(score: Score) -> dict[str, Any]:
    from ..conformance.attribution import section

    candidate = score.candidate
    return {
        "label": candidate.label,
        "aliases": list(candidate.labels[1:]),
        "variant": candidate.variant,
        "options": dict(candidate.options),
        "agreement": round(score.agreement, 6),
        "exact": score.exact,
        "checks": score.checks,
        "agreed": score.agreed,
        "unexplained": score.unexplained,
        "differs": [
            {"rule": rule or None, "section": section(rule) if rule else None, "count": count}
            for rule, count in score.differs.most_common()
        ],
    }


def _data(
    info: EngineInfo,
    found: list[Identification],
    args: argparse.Namespace,
    pool: int,
    combinations: int,
    unavailable: str | None,
) -> dict[str, Any]:
    targets = []
    for one in found:
        observation, ranking = one.observation, one.ranking
        targets.append(
            {
                "label": _target_label(one),
                "variant": observation.target.variant,
                "options": dict(observation.target.options),
                "players": sorted({hand.players for hand in observation.hands}),
                "hands": len(observation.hands),
                "candidates": len(ranking),
                "notes": [{"note": note, "hands": n} for note, n in observation.notes.items()],
                "exact": [s.candidate.label for s in ranking if s.exact],
                "ranking": [_score_data(score) for score in ranking[: args.top or None]],
            }
        )
    return {
        "engine": {"name": info.name, "version": info.version},
        "seed": args.seed,
        "hands": args.hands,
        "candidates": pool,
        "combinations": combinations,
        "targets": targets,
        "unavailable": unavailable,
    }


#: The handlers of this group's commands.
COMMANDS: dict[str, Handler] = {"identify": _identify}
