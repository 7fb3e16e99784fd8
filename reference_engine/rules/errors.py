"""Typed problems found while loading, checking and resolving variant files."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import InputProblem
from ..textenum import TextEnum


class ProblemCode(TextEnum):
    """The closed vocabulary of loader problems."""

    NOT_FOUND = "not_found"
    NOT_A_FILE = "not_a_file"
    SYMLINK_LOOP = "symlink_loop"
    TOO_LARGE = "too_large"
    UNREADABLE = "unreadable"
    NOT_UTF8 = "not_utf8"
    YAML_SYNTAX = "yaml_syntax"
    YAML_ALIAS = "yaml_alias"
    YAML_TAG = "yaml_tag"
    YAML_AMBIGUOUS = "yaml_ambiguous"
    YAML_DEPTH = "yaml_depth"
    DUPLICATE_KEY = "duplicate_key"
    NON_STRING_KEY = "non_string_key"
    NOT_A_MAPPING = "not_a_mapping"
    SCHEMA = "schema"
    ID_MISMATCH = "id_mismatch"
    DUPLICATE_ID = "duplicate_id"
    MISSING_PARENT = "missing_parent"
    EXTENDS_CYCLE = "extends_cycle"
    UNKNOWN_PUBLICATION = "unknown_publication"
    UNKNOWN_TEXT = "unknown_text"
    UNKNOWN_GAP = "unknown_gap"
    UNKNOWN_RULE = "unknown_rule"
    NOT_OPTIONABLE = "not_optionable"
    DUPLICATE_GAP = "duplicate_gap"
    MISSING_RULE = "missing_rule"
    BAD_DEFAULT = "bad_default"
    UNKNOWN_OPTION = "unknown_option"
    UNKNOWN_OPTION_VALUE = "unknown_option_value"
    BAD_OPTION_SYNTAX = "bad_option_syntax"
    OPTION_CONFLICT = "option_conflict"
    INHERITED_OPTION_CLASH = "inherited_option_clash"
    DEAL_TOO_LARGE = "deal_too_large"
    PLAYER_COUNTS = "player_counts"
    INCOHERENT = "incoherent"
    UNKNOWN_VARIANT = "unknown_variant"
    BAD_DEAL = "bad_deal"
    BAD_NOTATION = "bad_notation"


@dataclass(frozen=True, kw_only=True)
class Problem:
    """One thing wrong with a variant file: what, where, and how to fix it."""

    code: ProblemCode
    message: str
    file: str = "<input>"
    line: int | None = None
    column: int | None = None
    path: tuple[str | int, ...] = ()
    fix: str | None = None

    @property
    def json_path(self) -> str:
        """The document path in JSONPath-like notation: ``$.rules.players.value``."""
        out = "$"
        for part in self.path:
            out += f"[{part}]" if isinstance(part, int) else f".{part}"
        return out

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}:{self.column or 1}"
        text = f"{where}: {self.message}"
        if self.path or self.line is not None:
            text = f"{where}: {self.json_path}: {self.message}"
        if self.fix:
            text += f" ({self.fix})"
        return text


class RulesError(InputProblem, ValueError):
    """Raised with every problem found, not just the first."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))

    @property
    def codes(self) -> set[ProblemCode]:
        """The distinct problem codes, for tests and callers that branch on cause."""
        return {problem.code for problem in self.problems}


class UnknownVariantError(RulesError):
    """The requested variant id is not in the catalogue."""


class OptionError(RulesError):
    """An option given by the user is unknown, has an unknown value, or is malformed."""
