"""The part of ``spec/variant.schema.json`` the rule registry generates, and the command writing it.

The schema's ``$defs.rules`` (one entry per rule parameter: its description, its
value's schema by kind, the citation or gap it needs), the ``enum`` entry of
every closed vocabulary (its values, and what they mean,
:data:`~reference_engine.rules.vocabulary.MEANINGS`) and the rules a variant that
extends nothing must give are all derived from
:data:`~reference_engine.rules.parameters.PARAMETERS`; the rest of the schema
(the file's layout, citations, gaps, options) is written by hand.
``tests/test_schemagen.py`` checks the committed file is what this module makes
of it, and ``python -m reference_engine.rules.schemagen`` rewrites it after a
registry change (``--check`` only says whether it is current).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .kinds import Parameter, ValueKind
from .parameters import PARAMETERS, VOCABULARIES
from .vocabulary import MEANINGS

#: The schema this module keeps current, in a checkout.
SCHEMA = Path(__file__).resolve().parents[2] / "spec" / "variant.schema.json"

_RULES_ABOUT = (
    "Rule values, each with its citations. A variant that extends another gives only "
    "the rules that differ."
)
_ROOT_ABOUT = "A variant that extends nothing must give every rule that is not conditional."
_CITE_ABOUT = (
    "Where the value comes from; may be left out only when gap names the recorded gap "
    "that explains the choice."
)
_GAP_ABOUT = "Id of the gap (in this file's gaps) that records why this value had to be chosen."

#: A rule's value, by the kind of value it takes (a choice refers to its vocabulary's entry).
_BY_KIND: dict[ValueKind, dict[str, Any]] = {
    ValueKind.PLAYER_COUNTS: {
        "type": "array",
        "minItems": 1,
        "uniqueItems": True,
        "items": {"type": "integer", "minimum": 2, "maximum": 4},
    },
    ValueKind.PER_PLAYERS: {"$ref": "#/$defs/per_players"},
    ValueKind.HAND_SIZES: {"$ref": "#/$defs/hand_sizes"},
    ValueKind.FLAG: {"type": "boolean"},
    ValueKind.MATADOR_MODES: {
        "type": "array",
        "minItems": 1,
        "items": {"$ref": "#/$defs/matador_mode"},
    },
    ValueKind.TARGET: {"$ref": "#/$defs/target"},
}


def value_schema(rule: Parameter) -> dict[str, Any]:
    """The schema of ``rule``'s value, from its kind."""
    value: dict[str, Any] = {"description": "The rule's value."}
    if rule.kind is ValueKind.INTEGER:
        value["type"] = "integer"
        if rule.bounds is not None:
            value["minimum"], value["maximum"] = rule.bounds
    elif rule.kind is ValueKind.CHOICE:
        value["$ref"] = f"#/$defs/{rule.name}"
    else:
        value.update(json.loads(json.dumps(_BY_KIND[rule.kind])))
    return value


def rule_schema(rule: Parameter) -> dict[str, Any]:
    """A rule's entry in a variant file: its value, and the citation or gap behind it."""
    return {
        "description": rule.about,
        "type": "object",
        "additionalProperties": False,
        "required": ["value"],
        "properties": {
            "value": value_schema(rule),
            "cite": {"description": _CITE_ABOUT, "$ref": "#/$defs/citations"},
            "gap": {"description": _GAP_ABOUT, "$ref": "#/$defs/name"},
        },
        "anyOf": [{"required": ["cite"]}, {"required": ["gap"]}],
    }


def rules_schema() -> dict[str, Any]:
    """The schema's ``$defs.rules``: every rule of the registry, in its order."""
    return {
        "description": _RULES_ABOUT,
        "type": "object",
        "additionalProperties": False,
        "properties": {rule.name: rule_schema(rule) for rule in PARAMETERS},
    }


def vocabulary_schemas() -> dict[str, dict[str, Any]]:
    """The ``$defs`` entry of every closed vocabulary, by its name."""
    return {
        name: {"description": MEANINGS[vocabulary], "enum": [member.value for member in vocabulary]}
        for name, vocabulary in VOCABULARIES.items()
    }


def generated(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with every part the registry generates made from it; the rest kept.

    A vocabulary entry missing from ``schema`` is added at the end of ``$defs``.
    """
    made: dict[str, Any] = json.loads(json.dumps(schema))
    definitions = made.setdefault("$defs", {})
    for name, entry in vocabulary_schemas().items():
        definitions[name] = entry
    definitions["rules"] = rules_schema()
    root = made["then"]["properties"]["rules"]
    root["required"] = [rule.name for rule in PARAMETERS if rule.required]
    root["description"] = _ROOT_ABOUT
    return made


def text(schema: dict[str, Any]) -> str:
    """The schema as the committed file writes it."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Rewrite the schema from the registry (``--check``: only say whether it is current)."""
    args = list(sys.argv[1:] if argv is None else argv)
    check = args == ["--check"]
    if args and not check:
        print("usage: python -m reference_engine.rules.schemagen [--check]", file=sys.stderr)
        return 2
    if not SCHEMA.is_file():
        print(f"{SCHEMA}: no such file (this command runs in a checkout)", file=sys.stderr)
        return 2
    current = SCHEMA.read_text(encoding="utf-8")
    wanted = text(generated(json.loads(current)))
    if current == wanted:
        print(f"{SCHEMA.name} is current")
        return 0
    if check:
        print(f"{SCHEMA.name} is not what the registry makes: run this without --check")
        return 1
    from ..safeio import write_atomically

    write_atomically(SCHEMA, wanted)
    print(f"{SCHEMA.name} rewritten from the registry")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
