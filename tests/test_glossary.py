"""The sheets speak each language's own game words: spec/glossary.yaml, held to the catalogues.

For every concept of the glossary (matador, double, blank, boneyard, drawing,
passing, knocking, crosswise, the line, an open end, the rule of sevens, a
hand, domino, a blocked game, fitting) and every language: wherever the English
of a catalogue entry or of a variant's prose speaks of the concept, the
translation uses the glossary's word; the word appears in the catalogue; and
the wrong or confusable words the glossary lists appear nowhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from reference_engine.sheets.catalogue import load_entries
from reference_engine.sheets.translations import (
    PROSE_DIR,
    PROSE_LANGUAGES,
    load_store,
)

GLOSSARY = Path(__file__).resolve().parents[1] / "spec" / "glossary.yaml"


@cache
def glossary() -> Mapping[str, Any]:
    data = yaml.safe_load(GLOSSARY.read_text("utf-8"))
    return data["concepts"]  # type: ignore[no-any-return]


def _texts(entry: object) -> list[str]:
    return [entry] if isinstance(entry, str) else [str(form) for form in dict(entry).values()]  # type: ignore[call-overload]


def _pairs(lang: str) -> Iterator[tuple[str, str, str]]:
    """(place, English, translation) of every catalogue entry and every stored prose entry."""
    english, other = load_entries("en"), load_entries(lang)
    for key, entry in english.items():
        en = " ".join(_texts(entry))
        yield f"catalogue:{key}", en, " ".join(_texts(other[key]))
    for path in sorted((PROSE_DIR / lang).glob("*.yaml")):
        for place, stored in load_store(lang, path.stem).items():
            if stored.text:
                yield f"{path.stem}:{place}", stored.en, stored.text


def _flags(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def test_glossary_names_every_concept_for_every_language() -> None:
    wanted = {
        "matador",
        "double",
        "blank",
        "boneyard",
        "draw",
        "pass",
        "knock",
        "crosswise",
        "line",
        "open_end",
        "rule_of_sevens",
        "hand",
        "domino",
        "blocked",
        "fit",
    }
    concepts = glossary()
    assert wanted <= set(concepts)
    for name, concept in concepts.items():
        _flags(concept["en"]["match"])
        for lang in PROSE_LANGUAGES:
            entry = concept[lang]
            assert entry["term"] and "use" in entry, (name, lang)
            assert isinstance(entry.get("where"), list), (name, lang)
            for pattern in [entry["use"], *entry.get("avoid", [])]:
                _flags(pattern)


@pytest.mark.parametrize("lang", PROSE_LANGUAGES)
def test_each_concept_is_said_with_the_glossary_s_word(lang: str) -> None:
    wrong = []
    for name, concept in glossary().items():
        finds = _flags(concept["en"]["match"])
        use = _flags(concept[lang]["use"])
        excepted = set(concept[lang].get("except", []))
        for place, english, translated in _pairs(lang):
            if finds.search(english) and not use.search(translated) and place not in excepted:
                wrong.append(f"{name}: {place}: {translated!r} (glossary: {concept[lang]['term']})")
    assert wrong == [], "\n".join(wrong)


@pytest.mark.parametrize("lang", PROSE_LANGUAGES)
def test_the_catalogue_uses_every_required_word(lang: str) -> None:
    catalogue = " ".join(" ".join(_texts(entry)) for entry in load_entries(lang).values())
    missing = [
        name
        for name, concept in glossary().items()
        if concept[lang].get("required", True)
        and not _flags(concept[lang]["use"]).search(catalogue)
    ]
    assert missing == []


@pytest.mark.parametrize("lang", PROSE_LANGUAGES)
def test_no_wrong_or_confusable_word(lang: str) -> None:
    wrong = []
    for name, concept in glossary().items():
        for pattern in concept[lang].get("avoid", []):
            avoid = _flags(pattern)
            for place, _, translated in _pairs(lang):
                found = avoid.search(translated)
                if found:
                    wrong.append(f"{name}: {place}: {found.group(0)!r} in {translated!r}")
    assert wrong == [], "\n".join(wrong)


def test_the_polish_sheet_never_passes_by_fitting() -> None:
    """pasować is the Polish page's word for a tile that fits; passing is spasować."""
    entries = load_entries("pl")
    for key in ("rule.pass_when.no_play", "rule.after_single_draw.may_play_drawn", "end.block"):
        text = " ".join(_texts(entries[key]))
        assert re.search(r"spas|kolejk", text), key
        assert not re.search(r"\bpasuj\w*\b(?! do)|\bpasowa\w*\b(?! do)", text), key
