"""Rendering a sheet: Jinja2 templates for HTML and Markdown, WeasyPrint for PDF.

Jinja2 is imported when this module is; WeasyPrint only inside
:func:`render_pdf`. Nothing else in the project imports this module at import
time (the CLI imports it inside the ``sheet`` handler).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

import jinja2
from markupsafe import Markup, escape

from ..errors import MachineProblem
from ..extras import Extra, install_hint
from ..rules import Rules
from .catalogue import Translator
from .model import Sheet, build_sheet

TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"

#: The most pages a printed sheet may take.
MAX_PAGES = 2

#: Type sizes tried in turn (the densest last) until the PDF fits on MAX_PAGES.
DENSITIES = (0, 1, 2, 3)

_TILE = re.compile(r"\[\d+-\d+\]")
_OPTION = re.compile(r"--option [a-z0-9_]+=[a-z0-9_]+")


class PdfUnavailableError(MachineProblem):
    """WeasyPrint (the ``pdf`` extra) is not installed."""


def _rich(text: str) -> Markup:
    """HTML for a sentence: escaped, with tiles and option flags marked up."""
    html = str(escape(text))
    html = _TILE.sub(lambda m: f'<span class="tile">{m.group(0)}</span>', html)
    html = _OPTION.sub(lambda m: f"<code>{m.group(0)}</code>", html)
    return Markup(html)


def _markdown(text: str) -> str:
    """Markdown for a sentence: option flags as code, table pipes escaped."""
    text = _OPTION.sub(lambda m: f"`{m.group(0)}`", text)
    return text.replace("|", "\\|")


@cache
def environment(kind: str) -> jinja2.Environment:
    """The template environment for ``html`` (autoescaped) or ``markdown``."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIR),
        autoescape=kind == "html",
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["rich"] = _rich
    env.filters["md"] = _markdown
    return env


def _translate(lang: str) -> Callable[..., str]:
    translator = Translator.for_language(lang)

    def t(key: str, **params: object) -> str:
        return translator.t(key, **params)

    return t


def render_html(sheet: Sheet, *, density: int = 0) -> str:
    """The sheet as a standalone HTML page (the source of the PDF)."""
    template = environment("html").get_template("sheet.html.j2")
    return template.render(sheet=sheet, t=_translate(sheet.lang), density=density)


def render_markdown(sheet: Sheet) -> str:
    """The sheet as Markdown (text diagrams instead of drawings)."""
    template = environment("markdown").get_template("sheet.md.j2")
    text = template.render(sheet=sheet, t=_translate(sheet.lang))
    return re.sub(r"\n{3,}", "\n\n", text).rstrip("\n") + "\n"


def render_pdf(sheet: Sheet, *, full_fonts: bool = False) -> tuple[bytes, int]:
    """The sheet as an A4 PDF and its number of pages.

    The type is made smaller, step by step, until the sheet fits on
    :data:`MAX_PAGES` pages (the last step is kept even if it does not).
    ``full_fonts`` embeds the fonts whole instead of subsetting them: a much
    larger file, made faster (the tests use it; the layout is the same).
    """
    try:
        import weasyprint
    except ImportError as error:  # pragma: no cover - depends on the installation
        raise PdfUnavailableError(
            f"PDF output needs WeasyPrint ({install_hint(Extra.PDF)})"
        ) from error
    document = None
    for density in DENSITIES:
        html = weasyprint.HTML(string=render_html(sheet, density=density), base_url=TEMPLATE_DIR)
        document = html.render()
        if len(document.pages) <= MAX_PAGES:
            break
    assert document is not None
    return bytes(document.write_pdf(full_fonts=full_fonts)), len(document.pages)


def render(rules: Rules, lang: str, fmt: str) -> str | bytes:
    """``rules`` as a sheet in ``lang`` and format ``pdf``, ``html`` or ``markdown``."""
    sheet = build_sheet(rules, lang)
    if fmt == "pdf":
        return render_pdf(sheet)[0]
    if fmt == "html":
        return render_html(sheet)
    if fmt == "markdown":
        return render_markdown(sheet)
    raise ValueError(f"unknown sheet format {fmt!r}")
