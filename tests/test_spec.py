"""spec/SPEC.md defines everything the schema allows."""

from __future__ import annotations

import json
import re

import pytest

from reference_engine.rules.datafiles import SPEC_VERSION, spec_dir

SCHEMA = json.loads((spec_dir() / "variant.schema.json").read_text(encoding="utf-8"))
SPEC = (spec_dir() / "SPEC.md").read_text(encoding="utf-8")


def _names(node: object, properties: set[str], values: set[str]) -> None:
    if isinstance(node, dict):
        properties.update(node.get("properties", {}))
        values.update(v for v in node.get("enum", []) if isinstance(v, str))
        for sub in node.values():
            _names(sub, properties, values)
    elif isinstance(node, list):
        for sub in node:
            _names(sub, properties, values)


PROPERTIES: set[str] = set()
VALUES: set[str] = set()
_names(SCHEMA, PROPERTIES, VALUES)


@pytest.mark.parametrize("name", sorted(PROPERTIES))
def test_every_schema_property_is_defined_in_the_spec(name: str) -> None:
    assert f"`{name}`" in SPEC


@pytest.mark.parametrize("value", sorted(VALUES))
def test_every_enum_value_is_defined_in_the_spec(value: str) -> None:
    assert f"`{value}`" in SPEC


def test_the_spec_states_its_version() -> None:
    assert re.search(rf"[Ss]pec(ification)? version {re.escape(SPEC_VERSION)}\b", SPEC)
    assert SCHEMA["properties"]["spec_version"]["const"] == SPEC_VERSION
