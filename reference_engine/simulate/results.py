"""What a simulation found for one target, as rates and means with intervals, and comparisons.

:class:`Statistics` is built from the merged :class:`~.tally.Tally` of a
target; :meth:`Statistics.metrics` lists its figures in the order every report
prints them, each with a stable key (the JSON and CSV name) and a title.
:func:`compare` sets a second target's figures against the first's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .stats import Difference, Mean, Rate, compare_means, compare_rates, mean_of, wilson
from .tally import Tally


@dataclass(frozen=True)
class Metric:
    """One figure of a report: its key, its title, and the rate or mean."""

    key: str
    title: str
    value: Rate | Mean


@dataclass(frozen=True)
class Statistics:
    """The figures of one simulated target (a variant with options, players, strategies)."""

    #: ``ID`` or ``ID:NAME=VALUE,...``: the variant and the options that differ from its defaults.
    label: str
    variant: str
    options: Mapping[str, str]
    players: int
    #: The strategy of each seat (seat modulo their number).
    strategies: tuple[str, ...]
    seed: int
    #: ``"hands"`` or ``"matches"``: what was asked for, and how many.
    unit: str
    requested: int
    tally: Tally = field(repr=False)
    #: The signal that stopped the run before every chunk was played, if one did.
    interrupted: str | None = None
    #: How each side is named: "seat 2", or "seats 0+2" in a partnership.
    side_names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))

    @property
    def hands(self) -> int:
        """Hands dealt."""
        return self.tally.hands

    @property
    def played(self) -> int:
        """Hands played to the end (dealt minus redealt)."""
        return self.tally.played

    @property
    def domino_rate(self) -> Rate:
        """Played hands that ended with a player going out."""
        return wilson(self.tally.dominoes, self.played)

    @property
    def blocked_rate(self) -> Rate:
        """Played hands that ended blocked."""
        return wilson(self.tally.blocked, self.played)

    @property
    def opener_win_rate(self) -> Rate:
        """Played hands won by the opener's side (the opener's advantage)."""
        return wilson(self.tally.opener_wins, self.played)

    @property
    def win_rates(self) -> tuple[Rate, ...]:
        """Played hands won by each side, side 0 first."""
        return tuple(wilson(won, self.played) for won in self.tally.wins)

    @property
    def hand_length(self) -> Mean:
        """Actions per played hand (plays, draws and passes)."""
        return mean_of(self.tally.actions)

    @property
    def mean_points(self) -> Mean:
        """Points scored per played hand."""
        return mean_of(self.tally.points)

    def metrics(self) -> tuple[Metric, ...]:
        """Every figure, in report order (the match figures only when matches were played)."""
        tally, played = self.tally, self.played
        found = [
            Metric("opener_wins", "opener's side wins", self.opener_win_rate),
            *(
                Metric(f"wins_side_{side}", f"{self._side(side)} wins", rate)
                for side, rate in enumerate(self.win_rates)
            ),
            Metric("domino", "domino (went out)", self.domino_rate),
            Metric("blocked", "blocked", self.blocked_rate),
            Metric("tie", "blocked, tied: no score", wilson(tally.ties, played)),
            Metric("redeal", "dealt again", wilson(tally.redeals, tally.hands)),
            Metric("no_matador", "a hand dealt no matador", wilson(tally.no_matador, tally.dealt)),
            Metric("actions", "actions per hand", self.hand_length),
            Metric("draws", "draws per hand", mean_of(tally.draws)),
            Metric("passes", "passes per hand", mean_of(tally.passes)),
            Metric("points", "points per hand", self.mean_points),
        ]
        if self.unit == "matches":
            found += [
                Metric("hands_per_match", "hands per match", mean_of(tally.match_hands)),
                Metric(
                    "first_wins_match",
                    "first opener's side wins match",
                    wilson(tally.first_wins, tally.matches),
                ),
                *(
                    Metric(f"wins_match_side_{side}", f"{self._side(side)} wins match", rate)
                    for side, rate in enumerate(
                        wilson(won, tally.matches) for won in tally.match_wins
                    )
                ),
            ]
        return tuple(found)

    def _side(self, side: int) -> str:
        return self.side_names[side] if side < len(self.side_names) else f"side {side}"

    def histograms(self) -> dict[str, dict[int, int]]:
        """The distributions behind the means, value -> how often, in value order."""
        tally = self.tally
        found = {
            "actions": tally.actions,
            "draws": tally.draws,
            "passes": tally.passes,
            "points": tally.points,
        }
        if self.unit == "matches":
            found["hands_per_match"] = tally.match_hands
        return {key: dict(sorted(counts.items())) for key, counts in found.items()}


def compare(first: Statistics, second: Statistics) -> dict[str, Difference]:
    """Each figure the two targets share: second minus first, with its test."""
    theirs = {metric.key: metric.value for metric in second.metrics()}
    found: dict[str, Difference] = {}
    for metric in first.metrics():
        other = theirs.get(metric.key)
        if isinstance(metric.value, Rate) and isinstance(other, Rate):
            found[metric.key] = compare_rates(metric.value, other)
        elif isinstance(metric.value, Mean) and isinstance(other, Mean):
            found[metric.key] = compare_means(metric.value, other)
    return found
