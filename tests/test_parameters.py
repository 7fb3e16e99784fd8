"""The rule-parameter registry: one description of every rule, and everything derived from it.

The registry (:mod:`reference_engine.rules.parameters`) is the source; these
tests hold the typed model, ``spec/variant.schema.json``, ``spec/SPEC.md``'s
headings and rule lists, the engine's consumers and the derived tables to it,
so that a rule added in one place and forgotten in another fails here rather
than silently (a rule missing from a sheet, a comparison or the coverage).
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import io
import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from shipped import shipped_cases

from reference_engine.cli import run
from reference_engine.conformance.suite.casedata import load_cases
from reference_engine.conformance.suite.tokens import declaration_problem
from reference_engine.engine.compiled import compiled
from reference_engine.rules import Catalog, Rules
from reference_engine.rules.convert import CONDITIONAL_RULES, CONVERTERS
from reference_engine.rules.datafiles import spec_dir
from reference_engine.rules.errors import ProblemCode
from reference_engine.rules.parameters import (
    BY_NAME,
    CONDITIONAL,
    NAMES,
    PARAMETERS,
    Parameter,
    Sentence,
    ValueKind,
    as_text_value,
)
from reference_engine.rules.present import SECTIONS, rules_data
from reference_engine.sheets.catalogue import Translator
from reference_engine.sheets.model import VALUE_RULES, build_sheet

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "reference_engine"
CATALOG = Catalog.shipped()


@cache
def schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (spec_dir() / "variant.schema.json").read_text(encoding="utf-8")
    )
    return data


@cache
def spec_sections() -> dict[str, tuple[str, str]]:
    """SPEC.md's ``###`` sections: number -> (heading, body)."""
    text = (spec_dir() / "SPEC.md").read_text(encoding="utf-8")
    found: dict[str, tuple[str, str]] = {}
    parts = re.split(r"^(#{2,3} .*)$", text, flags=re.M)
    for heading, body in zip(parts[1::2], parts[2::2], strict=True):
        match = re.match(r"### (\d+\.\d+) (.*)", heading)
        if match:
            found[match[1]] = (match[2], body)
    return found


# --------------------------------------------------------------------------- the registry itself


def test_names_are_unique_and_in_the_order_of_the_spec() -> None:
    assert len(NAMES) == len(set(NAMES)) == len(PARAMETERS)
    order = [tuple(int(part) for part in p.spec.split(".")) for p in PARAMETERS]
    groups = [list(type(p.group)).index(p.group) for p in PARAMETERS]
    assert groups == sorted(groups)
    # within a group, by section, except that a rule defined in a later section
    # may be listed beside the rule it depends on
    assert order[0] == (5, 1)


@pytest.mark.parametrize("rule", PARAMETERS, ids=NAMES)
def test_an_entry_is_complete_for_its_kind(rule: Parameter) -> None:
    assert (rule.kind is ValueKind.CHOICE) == (rule.choices is not None)
    if rule.sentence is Sentence.BY_VALUE:
        assert rule.values, f"{rule.name}: a sentence per value needs a closed set of values"
    if not rule.required:
        # a conditional rule needs a condition, or it would always be required
        assert rule.applies is not BY_NAME["max_pip"].applies
    assert rule.about.endswith(".")


def test_every_rule_that_changes_play_says_what_it_decides() -> None:
    # The rest shape the game itself (SPEC 5: the set, who plays), or change no play
    # (SPEC 5.5); the hand sizes decide the deal a judge accepts (Decides.DEAL).
    undecided = {rule.name for rule in PARAMETERS if not rule.decides}
    assert undecided == {"max_pip", "players", "turn_direction"}


def test_the_typed_model_has_exactly_the_registry_s_rules_in_its_order() -> None:
    fields = [field.name for field in dataclasses.fields(Rules)]
    rule_fields = fields[fields.index("max_pip") : fields.index("provenance")]
    assert rule_fields == list(NAMES)


def test_conditional_rules_default_to_absent() -> None:
    fields = {field.name: field for field in dataclasses.fields(Rules)}
    for rule in PARAMETERS:
        annotation = str(fields[rule.name].type)
        assert ("None" in annotation) == (not rule.required), rule.name


# --------------------------------------------------------------------------- the schema


