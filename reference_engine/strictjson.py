"""The two rules of strict JSON that Python's reader does not keep by itself.

Every JSON the project reads from outside (protocol requests in the engine
server, replies in the runner, game records in ``replay``) is read with these
hooks: a key may appear only once in an object (readers that keep the first
and readers that keep the last would see different messages), and ``NaN``,
``Infinity`` and ``-Infinity`` are not JSON. Each reader turns the
:class:`NotStrictJson` raised here into its own error.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import InputProblem


class NotStrictJson(InputProblem, ValueError):
    """A key given twice, or a constant JSON does not have; the message says which."""


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook``: the object, unless a key is given twice."""
    result = dict(pairs)
    if len(result) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:  # name the first key given twice
            if key in seen:
                shown = repr(key) if len(key) <= 60 else repr(key[:57] + "...")
                raise NotStrictJson(f"the key {shown} is given twice in one object")
            seen.add(key)
    return result


def no_constants(name: str) -> Any:
    """``parse_constant``: refuse ``NaN``, ``Infinity`` and ``-Infinity``."""
    raise NotStrictJson(f"{name} is not JSON (JSON has no NaN or infinity)")


def decoder(**hooks: Any) -> json.JSONDecoder:
    """A JSON decoder with both rules (and any other ``hooks``), made once and used often."""
    return json.JSONDecoder(parse_constant=no_constants, object_pairs_hook=unique_keys, **hooks)


#: What ``json.loads`` says of text that starts with a byte order mark.
_BOM_MESSAGE = "Unexpected UTF-8 BOM (decode using utf-8-sig)"


def loads(text: str, reader: json.JSONDecoder) -> Any:
    """``text`` read by ``reader`` (from :func:`decoder`) exactly as ``json.loads`` would:
    the same values, the same errors, without making a decoder for every message."""
    if text.startswith("\ufeff"):
        raise json.JSONDecodeError(_BOM_MESSAGE, text, 0)
    return reader.decode(text)
