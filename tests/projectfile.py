"""pyproject.toml read as data, for the tests of packaging, the README and editor support."""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]


@cache
def pyproject() -> dict[str, Any]:
    """The parsed pyproject.toml (tomllib, or tomli before Python 3.11; skips if neither)."""
    for name in ("tomllib", "tomli"):
        try:
            toml = importlib.import_module(name)
        except ModuleNotFoundError:
            continue
        return toml.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    pytest.skip("reading pyproject.toml needs tomllib (Python 3.11) or tomli")


def force_include() -> dict[str, str]:
    """The wheel's force-include table: a folder of the checkout to its place in the wheel."""
    table: dict[str, str] = pyproject()["tool"]["hatch"]["build"]["targets"]["wheel"][
        "force-include"
    ]
    return table


def extras() -> set[str]:
    """The names of the optional dependency groups (the extras ``pip install '.[x]'`` takes)."""
    return set(pyproject()["project"]["optional-dependencies"])