def _value_schema(name: str) -> dict[str, Any]:
    value: dict[str, Any] = schema()["$defs"]["rules"]["properties"][name]["properties"]["value"]
    return value


def test_the_schema_names_exactly_the_registry_s_rules() -> None:
    assert list(schema()["$defs"]["rules"]["properties"]) == list(NAMES)


@pytest.mark.parametrize("rule", PARAMETERS, ids=NAMES)
def test_the_schema_describes_each_rule_as_the_registry_does(rule: Parameter) -> None:
    entry = schema()["$defs"]["rules"]["properties"][rule.name]
    assert entry["description"] == rule.about
    value = _value_schema(rule.name)
    expected: dict[ValueKind, dict[str, Any]] = {
        ValueKind.INTEGER: {"type": "integer"},
        ValueKind.PLAYER_COUNTS: {"type": "array"},
        ValueKind.PER_PLAYERS: {"$ref": "#/$defs/per_players"},
        ValueKind.HAND_SIZES: {"$ref": "#/$defs/hand_sizes"},
        ValueKind.CHOICE: {"$ref": f"#/$defs/{rule.name}"},
        ValueKind.FLAG: {"type": "boolean"},
        ValueKind.MATADOR_MODES: {"type": "array", "items": {"$ref": "#/$defs/matador_mode"}},
        ValueKind.TARGET: {"$ref": "#/$defs/target"},
    }
    assert expected[rule.kind].items() <= value.items()
    if rule.choices is not None:
        assert schema()["$defs"][rule.name]["enum"] == [member.value for member in rule.choices]


def test_the_schema_requires_the_registry_s_unconditional_rules_of_a_root_file() -> None:
    text = json.dumps(schema())
    for rule in PARAMETERS:
        assert f'"{rule.name}"' in text


# --------------------------------------------------------------------------- SPEC.md


def test_every_rule_has_a_spec_heading_in_the_section_the_registry_names() -> None:
    headed: dict[str, str] = {}
    for number, (heading, _) in spec_sections().items():
        major = int(number.split(".")[0])
        if not 5 <= major <= 10:
            continue
        for name in re.findall(r"`([a-z_]+)`", heading):
            assert name not in headed, f"{name} heads both {headed[name]} and {number}"
            headed[name] = number
    assert headed == {rule.name: rule.spec for rule in PARAMETERS}


@pytest.mark.parametrize("rule", [p for p in PARAMETERS if p.values], ids=lambda p: p.name)
def test_the_spec_section_of_a_closed_rule_names_every_value(rule: Parameter) -> None:
    _, body = spec_sections()[rule.spec]
    for value in rule.values or ():
        assert f"`{as_text_value(value)}`" in body, (rule.name, value)


def test_the_spec_s_value_tables_name_no_value_the_registry_lacks() -> None:
    for rule_section in {rule.spec for rule in PARAMETERS if rule.choices}:
        _, body = spec_sections()[rule_section]
        rows = re.findall(r"^\| `([a-z_]+)` \|", body, flags=re.M)
        known = {
            str(value) for p in PARAMETERS if p.spec == rule_section for value in p.values or ()
        }
        assert set(rows) <= known, rule_section


def test_the_spec_lists_the_registry_s_required_and_conditional_rules() -> None:
    text = (spec_dir() / "SPEC.md").read_text(encoding="utf-8")
    section = text[text.index("## 4. Required") : text.index("## 5. Equipment")]
    unconditional = section[section.index("**unconditional**") : section.index("The six")]
    assert re.findall(r"`([a-z_]+)`", unconditional) == [p.name for p in PARAMETERS if p.required]
    table = re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.M)
    assert table == [p.name for p in PARAMETERS if not p.required]
    assert f"There are {len(PARAMETERS)} rules" in section


# --------------------------------------------------------------------------- the engine


def _source(module: str) -> str:
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).read_text(encoding="utf-8")


