"""A simulation's figures as a table for the terminal, as Markdown, as JSON and as CSV.

Every format lists the same figures in the same order (:meth:`Statistics.metrics`).
The targets are lettered A, B, C... in the order given; with more than one,
every later target is compared with A: the difference, and whether it is
significant at the 5% level (marked ``*`` in the table).
"""

from __future__ import annotations

import csv
import io
import json
import string
from collections.abc import Iterator, Sequence
from typing import Any

from .results import Statistics, compare
from .stats import Difference, Mean, Rate


def letter(index: int) -> str:
    """A, B, C... for the targets in order (then A2, B2... past Z)."""
    letters = string.ascii_uppercase
    return letters[index % 26] + (str(index // 26 + 1) if index >= 26 else "")


def _figure(value: Rate | Mean) -> str:
    if isinstance(value, Rate):
        if not value.total:
            return "-"
        return f"{100 * value.value:.1f}% ({100 * value.low:.1f}-{100 * value.high:.1f})"
    if not value.total:
        return "-"
    return f"{value.value:.2f} ({value.low:.2f}-{value.high:.2f})"


def _difference(difference: Difference, rate: bool) -> str:
    mark = " *" if difference.significant else ""
    if rate:
        return f"{100 * difference.value:+.1f} pt{mark}"
    return f"{difference.value:+.2f}{mark}"


def _what(results: Sequence[Statistics]) -> str:
    first = results[0]
    unit = "matches to the target" if first.unit == "matches" else "hands"
    strategies = ", ".join(first.strategies)
    plural = "y" if len(first.strategies) == 1 else "ies (by seat)"
    asked = f"{first.requested:,} {unit} asked for each"
    if first.interrupted:
        asked += f", stopped by {first.interrupted}"
    return f"{asked}; strateg{plural} {strategies}; seed {first.seed}"


def _played(result: Statistics) -> str:
    """How many hands (and matches) of a target were dealt and played, and why not all."""
    stop = " before the stop" if result.interrupted else ""
    if result.unit == "matches":
        matches = f"{result.tally.matches:,}" + (f" of {result.requested:,}" if stop else "")
        text = f"{matches} matches{stop}, {result.hands:,} hands dealt"
    elif stop:
        text = f"{result.hands:,} of {result.requested:,} hands dealt{stop}"
    else:
        text = f"{result.hands:,} hands dealt"
    redealt = result.hands - result.played
    text += f", {result.played:,} played"
    if redealt:
        text += f"; {redealt:,} dealt again without play"
    return text


def table(results: Sequence[Statistics]) -> str:
    """The figures side by side, one column per target, with their 95% intervals."""
    lines = [*_table_lines(results), *_notes(results)]
    return "".join(line + "\n" for line in lines)


def _head(results: Sequence[Statistics]) -> Iterator[str]:
    """What was simulated, a line per target, and how a run stopped early."""
    yield _what(results)
    for index, result in enumerate(results):
        yield f"  {letter(index)} = {result.label}, {result.players} players ({_played(result)})"
    stopped = next((result.interrupted for result in results if result.interrupted), None)
    if stopped:
        yield f"  stopped by {stopped}: these are the chunks finished before it"


def _rows(results: Sequence[Statistics]) -> tuple[list[str], list[list[str]]]:
    """The header and the rows of the figures: a column per target, then per difference."""
    differences = [compare(results[0], other) for other in results[1:]]
    columns = [{metric.key: metric for metric in result.metrics()} for result in results]
    shown = {metric.key: metric for column in columns for metric in column.values()}
    rows = [
        [metric.title]
        + [_figure(c[key].value) if key in c else "-" for c in columns]
        + [
            _difference(found[key], isinstance(metric.value, Rate)) if key in found else "-"
            for found in differences
        ]
        for key, metric in shown.items()
    ]
    header = ["", *(letter(i) for i in range(len(results)))]
    header += [f"{letter(i)} - A" for i in range(1, len(results))]
    return header, rows


def _table_lines(results: Sequence[Statistics]) -> Iterator[str]:
    yield from _head(results)
    yield ""
    header, rows = _rows(results)
    if len(results) <= 2:
        yield from _aligned([header, *rows])
        return
    # Wider than a terminal otherwise: the figures, then the differences.
    split = 1 + len(results)
    yield from _aligned([header[:split], *(row[:split] for row in rows)])
    yield ""
    yield from _aligned(
        [["compared with A", *header[split:]], *([row[0], *row[split:]] for row in rows)]
    )


def markdown_report(results: Sequence[Statistics]) -> str:
    """The table's figures as Markdown: what was simulated as a list, then one table."""
    from ..text.tables import markdown, table

    head = list(_head(results))
    header, rows = _rows(results)
    lines = [head[0], "", *(f"- {line.strip()}" for line in head[1:]), ""]
    lines += markdown(table(["figure", *header[1:]], rows))
    lines += ["", *(line for line in _notes(results) if line)]
    return "".join(line + "\n" for line in lines)


def _aligned(rows: Sequence[Sequence[str]]) -> Iterator[str]:
    """Rows of cells, each column as wide as its widest cell, two spaces apart."""
    widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]))]
    for row in rows:
        yield "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()


