"""The texts of the translated sheets, for the tests that read them as a player would.

The glossary's concepts, a catalogue's entries, a language's prose entries, and
every rendered sheet of a language (every variant, the defaults and each other
option value alone), built once per language and shared.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from reference_engine.rules import Catalog
from reference_engine.sheets.catalogue import Translator, load_entries
from reference_engine.sheets.model import build_sheet
from reference_engine.sheets.render import render_markdown
from reference_engine.sheets.translations import PROSE_DIR, load_store

CATALOG = Catalog.shipped()
VARIANTS = CATALOG.ids()
GLOSSARY = Path(__file__).resolve().parents[1] / "spec" / "glossary.yaml"


@cache
def glossary() -> dict[str, Any]:
    """The concepts of ``spec/glossary.yaml``, each with its words per language."""
    data = yaml.safe_load(GLOSSARY.read_text("utf-8"))
    return dict(data["concepts"])


def entry_texts(entry: object) -> list[str]:
    """A catalogue entry's texts: the sentence, or each of its plural forms."""
    if isinstance(entry, str):
        return [entry]
    return [str(form) for form in dict(entry).values()]  # type: ignore[call-overload]


def catalogue_texts(lang: str) -> dict[str, str]:
    """Each catalogue key of ``lang`` and its text (all plural forms, joined)."""
    return {key: " ".join(entry_texts(entry)) for key, entry in load_entries(lang).items()}


def prose_texts(lang: str) -> Iterator[tuple[str, str, str]]:
    """(store:place, English, translation) of every prose entry of ``lang``."""
    for path in sorted((PROSE_DIR / lang).glob("*.yaml")):
        for place, entry in load_store(lang, path.stem).items():
            yield f"{path.stem}:{place}", entry.en, entry.text


def option_choices(variant: str) -> Iterator[dict[str, str]]:
    """The default options, then each other value of each option alone."""
    yield {}
    for option in CATALOG.resolve(variant).options:
        for value in option.values:
            if value.name != option.default:
                yield {option.name: value.name}


@cache
def rendered_sheets(lang: str) -> tuple[tuple[str, str, int, str], ...]:
    """(variant, options, line sum, Markdown) of every sheet of ``lang``, every option
    value; none prints a text left untranslated."""
    translator = Translator.for_language(lang)
    found = []
    for variant in VARIANTS:
        for options in option_choices(variant):
            rules = CATALOG.resolve(variant, options)
            sheet = build_sheet(rules, lang, translator=translator)
            assert sheet.untranslated == (), (lang, variant, options, sheet.untranslated)
            found.append((variant, str(options), rules.line_sum, render_markdown(sheet)))
    return tuple(found)
