"""Naming a variant with options: ``ID:NAME=VALUE,...`` and ``-O`` read, written back as a label."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..rules import Catalog, OptionError, Problem, ProblemCode, Rules


def parse_target(text: str) -> tuple[str, dict[str, str]]:
    """``ID`` or ``ID:NAME=VALUE,NAME=VALUE`` -> (variant id, options)."""
    variant, _, rest = text.partition(":")
    options: dict[str, str] = {}
    for item in filter(None, rest.split(",")):
        name, sep, value = item.partition("=")
        if not sep or not name or not value:
            raise ValueError(f"{item!r} in {text!r} is not NAME=VALUE")
        name, value = name.strip(), value.strip()
        if name in options and options[name] != value:
            raise ValueError(
                f"option {name!r} given twice in {text!r} ({options[name]!r} and {value!r})"
            )
        options[name] = value
    return variant.strip(), options


def label(rules: Rules) -> str:
    """The variant id, with the options that differ from their defaults."""
    changed = [
        f"{option.name}={rules.chosen[option.name]}"
        for option in rules.options
        if rules.chosen[option.name] != option.default
    ]
    return rules.variant + (":" + ",".join(changed) if changed else "")


def selected(
    catalog: Catalog, targets: Sequence[str], common: Mapping[str, str]
) -> list[tuple[str, dict[str, str]]]:
    """Each variant a command is asked about, with its options: ``targets`` (``ID`` or
    ``ID:NAME=VALUE,...``; none: every shipped variant), each given the ``common``
    options (``-O``) it has.

    An option of ``common`` that no selected variant has raises :class:`OptionError`
    naming it; one set both ways to different values raises ``ValueError``; an
    unknown variant raises as :meth:`Catalog.resolve` does, as does an unknown option
    when a single variant is named.
    """
    found = []
    had: set[str] = set()
    for text in targets or catalog.ids():
        variant, options = parse_target(text)
        names = {option.name for option in catalog.resolve(variant).options}
        if len(targets) == 1:
            names |= set(common)  # one variant: its own message names its options
        for name, value in common.items():
            if name not in names:
                continue
            had.add(name)
            if options.setdefault(name, value) != value:
                raise ValueError(f"{text} sets {name}={options[name]}, -O sets {name}={value}")
        found.append((variant, options))
    missing = [name for name in common if name not in had]
    if missing:
        raise OptionError(
            [
                Problem(
                    code=ProblemCode.UNKNOWN_OPTION,
                    message=f"no variant selected has the option {name!r}",
                    file="<command line>",
                    fix="see matador show ID for a variant's options",
                )
                for name in missing
            ]
        )
    return found
