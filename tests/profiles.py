"""Hypothesis profiles: a derandomized default, and a thorough run made by hand.

``default`` is what CI and every ``--slow`` run use. It is derandomized: each test
draws the same examples on every run and machine (until the test, Hypothesis or
Python changes), so no test passes or fails by chance. Nothing in it depends on
time (no deadline, no too-slow health check), and it never writes an example
database into the working tree.

``quick`` is the quick loop while working (``python -m pytest`` without
``--slow``): the same, derandomized, with a quarter of the examples, so the
default run stays under a minute of CPU. It is just as repeatable; CI's
default profile tries more.

``thorough`` runs ten times as many examples, freshly random each run; run it by
hand before a release with ``HYPOTHESIS_PROFILE=thorough python -m pytest``. A
failure prints its smallest example and a ``@reproduce_failure`` blob that
replays it.

Tests that need their own number of examples ask :func:`examples` for it, so
that the count scales with the profile in force.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.errors import InvalidArgument

#: Hypothesis's own default number of examples, the unit :func:`examples` scales by.
BASE_EXAMPLES = 100

#: How many times the default's examples the thorough profile runs.
THOROUGH_FACTOR = 10

# The only health check that depends on the machine's speed: a slow, busy box
# must not fail a test that a fast one passes.
_TIMING = [HealthCheck.too_slow]

settings.register_profile(
    "default",
    max_examples=BASE_EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=_TIMING,
)
#: The share of the default's examples the quick profile runs.
QUICK_DIVISOR = 4

settings.register_profile(
    "quick",
    max_examples=BASE_EXAMPLES // QUICK_DIVISOR,
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=_TIMING,
)
settings.register_profile(
    "thorough",
    max_examples=BASE_EXAMPLES * THOROUGH_FACTOR,
    derandomize=False,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=_TIMING,
)


def load_profile(slow: bool = True) -> str:
    """Load the profile named by ``HYPOTHESIS_PROFILE``; return its name.

    Unset, it is ``default`` for a run with the slow tests, ``quick`` without.

    ``pytest --hypothesis-profile NAME`` still overrides it, as Hypothesis's plugin
    loads that profile after this runs.
    """
    name = os.environ.get("HYPOTHESIS_PROFILE") or ("default" if slow else "quick")
    try:
        settings.load_profile(name)
    except InvalidArgument:
        raise pytest.UsageError(
            f"HYPOTHESIS_PROFILE={name!r} is not a Hypothesis profile of these tests; "
            "use 'default', 'quick' (or leave it unset) or 'thorough' (see tests/profiles.py)"
        ) from None
    return name


def examples(count: int) -> int:
    """``count`` examples under the default profile, scaled like the profile in force.

    The profile's ``max_examples`` over Hypothesis's default of 100 is the factor:
    ``examples(30)`` is 30 by default and 300 under ``thorough``.
    """
    current = settings.default
    assert current is not None, "no Hypothesis profile is loaded"
    return max(1, count * current.max_examples // BASE_EXAMPLES)
