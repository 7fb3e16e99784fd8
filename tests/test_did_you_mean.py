"""A mistyped name is refused with the nearest known names first (issue: a newcomer's
first hour): commands, choices of a flag, variants, options, option values, case ids."""

from __future__ import annotations

import io

import pytest
from fitting import flat

from reference_engine.cli import run
from reference_engine.text.suggest import closest, did_you_mean


def _refused(*argv: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    status = run(list(argv), out, err)
    assert status != 0, out.getvalue()
    assert "Traceback" not in err.getvalue()
    return err.getvalue()


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["shwo", "pagat"], "did you mean 'show'?"),
        (["show", "pagat", "--format", "jsn"], "did you mean 'json'?"),
        (["show", "pagta"], "did you mean 'pagat'?"),
        (["show", "pagat", "-O", "crosswse=berndt"], "did you mean 'crosswise'?"),
        (
            ["show", "pagat", "-O", "crosswise=bernd"],
            "did you mean 'berndt' or 'berndt_both_open'?",
        ),
        (["conform", "--variant", "germna"], "did you mean 'german'?"),
        (
            ["cases", "--case", "pagat-crosswise-berndt-either-hal"],
            "did you mean 'pagat-crosswise-berndt-either-half'",
        ),
    ],
)
def test_a_mistyped_name_gets_the_nearest_known_one(argv: list[str], expected: str) -> None:
    assert expected in flat(_refused(*argv))


def test_nothing_near_gets_no_guess_but_the_list() -> None:
    said = _refused("show", "zzzzzz")
    assert "did you mean" not in said and "known variants: bonaludo-com" in said
    assert did_you_mean("zzzzzz", ["pagat", "german"]) == ""


def test_a_prefix_finds_the_longer_names() -> None:
    assert closest("pol", ["polish", "polish-base", "pagat"]) == ["polish", "polish-base"]
    assert did_you_mean("gemran", ["german", "gamerules-com"]) == "did you mean 'german'?"


def test_a_wildcard_selection_is_taken_as_it_is() -> None:
    said = _refused("cases", "--case", "nothing-like-this-*")
    assert "no case matches the selection" in said and "did you mean" not in said
