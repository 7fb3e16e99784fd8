"""docs/simulation.md: the headline numbers of every shipped variant, and disputes settled.

``python -m reference_engine.simulate.page`` runs the simulations and writes
the page; every row names the ``matador simulate`` command that gives the same
numbers (the figures depend only on the seed). The disputes, and which
variants each compares, are data (docs/simulation-disputes.yaml): no variant is
named here. ``--check`` re-runs one row
and fails when the page does not match it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..disputes.naming import parse_target
from ..rules import Catalog, Rules
from ..rules.convert import CONVERTERS
from ..rules.yamldoc import read_yaml_file
from ..safeio import write_atomically
from . import Statistics, simulate, simulate_all
from .results import Metric, compare
from .stats import Difference, Mean, Rate

PAGE = Path(__file__).resolve().parents[2] / "docs" / "simulation.md"
#: Hands per variant for the table, matches per side for the match dispute.
HANDS = 20_000
MATCHES = 2_000
SEED = 1


def _pct(rate: Rate) -> str:
    return f"{100 * rate.value:.1f}% ({100 * rate.low:.1f}–{100 * rate.high:.1f})"


def _mean(mean: Mean) -> str:
    return f"{mean.value:.1f} ({mean.low:.1f}–{mean.high:.1f})"


def _shown(value: Rate | Mean) -> str:
    return _pct(value) if isinstance(value, Rate) else _mean(value)


def _difference(difference: Difference, rate: bool) -> str:
    value = 100 * difference.value if rate else difference.value
    unit = " points of %" if rate else ""
    verdict = "significant" if difference.significant else "not significant"
    return f"{value:+.1f}{unit} (p = {difference.p_value:.3g}, {verdict} at 5%)"


def command(stats: Statistics) -> str:
    """The ``matador simulate`` command line that gives these figures."""
    count = (
        f"--matches {stats.requested}" if stats.unit == "matches" else f"--hands {stats.requested}"
    )
    return f"matador simulate {stats.label} {count} --players {stats.players} --seed {stats.seed}"


def row(stats: Statistics) -> str:
    """One line of the table."""
    return (
        f"| `{stats.label}` | {stats.players} | {_pct(stats.opener_win_rate)} "
        f"| {_pct(stats.blocked_rate)} | {_mean(stats.hand_length)} "
        f"| {_mean(stats.mean_points)} | `{command(stats)}` |"
    )


def table_rows(catalog: Catalog, jobs: int) -> Iterator[str]:
    """A row per shipped variant, at its fewest players, random play."""
    for variant in catalog.ids():
        rules = catalog.resolve(variant)
        yield row(simulate(rules, hands=HANDS, seed=SEED, jobs=jobs))


#: The disputes the page settles (what each compares: docs/simulation-disputes.yaml).
DISPUTES = PAGE.with_name("simulation-disputes.yaml")


def _target(catalog: Catalog, text: str, changes: Mapping[str, Any]) -> Rules:
    """``ID[:NAME=VALUE,...]`` resolved, with rule values changed as ``changes`` says."""
    variant, options = parse_target(text)
    rules = catalog.resolve(variant, options)
    return replace(rules, **{name: CONVERTERS[name](value) for name, value in changes.items()})


def _metric(stats: Statistics, key: str) -> Metric:
    return next(metric for metric in stats.metrics() if metric.key == key)


def _disputes(catalog: Catalog, jobs: int) -> Iterator[str]:
    """Each dispute of :data:`DISPUTES`: the question, the two figures, their difference."""
    document, problems = read_yaml_file(DISPUTES, trusted=True)
    if document is None or problems:
        raise ValueError(f"{DISPUTES}: {problems[0] if problems else 'no disputes'}")
    for dispute in document.data:
        texts, changes, key = dispute["targets"], dispute.get("rules", {}), dispute["metric"]
        unit = dispute["unit"]
        count = MATCHES if unit == "matches" else HANDS
        targets = [_target(catalog, texts[0], {}), _target(catalog, texts[1], changes)]
        matches = unit == "matches"
        first, second = simulate_all(
            targets,
            hands=None if matches else count,
            matches=count if matches else None,
            seed=SEED,
            jobs=jobs,
        )
        figure, other = _metric(first, key), _metric(second, key)
        difference = compare(first, second)[key]
        yield f"### {dispute['question']}"
        yield ""
        yield (
            f"{first.label}, {first.players} players, {figure.title}: "
            f"{dispute['plays'][0]}, {_shown(figure.value)}; "
            f"{dispute['plays'][1]}, {_shown(other.value)}. "
            f"Difference: {_difference(difference, isinstance(figure.value, Rate))}."
        )
        yield ""
        asked = " ".join(texts[:1] if changes else texts)
        yield f"    matador simulate {asked} --{unit} {count} --seed {SEED}"
        yield ""
        if changes:
            changed = ", ".join(f"{name}={json.dumps(value)}" for name, value in changes.items())
            yield (
                f"The second is a counterfactual no option offers ({changed}), "
                "made with the Python API."
            )
            yield ""


HEADER = """# What the rules do: simulated numbers

Written by `python -m reference_engine.simulate.page` (do not edit by hand).
Every variant as shipped (its default options), at the fewest players it
allows, {hands:,} hands of random play (every seat picks a legal action
uniformly), seed {seed}. Each figure has its 95% interval: Wilson's for rates,
the normal one for means. The command in each row prints the same numbers, and
more (`--format json` for all of them). Variants that deal the same shape are
played on the same deals, which makes the tests of their differences (which
treat the samples as independent) err on the side of caution.

- **opener's side wins**: the opener's advantage; with no advantage at all it
  would be one hand in as many as there are sides.
- **blocked**: hands that end with nobody able to play.
- **actions**: plays, draws and passes in a hand.
- **points**: what the hand's winner scores.

| variant | players | opener's side wins | blocked | actions per hand | points per hand | command |
|---|---:|---|---|---|---|---|
"""


def render(catalog: Catalog, jobs: int) -> str:
    """The whole page."""
    lines = [HEADER.format(hands=HANDS, seed=SEED).rstrip("\n")]
    lines += table_rows(catalog, jobs)
    lines += ["", "## Disputes, settled with numbers", ""]
    lines += _disputes(catalog, jobs)
    return "\n".join(lines).rstrip("\n") + "\n"


def check(catalog: Catalog, variant: str, jobs: int = 1) -> str | None:
    """What is wrong with the page's row of ``variant`` (None: it matches a fresh run)."""
    expected = row(simulate(catalog.resolve(variant), hands=HANDS, seed=SEED, jobs=jobs))
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    if expected in lines:
        return None
    return f"{PAGE.name}: the row of {variant} is not what a fresh run gives:\n{expected}"


def main(argv: Sequence[str] | None = None) -> int:
    """Write the page (or ``--check VARIANT`` one row of it)."""
    parser = argparse.ArgumentParser(prog="python -m reference_engine.simulate.page")
    parser.add_argument("--check", metavar="VARIANT", help="re-run one row and compare")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    args = parser.parse_args(argv)
    catalog = Catalog.shipped()
    if args.check:
        problem = check(catalog, args.check, args.jobs)
        if problem:
            print(problem, file=sys.stderr)
            return 1
        return 0
    write_atomically(PAGE, render(catalog, args.jobs))
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
