"""``matador site``: write the static site (rules side by side, variant pages, sheets, explain).

The site's builder (Jinja2, the sheets, the engine's tables) is imported only
when the command runs, so ``matador --help`` and every other command stay light.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from ..exits import ExitStatus
from .arguments import AddCommand, Handler


def add_parsers(command: AddCommand) -> None:
    """Add ``site`` to ``matador``'s commands."""
    site = command(
        "site", "write a static website of every variant's rules, sheets and an explain page"
    )
    site.add_argument(
        "folder",
        metavar="DIR",
        help="the folder to write (new, empty, or a site written before, which is replaced)",
    )
    site.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="ID",
        help="only this variant (repeatable; default: every shipped variant)",
    )


def _site(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..rules import Catalog
    from ..site.folder import check_target, write_site
    from ..site.pages import site_files
    from .progress import working

    if not args.folder.strip():
        stderr.write("matador site: the folder's name is empty: give the folder to write\n")
        return ExitStatus.USAGE
    target = Path(args.folder)
    check_target(target)  # before any work: a folder that cannot be used is said at once
    catalog = Catalog.shipped()
    variants = list(dict.fromkeys(args.variant)) or list(catalog.ids())
    for variant in variants:
        catalog.resolve(variant)  # an unknown id is reported before anything is built
    with working(stderr, f"building the site: {len(variants)} variant(s), sheets, explain page"):
        count = write_site(target, site_files(catalog, variants))
    plural = "s" if len(variants) != 1 else ""
    stdout.write(
        f"matador site: wrote {target} ({count} files, {len(variants)} variant{plural}); "
        f"open {target / 'index.html'}\n"
    )
    return ExitStatus.OK


#: The handlers of this group's commands.
COMMANDS: dict[str, Handler] = {"site": _site}
