"""Naming a variant with options: ``ID:NAME=VALUE,...`` read, and written back as a label."""

from __future__ import annotations

from ..rules import Rules


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
