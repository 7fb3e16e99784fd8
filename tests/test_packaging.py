"""The wheel and the sdist carry what an installed ``matador`` and a rebuild need.

The packaging files themselves are checked quickly (the licence, the changelog,
``py.typed``, pyproject's metadata). The slow tests build the sdist and the
wheel (``python -m build``, which builds the wheel from the sdist; or, where
``MATADOR_DIST`` names a folder holding both, as in .ci/run, those) and read
their file lists: the wheel has every file of every folder the force-include
table copies in, the whole package (templates, catalogues, ``py.typed``), and
the first-line schema paths of its variant and case files resolve inside it;
the sdist has the licence, the changelog, the specification and the tests.
"""

from __future__ import annotations

import email
import os
import posixpath
import re
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import Message
from pathlib import Path

import pytest
from projectfile import force_include, pyproject

from reference_engine.extras import PACKAGES, install_hint

REPO = Path(__file__).resolve().parents[1]

#: What the build leaves out of any file list: caches and compiled files.
_SKIPPED = re.compile(r"(^|/)(__pycache__|\.mypy_cache|\.ruff_cache|\.pytest_cache)(/|$)|\.pyc$")


@dataclass(frozen=True)
class Dist:
    """A built wheel's and sdist's file lists, and the wheel's metadata."""

    wheel: frozenset[str]
    sdist: frozenset[str]
    metadata: Message


def _files_under(path: Path) -> list[str]:
    """Every file at or under ``path``, relative to it (``""`` for a file), caches left out."""
    if path.is_file():
        return [""]
    return sorted(
        found.relative_to(path).as_posix()
        for found in path.rglob("*")
        if found.is_file() and not _SKIPPED.search(found.relative_to(REPO).as_posix())
    )


