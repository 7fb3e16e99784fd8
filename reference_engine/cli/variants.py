"""``matador validate``, ``list`` and ``show``: check variant files and look at the variants.

The rule model is imported when a command runs, not when ``matador``'s parser is built.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ..exits import ExitStatus
from .arguments import (
    AddCommand,
    Handler,
    format_arguments,
    max_bytes_argument,
    option_argument,
    resolve_targets,
)
from .output import json_text

if TYPE_CHECKING:
    from ..rules import Problem


def add_parsers(command: AddCommand) -> None:
    """Add ``validate``, ``list`` and ``show`` to ``matador``'s commands."""
    validate = command("validate", "check variant files (default: every shipped variant)")
    validate.add_argument("paths", nargs="*", metavar="PATH", help="variant files to check")
    validate.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text (problems on standard error), or JSON: the variants checked and every "
        "problem (code, message, file, line, column, path, fix) on standard output",
    )
    max_bytes_argument(validate)

    listing = command("list", "list the variants with their sources, one line each")
    listing.add_argument(
        "--long", action="store_true", help="each variant's summary too, under its source"
    )
    format_arguments(listing)

    show = command("show", "print a variant's resolved rules with their citations")
    show.add_argument(
        "variant", metavar="ID[:NAME=VALUE,...]", help="variant id (see: matador list)"
    )
    option_argument(show)
    format_arguments(show, json_alias=True)


def _validate(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..rules import Catalog

    paths = [Path(path) for path in args.paths]
    for path in paths:
        if os.path.isdir(path):  # not Path.is_dir(): it raises on a name too long
            stderr.write(f"matador validate: {path} is a directory; give variant files\n")
            return ExitStatus.INVALID
    catalog = Catalog.load(paths, with_shipped=not paths)
    if paths and catalog.files:
        # A given file loaded, and may extend or stand in for a shipped variant;
        # when none did, reading the shipped ones would tell nothing more.
        catalog = Catalog.load(paths)
    checked = sorted(catalog.given_ids) if paths else catalog.ids()
    load_problems = [
        problem
        for problem in catalog.load_problems
        if not paths or problem.file in {str(path) for path in paths}
    ]
    problems = load_problems + [
        problem
        for problem in Catalog(catalog.files).problems(checked)
        if problem not in load_problems
    ]
    files = len(paths) if paths else len(checked) + len({p.file for p in catalog.load_problems})
    if args.format == "json":
        stdout.write(json_text(_validate_data(files, checked, problems), ensure_ascii=False))
        return ExitStatus.INVALID if problems else ExitStatus.OK
    for problem in problems:
        stderr.write(f"{problem}\n")
    if problems:
        stderr.write(f"matador validate: {len(problems)} problem(s) in {files} file(s) checked\n")
        return ExitStatus.INVALID
    stdout.write(f"{files} variant file(s) valid: {', '.join(checked)}\n")
    return ExitStatus.OK


def _validate_data(files: int, checked: list[str], problems: list[Problem]) -> dict[str, Any]:
    """``matador validate --format json``: what was checked and every problem found."""
    return {
        "valid": not problems,
        "files": files,
        "variants": checked,
        "problems": [
            {
                "code": problem.code.value,
                "message": problem.message,
                "file": problem.file,
                "line": problem.line,
                "column": problem.column,
                "path": problem.json_path,
                "fix": problem.fix,
            }
            for problem in problems
        ],
    }


def _list(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..rules import Catalog, registry

    catalog = Catalog.shipped()

    publications = registry().publications
    found = []
    for variant_id in catalog.ids():
        data = catalog.files[variant_id].data
        publication = publications.get(data["publication"], data["publication"])
        found.append((variant_id, publication, " ".join(data["summary"].split())))
    if args.format == "json":
        keys = ("id", "publication", "summary")
        stdout.write(
            json_text([dict(zip(keys, row, strict=True)) for row in found], ensure_ascii=False)
        )
        return ExitStatus.OK
    from ..text.tables import markdown, render, style_for, table

    if args.format == "markdown":
        lines = markdown(table(["variant", "publication", "summary"], found))
    elif args.long:
        rows = [
            (variant_id, f"{publication}\n{summary}") for variant_id, publication, summary in found
        ]
        lines = render(
            table(["variant", "publication and summary"], rows, spaced=True),
            style_for(stdout, args.width),
        )
    else:  # one line each: the source cut to the width, never the id
        style = style_for(stdout, args.width)
        room = style.width - max(len(variant_id) for variant_id, _, _ in found) - 2
        rows = [
            (variant_id, publication if len(publication) <= room else publication[: room - 1] + "…")
            for variant_id, publication, _ in found
        ]
        lines = render(table(["variant", "publication"], rows), style)
    stdout.write("\n".join(lines) + "\n")
    return ExitStatus.OK


def _show(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..rules.present import rules_data, rules_lines, rules_markdown
    from ..text.tables import style_for

    (rules,) = resolve_targets([args.variant], args.option)
    if args.format == "json":
        stdout.write(json_text(rules_data(rules), ensure_ascii=False))
    elif args.format == "markdown":
        stdout.write("\n".join(rules_markdown(rules)) + "\n")
    else:
        stdout.write("\n".join(rules_lines(rules, style_for(stdout, args.width))) + "\n")
    return ExitStatus.OK


#: The handlers of this group's commands.
COMMANDS: dict[str, Handler] = {"validate": _validate, "list": _list, "show": _show}
