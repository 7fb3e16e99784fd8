"""The French and Kreyòl sheets say the game in their players' own words, and no English.

What a native reviewer checked against the source texts, held as tests:

- the words of ``spec/glossary.yaml`` carry the key notions (the rule of sevens,
  the matador, the boneyard, an end, a blank, a hand) where the sheets name them,
  and the words and turns the review found wrong appear nowhere: an end that
  "makes seven" (an end shows one number: the touching halves make seven), the
  rule of sevens called a "sum rule", French calques in Kreyòl, a lost "must";
- French typography: a no-break space before a colon (and the other high
  punctuation), and no title that repeats "Matador";
- no sentence or label of the English catalogue is printed on a French or
  Kreyòl sheet, for any variant and any option value, and the sources list names
  its passages in the sheet's language.
"""

from __future__ import annotations

import re

import pytest
from sheet_texts import (
    VARIANTS,
    catalogue_texts,
    entry_texts,
    glossary,
    prose_texts,
    rendered_sheets,
)

from reference_engine.sheets.catalogue import load_entries
from reference_engine.sheets.translations import SECTIONS, load_store

LANGS = ("fr", "ht")

#: The words and turns found wrong on review, per language (regular expressions,
#: case-insensitive), each with what is wrong with it.
WRONG: dict[str, dict[str, str]] = {
    "fr": {
        r"\bbouts? qui font\b": "an end shows one number; the touching halves make the sum",
        r"\bdes bouts qui\b": "an end shows one number; the touching halves make the sum",
        r"\brègle de la somme\b": "the rule of sevens is « la règle du sept »",
        r"\bfait la somme\b": "the rule of sevens is « la règle du sept »",
        r"\bet l'ouvre\b|\bl'ouvre,": "one opens the hand with a tile, not the tile",
        r"\by compris les siens\b": "agreement: the hand's own is « la sienne »",
        r"\b\d+ et \d+ ouvert\b": "agreement of « ouvert » with two numbers",
        r"\bspinner\b(?!\s*\()": "English word",
    },
    "ht": {
        r"\ben toutlèt\b|\ban toutlèt\b": "French calque (en toutes lettres)",
        r"\bpensèt\b": "French calque (avec des pincettes)",
        r"\ban reta\b": "French calque (en retard)",
        r"\ben-sis\b|\bsenk-en\b|\bde-senk\b|\btwa-kat\b": "calque of tile names: write [1-6]",
        r"\bprezante\b": "French calque (présenter); a half is turned (vire) against a tile",
        r"\brèg total\b": "the rule of sevens is « règ sèt la »",
        r"\bbout ki fè\b": "an end shows one number; the touching halves make the sum",
        r"\bespanyòl\b": "Kreyòl says panyòl",
        r"\bspinner\b(?!\s*\()": "English word",
    },
}

#: English labels of the sources list that must never be printed on these sheets.
ENGLISH_LABELS = (
    "opening paragraphs",
    "paragraph on",
    "paragraphs on",
    "example table",
    "Other published rule sets",
    "English Wikipedia article",
    "text supplement",
)

_TILE_SUM = re.compile(r"\{sum\}|\b7\b|sept|sèt")


def _use(lang: str, concept: str) -> re.Pattern[str]:
    return re.compile(glossary()[concept][lang]["use"], re.IGNORECASE)


# --------------------------------------------------------------------------- the words


@pytest.mark.parametrize("lang", LANGS)
def test_the_catalogue_names_the_key_notions_with_the_glossary_s_words(lang: str) -> None:
    texts = catalogue_texts(lang)
    named = {
        "heading.sum_rule_sevens": "rule_of_sevens",
        "heading.matadors": "matador",
        "deal.boneyard": "boneyard",
        "label.reserve": "boneyard",
        "sum.end": "open_end",
        "sum.matador_only": "matador",
        "heading.end": "hand",
        "heading.drawing": "draw",
        "mode.ends.blank": "blank",
        "mode.title.crosswise.free": "crosswise",
    }
    wrong = {
        key: texts[key]
        for key, concept in named.items()
        if not _use(lang, concept).search(texts[key])
    }
    assert wrong == {}, f"{lang}: not said with the glossary's word"
    # the rule of sevens is named as the glossary names it, and only the heading of
    # a set whose halves sum to seven says "seven"
    sevens = {"fr": "règle du sept", "ht": "règ sèt"}[lang]
    assert sevens in texts["heading.sum_rule_sevens"].lower()
    assert not _TILE_SUM.search(texts["heading.sum_rule"].lower())


@pytest.mark.parametrize("lang", LANGS)
def test_every_sevens_sheet_heads_its_rule_with_the_glossary_s_name(lang: str) -> None:
    heading = str(load_entries(lang)["heading.sum_rule_sevens"])
    other = str(load_entries(lang)["heading.sum_rule"])
    seen = {7: 0, 10: 0}
    for variant, options, line_sum, markdown in rendered_sheets(lang):
        expected, unexpected = (heading, other) if line_sum == 7 else (other, heading)
        assert f"## {expected}\n" in markdown, (variant, options)
        assert f"## {unexpected}\n" not in markdown, (variant, options)
        seen[line_sum] = seen.get(line_sum, 0) + 1
    assert seen[7] and seen[10], "both kinds of sheet are looked at"


