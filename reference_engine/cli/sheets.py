"""``matador sheet``: a printable rule sheet of a variant, in PDF, HTML or Markdown.

The renderers (Jinja2, WeasyPrint) and the rule model are imported only when the
command runs, so ``matador --help`` and every other command stay light.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import TextIO

from .. import safeio
from ..exits import ExitStatus
from ..sheets import FORMATS as SHEET_FORMATS
from ..sheets import LANGUAGES as SHEET_LANGUAGES
from .arguments import (
    AddCommand,
    Handler,
    UsageError,
    check_output,
    option_argument,
    output_argument,
    resolve_targets,
)


def add_parsers(command: AddCommand) -> None:
    """Add ``sheet`` to ``matador``'s commands."""
    sheet = command("sheet", "make a printable rule sheet of a variant (PDF, HTML or Markdown)")
    sheet.add_argument(
        "variant",
        metavar="ID[:NAME=VALUE,...]",
        help="variant id (see: matador list), with option values if wanted",
    )
    option_argument(sheet)
    sheet.add_argument(
        "--lang", choices=SHEET_LANGUAGES, default="en", help="language (default: en)"
    )
    sheet.add_argument(
        "--format", choices=SHEET_FORMATS, default="pdf", help="output format (default: pdf)"
    )
    output_argument(
        sheet,
        "write the sheet to FILE (default for pdf: ID-LANG.pdf here; "
        "html and markdown go to standard output)",
    )


def _sheet(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..sheets.model import build_sheet
    from ..sheets.render import PdfUnavailableError, render_html, render_markdown, render_pdf
    from .progress import working

    if args.format == "pdf" and args.output == "-":
        raise UsageError(
            "-o -: a PDF is written to a file; give -o FILE.pdf, "
            "or --format html or markdown for standard output"
        )
    to_stdout = args.format != "pdf" and args.output in (None, "-")
    stem = "-".join(filter(None, re.split(r"[:=,]", args.variant)))  # ID-NAME-VALUE
    path = Path(args.output or f"{stem}-{args.lang}.pdf")
    if not to_stdout:
        # Before any work: a path that cannot be written is said at once, and an
        # existing file is only ever replaced whole, by write_atomically.
        check_output(path)
    (rules,) = resolve_targets([args.variant], args.option)
    render_text = render_html if args.format == "html" else render_markdown
    if to_stdout:
        stdout.write(render_text(build_sheet(rules, args.lang)))
        return ExitStatus.OK
    content: str | bytes
    with working(stderr, f"building the {rules.variant} sheet ({args.lang})") as say:
        sheet = build_sheet(rules, args.lang)
        if args.format == "pdf":
            say(f"laying out the {rules.variant} sheet as a PDF ({args.lang})")
            try:
                content, pages = render_pdf(sheet)
            except PdfUnavailableError as error:
                stderr.write(f"matador sheet: {error}\n")
                return ExitStatus.INVALID
            done = f"matador sheet: wrote {path} ({pages} page{'s' if pages != 1 else ''})\n"
        else:
            content = render_text(sheet)
            done = f"matador sheet: wrote {path}\n"
    safeio.write_atomically(path, content)
    stdout.write(done)
    return ExitStatus.OK


#: The handlers of this group's commands.
COMMANDS: dict[str, Handler] = {"sheet": _sheet}
