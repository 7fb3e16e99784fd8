"""A rule sheet inside the site's page frame: the sheet's own HTML taken apart for embedding.

The sheets package renders a sheet as a standalone page made for A4 paper
(:func:`~reference_engine.sheets.render.render_html`, the source of the PDF).
The site keeps that content as it is and only re-frames it:
:func:`sheet_parts` takes the standalone page apart into its own
(print) style sheet, its header and the inside of its ``<main>``, which the
site's ``sheet.html.j2`` puts under the site's header and navigation, with the
sheet's style sheet applied to print only and the site's screen styles on screen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import MatadorError

_STYLE = re.compile(r"<style>\n?(.*?)</style>", re.DOTALL)
_HEADER = re.compile(r"<body[^>]*>\s*(<header>.*?</header>)", re.DOTALL)
_MAIN = re.compile(r"<main>(.*)</main>\s*</body>", re.DOTALL)


class SheetShapeError(MatadorError):
    """The sheet's HTML no longer has the shape the site takes apart (a programming error)."""


@dataclass(frozen=True)
class SheetParts:
    """The parts of a standalone sheet page the site embeds (HTML and CSS, already escaped)."""

    css: str
    header: str
    main: str


def _one(pattern: re.Pattern[str], page: str, what: str) -> str:
    found = pattern.search(page)
    if found is None:
        raise SheetShapeError(f"the sheet's HTML has no {what}")
    return found.group(1)


def sheet_parts(page: str) -> SheetParts:
    """The print style sheet, the header and the body of a sheet page rendered by the sheets."""
    css = _one(_STYLE, page, "<style> element")
    if "</" in css:
        raise SheetShapeError("the sheet's style sheet holds '</'")
    return SheetParts(
        css=css,
        header=_one(_HEADER, page, "<header> at the top of <body>"),
        main=_one(_MAIN, page, "<main> closing the <body>"),
    )
