"""Printable rule sheets: a variant's resolved rules as an A4 sheet in four languages.

The sheet is built from the :class:`~reference_engine.rules.Rules` object and the
engine's compiled tables (:mod:`.model`); every sentence comes from a translation
catalogue (``catalogues/LANG.yaml``, :mod:`.catalogue`), filled with the variant's
numbers; tile diagrams are drawn in code as SVG (:mod:`.svg`); Jinja2 templates
turn the sheet into HTML or Markdown and WeasyPrint turns the HTML into PDF
(:mod:`.render`).

This module imports nothing heavy: Jinja2 and WeasyPrint are loaded only when a
sheet is rendered, so the engine and the conformance runner never load them.
"""

from __future__ import annotations

#: The languages of the catalogues, each with its name in English (how the site and
#: the messages name it); English is the reference catalogue.
LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "fr": "French",
    "pl": "Polish",
    "ht": "Haitian Creole",
}

#: The languages of the catalogues, in order.
LANGUAGES: tuple[str, ...] = tuple(LANGUAGE_NAMES)

#: The output formats of ``matador sheet``.
FORMATS: tuple[str, ...] = ("pdf", "html", "markdown")

__all__ = ["FORMATS", "LANGUAGES", "LANGUAGE_NAMES"]
