"""Reading a choice of options from ``NAME=VALUE`` assignments (the ``--option`` arguments)."""

from __future__ import annotations

from collections.abc import Sequence

from .errors import OptionError, Problem, ProblemCode


def parse_option_assignments(items: Sequence[str]) -> dict[str, str]:
    """Turn ``["crosswise=berndt", ...]`` into a mapping; malformed or repeated ones raise."""
    chosen: dict[str, str] = {}
    problems = []
    for item in items:
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name or not value:
            problems.append(
                Problem(
                    code=ProblemCode.BAD_OPTION_SYNTAX,
                    message=f"option {item!r} is not NAME=VALUE",
                    file="<command line>",
                    fix="write it as --option NAME=VALUE",
                )
            )
        elif name in chosen and chosen[name] != value:
            problems.append(
                Problem(
                    code=ProblemCode.OPTION_CONFLICT,
                    message=f"option {name!r} given twice ({chosen[name]!r} and {value!r})",
                    file="<command line>",
                    fix="give each option once",
                )
            )
        else:
            chosen[name] = value
    if problems:
        raise OptionError(problems)
    return chosen
