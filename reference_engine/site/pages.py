"""The site's files: every page rendered with Jinja2, the rule sheets, the assets and the schemas.

:func:`site_files` returns each file of the site as a path relative to the
site's folder and its content; :mod:`.folder` writes them. The pages are laid
out by the templates in ``templates/``; the style sheet and the scripts are
copied from ``static/``; the rule sheets are the sheets' own HTML
(:func:`~reference_engine.sheets.render.render_html`), one per variant and
language, put in the site's page frame by :mod:`.sheetpage`; the action
notation (``spec/notation.md``) is rendered from Markdown; the JSON Schemas are
copied from the data folder as they are.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from ..rules import SPEC_VERSION, Catalog, Rules
from ..rules.datafiles import spec_dir
from ..rules.schema import SCHEMA_FILES
from ..sheets import LANGUAGE_NAMES, LANGUAGES
from ..sheets.model import build_sheet
from ..sheets.render import render_html
from .data import MatrixRow, matrix, variant_view
from .explaindata import explain_data, explain_script
from .sheetpage import sheet_parts

HERE = Path(__file__).resolve().parent
TEMPLATE_DIR = HERE / "templates"
STATIC_DIR = HERE / "static"


#: The file that marks a folder as a site this command wrote (it may be replaced whole).
MARKER = "matador-site.json"


@dataclass(frozen=True)
class SiteFile:
    """One file of the site: its path inside the folder (``/``-separated) and its content."""

    path: str
    content: str | bytes


@cache
def environment() -> jinja2.Environment:
    """The templates of the site's pages (autoescaped HTML)."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIR),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _page(template: str, **context: Any) -> str:
    common = {
        "spec_version": SPEC_VERSION,
        "languages": LANGUAGES,
        "language_names": LANGUAGE_NAMES,
        "page_lang": "en",
    }
    return environment().get_template(template).render({**common, **context})


def _sheet_page(rules: Rules, lang: str) -> str:
    """The sheet of ``rules`` in ``lang``: its content as the sheets render it, in the frame."""
    sheet = build_sheet(rules, lang)
    return _page(
        "sheet.html.j2",
        title=f"{rules.variant} rule sheet in {LANGUAGE_NAMES[lang]}: {sheet.title}",
        root="../",
        here="sheet",
        page_lang=lang,
        lang=lang,
        variant=rules.variant,
        parts=sheet_parts(render_html(sheet)),
    )


def _notation_page() -> str:
    """``spec/notation.md`` as a page of the site (Markdown rendered, tables on)."""
    from markdown_it import MarkdownIt

    text = (spec_dir() / "notation.md").read_text(encoding="utf-8")
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
    # each section's heading an anchor (notation.html#positions), named by its words
    body = re.sub(
        r"<h2>([^<]*)</h2>",
        lambda found: f'<h2 id="{"-".join(found[1].lower().split())}">{found[1]}</h2>',
        body,
    )
    return _page(
        "notation.html.j2", title="The action notation", root="", here="notation", body=body
    )


def _groups(rows: Sequence[MatrixRow]) -> list[str]:
    return list(dict.fromkeys(row.group for row in rows))


def site_files(catalog: Catalog, variants: Sequence[str]) -> list[SiteFile]:
    """Every file of the site for ``variants`` (at their default options)."""
    rules_list: list[Rules] = [catalog.resolve(variant) for variant in variants]
    views = [variant_view(catalog, rules) for rules in rules_list]
    rows = matrix(rules_list)
    files = [
        SiteFile(
            "index.html",
            _page(
                "index.html.j2",
                title="Every variant's rules, sheets and tools",
                root="",
                here="index",
                variants=views,
                schemas=SCHEMA_FILES,
            ),
        ),
        SiteFile(
            "matrix.html",
            _page(
                "matrix.html.j2",
                title="Rules side by side",
                root="",
                here="matrix",
                variants=views,
                rows=rows,
                groups=_groups(rows),
            ),
        ),
        SiteFile(
            "explain.html",
            _page("explain.html.j2", title="Explain a position", root="", here="explain"),
        ),
        SiteFile("notation.html", _notation_page()),
    ]
    for view in views:
        files.append(
            SiteFile(
                f"variants/{view.id}.html",
                _page(
                    "variant.html.j2",
                    title=f"{view.id}: {view.title}",
                    root="../",
                    here="variant",
                    v=view,
                ),
            )
        )
    for rules in rules_list:
        for lang in LANGUAGES:
            files.append(SiteFile(f"sheets/{rules.variant}-{lang}.html", _sheet_page(rules, lang)))
    data = explain_data(catalog, variants)
    files.append(SiteFile("assets/explain-data.js", explain_script(data)))
    files.append(
        SiteFile("assets/explain-data.json", json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    )
    for asset in sorted(STATIC_DIR.iterdir()):
        if asset.is_file():
            files.append(SiteFile(f"assets/{asset.name}", asset.read_text(encoding="utf-8")))
    for name in SCHEMA_FILES:
        files.append(SiteFile(f"spec/{name}", (spec_dir() / name).read_bytes()))
    marker = {
        "generator": "matador site",
        "spec_version": SPEC_VERSION,
        "variants": list(variants),
        # every file the site is made of: a later build removes these, and only these
        "files": sorted(item.path for item in files),
    }
    files.append(SiteFile(MARKER, json.dumps(marker, indent=1) + "\n"))
    return files