@pytest.mark.parametrize("rule", PARAMETERS, ids=NAMES)
def test_the_consumer_exists_and_reads_the_rule(rule: Parameter) -> None:
    if rule.consumer is None:
        assert not rule.optionable, "a rule that changes no play is offered by no option"
        return
    module_name, _, path = rule.consumer.partition(":")
    module = importlib.import_module(module_name)
    head, *rest = path.split(".")
    target: Any = getattr(module, head)
    if head == "Compiled":
        target = compiled(CATALOG.resolve("pagat"))
    for attribute in rest:
        target = getattr(target, attribute)
    if rule.values is None or len(rule.values) > 1:
        assert re.search(rf"\brules\.{rule.name}\b", _source(module_name)), (
            f"{module_name} never reads rules.{rule.name}"
        )


# --------------------------------------------------------------------------- derived tables


def test_the_derived_tables_cover_every_rule_once() -> None:
    assert list(CONVERTERS) == list(NAMES)
    assert CONDITIONAL_RULES == CONDITIONAL == {p.name for p in PARAMETERS if not p.required}
    assert [name for names in SECTIONS.values() for name in names] == list(NAMES)
    assert list(SECTIONS) == list(dict.fromkeys(str(p.group) for p in PARAMETERS))
    assert set(VALUE_RULES) == {p.name for p in PARAMETERS if p.sentence is Sentence.BY_VALUE}


@pytest.mark.parametrize("variant", sorted(CATALOG.ids()))
def test_show_lists_every_rule(variant: str) -> None:
    assert list(rules_data(CATALOG.resolve(variant))["rules"]) == list(NAMES)


def test_compare_has_a_row_for_every_rule() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run(["compare", "--format", "markdown"], out, err) == 0
    rows = {line.split("|")[1].strip() for line in out.getvalue().splitlines() if "|" in line}
    assert set(NAMES) <= rows


def _every_resolution() -> Iterator[Rules]:
    for variant in sorted(CATALOG.ids()):
        base = CATALOG.resolve(variant)
        yield base
        for option in base.options:
            for value in option.values:
                if value.name != option.default:
                    yield CATALOG.resolve(variant, {option.name: value.name})


def test_every_rule_is_stated_on_some_sheet() -> None:
    english = Translator.for_language("en")
    for rules in _every_resolution():
        build_sheet(rules, "en", catalog=CATALOG, translator=english)
    stated = {key.split(".")[1] for key in english.used if key.startswith("rule.")}
    assert set(NAMES) - stated == set()


# --------------------------------------------------------------------------- options, cases, --rule


def test_an_option_may_not_change_a_rule_the_registry_keeps_out_of_options(
    tmp_path: Path,
) -> None:
    fixed = [p.name for p in PARAMETERS if not p.optionable]
    assert fixed == ["turn_direction"]
    text = (REPO / "variants" / "pagat.yaml").read_text(encoding="utf-8")
    text = text.replace("id: pagat", "id: child", 1)
    assert "options:" in text
    cite = '[{publication: pagat, text: "000", section: "Pagat", says: "play goes either way"}]'
    option = (
        "options:\n"
        "  seating:\n"
        "    summary: which way play goes\n"
        "    default: as_written\n"
        "    values:\n"
        f"      as_written: {{summary: as the source says, cite: {cite}}}\n"
        "      other_way:\n"
        "        summary: the other way round\n"
        f"        cite: {cite}\n"
        "        rules:\n"
        "          turn_direction:\n"
        "            value: right\n"
        f"            cite: {cite}\n"
    )
    text = text.replace("options:\n", option, 1)
    (tmp_path / "child.yaml").write_text(text, encoding="utf-8")
    problems = Catalog.load([tmp_path / "child.yaml"]).problems()
    codes = {problem.code for problem in problems}
    assert ProblemCode.NOT_OPTIONABLE in codes, [str(p) for p in problems]


@pytest.mark.parametrize(
    ("declared", "fine"),
    [
        ("draw_when", True),
        ("draw_when=always", True),
        ("double_blank_opens=false", True),
        ("matador_modes=shape_crosswise", True),
        ("target=points_100", True),
        ("hand_size=7", True),
        ("draw_when=sometimes", False),
        ("drawwhen", False),
        ("matador_modes=crosswise", False),
        ("target=100", False),
        ("hand_size=seven", False),
        ("double_blank_opens=yes", False),
    ],
)
def test_a_declaration_names_a_rule_and_a_value_it_can_take(declared: str, fine: bool) -> None:
    assert (declaration_problem(declared) is None) == fine


