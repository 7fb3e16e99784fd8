"""The rule model: vocabularies, resolved rules, and the variant-file loader.

The names below are imported from their modules on first use (PEP 562), so that
importing one module of this package (the vocabulary, which
:mod:`reference_engine.safeio` and :mod:`reference_engine.errors` need) does not
load the variant-file loader, the YAML reader and the rule model with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_names

if TYPE_CHECKING:
    from .catalog import Catalog
    from .choices import parse_option_assignments
    from .datafiles import SPEC_VERSION
    from .errors import OptionError, Problem, ProblemCode, RulesError, UnknownVariantError
    from .model import Citation, Gap, MatadorMode, Note, Option, PerPlayers, Provenance, Rules
    from .sources import registry

#: The module of each name of :data:`__all__`, relative to this package.
_MODULE_OF = {
    "SPEC_VERSION": ".datafiles",
    "Catalog": ".catalog",
    "Citation": ".model",
    "Gap": ".model",
    "MatadorMode": ".model",
    "Note": ".model",
    "Option": ".model",
    "OptionError": ".errors",
    "PerPlayers": ".model",
    "Problem": ".errors",
    "ProblemCode": ".errors",
    "Provenance": ".model",
    "Rules": ".model",
    "RulesError": ".errors",
    "UnknownVariantError": ".errors",
    "parse_option_assignments": ".choices",
    "registry": ".sources",
}

__all__ = [
    "SPEC_VERSION",
    "Catalog",
    "Citation",
    "Gap",
    "MatadorMode",
    "Note",
    "Option",
    "OptionError",
    "PerPlayers",
    "Problem",
    "ProblemCode",
    "Provenance",
    "Rules",
    "RulesError",
    "UnknownVariantError",
    "parse_option_assignments",
    "registry",
]


__getattr__, __dir__ = lazy_names(__name__, _MODULE_OF, globals())
