"""Printable rule sheets: catalogues, the sheet model, Markdown, HTML, PDF and the CLI.

PDF rendering takes one to three seconds a sheet, so the PDF checks do not
render all 40 sheets (10 variants x 4 languages): they render every variant in
English and French, german (the most diagrams) in Polish and pagat (the longest
sheet) in Haitian Creole, once each, in one module-scoped fixture, with the
fonts embedded whole (faster to write, same layout). Markdown
and HTML are rendered for every variant in every language, and in English for
every value of every option.
"""

from __future__ import annotations

import ast
import dataclasses
import io
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from html import unescape
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from fingerprint import Fingerprint

from reference_engine.rules import Catalog, Rules
from reference_engine.rules.model import PerPlayers
from reference_engine.rules.parameters import PARAMETERS, Sentence
from reference_engine.rules.vocabulary import (
    EndFilter,
    Fit,
    MatadorAccess,
    MatadorTiles,
    MatchRule,
    NoteKind,
    OpenValues,
    Shape,
    TargetUnit,
)
from reference_engine.sheets import LANGUAGES
from reference_engine.sheets.catalogue import (
    PLURAL_FORMS,
    PLURAL_RULES,
    CatalogueError,
    Translator,
    UnknownLanguageError,
    fields,
    load_entries,
)
from reference_engine.sheets.docs import DOC_LANGUAGES, documents, is_generated
from reference_engine.sheets.figures import _deal_rows
from reference_engine.sheets.model import Sheet, build_sheet, shown_gaps
from reference_engine.sheets.render import TEMPLATE_DIR, render_html, render_markdown, render_pdf
from reference_engine.sheets.sentences import rule_sentences

REPO = Path(__file__).resolve().parents[1]
SHEETS_PACKAGE = REPO / "reference_engine" / "sheets"
DOCS = REPO / "docs" / "sheets"
CATALOG = Catalog.shipped()
VARIANTS = CATALOG.ids()
OTHER_LANGUAGES = [lang for lang in LANGUAGES if lang != "en"]


def resolve(variant: str, **options: str) -> Rules:
    return CATALOG.resolve(variant, options)


def flat(text: str) -> str:
    """Text with hyphenation at line ends undone and every run of whitespace one space."""
    text = re.sub(r"[\u2010\u00ad]\n", "", text)
    text = re.sub(r"-\n", "-", text)
    return " ".join(text.split())


# --------------------------------------------------------------------------- catalogues


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_catalogue_has_exactly_the_english_keys(lang: str) -> None:
    english, other = load_entries("en"), load_entries(lang)
    assert sorted(set(english) - set(other)) == [], f"{lang}.yaml lacks these keys"
    assert sorted(set(other) - set(english)) == [], f"{lang}.yaml has keys English lacks"


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_catalogue_entries_use_the_english_fields(lang: str) -> None:
    english, other = load_entries("en"), load_entries(lang)
    wrong = {
        key: (sorted(fields(english[key])), sorted(fields(other[key])))
        for key in english
        if key in other and fields(english[key]) != fields(other[key])
    }
    assert wrong == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_entries_give_the_forms_of_their_language(lang: str) -> None:
    english, entries = load_entries("en"), load_entries(lang)
    for key, entry in english.items():
        translated = entries[key]
        if isinstance(entry, str):
            assert isinstance(translated, str), f"{lang}:{key} should be one string"
        else:
            assert not isinstance(translated, str), f"{lang}:{key} needs plural forms"
            assert set(translated) == PLURAL_FORMS[lang], f"{lang}:{key}"


def test_plural_rules() -> None:
    polish = PLURAL_RULES["pl"]
    assert [polish(n) for n in (1, 2, 4, 5, 12, 22, 25, 100)] == [
        "one",
        "few",
        "few",
        "many",
        "many",
        "few",
        "many",
        "many",
    ]
    assert PLURAL_RULES["fr"](0) == "one" and PLURAL_RULES["en"](0) == "other"
    assert Translator.for_language("pl").tn("rule.reserve.kept", 2).count("2 kamienie") == 1


def test_unknown_language_and_missing_key() -> None:
    with pytest.raises(UnknownLanguageError, match="en, fr, pl, ht"):
        Translator.for_language("de")
    with pytest.raises(CatalogueError, match="no key"):
        Translator.for_language("en").t("rule.opener.no_such_value")


