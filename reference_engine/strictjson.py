"""The two rules of strict JSON that Python's reader does not keep by itself.

Every JSON the project reads from outside (protocol requests in the engine
server, replies in the runner, game records in ``replay``) is read with these
hooks: a key may appear only once in an object (readers that keep the first
and readers that keep the last would see different messages), and ``NaN``,
``Infinity`` and ``-Infinity`` are not JSON. Each reader turns the
:class:`NotStrictJson` raised here into its own error.
"""

from __future__ import annotations

from typing import Any


class NotStrictJson(ValueError):
    """A key given twice, or a constant JSON does not have; the message says which."""


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook``: the object, unless a key is given twice."""
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            shown = repr(key) if len(key) <= 60 else repr(key[:57] + "...")
            raise NotStrictJson(f"the key {shown} is given twice in one object")
        result[key] = value
    return result


def no_constants(name: str) -> Any:
    """``parse_constant``: refuse ``NaN``, ``Infinity`` and ``-Infinity``."""
    raise NotStrictJson(f"{name} is not JSON (JSON has no NaN or infinity)")
