"""The statistics of a simulation: 95% intervals for rates and means, and two-sample tests.

Rates get the Wilson score interval (it stays inside [0, 1] and behaves at
rates near 0 or 1, where the normal interval does not); means get the normal
interval of the sample mean. Two targets are compared with the two-proportion
z test (pooled) for a rate and Welch's z test for a mean: with the thousands
of hands a simulation plays, the normal approximation is what both tests use.
A difference is called significant at the 5% level (two-sided).

Only the standard library is used: the normal distribution comes from
:class:`statistics.NormalDist`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from statistics import NormalDist

#: The two-sided 95% quantile of the standard normal distribution (1.959964...).
Z95 = NormalDist().inv_cdf(0.975)
#: The level below which a difference is called significant.
ALPHA = 0.05


@dataclass(frozen=True)
class Rate:
    """``count`` out of ``total``, with its 95% Wilson interval [low, high]."""

    count: int
    total: int
    low: float
    high: float

    @property
    def value(self) -> float:
        """The observed rate (0 when nothing was observed)."""
        return self.count / self.total if self.total else 0.0


@dataclass(frozen=True)
class Mean:
    """The mean of ``total`` observations, its standard deviation and 95% interval."""

    value: float
    sd: float
    total: int
    low: float
    high: float


@dataclass(frozen=True)
class Difference:
    """Second minus first, the two-sided p-value of the test, and whether p < 5%."""

    value: float
    p_value: float

    @property
    def significant(self) -> bool:
        """Whether the difference is significant at the 5% level."""
        return self.p_value < ALPHA


def wilson(count: int, total: int) -> Rate:
    """``count`` successes in ``total`` trials, with the 95% Wilson score interval."""
    if not 0 <= count <= total:
        raise ValueError(f"a rate needs 0 <= count <= total, not {count} of {total}")
    if total == 0:
        return Rate(count, total, 0.0, 1.0)
    z2 = Z95 * Z95
    p = count / total
    centre = (p + z2 / (2 * total)) / (1 + z2 / total)
    half = Z95 / (1 + z2 / total) * math.sqrt(p * (1 - p) / total + z2 / (4 * total * total))
    low = 0.0 if count == 0 else max(0.0, centre - half)
    high = 1.0 if count == total else min(1.0, centre + half)
    return Rate(count, total, low, high)


def mean_of(histogram: Mapping[int, int]) -> Mean:
    """The mean of the observations counted in ``histogram`` (value -> how often)."""
    # In value order, so that the sums (and their last bits) do not depend on
    # the order in which the histogram was filled.
    items = sorted(histogram.items())
    total = sum(n for _, n in items)
    if total == 0:
        return Mean(0.0, 0.0, 0, 0.0, 0.0)
    value = sum(x * n for x, n in items) / total
    squares = sum(n * (x - value) ** 2 for x, n in items)
    sd = math.sqrt(squares / (total - 1)) if total > 1 else 0.0
    half = Z95 * sd / math.sqrt(total)
    return Mean(value, sd, total, value - half, value + half)


def _two_sided(z: float) -> float:
    return 2 * (1 - NormalDist().cdf(abs(z)))


def compare_rates(first: Rate, second: Rate) -> Difference:
    """The difference of two rates and the p-value of the pooled two-proportion z test."""
    difference = second.value - first.value
    if not first.total or not second.total:
        return Difference(difference, 1.0)
    pooled = (first.count + second.count) / (first.total + second.total)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / first.total + 1 / second.total))
    if spread == 0:
        return Difference(difference, 1.0)  # both 0% or both 100%: nothing to tell apart
    return Difference(difference, _two_sided(difference / spread))


def compare_means(first: Mean, second: Mean) -> Difference:
    """The difference of two means and the p-value of Welch's (large-sample) z test."""
    difference = second.value - first.value
    if first.total < 2 or second.total < 2:
        return Difference(difference, 1.0)
    spread = math.sqrt(first.sd**2 / first.total + second.sd**2 / second.total)
    if spread == 0:
        return Difference(difference, 1.0 if difference == 0 else 0.0)
    return Difference(difference, _two_sided(difference / spread))
