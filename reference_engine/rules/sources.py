"""The registry of publications and source texts a citation may name (spec/sources.yaml)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING

# A module import: safeio imports this package's vocabulary (see yamldoc).
from .. import safeio
from .datafiles import spec_dir
from .errors import RulesError
from .yamldoc import read_yaml_file

if TYPE_CHECKING:  # the rule model is not needed to read the registry (matador list)
    from .model import Citation


@dataclass(frozen=True)
class Registry:
    """The publications and source texts a citation may name."""

    publications: Mapping[str, str]
    texts: Mapping[str, str]
    #: What each source text is, in the project's words (its ``about``).
    text_about: Mapping[str, str]


@cache
def registry() -> Registry:
    """The registry in ``spec/sources.yaml`` (a project file: read with the default size limit)."""
    path = spec_dir() / "sources.yaml"
    with safeio.size_limit(None):
        document, problems = read_yaml_file(path, trusted=True)
    if document is None:
        raise RulesError(problems)
    data = document.data
    return Registry(
        publications=MappingProxyType(
            {key: value["title"] for key, value in data["publications"].items()}
        ),
        texts=MappingProxyType({key: value["file"] for key, value in data["texts"].items()}),
        text_about=MappingProxyType({key: value["about"] for key, value in data["texts"].items()}),
    )


def titled(citations: Iterable[Citation]) -> tuple[Citation, ...]:
    """The citations with each publication's title in place of its id, as pages and
    reports show them."""
    names = registry().publications
    return tuple(
        replace(cite, publication=names.get(cite.publication, cite.publication))
        for cite in citations
    )
