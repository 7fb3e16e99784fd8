"""Drawing a simulation: the distributions per hand and the rates side by side (matplotlib).

Imported only by ``matador simulate --plot``; matplotlib is the optional
``plot`` extra. The figure has three panels: actions per hand and points per
hand (one step line per target) and the rates with their 95% intervals (one
bar per target). It is written atomically, PNG or SVG by the file's suffix.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

from .. import safeio
from .report import letter
from .results import Statistics
from .stats import Rate


def draw(results: Sequence[Statistics], path: str) -> None:
    """Draw ``results`` to ``path`` (``.png`` or ``.svg``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (lengths, points, rates) = plt.subplots(3, 1, figsize=(8, 10), layout="constrained")
    for index, result in enumerate(results):
        name = f"{letter(index)}: {result.label}"
        histograms = result.histograms()
        for axes, key in ((lengths, "actions"), (points, "points")):
            counts = histograms[key]
            total = sum(counts.values()) or 1
            values = sorted(counts)
            axes.step(values, [counts[v] / total for v in values], where="mid", label=name)
    lengths.set(title="Actions per hand", xlabel="actions", ylabel="share of hands")
    points.set(title="Points per hand", xlabel="points", ylabel="share of hands")
    _rates(rates, results)
    for axes in (lengths, points, rates):
        axes.legend(fontsize="small")
    suffix = Path(path).suffix.lower().lstrip(".")
    buffer = io.BytesIO()
    figure.savefig(buffer, format=suffix)
    plt.close(figure)
    safeio.write_atomically(path, buffer.getvalue())


def _rates(axes: object, results: Sequence[Statistics]) -> None:
    """One group of bars per rate, one bar per target, with the interval as error bars."""
    keys = [m.key for m in results[0].metrics() if isinstance(m.value, Rate)]
    titles = {m.key: m.title for m in results[0].metrics()}
    width = 0.8 / len(results)
    for index, result in enumerate(results):
        found = {m.key: m.value for m in result.metrics() if isinstance(m.value, Rate)}
        shown = [found.get(key) for key in keys]
        values = [100 * r.value if r else 0.0 for r in shown]
        below = [100 * (r.value - r.low) if r else 0.0 for r in shown]
        above = [100 * (r.high - r.value) if r else 0.0 for r in shown]
        positions = [k + index * width for k in range(len(keys))]
        axes.barh(  # type: ignore[attr-defined]
            positions,
            values,
            height=width,
            xerr=[below, above],
            label=f"{letter(index)}: {result.label}",
        )
    axes.set_yticks(  # type: ignore[attr-defined]
        [k + width * (len(results) - 1) / 2 for k in range(len(keys))],
        [titles[key] for key in keys],
    )
    axes.invert_yaxis()  # type: ignore[attr-defined]
    axes.set(title="Rates with their 95% intervals", xlabel="%")  # type: ignore[attr-defined]
