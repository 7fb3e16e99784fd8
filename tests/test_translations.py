"""Every text a sheet prints is in the sheet's language: the prose store and the sheets it feeds.

The variants' own prose (title, option and value summaries, gaps, notes) and
the publications' titles are translated in ``sheets/catalogues/prose/`` (see
:mod:`reference_engine.sheets.translations`). These tests fail, naming each
place, when a shipped variant's prose has no fresh translation (a new variant,
a changed or new English text), and check that no French, Polish or Kreyòl
sheet, for any option value, prints an English sentence.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from fingerprint import Fingerprint
from sheet_texts import option_choices

from reference_engine.rules import Catalog, Rules
from reference_engine.sheets import translations
from reference_engine.sheets.catalogue import Translator, load_entries
from reference_engine.sheets.model import build_sheet
from reference_engine.sheets.render import render_markdown
from reference_engine.sheets.translations import (
    PROSE_DIR,
    PROSE_LANGUAGES,
    Entry,
    findings,
    load_store,
    lookup,
    shipped_prose,
)

CATALOG = Catalog.shipped()
VARIANTS = CATALOG.ids()

FIX = "translate: python -m reference_engine.sheets.translations --missing LANG (--template LANG)"


# --------------------------------------------------------------------------- the store


@pytest.mark.parametrize("lang", PROSE_LANGUAGES)
def test_every_prose_entry_has_a_fresh_translation(lang: str) -> None:
    found = [f for f in findings(lang, shipped_prose()) if f.kind != "orphan"]
    assert found == [], f"{len(found)} missing or stale; {FIX}\n" + "\n".join(map(str, found))


@pytest.mark.parametrize("lang", PROSE_LANGUAGES)
def test_no_translation_is_left_over(lang: str) -> None:
    found = [f for f in findings(lang, shipped_prose()) if f.kind == "orphan"]
    assert found == [], "no such place in the variant any more:\n" + "\n".join(map(str, found))


def test_store_files_are_named_after_variants() -> None:
    names = {path.stem for lang in PROSE_LANGUAGES for path in (PROSE_DIR / lang).glob("*")}
    assert names <= {*VARIANTS, translations.PUBLICATIONS, translations.SECTIONS}


def test_a_changed_english_text_makes_the_translation_stale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stored = {"title": Entry(en="An old title", text="Un vieux titre")}
    monkeypatch.setattr(translations, "load_store", lambda lang, variant: stored)
    assert lookup("fr", "x", "title", "An  old\ntitle") == "Un vieux titre"  # whitespace aside
    assert lookup("fr", "x", "title", "A new title") is None
    assert lookup("fr", "x", "notes.0", "Anything") is None


def test_the_command_lists_and_templates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(translations, "PROSE_DIR", tmp_path)
    load_store.cache_clear()
    try:
        assert translations.main(["--missing", "pl", "--variant", "dutch"]) == 0
        out = capsys.readouterr().out
        assert "pl/dutch.yaml: title: missing" in out and "0 stale" in out
        assert translations.main(["--template", "pl", "--variant", "dutch"]) == 0
        written = (tmp_path / "pl" / "dutch.yaml").read_text("utf-8")
        assert "title:\n  en: " in written and '  pl: ""' in written
        assert translations.main(["--check"]) == 1
    finally:
        load_store.cache_clear()


# --------------------------------------------------------------------------- the sheets


_TILE = re.compile(r"\[\d+[-|]\d+\]|\d+")


@cache  # the sheets of one variant under each option repeat most of their sentences
def _normal(sentence: str) -> str:
    """A sentence without tiles, numbers, format fields, punctuation or case."""
    sentence = re.sub(r"\{\w+\}", " ", _TILE.sub(" ", sentence))
    return " ".join(re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", sentence.lower()))


def _sentences(text: str) -> list[str]:
    return [part for part in re.split(r"(?<=[.:;!?])\s+|\n+", text) if part.strip()]


def _english_sentences() -> set[str]:
    """Normalized English sentences of four words or more: the catalogue and all variant prose."""
    texts: list[str] = []
    for entry in load_entries("en").values():
        texts += [entry] if isinstance(entry, str) else list(entry.values())
    for store, places in shipped_prose().items():
        # titles: proper names; sections: mostly the sources' own headings, quoted on
        # purpose; both are checked as store entries
        if store not in (translations.PUBLICATIONS, translations.SECTIONS):
            texts += list(places.values())
    found = {_normal(s) for text in texts for s in _sentences(text)}
    return {s for s in found if len(s.split()) >= 4}


@pytest.fixture(scope="module")
def english() -> set[str]:
    return _english_sentences()


def _publication_titles() -> list[str]:
    from reference_engine.rules import registry

    return list(registry().publications.values())


@pytest.mark.parametrize("lang", PROSE_LANGUAGES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_no_english_sentence_on_a_translated_sheet(
    english: set[str], variant: str, lang: str
) -> None:
    translator = Translator.for_language(lang)
    found = []
    for options in option_choices(variant):
        markdown = render_markdown(
            build_sheet(CATALOG.resolve(variant, options), lang, translator=translator)
        )
        marker = str(load_entries(lang)["prose.untranslated"]).split("{text}")[0]
        markdown = markdown.replace(marker, "\n")  # the English behind the marker is English too
        for title in _publication_titles():  # proper names, and the sources' own section titles
            markdown = markdown.replace(title, " ")
        for sentence in _sentences(markdown):
            if _normal(sentence) in english:
                found.append(f"{options or 'defaults'}: {sentence.strip()}")
    assert found == [], f"English on the {lang} sheet of {variant}; {FIX}\n" + "\n".join(
        sorted(set(found))
    )


def _translated(lang: str, variant: str, place: str) -> str:
    entry = load_store(lang, variant).get(place)
    assert entry is not None and entry.text, f"{lang}/{variant}: {place} missing; {FIX}"
    return entry.text


@pytest.mark.parametrize("lang", PROSE_LANGUAGES)
def test_gaps_options_and_notes_are_printed_in_the_sheet_s_language(lang: str) -> None:
    rules: Rules = CATALOG.resolve("britannica-1911")
    sheet = build_sheet(rules, lang)
    markdown = render_markdown(sheet)
    assert sheet.untranslated == (), f"untranslated on the sheet: {sheet.untranslated}; {FIX}"
    gap = next(gap for gap in rules.gaps if gap.id == "reserve-with-four")
    for part in ("about", "reading", "why"):
        assert _translated(lang, gap.variant, f"gaps.{gap.id}.{part}") in markdown
    assert _translated(lang, "britannica-1911", "notes.0") in markdown
    assert _translated(lang, "britannica-1911", "options.four_players.summary") in markdown
    assert sheet.title == _translated(lang, "britannica-1911", "title")
    assert sheet.publication == _translated(lang, "_publications", "britannica-1911")
    heading = load_entries(lang)["heading.notes"]
    assert isinstance(heading, str) and f"## {heading}" in markdown
    # the base variant's gaps and notes reach the variants that extend it
    polish = render_markdown(build_sheet(CATALOG.resolve("polish"), lang))
    assert _translated(lang, "polish-base", "notes.1") in polish


def test_a_user_s_variant_falls_back_to_english_marked(tmp_path: Path) -> None:
    """A variant file of one's own has no translation: the sheet prints its English, marked."""
    text = (Path(__file__).resolve().parents[1] / "variants" / "dutch.yaml").read_text("utf-8")
    path = tmp_path / "my-dutch.yaml"
    path.write_text(text.replace("id: dutch", "id: my-dutch", 1), "utf-8")
    catalog = Catalog.load([path])
    rules = catalog.resolve("my-dutch")
    sheet = build_sheet(rules, "fr", catalog=catalog)
    markdown = render_markdown(sheet)
    marker = str(load_entries("fr")["prose.untranslated"]).split("{")[0]
    assert sheet.title == marker + " ".join(rules.title.split())
    assert "my-dutch: title" in sheet.untranslated and sheet.untranslated_note in markdown


# --------------------------------------------------------------------------- not copied


def test_translations_do_not_copy_the_sources(source_fingerprint: Fingerprint) -> None:
    """No translation repeats seven words in a row of a source text (tiles and numbers aside)."""
    copied = []
    for lang in PROSE_LANGUAGES:
        for path in sorted((PROSE_DIR / lang).glob("*.yaml")):
            for place, entry in load_store(lang, path.stem).items():
                text = entry.text
                if path.stem == translations.SECTIONS:  # a source's heading, quoted on purpose
                    text = " ".join(text.split()).replace(entry.en, " ")
                for run in source_fingerprint.copied(text, "untiled7"):
                    copied.append(f"{lang}/{path.stem}: {place}: {run!r}")
    assert copied == [], "\n".join(copied)
