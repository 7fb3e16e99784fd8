"""The Polish sheets say the game as a Polish player writes it, and print no English.

What a native reviewer checked against the Polish page (source text 004), held as
tests over the catalogue (``catalogues/pl.yaml``), the prose store
(``catalogues/prose/pl/``) and every rendered Polish sheet (every variant, every
option value):

- the Polish words of ``spec/glossary.yaml`` carry the key notions (the rule of
  sevens, the matador, the boneyard, an end) wherever the English names them, and
  a tile is a "kamień", as the page calls it;
- the forms the review found wrong appear nowhere: the rule of sevens called a
  "sum rule" (reguła sumy), "użyć" with the accusative, the "lightest hand" and
  "heaviest tile" calques (najlżejsza ręka, najcięższy kamień), the subjectless
  "skoro po siedem kamieni", an undeclined "Joe Celko", and the German variant's
  opening said otherwise than the page's German variant says it;
- no sentence or label of the English catalogue is printed on a Polish sheet, and
  the list of sources names its passages in Polish.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from sheet_texts import (
    CATALOG,
    VARIANTS,
    catalogue_texts,
    glossary,
    prose_texts,
    rendered_sheets,
)

from reference_engine.sheets.catalogue import Translator, load_entries
from reference_engine.sheets.model import build_sheet
from reference_engine.sheets.render import render_html
from reference_engine.sheets.translations import SECTIONS, findings, load_store, shipped_prose


def pairs() -> Iterator[tuple[str, str, str]]:
    """(place, English, Polish) of every catalogue entry and every Polish prose entry."""
    english, polish = catalogue_texts("en"), catalogue_texts("pl")
    for key, text in english.items():
        yield f"catalogue:{key}", text, polish[key]
    yield from prose_texts("pl")


def sheets() -> tuple[tuple[str, str, int, str], ...]:
    """(variant, options, line sum, Markdown) of every Polish sheet, every option value."""
    return rendered_sheets("pl")


def _section(markdown: str, heading: str) -> str:
    """The text of the Markdown section ``## heading``, up to the next heading."""
    return markdown.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]