def _template_keys() -> set[str]:
    keys: set[str] = set()
    for template in TEMPLATE_DIR.glob("*.j2"):
        keys |= set(re.findall(r"""\bt\(\s*['"]([^'"]+)['"]""", template.read_text("utf-8")))
    return keys


def _code_keys() -> tuple[set[str], set[str]]:
    """The constant keys, and the constant prefixes of f-string keys, the sheet code looks up."""
    constants: set[str] = set()
    prefixes: set[str] = set()
    for path in SHEETS_PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in {"t", "tn"}
                and node.args
            ):
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                constants.add(first.value)
            elif isinstance(first, ast.JoinedStr) and isinstance(first.values[0], ast.Constant):
                prefixes.add(str(first.values[0].value))
            elif isinstance(first, ast.IfExp):
                constants |= {
                    str(branch.value)
                    for branch in (first.body, first.orelse)
                    if isinstance(branch, ast.Constant)
                }
    return constants, prefixes


def test_templates_use_only_english_keys() -> None:
    keys = _template_keys()
    assert keys, "no t('...') calls found in the templates"
    assert sorted(keys - set(load_entries("en"))) == []


def test_sheet_code_uses_only_english_keys() -> None:
    english = set(load_entries("en"))
    constants, prefixes = _code_keys()
    assert constants and prefixes
    assert sorted(constants - english) == []
    assert sorted(p for p in prefixes if not any(key.startswith(p) for key in english)) == []


def test_each_composed_rule_has_its_composer_and_no_other_rule_does() -> None:
    """A rule is stated by value or by its composer, as the registry says: never both,
    never neither."""
    from reference_engine.sheets.sentences import COMPOSERS

    composed = [rule.name for rule in PARAMETERS if rule.sentence is Sentence.COMPOSED]
    assert list(COMPOSERS) == composed


def _vocabulary_keys() -> set[str]:
    """Every key a variant could need, whatever values its rules take."""
    keys: set[str] = set()
    for rule in PARAMETERS:
        if rule.sentence is Sentence.BY_VALUE:
            keys |= {rule.value_key(value) for value in rule.values or ()}
        keys |= {rule.label_key}
    keys |= {f"note.kind.{value}" for value in NoteKind}
    keys |= {f"mode.tiles.{value}" for value in MatadorTiles}
    keys |= {f"mode.ends.{value}" for value in EndFilter}
    keys |= {f"mode.next.{value}" for value in MatchRule}
    keys |= {f"mode.after.{value}" for value in MatadorAccess}
    # fit: match is allowed with the inline shape only (SPEC 7.3, coherence).
    shapes_fits = [(Shape.INLINE, Fit.MATCH)] + [(shape, Fit.FREE) for shape in Shape]
    keys |= {f"mode.how.{shape}.{fit}" for shape, fit in shapes_fits}
    keys |= {f"mode.title.{shape}.{fit}" for shape, fit in shapes_fits}
    keys |= {f"mode.open.{value}" for value in OpenValues if value is not OpenValues.OUTER_HALF}
    keys |= {f"mode.open.outer_half_{fit}" for fit in Fit}
    # a match target is worded for players or for sides
    keys |= {f"rule.target.{unit}{who}" for unit in TargetUnit for who in ("", "_sides")}
    return keys


def test_every_rule_value_has_an_english_sentence() -> None:
    assert sorted(_vocabulary_keys() - set(load_entries("en"))) == []


def test_a_mixed_deal_names_each_count() -> None:
    """A hand size of all for some counts and numbers for others is stated count by count."""
    rules = dataclasses.replace(
        resolve("xs4all-matador"),
        hand_size=PerPlayers(two=7, three="all", four=5),
        reserve=PerPlayers(two=0, three=0, four=0),
    )
    text = rule_sentences(rules, "hand_size", Translator.for_language("en"), short=True)
    assert text == [
        "Tiles dealt: 7 each with 2 players, every tile with 3 players and 5 each with 4 players."
    ]
    rows = {row.players: (row.hand, row.boneyard) for row in _deal_rows(rules)}
    assert rows == {2: ("7", 14), 3: ("10/9", 0), 4: ("5", 8)}


