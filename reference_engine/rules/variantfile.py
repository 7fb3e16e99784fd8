"""One variant file: reading it strictly, checking it against the schema, and its data."""

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

    @property
    def data(self) -> dict[str, Any]:
        """The file's content as plain data."""
        return self.document.data  # type: ignore[no-any-return]

    def problem(
        self, code: ProblemCode, path: DocPath, message: str, fix: str | None = None
    ) -> Problem:
        """A problem located in this file."""
        return self.document.problem(code, path, message, fix)


def read_variant_file(
    path: Path, *, trusted: bool = False
) -> tuple[VariantFile | None, list[Problem]]:
    """Read, parse and schema-check one variant file, collecting every problem.

    The file is read through :func:`safeio.read_input`: a directory, a pipe, a
    device, a symlink loop or a file over the size limit is a problem, never read.
    ``trusted`` marks a file the project ships (parsed by libyaml where it can be).
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
    problems = schema_problems(document, variant_schema())
    if problems:
        return None, problems
    variant = VariantFile(id=document.data["id"], document=document)
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