def test_every_shipped_case_declares_rules_the_registry_has() -> None:
    cases, problems = shipped_cases()
    assert problems == ()
    for case in cases:
        for declared in case.exercises:
            assert declaration_problem(declared) is None, (case.id, declared)


def test_a_case_declaring_an_unknown_rule_is_broken(tmp_path: Path) -> None:
    source = next((REPO / "conformance" / "cases").rglob("*.yaml"))
    text = source.read_text(encoding="utf-8")
    found = re.search(r"exercises: \[([^\]]*)\]", text)
    assert found is not None
    text = text[: found.start(1)] + "no_such_rule" + text[found.end(1) :]
    path = tmp_path / "case.yaml"
    path.write_text(text, encoding="utf-8")
    cases, problems = load_cases([path])
    assert problems == []
    broken = [problem for case in cases for found in case.broken.values() for problem in found]
    assert any(p.code is ProblemCode.UNKNOWN_RULE for p in broken), [str(p) for p in broken]


@pytest.mark.parametrize("rule", ["no_such_rule", "draw_when=sometimes"])
def test_conform_refuses_a_rule_filter_that_names_nothing(rule: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run(["conform", "--rule", rule], out, err) == 1  # an unknown name: exit 1
    assert err.getvalue().startswith("matador conform: --rule: ")
    assert out.getvalue() == ""


# --------------------------------------------------------------------------- the measurement


#: The names the package gives a :class:`Rules` object.
RULES_NAMES = frozenset({"rules", "r", "resolved", "other", "base", "first", "second"})


def spelled_in(name: str) -> list[str]:
    """The package modules that spell rule ``name`` as a string, or read it from a rules object.

    The rule sheet's modules count as one place: together they are the sheet's
    one consumer of the rule (its sentence and its place on the page).
    """
    found = []
    for path, strings, read in _spellings():
        if (name in strings and name not in SHARED_WORDS) or name in read:
            found.append(_place(path))
    return list(dict.fromkeys(found))


@cache
def _spellings() -> tuple[tuple[Path, frozenset[str], frozenset[str]], ...]:
    """Every module of the package, walked once: its path, the strings it spells
    (docstrings left out) and the attributes it reads from a rules object."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = _docstrings(tree)
        strings, read = set(), set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if id(node) not in docstrings:
                    strings.add(node.value)
            elif isinstance(node, ast.Attribute) and _reads_rules(node.value):
                read.add(node.attr)
        found.append((path, frozenset(strings), frozenset(read)))
    return tuple(found)


def _place(path: Path) -> str:
    """A module, except that the rule sheet (``sheets/``) counts as one place."""
    relative = path.relative_to(PACKAGE)
    return "sheets/" if relative.parts[0] == "sheets" else str(relative)


def _reads_rules(receiver: ast.expr) -> bool:
    """Whether ``receiver`` is a rules object by its name (``rules``, ``self.rules``, ``r``)."""
    if isinstance(receiver, ast.Attribute):
        return receiver.attr == "rules"
    return isinstance(receiver, ast.Name) and receiver.id in RULES_NAMES


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes of ``tree`` (module, class and function docstrings)."""
    found = set()
    for owner in ast.walk(tree):
        if isinstance(owner, (ast.Module, ast.ClassDef, ast.FunctionDef)):
            body = owner.body
            if body and isinstance(body[0], ast.Expr):
                found.add(id(body[0].value))
    return found


#: Rules every tool reads, because they give the game its shape: how many
#: play and with which set. They are not counted.
STRUCTURAL = frozenset({"players", "max_pip"})

#: Rule names that are also the names of other data (an outcome's ``points``, a
#: record's ``target``): only reads from a rules object count for them.
SHARED_WORDS = frozenset({"points", "target", "tie"})

#: At most this many modules spell one rule's name: the registry, the engine's
#: consumer and the refusals that cite it, the rule sheet, and for a few rules
#: the match, the scoring, the loader's checks or a dispute tool. (Measured when
#: the registry came: 2 to 4 for most rules, 7 for ``matador_modes``.)
MOST_MODULES = 7


def test_few_modules_spell_a_rule_out() -> None:
    counts = {name: spelled_in(name) for name in NAMES if name not in STRUCTURAL}
    over = {name: where for name, where in counts.items() if len(where) > MOST_MODULES}
    assert over == {}