@pytest.mark.parametrize("lang", LANGS)
def test_prose_about_the_rule_of_sevens_uses_its_name(lang: str) -> None:
    english = re.compile(r"\b(seven rule|rule of sevens)\b", re.IGNORECASE)
    use = _use(lang, "rule_of_sevens")
    found = [(place, text) for place, en, text in prose_texts(lang) if english.search(en)]
    assert len(found) > 10, "the prose speaks of the rule of sevens"
    assert [(place, text) for place, text in found if not use.search(text)] == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_survey_s_turn_of_phrase_for_the_next_tile_on_a_crosswise_blank(lang: str) -> None:
    """pagat's English version: the next tile MUST turn a blank against the matador."""
    text = dict((place, t) for place, _, t in prose_texts(lang))[
        "pagat:options.crosswise.values.english.summary"
    ]
    must, turn = {"fr": ("doit", "tourner un blanc"), "ht": ("dwe", "vire yon blan")}[lang]
    assert must in text and turn in text, text


@pytest.mark.parametrize("lang", LANGS)
def test_no_word_found_wrong_on_review(lang: str) -> None:
    patterns = {re.compile(p, re.IGNORECASE): why for p, why in WRONG[lang].items()}
    found = []
    for key, text in catalogue_texts(lang).items():
        found += [
            f"catalogue {key}: {why}: {text!r}" for p, why in patterns.items() if p.search(text)
        ]
    for place, _, text in prose_texts(lang):
        found += [f"{place}: {why}: {text!r}" for p, why in patterns.items() if p.search(text)]
    for variant, options, _, markdown in rendered_sheets(lang):
        for p, why in patterns.items():
            found += [
                f"sheet {variant} {options}: {why}: {m.group(0)!r}" for m in p.finditer(markdown)
            ]
    assert found == [], "\n".join(sorted(set(found)))


@pytest.mark.parametrize("lang", LANGS)
def test_no_title_repeats_the_game_s_name(lang: str) -> None:
    doubled = re.compile(r"^# Matador\W+(?:le |la )?matador\b", re.IGNORECASE | re.MULTILINE)
    titles = []
    for variant, options, _, markdown in rendered_sheets(lang):
        heading = markdown.splitlines()[2]
        assert heading.startswith("# Matador"), (variant, heading)
        titles.append(heading)
        assert not doubled.search(markdown), (variant, options, heading)
    assert len(set(titles)) == len(VARIANTS)


def test_french_puts_a_no_break_space_before_high_punctuation() -> None:
    plain = re.compile(r"(?:(?<=\S) |^)[:;!?»]|« ", re.MULTILINE)
    missing = re.compile(r"(?<=[^\s\u00a0\u202f\d*`|/])[:;!?](?=\s)")
    # the Polish page's own headings, quoted as it writes them
    quoted = sorted({entry.en for entry in load_store("fr", SECTIONS).values()}, key=len)[::-1]

    def wrong(text: str) -> bool:
        for heading in quoted:
            text = text.replace(heading, " ")
        return bool(plain.search(text) or missing.search(text.replace("**", "")))

    found = []
    for key, text in catalogue_texts("fr").items():
        if wrong(text):
            found.append(f"catalogue {key}: {text!r}")
    for place, _, text in prose_texts("fr"):
        if wrong(text):
            found.append(f"{place}: {text!r}")
    for variant, options, _, markdown in rendered_sheets("fr"):
        for line in markdown.splitlines()[1:]:  # after the generated comment
            if wrong(line):
                found.append(f"sheet {variant} {options}: {line!r}")
    assert found == [], "\n".join(sorted(set(found))[:40])
    assert load_entries("fr")["list.colon"] == "\u00a0:"


# --------------------------------------------------------------------------- no English


def _english_fragments() -> set[str]:
    """The literal runs of three words or more of every English catalogue text."""
    fragments = set()
    for entry in load_entries("en").values():
        for text in entry_texts(entry):
            for part in re.split(r"\{\w+\}", text):
                part = " ".join(part.split()).strip(" .,:;()")
                if len(re.findall(r"[A-Za-z]+", part)) >= 3:
                    fragments.add(part)
    return fragments


def test_the_english_fragments_are_the_catalogue_s_sentences() -> None:
    fragments = _english_fragments()
    assert len(fragments) > 150
    assert "Tiles left in the boneyard" in fragments
    assert "Every rule on this sheet comes from these passages" in fragments


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_catalogue_sentence_on_a_sheet(lang: str) -> None:
    fragments = _english_fragments()
    found = {
        f"{variant} {options}: {fragment!r}"
        for variant, options, _, markdown in rendered_sheets(lang)
        for fragment in fragments
        if fragment in markdown
    }
    assert found == set(), "\n".join(sorted(found))


@pytest.mark.parametrize("lang", LANGS)
def test_the_sources_list_names_its_passages_in_the_sheet_s_language(lang: str) -> None:
    store = load_store(lang, SECTIONS)
    translated = [entry for entry in store.values() if not entry.text.startswith(entry.en)]
    assert {entry.en for entry in translated} >= {
        "opening paragraphs",
        "paragraph on the deal (after Matériel)",
        "Other published rule sets",
        "supplement",
    }
    heading = str(load_entries(lang)["heading.sources"])
    printed = set()
    for variant, options, _, markdown in rendered_sheets(lang):
        sources = markdown.split(f"## {heading}\n", 1)[1]
        for label in ENGLISH_LABELS:
            assert label not in sources, (variant, options, label)
        for entry in translated:
            if entry.en != "supplement":
                assert entry.en not in sources, (variant, options, entry.en)
            if entry.text in sources:
                printed.add(entry.en)
    assert {"opening paragraphs", "Other published rule sets"} <= printed