def test_every_english_key_is_used() -> None:
    """No dead entries: each key is used by some sheet, a template or some rule value."""
    translator = Translator.for_language("en")
    for variant in VARIANTS:
        for options in _option_choices(variant):
            build_sheet(resolve(variant, **options), "en", translator=translator)
    extra = {"set.other", "deal.reserve_only", "sum.blank_dead", "list.and", "list.or"}
    # a hand size of all for some player counts and numbers for others: no shipped
    # variant mixes them (test_a_mixed_deal_names_each_count covers it)
    extra |= {"rule.hand_size.all_by_players"}
    # printed only when a translation is missing, which never happens in English
    extra |= {"prose.untranslated", "sheet.untranslated"}
    reachable = translator.used | _template_keys() | _vocabulary_keys() | extra
    assert sorted(set(load_entries("en")) - reachable) == []


def test_catalogues_do_not_copy_the_sources(source_fingerprint: Fingerprint) -> None:
    """No catalogue sentence repeats seven words in a row of a source text."""
    copied = []
    for lang in LANGUAGES:
        for key, entry in load_entries(lang).items():
            for text in [entry] if isinstance(entry, str) else list(entry.values()):
                for run in source_fingerprint.copied(re.sub(r"\{\w+\}", " ", text), "words7"):
                    copied.append(f"{lang}:{key}: {run!r}")
    assert copied == [], "\n".join(copied)


# --------------------------------------------------------------------------- the model


def _option_choices(variant: str) -> Iterator[dict[str, str]]:
    """The default options, then each non-default value of each option alone."""
    yield {}
    for option in resolve(variant).options:
        for value in option.values:
            if value.name != option.default:
                yield {option.name: value.name}


@pytest.fixture(scope="module")
def sheets() -> dict[tuple[str, str], Sheet]:
    return {
        (variant, lang): build_sheet(resolve(variant), lang)
        for variant, lang in product(VARIANTS, LANGUAGES)
    }


def test_sum_table_comes_from_the_placement_tables(sheets: dict[tuple[str, str], Sheet]) -> None:
    # The survey: an end showing 1 to 6 takes 10 of the 28 tiles, a blank only the 4 matadors.
    rows = sheets[("pagat", "en")].sum_rows
    assert [row.count for row in rows] == ["4"] + ["10"] * 6
    assert rows[6].need == "1" and rows[6].ordinary.split() == [
        "0-1",
        "1-1",
        "1-2",
        "1-3",
        "1-4",
        "1-5",
    ]
    # jeux de hasard: away from a blank a matador must fit by the sum rule like any tile.
    rows = sheets[("jeux-de-hasard", "en")].sum_rows
    assert [row.count for row in rows] == ["4"] + ["7"] * 6
    assert rows[6].matadors == "1-6"


def test_worked_example_is_the_survey_hand(sheets: dict[tuple[str, str], Sheet]) -> None:
    assert "A wins and scores 19 − 8 = 11." in sheets[("gamerules-com", "en")].examples[0]
    assert "A wins and scores 8 + 19 = 27." in sheets[("britannica-1911", "en")].examples[0]
    assert "(19 + 14 + 11) − 8 = 36" in sheets[("gamerules-com", "en")].examples[1]
    each = build_sheet(resolve("gamerules-com", difference="each_opponent_minus_own"), "en")
    assert "(19 − 8) + (14 − 8) + (11 − 8) = 20" in each.examples[1]
    sides = build_sheet(resolve("pagat", partnership="two_vs_two"), "en")
    assert "Side A + C wins and scores 30 − 22 = 8." in sides.examples[0]
    assert "Side A + C wins and scores 30 − 14 = 16." in sides.examples[1]


def test_matador_modes_are_drawn(sheets: dict[tuple[str, str], Sheet]) -> None:
    german = sheets[("german", "en")].modes
    assert [card.title for card in german] == [
        "By the sum rule",
        "In line, on any number",
        "Across the line (T)",
        "Across, one half standing out (L)",
    ]
    assert all(card.diagram is not None for card in german)
    assert german[2].diagram is not None and " T → " in german[2].diagram.text
    assert german[3].diagram is not None and " L → " in german[3].diagram.text
    closing = sheets[("polish-base", "en")].modes[2].diagram
    assert closing is not None and closing.text.endswith("×")
    assert "closes that end for good" in closing.caption


def test_every_diagram_is_well_formed_svg(sheets: dict[tuple[str, str], Sheet]) -> None:
    for sheet in sheets.values():
        drawings = [*sheet.matadors, sheet.sum_example, *(card.diagram for card in sheet.modes)]
        for drawing in drawings:
            assert drawing is not None
            root = ET.fromstring(drawing.svg)
            assert root.tag == "{http://www.w3.org/2000/svg}svg"
            assert root.find("{http://www.w3.org/2000/svg}rect") is not None