def _build(folder: Path) -> Path:
    pytest.importorskip("build")
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(folder), str(REPO)],
        check=True,
        capture_output=True,
        timeout=1800,
    )
    return folder


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Dist]:
    """The sdist and wheel of ``MATADOR_DIST``, or built here into a temporary folder."""
    given = os.environ.get("MATADOR_DIST")
    folder = Path(given) if given else _build(tmp_path_factory.mktemp("dist"))
    (wheel_path,) = folder.glob("matador_reference-*.whl")
    (sdist_path,) = folder.glob("matador_reference-*.tar.gz")
    with zipfile.ZipFile(wheel_path) as wheel:
        names = frozenset(wheel.namelist())
        (metadata_name,) = (n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = email.message_from_bytes(wheel.read(metadata_name))
    with tarfile.open(sdist_path) as sdist:
        members = [member.name.split("/", 1) for member in sdist.getmembers() if member.isfile()]
    assert {top for top, _ in members} == {sdist_path.name.removesuffix(".tar.gz")}
    yield Dist(names, frozenset(rest for _, rest in members), metadata)


# --------------------------------------------------------------------------- the files


def test_the_licence_is_mit_with_the_contributors_copyright() -> None:
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 the Matador reference contributors" in text
    assert pyproject()["project"]["license"] == "MIT"
    assert pyproject()["project"]["license-files"] == ["LICENSE"]


def test_the_package_says_it_is_typed() -> None:
    assert (REPO / "reference_engine" / "py.typed").is_file()
    assert "Typing :: Typed" in pyproject()["project"]["classifiers"]


def test_the_changelog_keeps_a_changelog() -> None:
    text = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## \[([^\]]+)\]", text, flags=re.M)
    assert headings[0] == "Unreleased"
    assert pyproject()["project"]["version"] in headings
    for version in headings:
        assert re.search(rf"^\[{re.escape(version)}\]: https://", text, flags=re.M), version
    sections = set(re.findall(r"^### (\w+)$", text, flags=re.M))
    assert sections <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def test_contributing_names_only_commands_and_files_that_exist() -> None:
    text = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    for module in set(re.findall(r"python -m ((?:reference_engine|tests)[\w.]*)", text)):
        assert (REPO / (module.replace(".", "/") + ".py")).is_file(), module
    for path in set(
        re.findall(r"`((?:spec|variants|docs|tests|conformance|reference_engine)/[\w./-]+)`", text)
    ):
        if "ID" not in path and "LANG" not in path and "VARIANT" not in path:
            assert (REPO / path).exists(), path


def test_project_urls_and_no_registry() -> None:
    urls = pyproject()["project"]["urls"]
    assert urls["Homepage"] == "https://matador-reference.github.io/"
    assert all(url.startswith("https://") for url in urls.values())


def test_the_sdist_includes_the_packaging_files() -> None:
    include = pyproject()["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
    assert {"LICENSE", "CHANGELOG.md", "CONTRIBUTING.md", "README.md", "spec", "tests"} <= set(
        include
    )
    assert all((REPO / path).exists() for path in include)


# --------------------------------------------------------------------------- the wheel


@pytest.mark.slow
def test_the_wheel_has_every_file_the_force_include_table_names(dist: Dist) -> None:
    missing = [
        posixpath.join(target, name) if name else target
        for source, target in force_include().items()
        for name in _files_under(REPO / source)
        if (posixpath.join(target, name) if name else target) not in dist.wheel
    ]
    assert missing == []


@pytest.mark.slow
def test_the_wheel_has_the_whole_package(dist: Dist) -> None:
    package = [f"reference_engine/{name}" for name in _files_under(REPO / "reference_engine")]
    assert [name for name in package if name not in dist.wheel] == []


@pytest.mark.slow
def test_the_wheel_has_what_the_installed_command_reads(dist: Dist) -> None:
    needed = {
        "reference_engine/py.typed",
        "reference_engine/_data/spec/variant.schema.json",
        "reference_engine/_data/spec/case.schema.json",
        "reference_engine/_data/spec/record.schema.json",
        "reference_engine/_data/spec/protocol.schema.json",
        "reference_engine/_data/spec/sources.yaml",
        "reference_engine/_data/variants/pagat.yaml",
        "reference_engine/_data/conformance/cases/pagat.yaml",
        "reference_engine/_data/conformance/examples/matador-engine.js",
        "reference_engine/sheets/templates/sheet.html.j2",
        "reference_engine/sheets/catalogues/fr.yaml",
        "matador_reference-0.1.0.dist-info/licenses/LICENSE",
    }
    assert sorted(needed - dist.wheel) == []
    assert not [name for name in dist.wheel if _SKIPPED.search(name)]
    assert not [name for name in dist.wheel if name.startswith("tests/")]


@pytest.mark.slow
def test_the_wheels_first_line_schema_paths_resolve_inside_it(dist: Dist) -> None:
    checked = 0
    for folder, line in (
        ("reference_engine/_data/variants/", "../spec/variant.schema.json"),
        ("reference_engine/_data/conformance/cases/", "../../spec/case.schema.json"),
    ):
        for name in (n for n in dist.wheel if n.startswith(folder) and n.endswith(".yaml")):
            first = (REPO / _source_of(name)).read_text(encoding="utf-8").split("\n", 1)[0]
            assert first == f"# yaml-language-server: $schema={line}"
            assert posixpath.normpath(posixpath.join(posixpath.dirname(name), line)) in dist.wheel
            checked += 1
    assert checked >= 30


def _source_of(wheel_name: str) -> str:
    """The checkout path a force-included wheel file was copied from."""
    for source, target in force_include().items():
        if wheel_name.startswith(target + "/"):
            return source + wheel_name.removeprefix(target)
    raise AssertionError(f"{wheel_name} is not force-included")


@pytest.mark.slow
def test_the_wheel_metadata(dist: Dist) -> None:
    meta = dist.metadata
    assert meta["Name"] == "matador-reference"
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]
    assert meta["Requires-Python"] == ">=3.10"
    urls = dict(url.split(", ", 1) for url in meta.get_all("Project-URL") or [])
    assert urls == pyproject()["project"]["urls"]
    assert set(meta.get_all("Provides-Extra") or []) == set(
        pyproject()["project"]["optional-dependencies"]
    )


# --------------------------------------------------------------------------- the sdist


@pytest.mark.slow
def test_the_sdist_has_the_licence_changelog_spec_and_tests(dist: Dist) -> None:
    needed = {"LICENSE", "CHANGELOG.md", "CONTRIBUTING.md", "README.md", "pyproject.toml"}
    needed |= {f"spec/{name}" for name in _files_under(REPO / "spec")}
    needed |= {f"tests/{name}" for name in _files_under(REPO / "tests")}
    needed |= {f"variants/{name}" for name in _files_under(REPO / "variants")}
    needed |= {f"conformance/{name}" for name in _files_under(REPO / "conformance")}
    needed |= {f"reference_engine/{name}" for name in _files_under(REPO / "reference_engine")}
    assert sorted(needed - dist.sdist) == []
    assert not [name for name in dist.sdist if _SKIPPED.search(name)]


def test_the_install_hints_name_each_extras_own_packages() -> None:
    """What a command says to install when an extra is missing is what the extra installs."""
    declared = pyproject()["project"]["optional-dependencies"]
    for extra, packages in PACKAGES.items():
        names = {re.split(r"[<>=!~ ]", requirement)[0] for requirement in declared[extra.value]}
        assert set(packages) == names, extra
        hint = install_hint(extra)
        assert f"'.[{extra.value}]'" in hint
        assert "matador-reference[" not in hint