def _notes(results: Sequence[Statistics]) -> Iterator[str]:
    yield ""
    yield "rates in % with their 95% Wilson interval; means with their 95% interval"
    if len(results) > 1:
        yield "differences in percentage points (pt) or units; * significant at 5% (two-sided)"


def _value_data(value: Rate | Mean) -> dict[str, Any]:
    if isinstance(value, Rate):
        return {
            "kind": "rate",
            "value": value.value,
            "low": value.low,
            "high": value.high,
            "count": value.count,
            "total": value.total,
        }
    return {
        "kind": "mean",
        "value": value.value,
        "low": value.low,
        "high": value.high,
        "sd": value.sd,
        "total": value.total,
    }


def data(results: Sequence[Statistics]) -> dict[str, Any]:
    """Everything the table shows, and the distributions, as plain data."""
    targets = []
    for index, result in enumerate(results):
        targets.append(
            {
                "letter": letter(index),
                "label": result.label,
                "variant": result.variant,
                "options": dict(result.options),
                "players": result.players,
                "strategies": list(result.strategies),
                "seed": result.seed,
                "unit": result.unit,
                "requested": result.requested,
                "hands": result.hands,
                "played": result.played,
                "matches": result.tally.matches,
                "unfinished_matches": result.tally.unfinished,
                "interrupted": result.interrupted,
                "metrics": {
                    metric.key: {"title": metric.title, **_value_data(metric.value)}
                    for metric in result.metrics()
                },
                "histograms": {
                    key: {str(value): count for value, count in counts.items()}
                    for key, counts in result.histograms().items()
                },
            }
        )
    comparisons = [
        {
            "first": results[0].label,
            "second": other.label,
            "metrics": {
                key: {
                    "difference": difference.value,
                    "p_value": difference.p_value,
                    "significant": difference.significant,
                }
                for key, difference in compare(results[0], other).items()
            },
        }
        for other in results[1:]
    ]
    return {"targets": targets, "comparisons": comparisons}


def json_report(results: Sequence[Statistics]) -> str:
    """:func:`data` as JSON."""
    return json.dumps(data(results), indent=2, ensure_ascii=False) + "\n"


CSV_FIELDS = (
    "target",
    "label",
    "players",
    "metric",
    "title",
    "kind",
    "value",
    "low",
    "high",
    "count",
    "total",
    "sd",
    "difference_from_a",
    "p_value",
    "significant",
)


def csv_report(results: Sequence[Statistics]) -> str:
    """One row per target and figure, with its comparison with A from the second target on."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for index, result in enumerate(results):
        differences = compare(results[0], result) if index else {}
        for metric in result.metrics():
            row: dict[str, Any] = {
                "target": letter(index),
                "label": result.label,
                "players": result.players,
                "metric": metric.key,
                "title": metric.title,
                **_value_data(metric.value),
            }
            difference = differences.get(metric.key)
            if difference is not None:
                row["difference_from_a"] = difference.value
                row["p_value"] = difference.p_value
                row["significant"] = difference.significant
            writer.writerow(row)
    return out.getvalue()


#: The report formats by name.
FORMATS = {"table": table, "json": json_report, "csv": csv_report, "markdown": markdown_report}