def test_gaps_shown_are_those_behind_a_value_in_force() -> None:
    ids = [gap.id for gap in shown_gaps(resolve("pagat"))]
    assert "no-boneyard-yet-drawing" in ids and "berndt-either-end" not in ids
    assert "no-double-dealt" not in ids  # nobody_has_double does not apply to pagat
    crosswise = [gap.id for gap in shown_gaps(resolve("pagat", crosswise="berndt"))]
    assert "berndt-either-end" in crosswise


def test_options_say_what_each_value_changes(sheets: dict[tuple[str, str], Sheet]) -> None:
    options = {row.name: row for row in sheets[("pagat", "en")].options}
    assert options["set"].value == "double_six" and options["set"].marker == "default"
    others = {value.name: value.rules for value in options["set"].others}
    assert others["double_nine"] == "A double-nine set: 55 tiles, each half showing 0 to 9 pips."
    chosen = build_sheet(resolve("pagat", set="double_nine"), "fr")
    assert {row.name: row.marker for row in chosen.options}["set"] == "choisie"
    assert chosen.command == "matador sheet pagat --option set=double_nine --lang fr"


def test_sheet_for_a_larger_set() -> None:
    sheet = build_sheet(resolve("pagat", set="double_twelve"), "en")
    assert len(sheet.sum_rows) == 13 and sheet.sum_rows[0].count == "7"
    assert sheet.sum_rows[1].ordinary == "12 tiles with a 12"  # [1-12] is a matador
    assert [tile.text for tile in sheet.matadors] == [
        "[0-0]",
        "[1-12]",
        "[2-11]",
        "[3-10]",
        "[4-9]",
        "[5-8]",
        "[6-7]",
    ]


# --------------------------------------------------------------------------- Markdown and HTML


def _key_facts(rules: Rules, title: str) -> list[str]:
    """Text every sheet of ``rules`` shows: its title (``title``, translated), the matadors..."""
    facts = [title, str(rules.target.value), f"{rules.line_sum}"]
    return facts + [f"[{low}-{high}]" for low, high in rules.matadors()]


@pytest.mark.parametrize(("variant", "lang"), list(product(VARIANTS, LANGUAGES)))
def test_markdown_and_html(sheets: dict[tuple[str, str], Sheet], variant: str, lang: str) -> None:
    rules = resolve(variant)
    sheet = sheets[(variant, lang)]
    markdown = render_markdown(sheet)
    html = render_html(sheet)
    for text in (markdown, unescape(html)):
        for fact in _key_facts(rules, sheet.title):
            assert fact in text
        assert not re.search(r"\{\w*\}", re.sub(r"<style>.*?</style>", "", text, flags=re.S))
        assert "None" not in text
    for players in rules.players:
        hand = rules.hand_size.for_players(players)
        boneyard = rules.tile_count - hand * players
        assert f"| {players} | {hand} | {boneyard} |" in markdown
        assert f"<td>{players}</td><td>{hand}</td><td>{boneyard}</td>" in html
    assert html.count("<svg") == len(rules.matadors()) + 1 + len(rules.matador_modes)
    assert f'<html lang="{lang}">' in html
    if lang != "en":
        heading = load_entries(lang)["heading.equipment"]
        assert isinstance(heading, str) and heading in markdown


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_option_value_renders(variant: str) -> None:
    for options in _option_choices(variant):
        sheet = build_sheet(resolve(variant, **options), "en")
        text = render_markdown(sheet)
        rows = {row.name: row for row in sheet.options}
        for name, value in options.items():
            row = rows[name]
            # said in words: the value's summary in bold, marked chosen; no identifier
            assert (row.value, row.marker) == (value, "chosen")
            assert f"**{row.in_force.summary}** (chosen)" in text
            shown = text.split("-->", 1)[1]  # (the first line, a comment, says the command)
            assert f"`{name}`" not in shown and f"{name}={value}" not in shown


def test_a_sheet_speaks_in_words_only() -> None:
    """No identifier (``total_minus_own``), no command line (``--option``) and no bare
    text number (``text 000``) on any sheet, in any language."""
    for variant, lang in product(VARIANTS, LANGUAGES):
        text = render_markdown(build_sheet(resolve(variant), lang)).split("-->", 1)[1]
        found = re.findall(r"\b[a-z]+_[a-z_]+\b|--option|\b(?:text|texte|tekst|tèks) \d{3}\b", text)
        assert found == [], (variant, lang, found)


