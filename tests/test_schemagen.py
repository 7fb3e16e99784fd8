"""The rule part of ``spec/variant.schema.json`` is the registry's: generated, and current.

Every rule's entry, every closed vocabulary's ``enum`` with what its values
mean, and the rules a root file must give are made from the registry by
:mod:`reference_engine.rules.schemagen`; the committed file is exactly what it
makes, so a registry change that is not regenerated fails here.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from typing import Any

import pytest

from reference_engine.rules import schemagen
from reference_engine.rules.parameters import PARAMETERS, VOCABULARIES


def _committed() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(schemagen.SCHEMA.read_text(encoding="utf-8"))
    return schema


def test_the_committed_schema_is_what_the_registry_makes() -> None:
    current = schemagen.SCHEMA.read_text(encoding="utf-8")
    assert schemagen.text(schemagen.generated(json.loads(current))) == current


def test_the_generated_parts_come_from_the_registry_alone() -> None:
    """With every generated part taken out, generating puts each back as it was."""
    stripped = _committed()
    del stripped["$defs"]["rules"]
    for name in VOCABULARIES:
        del stripped["$defs"][name]
    empty: dict[str, Any] = {}
    stripped["then"]["properties"]["rules"] = empty
    assert schemagen.generated(stripped) == _committed()


def test_each_rule_s_value_follows_its_kind() -> None:
    rules = schemagen.rules_schema()["properties"]
    assert list(rules) == [rule.name for rule in PARAMETERS]
    assert rules["max_pip"]["properties"]["value"] == {
        "description": "The rule's value.",
        "type": "integer",
        "minimum": 1,
        "maximum": 18,
    }
    assert rules["opener"]["properties"]["value"]["$ref"] == "#/$defs/opener"
    assert rules["double_blank_opens"]["properties"]["value"]["type"] == "boolean"
    for rule in PARAMETERS:
        assert rules[rule.name]["description"] == rule.about
        assert rules[rule.name]["anyOf"] == [{"required": ["cite"]}, {"required": ["gap"]}]


def test_a_new_value_of_a_vocabulary_reaches_the_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    """The enum is the vocabulary's: a value added to the enum is one added to the schema."""
    from reference_engine.rules import vocabulary

    class Tie(vocabulary.TextEnum):
        NOBODY_SCORES = "nobody_scores"
        SPLIT = "split"

    meanings: dict[type[vocabulary.TextEnum], str] = {**vocabulary.MEANINGS}
    meanings[Tie] = "nobody_scores: as before; split: shared."
    monkeypatch.setattr(schemagen, "VOCABULARIES", {**VOCABULARIES, "tie": Tie})
    monkeypatch.setattr(schemagen, "MEANINGS", meanings)
    made = schemagen.generated(_committed())
    assert made["$defs"]["tie"] == {
        "description": "nobody_scores: as before; split: shared.",
        "enum": ["nobody_scores", "split"],
    }


def test_the_command_checks_and_rewrites(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    committed = schemagen.SCHEMA.read_text(encoding="utf-8")
    copy = tmp_path / "variant.schema.json"
    stale = _committed()
    stale["$defs"]["rules"]["properties"]["tie"]["description"] = "stale"
    copy.write_text(schemagen.text(stale), encoding="utf-8")
    monkeypatch.setattr(schemagen, "SCHEMA", copy)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        assert schemagen.main(["--check"]) == 1
        assert schemagen.main(["--what"]) == 2
        assert schemagen.main([]) == 0
        assert schemagen.main(["--check"]) == 0
    assert copy.read_text(encoding="utf-8") == committed
    assert json.loads(copy.read_text(encoding="utf-8")) == schemagen.generated(_committed())
    assert "usage:" in err.getvalue()
