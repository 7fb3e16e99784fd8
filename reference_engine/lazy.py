"""A package's public names imported from their modules on first use (PEP 562).

:mod:`reference_engine.rules` and :mod:`reference_engine.conformance` name their
public surface without loading it: importing the package loads none of its
modules, and each name is imported from the module that defines it the first time
it is asked for, then kept in the package.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(
    package: str, module_of: Mapping[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose names are the keys of
    ``module_of`` (each with the module that defines it, relative to ``package``);
    ``namespace`` is the package's globals, where a name is kept once imported."""

    def __getattr__(name: str) -> Any:
        """One of the package's names, imported from its module the first time it is asked for."""
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted([*namespace, *module_of])

    return __getattr__, __dir__