def _flags(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


# --------------------------------------------------------------------------- the words

#: Key notion -> (where the English names it, the Polish the translation must use).
#: The rule of sevens, the matador and the boneyard take the glossary's own patterns;
#: an end is the page's "końcówka" (of a matador, its "koniec"); the glossary has no
#: entry for a tile, which the page always calls a "kamień".
NOTIONS: dict[str, tuple[str, str]] = {
    "rule_of_sevens": (
        r"\b(seven rule|rule of sevens)\b",
        glossary()["rule_of_sevens"]["pl"]["use"],
    ),
    "matador": (glossary()["matador"]["en"]["match"], glossary()["matador"]["pl"]["use"]),
    "boneyard": (glossary()["boneyard"]["en"]["match"], glossary()["boneyard"]["pl"]["use"]),
    "open_end": (
        r"\bopen ends?\b|\b(any|an|each|every|blank|that|one|third) end\b|\bend (shows|showing)\b",
        r"końców|końc|koniec",
    ),
    "tile": (r"(?<!\{)\btiles?\b(?!\}| game)", r"kamie|kamień"),
}

#: Places that speak of a tile without the word, each with how the Polish says it.
TILE_UNSAID = {
    "catalogue:rule.opener_plays_again.false": "po wyjściu: the opening tile is the lead",
    "catalogue:rule.draw_when.no_play": "nie ma czego dołożyć: has nothing to add",
    "catalogue:rule.draw_when.only_matador_plays": "nie ma czego dołożyć",
    "catalogue:sum.blank_dead": "nic nie pasuje: nothing fits",
    "britannica-1911:options.draw.values.when_unable.summary": "nie ma czego dołożyć",
    "britannica-1911:options.knock.values.when_unable.summary": "nie ma się czego dołożyć",
}


def test_the_glossary_gives_the_polish_page_s_words() -> None:
    terms = {name: glossary()[name]["pl"]["term"] for name in ("rule_of_sevens", "boneyard")}
    assert terms == {"rule_of_sevens": "reguła siódemek", "boneyard": "talon"}
    assert glossary()["matador"]["pl"]["term"].startswith("matador")
    assert glossary()["open_end"]["pl"]["term"].startswith("wolna końcówka")
    # declined forms count: "zgodnie z regułą siódemek", "akapit o regule siódemek"
    use = _flags(glossary()["rule_of_sevens"]["pl"]["use"])
    for form in ("reguła siódemek", "reguły siódemek", "regułą siódemek", "regule siódemek"):
        assert use.search(form), form


def test_the_catalogue_names_the_key_notions_with_the_page_s_words() -> None:
    texts = catalogue_texts("pl")
    assert texts["heading.sum_rule_sevens"] == "Reguła siódemek"
    assert texts["deal.boneyard"] == "Talon"
    assert texts["sum.matador_only"] == "matador"
    assert texts["sum.end"] == "Końcówka"
    assert texts["deal.hand"] == "Kamieni na gracza"
    assert "wolnej końcówki łańcucha" in texts["rule.max_pip.line_sum"]
    # a sum other than seven is not given the name of the rule of sevens
    assert not re.search(r"siódem|\b7\b", texts["heading.sum_rule"])
    assert not re.search(r"siódem|sum", texts["mode.title.inline.match"])


@pytest.mark.parametrize("notion", list(NOTIONS))
def test_each_key_notion_is_said_with_the_page_s_word(notion: str) -> None:
    english, polish = (_flags(pattern) for pattern in NOTIONS[notion])
    named = [(place, text) for place, en, text in pairs() if english.search(en)]
    assert len(named) >= 10, f"the English names the {notion} in at least ten places"
    unsaid = TILE_UNSAID if notion == "tile" else {}
    wrong = [
        f"{place}: {text!r}"
        for place, text in named
        if not polish.search(text) and place not in unsaid
    ]
    assert wrong == [], "\n".join(wrong)


def test_every_sevens_sheet_heads_its_rule_with_the_page_s_name() -> None:
    sevens = str(load_entries("pl")["heading.sum_rule_sevens"])
    other = str(load_entries("pl")["heading.sum_rule"])
    seen: dict[int, int] = {}
    for variant, options, line_sum, markdown in sheets():
        expected, unexpected = (sevens, other) if line_sum == 7 else (other, sevens)
        assert f"## {expected}\n" in markdown, (variant, options)
        assert f"## {unexpected}\n" not in markdown, (variant, options)
        seen[line_sum] = seen.get(line_sum, 0) + 1
    assert seen.get(7) and seen.get(10), f"sheets of both kinds are looked at: {seen}"


#: The forms found wrong on review, with what is wrong with each (case-insensitive).
WRONG: dict[str, str] = {
    r"\bregu[łl]\w*\s+sumy\b": "the rule of sevens is „reguła siódemek”, not a „sum rule”",
    r"\bnajlżejsz\w*": "the winner is the player with the fewest pips in hand, not a light hand",
    r"\bnajcięższ\w*": "a tile with the most pips, not a heavy tile",
    r"\bnajlżejsz\w*\s+ręk\w*|\bręk\w*\s+najlżejsz\w*": "the lightest hand",
    r"\bskoro\s+po\b": "„skoro” needs a subject (skoro przy rozdaniu po siedem kamieni…)",
    r"\bu[żz]y(ć|je|wa\w*)\s+(\w+\s+){0,2}(kamień|dublet|talon|ten|jeden)\b": "użyć + genitive",
    r"\b(kamień|dublet)\b[^,.;:()]{0,40}\bu[żz]yć\b": "użyć + genitive (użyć kamienia)",
    r"\b(strona|stronę|stronie|autorstwa|za|według|przez|o)\s+(Joe\s+)?Celko\b": "undeclined",
    r"\bJoe\s+Celk(a|i|ą|ę|owi|iem)\b": "the first name is declined with the surname (Joego)",
    r"\bwykładając go\b": "the opener leads the double (wychodzi z dubletu)",
    r"\botwierającego otwierający\b": "the German opening sentence, reworded",
}


def test_no_form_found_wrong_on_review() -> None:
    patterns = {_flags(pattern): why for pattern, why in WRONG.items()}
    found = [
        f"{place}: {why}: {text!r}"
        for place, _, text in pairs()
        for pattern, why in patterns.items()
        if pattern.search(text)
    ]
    for variant, options, _, markdown in sheets():
        found += [
            f"sheet {variant} {options}: {why}: {match.group(0)!r}"
            for pattern, why in patterns.items()
            for match in pattern.finditer(markdown)
        ]
    assert found == [], "\n".join(sorted(set(found)))


def test_the_wrong_forms_are_caught() -> None:
    """The patterns above find the sentences the review quoted."""
    quoted = [
        "Według reguły sumy",
        "wygrywa je najlżejsza ręka",
        "Posiadacz najcięższego kamienia wychodzi tym kamieniem.",
        "Jak grać we czterech, skoro po siedem kamieni nie zostawia dwóch kamieni w rezerwie.",
        "Strona mówi, że jeden dobrany kamień można od razu użyć w grze.",
        "Matador według pagat (strona Joe Celko)",
        "Rozdanie otwiera gracz, który ma najwyższy dublet, wykładając go.",
    ]
    patterns = [_flags(pattern) for pattern in WRONG]
    assert [text for text in quoted if not any(p.search(text) for p in patterns)] == []
    right = [
        "Według reguły siódemek",
        "wygrywa je gracz, któremu zostało w ręku najmniej oczek",
        "jednego dobranego kamienia można od razu użyć w grze",
        "strona o Matadorze autorstwa Joego Celki",
        "Joe Celko w relacji serwisu pagat",
    ]
    assert [text for text in right if any(p.search(text) for p in patterns)] == []


def test_joe_celko_is_declined() -> None:
    """Undeclined only as the subject that opens a text; Joego Celki in context."""
    for place, _, text in pairs():
        for match in re.finditer(r"\bCelko\b", text):
            assert text.startswith("Joe Celko") and match.start() == 4, (place, text)
    pagat = next(markdown for variant, _, _, markdown in sheets() if variant == "pagat")
    assert pagat.count("Joego Celki") >= 2  # the title and the publication


def test_the_german_opening_reads_as_the_page_s_german_variant() -> None:
    """The holder of the highest double starts with it and the same player adds the next tile."""
    german = next(markdown for variant, _, _, markdown in sheets() if variant == "german")
    opening = _section(german, str(load_entries("pl")["heading.opening"]))
    assert "Rozdanie rozpoczyna gracz, który ma najwyższy dublet, i wychodzi z tego dubletu." in (
        opening
    )
    assert re.search(r"ten sam gracz [^.]*musi dołożyć drugi kamień", opening), opening
    assert "kolejka przechodzi na następnego gracza" in opening


# --------------------------------------------------------------------------- no English


def _english_fragments() -> set[str]:
    """The literal runs of three words or more of every English catalogue text."""
    fragments = set()
    for text in catalogue_texts("en").values():
        for part in re.split(r"\{\w+\}", text):
            part = " ".join(part.split()).strip(" .,:;()[]")
            if len(re.findall(r"[A-Za-z]+(?:'[a-z]+)?", part)) >= 3:
                fragments.add(part)
    return fragments


def test_the_english_fragments_are_the_catalogue_s_sentences_and_labels() -> None:
    fragments = _english_fragments()
    assert len(fragments) > 150
    assert "Tiles left in the boneyard" in fragments  # a label
    assert "The winner scores the losers' pips less their own" in fragments
    assert "Every rule on this sheet comes from these passages" in fragments


def test_no_english_catalogue_sentence_or_label_on_a_polish_sheet() -> None:
    fragments = _english_fragments()
    found = {
        f"{variant} {options}: {fragment!r}"
        for variant, options, _, markdown in sheets()
        for fragment in fragments
        if fragment in markdown
    }
    assert found == set(), "\n".join(sorted(found))
    assert len(sheets()) > len(VARIANTS)  # every option value, not the defaults only


def test_no_english_catalogue_sentence_in_the_html_either() -> None:
    fragments = _english_fragments()
    translator = Translator.for_language("pl")
    for variant in VARIANTS:
        html = render_html(build_sheet(CATALOG.resolve(variant), "pl", translator=translator))
        assert '<html lang="pl">' in html, variant
        assert [fragment for fragment in fragments if fragment in html] == [], variant


#: The English labels of the sources list (how the variant files name the passages).
ENGLISH_LABELS = (
    "opening paragraphs",
    "paragraph on",
    "paragraphs on",
    "example table",
    "below Punktacja",
    "Other published rule sets",
    "English Wikipedia article",
    "tekst supplement",
    "text supplement",
)


def test_the_sources_list_names_its_passages_in_polish() -> None:
    sections = shipped_prose()[SECTIONS]
    assert "004: example table (below Punktacja)" in sections
    assert findings("pl", {SECTIONS: sections}) == [], "every cited passage has a fresh label"
    store = load_store("pl", SECTIONS)
    assert store["supplement"].text == "uzupełniający"  # printed as "tekst uzupełniający"
    heading = str(load_entries("pl")["heading.sources"])
    printed: set[str] = set()
    for variant, options, _, markdown in sheets():
        sources = _section(markdown, heading)
        for label in ENGLISH_LABELS:
            assert label not in sources, (variant, options, label)
        printed |= {entry.en for entry in store.values() if entry.text in sources}
    assert {"opening paragraphs", "Other published rule sets", "supplement"} <= printed
    assert "Zasady gry" in printed  # the Polish page's own headings, as it writes them
