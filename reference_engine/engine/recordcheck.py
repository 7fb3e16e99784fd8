"""Whether a record is a record at all: strict JSON, then the shape of spec/record.schema.json.

:func:`parse_record` reads a record file's bytes strictly
(:class:`RecordSyntaxError` for what is not JSON a record can hold), and
:func:`schema_findings` locates every way a value breaks the record schema, as
:data:`~.findings.FindingKind.BAD_RECORD` findings. The schema validator (and
with it jsonschema) is loaded on first use, not when the engine is imported.
"""

from __future__ import annotations

import json
import math
from functools import cache
from typing import TYPE_CHECKING, Any

from ..errors import InputProblem
from ..strictjson import NotStrictJson, unique_keys
from .findings import Finding, FindingKind, json_pointer, shown
from .recordformat import record_schema

if TYPE_CHECKING:
    import jsonschema

#: The most digits a number in a record file may have.
MAX_DIGITS = 1000


class RecordSyntaxError(InputProblem, ValueError):
    """A record file that is not JSON at all: not UTF-8, not JSON, or JSON no record holds."""


def parse_record(data: bytes) -> Any:
    """The JSON value in ``data``, read strictly; raises :class:`RecordSyntaxError`.

    Refused: bytes that are not UTF-8, ``NaN`` and the infinities (not JSON),
    numbers with more than :data:`MAX_DIGITS` digits or too large for a float,
    nesting deeper than Python's recursion limit. A leading byte order mark is
    ignored, as RFC 8259 allows.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordSyntaxError(
            f"not UTF-8 text: byte 0x{data[error.start]:02x} at offset {error.start} "
            "cannot be decoded; save the record as UTF-8"
        ) from None
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise RecordSyntaxError("the file is empty; a record is a JSON object")
    try:
        return json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_int=_integer,
            parse_float=_finite,
            object_pairs_hook=unique_keys,
        )
    except json.JSONDecodeError as error:
        raise RecordSyntaxError(
            f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    except NotStrictJson as error:
        raise RecordSyntaxError(
            f"not a record: {error} (nothing is merged or overwritten)"
        ) from None
    except RecursionError:
        raise RecordSyntaxError(
            "not a record: its arrays and objects are nested too deeply to read"
        ) from None


def _refuse_constant(name: str) -> Any:
    raise RecordSyntaxError(f"not JSON: {name} is not a JSON number (JSON has no NaN or infinity)")


def _integer(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise RecordSyntaxError(
            f"a number of {digits:,} digits; a record's numbers have at most {MAX_DIGITS}"
        )
    return int(text)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise RecordSyntaxError(f"the number {shown(text, 40)} is too large")
    return value


@cache
def _validator() -> Any:
    """The record schema's validator, where ``integer`` means a whole number written as one.

    jsonschema counts ``2.0`` as an integer; ``players: 2.0`` should not pass for two.
    """
    from ..rules.schema import strict_validator  # jsonschema: loaded when first validating

    return strict_validator(record_schema())


#: The longest array any record may hold (the schema's largest ``maxItems``).
MAX_ARRAY = 10_000


def _oversized(record: Any) -> tuple[tuple[str | int, ...], int] | None:
    """The path and length of the first array longer than :data:`MAX_ARRAY`, if any."""
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), record)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, list):
            if len(value) > MAX_ARRAY:
                return path, len(value)
            stack.extend(((*path, index), item) for index, item in enumerate(value))
        elif isinstance(value, dict):
            stack.extend(((*path, key), item) for key, item in value.items())
    return None


def schema_findings(record: Any) -> list[Finding]:
    """Every way ``record`` breaks spec/record.schema.json, located by JSON Pointer."""
    if not isinstance(record, dict):
        return [
            Finding(
                kind=FindingKind.BAD_RECORD,
                message=f"a record is a JSON object with format, variant, options, players and "
                f"hands, not {_json_kind(record)}",
            )
        ]
    oversized = _oversized(record)
    if oversized is not None:
        # Validating a million items takes the schema validator minutes: say it at once.
        path, size = oversized
        return [
            _located(
                FindingKind.BAD_RECORD,
                f"an array of {size:,} items; no array of a record holds more than {MAX_ARRAY:,}",
                path,
            )
        ]
    try:
        errors = sorted(
            _validator().iter_errors(record),
            key=lambda e: [(isinstance(part, str), part) for part in e.absolute_path],
        )
        findings: dict[tuple[str, str], Finding] = {}
        for error in errors:
            for path, message in _explain(error):
                finding = _located(FindingKind.BAD_RECORD, message, path)
                findings.setdefault((finding.pointer, finding.message), finding)
        return list(findings.values())
    except (RecursionError, ValueError):
        # Only a record built in Python gets here (a file's JSON is refused by
        # parse_record first): a value too deep or a number too long to print.
        return [
            Finding(
                kind=FindingKind.BAD_RECORD,
                message="a value is nested too deeply, or a number is too long, to be checked",
            )
        ]


def _explain(error: jsonschema.ValidationError) -> list[tuple[tuple[str | int, ...], str]]:
    """The places and messages of one schema error (a missing or unknown field at its own place)."""
    path = tuple(error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = list(schema.get("properties", {}))
        return [
            ((*path, name), f"unknown field {name!r} (the fields here: {', '.join(allowed)})")
            for name in error.instance
            if name not in allowed
        ]
    if error.validator == "required" and isinstance(error.instance, dict):
        required = error.validator_value if isinstance(error.validator_value, list) else []
        return [
            ((*path, name), f"the field {name!r} is missing")
            for name in required
            if name not in error.instance
        ]
    if error.validator == "type":
        wanted = (
            error.validator_value
            if isinstance(error.validator_value, list)
            else [error.validator_value]
        )
        names = " or ".join(_TYPE_NAMES.get(str(name), str(name)) for name in wanted)
        hint = (
            " (write whole numbers without a decimal point)"
            if isinstance(error.instance, float)
            else ""
        )
        return [(path, f"{_json_value(error.instance)} is not {names}{hint}")]
    if error.validator == "pattern" and schema == record_schema()["$defs"]["tile"]:
        return [(path, f'{_json_value(error.instance)} is not a tile (write it like "2-5")')]
    return [(path, error.message)]


_TYPE_NAMES = {
    "object": "an object",
    "array": "an array",
    "string": "a string",
    "integer": "an integer",
    "null": "null",
}


def _json_value(value: Any) -> str:
    """A value as JSON when it is short and simple, else what kind of value it is."""
    if isinstance(value, (str, bool, float)) or value is None:
        return shown(json.dumps(value), 60)
    if isinstance(value, int):
        return str(value) if -(10**30) < value < 10**30 else "a very long number"
    return _json_kind(value)


def _located(kind: FindingKind, message: str, path: tuple[str | int, ...]) -> Finding:
    """A finding at ``path`` in the record, with the hand and action it falls in."""
    hand = action = None
    if len(path) >= 2 and path[0] == "hands" and isinstance(path[1], int):
        hand = path[1]
        if len(path) >= 4 and path[2] == "actions" and isinstance(path[3], int):
            action = path[3]
    return Finding(kind=kind, message=message, pointer=json_pointer(path), hand=hand, action=action)


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "true or false"
    if value is None:
        return "null"
    return "a number" if isinstance(value, int | float) else f"a {type(value).__name__}"
