"""Editor support: the schemas' https ids, the first-line schema comments, docs/editor-support.md.

Each schema's ``$id`` is the site's address of its file; validation resolves
those ids to the local files and never fetches. Every shipped variant and case
file names its schema on its first line, by a relative path that holds in the
checkout and in the wheel; the documented VS Code and pre-commit snippets name
schemas and commands that exist.
"""

from __future__ import annotations

import io
import json
import posixpath
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml
from projectfile import force_include
from shipped import SHIPPED_VARIANTS

from reference_engine.cli import run
from reference_engine.rules.schema import (
    SCHEMA_FILES,
    SITE,
    load_schema,
    schema_id,
    schema_registry,
    strict_validator,
)
from reference_engine.rules.yamldoc import LOADERS, parse_yaml

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "editor-support.md"
VARIANT_FILES = sorted((REPO / "variants").glob("*.yaml"))
CASE_FILES = sorted((REPO / "conformance" / "cases").glob("*.yaml"))

#: The first line of every shipped variant file, and of every case file (by hand).
VARIANT_LINE = "# yaml-language-server: $schema=../spec/variant.schema.json"
CASE_LINE = "# yaml-language-server: $schema=../../spec/case.schema.json"


def test_site_is_the_projects_https_address() -> None:
    assert SITE == "https://matador-reference.github.io/"


@pytest.mark.parametrize("path", sorted((REPO / "spec").glob("*.schema.json")), ids=str)
def test_every_schema_id_is_the_site_address_of_its_path(path: Path) -> None:
    schema = json.loads(path.read_text(encoding="utf-8"))

    assert schema["$id"] == SITE + path.relative_to(REPO).as_posix()
    assert schema["$id"] == schema_id(path.name)


def test_the_schema_list_is_every_schema_file() -> None:
    assert sorted(SCHEMA_FILES) == sorted(p.name for p in (REPO / "spec").glob("*.schema.json"))


def test_no_old_urn_id_is_left() -> None:
    old = "urn:" + "matador-reference"
    places = [REPO / "spec", REPO / "reference_engine", REPO / "docs", REPO / "tests"]
    found = [
        str(path.relative_to(REPO))
        for place in places
        for path in place.rglob("*")
        if path.suffix in {".py", ".json", ".md", ".yaml"}
        and old in path.read_text(encoding="utf-8", errors="replace")
    ]
    assert found == []


@pytest.mark.parametrize("name", SCHEMA_FILES)
def test_the_registry_holds_each_local_file_under_its_id(name: str) -> None:
    local = json.loads((REPO / "spec" / name).read_text(encoding="utf-8"))
    # Held without $schema, so that a $ref to it keeps the strict validator class.
    assert local.pop("$schema") == "https://json-schema.org/draft/2020-12/schema"

    assert schema_registry().contents(schema_id(name)) == local


