"""One variant file: reading it strictly, checking it against the schema, and its data.

The project's own files (``trusted``) are not checked against the schema when
they are read, only when they are validated (:meth:`.Catalog.problems`): that
keeps the validation stack out of ``matador list`` and every other command, and
tests/test_startup.py checks every shipped file against its schema. A file a
user gives is always checked in full, at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import Problem, ProblemCode
from .schema import schema_problems, variant_schema
from .yamldoc import Document, read_yaml_file
from .yamldoc import Path as DocPath


@dataclass(frozen=True)
class VariantFile:
    """One parsed variant file."""

    id: str
    document: Document
    #: Whether the file was checked against the variant schema when it was read
    #: (a shipped file is checked only when it is validated).
    schema_checked: bool = True

    @property
    def data(self) -> dict[str, Any]:
        """The file's content as plain data."""
        return self.document.data  # type: ignore[no-any-return]

    def problem(
        self, code: ProblemCode, path: DocPath, message: str, fix: str | None = None
    ) -> Problem:
        """A problem located in this file."""
        return self.document.problem(code, path, message, fix)


def unchecked_problems(variant: VariantFile) -> list[Problem]:
    """The schema problems of a file read without the check (none for one read with it)."""
    return [] if variant.schema_checked else schema_problems(variant.document, variant_schema())


def read_variant_file(
    path: Path, *, trusted: bool = False
) -> tuple[VariantFile | None, list[Problem]]:
    """Read, parse and schema-check one variant file, collecting every problem.

    The file is read through :func:`safeio.read_input`: a directory, a pipe, a
    device, a symlink loop or a file over the size limit is a problem, never read.
    ``trusted`` marks a file the project ships: its reading is remembered
    (:func:`.yamldoc.parse_yaml`) and it is not checked against the schema here
    (see the module's docstring).
    """
    document, problems = read_yaml_file(path, trusted=trusted)
    if document is None:
        return None, problems
    if not isinstance(document.data, dict):
        return None, [
            document.problem(
                ProblemCode.NOT_A_MAPPING,
                (),
                "a variant file must be a mapping of fields",
                "start from an existing file in variants/",
            )
        ]
    # Even a shipped file is checked at once if it has no id to be known by.
    checked = not trusted or not isinstance(document.data.get("id"), str)
    if checked:
        problems = schema_problems(document, variant_schema())
        if problems:
            return None, problems
    variant = VariantFile(id=document.data["id"], document=document, schema_checked=checked)
    if path.suffix == ".yaml" and path.stem != variant.id:
        return None, [
            variant.problem(
                ProblemCode.ID_MISMATCH,
                ("id",),
                f"id {variant.id!r} differs from the file name {path.name!r}",
                f"rename the file to {variant.id}.yaml or change the id",
            )
        ]
    return variant, []
