"""The rule model: vocabularies, resolved rules, and the variant-file loader."""

from .catalog import Catalog
from .choices import parse_option_assignments
from .datafiles import SPEC_VERSION
from .errors import OptionError, Problem, ProblemCode, RulesError, UnknownVariantError
from .model import Citation, Gap, MatadorMode, Note, Option, PerPlayers, Provenance, Rules
from .sources import registry

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