def test_a_reference_by_id_resolves_to_the_local_schema_without_fetching(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import urllib.request

    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("a schema was fetched")

    monkeypatch.setattr(urllib.request, "urlopen", no_network)
    validator = strict_validator({"$ref": schema_id("variant.schema.json")})
    shipped = yaml.safe_load((REPO / "variants" / "pagat.yaml").read_text(encoding="utf-8"))

    assert validator.is_valid(shipped)
    assert not validator.is_valid({"id": "pagat"})
    # max_pip: 6.0 is not six here either: the strict integer holds through the reference.
    rules = shipped["rules"]
    six_point_oh = {**shipped, "rules": {**rules, "max_pip": {**rules["max_pip"], "value": 6.0}}}
    assert not validator.is_valid(six_point_oh)


def test_a_reference_to_an_unknown_address_fails_instead_of_fetching(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import urllib.request

    from referencing.exceptions import Unresolvable

    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("a schema was fetched")

    monkeypatch.setattr(urllib.request, "urlopen", no_network)
    validator = strict_validator({"$ref": SITE + "spec/missing.schema.json"})

    with pytest.raises(Unresolvable):
        validator.is_valid({})


def test_every_shipped_variant_file_is_listed_and_checked() -> None:
    assert sorted(path.stem for path in VARIANT_FILES) == sorted(SHIPPED_VARIANTS)
    assert len(CASE_FILES) > 0


@pytest.mark.parametrize("path", VARIANT_FILES, ids=lambda path: path.stem)
def test_every_variant_file_names_its_schema_on_its_first_line(path: Path) -> None:
    assert path.read_text(encoding="utf-8").split("\n", 1)[0] == VARIANT_LINE


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda path: path.stem)
def test_every_case_file_names_its_schema_on_its_first_line(path: Path) -> None:
    assert path.read_text(encoding="utf-8").split("\n", 1)[0] == CASE_LINE


def _target(line: str) -> str:
    return line.split("$schema=", 1)[1]


@pytest.mark.parametrize(
    ("folder", "line", "schema"),
    [
        ("variants", VARIANT_LINE, "variant.schema.json"),
        ("conformance/cases", CASE_LINE, "case.schema.json"),
    ],
)
def test_the_relative_schema_path_holds_in_the_checkout_and_in_the_wheel(
    folder: str, line: str, schema: str
) -> None:
    in_checkout = posixpath.normpath(posixpath.join(folder, _target(line)))
    assert in_checkout == f"spec/{schema}"
    assert (REPO / in_checkout).is_file()

    table = force_include()
    in_wheel = posixpath.normpath(posixpath.join(table[folder], _target(line)))
    assert in_wheel == posixpath.join(table["spec"], schema)


@pytest.mark.parametrize("loader", sorted(LOADERS))
def test_the_first_line_changes_nothing_a_loader_reads(loader: str) -> None:
    raw = (REPO / "variants" / "house.yaml").read_bytes()
    with_line, found = parse_yaml(raw, "house.yaml", loader=loader)
    without, found_without = parse_yaml(raw.split(b"\n", 1)[1], "house.yaml", loader=loader)

    assert found == found_without == []
    assert with_line is not None and without is not None
    assert with_line.data == without.data


def _blocks(language: str) -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    return re.findall(rf"^```{language}\n(.*?)^```$", text, flags=re.M | re.S)


def _precommit_config() -> dict[str, Any]:
    configs = [block for block in _blocks("yaml") if block.startswith("repos:")]
    assert len(configs) == 1
    config: dict[str, Any] = yaml.safe_load(configs[0])
    return config


def _hooks(config: dict[str, Any], hook_id: str) -> list[dict[str, Any]]:
    return [hook for repo in config["repos"] for hook in repo["hooks"] if hook["id"] == hook_id]


def _shipped_under(pattern: str) -> set[str]:
    paths = [*VARIANT_FILES, *CASE_FILES]
    return {
        p.relative_to(REPO).as_posix()
        for p in paths
        if re.search(pattern, p.relative_to(REPO).as_posix())
    }


def test_the_precommit_schema_hooks_name_the_schema_of_the_files_they_check() -> None:
    hooks = _hooks(_precommit_config(), "check-jsonschema")
    by_schema = {}
    for hook in hooks:
        args = hook["args"]
        schema = args[args.index("--schemafile") + 1]
        name = next(name for name in SCHEMA_FILES if schema == schema_id(name))
        by_schema[name] = _shipped_under(hook["files"])

    assert by_schema == {
        "variant.schema.json": {p.relative_to(REPO).as_posix() for p in VARIANT_FILES},
        "case.schema.json": {p.relative_to(REPO).as_posix() for p in CASE_FILES},
    }


def test_the_local_schema_path_in_the_doc_exists() -> None:
    lines = [block for block in _blocks("yaml") if block.lstrip().startswith("args:")]
    assert len(lines) == 1
    args = yaml.safe_load(lines[0])["args"]

    assert (REPO / args[args.index("--schemafile") + 1]).is_file()


def test_the_precommit_matador_hooks_are_real_commands() -> None:
    config = _precommit_config()
    hooks = _hooks(config, "matador-validate") + _hooks(config, "matador-conform-cases")
    assert len(hooks) == 2
    for hook in hooks:
        argv = shlex.split(hook["entry"])
        assert argv[0] == "matador"
        out, err = io.StringIO(), io.StringIO()
        assert run([*argv[1:2], "--help"], out, err) == 0, err.getvalue()
        assert _shipped_under(hook["files"])


def test_the_docs_first_lines_are_the_shipped_ones_or_the_https_ids() -> None:
    comments = {
        line
        for block in _blocks("yaml")
        for line in block.splitlines()
        if line.startswith("# yaml-language-server:")
    }
    https = {
        f"# yaml-language-server: $schema={schema_id(name)}"
        for name in ("variant.schema.json", "case.schema.json")
    }
    assert comments == {VARIANT_LINE, CASE_LINE} | https


def test_the_vscode_settings_map_existing_schemas_to_the_shipped_files() -> None:
    (block,) = _blocks("json")
    mapping = json.loads(block)["yaml.schemas"]

    assert {
        (REPO / schema).resolve().relative_to(REPO).as_posix(): sorted(
            p.relative_to(REPO).as_posix() for p in REPO.glob(glob)
        )
        for schema, glob in mapping.items()
    } == {
        "spec/variant.schema.json": [p.relative_to(REPO).as_posix() for p in VARIANT_FILES],
        "spec/case.schema.json": [p.relative_to(REPO).as_posix() for p in CASE_FILES],
    }


def test_the_documented_ids_are_the_schemas_ids() -> None:
    text = DOC.read_text(encoding="utf-8")
    rows = re.findall(
        r"^\| `(spec/[a-z]+\.schema\.json)` \| `(https://[^`]+)` \|$", text, flags=re.M
    )

    assert sorted(rows) == sorted(
        (f"spec/{name}", load_schema(name)["$id"]) for name in SCHEMA_FILES
    )