def test_markdown_has_no_unfilled_fields() -> None:
    for variant, lang in product(VARIANTS, LANGUAGES):
        text = render_markdown(build_sheet(resolve(variant), lang))
        assert not re.search(r"\{\w*\}", text), (variant, lang)


# --------------------------------------------------------------------------- PDF

PDF_SHEETS = [(variant, lang) for variant in VARIANTS for lang in ("en", "fr")] + [
    ("german", "pl"),
    ("pagat", "ht"),
]


@pytest.fixture(scope="module")
def pdfs(sheets: dict[tuple[str, str], Sheet]) -> dict[tuple[str, str], tuple[int, str]]:
    """Page count and extracted text of each PDF of PDF_SHEETS."""
    pypdf = pytest.importorskip("pypdf")
    pytest.importorskip("weasyprint")
    found = {}
    for key in PDF_SHEETS:
        data, pages = render_pdf(sheets[key], full_fonts=True)
        reader = pypdf.PdfReader(io.BytesIO(data))
        assert len(reader.pages) == pages
        text = "\n".join(page.extract_text() for page in reader.pages)
        found[key] = (pages, text)
    return found


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "lang"), PDF_SHEETS)
def test_pdf(
    pdfs: dict[tuple[str, str], tuple[int, str]],
    sheets: dict[tuple[str, str], Sheet],
    variant: str,
    lang: str,
) -> None:
    rules = resolve(variant)
    pages, raw = pdfs[(variant, lang)]
    assert pages in (1, 2)
    text = flat(raw)
    for fact in _key_facts(rules, sheets[(variant, lang)].title):
        assert flat(fact) in text  # the PDF's text has no no-break spaces (French typography)
    for players in rules.players:  # the deal table: players, tiles each, boneyard
        hand = rules.hand_size.for_players(players)
        assert re.search(rf"\b{players} {hand} {rules.tile_count - hand * players}\b", text)
    heading = load_entries(lang)["heading.agree"]
    assert isinstance(heading, str) and heading in text


@pytest.mark.slow
def test_pdf_finds_the_rules_that_differ(pdfs: dict[tuple[str, str], tuple[int, str]]) -> None:
    def text(key: tuple[str, str]) -> str:
        return flat(pdfs[key][1])

    assert "played to 150 points" in text(("jeux-de-hasard", "en"))
    assert "se joue en 150 points" in text(("jeux-de-hasard", "fr"))
    assert "19 − 8 = 11" in text(("gamerules-com", "en"))
    assert "8 + 19 = 27" in text(("britannica-1911", "fr"))
    assert "Rozgrywka trwa do 100 punktów" in text(("german", "pl"))
    assert "Prostopadle, z wystającą połówką (L)" in text(("german", "pl"))
    assert "Pati a jwe jiska 100 pwen" in text(("pagat", "ht"))
    assert "Ak 4 jwè, yo bay tout tuil yo" in text(("pagat", "ht"))


# --------------------------------------------------------------------------- docs/sheets


def test_docs_sheets_are_fresh() -> None:
    expected = documents()
    present = {path.name for path in DOCS.iterdir() if is_generated(path)}
    assert sorted(present - set(expected)) == [], (
        "left over: run python -m reference_engine.sheets.docs"
    )
    stale = [
        name
        for name, text in expected.items()
        if not (DOCS / name).is_file() or (DOCS / name).read_text("utf-8") != text
    ]
    assert stale == [], "stale or missing: run python -m reference_engine.sheets.docs"
    assert {name.split(".")[1] for name in expected} == set(DOC_LANGUAGES)


def test_docs_readme_links_every_sheet() -> None:
    readme = (DOCS / "README.md").read_text("utf-8")
    for name in documents():
        assert f"({name})" in readme


# --------------------------------------------------------------------------- lazy imports


