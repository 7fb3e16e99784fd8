"""docs/simulation.md: the headline numbers of every shipped variant, and three disputes settled.

``python -m reference_engine.simulate.page`` runs the simulations and writes
the page; every row names the ``matador simulate`` command that gives the same
numbers (the figures depend only on the seed). ``--check`` re-runs one row
and fails when the page does not match it.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from ..rules import Catalog
from ..safeio import write_atomically
from . import Statistics, simulate, simulate_all
from .results import compare
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


def _disputes(catalog: Catalog, jobs: int) -> Iterator[str]:
    gamerules = catalog.resolve("gamerules-com")
    first, second = simulate_all(
        [gamerules, catalog.resolve("gamerules-com", {"draw": "reserve_two"})],
        hands=HANDS,
        seed=SEED,
        jobs=jobs,
    )
    yield "### Does a reserve of two make blocked hands rarer?"
    yield ""
    yield (
        f"gamerules.com, {first.players} players, drawing until a tile plays: blocked "
        f"{_pct(first.blocked_rate)}; with two tiles always left in the boneyard: "
        f"{_pct(second.blocked_rate)}. Difference: "
        f"{_difference(compare(first, second)['blocked'], True)}."
    )
    yield ""
    yield (
        "    matador simulate gamerules-com gamerules-com:draw=reserve_two "
        f"--hands {HANDS} --seed {SEED}"
    )
    yield ""
    german = catalog.resolve("german")
    once = dataclasses.replace(german, opener_plays_again=False)
    twice, single = simulate_all([german, once], hands=HANDS, seed=SEED)
    yield "### How much does opening first win under the German rule (the opener plays twice)?"
    yield ""
    yield (
        f"German rules, {twice.players} players: the opener's side wins "
        f"{_pct(twice.opener_win_rate)} of the hands. The same rules with the opener "
        f"playing once (a counterfactual, made with the Python API): "
        f"{_pct(single.opener_win_rate)}. Difference: "
        f"{_difference(compare(single, twice)['opener_wins'], True)}."
    )
    yield ""
    yield f"    matador simulate german --hands {HANDS} --seed {SEED}"
    yield ""
    britannica = catalog.resolve("britannica-1911")
    all_hands, difference = simulate_all(
        [britannica, catalog.resolve("britannica-1911", {"scoring": "difference"})],
        matches=MATCHES,
        seed=SEED,
        jobs=jobs,
    )
    length = compare(all_hands, difference)["hands_per_match"]
    yield "### Does the Britannica's 'all' scoring shorten the game?"
    yield ""
    yield (
        f"Britannica, {all_hands.players} players, to 100 points: a match lasts "
        f"{_mean(_match_length(all_hands))} hands when the winner scores every hand's pips, "
        f"{_mean(_match_length(difference))} when only the difference. Difference: "
        f"{_difference(length, False)}."
    )
    yield ""
    yield (
        "    matador simulate britannica-1911 britannica-1911:scoring=difference "
        f"--matches {MATCHES} --seed {SEED}"
    )


def _match_length(stats: Statistics) -> Mean:
    return next(m.value for m in stats.metrics() if m.key == "hands_per_match")  # type: ignore[return-value]


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
    lines += ["", "## Three disputes, settled with numbers", ""]
    lines += _disputes(catalog, jobs)
    return "\n".join(lines) + "\n"


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
