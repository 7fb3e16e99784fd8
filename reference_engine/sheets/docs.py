"""The generated Markdown sheets in ``docs/sheets/``: every variant in English and French.

Regenerate them after changing a variant, a catalogue or a template::

    python -m reference_engine.sheets.docs            # writes docs/sheets/
    python -m reference_engine.sheets.docs OTHER_DIR  # or somewhere else

A test (tests/test_sheets.py) fails when the files in ``docs/sheets/`` differ
from what this module generates.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from ..rules import Catalog
from .model import build_sheet
from .render import render_markdown

#: The languages of the sheets kept in docs/sheets/.
DOC_LANGUAGES: tuple[str, ...] = ("en", "fr")

#: Where the generated sheets live, relative to the repository root.
DOCS_DIR = Path("docs") / "sheets"


def documents(catalog: Catalog | None = None) -> dict[str, str]:
    """File name -> Markdown text of every generated sheet (default options)."""
    catalog = catalog if catalog is not None else Catalog.shipped()
    found = {}
    for variant in catalog.ids():
        rules = catalog.resolve(variant)
        for lang in DOC_LANGUAGES:
            sheet = build_sheet(rules, lang, catalog=catalog)
            found[f"{variant}.{lang}.md"] = render_markdown(sheet)
    return found


def is_generated(path: Path) -> bool:
    """Whether a file in the sheets folder is one this module writes (``ID.LANG.md``)."""
    parts = path.name.split(".")
    return len(parts) == 3 and parts[1] in DOC_LANGUAGES and parts[2] == "md"


def write(directory: Path) -> list[Path]:
    """Write every sheet into ``directory``, removing generated sheets of vanished variants."""
    directory.mkdir(parents=True, exist_ok=True)
    wanted = documents()
    for old in directory.iterdir():
        if is_generated(old) and old.name not in wanted:
            old.unlink()
    written = []
    for name, text in wanted.items():
        path = directory / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m reference_engine.sheets.docs [DIR]``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) > 1 or any(arg.startswith("-") for arg in args):
        sys.stderr.write("usage: python -m reference_engine.sheets.docs [DIR]\n")
        return 2
    directory = Path(args[0]) if args else DOCS_DIR
    written = write(directory)
    sys.stdout.write(f"wrote {len(written)} sheet(s) to {directory}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