def test_engine_and_runner_do_not_load_jinja_or_weasyprint() -> None:
    code = (
        "import sys\n"
        "import reference_engine, reference_engine.engine.hand\n"
        "import reference_engine.conformance.session.runner\n"
        "import reference_engine.cli, reference_engine.sheets, reference_engine.sheets.model\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in {'jinja2', 'weasyprint'})\n"
        "print(loaded)\n"
        "import reference_engine.sheets.render\n"
        "print('weasyprint' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert result.stdout.split("\n")[:2] == ["[]", "False"], result.stdout + result.stderr


# --------------------------------------------------------------------------- the CLI


def test_cli_markdown_to_stdout(matador: Callable[..., Any]) -> None:
    result = matador("sheet", "jeux-de-hasard", "--format", "markdown", "--lang", "fr")
    assert result.code == 0, result.err
    assert result.out == render_markdown(build_sheet(resolve("jeux-de-hasard"), "fr"))


def test_cli_html_to_file(matador: Callable[..., Any], tmp_path: Path) -> None:
    target = tmp_path / "sheet.html"
    result = matador(
        "sheet", "pagat", "--option", "crosswise=english", "--format", "html", "-o", target
    )
    assert result.code == 0, result.err
    assert result.out == f"matador sheet: wrote {target}\n"
    html = target.read_text("utf-8")
    assert "<svg" in html and "(chosen)" in html
    body = html.split("<body", 1)[1]  # (the head's generator names the command)
    assert "--option" not in body and "crosswise=english" not in body  # words, no command


@pytest.mark.slow
def test_cli_pdf_default_file(
    matador: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("weasyprint")
    monkeypatch.chdir(tmp_path)
    result = matador("sheet", "polish", "--lang", "pl")
    assert result.code == 0, result.err
    assert re.fullmatch(r"matador sheet: wrote polish-pl\.pdf \([12] pages?\)\n", result.out)
    assert (tmp_path / "polish-pl.pdf").read_bytes().startswith(b"%PDF-")


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["sheet", "nope", "--format", "markdown"], 1, "no variant 'nope'"),
        (["sheet", "pagat", "--option", "foo=bar", "--format", "html"], 1, "no option 'foo'"),
        (["sheet", "pagat", "--option", "set=huge", "--format", "html"], 1, "no value 'huge'"),
        (["sheet", "pagat", "--option", "set", "--format", "html"], 2, "not NAME=VALUE"),
        (["sheet", "pagat", "--lang", "de"], 2, "invalid choice: 'de'"),
        (["sheet", "pagat", "--format", "docx"], 2, "invalid choice: 'docx'"),
        (
            ["sheet", "pagat", "--format", "markdown", "-o", "/nonexistent/dir/pagat.md"],
            2,
            "matador sheet: cannot write /nonexistent/dir/pagat.md",
        ),
    ],
)
def test_cli_errors(matador: Callable[..., Any], argv: list[str], code: int, message: str) -> None:
    result = matador(*argv)
    assert result.code == code
    assert message in result.err
    assert result.out == ""


# --------------------------------------------------------------------------- the sources' own words


#: The entries where a player passes, and the Polish page's words for it: it says
#: a player may miss a turn, "opuszczenie kolejki (spasowanie)". pasować alone
#: means a tile fits, so it must not stand for passing.
POLISH_PASSING = (
    "heading.drawing",
    "label.pass_when",
    "rule.pass_when.always",
    "rule.pass_when.no_play",
    "rule.pass_when.only_matador_plays",
    "rule.after_single_draw.must_play_drawn",
)


@pytest.mark.parametrize("key", POLISH_PASSING)
def test_the_polish_sheet_passes_with_the_page_s_words_not_with_fitting(key: str) -> None:
    text = str(load_entries("pl")[key])
    assert re.search(r"spasow|kolejk", text), text
    assert not re.search(r"\b(pasuje|pasować|pasowanie)\b(?! jak)", text.split(";")[-1]), text


def test_the_polish_sheet_lays_a_double_against_an_end_not_on_its_other_side() -> None:
    text = str(load_entries("pl")["rule.doubles.inline"])
    assert "po drugiej stronie" not in text and "dokłada się do końcówki" in text


def test_a_matador_with_both_ends_open_shows_the_end_it_opens() -> None:
    """supplement (cardsdicedominoes.com): a matador across the line leaves both of its
    ends open. The worked example of that way: [2-5] across an end showing 4 leaves its
    2 there and opens a new end showing its 5; [1-5] then makes seven with the 2."""
    sheet = build_sheet(Catalog.shipped().resolve("cardsdicedominoes-com"), "en")
    captions = [card.diagram.caption for card in sheet.modes if card.diagram is not None]
    assert (
        "Example: on an end showing 4, [2-5] leaves 2 open there and opens a new end "
        "showing 5; [1-5] may follow on the first."
    ) in captions
